// The compile-sweep view off-screen: a compile sweep with a deterministic stand-in compiler (every build),
// start / cancel / a second request that cancels the first, the plots' series, reference lines and
// points, the config table's decisions, the generated source, "Send to RBLOCK scaling", reading a
// compile-sweep CSV written by `occx sweep`, and — with the CUDA Toolkit — a real NVRTC sweep
// started and cancelled. Expected numbers are derived by hand in the comments.
#include <gtest/gtest.h>

#include <QAbstractItemModel>
#include <QAction>
#include <QComboBox>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <QTimer>
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <mutex>
#include <set>

#include "core/kernels/kernel_family.h"
#include "occx_config.h"
#include "qcustomplot.h"
#include "tests/ui/ui_test_support.h"
#include "tests/ui/window_test_support.h"
#include "ui/jobs/compile_sweep_job.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/shell/main_window.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/views/sweep_inputs.h"

#if OCCX_HAVE_CUDA
#include "core/cuda/nvrtc_compiler.h"
#include "core/kernels/compile_cache.h"
#endif

namespace occx::ui {
namespace {

// A stand-in for NVRTC: registers = 26 + accumulator values per thread (capped at 255; the excess
// spills, 4 bytes per register), read from the kernel name's XBLOCK/RBLOCK/num_warps. For mean_var
// (3 tiles) with XBLOCK 1, RBLOCK 2048, 16 warps: 2048 / 512 = 4 values per tile × 3 = 12 → 38
// registers, the design's example decision. Optionally sleeps per compile and honours cancel.
struct FakeCompiler {
  std::atomic<int> sleep_ms{0};
  std::mutex mutex;
  std::vector<std::string> compiled;  // kernel names that finished
  std::string damaged_entry_for;      // this kernel's cache entry is reported damaged and recompiled
  int cancelled_seen = 0;

  CompileFunction function() {
    return [this](const CompileRequest& req) -> Expected<CompileResult> {
      for (int slept = 0; slept < sleep_ms; slept += 5) {
        if (req.cancel != nullptr && req.cancel->load()) {
          std::lock_guard<std::mutex> lock(mutex);
          ++cancelled_seen;
          return Error::cancellation();
        }
        QThread::msleep(5);
      }
      static const QRegularExpression re(
          QStringLiteral("^occx_([a-z_]+?)\\d*_(fp32|fp16|bf16)_x(\\d+)_r(\\d+)_w(\\d+)"));
      const auto m = re.match(QString::fromStdString(req.kernel_name));
      if (!m.hasMatch()) return Error{"unexpected kernel name " + req.kernel_name};
      KernelConfig c;
      c.workload = *parseWorkload(m.captured(1).toStdString());
      c.dtype = *parseDType(m.captured(2).toStdString());
      c.xblock = m.captured(3).toInt();
      c.rblock = m.captured(4).toInt();
      c.num_warps = m.captured(5).toInt();
      auto layout = tileLayout(c);
      if (!layout) return Error{layout.error()};
      const int wanted = 26 + layout->accumulator_values_per_thread;
      CompileResult r;
      r.kernel_name = req.kernel_name;
      r.arch = req.arch;
      r.compiler = "fake compiler 1.0";
      r.report.function = req.kernel_name;
      r.report.registers = std::min(255, wanted);
      r.report.spill_stores_bytes = std::max(0, wanted - 255) * 4;
      r.report.spill_loads_bytes = r.report.spill_stores_bytes;
      r.report.stack_frame_bytes = r.report.spill_stores_bytes;
      r.report.static_smem_bytes = 16;
      r.compile_ms = sleep_ms.load();
      if (req.kernel_name == damaged_entry_for)
        r.cache_repair = "/cache/nvrtc/0123.occxc (checksum mismatch): recompiled and replaced";
      std::lock_guard<std::mutex> lock(mutex);
      compiled.push_back(req.kernel_name);
      return r;
    };
  }
  int count(const std::string& prefix) {
    std::lock_guard<std::mutex> lock(mutex);
    int n = 0;
    for (const auto& k : compiled) n += k.rfind(prefix, 0) == 0 ? 1 : 0;
    return n;
  }
};

// mean_var fp32, 512 × 8192 on the H200 (CC 9.0, 132 SMs); grid XBLOCK {1} × RBLOCK {512 … 4096} ×
// num_warps {8, 16}, Inductor's candidates off: 8 configs.
void setUpSmallSweep(CompileSweepView& view, Workload workload = Workload::kMeanVar) {
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  CompileSweepSpec spec;
  spec.workload = workload;
  spec.dtype = DType::kF32;
  spec.xnumel = 512;
  spec.rnumel = 8192;
  spec.grid.xblock = {1};
  spec.grid.r0_block = {512, 1024, 2048, 4096};
  spec.grid.num_warps = {8, 16};
  spec.inductor_candidates = false;
  view.inputs()->setFromSpec(spec);
  view.threadsSpin()->setValue(1);
}

QString cellText(const CompileSweepModel* m, int row, int col) {
  return m->data(m->index(row, col), Qt::DisplayRole).toString();
}

int rowOf(const CompileSweepModel* m, int x, int r, int w) {
  for (int i = 0; i < m->rowCount(); ++i) {
    const auto* e = m->row(i);
    if (e->config.xblock == x && e->config.rblock == r && e->config.num_warps == w) return i;
  }
  return -1;
}

TEST(CompileSweepView, WithoutACompilerItSaysTheToolkitIsNeededAndStillOpensCsv) {
  CompileSweepView view(testContext(compileBackend({})));
  EXPECT_FALSE(view.canCompile());
  EXPECT_TRUE(view.toolkitLabel()->isVisibleTo(&view));
  EXPECT_TRUE(view.toolkitLabel()->text().contains(QStringLiteral("needs the CUDA Toolkit")));
  EXPECT_FALSE(view.compileButton()->isEnabled());
  EXPECT_TRUE(view.compileButton()->toolTip().contains(QStringLiteral("CUDA Toolkit")));
  EXPECT_TRUE(view.startSweep().contains(QStringLiteral("CUDA Toolkit")));
  EXPECT_FALSE(view.isRunning());
  EXPECT_TRUE(view.openCsvButton()->isEnabled());
  EXPECT_EQ(view.registersPlot()->note(), QStringLiteral("No data: open a CSV written by 'occx sweep'"));
  EXPECT_EQ(view.openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  EXPECT_GT(view.model()->rowCount(), 0);
}

TEST(CompileSweepView, WithTheOfflineBackendTheViewCannotCompile) {
  CompileSweepView view(testContext(offlineBackend()));
  EXPECT_FALSE(view.canCompile());
  EXPECT_TRUE(view.toolkitLabel()->isVisibleTo(&view));
}

#if OCCX_HAVE_CUDA
TEST(CompileSweepView, ThisBuildHasTheToolkitSoItsBackendCompiles) {
  CompileSweepView view(testContext(thisBuildBackend()));
  EXPECT_TRUE(view.canCompile());
  EXPECT_FALSE(view.toolkitLabel()->isVisibleTo(&view));
  EXPECT_TRUE(view.compileButton()->isEnabled());
}
#endif

TEST(CompileSweepView, OnlyCompilableArchitecturesCanBeChosen) {
  CompileSweepView view(testContext(compileBackend({})));
  const auto archs = compileSweepArchitectures(*compileBackend({}));
  ASSERT_FALSE(archs.empty());
  // NVRTC 13 (and the no-toolkit fallback) start at sm_75: V100 (CC 7.0) and CC 6.1 are greyed out,
  // the H200 (CC 9.0) and the T4 (CC 7.5) are offered.
  EXPECT_EQ(archs.front(), (ComputeCapability{7, 5}));
  auto* m = qobject_cast<QStandardItemModel*>(view.deviceSelector()->comboBox()->model());
  ASSERT_NE(m, nullptr);
  auto enabled = [&](const QString& key) {
    const int i = view.deviceSelector()->comboBox()->findData(key);
    return i >= 0 && m->item(i)->isEnabled();
  };
  EXPECT_FALSE(enabled(QStringLiteral("gpu:Tesla V100 SXM2")));
  EXPECT_FALSE(enabled(QStringLiteral("cc:6.1")));
  EXPECT_TRUE(enabled(QStringLiteral("gpu:H200")));
  EXPECT_TRUE(enabled(QStringLiteral("gpu:Tesla T4")));
  EXPECT_TRUE(enabled(QStringLiteral("cc:7.5")));
  // Choosing a bare CC takes the SM count of the first GPU of the data with it (CC 9.0: H100 SXM5, 132).
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("cc:9.0")));
  EXPECT_EQ(view.smCountSpin()->value(), 132);
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:Tesla T4")));
  EXPECT_EQ(view.smCountSpin()->value(), 40);
}

TEST(CompileSweepView, SweepShowsEveryRowThePlotsAndEachPolicysDecision) {
  FakeCompiler fake;
  CompileSweepView view(testContext(compileBackend(fake.function())));
  setUpSmallSweep(view);
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  ASSERT_EQ(view.startSweep(), QString());
  EXPECT_TRUE(view.isRunning());
  EXPECT_TRUE(view.cancelButton()->isEnabled());
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_FALSE(view.isRunning());
  EXPECT_FALSE(view.cancelButton()->isEnabled());

  const CompileSweepModel* m = view.model();
  ASSERT_EQ(m->rowCount(), 8);  // 1 × 4 × 2
  EXPECT_EQ(view.progressBar()->value(), 8);
  EXPECT_EQ(view.progressBar()->maximum(), 8);

  // XBLOCK 1, RBLOCK 2048, 16 warps: 38 registers (see FakeCompiler). On the H200, size hint x 512:
  // old bound 2048 // (32 · 16) = 4 → 4 × 132 = 528 ≥ 512 → no scaling;
  // new bound max(65536 // (38 · 32 · 16), 1) = 65536 // 19456 = 3 → 396 < 512 → scale;
  // exact: 38 · 32 = 1216 → 1280 registers per warp; 65536 // 1280 = 51 warps → 48 (granularity 4) →
  // 3 blocks of 16 warps → scale; occupancy 48 / 64 = 75.0 %.
  const int r2048 = rowOf(m, 1, 2048, 16);
  ASSERT_GE(r2048, 0);
  EXPECT_EQ(cellText(m, r2048, CompileSweepModel::kRegisters), QStringLiteral("38"));
  EXPECT_EQ(cellText(m, r2048, CompileSweepModel::kDecisionOld), QStringLiteral("no scaling (4/SM)"));
  EXPECT_EQ(cellText(m, r2048, CompileSweepModel::kDecisionNew), QStringLiteral("scale (3/SM)"));
  EXPECT_EQ(cellText(m, r2048, CompileSweepModel::kDecisionExact), QStringLiteral("scale (3/SM)"));
  EXPECT_EQ(cellText(m, r2048, CompileSweepModel::kBlocksPerSm), QStringLiteral("3"));
  EXPECT_EQ(cellText(m, r2048, CompileSweepModel::kOccupancy), QStringLiteral("75.0"));
  EXPECT_EQ(cellText(m, r2048, CompileSweepModel::kStatus), QStringLiteral("ok"));
  // RBLOCK 1024, 16 warps: 2 values × 3 + 26 = 32 registers ≤ 65536 / 2048 = 32 → step 3 skips: n/a.
  const int r1024 = rowOf(m, 1, 1024, 16);
  EXPECT_EQ(cellText(m, r1024, CompileSweepModel::kRegisters), QStringLiteral("32"));
  EXPECT_EQ(cellText(m, r1024, CompileSweepModel::kDecisionNew), QStringLiteral("n/a"));

  // Registers plot: one series per num_warps, the cap and the full-occupancy line, the selected config.
  SweepSeriesPlot* regs = view.registersPlot();
  EXPECT_EQ(regs->xAxisLabel(), QStringLiteral("RBLOCK (elements per loop iteration, log2 scale)"));
  EXPECT_EQ(regs->yAxisLabel(), QStringLiteral("Registers per thread"));
  EXPECT_EQ(regs->title(), QStringLiteral("Registers per thread against RBLOCK (XBLOCK = 1)"));
  const int w8 = regs->graphIndex(QStringLiteral("8 warps"));
  const int w16 = regs->graphIndex(QStringLiteral("16 warps"));
  ASSERT_GE(w8, 0);
  ASSERT_GE(w16, 0);
  // 8 warps = 256 threads: RBLOCK/256 values per tile × 3 + 26 → 32, 38, 50, 74.
  EXPECT_EQ(regs->graphPoints(w8), (QVector<QPointF>{{512, 32}, {1024, 38}, {2048, 50}, {4096, 74}}));
  EXPECT_EQ(regs->graphPoints(w16), (QVector<QPointF>{{512, 29}, {1024, 32}, {2048, 38}, {4096, 50}}));
  const int cap = regs->graphIndex(QStringLiteral("255-register cap"));
  ASSERT_GE(cap, 0);
  EXPECT_DOUBLE_EQ(regs->graphPoints(cap).front().y(), 255.0);
  int full = -1;
  for (int g = 0; g < regs->graphCount(); ++g) {
    if (regs->graphName(g) == QStringLiteral("full occupancy ≤ 32 registers")) full = g;
  }
  ASSERT_GE(full, 0);
  EXPECT_DOUBLE_EQ(regs->graphPoints(full).back().y(), 32.0);
  // 2 series + 2 lines + the selected config's marker.
  EXPECT_EQ(regs->graphCount(), 5);
  EXPECT_EQ(regs->xTicks(), (QVector<double>{512, 1024, 2048, 4096}));
  // No config spills (74 ≤ 255): spill series are flat at 0 and the plot says so.
  SweepSeriesPlot* spills = view.spillsPlot();
  EXPECT_EQ(spills->graphPoints(spills->graphIndex(QStringLiteral("8 warps"))).size(), 4);
  EXPECT_EQ(spills->note(), QStringLiteral("No config with XBLOCK = 1 spills"));
  EXPECT_TRUE(view.datasetLabel()->text().startsWith(QStringLiteral("mean_var fp32, 512 × 8192 on sm_90")));
  EXPECT_TRUE(view.statusLabel()->text().startsWith(QStringLiteral("8 configs in")));
  // The export is the engine's compile-sweep CSV.
  const auto exports = view.csvExports();
  ASSERT_EQ(exports.size(), 1u);
  EXPECT_EQ(exports[0].table.rows.size(), 8u);
  EXPECT_EQ(exports[0].table.metaValue("format"), "occx-compile-sweep 1");
}

/// Whether every tick of `axis` (after a replot of `p` at `range`) is a whole number.
std::vector<double> ticksAt(QCustomPlot* p, QCPAxis* axis, double lo, double hi) {
  axis->setRange(lo, hi);
  p->replot(QCustomPlot::rpImmediateRefresh);
  const QVector<double> t = axis->tickVector();
  return {t.begin(), t.end()};
}

TEST(CompileSweepView, CountAxesTickAtWholeNumbersOneWarpIsSingularAndTheStatusSaysASweepRuns) {
  FakeCompiler fake;
  CompileSweepView view(testContext(compileBackend(fake.function())));
  setUpSmallSweep(view);
  view.inputs()->setGridValues(2, {1, 8});
  const QString before = view.statusSummary();
  EXPECT_FALSE(before.contains(QStringLiteral("Compiling")));
  QSignalSpy status(&view, &CompileSweepView::statusMessage);
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  ASSERT_EQ(view.startSweep(), QString());
  // The summary changes as the sweep starts: the bar no longer shows the previous result.
  ASSERT_GE(status.count(), 1);
  EXPECT_EQ(status.last().at(0).toString(), QStringLiteral("Compiling 8 configs for sm_90 …"));
  EXPECT_EQ(view.statusSummary(), QStringLiteral("Compiling 8 configs for sm_90 …"));
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_TRUE(view.statusSummary().contains(QStringLiteral("8 configs shown"))) << view.statusSummary().toStdString();
  EXPECT_EQ(status.last().at(0).toString(), view.statusSummary());

  // num_warps 1 is "1 warp", 8 is "8 warps".
  EXPECT_GE(view.registersPlot()->graphIndex(QStringLiteral("1 warp")), 0);
  EXPECT_EQ(view.registersPlot()->graphIndex(QStringLiteral("1 warps")), -1);
  EXPECT_GE(view.spillsPlot()->graphIndex(QStringLiteral("8 warps")), 0);

  // Registers and spill bytes are counts: ticks at whole numbers over small ranges too (QCustomPlot's
  // default would put them at 0, 2.5, 5, 7.5 … over 0 … 12, at 0.5 steps over 0 … 3).
  for (SweepSeriesPlot* plot : {view.registersPlot(), view.spillsPlot()}) {
    QCustomPlot* p = plot->plot();
    p->resize(600, 400);
    for (auto [lo, hi] : {std::pair{0.0, 12.0}, std::pair{0.0, 3.0}, std::pair{0.0, 1.2}, std::pair{28.0, 75.0}}) {
      const auto ticks = ticksAt(p, p->yAxis, lo, hi);
      EXPECT_GE(ticks.size(), 2u) << lo << " … " << hi;
      for (double t : ticks) EXPECT_EQ(t, std::round(t)) << p->objectName().toStdString() << " " << lo << " … " << hi;
    }
  }
}

TEST(CompileSweepView, SpillingConfigsShowInTheSpillPlot) {
  FakeCompiler fake;
  CompileSweepView view(testContext(compileBackend(fake.function())));
  setUpSmallSweep(view);
  // RBLOCK 32768 with 4 warps: 32768 / 128 = 256 values per tile × 3 = 768 + 26 = 794 wanted → 255
  // registers, (794 − 255) · 4 = 2156 bytes of spill stores.
  view.inputs()->setGridValues(1, {32768});
  view.inputs()->setGridValues(2, {4});
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  ASSERT_EQ(view.startSweep(), QString());
  ASSERT_TRUE(finished.wait(20000));
  ASSERT_EQ(view.model()->rowCount(), 1);
  SweepSeriesPlot* spills = view.spillsPlot();
  EXPECT_EQ(spills->graphPoints(spills->graphIndex(QStringLiteral("4 warps"))), (QVector<QPointF>{{32768, 2156}}));
  EXPECT_EQ(spills->note(), QString());
  EXPECT_EQ(cellText(view.model(), 0, CompileSweepModel::kRegisters), QStringLiteral("255"));
  EXPECT_EQ(cellText(view.model(), 0, CompileSweepModel::kNSpills), QStringLiteral("539"));
}

TEST(CompileSweepView, ADamagedCacheEntryIsReportedOnceInTheStatus) {
  FakeCompiler fake;
  fake.damaged_entry_for = "occx_mean_var_fp32_x1_r1024_w8_s512x8192";  // built for the sweep's shape
  CompileSweepView view(testContext(compileBackend(fake.function())));
  setUpSmallSweep(view);
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  ASSERT_EQ(view.startSweep(), QString());
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_TRUE(view.statusLabel()->text().endsWith(
      QStringLiteral("Damaged compile-cache entries found and recompiled: 1 (hover for the files).")))
      << view.statusLabel()->text().toStdString();
  EXPECT_EQ(view.statusLabel()->toolTip(),
            QStringLiteral("/cache/nvrtc/0123.occxc (checksum mismatch): recompiled and replaced"));
  // A clean sweep says nothing about the cache.
  fake.damaged_entry_for.clear();
  ASSERT_EQ(view.startSweep(), QString());
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_FALSE(view.statusLabel()->text().contains(QStringLiteral("Damaged")));
  EXPECT_TRUE(view.statusLabel()->toolTip().isEmpty());
}

TEST(CompileSweepView, CancelKeepsTheFinishedRows) {
  FakeCompiler fake;
  fake.sleep_ms = 120;
  CompileSweepView view(testContext(compileBackend(fake.function())));
  setUpSmallSweep(view);
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  ASSERT_EQ(view.startSweep(), QString());
  ASSERT_TRUE(waitFor([&] { return view.model()->rowCount() >= 2; }, 20000));
  view.cancelButton()->click();
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_TRUE(view.data().cancelled);
  const int rows = view.model()->rowCount();
  EXPECT_GE(rows, 2);
  EXPECT_LT(rows, 8);
  EXPECT_EQ(static_cast<int>(view.data().rows.size()), rows);
  EXPECT_EQ(view.data().total_configs, 8u);
  for (int i = 0; i < rows; ++i) EXPECT_TRUE(view.model()->row(i)->ok);
  EXPECT_TRUE(
      view.statusLabel()->text().startsWith(QStringLiteral("Cancelled: kept the %1 finished rows of 8").arg(rows)));
  EXPECT_TRUE(view.datasetLabel()->text().contains(QStringLiteral("(cancelled: %1 of 8 configs)").arg(rows)));
  // The finished rows are plotted: one point per finished config.
  int points = 0;
  for (int w : {8, 16})
    points += static_cast<int>(
        view.registersPlot()->graphPoints(view.registersPlot()->graphIndex(QStringLiteral("%1 warps").arg(w))).size());
  EXPECT_EQ(points, rows);
  EXPECT_EQ(fake.count("occx_mean_var"), rows);
}

TEST(CompileSweepView, ASecondRequestCancelsTheFirstAndOnlyItsResultIsShown) {
  FakeCompiler fake;
  fake.sleep_ms = 100;
  CompileSweepView view(testContext(compileBackend(fake.function())));
  setUpSmallSweep(view, Workload::kSum);
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  QSignalSpy job_finished(view.job(), &CompileSweepJob::finished);
  ASSERT_EQ(view.startSweep(), QString());
  const quint64 first = view.job()->currentId();
  ASSERT_TRUE(waitFor([&] { return view.model()->rowCount() >= 1; }, 20000));
  setUpSmallSweep(view, Workload::kAmax);
  fake.sleep_ms = 5;
  ASSERT_EQ(view.startSweep(), QString());
  EXPECT_EQ(view.job()->currentId(), first + 1);
  ASSERT_TRUE(finished.wait(20000));
  ASSERT_TRUE(view.job()->waitForIdle(20000));
  EXPECT_EQ(finished.count(), 1);      // the view finished once: the second request
  EXPECT_EQ(job_finished.count(), 1);  // the first request's result was dropped, not delivered
  EXPECT_EQ(job_finished.at(0).at(0).value<quint64>(), first + 1);
  EXPECT_EQ(view.data().workload, Workload::kAmax);
  ASSERT_EQ(view.model()->rowCount(), 8);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(view.model()->row(i)->config.workload, Workload::kAmax);
  EXPECT_LT(fake.count("occx_sum"), 8);  // the first sweep stopped early
  EXPECT_EQ(fake.count("occx_amax"), 8);
}

TEST(CompileSweepView, ClosingTheWindowDuringASweepEndsItCleanly) {
  FakeCompiler fake;
  fake.sleep_ms = 150;
  auto* view = new CompileSweepView(testContext(compileBackend(fake.function())));
  setUpSmallSweep(*view);
  MainWindow* window = windowAround(view, QStringLiteral("Compile sweep (NVRTC)"));
  ASSERT_EQ(view->startSweep(), QString());
  ASSERT_TRUE(waitFor([&] { return view->model()->rowCount() >= 1; }, 20000));
  EXPECT_TRUE(closeAndDelete(window));
  // The compile in flight saw the cancel flag; the sweep stopped early instead of compiling all 8.
  EXPECT_EQ(fake.cancelled_seen, 1);
  EXPECT_LT(fake.count("occx_mean_var"), 8);
  QCoreApplication::processEvents();
}

TEST(CompileSweepView, TheUiThreadKeepsRunningDuringASweep) {
  // 8 configs × 400 ms on one compile thread: 3.2 s of compiling. Run on the UI thread, that would
  // stall a 10 ms timer for at least 400 ms at a time; off the UI thread the timer keeps ticking
  // (the 300 ms margin absorbs a loaded 2-core machine).
  FakeCompiler fake;
  fake.sleep_ms = 400;
  CompileSweepView view(testContext(compileBackend(fake.function())));
  setUpSmallSweep(view);
  QElapsedTimer clock;
  qint64 last = 0;
  qint64 longest_gap = 0;
  int ticks = 0;
  QTimer timer;
  timer.setInterval(10);
  QObject::connect(&timer, &QTimer::timeout, [&] {
    const qint64 now = clock.elapsed();
    if (ticks++ > 0) longest_gap = std::max(longest_gap, now - last);
    last = now;
  });
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  clock.start();
  timer.start();
  ASSERT_EQ(view.startSweep(), QString());
  ASSERT_TRUE(finished.wait(20000));
  timer.stop();
  EXPECT_GE(clock.elapsed(), 8 * 400);
  EXPECT_GT(ticks, 30);
  EXPECT_LT(longest_gap, 300) << "the event loop stalled for " << longest_gap << " ms";
}

TEST(CompileSweepView, SettingsRoundTrip) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings settings(dir.filePath(QStringLiteral("kernel.ini")), QSettings::IniFormat);
  {
    CompileSweepView view(testContext(compileBackend({})));
    setUpSmallSweep(view, Workload::kAmax);
    ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:Tesla T4")));
    view.smCountSpin()->setValue(38);
    view.maxrregcountSpin()->setValue(64);
    view.saveSettings(settings);
  }
  CompileSweepView view(testContext(compileBackend({})));
  view.restoreSettings(settings);
  EXPECT_EQ(view.deviceSelector()->currentKey(), QStringLiteral("gpu:Tesla T4"));
  EXPECT_EQ(view.smCountSpin()->value(), 38);
  EXPECT_EQ(view.maxrregcountSpin()->value(), 64);
  CompileSweepSpec spec;
  view.inputs()->fillSpec(spec);
  EXPECT_EQ(spec.workload, Workload::kAmax);
  EXPECT_EQ(spec.xnumel, 512);
  EXPECT_EQ(spec.grid.r0_block, (std::vector<int>{512, 1024, 2048, 4096}));
  EXPECT_EQ(spec.grid.num_warps, (std::vector<int>{8, 16}));
  EXPECT_FALSE(spec.inductor_candidates);
}

TEST(CompileSweepView, SourceOfTheSelectedConfigAndSendToRblock) {
  FakeCompiler fake;
  CompileSweepView view(testContext(compileBackend(fake.function())));
  setUpSmallSweep(view);
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  ASSERT_EQ(view.startSweep(), QString());
  ASSERT_TRUE(finished.wait(20000));
  const int row = rowOf(view.model(), 1, 2048, 16);
  ASSERT_TRUE(view.selectIndex(view.model()->row(row)->index));
  const CompileSweepRecord* e = view.selectedEntry();
  ASSERT_NE(e, nullptr);
  auto gen = generateKernel(e->config);
  ASSERT_TRUE(gen);
  EXPECT_EQ(view.sourceView()->toPlainText().toStdString(), gen->source);
  EXPECT_TRUE(view.sourceView()->isReadOnly());
  EXPECT_TRUE(view.sourceView()->font().fixedPitch());  // asked for; what the platform matches may differ
  EXPECT_EQ(view.sourceView()->font().styleHint(), QFont::Monospace);
  EXPECT_TRUE(view.sourceLabel()->text().contains(QStringLiteral("occx_mean_var_fp32_x1_r2048_w16")));
  // The selected config is marked in the registers plot at (2048, 38).
  SweepSeriesPlot* regs = view.registersPlot();
  const int sel = regs->graphIndex(QStringLiteral("selected: RBLOCK 2048, 16 warps"));
  ASSERT_GE(sel, 0);
  EXPECT_EQ(regs->graphPoints(sel), (QVector<QPointF>{{2048, 38}}));

  std::vector<ConfigHandOver> sent;
  QObject::connect(&view, &CompileSweepView::sendToRblock, &view,
                   [&sent](const ConfigHandOver& h) { sent.push_back(h); });
  ASSERT_TRUE(view.sendToRblockButton()->isEnabled());
  view.sendToRblockButton()->click();
  ASSERT_EQ(sent.size(), 1u);
  const ConfigHandOver& h = sent.front();
  EXPECT_EQ(h.xblock, 1);
  EXPECT_EQ(h.r0_block, 2048);
  EXPECT_EQ(h.num_warps, 16);
  EXPECT_EQ(h.n_regs, 38);
  EXPECT_EQ(h.n_spills, 0);
  EXPECT_EQ(h.xnumel, 512);
  EXPECT_EQ(h.rnumel, 8192);
  // The device goes with it (issue: an sm_90 register count arrived on an A100 with 108 SMs).
  EXPECT_EQ(h.cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(h.sm_count, view.data().sm_count);
  RblockScalingView rblock{testContext()};
  rblock.deviceSelector()->setCurrentKey(QStringLiteral("gpu:A100 SXM4 80GB"));
  rblock.showHandOver(h);
  EXPECT_EQ(rblock.device().arch.cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(rblock.device().sm_count, view.data().sm_count);
  EXPECT_EQ(rblock.inputs().n_regs, 38);
  if (!h.device_key.isEmpty()) {
    EXPECT_EQ(rblock.deviceSelector()->currentKey(), h.device_key);
  }
}

TEST(CompileSweepView, OpensACompileSweepCsvWrittenByOccxSweep) {
  CompileSweepView view(testContext(compileBackend({})));
  ASSERT_EQ(view.openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  const CompileSweepDataset& d = view.data();
  EXPECT_EQ(d.arch, (ComputeCapability{9, 0}));
  EXPECT_EQ(d.workload, Workload::kMeanVar);
  EXPECT_EQ(d.xnumel, 512);
  EXPECT_EQ(d.rnumel, 8192);
  EXPECT_EQ(d.max_registers_per_thread, 255);
  EXPECT_EQ(d.full_occupancy_registers, 32);
  const CompileSweepModel* m = view.model();
  EXPECT_EQ(m->rowCount(), static_cast<int>(d.toCsv().rows.size()));
  // Every ok row with XBLOCK 1 is a point of its num_warps series, at its registers.
  ASSERT_TRUE(view.setPlotXBlock(1));
  SweepSeriesPlot* regs = view.registersPlot();
  std::set<int> warps;
  int points = 0;
  for (int i = 0; i < m->rowCount(); ++i) {
    const CompileSweepRecord* e = m->row(i);
    if (!e->ok || e->config.xblock != 1) continue;
    warps.insert(e->config.num_warps);
    const int g = regs->graphIndex(QStringLiteral("%1 warps").arg(e->config.num_warps));
    ASSERT_GE(g, 0);
    EXPECT_DOUBLE_EQ(yAt(regs->graphPoints(g), e->config.rblock), e->registers) << e->config.label();
    ++points;
  }
  EXPECT_GT(points, 0);
  int series_points = 0;
  for (int w : warps)
    series_points += static_cast<int>(regs->graphPoints(regs->graphIndex(QStringLiteral("%1 warps").arg(w))).size());
  EXPECT_EQ(series_points, points);
  // Hand check of one row against the calculator: the occupancy of XBLOCK 1, RBLOCK 2048, 16 warps
  // with the registers NVRTC reported (see the file) — blocks per SM from the register file.
  const int r = rowOf(m, 1, 2048, 16);
  ASSERT_GE(r, 0);
  const CompileSweepRecord* e = m->row(r);
  const int per_warp = ((e->registers * 32 + 255) / 256) * 256;
  const int warps_fit = (65536 / per_warp) / 4 * 4;
  const int blocks = std::min({warps_fit / 16, 2048 / 512, 32});
  EXPECT_EQ(e->active_blocks_per_sm, blocks);
  EXPECT_NEAR(e->occupancy_pct, 100.0 * blocks * 16 / 64, 0.05);
  EXPECT_TRUE(view.datasetLabel()->text().contains(QStringLiteral("opened compile_sweep_mean_var_sm90.csv")));
}

TEST(CompileSweepView, ALiveSweepCsvIsSentToTheLiveSweepView) {
  CompileSweepView view(testContext(compileBackend({})));
  const QString error = view.openCsvFile(testData("live_sweep_fixture.csv"));
  EXPECT_TRUE(error.contains(QStringLiteral("open it in the Live sweep tab"))) << error.toStdString();
  EXPECT_EQ(view.model()->rowCount(), 0);
}

#if OCCX_HAVE_CUDA
TEST(CompileSweepView, NvrtcSweepStartedAndCancelledKeepsTheFinishedRows) {
  QTemporaryDir cache_dir;
  ASSERT_TRUE(cache_dir.isValid());
  CompileCache cache(cache_dir.path().toStdString());
  cuda::NvrtcCompiler compiler(&cache);
  CompileSweepView view(testContext(compileBackend(compiler.function())));
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  CompileSweepSpec spec;
  spec.workload = Workload::kSum;
  spec.dtype = DType::kF32;
  spec.xnumel = 1024;
  spec.rnumel = 4096;
  spec.grid.xblock = {1};
  spec.grid.r0_block = {256, 512, 1024, 2048};
  spec.grid.num_warps = {4, 8};
  spec.inductor_candidates = false;
  view.inputs()->setFromSpec(spec);
  view.threadsSpin()->setValue(1);
  QSignalSpy finished(&view, &CompileSweepView::sweepFinished);
  ASSERT_EQ(view.startSweep(), QString());
  ASSERT_TRUE(waitFor([&] { return view.model()->rowCount() >= 1; }, 120000));
  view.cancelSweep();
  ASSERT_TRUE(finished.wait(120000));
  const int rows = view.model()->rowCount();
  EXPECT_GE(rows, 1);
  EXPECT_LT(rows, 8);
  EXPECT_TRUE(view.data().cancelled);
  for (int i = 0; i < rows; ++i) {
    const CompileSweepRecord* e = view.model()->row(i);
    EXPECT_TRUE(e->ok) << e->error;
    EXPECT_GT(e->registers, 0);
    EXPECT_EQ(e->spill_stores_bytes, 0);  // sum with at most 2048 / 128 = 16 values per thread
  }
  // Run again to the end: the rows compiled before are cache hits now.
  ASSERT_EQ(view.startSweep(), QString());
  ASSERT_TRUE(finished.wait(300000));
  EXPECT_EQ(view.model()->rowCount(), 8);
  EXPECT_FALSE(view.data().cancelled);
  EXPECT_GE(cache.stats().hits, rows);
}
#endif

}  // namespace
}  // namespace occx::ui

namespace occx::ui {
namespace {

// File → Export CSV follows the view: disabled before the first sweep, enabled once it finished
// (the view's tables are there), without switching tabs.
TEST(CompileSweepView, ExportCsvIsEnabledAfterASweep) {
  FakeCompiler fake;
  MainWindow window(testContext(offlineBackend(), false));
  auto* view = new CompileSweepView(testContext(compileBackend(fake.function())));
  window.addView(view, QStringLiteral("Compile sweep (NVRTC)"));
  window.tabs()->setCurrentWidget(view);
  setUpSmallSweep(*view);
  EXPECT_FALSE(window.exportCsvAction()->isEnabled());  // nothing compiled yet
  QSignalSpy finished(view, &CompileSweepView::sweepFinished);
  ASSERT_EQ(view->startSweep(), QString());
  ASSERT_TRUE(finished.wait(20000));
  EXPECT_FALSE(view->csvExports().empty());
  EXPECT_TRUE(window.exportCsvAction()->isEnabled());
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("sweep.csv"));
  EXPECT_EQ(window.exportCurrentCsv(0, path), QString());
  EXPECT_TRUE(QFile::exists(path));
}

}  // namespace
}  // namespace occx::ui

namespace occx::ui {
namespace {

// Opening a CSV sets the form to the opened data, so "Compile sweep" builds what is shown (issue:
// the plots changed but the form stayed on the old workload and shape).
TEST(CompileSweepView, TheFormFollowsAnOpenedCsv) {
  FakeCompiler fake;
  CompileSweepView view(testContext(compileBackend(fake.function())));
  SweepInputs* in = view.inputs();
  in->workloadCombo()->setCurrentIndex(in->workloadCombo()->findData(static_cast<int>(Workload::kSum)));
  in->xnumelSpin()->setValue(4096);
  in->rnumelSpin()->setValue(1000);
  ASSERT_EQ(view.openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  CompileSweepSpec spec;
  in->fillSpec(spec);
  EXPECT_EQ(spec.workload, view.data().workload);
  EXPECT_EQ(spec.workload, Workload::kMeanVar);
  EXPECT_EQ(spec.dtype, view.data().dtype);
  EXPECT_EQ(spec.xnumel, 512);
  EXPECT_EQ(spec.rnumel, 8192);
  EXPECT_EQ(view.deviceSelector()->currentTarget().arch->cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(view.smCountSpin()->value(), view.data().sm_count);
  std::set<int> rblocks;
  for (const auto& r : view.data().rows) rblocks.insert(r.config.rblock);
  EXPECT_EQ(std::set<int>(spec.grid.r0_block.begin(), spec.grid.r0_block.end()), rblocks);
}

}  // namespace
}  // namespace occx::ui
