// What the Inductor run view's plots show, computed without a widget (ui/models/inductor_plot_data.h):
// the Sweep tab's series, XBLOCK choices, titles, marks and notes from configs written here and
// from bundled runs measured on the H200; the Measured tab's note and picks table; the RBLOCK
// bounds of a config.
#include <gtest/gtest.h>

#include <algorithm>

#include "tests/ui/ui_test_support.h"
#include "ui/models/inductor_plot_data.h"
#include "ui/models/inductor_run_actions.h"

namespace occx::ui {
namespace {

/// A compiled looped-reduction config of kernel "K": XBLOCK `xblock`, `r0_block` (0: none, as a
/// persistent reduction), `num_warps`, `n_regs`.
triton::ScanRow plotTestRow(std::int64_t xblock, std::int64_t r0_block, std::int64_t num_warps, std::int64_t n_regs) {
  triton::ScanRow r;
  r.kernel = "K";
  r.module = "m0";
  r.kind = r0_block > 0 ? "looped reduction" : "persistent reduction";
  r.xblock = xblock;
  if (r0_block > 0) r.r0_block = r0_block;
  r.num_warps = num_warps;
  r.num_stages = 1;
  r.n_regs = n_regs;
  r.occupancy_pct = 50.0;
  return r;
}

/// An ok measurement of `time_us` µs (device time, L2 cold) at `bandwidth` GB/s.
RunConfigModel::Measured plotTestMeasured(double time_us, double bandwidth) {
  RunConfigModel::Measured m;
  m.row.measured.status = RunStatus::kOk;
  m.row.measured.time.median_us = time_us;
  m.row.measured.bandwidth_GBps = bandwidth;
  return m;
}

/// Four configs of a looped reduction: XBLOCK 1 at R2048 w16, R4096 w16 (measured: 30 µs, 2000
/// GB/s), R4096 w32 (ran, failed), and XBLOCK 2 at R1024 w8; the best and a policy's pick marked.
SweepPlotSource loopedSource() {
  SweepPlotSource s;
  s.kernel = QStringLiteral("K");
  s.rows = {plotTestRow(1, 2048, 16, 40), plotTestRow(1, 4096, 16, 56), plotTestRow(1, 4096, 32, 64),
            plotTestRow(2, 1024, 8, 32)};
  RunConfigModel::Measured failed;
  failed.row.measured.status = RunStatus::kLaunchFailed;
  s.measured = {std::nullopt, plotTestMeasured(30.0, 2000.0), failed, std::nullopt};
  s.marks = {{SweepMark::Kind::kBest, 0, QStringLiteral("best: X1 R4096 w16"), {1}, 1},
             {SweepMark::Kind::kPolicyPick, 0, QStringLiteral("new pick, regret 1.20"), {3}, 2}};
  return s;
}

TEST(KernelSweepPlotData, RegistersPerNumWarpsAlongR0BlockForTheFirstXblock) {
  const KernelSweepPlotData d = sweepPlotData(loopedSource(), SweepMetric::kRegisters, 0);
  EXPECT_FALSE(d.along_x);
  EXPECT_EQ(d.xblocks, (std::vector<int>{1, 2}));
  EXPECT_EQ(d.xblock, 1);  // 0 is not a choice: the first
  EXPECT_EQ(d.title, QStringLiteral("Registers per config of K, XBLOCK 1 (4 configs in all)"));
  EXPECT_EQ(d.x_label, QStringLiteral("R0_BLOCK (elements per loop iteration, log₂ scale)"));
  EXPECT_EQ(d.y_label, QStringLiteral("Registers per thread"));
  ASSERT_EQ(d.series.size(), 2u);
  EXPECT_EQ(d.series[0].num_warps, 16);
  EXPECT_EQ(d.series[0].x, (QVector<double>{2048, 4096}));
  EXPECT_EQ(d.series[0].y, (QVector<double>{40, 56}));
  EXPECT_EQ(d.series[0].rows, (QVector<int>{0, 1}));
  EXPECT_EQ(d.series[1].num_warps, 32);
  EXPECT_EQ(d.series[1].x, (QVector<double>{4096}));
  EXPECT_EQ(d.series[1].y, (QVector<double>{64}));
  EXPECT_TRUE(d.marks.empty());  // the picks are marked on times and bandwidths only
  EXPECT_TRUE(d.note.isEmpty());
  EXPECT_DOUBLE_EQ(d.y_hi, 64 * 1.12);
}

TEST(KernelSweepPlotData, AnotherXblockKeepsItsOwnConfigs) {
  const KernelSweepPlotData two = sweepPlotData(loopedSource(), SweepMetric::kRegisters, 2);
  EXPECT_EQ(two.xblock, 2);
  EXPECT_EQ(two.title, QStringLiteral("Registers per config of K, XBLOCK 2 (4 configs in all)"));
  ASSERT_EQ(two.series.size(), 1u);
  EXPECT_EQ(two.series[0].num_warps, 8);
  EXPECT_EQ(two.series[0].rows, (QVector<int>{3}));
  EXPECT_EQ(sweepPlotData(loopedSource(), SweepMetric::kRegisters, 3).xblock, 1);  // not a choice
}

TEST(KernelSweepPlotData, TimesOfTheConfigsThatRanOkWithTheBestAndThePicksMarked) {
  const KernelSweepPlotData d = sweepPlotData(loopedSource(), SweepMetric::kTime, 1);
  EXPECT_EQ(d.title, QStringLiteral("Device time (L2 cold) per config of K, XBLOCK 1 (4 configs in all)"));
  EXPECT_EQ(d.y_label, QStringLiteral("Device time, L2 cold (µs)"));
  ASSERT_EQ(d.series.size(), 1u);  // w32's run failed: no point, no series
  EXPECT_EQ(d.series[0].x, (QVector<double>{4096}));
  EXPECT_EQ(d.series[0].y, (QVector<double>{30.0}));
  ASSERT_EQ(d.marks.size(), 2u);
  EXPECT_EQ(d.marks[0].kind, SweepMark::Kind::kBest);
  EXPECT_EQ(d.marks[0].name, QStringLiteral("best: X1 R4096 w16"));
  EXPECT_EQ(d.marks[0].x, (QVector<double>{4096}));
  EXPECT_EQ(d.marks[0].y, (QVector<double>{30.0}));
  // The pick is of XBLOCK 2, not plotted here: the legend says where it is.
  EXPECT_EQ(d.marks[1].kind, SweepMark::Kind::kPolicyPick);
  EXPECT_TRUE(d.marks[1].x.isEmpty());
  EXPECT_EQ(d.marks[1].name, QStringLiteral("new pick, regret 1.20 [XBLOCK 2]"));
  EXPECT_DOUBLE_EQ(d.y_hi, 30.0 * 1.12);
  const KernelSweepPlotData bw = sweepPlotData(loopedSource(), SweepMetric::kBandwidth, 1);
  ASSERT_EQ(bw.series.size(), 1u);
  EXPECT_EQ(bw.series[0].y, (QVector<double>{2000.0}));
  EXPECT_EQ(bw.marks[0].y, (QVector<double>{2000.0}));
}

TEST(KernelSweepPlotData, NothingToPlotSaysWhy) {
  SweepPlotSource s = loopedSource();
  s.measured.assign(s.rows.size(), std::nullopt);
  s.marks.clear();
  const KernelSweepPlotData time = sweepPlotData(s, SweepMetric::kTime, 1);
  EXPECT_TRUE(time.series.empty());
  EXPECT_EQ(time.note, QStringLiteral("Not measured: sweep or run this kernel on a GPU."));
  EXPECT_DOUBLE_EQ(time.y_hi, 1.12);
  for (auto& r : s.rows) r.occupancy_pct.reset();
  EXPECT_EQ(sweepPlotData(s, SweepMetric::kOccupancy, 2).note, QStringLiteral("No configs of XBLOCK 2."));
}

TEST(KernelSweepPlotData, APersistentReductionGoesAlongXblock) {
  SweepPlotSource s;
  s.kernel = QStringLiteral("K");
  s.rows = {plotTestRow(1, 0, 8, 30), plotTestRow(2, 0, 8, 34), plotTestRow(4, 0, 16, 40)};
  s.measured.assign(s.rows.size(), std::nullopt);
  const KernelSweepPlotData d = sweepPlotData(s, SweepMetric::kOccupancy, 0);
  EXPECT_TRUE(d.along_x);
  EXPECT_TRUE(d.xblocks.empty());
  EXPECT_EQ(d.xblock, 0);
  EXPECT_EQ(d.title, QStringLiteral("Theoretical occupancy per config of K (3 configs)"));
  EXPECT_EQ(d.x_label, QStringLiteral("XBLOCK (rows per block, log₂ scale)"));
  ASSERT_EQ(d.series.size(), 2u);
  EXPECT_EQ(d.series[0].x, (QVector<double>{1, 2}));
  EXPECT_EQ(d.series[1].x, (QVector<double>{4}));
  EXPECT_EQ(d.series[1].y, (QVector<double>{50.0}));
}

// The bundled spill case measured on the H200: every compiled config, the best marked at its
// R0_BLOCK with its time, Inductor's pick and every policy's pick named.
TEST(SweepPlotSource, ABundledMeasuredRunMarksTheBestInductorsPickAndEveryPolicy) {
  auto data = loadBundledRun(QStringLiteral("spill_log_softmax_w16"));
  ASSERT_TRUE(data.hasValue()) << data.error();
  const RunKernelEntry& k = data->kernels.front();
  const SweepPlotSource s = sweepPlotSource(*data, k, {});
  EXPECT_EQ(s.kernel, QString::fromStdString(k.kernel));
  EXPECT_EQ(s.rows.size(), compiledConfigsOf(k).size());
  ASSERT_EQ(s.measured.size(), s.rows.size());
  ASSERT_GE(s.marks.size(), 3u);
  EXPECT_EQ(s.marks[0].kind, SweepMark::Kind::kBest);
  EXPECT_EQ(s.marks[0].label, QStringLiteral("best: X1 R8192 w16"));
  EXPECT_EQ(s.marks[1].kind, SweepMark::Kind::kInductorPick);
  EXPECT_TRUE(s.marks[1].label.startsWith(QStringLiteral("Inductor's pick, regret ")))
      << s.marks[1].label.toStdString();
  QString policies;
  for (std::size_t i = 2; i < s.marks.size(); ++i) {
    EXPECT_EQ(s.marks[i].kind, SweepMark::Kind::kPolicyPick);
    EXPECT_EQ(s.marks[i].group, static_cast<int>(i) - 2);
    policies += s.marks[i].label + QLatin1Char(';');
  }
  for (const char* p : {"old", "new", "review_min", "exact", "spills"})
    EXPECT_TRUE(policies.contains(QLatin1String(p))) << p << " in " << policies.toStdString();
  const KernelSweepPlotData d = sweepPlotData(s, SweepMetric::kTime, 1);
  ASSERT_EQ(d.marks[0].x.size(), 1);
  EXPECT_EQ(d.marks[0].x.front(), 8192.0);
  const int best_row = d.marks[0].rows.front();
  EXPECT_DOUBLE_EQ(d.marks[0].y.front(), s.measured[static_cast<std::size_t>(best_row)]->row.measured.timeUs());
  for (const SweepSeries& series : d.series) {
    for (double y : series.y) EXPECT_GE(y, d.marks[0].y.front());  // nothing faster than the best
  }
}

// A sweep recorded on the H200 (bundled, no sweep run here): the note is the sweep's sentences
// from the measured rows; a sweep run here brings its own.
TEST(SweepPlotSource, TheNoteIsTheSweepInWords) {
  auto data = loadBundledRun(QStringLiteral("ref_mean_var"));
  ASSERT_TRUE(data.hasValue()) << data.error();
  const RunKernelEntry& k = data->kernels.front();
  const SweepPlotSource s = sweepPlotSource(*data, k, {});
  EXPECT_EQ(s.rows.size(), 82u);
  EXPECT_TRUE(s.note.startsWith(QStringLiteral("Best: X4 R2048 w32, 129.7 µs (4195 GB/s of DRAM)")))
      << s.note.toStdString();
  const KernelSweepPlotData d = sweepPlotData(s, SweepMetric::kTime, 4);
  EXPECT_EQ(d.xblock, 4);
  EXPECT_TRUE(std::find(d.xblocks.begin(), d.xblocks.end(), 1) != d.xblocks.end());
  ASSERT_EQ(d.marks[0].x.size(), 1);
  EXPECT_EQ(d.marks[0].x.front(), 2048.0);
  EXPECT_NEAR(d.marks[0].y.front(), 129.7, 0.05);
  const QStringList here = {QStringLiteral("Best: here."), QStringLiteral("Second sentence.")};
  EXPECT_EQ(sweepPlotSource(*data, k, here).note, QStringLiteral("Best: here.\nSecond sentence."));
  // A kernel never measured: what a sweep would do, and no marks.
  InductorRunData plain;
  plain.rows = {plotTestRow(1, 2048, 16, 40)};
  groupKernels(plain);
  const SweepPlotSource none = sweepPlotSource(plain, plain.kernels.front(), {});
  EXPECT_TRUE(none.marks.empty());
  EXPECT_TRUE(none.note.startsWith(QStringLiteral("Sweep this kernel compiles the configs Inductor never tried")));
}

TEST(MeasuredNote, SaysWhatRanTheFastestAndTheWinnersRegretOrWhyNothingRan) {
  InductorRunData plain;
  plain.rows = {plotTestRow(1, 2048, 16, 40)};
  groupKernels(plain);
  EXPECT_EQ(measuredNoteText(plain, plain.kernels.front(), {}),
            QStringLiteral("Not measured yet: Run on this GPU runs its compiled configs."));
  EXPECT_EQ(measuredNoteText(plain, plain.kernels.front(), QStringLiteral("No GPU backend in this build.")),
            QStringLiteral("Not measured: No GPU backend in this build."));
  EXPECT_TRUE(picksTableRows(plain, plain.kernels.front()).empty());

  auto data = loadBundledRun(QStringLiteral("spill_log_softmax_w16"));
  ASSERT_TRUE(data.hasValue()) << data.error();
  const RunKernelEntry& k = data->kernels.front();
  const QString note = measuredNoteText(*data, k, {});
  EXPECT_TRUE(note.startsWith(QStringLiteral("measured on NVIDIA H200 (2026-12-03) — bundled: ")))
      << note.toStdString();
  EXPECT_TRUE(note.contains(QStringLiteral("; fastest X1 R8192 w16 at "))) << note.toStdString();
  EXPECT_TRUE(note.contains(QStringLiteral("; Inductor's winner: regret "))) << note.toStdString();
  EXPECT_TRUE(note.endsWith(QStringLiteral("; outputs agree across configs."))) << note.toStdString();

  const std::vector<PickTableRow> picks = picksTableRows(*data, k);
  ASSERT_EQ(picks.size(), 5u);
  QStringList policies;
  for (const auto& p : picks) policies << p.policy;
  EXPECT_EQ(policies, (QStringList{"old", "new", "review_min", "exact", "spills"}));
  EXPECT_EQ(picks[1].pick, QStringLiteral("X1 R2048 w16"));  // new keeps Inductor's winner
  EXPECT_EQ(picks[1].cold_us, QStringLiteral("26.7"));
  EXPECT_TRUE(picks[1].pick_tooltip.endsWith(QStringLiteral("benchmarked"))) << picks[1].pick_tooltip.toStdString();
  for (const auto& p : picks) {
    EXPECT_FALSE(p.regret.isEmpty()) << p.policy.toStdString();
    EXPECT_FALSE(p.not_compiled.isEmpty()) << p.policy.toStdString();  // "—" when none
  }
}

TEST(ConfigBounds, TheSelectedConfigsPointOnTheNewBound) {
  auto data = loadBundledRun(QStringLiteral("spill_log_softmax"));
  ASSERT_TRUE(data.hasValue()) << data.error();
  const RunKernelEntry& k = data->kernels.front();
  const triton::ScanRow* spilling = nullptr;
  for (const auto& r : k.configs) {
    if (r.xblock == 1 && r.r0_block == 32768 && r.num_warps == 32) spilling = &r;
  }
  ASSERT_NE(spilling, nullptr);
  const ConfigBounds b = configBounds(spilling, &k);
  ASSERT_TRUE(b.curves.has_value()) << b.note.toStdString();
  EXPECT_FALSE(b.curves->points.empty());
  // 64 registers → new bound max(65536 // (64 · 32 · 32), 1) = 1.
  EXPECT_EQ(b.n_regs, 64);
  EXPECT_EQ(b.current_bound, 1);
  EXPECT_EQ(b.sm_count, 132);
  EXPECT_TRUE(b.title.startsWith(QStringLiteral("Resident blocks per SM vs registers per thread — X1 R32768 w32, ")))
      << b.title.toStdString();
  EXPECT_TRUE(b.note.startsWith(QStringLiteral("X1 R32768 w32: 64 registers, new bound scale. ")))
      << b.note.toStdString();
}

TEST(ConfigBounds, WithoutAConfigOrItsDeviceTheNoteSaysWhy) {
  EXPECT_FALSE(configBounds(nullptr, nullptr).curves.has_value());
  EXPECT_TRUE(configBounds(nullptr, nullptr).note.isEmpty());
  RunKernelEntry pointwise;
  pointwise.kind = "pointwise";
  EXPECT_EQ(configBounds(nullptr, &pointwise).note,
            QStringLiteral("This kernel has no compiled config to show (pointwise)."));
  const triton::ScanRow no_device = plotTestRow(1, 2048, 16, 40);  // no compute capability
  const ConfigBounds b = configBounds(&no_device, nullptr);
  EXPECT_FALSE(b.curves.has_value());
  EXPECT_TRUE(b.title.isEmpty());
  EXPECT_EQ(b.note, QStringLiteral("No bounds for this config: its device or its registers are unknown."));
}

}  // namespace
}  // namespace occx::ui
