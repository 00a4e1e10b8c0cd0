// The Inductor run view's Step tab off-screen: the trace recorded with the gpt2 run
// (tests/data/inductor/step_gpt2) read off the UI thread and joined to the run's scan, the words,
// the table, the Pareto chart and the kernel list's in-step column; the bundled run's own trace; a
// damaged trace; and the event loop kept free while a large trace is read.
#include <gtest/gtest.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <QTimer>

#include "inductor_view_support.h"
#include "ui/jobs/trace_read_job.h"
#include "ui/models/inductor_run_models.h"
#include "ui/models/step_kernel_model.h"
#include "ui/plots/step_pareto_plot.h"
#include "ui/shell/main_window.h"
#include "ui/shell/path_opener.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/step_pane.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

bool scanned(InductorRunView& view, const QString& path) {
  bool done = false;
  QObject::connect(
      &view, &InductorRunView::scanFinished, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  EXPECT_TRUE(view.openPath(path).isEmpty());
  return waitFor([&] { return done; }, 20000);
}

bool traceRead(InductorRunView& view, const QString& path) {
  bool done = false;
  QObject::connect(
      view.stepPane(), &StepPane::profileChanged, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  EXPECT_TRUE(view.openTrace(path).isEmpty());
  return waitFor([&] { return done; }, 20000);
}

TEST(StepPane, TheRecordedStepJoinsTheScannedRun) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(scanned(view, inductorFixture("step_gpt2")));
  ASSERT_TRUE(traceRead(view, inductorFixture("step_gpt2/trace.pt.trace.json.gz")));
  StepPane* pane = view.stepPane();
  EXPECT_EQ(view.detailTabs()->currentWidget(), pane);
  ASSERT_NE(pane->profile(), nullptr);
  const step::StepProfile& p = *pane->profile();
  EXPECT_EQ(p.triton_kernels, 42);
  EXPECT_EQ(p.triton_matched, 41);
  EXPECT_EQ(p.triton_ambiguous, 1);
  EXPECT_EQ(pane->model()->numRows(), static_cast<int>(p.kernels.size()));
  // The table's first row: the longest kernel (a cuBLAS matmul); the cross-entropy backward second,
  // with the config its 39 registers say it ran.
  const StepKernelRow* second = pane->model()->row(1);
  ASSERT_NE(second, nullptr);
  EXPECT_TRUE(second->kernel.name.rfind("triton_red_fused__log_softmax__log_softmax_backward_data", 0) == 0);
  ASSERT_TRUE(second->config.has_value());
  EXPECT_EQ(step::shortConfigLabel(*second->config, true), "X1 R1024 w8");
  EXPECT_EQ(pane->model()->data(pane->model()->index(1, StepKernelModel::kConfig), Qt::DisplayRole).toString(),
            QStringLiteral("X1 R1024 w8"));
  EXPECT_EQ(pane->model()->data(pane->model()->index(1, StepKernelModel::kNewDecision), Qt::DisplayRole).toString(),
            QStringLiteral("scale"));
  // The chart: 15 kernels and the rest summed; the cumulative share ends at 100 %.
  const auto& bars = pane->paretoPlot()->barValues();
  ASSERT_EQ(bars.size(), static_cast<std::size_t>(StepParetoPlot::kShownKernels + 1));
  EXPECT_NEAR(bars[1], 224.737, 0.01);
  EXPECT_NEAR(pane->paretoPlot()->cumulativePct().back(), 100.0, 1e-6);
  EXPECT_TRUE(pane->words().contains(QStringLiteral("The Triton reductions take 661.4 µs per step, 27 %")))
      << pane->words().toStdString();
  // The kernel list: the In-step column shown, first, the list sorted by it.
  QTableView* list = &childNamed<QTableView>(view, "kernelTable");
  EXPECT_FALSE(list->isColumnHidden(KernelListModel::kInStep));
  EXPECT_EQ(list->horizontalHeader()->visualIndex(KernelListModel::kInStep), 0);
  const QModelIndex top = list->model()->index(0, KernelListModel::kInStep);
  EXPECT_EQ(list->model()->data(top).toString(), QStringLiteral("224.7"));
  // Double-clicking a Triton row of the step selects that kernel in the list.
  const QModelIndex row = pane->table()->model()->index(5, StepKernelModel::kKernel);  // #6, a reduction
  const StepKernelRow* sixth = pane->model()->row(5);
  ASSERT_NE(sixth, nullptr);
  ASSERT_FALSE(sixth->kernel.module.empty());
  emit pane->table()->doubleClicked(row);
  ASSERT_GE(view.selectedKernel(), 0);
  EXPECT_EQ(view.run().kernels[static_cast<std::size_t>(view.selectedKernel())].module, sixth->kernel.module);
}

TEST(StepPane, ABundledRunOffersItsOwnTrace) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(view.openBundled(QStringLiteral("gpt2")).isEmpty());
  QPushButton* bundled = view.stepPane()->bundledTraceButton();
  EXPECT_FALSE(bundled->isHidden());
  bool done = false;
  QObject::connect(
      view.stepPane(), &StepPane::profileChanged, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  bundled->click();
  ASSERT_TRUE(waitFor([&] { return done; }, 20000));
  const step::StepProfile& p = *view.stepPane()->profile();
  EXPECT_EQ(p.step_count, 2);
  EXPECT_EQ(p.triton_not_in_run, 0);  // every Triton kernel of the re-compile is a kernel of the bundled run
  EXPECT_GT(p.triton_matched, 35);
  // A run without a trace of its own hides the button.
  ASSERT_TRUE(view.openBundled(QStringLiteral("spill_log_softmax")).isEmpty());
  EXPECT_TRUE(bundled->isHidden());
}

TEST(StepPane, TheStepTabFits1280x720) {
  QSettings().clear();
  MainWindow window(testContext(offlineBackend(), false));
  auto* view = new InductorRunView(testContext());
  window.addView(view, QStringLiteral("Inductor run"));
  ASSERT_TRUE(view->openBundled(QStringLiteral("gpt2")).isEmpty());
  window.resize(1280, 720);
  window.show();
  window.tabs()->setCurrentWidget(view);
  ASSERT_TRUE(traceRead(*view, QStringLiteral(":/inductor-runs/gpt2.pt.trace.json.gz")));
  QApplication::processEvents();
  EXPECT_LE(window.width(), 1280);
  EXPECT_EQ(view->detailTabs()->tabText(view->detailTabs()->currentIndex()), QStringLiteral("Step"));
  QWidget* plot = view->stepPane()->paretoPlot()->widget();
  EXPECT_TRUE(plot->isVisible());
  EXPECT_GE(plot->width(), 280);
  EXPECT_GE(plot->height(), 180);
  EXPECT_TRUE(view->stepPane()->table()->isVisible());
  EXPECT_GE(view->stepPane()->table()->width(), 220);
  EXPECT_TRUE(view->stepPane()->wordsView()->isVisible());
  EXPECT_TRUE(view->stepPane()->openButton()->isVisible());
}

TEST(StepPane, ADamagedTraceSaysWhereAndKeepsWhatItRead) {
  QTemporaryDir dir;
  QFile whole(inductorFixture("step_gpt2/trace.pt.trace.json.gz"));
  ASSERT_TRUE(whole.open(QIODevice::ReadOnly));
  const QByteArray bytes = whole.readAll();
  const QString cut = dir.filePath(QStringLiteral("cut.pt.trace.json.gz"));
  QFile out(cut);
  ASSERT_TRUE(out.open(QIODevice::WriteOnly));
  out.write(bytes.left(bytes.size() / 2));
  out.close();
  InductorRunView view{testContext()};
  ASSERT_TRUE(traceRead(view, cut));
  EXPECT_TRUE(view.stepPane()->statusLabel()->text().contains(QStringLiteral("the gzip data is damaged or ends early")))
      << view.stepPane()->statusLabel()->text().toStdString();
  EXPECT_GT(view.stepPane()->model()->numRows(), 0);
  // Not a trace at all: an error, the step shown before stays.
  const QString bad = dir.filePath(QStringLiteral("config.json"));
  QFile b(bad);
  ASSERT_TRUE(b.open(QIODevice::WriteOnly));
  b.write("{\"name\": 1}");
  b.close();
  const int rows = view.stepPane()->model()->numRows();
  EXPECT_TRUE(view.openTrace(bad).isEmpty());
  ASSERT_TRUE(waitFor([&] { return !view.stepPane()->isReading(); }, 20000));
  EXPECT_TRUE(view.stepPane()->statusLabel()->text().contains(QStringLiteral("is not a Chrome trace")));
  EXPECT_EQ(view.stepPane()->model()->numRows(), rows);
  // A missing file is refused at once.
  EXPECT_FALSE(view.openTrace(dir.filePath(QStringLiteral("absent.json"))).isEmpty());
}

TEST(StepPane, TracesOpenInTheStepTabFromAnywhere) {
  EXPECT_EQ(openTargetFor(QStringLiteral("/tmp/run/worker0.1733.pt.trace.json")), OpenTarget::kProfilerTrace);
  EXPECT_EQ(openTargetFor(QStringLiteral("/tmp/run/trace.json.gz")), OpenTarget::kProfilerTrace);
  EXPECT_EQ(openTargetFor(QStringLiteral("/tmp/run/model.py")), OpenTarget::kInductorRun);
}

// A trace of ~40 MB (the recorded step repeated) read while a 5 ms timer ticks: the reading is off
// the UI thread, so the timer keeps ticking and no gap between ticks comes near the read's own time
// (a read on the UI thread would make one gap of all of it; a loaded machine makes gaps of tens of
// ms, so no fixed bound is asserted); cancelling keeps the step shown before.
TEST(StepPane, ALargeTraceNeverBlocksTheEventLoop) {
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("large.pt.trace.json"));
  {
    QFile out(path);
    ASSERT_TRUE(out.open(QIODevice::WriteOnly));
    out.write("{\"traceEvents\": [\n");
    const QByteArray event =
        R"json({"ph": "X", "cat": "kernel", "name": "triton_red_fused__log_softmax__to_copy_prepare_softmax_online_view_0", "ts": 1000.5, "dur": 177.2, "args": {"grid": [2048, 1, 1], "block": [512, 1, 1], "stream": 7, "correlation": 12, "registers per thread": 40}})json";
    for (int i = 0; i < 180000; ++i) {
      if (i > 0) out.write(",\n");
      out.write(event);
    }
    out.write("]}\n");
  }
  InductorRunView view{testContext()};
  QElapsedTimer clock;
  clock.start();
  qint64 last = 0;
  qint64 worst = 0;
  int ticks = 0;
  QTimer tick;
  QObject::connect(&tick, &QTimer::timeout, [&] {
    worst = std::max(worst, clock.elapsed() - last);
    last = clock.elapsed();
    ++ticks;
  });
  tick.start(5);
  ASSERT_TRUE(traceRead(view, path));
  tick.stop();
  const qint64 read_ms = clock.elapsed();
  EXPECT_GE(ticks, 10) << "the timer ticked " << ticks << " times in a " << read_ms << " ms read";
  EXPECT_LT(worst, std::max<qint64>(100, read_ms / 3))
      << "the event loop was blocked for " << worst << " ms of a " << read_ms << " ms read";
  EXPECT_EQ(view.stepPane()->profile()->kernels.front().launches, 180000);
  // Cancelled at once: the step shown before stays.
  EXPECT_TRUE(view.openTrace(path).isEmpty());
  view.stepPane()->cancel();
  ASSERT_TRUE(waitFor([&] { return !view.stepPane()->isReading(); }, 20000));
  EXPECT_EQ(view.stepPane()->profile()->kernels.front().launches, 180000);
}

}  // namespace
}  // namespace occx::ui
