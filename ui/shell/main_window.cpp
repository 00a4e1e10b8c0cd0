#include "ui/shell/main_window.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDateTime>
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
#include <QRegularExpression>
#include <QScreen>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QTimer>
#include <QUrl>
#include <algorithm>

#include "core/base/atomic_file.h"
#include "ui/plots/plot_controller.h"
#include "ui/shell/help_text.h"
#include "ui/shell/manual_dialog.h"
#include "ui/shell/report.h"
#include "ui/shell/settings_file.h"
#include "ui/shell/view_titles.h"
#include "ui/views/app_view.h"
#include "ui/views/calculator_view.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/elided_label.h"
#include "ui/widgets/wheel_guard.h"

namespace occx::ui {

int MainWindow::migrateSettings(QSettings& settings) {
  return migrateRenamedSettings(settings);
}

MainWindow::MainWindow(const ViewContext& context, QWidget* parent)
    : QMainWindow(parent),
      context_(context),
      use_settings_(context.useSettings()),
      tabs_(new QTabWidget(this)),
      calculator_(nullptr),
      view_status_(new ElidedLabel(this)) {
  setWindowTitle(tr("Occupancy Explorer"));
  setObjectName(QStringLiteral("mainWindow"));
  setPrompts({});
  tabs_->setDocumentMode(true);
  setCentralWidget(tabs_);
  setAcceptDrops(true);
  buildMenus();

  // The status bar's two texts never overlap: each is an ElidedLabel (cut after a whole word, the
  // whole text in its tooltip) whose minimum width is a few letters, not its whole text. What is
  // here (the backend) keeps its width; the view's line takes the rest.
  view_status_->setObjectName(QStringLiteral("viewStatus"));
  statusBar()->addWidget(view_status_, 1);
  cuda_label_ = new ElidedLabel(this);
  cuda_label_->setObjectName(QStringLiteral("backendStatus"));
  cuda_label_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Preferred);
  statusBar()->addPermanentWidget(cuda_label_);
  showBackend(*context.backend());

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

  calculator_ = new CalculatorView(context, this);
  addView(calculator_, QString::fromLatin1(kCalculatorTitle));
  connect(tabs_, &QTabWidget::currentChanged, this, [this](int) { updateForCurrentView(); });
  updateForCurrentView();
  // The menus' shortcuts from any widget of the window (see eventFilter).
  qApp->installEventFilter(this);
}

MainWindow::~MainWindow() {
  qApp->removeEventFilter(this);
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
  help_menu_ = help;
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

void MainWindow::addHelpAction(QAction* action) {
  help_menu_->insertAction(about_, action);
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
  if (manual_dialog_ != nullptr) manual_dialog_->setBackend(backend_);
  can_compile_ = backend.compileAvailability().available;
  cuda_label_->setFullText(backendStatusText(backend));
  cuda_label_->setToolTip(aboutText(can_compile_));
}

QString MainWindow::backendStatusText(const Backend& backend) {
  return backendStatusLine(backend);
}

QString MainWindow::shortcutTable() {
  return shortcutTableHtml();
}

QString MainWindow::manualText(const QString& machine_html) {
  return manualHtml(machine_html);
}

QString MainWindow::aboutText(bool can_compile) {
  return aboutHtml(can_compile);
}

QString MainWindow::machineFacts() const {
  return manual_dialog_ != nullptr ? manual_dialog_->machineFacts() : machineFactsHtml(backend_, QString());
}

void MainWindow::showManual() {
  if (manual_dialog_ == nullptr) {
    manual_dialog_ = new ManualDialog(this);
    manual_dialog_->setBackend(backend_);
  }
  manual_dialog_->showManual();
}

QString MainWindow::settingsGroupFor(QWidget* view, const QString& title) const {
  const QString name = view->objectName().isEmpty() ? title : view->objectName();
  return QStringLiteral("views/") + name;
}

void MainWindow::addView(QWidget* view, const QString& title) {
  if (view == nullptr) return;
  view->setProperty("occxViewTitle", title);
  const int index = tabs_->addTab(view, title);
  guardWheelUnder(view);  // the wheel turns a box, slider or list only once it has focus
  if (auto* app_view = dynamic_cast<AppView*>(view); app_view != nullptr && use_settings_) {
    QSettings settings;
    settings.beginGroup(settingsGroupFor(view, title));
    app_view->restoreSettings(settings);
    settings.endGroup();
  }
  if (view->metaObject()->indexOfSignal("statusMessage(QString)") >= 0) {
    connect(view, SIGNAL(statusMessage(QString)), this, SLOT(onViewStatus(QString)));
  }
  if (view->metaObject()->indexOfSignal("fileError(QString)") >= 0) {
    connect(view, SIGNAL(fileError(QString)), this, SLOT(showFileError(QString)));
  }
  if (!pending_tab_.isEmpty() && pending_tab_ == title) {
    tabs_->setCurrentIndex(index);
    pending_tab_.clear();
  }
  updateForCurrentView();
}

void MainWindow::showFileError(const QString& text) {
  if (auto* shown = findChild<QMessageBox*>(QStringLiteral("fileErrorBox")); shown != nullptr) {
    shown->setObjectName(QString());  // the newest error replaces it
    shown->close();
  }
  auto* box = new QMessageBox(QMessageBox::Warning, tr("Not opened"), text, QMessageBox::Ok, this);
  box->setObjectName(QStringLiteral("fileErrorBox"));
  box->setAttribute(Qt::WA_DeleteOnClose);
  box->open();
  showTransientStatus(text);  // the view's line: cut at a word with "…", never over the GPU label
}

void MainWindow::onViewStatus(const QString& text) {
  if (sender() != tabs_->currentWidget()) return;
  updateForCurrentView();  // a finished sweep or an opened file has tables and plots to export now
  view_status_->setFullText(text);
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
  view_status_->setFullText(v != nullptr ? v->statusSummary() : QString());
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
  showTransientStatus(tr("Wrote %1 (%2 bytes)").arg(QDir::toNativeSeparators(path)).arg(*written));
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
  showTransientStatus(tr("Wrote %1 (%2 bytes)").arg(QDir::toNativeSeparators(path)).arg(*written));
  return {};
}

void MainWindow::setReportSource(ReportSource source) {
  report_source_ = std::move(source);
}

QString MainWindow::exportCurrentReport(const QString& pdf_path) {
  QString path = pdf_path;
  if (QFileInfo(path).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) != 0) path += QStringLiteral(".pdf");
  if (report_source_.active && report_source_.active()) {
    if (QString error = report_source_.write(path); !error.isEmpty()) return error;
    showTransientStatus(tr("Wrote %1 and %2")
                            .arg(QDir::toNativeSeparators(path),
                                 QDir::toNativeSeparators(path.left(path.size() - 4) + QStringLiteral(".html"))));
    return {};
  }
  AppView* v = currentAppView();
  if (v == nullptr) return tr("The current view has nothing to report.");
  const QString title = tabs_->tabText(tabs_->currentIndex());
  const ReportContent report =
      reportOf(*v, title, QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
  auto pdf = writeReportPdf(report, path);
  if (!pdf) return QString::fromStdString(pdf.error());
  const QString html_path = path.left(path.size() - 4) + QStringLiteral(".html");
  auto html = writeReportHtml(report, html_path);
  if (!html) return QString::fromStdString(html.error());
  clearSettledInputMessages();
  showTransientStatus(tr("Wrote %1 and %2").arg(QDir::toNativeSeparators(path), QDir::toNativeSeparators(html_path)));
  return {};
}

void MainWindow::exportReportInteractive() {
  QString suggested;
  if (report_source_.active && report_source_.active()) {
    suggested = report_source_.file_name();
  } else {
    if (currentAppView() == nullptr) return;
    QString base = tabs_->tabText(tabs_->currentIndex()).toLower();
    base.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
    while (base.endsWith(QLatin1Char('-'))) base.chop(1);
    suggested = base + QStringLiteral("-report.pdf");
  }
  const QString path = askSavePath(tr("Export report"), suggested, tr("PDF (*.pdf)"));
  if (path.isEmpty()) return;
  const QString error = exportCurrentReport(path);
  if (!error.isEmpty()) prompts_.warn(tr("Export report"), error);
}

void MainWindow::showTransientStatus(const QString& text) {
  // In the view's status line (cut at a word, whole in the tooltip), not QStatusBar::showMessage,
  // which paints over the line and is cut mid-word by the backend's text; the view's line returns.
  const quint64 shown = ++transient_status_;
  view_status_->setFullText(text);
  QTimer::singleShot(5000, this, [this, shown] {
    if (shown != transient_status_) return;  // a later message is shown
    AppView* v = currentAppView();
    view_status_->setFullText(v != nullptr ? v->statusSummary() : QString());
  });
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
  if (use_settings_) folder = QSettings().value(QLatin1String(kExportFolderSettingsKey), folder).toString();
  QString path = prompts_.save_path(caption, QDir(folder).filePath(suggested), filter);
  if (!path.isEmpty() && use_settings_)
    QSettings().setValue(QLatin1String(kExportFolderSettingsKey), QFileInfo(path).absolutePath());
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
  const QByteArray geometry = settings.value(QLatin1String(kGeometrySettingsKey)).toByteArray();
  if (!geometry.isEmpty()) restoreGeometry(geometry);
  pending_tab_ = settings.value(QLatin1String(kCurrentTabSettingsKey)).toString();
}

QString MainWindow::saveSettings() const {
  if (!use_settings_) return {};
  return writeSettingsChecked([this](QSettings& next) {
    next.setValue(QLatin1String(kGeometrySettingsKey), saveGeometry());
    next.setValue(QLatin1String(kCurrentTabSettingsKey), tabs_->tabText(tabs_->currentIndex()));
    for (int i = 0; i < tabs_->count(); ++i) {
      QWidget* view = tabs_->widget(i);
      if (auto* app_view = dynamic_cast<AppView*>(view)) {
        next.beginGroup(settingsGroupFor(view, tabs_->tabText(i)));
        app_view->saveSettings(next);
        next.endGroup();
      }
    }
  });
}

void MainWindow::closeEvent(QCloseEvent* event) {
  if (const QString error = saveSettings(); !error.isEmpty()) qWarning("%s", qPrintable(error));
  event->accept();
}

}  // namespace occx::ui
