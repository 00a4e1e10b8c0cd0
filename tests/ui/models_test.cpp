// The table models on their own, without a view: each is built from rows written here and watched by
// QAbstractItemModelTester (which aborts on a broken model contract), and its row counts, header
// texts and cell values are checked exactly.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QColor>
#include <QFile>
#include <QFont>
#include <QSortFilterProxyModel>
#include <QStringList>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/sweep/compile_sweep_dataset.h"
#include "core/sweep/live_results.h"
#include "tests/ui/ui_test_support.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/models/live_sweep_model.h"

namespace occx::ui {
namespace {

using inductor::Outcome;
using inductor::Policy;

QStringList headers(const QAbstractItemModel& m) {
  QStringList out;
  for (int c = 0; c < m.columnCount(); ++c) out << m.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
  return out;
}

QString text(const QAbstractItemModel& m, int row, int column) {
  return m.data(m.index(row, column), Qt::DisplayRole).toString();
}

QColor background(const QAbstractItemModel& m, int row, int column) {
  return m.data(m.index(row, column), Qt::BackgroundRole).value<QBrush>().color();
}

KernelConfig config(int xblock, int rblock, int num_warps) {
  KernelConfig c;
  c.xblock = xblock;
  c.rblock = rblock;
  c.num_warps = num_warps;
  return c;
}

// --- The compile-sweep model ---------------------------------------------------------------------

/// Compiled, occupancy and decisions known; Inductor's own config.
CompileSweepRecord compiledEntry() {
  CompileSweepRecord e;
  e.index = 0;
  e.config = config(1, 512, 4);
  e.origin = "Inductor: contiguous";
  e.ok = true;
  e.kernel_name = "occx_sum_f32_x1_r512_w4";
  e.registers = 40;
  e.spill_stores_bytes = 0;
  e.spill_loads_bytes = 0;
  e.n_spills = 0;
  e.smem_bytes = 16;
  e.cache_hit = true;
  e.compile_ms = 12.5;
  e.active_blocks_per_sm = 6;
  e.occupancy_pct = 75.0;
  e.limiter = "registers";
  e.decisions = {{Policy::kOld, 16, Outcome::kNoScale, "16 × 132 SMs hold every block"},
                 {Policy::kNew, 6, Outcome::kScale, "adds RBLOCK 256"},
                 {Policy::kReviewMin, 6, Outcome::kDuplicate, ""},
                 {Policy::kExact, -1, Outcome::kNotApplicable, "at most 32 registers"}};
  e.inductor_candidate = true;
  e.candidates = {CandidateState::kBenchmarked, CandidateState::kBenchmarked, CandidateState::kExcludedSpills};
  return e;
}

/// The compile failed.
CompileSweepRecord failedEntry() {
  CompileSweepRecord e;
  e.index = 1;
  e.config = config(2, 1024, 8);
  e.origin = "grid";
  e.error = "nvrtc: too many resources requested\nthe whole log";
  e.accumulator_values_per_thread = 16;  // built; the compiler refused it
  e.candidates = {CandidateState::kNotCompiled, CandidateState::kNotCandidate, CandidateState::kNotCandidate};
  return e;
}

/// Compiled and spilling, occupancy and decisions still to come (a running sweep).
CompileSweepRecord pendingEntry() {
  CompileSweepRecord e;
  e.index = 2;
  e.config = config(1, 2048, 2);
  e.origin = "new scaling: halved from #0";
  e.ok = true;
  e.registers = 255;
  e.spill_stores_bytes = 96;
  e.spill_loads_bytes = 64;
  e.n_spills = 40;
  e.smem_bytes = 0;
  e.pending = true;
  return e;
}

TEST(CompileSweepModel, HeadersRowsAndCells) {
  CompileSweepModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.columnCount(), 22);
  EXPECT_EQ(
      headers(model),
      (QStringList{"#",          "XBLOCK",        "RBLOCK",          "num_warps",     "Regs/thread", "Spill st. (B)",
                   "Blocks/SM",  "Occupancy (%)", "old bound",       "new bound",     "exact bound", "Cand. old",
                   "Cand. new",  "Cand. exact",   "Inductor config", "Spill ld. (B)", "n_spills",    "Static smem (B)",
                   "Limited by", "review_min",    "Origin",          "Status"}));
  EXPECT_EQ(model.headerData(CompileSweepModel::kRegisters, Qt::Horizontal, Qt::ToolTipRole).toString(),
            QStringLiteral("Registers per thread, from the compiler's report (ptxas -v)"));
  EXPECT_EQ(model.headerData(CompileSweepModel::kCandidateNew, Qt::Horizontal, Qt::ToolTipRole).toString(),
            QStringLiteral("In that policy's autotuner candidate set: yes = benchmarked; spills = excluded "
                           "(n_spills > 16)"));
  EXPECT_TRUE(model.headerData(CompileSweepModel::kIndex, Qt::Horizontal, Qt::ToolTipRole)
                  .toString()
                  .startsWith(QStringLiteral("The config's place in the sweep's grid")));
  EXPECT_FALSE(model.headerData(0, Qt::Vertical, Qt::DisplayRole).isValid());

  model.setEntries({compiledEntry(), failedEntry(), pendingEntry()});
  ASSERT_EQ(model.rowCount(), 3);

  using M = CompileSweepModel;
  const QStringList compiled = {"0",
                                "1",
                                "512",
                                "4",
                                "40",
                                "0",
                                "6",
                                "75.0",
                                "no scaling (16/SM)",
                                "scale (6/SM)",
                                "n/a",
                                "yes",
                                "yes",
                                "spills",
                                "yes",
                                "0",
                                "0",
                                "16",
                                "registers",
                                "duplicate (6/SM)",
                                "Inductor: contiguous",
                                "ok (cache)"};
  for (int c = 0; c < M::kColumnCount; ++c) EXPECT_EQ(text(model, 0, c), compiled[c]) << "column " << c;
  EXPECT_EQ(model.data(model.index(0, M::kDecisionNew), Qt::ToolTipRole).toString(), QStringLiteral("adds RBLOCK 256"));
  EXPECT_EQ(model.data(model.index(0, M::kStatus), Qt::ToolTipRole).toString(),
            QStringLiteral("occx_sum_f32_x1_r512_w4\ncompiled in 12.5 ms (read from the compile cache)"));
  EXPECT_EQ(background(model, 0, M::kDecisionNew), QColor(214, 234, 248));     // scales
  EXPECT_EQ(background(model, 0, M::kCandidateExact), QColor(253, 235, 208));  // excluded for spills
  EXPECT_FALSE(model.data(model.index(0, M::kDecisionOld), Qt::BackgroundRole).isValid());
  EXPECT_EQ(model.data(model.index(0, M::kOccupancy), M::kSortRole).toDouble(), 75.0);
  EXPECT_EQ(model.data(model.index(0, M::kRegisters), Qt::TextAlignmentRole).toInt(),
            static_cast<int>(Qt::AlignRight | Qt::AlignVCenter));
  EXPECT_EQ(model.data(model.index(0, M::kOrigin), Qt::TextAlignmentRole).toInt(),
            static_cast<int>(Qt::AlignLeft | Qt::AlignVCenter));

  EXPECT_EQ(text(model, 1, M::kStatus), QStringLiteral("error: nvrtc: too many resources requested"));
  EXPECT_EQ(model.data(model.index(1, M::kStatus), Qt::ToolTipRole).toString(),
            QStringLiteral("<qt>nvrtc: too many resources requested<br>the whole log</qt>"));
  EXPECT_EQ(model.data(model.index(1, M::kStatus), Qt::ForegroundRole).value<QBrush>().color(), QColor(139, 0, 0));
  EXPECT_EQ(text(model, 1, M::kRegisters), QString());
  EXPECT_EQ(text(model, 1, M::kCandidateOld), QStringLiteral("not compiled"));
  EXPECT_EQ(text(model, 1, M::kCandidateNew), QString());
  EXPECT_EQ(text(model, 1, M::kDecisionOld), QString());

  EXPECT_EQ(text(model, 2, M::kBlocksPerSm), QStringLiteral("…"));
  EXPECT_EQ(text(model, 2, M::kOccupancy), QStringLiteral("…"));
  EXPECT_EQ(text(model, 2, M::kDecisionExact), QStringLiteral("…"));
  EXPECT_EQ(text(model, 2, M::kLimiter), QStringLiteral("…"));
  EXPECT_EQ(model.data(model.index(2, M::kOccupancy), M::kSortRole).toDouble(), -1.0);
  EXPECT_EQ(text(model, 2, M::kSpillStores), QStringLiteral("96"));
  EXPECT_EQ(background(model, 2, M::kSpillLoads), QColor(248, 215, 215));
  EXPECT_EQ(background(model, 2, M::kNSpills), QColor(248, 215, 215));
  EXPECT_FALSE(model.data(model.index(0, M::kSpillStores), Qt::BackgroundRole).isValid());
}

// A config refused before compiling reads "not compiled: <reason>", not "error", and the whole
// reason is in a tooltip Qt wraps (rich text), not one line drawn off the screen.
TEST(CompileSweepModel, NotCompiledRowsSaySoAndShowTheWholeReason) {
  CompileSweepModel model;
  CompileSweepRecord r;
  r.index = 0;
  r.ok = false;
  r.error =
      "XBLOCK × RBLOCK / threads × tiles = 8192 × 1 = 8192 accumulator values per thread is out of range: allowed at "
      "most 1024 (raise num_warps or lower XBLOCK/RBLOCK)";
  model.setEntries({r});
  const QString status = model.data(model.index(0, CompileSweepModel::kStatus), Qt::DisplayRole).toString();
  EXPECT_TRUE(status.startsWith(QStringLiteral("not compiled: XBLOCK"))) << status.toStdString();
  const QString tip = model.data(model.index(0, CompileSweepModel::kStatus), Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.startsWith(QStringLiteral("<qt>")));
  EXPECT_TRUE(tip.contains(QStringLiteral("raise num_warps or lower XBLOCK/RBLOCK")));
  r.accumulator_values_per_thread = 16;  // built, but the compiler failed
  r.error = "ptxas error";
  model.setEntries({r});
  EXPECT_EQ(model.data(model.index(0, CompileSweepModel::kStatus), Qt::DisplayRole).toString(),
            QStringLiteral("error: ptxas error"));
}

TEST(CompileSweepModel, UpsertReplacesBySweepIndexOrAppends) {
  CompileSweepModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.upsertEntry(pendingEntry());
  model.upsertEntry(failedEntry());
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.rowOfIndex(2), 0);
  EXPECT_EQ(model.rowOfIndex(1), 1);
  EXPECT_EQ(model.rowOfIndex(7), -1);

  CompileSweepRecord done = compiledEntry();
  done.index = 2;  // the pending row, now with its decisions
  model.upsertEntry(done);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(text(model, 0, CompileSweepModel::kOccupancy), QStringLiteral("75.0"));
  EXPECT_EQ(model.row(0)->config.rblock, 512);
  EXPECT_EQ(model.row(2), nullptr);

  // Sorting by the sort role: numbers as numbers (RBLOCK 512 before 1024).
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(CompileSweepModel::kSortRole);
  proxy.sort(CompileSweepModel::kRBlock, Qt::AscendingOrder);
  EXPECT_EQ(text(proxy, 0, CompileSweepModel::kRBlock), QStringLiteral("512"));
  EXPECT_EQ(text(proxy, 1, CompileSweepModel::kRBlock), QStringLiteral("1024"));

  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
}

TEST(CompileSweepModel, DecisionAndCandidateTexts) {
  EXPECT_EQ(decisionText({Policy::kNew, 3, Outcome::kScale, {}}), QStringLiteral("scale (3/SM)"));
  EXPECT_EQ(decisionText({Policy::kNew, -1, Outcome::kNoScale, {}}), QStringLiteral("no scaling"));
  EXPECT_EQ(decisionText({Policy::kOld, 4, Outcome::kNotApplicable, {}}), QStringLiteral("n/a"));
  EXPECT_EQ(decisionText({Policy::kOld, 4, std::nullopt, {}}), QStringLiteral("…"));
  EXPECT_EQ(candidateText(CandidateState::kBenchmarked), QStringLiteral("yes"));
  EXPECT_EQ(candidateText(CandidateState::kExcludedSpills), QStringLiteral("spills"));
  EXPECT_EQ(candidateText(CandidateState::kNotCompiled), QStringLiteral("not compiled"));
  EXPECT_EQ(candidateText(CandidateState::kNotCandidate), QString());
}

// --- The live-sweep model ------------------------------------------------------------------------

/// Inductor's own config: in every policy's set.
LiveRow inductorRow() {
  LiveRow r;
  r.config = config(1, 256, 4);
  r.in_grid = true;
  r.inductor_candidate = true;
  r.registers = 32;
  r.spill_stores_bytes = 0;
  r.n_spills = 0;
  r.theoretical_occupancy_pct = 100.0;
  r.measured.status = RunStatus::kOk;
  r.measured.time.median_us = 10.5;
  r.measured.time.min_us = 10.0;
  r.measured.time.max_us = 12.0;
  r.measured.time.spread_pct = 3.25;
  r.measured.kernel_time = TimingStats{};
  r.measured.kernel_time->median_us = 9.875;
  r.measured.warm_kernel_time = TimingStats{};
  r.measured.warm_kernel_time->median_us = 8.25;
  r.measured.bandwidth_GBps = 1234.4;
  r.measured.pct_of_copy = 45.67;
  r.measured.bandwidth_from = "DRAM bytes";
  r.measured.checked = true;
  r.measured.check.max_abs_error = 0.000123;
  r.measured.achieved_occupancy_pct = Metric::of(87.26);
  r.measured.dram_read_bytes = Metric::of(4096);
  return r;
}

/// Added by the new bound's scaling only, faster than Inductor's: the best and the new pick.
LiveRow addedByNewRow() {
  LiveRow r = inductorRow();
  r.config = config(1, 128, 4);
  r.inductor_candidate = false;
  r.added_by = {inductor::Policy::kNew};
  r.spill_stores_bytes = 24;
  r.n_spills = 6;
  r.measured.time.median_us = 8.0;
  r.measured.time.min_us = 7.5;
  r.measured.time.max_us = 9.0;
  r.measured.kernel_time->median_us = 7.5;
  r.measured.bandwidth_GBps = 1620.0;
  r.measured.pct_of_copy = 59.9;
  r.measured.achieved_occupancy_pct = Metric::missing("profiling not permitted");
  return r;
}

/// In the grid only; the launch failed.
LiveRow failedRow() {
  LiveRow r;
  r.config = config(2, 4096, 1);
  r.in_grid = true;
  r.measured.status = RunStatus::kLaunchFailed;
  r.measured.reason = "an illegal memory access was encountered";
  return r;
}

TEST(LiveSweepModel, HeadersRowsCellsAndPicks) {
  LiveSweepModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.columnCount(), 27);
  EXPECT_EQ(headers(model), (QStringList{"XBLOCK",
                                         "RBLOCK",
                                         "num_warps",
                                         "Status",
                                         "Cold (µs)",
                                         "Triton µs",
                                         "Triton / ours",
                                         "Triton regs",
                                         "Warm (µs)",
                                         "Min (µs)",
                                         "Max (µs)",
                                         "Spread (%)",
                                         "DRAM GB/s",
                                         "% of copy",
                                         "Theor. occ. (%)",
                                         "Achieved occ. (%)",
                                         "Registers/thread",
                                         "Spill stores (B)",
                                         "n_spills",
                                         "In candidate set of",
                                         "Picked by",
                                         "DRAM read (B)",
                                         "DRAM written (B)",
                                         "Local loads (B)",
                                         "Local stores (B)",
                                         "Max |error|",
                                         "Notes"}));
  EXPECT_EQ(model.headerData(LiveSweepModel::kSpread, Qt::Horizontal, Qt::ToolTipRole).toString(),
            QStringLiteral("Spread of the cold timed runs: (75th percentile − 25th percentile) / median × 100, the "
                           "middle half of the runs. One slow run moves Max, not the spread (hover a cell for both)"));
  EXPECT_EQ(model.headerData(LiveSweepModel::kMin, Qt::Horizontal, Qt::ToolTipRole).toString(),
            QStringLiteral("The fastest of the cold timed runs"));

  const std::vector<LiveRow> rows = {inductorRow(), addedByNewRow(), failedRow()};
  const PickSummary replay = summarizeReplay(rows);
  ASSERT_EQ(replay.best_row, 1);
  model.setRows(rows, replay);
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.replay().best_row, 1);

  using M = LiveSweepModel;
  const QStringList first = {"1",
                             "256",
                             "4",
                             "ok",
                             "9.88",  // device time (CUPTI), L2 cold
                             /* Triton: */ "",
                             "",
                             "",
                             "8.25",   // warm
                             "9.40",   // the events' min and max scaled to the device time
                             "11.29",  // (a CSV keeps only CUPTI's median)
                             "3.25",
                             "1234",
                             "45.7",
                             "100.0",
                             "87.3",
                             "32",
                             "0",
                             "0",
                             "old new exact",
                             "old, exact",
                             "4096",
                             "unavailable",
                             "unavailable",
                             "unavailable",
                             "0.000123",
                             ""};
  for (int c = 0; c < M::kColumnCount; ++c) EXPECT_EQ(text(model, 0, c), first[c]) << "column " << c;
  EXPECT_EQ(model.data(model.index(0, M::kTime), Qt::ToolTipRole).toString(),
            QStringLiteral("9.88 µs device time, L2 cold (warm 8.25 µs; CUDA events 10.50 µs)"));
  EXPECT_EQ(model.data(model.index(0, M::kTime), M::kSortRole).toDouble(), 9.875);
  EXPECT_EQ(model.data(model.index(0, M::kBandwidth), Qt::ToolTipRole).toString(),
            QStringLiteral("1234 GB/s from DRAM bytes (45.7 % of copy)"));
  EXPECT_EQ(background(model, 0, M::kPicks), QColor(214, 234, 248));  // a policy's pick
  EXPECT_TRUE(model.data(model.index(0, M::kPicks), Qt::FontRole).value<QFont>().bold());

  EXPECT_EQ(text(model, 1, M::kSets), QStringLiteral("new"));
  EXPECT_EQ(text(model, 1, M::kPicks), QStringLiteral("best, new"));
  EXPECT_EQ(model.picksAt(1), QStringLiteral("best, new"));
  EXPECT_EQ(background(model, 1, M::kBandwidth), QColor(255, 243, 191));  // the best
  EXPECT_EQ(background(model, 1, M::kSpillStores), QColor(248, 215, 215));
  EXPECT_EQ(text(model, 1, M::kAchieved), QStringLiteral("unavailable"));
  EXPECT_EQ(model.data(model.index(1, M::kAchieved), Qt::ToolTipRole).toString(),
            QStringLiteral("unavailable: profiling not permitted"));

  EXPECT_EQ(text(model, 2, M::kStatus), QStringLiteral("launch failed"));
  EXPECT_EQ(model.data(model.index(2, M::kStatus), Qt::ForegroundRole).value<QBrush>().color(), QColor(139, 0, 0));
  EXPECT_EQ(model.data(model.index(2, M::kStatus), Qt::ToolTipRole).toString(),
            QStringLiteral("an illegal memory access was encountered"));
  EXPECT_EQ(text(model, 2, M::kTime), QString());
  EXPECT_EQ(text(model, 2, M::kBandwidth), QString());
  EXPECT_EQ(text(model, 2, M::kRegisters), QString());
  EXPECT_EQ(text(model, 2, M::kSets), QStringLiteral("grid only"));
  EXPECT_EQ(text(model, 2, M::kPicks), QString());
  EXPECT_EQ(text(model, 2, M::kMaxError), QString());
  EXPECT_EQ(model.data(model.index(2, M::kTime), M::kSortRole).toDouble(), 1e300);  // failed rows sort last
  EXPECT_EQ(model.data(model.index(2, M::kStatus), Qt::TextAlignmentRole).toInt(),
            static_cast<int>(Qt::AlignLeft | Qt::AlignVCenter));
  EXPECT_EQ(model.data(model.index(2, M::kTime), Qt::TextAlignmentRole).toInt(),
            static_cast<int>(Qt::AlignRight | Qt::AlignVCenter));
}

TEST(LiveSweepModel, TritonColumnsShowThePairedRowsOnly) {
  LiveSweepModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const std::vector<LiveRow> rows = {inductorRow(), addedByNewRow(), failedRow()};
  model.setRows(rows, summarizeReplay(rows));
  FidelityPair p;
  p.live_row = 1;
  p.ours_us = 8.0;
  p.triton_us = 6.5;
  p.ratio = 6.5 / 8.0;
  p.ours_registers = 40;
  p.triton_registers = 38;
  p.triton_spills = true;
  model.setTritonPairs({p});
  using M = LiveSweepModel;
  EXPECT_EQ(text(model, 1, M::kTritonTime), QStringLiteral("6.50"));
  EXPECT_EQ(text(model, 1, M::kTritonRegisters), QStringLiteral("38"));
  EXPECT_EQ(text(model, 1, M::kTritonRatio), QStringLiteral("0.81"));
  EXPECT_EQ(model.data(model.index(1, M::kTritonRatio), Qt::ToolTipRole).toString(),
            QStringLiteral("Triton 6.50 µs, ours 8.00 µs; Triton 38 registers, ours 40; spills: Triton yes, ours no"));
  EXPECT_EQ(model.data(model.index(1, M::kTritonRatio), M::kSortRole).toDouble(), 0.8125);
  for (int r : {0, 2}) {
    for (int c : {M::kTritonTime, M::kTritonRegisters, M::kTritonRatio}) {
      EXPECT_EQ(text(model, r, c), QString()) << r << c;
    }
  }
  EXPECT_EQ(model.tritonPairAt(0), nullptr);
  ASSERT_NE(model.tritonPairAt(1), nullptr);
  model.setRows(rows, summarizeReplay(rows));  // new rows: no pairs until set again
  EXPECT_EQ(model.tritonPairAt(1), nullptr);
  EXPECT_EQ(text(model, 1, M::kTritonTime), QString());
}

TEST(LiveSweepModel, AppendingMovesThePicks) {
  LiveSweepModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  std::vector<LiveRow> rows = {inductorRow()};
  model.appendRow(rows.back(), summarizeReplay(rows));
  ASSERT_EQ(model.rowCount(), 1);
  EXPECT_EQ(model.picksAt(0), QStringLiteral("best, old, new, exact"));

  rows.push_back(addedByNewRow());
  model.appendRow(rows.back(), summarizeReplay(rows));
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(text(model, 0, LiveSweepModel::kPicks), QStringLiteral("old, exact"));
  EXPECT_EQ(text(model, 1, LiveSweepModel::kPicks), QStringLiteral("best, new"));
  EXPECT_EQ(model.row(1)->config.rblock, 128);
  EXPECT_EQ(model.row(2), nullptr);

  model.clear();
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(model.replay().best_row, -1);
  EXPECT_EQ(model.picksAt(0), QString());
}

}  // namespace
}  // namespace occx::ui
