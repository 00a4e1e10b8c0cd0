// The live-sweep view off-screen: a recorded live-sweep CSV (tests/data/live_sweep_fixture.csv, hand-written
// values in the CLI's format) shows the right rows, series, points, roofline, picks and regrets; Run is
// disabled with the reason when there is no GPU; a stand-in runner (no GPU needed) streams rows,
// is cancelled keeping the measured rows, and a second run cancels the first; the bundled datasets
// open as recorded data.
//
// The fixture: log_softmax fp32, 264 × 30000 → 31 680 000 B read + 31 680 000 B written =
// 63 360 000 B, so bandwidth = 63 360 / time_us GB/s. Rows (XBLOCK 1 unless noted):
//   #0 R2048 w16  40.4 µs  Inductor candidate          #5 R8192 w32  31.5 µs  grid only (the best)
//   #1 R2048 w32  42.0                                  #6 R16384 w16 34.5
//   #2 R4096 w16  38.0                                  #7 R16384 w32 32.0 µs  added by new and exact
//   #3 R4096 w32  36.5                                  #8 R32768 w16 60.0, spills (n_spills 200)
//   #4 R8192 w16  35.0                                  #9 R32768 w32 50.4, n_spills 50, Inductor candidate
//   #10 XBLOCK 2, R2048 w16: wrong result (not timed)
// old set = Inductor's {#0, #9}; #9 spills over 16 → pick #0 (40.4 µs), regret 40.4 / 31.5 = 1.2825.
// new set = {#0, #9, #7} → pick #7 (32.0 µs), regret 32.0 / 31.5 = 1.0159; exact: the same.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QTableWidget>
#include <QThread>
#include <atomic>
#include <cmath>
#include <limits>

#include "core/base/csv.h"
#include "tests/ui/ui_test_support.h"
#include "tests/ui/window_test_support.h"
#include "ui/models/live_datasets.h"
#include "ui/models/live_sweep_model.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/sweep_inputs.h"

namespace occx::ui {
namespace {

LiveAvailability noGpu() {
  return LiveAvailability{false, QStringLiteral("No NVIDIA driver: libcuda.so.1 (test)"), {}};
}
LiveAvailability fakeGpu() {
  return LiveAvailability{true, {}, QStringLiteral("Test fixture GPU")};
}

int graphStartingWith(const SweepSeriesPlot* p, const QString& prefix) {
  for (int g = 0; g < p->graphCount(); ++g) {
    if (p->graphName(g).startsWith(prefix)) return g;
  }
  return -1;
}

LiveDataset fixture() {
  auto d = readLiveDataset(testData("live_sweep_fixture.csv"));
  EXPECT_TRUE(d) << (d ? std::string() : d.error());
  return d ? *d : LiveDataset{};
}

// A stand-in runner: delivers the fixture's rows one by one, `sleep_ms` apart, honouring cancel.
struct FakeRunner {
  std::atomic<int> sleep_ms{0};
  std::atomic<int> runs_started{0};
  std::atomic<int> runs_cancelled{0};
  std::atomic<int> running{0};            // runs inside the function now
  std::atomic<int> max_running{0};        // the most at once: the GPU takes one run at a time
  std::atomic<int> cancel_latency_ms{0};  // how long a cancelled run takes to return
  std::atomic<bool> report_damaged_cache_entry{false};
  FakeLiveRun function() {
    return [this](const LiveSweepSpec&, const LiveSweepProgressFn& progress,
                  const std::atomic<bool>* cancel) -> Expected<LiveSweepResult> {
      ++runs_started;
      const int now = ++running;
      for (int seen = max_running; now > seen && !max_running.compare_exchange_weak(seen, now);) {
      }
      struct Leave {
        std::atomic<int>& n;
        ~Leave() { --n; }
      } leave{running};
      LiveDataset all = fixture();
      LiveSweepResult out;
      out.dataset.meta = all.meta;
      progress({Phase::kCompile, all.rows.size(), all.rows.size(), nullptr});
      for (std::size_t i = 0; i < all.rows.size(); ++i) {
        for (int slept = 0; slept < sleep_ms; slept += 5) {
          if (cancel->load()) break;
          QThread::msleep(5);
        }
        if (cancel->load()) {
          QThread::msleep(static_cast<unsigned long>(cancel_latency_ms.load()));  // the kernel in flight ends
          out.cancelled = true;
          ++runs_cancelled;
          break;
        }
        out.dataset.rows.push_back(all.rows[i]);
        progress({Phase::kRun, i + 1, all.rows.size(), &out.dataset.rows.back()});
      }
      out.wall_seconds = 0.5;
      if (report_damaged_cache_entry)
        out.compile.cache_repairs = {"/cache/nvrtc/89ab.occxc (truncated or padded): recompiled and replaced"};
      return out;
    };
  }
};

// The fixture's bandwidth by the rule: its DRAM bytes (31 680 000 read + as many written) over a
// device time in µs, as applyBandwidth computes it.
double dramGBps(double time_us) {
  return (31680000.0 + 31680000.0) / (time_us * 1e-6) / 1e9;
}

TEST(LiveSweepView, RecordedCsvShowsRowsSeriesRooflinePicksAndRegret) {
  LiveSweepView view(testContext(liveBackend({}, noGpu())));
  ASSERT_EQ(view.openCsvFile(testData("live_sweep_fixture.csv")), QString());
  EXPECT_EQ(view.datasetLabel()->text(), QStringLiteral("recorded data: Test fixture GPU, 2026-11-29"));
  EXPECT_TRUE(view.datasetLabel()->isVisibleTo(&view));
  EXPECT_DOUBLE_EQ(view.copyBandwidth(), 4257.0);
  ASSERT_EQ(view.model()->rowCount(), 11);

  const PickSummary& rp = view.replay();
  EXPECT_EQ(rp.best_row, 5);
  ASSERT_EQ(rp.picks.size(), 3u);
  EXPECT_EQ(rp.picks[0].policy, inductor::Policy::kOld);
  EXPECT_EQ(rp.picks[0].row, 0);
  EXPECT_EQ(rp.picks[1].row, 7);
  EXPECT_EQ(rp.picks[2].row, 7);
  // Configs are compared by the device time (the fixture's CUPTI column, 0.97 × its events).
  EXPECT_NEAR(rp.picks[0].regret, 39.188 / 30.555, 1e-9);
  EXPECT_NEAR(rp.picks[1].regret, 31.040 / 30.555, 1e-9);
  EXPECT_EQ(view.model()->picksAt(5), QStringLiteral("best"));
  EXPECT_EQ(view.model()->picksAt(7), QStringLiteral("new, exact"));
  EXPECT_EQ(view.model()->picksAt(0), QStringLiteral("old"));
  EXPECT_EQ(view.model()->picksAt(9), QString());

  // Regret table: old, new, exact, best of all.
  QTableWidget* t = view.regretTable();
  EXPECT_EQ(t->item(0, 0)->text(), QStringLiteral("old bound"));
  EXPECT_EQ(t->item(0, 1)->text(), QStringLiteral("1 of 2"));  // #9 is not timed: n_spills 50 > 16
  EXPECT_EQ(t->item(0, 2)->text(), QStringLiteral("1 × 2048, 16 w"));
  EXPECT_EQ(t->item(0, 3)->text(), QStringLiteral("39.19"));
  // Written before the bandwidth rule: DRAM bytes (63.36 MB) over the device time, 63 360 / 39.188.
  EXPECT_EQ(t->item(0, 4)->text(), QStringLiteral("1617"));
  EXPECT_EQ(t->item(0, 5)->text(), QStringLiteral("1.283"));
  EXPECT_EQ(t->item(1, 1)->text(), QStringLiteral("2 of 3"));
  EXPECT_EQ(t->item(1, 2)->text(), QStringLiteral("1 × 16384, 32 w"));
  EXPECT_EQ(t->item(1, 5)->text(), QStringLiteral("1.016"));
  EXPECT_EQ(t->item(2, 5)->text(), QStringLiteral("1.016"));
  EXPECT_EQ(t->item(3, 0)->text(), QStringLiteral("best of all"));
  EXPECT_EQ(t->item(3, 1)->text(), QStringLiteral("10 of 11"));
  EXPECT_EQ(t->item(3, 2)->text(), QStringLiteral("1 × 8192, 32 w"));
  EXPECT_EQ(t->item(3, 3)->text(), QStringLiteral("30.55"));

  // Bandwidth plot: XBLOCK 1 (the best's), one series per num_warps, the roofline, the picks, the best.
  EXPECT_EQ(view.plotXBlock(), 1);
  SweepSeriesPlot* bw = view.bandwidthPlot();
  EXPECT_EQ(bw->title(), QStringLiteral("DRAM bandwidth per config (XBLOCK = 1)"));
  EXPECT_EQ(bw->xAxisLabel(), QStringLiteral("RBLOCK (elements per loop iteration, log2 scale)"));
  EXPECT_EQ(bw->yAxisLabel(), QStringLiteral("DRAM bandwidth (GB/s)"));
  const int w16 = bw->graphIndex(QStringLiteral("16 warps"));
  const int w32 = bw->graphIndex(QStringLiteral("32 warps"));
  ASSERT_GE(w16, 0);
  ASSERT_GE(w32, 0);
  EXPECT_EQ(bw->graphPoints(w16).size(), 5);
  EXPECT_EQ(bw->graphPoints(w32).size(), 5);
  EXPECT_DOUBLE_EQ(yAt(bw->graphPoints(w32), 8192), dramGBps(30.555));
  EXPECT_DOUBLE_EQ(yAt(bw->graphPoints(w16), 32768), dramGBps(58.2));
  const int roof = bw->graphIndex(QStringLiteral("roofline: copy 4257 GB/s (measured, read + write)"));
  ASSERT_GE(roof, 0);
  EXPECT_DOUBLE_EQ(bw->graphPoints(roof).front().y(), 4257.0);
  const int old_pick = graphStartingWith(bw, QStringLiteral("old pick"));
  const int new_pick = graphStartingWith(bw, QStringLiteral("new pick"));
  const int exact_pick = graphStartingWith(bw, QStringLiteral("exact pick"));
  const int best = graphStartingWith(bw, QStringLiteral("best"));
  ASSERT_GE(old_pick, 0);
  ASSERT_GE(new_pick, 0);
  ASSERT_GE(exact_pick, 0);
  ASSERT_GE(best, 0);
  EXPECT_EQ(bw->graphName(old_pick), QStringLiteral("old pick, regret 1.28"));
  EXPECT_EQ(bw->graphPoints(old_pick), (QVector<QPointF>{{2048, dramGBps(39.188)}}));
  EXPECT_EQ(bw->graphPoints(new_pick), (QVector<QPointF>{{16384, dramGBps(31.040)}}));
  EXPECT_EQ(bw->graphPoints(exact_pick), (QVector<QPointF>{{16384, dramGBps(31.040)}}));
  EXPECT_EQ(bw->graphName(best), QStringLiteral("best: 2074 GB/s"));
  EXPECT_EQ(bw->graphPoints(best), (QVector<QPointF>{{8192, dramGBps(30.555)}}));
  EXPECT_EQ(bw->graphRows(best), (QVector<int>{5}));
  // The best row is selected when a dataset opens, and marked.
  EXPECT_EQ(view.selectedRow(), 5);
  const int sel = bw->graphIndex(QStringLiteral("selected"));
  ASSERT_GE(sel, 0);
  EXPECT_EQ(bw->graphPoints(sel), (QVector<QPointF>{{8192, dramGBps(30.555)}}));
  EXPECT_EQ(bw->graphCount(), 8);  // 2 series + roofline + 3 picks + best + selected (no datasheet: an unknown GPU)

  // Time plot: medians with min … max bars; occupancy: theoretical and achieved per num_warps.
  SweepSeriesPlot* time = view.timePlot();
  EXPECT_DOUBLE_EQ(yAt(time->graphPoints(time->graphIndex(QStringLiteral("16 warps"))), 2048), 39.188);
  EXPECT_EQ(time->errorBarCount(), 2);
  EXPECT_EQ(time->yAxisLabel(), QStringLiteral("Device time, L2 cold (µs)"));
  SweepSeriesPlot* occ = view.occupancyPlot();
  EXPECT_EQ(occ->graphCount(), 4);
  EXPECT_DOUBLE_EQ(yAt(occ->graphPoints(occ->graphIndex(QStringLiteral("16 warps"))), 4096), 75.0);
  EXPECT_DOUBLE_EQ(yAt(occ->graphPoints(occ->graphIndex(QStringLiteral("16 w achieved"))), 4096), 67.5);
  EXPECT_EQ(occ->title(), QStringLiteral("Occupancy: theoretical (solid), achieved (dashed)"));

  // The wrong-result row is in the table with its reason, not in any plot.
  const LiveSweepModel* m = view.model();
  EXPECT_EQ(m->data(m->index(10, LiveSweepModel::kStatus), Qt::DisplayRole).toString(), QStringLiteral("wrong result"));
  EXPECT_TRUE(m->data(m->index(10, LiveSweepModel::kReason), Qt::DisplayRole)
                  .toString()
                  .startsWith(QStringLiteral("out0: 3 of 132")));
  EXPECT_EQ(m->data(m->index(10, LiveSweepModel::kTime), Qt::DisplayRole).toString(), QString());
  EXPECT_EQ(m->data(m->index(7, LiveSweepModel::kSets), Qt::DisplayRole).toString(), QStringLiteral("new exact"));
  EXPECT_EQ(m->data(m->index(5, LiveSweepModel::kSets), Qt::DisplayRole).toString(), QStringLiteral("grid only"));
  // The inputs follow the dataset: log_softmax fp32 264 × 30000, grid RBLOCK 2048 … 32768, 16 and 32 warps.
  CompileSweepSpec spec;
  view.inputs()->fillSpec(spec);
  EXPECT_EQ(spec.workload, Workload::kLogSoftmax);
  EXPECT_EQ(spec.dtype, DType::kF32);
  EXPECT_EQ(spec.xnumel, 264);
  EXPECT_EQ(spec.rnumel, 30000);
  EXPECT_EQ(spec.grid.xblock, (std::vector<int>{1, 2}));
  EXPECT_EQ(spec.grid.r0_block, (std::vector<int>{2048, 4096, 8192, 16384, 32768}));
  EXPECT_EQ(spec.grid.num_warps, (std::vector<int>{16, 32}));
  // Recorded before static shapes (no "shape" key): Run would build kernels that take the shape at run time.
  EXPECT_FALSE(spec.static_shape);
  EXPECT_FALSE(view.inputs()->staticShapeCheck()->isChecked());
  EXPECT_EQ(m->data(m->index(0, LiveSweepModel::kPctCopy), Qt::DisplayRole).toString(),
            QStringLiteral("38.0"));  // 1616.8 / 4257
}

TEST(LiveSweepView, OtherXBlockShowsItsRowsOnlyAndSaysWhyNoneWasTimed) {
  LiveSweepView view(testContext(liveBackend({}, noGpu())));
  ASSERT_EQ(view.openCsvFile(testData("live_sweep_fixture.csv")), QString());
  EXPECT_EQ(view.xblockCombo()->count(), 2);
  ASSERT_TRUE(view.setPlotXBlock(2));
  SweepSeriesPlot* bw = view.bandwidthPlot();
  EXPECT_EQ(bw->graphIndex(QStringLiteral("16 warps")), -1);
  EXPECT_EQ(bw->note(), QStringLiteral("No config with XBLOCK = 2 was timed (see the table for the reasons)"));
  // The picks are at XBLOCK 1: named in the legend, not drawn here.
  const int old_pick = graphStartingWith(bw, QStringLiteral("old pick"));
  ASSERT_GE(old_pick, 0);
  EXPECT_TRUE(bw->graphPoints(old_pick).isEmpty());
  EXPECT_TRUE(bw->graphName(old_pick).endsWith(QStringLiteral("[XBLOCK 1]")));
}

TEST(LiveSweepView, RunIsDisabledWithTheReasonWhenThereIsNoGpu) {
  FakeRunner fake;
  LiveSweepView view(testContext(liveBackend(fake.function(), noGpu())));
  EXPECT_FALSE(view.runButton()->isEnabled());
  EXPECT_TRUE(view.runButton()->toolTip().contains(QStringLiteral("No NVIDIA driver: libcuda.so.1 (test)")));
  EXPECT_TRUE(view.availabilityLabel()->text().contains(QStringLiteral("No NVIDIA driver: libcuda.so.1 (test)")));
  EXPECT_TRUE(view.startRun().contains(QStringLiteral("No NVIDIA driver")));
  EXPECT_EQ(fake.runs_started.load(), 0);
  EXPECT_TRUE(view.openCsvButton()->isEnabled());
}

TEST(LiveSweepView, OnThisMachineRunFollowsTheDriver) {
  const LiveAvailability here = liveAvailability(*thisBuildBackend());
  if (here.available) GTEST_SKIP() << "a GPU is present here (" << here.device.toStdString() << "): Run is enabled";
  LiveSweepView view(testContext(thisBuildBackend()));
  EXPECT_FALSE(view.runButton()->isEnabled());
  EXPECT_FALSE(here.reason.isEmpty());
  EXPECT_TRUE(view.runButton()->toolTip().contains(here.reason) ||
              view.runButton()->toolTip().contains(QStringLiteral("CUDA Toolkit")));
}

TEST(LiveSweepView, RunStreamsRowsAndCancelKeepsTheMeasuredOnes) {
  FakeRunner fake;
  fake.sleep_ms = 80;
  LiveSweepView view(testContext(liveBackend(fake.function(), fakeGpu())));
  ASSERT_TRUE(view.runButton()->isEnabled());
  QSignalSpy changed(&view, &LiveSweepView::datasetChanged);
  ASSERT_EQ(view.startRun(), QString());
  EXPECT_TRUE(view.isRunning());
  EXPECT_TRUE(view.cancelButton()->isEnabled());
  ASSERT_TRUE(waitFor([&] { return view.model()->rowCount() >= 3; }, 20000));
  EXPECT_TRUE(view.progressBar()->text().startsWith(QStringLiteral("run ")));
  view.cancelButton()->click();
  ASSERT_TRUE(changed.wait(20000));
  ASSERT_TRUE(view.job()->waitForIdle(20000));
  EXPECT_FALSE(view.isRunning());
  const int rows = view.model()->rowCount();
  EXPECT_GE(rows, 3);
  EXPECT_LT(rows, 11);
  EXPECT_EQ(static_cast<int>(view.dataset().rows.size()), rows);
  EXPECT_EQ(fake.runs_cancelled.load(), 1);
  EXPECT_EQ(view.statusLabel()->text(), QStringLiteral("Cancelled: kept %1 measured rows.").arg(rows));
  EXPECT_EQ(view.datasetLabel()->text(), QStringLiteral("measured on this machine: Test fixture GPU, 2026-11-29"));
  // The measured rows are plotted (rows 0, 1, 2 … are XBLOCK 1).
  int points = 0;
  for (const char* name : {"16 warps", "32 warps"}) {
    points += static_cast<int>(
        view.bandwidthPlot()->graphPoints(view.bandwidthPlot()->graphIndex(QLatin1String(name))).size());
  }
  EXPECT_EQ(points, rows);
}

TEST(LiveSweepView, MetricsAreCollectedByDefaultAndTheChoiceIsKept) {
  std::atomic<int> metrics{-1};
  FakeLiveRun capture = [&](const LiveSweepSpec& spec, const LiveSweepProgressFn&,
                            const std::atomic<bool>*) -> Expected<LiveSweepResult> {
    metrics = spec.run.cupti_metrics ? 1 : 0;
    LiveSweepResult out;
    out.dataset.meta = fixture().meta;
    return out;
  };
  LiveSweepView view(testContext(liveBackend(capture, fakeGpu())));
  auto* box = view.findChild<QCheckBox*>(QStringLiteral("cuptiMetrics"));
  ASSERT_NE(box, nullptr);
  QSettings fresh(QDir::temp().filePath(QStringLiteral("occx-live-metrics-test.ini")), QSettings::IniFormat);
  fresh.clear();
  view.restoreSettings(fresh);
  EXPECT_TRUE(box->isChecked());                   // a first start, or settings from before metrics were the default
  fresh.setValue(QStringLiteral("cupti"), false);  // the old key, saved when the default was off
  view.restoreSettings(fresh);
  EXPECT_TRUE(box->isChecked());
  ASSERT_EQ(view.startRun(), QString());
  ASSERT_TRUE(view.job()->waitForIdle(20000));
  EXPECT_EQ(metrics.load(), 1);
  box->setChecked(false);
  view.saveSettings(fresh);
  LiveSweepView again(testContext(liveBackend(capture, fakeGpu())));
  again.restoreSettings(fresh);
  EXPECT_FALSE(again.findChild<QCheckBox*>(QStringLiteral("cuptiMetrics"))->isChecked());
  fresh.clear();
}

TEST(LiveSweepView, ASecondRunCancelsTheFirst) {
  FakeRunner fake;
  fake.sleep_ms = 60;
  LiveSweepView view(testContext(liveBackend(fake.function(), fakeGpu())));
  QSignalSpy changed(&view, &LiveSweepView::datasetChanged);
  ASSERT_EQ(view.startRun(), QString());
  ASSERT_TRUE(waitFor([&] { return view.model()->rowCount() >= 1; }, 20000));
  fake.sleep_ms = 0;
  ASSERT_EQ(view.startRun(), QString());
  ASSERT_TRUE(changed.wait(20000));
  ASSERT_TRUE(view.job()->waitForIdle(20000));
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(fake.runs_started.load(), 2);
  EXPECT_EQ(fake.runs_cancelled.load(), 1);  // the first run saw its cancel flag
  EXPECT_EQ(view.model()->rowCount(), 11);   // only the second run's rows
  EXPECT_EQ(view.replay().best_row, 5);
}

TEST(LiveSweepView, NeverTwoRunsOnTheGpuAtOnce) {
  // Three Run presses while the first run measures: the superseded runs see their cancel flag; the
  // next one starts only when the previous one has returned, and the last press wins.
  FakeRunner fake;
  fake.sleep_ms = 60;
  fake.cancel_latency_ms = 150;
  LiveSweepView view(testContext(liveBackend(fake.function(), fakeGpu())));
  QSignalSpy changed(&view, &LiveSweepView::datasetChanged);
  ASSERT_EQ(view.startRun(), QString());
  ASSERT_TRUE(waitFor([&] { return view.model()->rowCount() >= 2; }, 20000));
  ASSERT_EQ(view.startRun(), QString());
  ASSERT_EQ(view.startRun(), QString());
  ASSERT_TRUE(view.job()->waitForIdle(30000));
  EXPECT_EQ(fake.max_running.load(), 1);
  EXPECT_EQ(fake.running.load(), 0);
  // The second press was superseded while it waited for the GPU: it never ran (2 runs, not 3), or
  // it started and saw its cancel flag at once; either way only the last run's rows are shown.
  EXPECT_GE(fake.runs_started.load(), 2);
  EXPECT_EQ(fake.runs_cancelled.load(), fake.runs_started.load() - 1);
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(view.model()->rowCount(), 11);
  EXPECT_FALSE(view.isRunning());
}

TEST(LiveSweepView, ADamagedCacheEntryIsReportedInTheStatus) {
  FakeRunner fake;
  fake.report_damaged_cache_entry = true;
  LiveSweepView view(testContext(liveBackend(fake.function(), fakeGpu())));
  QSignalSpy changed(&view, &LiveSweepView::datasetChanged);
  ASSERT_EQ(view.startRun(), QString());
  ASSERT_TRUE(changed.wait(20000));
  EXPECT_EQ(view.statusLabel()->text(),
            QStringLiteral("Measured 11 configs in 0.5 s. Damaged compile-cache entries found "
                           "and recompiled: 1 (hover for the files)."));
  EXPECT_EQ(view.statusLabel()->toolTip(),
            QStringLiteral("/cache/nvrtc/89ab.occxc (truncated or padded): recompiled and replaced"));
}

TEST(LiveSweepView, ARunCancelledBeforeAnyRowSaysSo) {
  FakeRunner fake;
  fake.sleep_ms = 300;
  LiveSweepView view(testContext(liveBackend(fake.function(), fakeGpu())));
  ASSERT_EQ(view.startRun(), QString());
  view.cancelButton()->click();  // before the first row (300 ms away)
  ASSERT_TRUE(view.job()->waitForIdle(20000));
  EXPECT_EQ(view.model()->rowCount(), 0);
  EXPECT_EQ(view.statusLabel()->text(), QStringLiteral("Cancelled before any config was measured."));
  EXPECT_EQ(view.datasetLabel()->text(),
            QStringLiteral("No data: the run was cancelled before any config was measured"));
}

TEST(LiveSweepView, ClosingTheWindowDuringARunEndsItCleanly) {
  FakeRunner fake;
  fake.sleep_ms = 80;
  auto* view = new LiveSweepView(testContext(liveBackend(fake.function(), fakeGpu())));
  MainWindow* window = windowAround(view, QStringLiteral("Live sweep"));
  ASSERT_EQ(view->startRun(), QString());
  ASSERT_TRUE(waitFor([&] { return view->model()->rowCount() >= 2; }, 20000));
  EXPECT_TRUE(closeAndDelete(window));  // the window, the view and its job are gone
  // The job's destructor cancelled the run and waited for it: nothing runs on after the window.
  EXPECT_EQ(fake.running.load(), 0);
  EXPECT_EQ(fake.runs_started.load(), 1);
  EXPECT_EQ(fake.runs_cancelled.load(), 1);
  QCoreApplication::processEvents();  // rows the run posted before it ended go nowhere, harmlessly
}

TEST(LiveSweepView, ExportsTheDatasetAndTheRegretTable) {
  LiveSweepView view(testContext(liveBackend({}, noGpu())));
  ASSERT_EQ(view.openCsvFile(testData("live_sweep_fixture.csv")), QString());
  const auto exports = view.csvExports();
  ASSERT_EQ(exports.size(), 2u);
  auto back = liveDatasetFromCsv(exports[0].table);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->rows.size(), 11u);
  EXPECT_EQ(back->metaValue("device"), "Test fixture GPU");
  const CsvTable& regret = exports[1].table;
  ASSERT_EQ(regret.rows.size(), 4u);
  EXPECT_EQ(regret.rows[0][0], "old");
  EXPECT_EQ(regret.rows[0][3], "log_softmax fp32 XBLOCK=1 RBLOCK=2048 num_warps=16");
  EXPECT_EQ(regret.rows[3][0], "best");
  EXPECT_EQ(view.plotExports().size(), 3u);
}

TEST(LiveSweepView, ACompileOnlySweepIsSentToTheCompileSweepView) {
  LiveSweepView view(testContext(liveBackend({}, noGpu())));
  const int before = view.model()->rowCount();
  const QString error = view.openCsvFile(testData("compile_sweep_mean_var_sm90.csv"));
  EXPECT_TRUE(error.contains(QStringLiteral("open it in the Compile sweep tab"))) << error.toStdString();
  EXPECT_EQ(view.model()->rowCount(), before);
}

TEST(LiveSweepView, BundledDatasetsOpenAsRecordedData) {
  const auto bundled = bundledDatasets();
  if (bundled.empty()) GTEST_SKIP() << "this build bundles no datasets (resources/datasets/*.csv is empty)";
  for (const auto& b : bundled) {
    LiveSweepView view(testContext(liveBackend({}, noGpu())));
    ASSERT_EQ(view.openCsvFile(b.path), QString()) << b.path.toStdString();
    EXPECT_GT(view.model()->rowCount(), 0);
    EXPECT_TRUE(view.datasetLabel()->text().startsWith(QStringLiteral("recorded data: ")))
        << view.datasetLabel()->text().toStdString();
    EXPECT_GT(view.copyBandwidth(), 0.0);
    EXPECT_GE(view.replay().best_row, 0);
    // Both limits, labelled: the measured copy and the H200's datasheet figure (4.8 TB/s).
    SweepSeriesPlot* bw = view.bandwidthPlot();
    EXPECT_GE(graphStartingWith(bw, QStringLiteral("roofline: copy ")), 0);
    const int sheet = bw->graphIndex(QStringLiteral("datasheet DRAM peak 4800 GB/s"));
    ASSERT_GE(sheet, 0);
    EXPECT_DOUBLE_EQ(bw->graphPoints(sheet).front().y(), 4800.0);
  }
  // Without a GPU the view opens the first bundled dataset by itself.
  LiveSweepView view(testContext(liveBackend({}, noGpu())));
  EXPECT_GT(view.model()->rowCount(), 0);
  EXPECT_TRUE(view.datasetLabel()->text().startsWith(QStringLiteral("recorded data: ")));
}

// The built-in family beside Inductor's real kernel. The bundled mean_var dataset pairs with the
// bundled sweep of Inductor's kernel (resources/inductor-runs/measured/ref_mean_var.csv): 55 configs
// ran ok on both; X1 R2048 w16 is 170.24 µs / 26 registers ours, 168.352 µs / n_regs 26 Triton's,
// ratio 0.989. Of the 55 ratios (median 1.004) 43 lie in 0.85 … 1.15; 44 register counts are within
// ±25 %; 5 configs spill on one side only (tests/core/sweep/family_fidelity_test.cpp pins the same).
int rowOf(const LiveSweepModel* m, int xblock, int rblock, int num_warps) {
  for (int r = 0; r < m->rowCount(); ++r) {
    const KernelConfig& c = m->row(r)->config;
    if (c.xblock == xblock && c.rblock == rblock && c.num_warps == num_warps) return r;
  }
  return -1;
}

QString cellText(const LiveSweepModel* m, int row, int column) {
  return m->data(m->index(row, column), Qt::DisplayRole).toString();
}

TEST(LiveSweepView, BundledMeanVarShowsInductorsKernelBesideTheFamily) {
  LiveSweepView view(testContext(liveBackend({}, noGpu())));
  ASSERT_EQ(view.openCsvFile(QStringLiteral(":/datasets/h200_mean_var_fp16_32768x8192.csv")), QString());
  ASSERT_NE(view.fidelity(), nullptr);
  EXPECT_TRUE(view.inputs()->staticShapeCheck()->isChecked());  // "shape: static", as recorded
  EXPECT_EQ(view.fidelity()->summary.paired, 55);
  EXPECT_EQ(view.fidelityLabel()->text(),
            QStringLiteral("Inductor's Triton kernel at the same configs (ref_mean_var, H200, 2026-12-03): 55 paired, "
                           "time Triton/ours median 1.00, 76 % within 0.85…1.15, registers within ±25 % on 80 %, "
                           "one side spills on 5"));
  EXPECT_TRUE(view.fidelityLabel()->isVisibleTo(&view));

  const LiveSweepModel* m = view.model();
  using M = LiveSweepModel;
  for (int c : {M::kTritonTime, M::kTritonRegisters, M::kTritonRatio}) {
    EXPECT_FALSE(view.tableView()->isColumnHidden(c)) << c;
  }
  EXPECT_EQ(m->headerData(M::kTritonTime, Qt::Horizontal, Qt::DisplayRole).toString(), QStringLiteral("Triton µs"));
  EXPECT_EQ(m->headerData(M::kTritonRegisters, Qt::Horizontal, Qt::DisplayRole).toString(),
            QStringLiteral("Triton regs"));
  EXPECT_EQ(m->headerData(M::kTritonRatio, Qt::Horizontal, Qt::DisplayRole).toString(),
            QStringLiteral("Triton / ours"));
  const int r = rowOf(m, 1, 2048, 16);
  ASSERT_GE(r, 0);
  EXPECT_EQ(cellText(m, r, M::kTime), QStringLiteral("166.83"));  // device time, L2 cold, both sides
  EXPECT_EQ(cellText(m, r, M::kTritonTime), QStringLiteral("165.18"));
  EXPECT_EQ(cellText(m, r, M::kRegisters), QStringLiteral("26"));
  EXPECT_EQ(cellText(m, r, M::kTritonRegisters), QStringLiteral("26"));
  EXPECT_EQ(cellText(m, r, M::kTritonRatio), QStringLiteral("0.99"));
  EXPECT_DOUBLE_EQ(m->data(m->index(r, M::kTritonRatio), M::kSortRole).toDouble(), 165.184 / 166.832);
  // The pairs export beside the dataset and the regret table.
  const auto exports = view.csvExports();
  ASSERT_EQ(exports.size(), 3u);
  EXPECT_EQ(exports[2].table.metaValue("paired"), "55");
  EXPECT_EQ(exports[2].table.metaValue("triton_source"), "ref_mean_var, H200, 2026-12-03");
  EXPECT_EQ(exports[2].table.rows.size(), 55u);

  // Triton's series beside ours in the time plot, dashed, one per num_warps of the plotted XBLOCK;
  // the checkbox hides them.
  ASSERT_TRUE(view.setPlotXBlock(1));
  ASSERT_TRUE(view.tritonSeriesCheck()->isEnabled());
  ASSERT_TRUE(view.tritonSeriesCheck()->isChecked());
  SweepSeriesPlot* time = view.timePlot();
  const int t16 = time->graphIndex(QStringLiteral("Triton w16"));
  ASSERT_GE(t16, 0);
  EXPECT_GE(time->graphIndex(QStringLiteral("16 warps")), 0);
  bool found = false;
  for (const QPointF& p : time->graphPoints(t16)) {
    if (p.x() == 2048) {
      EXPECT_DOUBLE_EQ(p.y(), 165.184);
      found = true;
    }
  }
  EXPECT_TRUE(found);
  view.tritonSeriesCheck()->setChecked(false);
  EXPECT_EQ(time->graphIndex(QStringLiteral("Triton w16")), -1);
  EXPECT_GE(time->graphIndex(QStringLiteral("16 warps")), 0);
}

TEST(LiveSweepView, DatasetWithoutInductorsKernelSaysTheFiguresAreTheFamilys) {
  LiveSweepView view(testContext(liveBackend({}, noGpu())));
  ASSERT_EQ(view.openCsvFile(testData("live_sweep_fixture.csv")), QString());
  EXPECT_EQ(view.fidelity(), nullptr);
  EXPECT_EQ(view.fidelityLabel()->text(),
            QStringLiteral("Times and registers are the built-in family's: no measurement of Inductor's own kernel for "
                           "this shape (Compare with Inductor's kernel… to add one)"));
  for (int c : {LiveSweepModel::kTritonTime, LiveSweepModel::kTritonRegisters, LiveSweepModel::kTritonRatio}) {
    EXPECT_TRUE(view.tableView()->isColumnHidden(c)) << c;
  }
  EXPECT_FALSE(view.tritonSeriesCheck()->isEnabled());
  EXPECT_EQ(view.timePlot()->graphIndex(QStringLiteral("Triton w16")), -1);
  EXPECT_EQ(view.compareButton()->text(), QStringLiteral("Compare with Inductor's kernel…"));

  // The same shape as the bundled sweep of Inductor's spilling log_softmax (264 × 30000): comparing
  // with it pairs the fixture's ten ok rows; R2048 w16 is 39.188 µs ours, 26.59 µs Triton's (device time).
  ASSERT_EQ(view.compareWithMeasurements(QStringLiteral(":/inductor-runs/measured/spill_log_softmax.csv")), QString());
  ASSERT_NE(view.fidelity(), nullptr);
  EXPECT_EQ(view.fidelity()->summary.paired, 10);
  EXPECT_TRUE(view.fidelityLabel()->text().startsWith(
      QStringLiteral("Inductor's Triton kernel at the same configs (spill_log_softmax, H200, 2026-12-03): 10 paired")))
      << view.fidelityLabel()->text().toStdString();
  EXPECT_EQ(cellText(view.model(), 0, LiveSweepModel::kTritonTime), QStringLiteral("26.59"));
  EXPECT_EQ(cellText(view.model(), 0, LiveSweepModel::kTritonRatio), QStringLiteral("0.68"));
  EXPECT_EQ(cellText(view.model(), 10, LiveSweepModel::kTritonTime), QString());  // wrong result: not paired
  EXPECT_FALSE(view.tableView()->isColumnHidden(LiveSweepModel::kTritonRatio));

  // Another dataset drops the pairing.
  ASSERT_EQ(view.openCsvFile(QStringLiteral(":/datasets/h200_fused_k3_fp16_32768x8192.csv")), QString());
  EXPECT_EQ(view.fidelity(), nullptr);
  EXPECT_TRUE(view.fidelityLabel()->text().startsWith(QStringLiteral("Times and registers are the built-in family's")));
}

TEST(LiveSweepView, KernelRunsOfAnotherShapeOrNoKernelRunsAreRefused) {
  LiveSweepView view(testContext(liveBackend({}, noGpu())));
  ASSERT_EQ(view.openCsvFile(QStringLiteral(":/datasets/h200_mean_var_fp16_32768x8192.csv")), QString());
  const QString shown = view.fidelityLabel()->text();

  const QString other = view.compareWithMeasurements(QStringLiteral(":/inductor-runs/measured/spill_log_softmax.csv"));
  EXPECT_TRUE(other.contains(QStringLiteral("264 × 30000"))) << other.toStdString();
  EXPECT_TRUE(other.contains(QStringLiteral("32768 × 8192"))) << other.toStdString();
  EXPECT_TRUE(view.statusLabel()->text().contains(other)) << view.statusLabel()->text().toStdString();
  // What was shown stays: the bundled pairing.
  ASSERT_NE(view.fidelity(), nullptr);
  EXPECT_EQ(view.fidelity()->summary.paired, 55);
  EXPECT_EQ(view.fidelityLabel()->text(), shown);

  const QString not_runs = view.compareWithMeasurements(testData("live_sweep_fixture.csv"));
  EXPECT_TRUE(not_runs.contains(QStringLiteral("not a kernel-runs CSV"))) << not_runs.toStdString();
  EXPECT_TRUE(view.statusLabel()->text().contains(not_runs));
  const QString missing = view.compareWithMeasurements(QStringLiteral("/nonexistent/runs.csv"));
  EXPECT_TRUE(missing.contains(QStringLiteral("cannot read"))) << missing.toStdString();
  EXPECT_EQ(view.fidelity()->summary.paired, 55);
}

}  // namespace
}  // namespace occx::ui
