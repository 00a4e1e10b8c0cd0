// occupancy-explorer: the desktop application. Wiring only.
#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QFile>
#include <QIcon>
#include <QMenu>
#include <QPixmap>
#include <QSettings>
#include <QStringList>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>

#include "app/backend/build_backend.h"
#include "core/base/atomic_file.h"
#include "occx_config.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/shell/main_window.h"
#include "ui/shell/path_opener.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/gpu_data_view.h"
#include "ui/views/live_sweep_view.h"

#include "ui/views/inductor_run_view.h"
#include "ui/views/rblock_scaling_view.h"

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("OccupancyExplorer"));
  QApplication::setApplicationName(QStringLiteral("occupancy-explorer"));
  QApplication::setApplicationDisplayName(QStringLiteral("Occupancy Explorer"));
  QApplication::setApplicationVersion(QStringLiteral(OCCX_VERSION));
  // The application id of the installed .desktop entry, icon and metainfo (OCCX_APP_ID in CMake).
  QGuiApplication::setDesktopFileName(QStringLiteral(OCCX_APP_ID));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/app.svg")));

  QCommandLineParser parser;
  parser.setApplicationDescription(
      QStringLiteral("Occupancy Explorer: why a GPU kernel configuration is fast or slow."));
  parser.addHelpOption();
  parser.addVersionOption();
  const QCommandLineOption screenshot(
      QStringLiteral("screenshot"),
      QStringLiteral("Show the window with the built-in defaults (saved settings are neither read nor written), "
                     "write it to FILE as PNG, and exit."),
      QStringLiteral("FILE"));
  const QCommandLineOption delay(
      QStringLiteral("screenshot-delay"),
      QStringLiteral("Milliseconds to wait after showing the window before --screenshot (default 800)."),
      QStringLiteral("MS"), QStringLiteral("800"));
  const QCommandLineOption tab(QStringLiteral("tab"),
                               QStringLiteral("Start on the tab with this title (e.g. \"Live sweep\")."),
                               QStringLiteral("TITLE"));
  const QCommandLineOption report(
      QStringLiteral("report"),
      QStringLiteral("Like --screenshot, but write the current tab's report (File → Export report…) to FILE "
                     "(PDF) and its HTML twin beside it, and exit."),
      QStringLiteral("FILE"));
  parser.addOption(screenshot);
  parser.addOption(report);
  parser.addOption(delay);
  parser.addOption(tab);
  const QCommandLineOption inductor_run_key(
      QStringLiteral("inductor-run"),
      QStringLiteral("Show the bundled Inductor run KEY (e.g. \"spill_log_softmax_w16\") in the Inductor run tab."),
      QStringLiteral("KEY"));
  const QCommandLineOption inductor_page(
      QStringLiteral("inductor-page"),
      QStringLiteral("Show the Inductor run tab's detail page with this title (e.g. \"Measured\")."),
      QStringLiteral("TITLE"));
  const QCommandLineOption live_dataset(
      QStringLiteral("live-dataset"),
      QStringLiteral("Show the live-sweep dataset FILE in the Live sweep tab: a bundled one by its file name "
                     "(e.g. \"h200_mean_var_fp16_32768x8192.csv\") or a live-sweep CSV's path."),
      QStringLiteral("FILE"));
  const QCommandLineOption live_page(
      QStringLiteral("live-page"),
      QStringLiteral("Show the Live sweep tab's page under its bandwidth plot with this title "
                     "(e.g. \"Median time\")."),
      QStringLiteral("TITLE"));
  const QCommandLineOption trace(
      QStringLiteral("trace"),
      QStringLiteral("Open the torch.profiler trace FILE in the Inductor run tab's Step page (\"bundled\": the "
                     "bundled run's own trace, with --inductor-run)."),
      QStringLiteral("FILE"));
  parser.addOption(trace);
  parser.addOption(inductor_run_key);
  parser.addOption(inductor_page);
  parser.addOption(live_dataset);
  parser.addOption(live_page);
  parser.process(app);

  const QString screenshot_path = parser.value(screenshot);
  const QString report_path = parser.value(report);
  // A screenshot or a report is made from the built-in defaults (reproducible pictures and handouts).
  const bool use_settings = screenshot_path.isEmpty() && report_path.isEmpty();
  bool delay_ok = false;
  const int delay_ms = parser.value(delay).toInt(&delay_ok);
  if (!delay_ok || delay_ms < 0 || delay_ms > 60000) {
    std::fprintf(stderr, "occupancy-explorer: --screenshot-delay %s is out of range: allowed 0 … 60000 ms\n",
                 qPrintable(parser.value(delay)));
    return 2;
  }

  // What every view gets: the GPU backend (NVRTC, the driver and live runs in a build with the CUDA
  // Toolkit; otherwise the offline one, which says what is unavailable), whether settings are used,
  // the GPUs here and the window's current device.
  const occx::ui::ViewContext context(occx::app::buildBackend(), use_settings);
  occx::ui::MainWindow window(context);
  auto* rblock = new occx::ui::RblockScalingView(context);
  auto* compile_sweep = new occx::ui::CompileSweepView(context);
  auto* live_sweep = new occx::ui::LiveSweepView(context);
  auto* inductor_run = new occx::ui::InductorRunView(context);
  window.addView(rblock, QStringLiteral("RBLOCK scaling"));
  window.addView(inductor_run, QStringLiteral("Inductor run"));
  window.addView(compile_sweep, QStringLiteral("Compile sweep (NVRTC)"));
  window.addView(live_sweep, QStringLiteral("Live sweep"));
  window.addView(new occx::ui::GpuDataView, QStringLiteral("GPU data"));
  // A compiled config's real n_regs goes to the RBLOCK-scaling view with one click.
  QObject::connect(compile_sweep, &occx::ui::CompileSweepView::sendToRblock, rblock,
                   &occx::ui::RblockScalingView::showHandOver);
  QObject::connect(compile_sweep, &occx::ui::CompileSweepView::sendToRblock, &window,
                   [&window, rblock] { window.tabs()->setCurrentWidget(rblock); });
  // Your own Inductor kernels: File → Open Inductor run…, or drop a folder (or a scan CSV) on the
  // window; a config goes to the calculator or the RBLOCK view with its device.
  auto* open_run = new QAction(QObject::tr("&Open Inductor run…"), &window);
  open_run->setShortcut(QKeySequence::Open);
  open_run->setStatusTip(QObject::tr(
      "Read an Inductor cache or torch_compile_debug folder: kernels, configs, registers, spills, decisions"));
  QObject::connect(open_run, &QAction::triggered, &window, [&window, inductor_run] {
    window.tabs()->setCurrentWidget(inductor_run);
    inductor_run->openFolderInteractive();
  });
  window.addOpenAction(open_run);
  // A dropped file or folder, or one of File → Open Recent, opens in the view it belongs to.
  auto* opener = new occx::ui::PathOpener(&window, inductor_run, compile_sweep, live_sweep, use_settings, &window);
  window.addOpenAction(opener->recentMenu()->menuAction());
  QObject::connect(inductor_run, &occx::ui::InductorRunView::openInRblock, &window,
                   [&window, rblock](const occx::ui::ConfigHandOver& h) {
                     rblock->showHandOver(h);
                     window.tabs()->setCurrentWidget(rblock);
                   });
  QObject::connect(inductor_run, &occx::ui::InductorRunView::openInCalculator, &window,
                   [&window](const occx::ui::ConfigHandOver& h) {
                     window.calculatorView()->showHandOver(h);
                     window.tabs()->setCurrentWidget(window.calculatorView());
                   });
  if (parser.isSet(inductor_run_key)) {
    if (const QString error = inductor_run->openBundled(parser.value(inductor_run_key)); !error.isEmpty()) {
      std::fprintf(stderr, "occupancy-explorer: --inductor-run: %s\n", qPrintable(error));
      return 2;
    }
  }
  if (parser.isSet(trace)) {
    QString path = parser.value(trace);
    if (path == QLatin1String("bundled")) {
      path = QStringLiteral(":/inductor-runs/%1.pt.trace.json.gz").arg(parser.value(inductor_run_key));
      if (!QFile::exists(path)) {
        std::fprintf(stderr, "occupancy-explorer: --trace bundled: the bundled run '%s' has no trace\n",
                     qPrintable(parser.value(inductor_run_key)));
        return 2;
      }
    }
    if (const QString error = inductor_run->openTrace(path); !error.isEmpty()) {
      std::fprintf(stderr, "occupancy-explorer: --trace: %s\n", qPrintable(error));
      return 2;
    }
  }
  if (parser.isSet(live_dataset)) {
    const QString bundled = QStringLiteral(":/datasets/") + parser.value(live_dataset);
    const QString path = QFile::exists(bundled) ? bundled : parser.value(live_dataset);
    if (const QString error = live_sweep->openCsvFile(path); !error.isEmpty()) {
      std::fprintf(stderr, "occupancy-explorer: --live-dataset: %s\n", qPrintable(error));
      return 2;
    }
  }
  // --inductor-page and --live-page: a page of a view's detail tabs, by its title.
  const auto showPage = [&parser](const QCommandLineOption& option, QTabWidget* pages) {
    if (!parser.isSet(option)) return true;
    int page = -1;
    for (int i = 0; i < pages->count() && page < 0; ++i) {
      if (pages->tabText(i) == parser.value(option)) page = i;
    }
    if (page < 0) {
      QStringList titles;
      for (int i = 0; i < pages->count(); ++i) titles << pages->tabText(i);
      std::fprintf(stderr, "occupancy-explorer: --%s '%s' is not a page: allowed %s\n",
                   qPrintable(option.names().front()), qPrintable(parser.value(option)),
                   qPrintable(titles.join(QStringLiteral(", "))));
      return false;
    }
    pages->setCurrentIndex(page);
    return true;
  };
  if (!showPage(inductor_page, inductor_run->detailTabs()) || !showPage(live_page, live_sweep->detailTabs())) return 2;
  if (parser.isSet(tab)) {
    const QString title = parser.value(tab);
    int index = -1;
    for (int i = 0; i < window.tabs()->count() && index < 0; ++i) {
      if (window.tabs()->tabText(i) == title) index = i;
    }
    if (index < 0) {
      QStringList titles;
      for (int i = 0; i < window.tabs()->count(); ++i) titles << window.tabs()->tabText(i);
      std::fprintf(stderr, "occupancy-explorer: --tab '%s' is not a tab: allowed %s\n", qPrintable(title),
                   qPrintable(titles.join(QStringLiteral(", "))));
      return 2;
    }
    window.tabs()->setCurrentIndex(index);
  }
  window.show();

  if (!screenshot_path.isEmpty()) {
    QTimer::singleShot(delay_ms, &window, [&window, &screenshot_path] {
      const QPixmap pixmap = window.grab();
      QByteArray png;
      QBuffer buffer(&png);
      buffer.open(QIODevice::WriteOnly);
      int rc = 0;
      if (pixmap.isNull() || !pixmap.save(&buffer, "PNG")) {
        std::fprintf(stderr, "occupancy-explorer: cannot render the window for --screenshot %s\n",
                     qPrintable(screenshot_path));
        rc = 1;
      } else if (auto written =
                     occx::writeFileAtomically(QFile::encodeName(screenshot_path).toStdString(),
                                               std::string_view(png.constData(), static_cast<std::size_t>(png.size())));
                 !written) {
        std::fprintf(stderr, "occupancy-explorer: --screenshot: %s\n", written.error().c_str());
        rc = 1;
      } else {
        std::printf("wrote %s (%dx%d)\n", qPrintable(screenshot_path), pixmap.width(), pixmap.height());
      }
      QApplication::exit(rc);
    });
  }
  if (!report_path.isEmpty()) {
    QTimer::singleShot(delay_ms, &window, [&window, &report_path] {
      const QString error = window.exportCurrentReport(report_path);
      if (!error.isEmpty()) {
        std::fprintf(stderr, "occupancy-explorer: --report: %s\n", qPrintable(error));
        QApplication::exit(1);
        return;
      }
      std::printf("wrote %s and its .html twin\n", qPrintable(report_path));
      QApplication::exit(0);
    });
  }
  return QApplication::exec();
}
