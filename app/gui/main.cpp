// occupancy-explorer: the desktop application. Wiring only: the command line, the views on one
// context, the hand-overs between them, and --screenshot / --report for pictures and handouts.
#include <QAction>
#include <QApplication>
#include <QBuffer>
#include <QCommandLineParser>
#include <QDateTime>
#include <QDockWidget>
#include <QFile>
#include <QIcon>
#include <QMenu>
#include <QPixmap>
#include <QStringList>
#include <QTabWidget>
#include <QTimer>
#include <cstdio>
#include <cstring>

#include "app/backend/build_backend.h"
#include "core/base/atomic_file.h"
#include "occx_config.h"
#include "ui/lessons/lesson_handout.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/shell/main_window.h"
#include "ui/shell/path_opener.h"
#include "ui/shell/view_titles.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/gpu_data_view.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/views/view_context.h"

namespace {

using occx::ui::MainWindow;

// The program's options (besides --help and --version).
struct Options {
  QCommandLineOption screenshot{
      QStringLiteral("screenshot"),
      QStringLiteral("Show the window with the built-in defaults (saved settings are neither read nor written), "
                     "write it to FILE as PNG, and exit."),
      QStringLiteral("FILE")};
  QCommandLineOption report{
      QStringLiteral("report"),
      QStringLiteral("Like --screenshot, but write the current tab's report (File → Export report…) to FILE "
                     "(PDF) and its HTML twin beside it, and exit. With --lesson: that lesson's handout."),
      QStringLiteral("FILE")};
  QCommandLineOption delay{
      QStringLiteral("screenshot-delay"),
      QStringLiteral("Milliseconds to wait after showing the window before --screenshot (default 800)."),
      QStringLiteral("MS"), QStringLiteral("800")};
  QCommandLineOption tab{QStringLiteral("tab"),
                         QStringLiteral("Start on the tab with this title (e.g. \"Live sweep\")."),
                         QStringLiteral("TITLE")};
  QCommandLineOption trace{
      QStringLiteral("trace"),
      QStringLiteral("Open the torch.profiler trace FILE in the Inductor run tab's Step page (\"bundled\": the "
                     "bundled run's own trace, with --inductor-run)."),
      QStringLiteral("FILE")};
  QCommandLineOption inductor_run{
      QStringLiteral("inductor-run"),
      QStringLiteral("Show the bundled Inductor run KEY (e.g. \"spill_log_softmax_w16\") in the Inductor run tab."),
      QStringLiteral("KEY")};
  QCommandLineOption inductor_page{
      QStringLiteral("inductor-page"),
      QStringLiteral("Show the Inductor run tab's detail page with this title (e.g. \"Measured\")."),
      QStringLiteral("TITLE")};
  QCommandLineOption live_dataset{
      QStringLiteral("live-dataset"),
      QStringLiteral("Show the live-sweep dataset FILE in the Live sweep tab: a bundled one by its file name "
                     "(e.g. \"h200_mean_var_fp16_32768x8192.csv\") or a live-sweep CSV's path."),
      QStringLiteral("FILE")};
  QCommandLineOption lesson{QStringLiteral("lesson"),
                            QStringLiteral("Open Help → Lessons on the bundled lesson number N (e.g. 5)."),
                            QStringLiteral("N")};
  QCommandLineOption lesson_step{QStringLiteral("lesson-step"),
                                 QStringLiteral("With --lesson: show step K (1 = the first)."), QStringLiteral("K")};
  QCommandLineOption lesson_answer{
      QStringLiteral("lesson-answer"),
      QStringLiteral("With --lesson: answer the step's question (as \"Do it for me\" does).")};
  QCommandLineOption live_page{QStringLiteral("live-page"),
                               QStringLiteral("Show the Live sweep tab's page under its bandwidth plot with this title "
                                              "(e.g. \"Median time\")."),
                               QStringLiteral("TITLE")};

  void addTo(QCommandLineParser& parser) const {
    parser.setApplicationDescription(
        QStringLiteral("Occupancy Explorer: why a GPU kernel configuration is fast or slow."));
    parser.addHelpOption();
    parser.addVersionOption();
    for (const auto* o : {&screenshot, &report, &delay, &tab, &trace, &inductor_run, &inductor_page, &live_dataset,
                          &live_page, &lesson, &lesson_step, &lesson_answer}) {
      parser.addOption(*o);
    }
  }
};

void setApplicationNames() {
  QCoreApplication::setOrganizationName(QStringLiteral("OccupancyExplorer"));
  QCoreApplication::setApplicationName(QStringLiteral("occupancy-explorer"));
  QCoreApplication::setApplicationVersion(QStringLiteral(OCCX_VERSION));
}

// --help and --version need no window: they are answered before a display is asked for, so they
// work on a machine without one.
bool asksForHelpOrVersion(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    for (const char* flag : {"-h", "--help", "-?", "--help-all", "-v", "--version"}) {
      if (std::strcmp(argv[i], flag) == 0) return true;
    }
  }
  return false;
}

// The tabs after the calculator (which the window makes).
struct Views {
  occx::ui::RblockScalingView* rblock;
  occx::ui::InductorRunView* inductor_run;
  occx::ui::CompileSweepView* compile_sweep;
  occx::ui::LiveSweepView* live_sweep;
};

Views addViews(MainWindow& window, const occx::ui::ViewContext& context) {
  const Views v{new occx::ui::RblockScalingView(context), new occx::ui::InductorRunView(context),
                new occx::ui::CompileSweepView(context), new occx::ui::LiveSweepView(context)};
  window.addView(v.rblock, QString::fromLatin1(occx::ui::kRblockScalingTitle));
  window.addView(v.inductor_run, QString::fromLatin1(occx::ui::kInductorRunTitle));
  window.addView(v.compile_sweep, QString::fromLatin1(occx::ui::kCompileSweepTitle));
  window.addView(v.live_sweep, QString::fromLatin1(occx::ui::kLiveSweepTitle));
  window.addView(new occx::ui::GpuDataView, QString::fromLatin1(occx::ui::kGpuDataTitle));
  return v;
}

// A config goes from one view to another with one click (its real n_regs, its device); File → Open
// Inductor run…; a dropped file or folder, or one of File → Open Recent, opens in its view.
void connectViews(MainWindow& window, const Views& v, bool use_settings) {
  auto* calculator = window.calculatorView();
  auto* tabs = window.tabs();
  QObject::connect(v.compile_sweep, &occx::ui::CompileSweepView::sendToRblock, v.rblock,
                   &occx::ui::RblockScalingView::showHandOver);
  QObject::connect(v.compile_sweep, &occx::ui::CompileSweepView::sendToRblock, &window,
                   [tabs, v] { tabs->setCurrentWidget(v.rblock); });
  QObject::connect(v.inductor_run, &occx::ui::InductorRunView::openInRblock, &window,
                   [tabs, v](const occx::ui::ConfigHandOver& h) {
                     v.rblock->showHandOver(h);
                     tabs->setCurrentWidget(v.rblock);
                   });
  QObject::connect(v.inductor_run, &occx::ui::InductorRunView::openInCalculator, &window,
                   [tabs, calculator](const occx::ui::ConfigHandOver& h) {
                     calculator->showHandOver(h);
                     tabs->setCurrentWidget(calculator);
                   });
  auto* open_run = new QAction(QObject::tr("&Open Inductor run…"), &window);
  open_run->setShortcut(QKeySequence::Open);
  open_run->setStatusTip(QObject::tr(
      "Read an Inductor cache or torch_compile_debug folder: kernels, configs, registers, spills, decisions"));
  QObject::connect(open_run, &QAction::triggered, &window, [tabs, v] {
    tabs->setCurrentWidget(v.inductor_run);
    v.inductor_run->openFolderInteractive();
  });
  window.addOpenAction(open_run);
  auto* opener =
      new occx::ui::PathOpener(&window, v.inductor_run, v.compile_sweep, v.live_sweep, use_settings, &window);
  window.addOpenAction(opener->recentMenu()->menuAction());
}

// Help → Lessons: a dock on the right, over the calculator, RBLOCK and Inductor run views.
QDockWidget* addLessons(MainWindow& window, const Views& v) {
  QDockWidget* dock = occx::ui::addLessonDock(
      &window, occx::ui::LessonViews{window.tabs(), window.calculatorView(), v.rblock, v.inductor_run});
  window.addHelpAction(dock->toggleViewAction());
  // File → Export report… (and --report) with a lesson open in the panel: the lesson's handout.
  auto* panel = qobject_cast<occx::ui::LessonPanel*>(dock->widget());
  window.setReportSource({[dock, panel] { return dock->isVisible() && panel->lesson() != nullptr; },
                          [panel] { return occx::ui::handoutFileName(*panel); },
                          [panel](const QString& path) {
                            return occx::ui::writeLessonHandout(
                                *panel, path,
                                QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd HH:mm 'UTC'")));
                          }});
  return dock;
}

// --lesson N [--lesson-step K] [--lesson-answer]: the lesson panel open on that step. False (printed)
// when there is no such lesson or step.
bool openStartLesson(const QCommandLineParser& parser, const Options& o, QDockWidget* dock) {
  if (!parser.isSet(o.lesson)) return true;
  auto* panel = qobject_cast<occx::ui::LessonPanel*>(dock->widget());
  dock->show();
  if (!panel->startBundled(parser.value(o.lesson).toInt())) {
    std::fprintf(stderr, "occupancy-explorer: --lesson %s: no bundled lesson has that number\n",
                 qPrintable(parser.value(o.lesson)));
    return false;
  }
  if (parser.isSet(o.lesson_step) && !panel->showStep(parser.value(o.lesson_step).toInt() - 1)) {
    std::fprintf(stderr, "occupancy-explorer: --lesson-step %s is out of range: allowed 1 … %d\n",
                 qPrintable(parser.value(o.lesson_step)), panel->stepCount());
    return false;
  }
  if (parser.isSet(o.lesson_answer)) panel->showAnswer();
  return true;
}

// Prints "occupancy-explorer: --OPTION: TEXT" and returns false when `error` is not empty.
bool reported(const char* option, const QString& error) {
  if (error.isEmpty()) return true;
  std::fprintf(stderr, "occupancy-explorer: --%s: %s\n", option, qPrintable(error));
  return false;
}

// --inductor-run, --trace and --live-dataset: what the views show first. False (printed) on an error.
bool openStartData(const QCommandLineParser& parser, const Options& o, const Views& v) {
  if (parser.isSet(o.inductor_run) &&
      !reported("inductor-run", v.inductor_run->openBundled(parser.value(o.inductor_run)))) {
    return false;
  }
  if (parser.isSet(o.trace)) {
    QString path = parser.value(o.trace);
    if (path == QLatin1String("bundled")) {
      path = QStringLiteral(":/inductor-runs/%1.pt.trace.json.gz").arg(parser.value(o.inductor_run));
      if (!QFile::exists(path)) {
        return reported("trace bundled",
                        QStringLiteral("the bundled run '%1' has no trace").arg(parser.value(o.inductor_run)));
      }
    }
    if (!reported("trace", v.inductor_run->openTrace(path))) return false;
  }
  if (parser.isSet(o.live_dataset)) {
    const QString bundled = QStringLiteral(":/datasets/") + parser.value(o.live_dataset);
    const QString path = QFile::exists(bundled) ? bundled : parser.value(o.live_dataset);
    if (!reported("live-dataset", v.live_sweep->openCsvFile(path))) return false;
  }
  return true;
}

// Shows the tab of `tabs` titled as `option` says (when given). False (printed, with the titles
// allowed) when no tab has that title.
bool showTitled(const QCommandLineParser& parser, const QCommandLineOption& option, QTabWidget* tabs,
                const char* what) {
  if (!parser.isSet(option)) return true;
  QStringList titles;
  for (int i = 0; i < tabs->count(); ++i) titles << tabs->tabText(i);
  const int index = static_cast<int>(titles.indexOf(parser.value(option)));
  if (index < 0) {
    std::fprintf(stderr, "occupancy-explorer: --%s '%s' is not a %s: allowed %s\n", qPrintable(option.names().front()),
                 qPrintable(parser.value(option)), what, qPrintable(titles.join(QStringLiteral(", "))));
    return false;
  }
  tabs->setCurrentIndex(index);
  return true;
}

// --screenshot: after `delay_ms`, the window as PNG, written atomically; then the program ends.
void scheduleScreenshot(MainWindow& window, const QString& path, int delay_ms) {
  QTimer::singleShot(delay_ms, &window, [&window, path] {
    const QPixmap pixmap = window.grab();
    QByteArray png;
    QBuffer buffer(&png);
    buffer.open(QIODevice::WriteOnly);
    int rc = 0;
    if (pixmap.isNull() || !pixmap.save(&buffer, "PNG")) {
      std::fprintf(stderr, "occupancy-explorer: cannot render the window for --screenshot %s\n", qPrintable(path));
      rc = 1;
    } else if (auto written =
                   occx::writeFileAtomically(QFile::encodeName(path).toStdString(),
                                             std::string_view(png.constData(), static_cast<std::size_t>(png.size())));
               !written) {
      std::fprintf(stderr, "occupancy-explorer: --screenshot: %s\n", written.error().c_str());
      rc = 1;
    } else {
      std::printf("wrote %s (%dx%d)\n", qPrintable(path), pixmap.width(), pixmap.height());
    }
    QApplication::exit(rc);
  });
}

// --report: after `delay_ms`, the current tab's report (PDF and its HTML twin); then the program ends.
void scheduleReport(MainWindow& window, const QString& path, int delay_ms) {
  QTimer::singleShot(delay_ms, &window, [&window, path] {
    if (!reported("report", window.exportCurrentReport(path))) {
      QApplication::exit(1);
      return;
    }
    std::printf("wrote %s and its .html twin\n", qPrintable(path));
    QApplication::exit(0);
  });
}

}  // namespace

int main(int argc, char** argv) {
  const Options options;
  if (asksForHelpOrVersion(argc, argv)) {
    QCoreApplication core(argc, argv);
    setApplicationNames();
    QCommandLineParser parser;
    options.addTo(parser);
    parser.process(core);  // prints the help or the version and exits
    return 0;
  }
  QApplication app(argc, argv);
  setApplicationNames();
  QApplication::setApplicationDisplayName(QStringLiteral("Occupancy Explorer"));
  // The application id of the installed .desktop entry, icon and metainfo (OCCX_APP_ID in CMake).
  QGuiApplication::setDesktopFileName(QStringLiteral(OCCX_APP_ID));
  QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/app.svg")));
  QCommandLineParser parser;
  options.addTo(parser);
  parser.process(app);

  const QString screenshot_path = parser.value(options.screenshot);
  const QString report_path = parser.value(options.report);
  // A screenshot or a report is made from the built-in defaults (reproducible pictures and handouts).
  const bool use_settings = screenshot_path.isEmpty() && report_path.isEmpty();
  bool delay_ok = false;
  const int delay_ms = parser.value(options.delay).toInt(&delay_ok);
  if (!delay_ok || delay_ms < 0 || delay_ms > 60000) {
    std::fprintf(stderr, "occupancy-explorer: --screenshot-delay %s is out of range: allowed 0 … 60000 ms\n",
                 qPrintable(parser.value(options.delay)));
    return 2;
  }

  // What every view gets: the GPU backend (NVRTC, the driver and live runs in a build with the CUDA
  // Toolkit; otherwise the offline one, which says what is unavailable), whether settings are used,
  // the GPUs here and the window's current device.
  const occx::ui::ViewContext context(occx::app::buildBackend(), use_settings);
  MainWindow window(context);
  const Views views = addViews(window, context);
  connectViews(window, views, use_settings);
  QDockWidget* lessons = addLessons(window, views);
  if (!openStartData(parser, options, views) ||
      !showTitled(parser, options.inductor_page, views.inductor_run->detailTabs(), "page") ||
      !showTitled(parser, options.live_page, views.live_sweep->detailTabs(), "page") ||
      !showTitled(parser, options.tab, window.tabs(), "tab") || !openStartLesson(parser, options, lessons)) {
    return 2;
  }
  window.show();
  if (!screenshot_path.isEmpty()) scheduleScreenshot(window, screenshot_path, delay_ms);
  if (!report_path.isEmpty()) scheduleReport(window, report_path, delay_ms);
  return QApplication::exec();
}
