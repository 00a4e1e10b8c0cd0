#include "ui/shell/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
#include <QDialog>
#include <QDialogButtonBox>
#include <QDir>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QGuiApplication>
#include <QInputDialog>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QProcess>
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

#include "core/base/atomic_file.h"
#include "occx_config.h"
#include "ui/plots/plot_controller.h"
#include "ui/shell/app_view.h"
#include "ui/shell/report.h"
#include "ui/views/calculator_view.h"
#include "ui/widgets/checked_spin_box.h"

namespace occx::ui {

namespace {
const char* const kGeometryKey = "window/geometry";
const char* const kCurrentTabKey = "window/currentTab";
const char* const kExportDirKey = "export/lastFolder";

/// A name that settings written by earlier versions use, and the name that replaced it.
struct Renamed {
  const char* old_name;
  const char* new_name;
};
/// Views renamed with the compile-sweep / live-sweep vocabulary: their settings group
/// ("views/<objectName>") and their tab title (the remembered current tab).
constexpr Renamed kRenamedViews[] = {{"kernel", "compileSweep"}, {"live", "liveSweep"}, {"rblock", "rblockScaling"}};
constexpr Renamed kRenamedTabs[] = {{"Kernels (NVRTC)", "Compile sweep (NVRTC)"}, {"Live runs", "Live sweep"}};

// The window's shortcuts: the menus set them, About lists them.
QList<QKeySequence> exportCsvKeys() {
  return {QKeySequence(Qt::CTRL | Qt::Key_S), QKeySequence(Qt::CTRL | Qt::Key_E)};
}
QKeySequence exportPngKey() {
  return QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S);
}
QKeySequence helpKey() {
  return QKeySequence(Qt::Key_F1);
}
QKeySequence exportReportKey() {
  return QKeySequence(Qt::CTRL | Qt::Key_P);
}

QString keysText(const QList<QKeySequence>& keys) {
  QStringList out;
  for (const QKeySequence& k : keys)
    out << QStringLiteral("<b>%1</b>").arg(k.toString(QKeySequence::NativeText).toHtmlEscaped());
  return out.join(QObject::tr(" or "));
}
}  // namespace

int MainWindow::migrateSettings(QSettings& settings) {
  int moved = 0;
  for (const Renamed& r : kRenamedViews) {
    const QString from = QStringLiteral("views/") + QLatin1String(r.old_name);
    const QString to = QStringLiteral("views/") + QLatin1String(r.new_name);
    settings.beginGroup(from);
    const QStringList keys = settings.allKeys();
    settings.endGroup();
    if (keys.isEmpty()) continue;
    for (const QString& key : keys) {
      const QString target = to + QLatin1Char('/') + key;
      if (settings.contains(target)) continue;  // written by this version: newer than the old value
      settings.setValue(target, settings.value(from + QLatin1Char('/') + key));
      ++moved;
    }
    settings.remove(from);
  }
  const QString tab = settings.value(QLatin1String(kCurrentTabKey)).toString();
  for (const Renamed& r : kRenamedTabs) {
    if (tab == QLatin1String(r.old_name)) {
      settings.setValue(QLatin1String(kCurrentTabKey), QLatin1String(r.new_name));
      ++moved;
    }
  }
  return moved;
}

MainWindow::MainWindow(bool use_settings, QWidget* parent)
    : QMainWindow(parent),
      use_settings_(use_settings),
      tabs_(new QTabWidget(this)),
      calculator_(nullptr),
      view_status_(new QLabel(this)) {
  setWindowTitle(tr("Occupancy Explorer"));
  setObjectName(QStringLiteral("mainWindow"));
  setPrompts({});
  tabs_->setDocumentMode(true);
  setCentralWidget(tabs_);
  setAcceptDrops(true);
  buildMenus();

  view_status_->setObjectName(QStringLiteral("viewStatus"));
  statusBar()->addWidget(view_status_, 1);
  cuda_label_ = new QLabel(this);
  cuda_label_->setObjectName(QStringLiteral("backendStatus"));
  statusBar()->addPermanentWidget(cuda_label_);
  showBackend(*offlineBackend());

  // 1560 × 940 where the screen has room, else 95 % of the screen's free area (a 1280 × 720 laptop).
  QSize size(1560, 940);
  if (const QScreen* screen = QGuiApplication::primaryScreen()) {
    const QSize room = screen->availableGeometry().size() * 0.95;
    size = size.boundedTo(room);
  }
  resize(size);
  if (use_settings_) {
    QSettings settings;
    migrateSettings(settings);
    restoreWindowSettings();
  }

  calculator_ = new CalculatorView(this);
  addView(calculator_, tr("Occupancy calculator"));
  connect(tabs_, &QTabWidget::currentChanged, this, [this](int) { updateForCurrentView(); });
  updateForCurrentView();
  // The menus' shortcuts from any widget of the window (see eventFilter).
  qApp->installEventFilter(this);
}

MainWindow::~MainWindow() {
  qApp->removeEventFilter(this);
  // A python3 probe still running: stop it without its handlers, which use this window.
  if (python_probe_ != nullptr) {
    python_probe_->disconnect(this);
    python_probe_->kill();
    python_probe_->waitForFinished(2000);
  }
}

void MainWindow::setPrompts(Prompts prompts) {
  if (!prompts.choose) {
    prompts.choose = [this](const QString& caption, const QString& label, const QStringList& items) {
      bool ok = false;
      const QString chosen = QInputDialog::getItem(this, caption, label, items, 0, false, &ok);
      return ok ? static_cast<int>(items.indexOf(chosen)) : -1;
    };
  }
  if (!prompts.save_path) {
    prompts.save_path = [this](const QString& caption, const QString& suggested, const QString& filter) {
      return QFileDialog::getSaveFileName(this, caption, suggested, filter);
    };
  }
  if (!prompts.inform) {
    prompts.inform = [this](const QString& title, const QString& text) { QMessageBox::about(this, title, text); };
  }
  if (!prompts.warn) {
    prompts.warn = [this](const QString& title, const QString& text) { QMessageBox::warning(this, title, text); };
  }
  prompts_ = std::move(prompts);
}

bool MainWindow::isWindowShortcut(const QKeyEvent& event) const {
  switch (event.key()) {
    case 0:
    case Qt::Key_unknown:
    case Qt::Key_Shift:
    case Qt::Key_Control:
    case Qt::Key_Meta:
    case Qt::Key_Alt:
    case Qt::Key_AltGr:
      return false;
    default:
      break;
  }
  const QKeyCombination pressed(event.modifiers() & ~Qt::KeypadModifier, static_cast<Qt::Key>(event.key()));
  const std::function<bool(const QList<QAction*>&)> any = [&](const QList<QAction*>& actions) {
    for (const QAction* a : actions) {
      if (const QMenu* menu = a->menu(); menu != nullptr && any(menu->actions())) return true;
      if (!a->isEnabled()) continue;
      for (const QKeySequence& k : a->shortcuts()) {
        if (!k.isEmpty() && k[0] == pressed) return true;
      }
    }
    return false;
  };
  return any(menuBar()->actions()) || any(actions());
}

bool MainWindow::eventFilter(QObject* watched, QEvent* event) {
  // Before a key press reaches the focus widget as a shortcut, the widget is asked whether it wants
  // the key itself (ShortcutOverride); a line edit says yes to Ctrl+E (end of line, in the X11 / KDE
  // / GNOME key bindings), Ctrl+A and more, and a number box is a line edit. For the window's own
  // shortcuts the widget is not asked: the action fires, whatever has focus.
  if (event->type() == QEvent::ShortcutOverride) {
    const auto* widget = qobject_cast<QWidget*>(watched);
    if (widget != nullptr && widget->window() == this && isWindowShortcut(*static_cast<QKeyEvent*>(event))) {
      event->ignore();
      return true;
    }
  }
  return QMainWindow::eventFilter(watched, event);
}

void MainWindow::buildMenus() {
  QMenu* file = menuBar()->addMenu(tr("&File"));
  file_menu_ = file;
  connect(file, &QMenu::aboutToShow, this, &MainWindow::updateForCurrentView);
  export_csv_ = file->addAction(tr("Export &CSV…"), this, &MainWindow::exportCsvInteractive);
  export_csv_->setShortcuts(exportCsvKeys());
  export_csv_->setStatusTip(tr("Write a table of the current view as CSV"));
  export_png_ = file->addAction(tr("Export &PNG…"), this, [this] { exportPlotInteractive(QStringLiteral("png")); });
  export_png_->setShortcut(exportPngKey());
  export_png_->setStatusTip(tr("Write a plot of the current view as a PNG image"));
  export_pdf_ = file->addAction(tr("Export P&DF…"), this, [this] { exportPlotInteractive(QStringLiteral("pdf")); });
  export_pdf_->setStatusTip(tr("Write a plot of the current view as a vector PDF"));
  export_report_ = file->addAction(tr("Export &report…"), this, &MainWindow::exportReportInteractive);
  export_report_->setShortcut(exportReportKey());
  export_report_->setStatusTip(
      tr("One page of the current view to hand out: inputs, tables, the arithmetic in words and "
         "the plots, as PDF with an HTML twin"));
  file->addSeparator();
  QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
  quit->setShortcut(QKeySequence::Quit);
  quit->setMenuRole(QAction::QuitRole);

  QMenu* help = menuBar()->addMenu(tr("&Help"));
  manual_ = help->addAction(tr("&Manual"), this, &MainWindow::showManual);
  manual_->setShortcut(helpKey());
  manual_->setStatusTip(
      tr("What each view answers, the command line, where the numbers come from, the "
         "shortcuts, and what was found on this machine"));
  about_ = help->addAction(tr("&About Occupancy Explorer"), this,
                           [this] { prompts_.inform(tr("About Occupancy Explorer"), aboutText(can_compile_)); });
  about_->setStatusTip(tr("What works without a GPU, and the keyboard shortcuts"));
  about_->setMenuRole(QAction::AboutRole);
}

void MainWindow::addOpenAction(QAction* action) {
  // The open group is everything above the first separator; the first open action starts it.
  const QList<QAction*> actions = file_menu_->actions();
  if (!open_group_started_) {
    QAction* first = actions.isEmpty() ? nullptr : actions.front();
    file_menu_->insertAction(first, action);
    if (first != nullptr && !first->isSeparator()) file_menu_->insertSeparator(first);
    open_group_started_ = true;
    return;
  }
  for (QAction* a : actions) {
    if (a->isSeparator()) {
      file_menu_->insertAction(a, action);
      return;
    }
  }
  file_menu_->addAction(action);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
  const QList<QUrl> urls = event->mimeData()->urls();
  if (!urls.isEmpty() && std::all_of(urls.begin(), urls.end(), [](const QUrl& u) { return u.isLocalFile(); })) {
    event->acceptProposedAction();
  }
}

void MainWindow::dropEvent(QDropEvent* event) {
  QStringList paths;
  for (const QUrl& u : event->mimeData()->urls()) {
    if (u.isLocalFile()) paths << u.toLocalFile();
  }
  if (paths.isEmpty()) return;
  event->acceptProposedAction();
  emit pathsDropped(paths);
}

void MainWindow::showBackend(const Backend& backend) {
  backend_ = &backend;
  can_compile_ = backend.compileAvailability().available;
  cuda_label_->setText(backendStatusText(backend));
  cuda_label_->setToolTip(aboutText(can_compile_));
}

QString MainWindow::backendStatusText(const Backend& backend) {
  // What is there, not how the program was built: a newcomer reads "CUDA support: on" as "GPU present".
  QString gpu;
  const auto gpus = backend.detectedGpus();
  const Availability live = backend.liveAvailability();
  if (!gpus.empty()) {
    gpu = tr("GPU: %1").arg(QString::fromStdString(gpus.front().name));
    if (gpus.size() > 1) gpu += tr(" (+%1 more)").arg(static_cast<int>(gpus.size()) - 1);
  } else if (live.available) {
    gpu = tr("GPU: present");
  } else {
    const QString why = QString::fromStdString(live.reason);
    gpu = why.contains(QStringLiteral("libcuda")) || why.startsWith(QStringLiteral("No NVIDIA driver"))
              ? tr("GPU: none found (driver not installed)")
          : why.contains(QStringLiteral("sees no GPU"))  ? tr("GPU: none found (the driver sees no GPU)")
          : why.contains(QStringLiteral("CUDA Toolkit")) ? tr("GPU: not used (this build has no CUDA support)")
                                                         : tr("GPU: none found");
  }
  const Availability compile = backend.compileAvailability();
  const std::string version = backend.compilerVersion();
  const QString nvrtc =
      compile.available
          ? tr("NVRTC: available") +
                (version.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(version)))
          : tr("NVRTC: not in this build");
  return gpu + QStringLiteral(" · ") + nvrtc;
}

QString MainWindow::shortcutTable() {
  const std::pair<QList<QKeySequence>, QString> rows[] = {
      {exportCsvKeys(), tr("File → Export CSV…")},
      {{exportPngKey()}, tr("File → Export PNG… (twice the shown size)")},
      {{QKeySequence(QKeySequence::Open)}, tr("File → Open Inductor run…")},
      {{exportReportKey()}, tr("File → Export report… (PDF and HTML)")},
      {{helpKey()}, tr("Help → Manual")},
      {{QKeySequence(QKeySequence::Quit)}, tr("File → Quit")},
  };
  QString html = QStringLiteral("<table cellspacing=\"2\">");
  for (const auto& [keys, what] : rows) {
    QList<QKeySequence> bound;
    for (const QKeySequence& k : keys) {
      if (!k.isEmpty()) bound << k;
    }
    if (bound.isEmpty()) continue;  // no such key in this platform's bindings
    html += QStringLiteral("<tr><td>%1</td><td>%2</td></tr>").arg(keysText(bound), what.toHtmlEscaped());
  }
  return html + QStringLiteral("</table>");
}

QString MainWindow::manualText(const QString& machine_html) {
  QFile f(QStringLiteral(":/help/manual.html"));
  QString html = f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll())
                                             : tr("<p>The manual is missing from this build.</p>");
  html.replace(QStringLiteral("{{shortcuts}}"), shortcutTable());
  html.replace(QStringLiteral("{{machine}}"), machine_html);
  return html;
}

QString MainWindow::machineFacts() const {
  const auto item = [](const QString& what, const QString& text) {
    return QStringLiteral("<li><b>%1:</b> %2</li>").arg(what.toHtmlEscaped(), text.toHtmlEscaped());
  };
  QString html = QStringLiteral("<ul>");
  if (backend_ == nullptr) {
    html += item(tr("GPU"), tr("not asked (no backend)"));
  } else {
    const auto gpus = backend_->detectedGpus();
    if (gpus.empty()) {
      html += item(tr("GPU"), tr("none found: %1").arg(QString::fromStdString(backend_->liveAvailability().reason)));
    }
    for (const DeviceInfo& d : gpus) {
      html += item(tr("GPU %1").arg(d.ordinal),
                   tr("%1, driver supporting CUDA %2")
                       .arg(QString::fromStdString(d.label()), QString::fromStdString(d.driverCudaVersion())));
    }
    const Availability nvrtc = backend_->compileAvailability();
    html += item(tr("NVRTC"), nvrtc.available ? QString::fromStdString(backend_->compilerVersion())
                                              : tr("not available: %1").arg(QString::fromStdString(nvrtc.reason)));
    const Availability cupti = backend_->profilerAvailability();
    html += item(tr("CUPTI"), cupti.available
                                  ? tr("available (kernel records; achieved occupancy where profiling is permitted)")
                                  : tr("not available: %1").arg(QString::fromStdString(cupti.reason)));
  }
  html += item(tr("Python with PyTorch and Triton"), python_status_.isEmpty() ? tr("checking…") : python_status_);
  return html + QStringLiteral("</ul>");
}

void MainWindow::showManual() {
  if (manual_dialog_ == nullptr) {
    manual_dialog_ = new QDialog(this);
    manual_dialog_->setWindowTitle(tr("Occupancy Explorer — Manual"));
    auto* layout = new QVBoxLayout(manual_dialog_);
    manual_browser_ = new QTextBrowser(manual_dialog_);
    manual_browser_->setObjectName(QStringLiteral("manualBrowser"));
    manual_browser_->setOpenExternalLinks(true);
    layout->addWidget(manual_browser_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, manual_dialog_);
    connect(buttons, &QDialogButtonBox::rejected, manual_dialog_, &QDialog::close);
    layout->addWidget(buttons);
    manual_dialog_->resize(760, 640);
  }
  if (python_status_.isEmpty() && python_probe_ == nullptr) probePython();
  manual_browser_->setHtml(manualText(machineFacts()));
  manual_dialog_->show();
  manual_dialog_->raise();
}

void MainWindow::probePython() {
  // The user's own python3, as the Triton features will use it: both packages must import.
  auto* probe = new QProcess(this);
  python_probe_ = probe;
  probe->setProcessChannelMode(QProcess::MergedChannels);
  const auto done = [this, probe](const QString& status) {
    python_status_ = status;
    python_probe_ = nullptr;
    probe->deleteLater();
    if (manual_browser_ != nullptr && manual_dialog_->isVisible()) manual_browser_->setHtml(manualText(machineFacts()));
  };
  connect(probe, &QProcess::finished, this, [probe, done](int code, QProcess::ExitStatus status) {
    const QString out = QString::fromUtf8(probe->readAll()).trimmed();
    if (status == QProcess::NormalExit && code == 0) {
      const QStringList parts = out.split(QLatin1Char(' '));
      done(parts.size() >= 3 ? tr("%1 (PyTorch %2, Triton %3)").arg(parts[0], parts[1], parts[2]) : out);
    } else {
      const QString last = out.section(QLatin1Char('\n'), -1).trimmed();
      done(tr("python3 cannot import both torch and triton (%1)")
               .arg(last.isEmpty() ? tr("exit code %1").arg(code) : last));
    }
  });
  connect(probe, &QProcess::errorOccurred, this, [done](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) done(tr("no python3 found on the PATH"));
  });
  probe->start(
      QStringLiteral("python3"),
      {QStringLiteral("-c"),
       QStringLiteral("import sys, torch, triton; print(sys.executable, torch.__version__, triton.__version__)")});
  QTimer::singleShot(30000, probe, [probe] { probe->kill(); });
}

QString MainWindow::aboutText(bool can_compile) {
  return tr("<h3>Occupancy Explorer %1</h3>"
            "<p>Explains why a GPU kernel configuration is fast or slow in terms of occupancy: the classic "
            "occupancy calculator for every compute capability from 5.0 to 12.x, with each step of the arithmetic "
            "shown.</p>"
            "<p><b>Works without a GPU:</b> the occupancy calculator, its plots and the derivation for every compute "
            "capability and the named GPUs in the built-in data; CSV, PNG and PDF exports; opening CSV files that "
            "<code>occx</code> wrote on another machine.</p>"
            "<p><b>Needs the CUDA Toolkit (no GPU):</b> compiling kernels with NVRTC to get real register and spill "
            "counts.</p>"
            "<p><b>Needs an NVIDIA GPU and driver:</b> detecting the local GPU, live runs with measured time and "
            "bandwidth, "
            "and achieved occupancy from CUPTI.</p>"
            "<p>This build: CUDA support %2.</p>"
            "<p><b>Keyboard shortcuts</b> (they work wherever the focus is, in a number box too):</p>%3")
      .arg(QStringLiteral(OCCX_VERSION), can_compile ? tr("on") : tr("off"), shortcutTable());
}

QString MainWindow::settingsGroupFor(QWidget* view, const QString& title) const {
  const QString name = view->objectName().isEmpty() ? title : view->objectName();
  return QStringLiteral("views/") + name;
}

void MainWindow::addView(QWidget* view, const QString& title) {
  if (view == nullptr) return;
  view->setProperty("occxViewTitle", title);
  const int index = tabs_->addTab(view, title);
  if (auto* app_view = dynamic_cast<AppView*>(view); app_view != nullptr && use_settings_) {
    QSettings settings;
    settings.beginGroup(settingsGroupFor(view, title));
    app_view->restoreSettings(settings);
    settings.endGroup();
  }
  if (view->metaObject()->indexOfSignal("statusMessage(QString)") >= 0) {
    connect(view, SIGNAL(statusMessage(QString)), this, SLOT(onViewStatus(QString)));
  }
  if (!pending_tab_.isEmpty() && pending_tab_ == title) {
    tabs_->setCurrentIndex(index);
    pending_tab_.clear();
  }
  updateForCurrentView();
}

void MainWindow::onViewStatus(const QString& text) {
  if (sender() != tabs_->currentWidget()) return;
  updateForCurrentView();  // a finished sweep or an opened file has tables and plots to export now
  view_status_->setText(text);
}

AppView* MainWindow::currentAppView() const {
  return dynamic_cast<AppView*>(tabs_->currentWidget());
}

void MainWindow::updateForCurrentView() {
  AppView* v = currentAppView();
  export_csv_->setEnabled(v != nullptr && !v->csvExports().empty());
  const bool plots = v != nullptr && !v->plotExports().empty();
  export_png_->setEnabled(plots);
  export_pdf_->setEnabled(plots);
  export_report_->setEnabled(v != nullptr && (plots || !v->csvExports().empty()));
  view_status_->setText(v != nullptr ? v->statusSummary() : QString());
}

QString MainWindow::exportCurrentCsv(int index, const QString& path) {
  AppView* v = currentAppView();
  if (v == nullptr) return tr("The current view has no tables to export.");
  const auto exports = v->csvExports();
  if (index < 0 || index >= static_cast<int>(exports.size())) {
    return tr("No table %1 in this view: allowed 0 … %2.").arg(index).arg(static_cast<int>(exports.size()) - 1);
  }
  auto written = writeCsvFile(exports[static_cast<std::size_t>(index)].table, path);
  if (!written) return QString::fromStdString(written.error());
  clearSettledInputMessages();
  statusBar()->showMessage(tr("Wrote %1 (%2 bytes)").arg(QDir::toNativeSeparators(path)).arg(*written), 5000);
  return {};
}

QString MainWindow::exportCurrentPlot(int index, const QString& path) {
  AppView* v = currentAppView();
  if (v == nullptr) return tr("The current view has no plots to export.");
  const auto plots = v->plotExports();
  if (index < 0 || index >= static_cast<int>(plots.size())) {
    return tr("No plot %1 in this view: allowed 0 … %2.").arg(index).arg(static_cast<int>(plots.size()) - 1);
  }
  auto written = plots[static_cast<std::size_t>(index)]->exportImage(path);
  if (!written) return QString::fromStdString(written.error());
  clearSettledInputMessages();
  statusBar()->showMessage(tr("Wrote %1 (%2 bytes)").arg(QDir::toNativeSeparators(path)).arg(*written), 5000);
  return {};
}

QString MainWindow::exportCurrentReport(const QString& pdf_path) {
  AppView* v = currentAppView();
  if (v == nullptr) return tr("The current view has nothing to report.");
  QString path = pdf_path;
  if (QFileInfo(path).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) != 0) path += QStringLiteral(".pdf");
  const QString title = tabs_->tabText(tabs_->currentIndex());
  const ReportContent report =
      reportOf(*v, title, QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
  auto pdf = writeReportPdf(report, path);
  if (!pdf) return QString::fromStdString(pdf.error());
  const QString html_path = path.left(path.size() - 4) + QStringLiteral(".html");
  auto html = writeReportHtml(report, html_path);
  if (!html) return QString::fromStdString(html.error());
  clearSettledInputMessages();
  statusBar()->showMessage(
      tr("Wrote %1 and %2").arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(html_path)), 5000);
  return {};
}

void MainWindow::exportReportInteractive() {
  AppView* v = currentAppView();
  if (v == nullptr) return;
  QString base = tabs_->tabText(tabs_->currentIndex()).toLower();
  base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
  while (base.endsWith(QLatin1Char('-'))) base.chop(1);
  const QString path = askSavePath(tr("Export report"), base + QStringLiteral("-report.pdf"), tr("PDF (*.pdf)"));
  if (path.isEmpty()) return;
  const QString error = exportCurrentReport(path);
  if (!error.isEmpty()) prompts_.warn(tr("Export report"), error);
}

void MainWindow::clearSettledInputMessages() {
  // The export used the values the boxes hold; a message about text they refused earlier is over
  // once they show a value again.
  if (QWidget* view = tabs_->currentWidget()) {
    for (InputMessage* message : view->findChildren<InputMessage*>()) message->clearIfSettled();
  }
}

QString MainWindow::askSavePath(const QString& caption, const QString& suggested, const QString& filter) {
  QString folder = QDir::homePath();
  if (use_settings_) folder = QSettings().value(QLatin1String(kExportDirKey), folder).toString();
  const QString path = prompts_.save_path(caption, QDir(folder).filePath(suggested), filter);
  if (!path.isEmpty() && use_settings_)
    QSettings().setValue(QLatin1String(kExportDirKey), QFileInfo(path).absolutePath());
  return path;
}

void MainWindow::exportCsvInteractive() {
  AppView* v = currentAppView();
  if (v == nullptr) return;
  const auto exports = v->csvExports();
  if (exports.empty()) return;
  int index = 0;
  if (exports.size() > 1) {
    QStringList titles;
    for (const auto& e : exports) titles << e.title;
    index = prompts_.choose(tr("Export CSV"), tr("Table:"), titles);
    if (index < 0 || index >= static_cast<int>(exports.size())) return;
  }
  const QString path =
      askSavePath(tr("Export CSV"), exports[static_cast<std::size_t>(index)].suggested_name, tr("CSV files (*.csv)"));
  if (path.isEmpty()) return;
  const QString error = exportCurrentCsv(index, path);
  if (!error.isEmpty()) prompts_.warn(tr("Export CSV"), error);
}

void MainWindow::exportPlotInteractive(const QString& suffix) {
  AppView* v = currentAppView();
  if (v == nullptr) return;
  const auto plots = v->plotExports();
  if (plots.empty()) return;
  int index = 0;
  if (plots.size() > 1) {
    QStringList titles;
    for (const auto* p : plots) titles << p->title();
    index = prompts_.choose(tr("Export %1").arg(suffix.toUpper()), tr("Plot:"), titles);
    if (index < 0 || index >= static_cast<int>(plots.size())) return;
  }
  QString suggested = plots[static_cast<std::size_t>(index)]->title().toLower();
  suggested.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
  const QString filter = suffix == QLatin1String("png") ? tr("PNG images (*.png)") : tr("PDF documents (*.pdf)");
  QString path = askSavePath(tr("Export %1").arg(suffix.toUpper()), suggested + QLatin1Char('.') + suffix, filter);
  if (path.isEmpty()) return;
  if (QFileInfo(path).suffix().compare(suffix, Qt::CaseInsensitive) != 0) path += QLatin1Char('.') + suffix;
  const QString error = exportCurrentPlot(index, path);
  if (!error.isEmpty()) prompts_.warn(tr("Export %1").arg(suffix.toUpper()), error);
}

void MainWindow::restoreWindowSettings() {
  QSettings settings;
  const QByteArray geometry = settings.value(QLatin1String(kGeometryKey)).toByteArray();
  if (!geometry.isEmpty()) restoreGeometry(geometry);
  pending_tab_ = settings.value(QLatin1String(kCurrentTabKey)).toString();
}

QString MainWindow::saveSettings() const {
  if (!use_settings_) return {};
  QSettings current;
  const QString file = current.fileName();
  const QString kept = tr("the previous settings are kept");
  // QSettings rewrites its file in place when the disk fills up and still reports success (seen on
  // Qt 6.4: a 482-byte file cut to the size limit). So the settings are written to a scratch INI
  // file first, read back and counted, and only then put in place with writeFileAtomically.
  QTemporaryDir scratch;
  if (!scratch.isValid()) {
    return tr("cannot save the settings to %1 (no temporary folder: %2): %3").arg(file, scratch.errorString(), kept);
  }
  const QString scratch_file = scratch.filePath(QStringLiteral("settings.ini"));
  qsizetype keys = 0;
  {
    QSettings next(scratch_file, QSettings::IniFormat);
    for (const QString& key : current.allKeys()) next.setValue(key, current.value(key));  // keys saved elsewhere
    next.setValue(QLatin1String(kGeometryKey), saveGeometry());
    next.setValue(QLatin1String(kCurrentTabKey), tabs_->tabText(tabs_->currentIndex()));
    for (int i = 0; i < tabs_->count(); ++i) {
      QWidget* view = tabs_->widget(i);
      if (auto* app_view = dynamic_cast<AppView*>(view)) {
        next.beginGroup(settingsGroupFor(view, tabs_->tabText(i)));
        app_view->saveSettings(next);
        next.endGroup();
      }
    }
    next.sync();
    if (next.status() != QSettings::NoError) {
      return tr("cannot save the settings to %1 (the scratch copy could not be written): %2").arg(file, kept);
    }
    keys = next.allKeys().size();
  }
  auto bytes = readFile(QFile::encodeName(scratch_file).toStdString());
  if (!bytes)
    return tr("cannot save the settings to %1 (%2): %3").arg(file, QString::fromStdString(bytes.error()), kept);
  // Read back from a file of another name: QSettings answers for a file it has just written from its
  // memory, not from the disk.
  const QString check_file = scratch.filePath(QStringLiteral("check.ini"));
  if (auto copied = writeFileAtomically(QFile::encodeName(check_file).toStdString(), *bytes); !copied) {
    return tr("cannot save the settings to %1 (%2): %3").arg(file, QString::fromStdString(copied.error()), kept);
  }
  if (const QSettings check(check_file, QSettings::IniFormat);
      check.status() != QSettings::NoError || check.allKeys().size() != keys) {
    return tr("cannot save the settings to %1 (the scratch copy reads back with %2 of %3 settings: is the disk full?): "
              "%4")
        .arg(file)
        .arg(check.allKeys().size())
        .arg(keys)
        .arg(kept);
  }
  if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
    return tr("cannot save the settings to %1 (cannot create its folder): %2").arg(file, kept);
  }
  if (auto written = writeFileAtomically(QFile::encodeName(file).toStdString(), *bytes); !written) {
    return tr("cannot save the settings: %1").arg(QString::fromStdString(written.error()));
  }
  return {};
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (const QString error = saveSettings(); !error.isEmpty()) qWarning("%s", qPrintable(error));
  event->accept();
}

}  // namespace occx::ui
