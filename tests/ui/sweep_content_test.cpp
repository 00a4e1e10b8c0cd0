// What the sweep views' plots and lines show, computed without widgets: live_sweep_content over
// the recorded live-sweep fixture (tests/data/live_sweep_fixture.csv, described in
// live_sweep_view_test) and compile_sweep_content over the recorded compile sweep
// (tests/data/compile_sweep_mean_var_sm90.csv).
#include <gtest/gtest.h>

#include <QFile>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "ui/models/compile_sweep_content.h"
#include "ui/models/live_datasets.h"
#include "ui/models/live_sweep_content.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

LiveDataset liveContentFixture() {
  auto d = readLiveDataset(testData("live_sweep_fixture.csv"));
  EXPECT_TRUE(d) << (d ? std::string() : d.error());
  return d ? *d : LiveDataset{};
}

CompileSweepDataset compileContentFixture() {
  auto bytes = readFile(QFile::encodeName(testData("compile_sweep_mean_var_sm90.csv")).toStdString(), kMaxCsvBytes);
  EXPECT_TRUE(bytes);
  auto table = parseCsv(bytes ? *bytes : std::string());
  EXPECT_TRUE(table);
  auto data = compileSweepFromCsv(table ? *table : CsvTable{});
  EXPECT_TRUE(data) << (data ? std::string() : data.error());
  return data ? *data : CompileSweepDataset{};
}

// The series named `name` in `plot`, nullptr when none.
const SweepSeriesData* seriesNamed(const SweepPlotData& plot, const QString& name) {
  for (const auto& s : plot.series) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

TEST(LiveSweepContent, PlotRowsGroupTheOkRowsOfTheXBlockByNumWarps) {
  const LiveDataset d = liveContentFixture();
  const LivePlotRows shown = livePlotRows(d.rows, 1, 5);
  EXPECT_EQ(shown.xblock, 1);
  ASSERT_EQ(shown.by_warps.size(), 2u);  // 16 and 32 warps; #10 (XBLOCK 2) did not run ok
  EXPECT_EQ(shown.by_warps.at(16), (std::vector<int>{0, 2, 4, 6, 8}));
  EXPECT_EQ(shown.by_warps.at(32), (std::vector<int>{1, 3, 5, 7, 9}));
  EXPECT_EQ(shown.selected, 5);
  EXPECT_TRUE(shown.any_achieved);
  EXPECT_EQ(livePlotRows(d.rows, 1, 10).selected, -1);  // not ok: not marked
  EXPECT_TRUE(livePlotRows(d.rows, 4, -1).by_warps.empty());
}

TEST(LiveSweepContent, BandwidthPlotHasTheRooflineThePicksAndTheBest) {
  const LiveDataset d = liveContentFixture();
  const PickSummary replay = summarizeReplay(d.rows);
  const LivePlotRows shown = livePlotRows(d.rows, 1, 5);
  const SweepPlotData bw = liveBandwidthPlot(d.rows, replay, shown, 4257.0, 0.0);
  EXPECT_EQ(bw.title, QStringLiteral("DRAM bandwidth per config (XBLOCK = 1)"));
  ASSERT_EQ(bw.series.size(), 2u);
  EXPECT_EQ(bw.series[0].name, QStringLiteral("16 warps"));
  EXPECT_EQ(bw.series[0].num_warps, 16);
  EXPECT_EQ(bw.series[0].x.size(), 5);
  ASSERT_EQ(bw.lines.size(), 1u);  // no datasheet figure for an unknown GPU
  EXPECT_EQ(bw.lines[0].name, QStringLiteral("roofline: copy 4257 GB/s (measured, read + write)"));
  EXPECT_DOUBLE_EQ(bw.lines[0].y, 4257.0);
  ASSERT_EQ(bw.markers.size(), 5u);  // 3 picks, the best, the selected
  EXPECT_EQ(bw.markers[0].name, QStringLiteral("old pick, regret 1.28"));
  EXPECT_EQ(bw.markers[0].x, (QVector<double>{2048}));
  EXPECT_EQ(bw.markers[3].name, QStringLiteral("best: 2074 GB/s"));
  EXPECT_EQ(bw.markers[3].rows, (QVector<int>{5}));
  EXPECT_EQ(bw.markers[4].name, QStringLiteral("selected"));
  EXPECT_FALSE(bw.markers[4].in_legend);
  EXPECT_GT(bw.y_hi, 4257.0);  // the roofline in view
  EXPECT_TRUE(bw.note.isEmpty());

  // Plotting XBLOCK 2: no series, the picks named with their XBLOCK, the note says why.
  const LivePlotRows other = livePlotRows(d.rows, 2, -1);
  const SweepPlotData empty = liveBandwidthPlot(d.rows, replay, other, 4257.0, 4800.0);
  EXPECT_TRUE(empty.series.empty());
  EXPECT_EQ(empty.title, QStringLiteral("DRAM bandwidth per config"));
  EXPECT_EQ(empty.lines.size(), 2u);  // the datasheet's peak as well
  EXPECT_TRUE(empty.markers[0].x.isEmpty());
  EXPECT_TRUE(empty.markers[0].name.endsWith(QStringLiteral("[XBLOCK 1]")));
  EXPECT_EQ(livePlotNote(other, false, true, false),
            QStringLiteral("No config with XBLOCK = 2 was timed (see the table for the reasons)"));
  EXPECT_EQ(livePlotNote(other, true, true, true), QStringLiteral("measuring …"));
  EXPECT_EQ(livePlotNote(other, false, false, true), QStringLiteral("No data: press Run or open a CSV"));
  EXPECT_EQ(livePlotNote(other, false, false, false), QStringLiteral("No data: open a CSV or a bundled dataset"));
  EXPECT_TRUE(livePlotNote(shown, false, true, false).isEmpty());
}

TEST(LiveSweepContent, TimePlotHasBarsAndInductorsKernelBeside) {
  const LiveDataset d = liveContentFixture();
  const LivePlotRows shown = livePlotRows(d.rows, 1, -1);
  SweepPlotData time = liveTimePlot(d.rows, shown, {});
  ASSERT_EQ(time.series.size(), 2u);
  EXPECT_EQ(time.series[0].minus.size(), time.series[0].x.size());  // min … max bars
  EXPECT_EQ(time.series[0].plus.size(), time.series[0].x.size());
  EXPECT_TRUE(time.markers.empty());  // nothing selected
  FidelityPair pair;
  pair.live_row = 0;  // R2048, 16 warps
  pair.rblock = 2048;
  pair.triton_us = 38.0;
  time = liveTimePlot(d.rows, shown, {pair});
  const SweepSeriesData* triton = seriesNamed(time, QStringLiteral("Triton w16"));
  ASSERT_NE(triton, nullptr);
  EXPECT_TRUE(triton->dashed);
  EXPECT_EQ(triton->x, (QVector<double>{2048}));
  EXPECT_EQ(triton->y, (QVector<double>{38.0}));
  EXPECT_EQ(seriesNamed(time, QStringLiteral("Triton w32")), nullptr);  // no pair of 32 warps
}

TEST(LiveSweepContent, OccupancyPlotTheoreticalThenAchieved) {
  const LiveDataset d = liveContentFixture();
  SweepPlotData occ = liveOccupancyPlot(d.rows, livePlotRows(d.rows, 1, -1));
  ASSERT_EQ(occ.series.size(), 4u);
  EXPECT_EQ(occ.series[0].name, QStringLiteral("16 warps"));
  EXPECT_FALSE(occ.series[0].dashed);
  EXPECT_EQ(occ.series[2].name, QStringLiteral("16 w achieved"));
  EXPECT_TRUE(occ.series[2].dashed);
  EXPECT_EQ(occ.title, QStringLiteral("Occupancy: theoretical (solid), achieved (dashed)"));
  EXPECT_TRUE(occ.corner_note.isEmpty());
  // Without achieved occupancy the title and the corner say so.
  std::vector<LiveRow> rows = d.rows;
  for (auto& r : rows) {
    r.measured.achieved_occupancy_pct.value.reset();
    r.measured.achieved_occupancy_pct.unavailable = "profiling not permitted";
  }
  occ = liveOccupancyPlot(rows, livePlotRows(rows, 1, -1));
  EXPECT_EQ(occ.series.size(), 2u);
  EXPECT_EQ(occ.title, QStringLiteral("Occupancy: theoretical (achieved unavailable)"));
  EXPECT_EQ(occ.corner_note, QStringLiteral("achieved: profiling not permitted"));
}

TEST(LiveSweepContent, RegretLinesAndCsv) {
  const LiveDataset d = liveContentFixture();
  const PickSummary replay = summarizeReplay(d.rows);
  const auto lines = regretLines(replay, d.rows);
  ASSERT_EQ(lines.size(), 4u);
  EXPECT_EQ(lines[0].title, QStringLiteral("old bound"));
  EXPECT_EQ(lines[0].timed, QStringLiteral("1 of 2"));
  EXPECT_EQ(lines[0].pick, QStringLiteral("1 × 2048, 16 w"));
  EXPECT_EQ(lines[0].pick_tooltip, QStringLiteral("XBLOCK 1, RBLOCK 2048, 16 warps"));
  EXPECT_EQ(lines[0].regret, QStringLiteral("1.283"));
  EXPECT_TRUE(lines[0].high_regret);
  EXPECT_FALSE(lines[1].high_regret);  // 1.016
  EXPECT_EQ(lines[3].title, QStringLiteral("best of all"));
  EXPECT_EQ(lines[3].timed, QStringLiteral("10 of 11"));
  EXPECT_EQ(lines[3].regret, QStringLiteral("1.000"));

  const CsvTable csv = regretCsv(replay, d.rows, "Test fixture GPU", "2026-11-29T12:00:00Z");
  EXPECT_EQ(csv.metaValue("device"), "Test fixture GPU");
  ASSERT_EQ(csv.rows.size(), 4u);  // three policies and the best
  EXPECT_EQ(csv.rows[0][0], "old");
  EXPECT_EQ(csv.rows[3][0], "best");
  EXPECT_EQ(csv.rows[3][1], "11");
}

TEST(LiveSweepContent, TextsOfRowsDatasetsAndPairings) {
  const LiveDataset d = liveContentFixture();
  const QString row = describeLiveRow(d.rows[5], QStringLiteral("best"), nullptr);
  EXPECT_TRUE(row.startsWith(QStringLiteral("XBLOCK 1, RBLOCK 8192, 32 warps\n")));
  EXPECT_TRUE(row.endsWith(QStringLiteral("\npicked by: best")));
  const QString failed = describeLiveRow(d.rows[10], QString(), nullptr);
  EXPECT_TRUE(failed.contains(QStringLiteral("wrong result: out0: 3 of 132"))) << failed.toStdString();
  EXPECT_TRUE(
      liveRowStatusText(d.rows[10]).startsWith(QStringLiteral("XBLOCK 2, RBLOCK 2048, 16 warps: wrong result")));

  EXPECT_DOUBLE_EQ(liveMetaNumber(d, "copy_bandwidth_GBps", 0.0), 4257.0);
  EXPECT_DOUBLE_EQ(liveMetaNumber(d, "no_such_key", 7.0), 7.0);
  EXPECT_DOUBLE_EQ(datasheetBandwidthOf(d), 0.0);  // the GPU data does not know the fixture's GPU
  const QString detail = liveDatasetDetail(d, 4257.0);
  EXPECT_TRUE(detail.contains(QStringLiteral("copy bandwidth 4257 GB/s")));
  EXPECT_TRUE(detail.contains(QStringLiteral("11 configs")));
  EXPECT_TRUE(detail.endsWith(QStringLiteral("hand-written test fixture, not a measurement")));
  const QString summary = liveResultSummary(summarizeReplay(d.rows), QStringLiteral("recorded"), 4257.0);
  EXPECT_TRUE(summary.startsWith(QStringLiteral("recorded · best 30.6 µs cold, 2074 GB/s (49 % of copy)")))
      << summary.toStdString();
  EXPECT_TRUE(summary.endsWith(QStringLiteral(" · regret old 1.28, new 1.02, exact 1.02")));
  EXPECT_TRUE(liveResultSummary(PickSummary{}, QStringLiteral("recorded"), 0.0).isEmpty());
  EXPECT_TRUE(liveReportHtml(d).startsWith(QStringLiteral("<p><b>Times</b>: ")));
  EXPECT_TRUE(fidelitySummaryText(nullptr, {}).startsWith(QStringLiteral("Times and registers are the built-in")));

  // The inputs that measure the same sweep: the shape and the grid's values of the in-grid rows.
  const CompileSweepSpec spec = liveSpecFromDataset(d, CompileSweepSpec{});
  EXPECT_EQ(spec.workload, Workload::kLogSoftmax);
  EXPECT_EQ(spec.dtype, DType::kF32);
  EXPECT_EQ(spec.xnumel, 264);
  EXPECT_EQ(spec.rnumel, 30000);
  EXPECT_EQ(spec.grid.num_warps, (std::vector<int>{16, 32}));
  EXPECT_EQ(spec.grid.xblock.front(), 1);
}

TEST(CompileSweepContent, PlotsOfTheRecordedSweep) {
  const CompileSweepDataset d = compileContentFixture();
  ASSERT_FALSE(d.rows.empty());
  int selected = -1;
  for (std::size_t i = 0; i < d.rows.size(); ++i) {
    const auto& e = d.rows[i];
    if (e.config.xblock == 1 && e.config.rblock == 2048 && e.config.num_warps == 16) selected = static_cast<int>(i);
  }
  ASSERT_GE(selected, 0);
  const CompileSweepPlots plots = compileSweepPlots(d.rows, 1, selected, d, compilePlotNote(false, true));
  EXPECT_EQ(plots.registers.title, QStringLiteral("Registers per thread against RBLOCK (XBLOCK = 1)"));
  const SweepSeriesData* w16 = seriesNamed(plots.registers, QStringLiteral("16 warps"));
  ASSERT_NE(w16, nullptr);
  ASSERT_EQ(plots.registers.lines.size(), 2u);
  EXPECT_EQ(plots.registers.lines[0].name, QStringLiteral("255-register cap"));
  EXPECT_EQ(plots.registers.lines[1].name, QStringLiteral("full occupancy ≤ 32 registers"));
  ASSERT_EQ(plots.registers.markers.size(), 1u);
  EXPECT_EQ(plots.registers.markers[0].name, QStringLiteral("selected: RBLOCK 2048, 16 warps"));
  EXPECT_EQ(plots.registers.markers[0].rows, (QVector<int>{selected}));
  EXPECT_TRUE(plots.spills.lines.empty());
  EXPECT_EQ(plots.spills.markers.size(), 1u);
  EXPECT_DOUBLE_EQ(plots.registers.y_hi, 255 * 1.1);
  EXPECT_TRUE(plots.registers.note.isEmpty());

  const CompileSweepPlots none = compileSweepPlots({}, 1, -1, d, compilePlotNote(false, false));
  EXPECT_TRUE(none.registers.series.empty());
  EXPECT_EQ(none.registers.title, QStringLiteral("Registers per thread against RBLOCK"));
  EXPECT_EQ(none.registers.note, QStringLiteral("No data: open a CSV written by 'occx sweep'"));
  EXPECT_EQ(none.spills.note, none.registers.note);
  EXPECT_EQ(compilePlotNote(true, true), QStringLiteral("compiling …"));
  EXPECT_EQ(compilePlotNote(false, true), QStringLiteral("No data: compile a sweep or open a CSV"));
}

TEST(CompileSweepContent, TextsSelectionAndInputsOfTheRecordedSweep) {
  const CompileSweepDataset d = compileContentFixture();
  EXPECT_EQ(compileConfigText(d.rows.front().config), QStringLiteral("XBLOCK=1 RBLOCK=256 num_warps=4"));
  const QString row = describeCompileRecord(d.rows.front());
  EXPECT_TRUE(row.startsWith(QStringLiteral("XBLOCK=1 RBLOCK=256 num_warps=4\n24 registers per thread")))
      << row.toStdString();
  CompileSweepRecord failed = d.rows.front();
  failed.ok = false;
  failed.error = "ptxas error\nsecond line";
  EXPECT_EQ(describeCompileRecord(failed), QStringLiteral("XBLOCK=1 RBLOCK=256 num_warps=4\nerror: ptxas error"));
  EXPECT_TRUE(
      compileDatasetTitle(d, QStringLiteral("opened x.csv"))
          .startsWith(QStringLiteral("mean_var fp32, 512 × 8192 on sm_90, H200 (CC 9.0, 132 SMs) — opened x.csv")));
  const QString summary = compileSweepSummary(QStringLiteral("sm_90"), d, false);
  EXPECT_TRUE(summary.startsWith(QStringLiteral("sm_90 · 48 configs shown, ")));
  EXPECT_TRUE(summary.endsWith(QStringLiteral(" · compiling needs the CUDA Toolkit")));

  // Inductor's first config that compiled, else the first row.
  const int pick = compileDefaultSelection(d);
  int inductor = -1;
  for (const auto& e : d.rows) {
    if (e.inductor_candidate && e.ok) {
      inductor = e.index;
      break;
    }
  }
  EXPECT_EQ(pick, inductor >= 0 ? inductor : d.rows.front().index);
  EXPECT_EQ(compileDefaultSelection(CompileSweepDataset{}), -1);

  const CompileSweepSpec spec = compileSpecFromDataset(d, CompileSweepSpec{});
  EXPECT_EQ(spec.workload, Workload::kMeanVar);
  EXPECT_EQ(spec.xnumel, 512);
  EXPECT_EQ(spec.rnumel, 8192);
  EXPECT_EQ(spec.grid.xblock.front(), 1);
  EXPECT_EQ(spec.grid.r0_block.front(), 256);

  CompileSweepResult result;
  result.cancelled = true;
  result.total_configs = 48;
  result.compiled = 3;
  result.failed = 1;
  result.not_compiled = 2;
  result.rows.resize(6);
  EXPECT_EQ(compileFinishedText(result),
            QStringLiteral("Cancelled: kept the 6 finished rows of 48 configs (3 compiled, 1 failed, 2 not compiled "
                           "(the config cannot be built; hover its status for why))."));
}

}  // namespace
}  // namespace occx::ui
