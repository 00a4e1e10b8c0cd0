// Words a newcomer understands, and errors where the user looks: every table's column headers
// explain themselves; the manual lists every tab and names the same words as the architecture's
// glossary; an Inductor run's texts say which configs Inductor compiled and which a sweep added,
// what the winners' mean is over, why the size hints differ from the shape; a file the user chose
// that cannot be opened is said in a message box and the status bar, not only in a panel's status
// line below the fold.
#include <gtest/gtest.h>

#include <QFile>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <set>

#include "inductor_view_support.h"
#include "ui/models/inductor_run_models.h"
#include "ui/models/inductor_run_text.h"
#include "ui/models/live_sweep_model.h"
#include "ui/shell/main_window.h"
#include "ui/shell/path_opener.h"
#include "ui/shell/view_titles.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/gpu_data_view.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/widgets/elided_label.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

QString sourceFile(const char* relative) {
  QFile f(QStringLiteral(OCCX_SOURCE_DIR "/") + QLatin1String(relative));
  EXPECT_TRUE(f.open(QIODevice::ReadOnly)) << relative;
  return QString::fromUtf8(f.readAll());
}

/// The window as main() builds it: every view in its tab, and the path opener.
struct FullWindow {
  MainWindow window{testContext()};
  InductorRunView* inductor_run = new InductorRunView(testContext());
  CompileSweepView* compile_sweep = new CompileSweepView(testContext(offlineBackend()));
  LiveSweepView* live_sweep = new LiveSweepView(testContext(offlineBackend()));
  PathOpener* opener = nullptr;
  FullWindow() {
    window.addView(new RblockScalingView(testContext()), QString::fromLatin1(kRblockScalingTitle));
    window.addView(inductor_run, QString::fromLatin1(kInductorRunTitle));
    window.addView(compile_sweep, QString::fromLatin1(kCompileSweepTitle));
    window.addView(live_sweep, QString::fromLatin1(kLiveSweepTitle));
    window.addView(new GpuDataView, QString::fromLatin1(kGpuDataTitle));
    opener = new PathOpener(&window, inductor_run, compile_sweep, live_sweep, false, &window);
  }
  [[nodiscard]] QString shownError() const {
    auto* box = window.findChild<QMessageBox*>(QStringLiteral("fileErrorBox"));
    return box != nullptr && box->isVisible() ? box->text() : QString();
  }
};

// Every column of every table in every tab says in its header's tooltip what it holds.
TEST(Words, EveryTableColumnHasAHeaderToolTip) {
  FullWindow w;
  const auto tables = w.window.findChildren<QTableView*>();
  ASSERT_GE(tables.size(), 12);
  int columns = 0;
  for (const QTableView* table : tables) {
    const QAbstractItemModel* model = table->model();
    ASSERT_NE(model, nullptr);
    for (int c = 0; c < model->columnCount(); ++c) {
      const QString title = model->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
      const QString tip = model->headerData(c, Qt::Horizontal, Qt::ToolTipRole).toString();
      EXPECT_FALSE(tip.trimmed().isEmpty()) << table->objectName().toStdString() << " column " << c << " '"
                                            << title.toStdString() << "' has no header tooltip";
      ++columns;
    }
  }
  EXPECT_GE(columns, 120);
}

// The manual names each of the window's tabs (as the README does), and every one of them is a tab.
TEST(Words, TheManualAndTheReadmeListEveryTab) {
  const QString manual = sourceFile("resources/help/manual.html");
  const QString views =
      manual.section(QStringLiteral("<h3>What each view answers</h3>"), 1).section(QStringLiteral("<h3>"), 0, 0);
  std::set<QString> listed;
  const QRegularExpression dt(QStringLiteral("<dt><b>([^<]+)</b></dt>"));
  for (auto it = dt.globalMatch(views); it.hasNext();) listed.insert(it.next().captured(1));
  std::set<QString> tabs;
  for (const char* t : kViewTitles) tabs.insert(QString::fromLatin1(t));
  EXPECT_EQ(listed, tabs);

  FullWindow w;
  std::set<QString> shown;
  for (int i = 0; i < w.window.tabs()->count(); ++i) shown.insert(w.window.tabs()->tabText(i));
  EXPECT_EQ(shown, tabs);

  const QString readme = sourceFile("README.md");
  const QRegularExpression six(QStringLiteral("\\(six: ([^\\n]+)\\), and"));
  const QRegularExpressionMatch m = six.match(readme);
  ASSERT_TRUE(m.hasMatch());
  const QString list = m.captured(1);
  std::set<QString> in_readme;
  for (const QString& t : list.split(QStringLiteral(", "))) in_readme.insert(t.trimmed());
  EXPECT_EQ(in_readme, tabs);
}

// The manual's glossary has every word of the architecture's glossary a user meets.
TEST(Words, TheManualsGlossaryHasTheArchitecturesWords) {
  const QString manual = sourceFile("resources/help/manual.html");
  const QString glossary =
      manual.section(QStringLiteral("<h3>Words used here</h3>"), 1).section(QStringLiteral("<h3>"), 0, 0).toLower();
  ASSERT_FALSE(glossary.isEmpty());
  const QString architecture = sourceFile("docs/ARCHITECTURE.md");
  const QString table = architecture.section(QStringLiteral("## Glossary"), 1).section(QStringLiteral("\n\n"), 1, 1);
  // Names of the code's own parts, not words of the views.
  const std::set<QString> internal = {QStringLiteral("Device"),
                                      QStringLiteral("GPU module"),
                                      QStringLiteral("kernel module"),
                                      QStringLiteral("wrapper module"),
                                      QStringLiteral("job"),
                                      QStringLiteral("phase"),
                                      QStringLiteral("CSV keys"),
                                      QStringLiteral("measure, measurement"),
                                      QStringLiteral("measured config"),
                                      QStringLiteral("Inductor"),
                                      QStringLiteral("Inductor run"),
                                      QStringLiteral("name")};
  int checked = 0;
  for (const QString& line : table.split(QLatin1Char('\n'))) {
    if (!line.startsWith(QStringLiteral("| ")) || line.startsWith(QStringLiteral("| ---"))) continue;
    const QString name = line.section(QLatin1Char('|'), 1, 1).trimmed();
    if (internal.count(name) > 0) continue;
    // "device time (cold, warm)" → "device time"; "sweep (of a kernel)" → "sweep of a kernel".
    for (QString word : name.split(QStringLiteral(", "))) {
      word.replace(QStringLiteral("(of a kernel)"), QStringLiteral("of a kernel"));
      word = word.section(QStringLiteral(" ("), 0, 0).trimmed().toLower();
      EXPECT_TRUE(glossary.contains(word)) << "the manual's glossary lacks '" << word.toStdString() << "'";
      ++checked;
    }
  }
  EXPECT_GE(checked, 25);
  for (const char* jargon : {"rblock", "r0_block", "review_min", "regret", "x1 r512 w8", "spread", "size hints"})
    EXPECT_TRUE(glossary.contains(QLatin1String(jargon))) << jargon;
}

// The spread and max cells say how the spread is computed and how far the slowest run lies above
// the median (a spread of 0.22 % beside a max 66 % above the median is not a contradiction).
TEST(Words, SpreadToolTipShowsItsArithmeticAndTheMax) {
  TimingStats t;
  t.runs = 40;
  t.p25_us = 10.0;
  t.median_us = 10.01;
  t.p75_us = 10.022;
  t.spread_pct = 0.22;
  t.min_us = 9.9;
  t.max_us = 16.6;
  EXPECT_EQ(spreadToolTip(t),
            QStringLiteral("40 cold runs: 25th percentile 10.00 µs, median 10.01 µs, 75th percentile 10.02 µs → spread "
                           "(10.02 − 10.00) / 10.01 = 0.22 %.\nMin 9.90 µs, max 16.60 µs: the slowest run is 66 % "
                           "above the median."));
  EXPECT_TRUE(spreadToolTip(TimingStats{}).isEmpty());
}

// The bundled spill case carries a sweep's measurements: its summary and kernel list count the
// configs Inductor compiled and those the sweep added apart, as `occx inductor scan` counts the first.
TEST(Words, AnInductorRunSaysWhichConfigsASweepAdded) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(view.openBundled(QStringLiteral("spill_log_softmax")).isEmpty());
  const QString summary = labelText(view, "runSummary");
  EXPECT_TRUE(
      summary.startsWith(QStringLiteral("1 looped reduction; 3 configs Inductor compiled (1 added by RBLOCK "
                                        "scaling) + 88 a sweep added; the old and new bounds disagree on 0 "
                                        "of Inductor's configs and ")))
      << summary.toStdString();
  const KernelListModel& kernels = *qobject_cast<const KernelListModel*>(
      qobject_cast<const QSortFilterProxyModel*>(childNamed<QTableView>(view, "kernelTable").model())->sourceModel());
  EXPECT_EQ(kernels.data(kernels.index(0, KernelListModel::kConfigs), Qt::DisplayRole).toString(),
            QStringLiteral("3 + 88"));
  EXPECT_EQ(kernels.data(kernels.index(0, KernelListModel::kConfigs), KernelListModel::kSortRole).toInt(), 91);
  // The kernel's heading says why its size hints are not its shape.
  EXPECT_TRUE(
      labelText(view, "kernelTitle").contains(QStringLiteral("size hints x=512, r0_=32768 (264 × 30000 rounded up)")))
      << labelText(view, "kernelTitle").toStdString();
  EXPECT_TRUE(childNamed<QLabel>(view, "kernelTitle").toolTip().contains(QStringLiteral("next power of two")));
}

// 10 of Blenderbot's 12 looped reductions have no winner (7 of them one config): the winners' mean
// says it is over the 2 kernels whose autotuner chose.
TEST(Words, TheWinnersMeanSaysWhatItIsOver) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(view.openBundled(QStringLiteral("blenderbot")).isEmpty());
  const QString summary = labelText(view, "runSummary");
  EXPECT_TRUE(summary.contains(
      QStringLiteral("the winners' mean occupancy is 100 % over the 2 looped reductions autotuned among several "
                     "configs (10 have no winner, 7 of them one config)")))
      << summary.toStdString();
}

// "Compare with Inductor's kernel…" given a file that is not a kernel-runs CSV: a message box over
// the window and the status bar say why, not only the panel's status line.
TEST(Words, ACompareWithABadFileIsShownWhereTheUserLooks) {
  FullWindow w;
  w.window.show();
  ASSERT_EQ(w.live_sweep->openCsvFile(testData("live_sweep_fixture.csv")), QString());
  w.window.tabs()->setCurrentWidget(w.live_sweep);
  const QString bad = testData("compile_sweep_mean_var_sm90.csv");
  w.live_sweep->setPathChooser([bad](const QString&) { return bad; });
  childNamed<QPushButton>(*w.live_sweep, "compareWithInductor").click();
  const QString shown = w.shownError();
  EXPECT_TRUE(shown.startsWith(QStringLiteral("Not compared: "))) << shown.toStdString();
  // In the view's status line (cut at a word with "…"), not a message painted over the GPU label.
  EXPECT_EQ(w.window.findChild<ElidedLabel*>(QStringLiteral("viewStatus"))->fullText(), shown);
  EXPECT_TRUE(w.window.statusBar()->currentMessage().isEmpty());
  EXPECT_EQ(w.live_sweep->statusLabel()->text(), shown);

  // Open CSV… with a file that is not a live sweep: the same.
  w.live_sweep->setPathChooser([](const QString&) { return testData("h200_clusters.csv"); });
  childNamed<QPushButton>(*w.live_sweep, "openCsvButton").click();
  EXPECT_FALSE(w.shownError().isEmpty());
  EXPECT_NE(w.shownError(), shown);  // the newest error, in one box
  EXPECT_EQ(w.window.findChildren<QMessageBox*>(QStringLiteral("fileErrorBox")).size(), 1);
}

// A dropped file that no view can open: the window says so where the user looks.
TEST(Words, ADroppedFileThatCannotBeOpenedIsShown) {
  FullWindow w;
  w.window.show();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QStringLiteral("not-a-scan.csv"));
  QFile f(path);
  ASSERT_TRUE(f.open(QIODevice::WriteOnly));
  f.write("a,b\n1,2\n");
  f.close();
  emit w.window.pathsDropped({path});
  EXPECT_TRUE(w.shownError().contains(QStringLiteral("not-a-scan.csv"))) << w.shownError().toStdString();
  EXPECT_EQ(w.window.findChild<ElidedLabel*>(QStringLiteral("viewStatus"))->fullText(), w.shownError());
}

}  // namespace
}  // namespace occx::ui
