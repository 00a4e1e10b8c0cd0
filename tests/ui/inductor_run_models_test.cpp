// The Inductor run view's two table models on their own, without a view: the kernel list
// (KernelListModel) and the configs of one kernel (RunConfigModel), each built from rows written
// here and watched by QAbstractItemModelTester (which aborts on a broken model contract); their
// headers, cells, tooltips, colours and sort keys checked exactly, and the measurements of a bundled
// run attached to its configs (measuredOfRows).
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QBrush>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QStringList>

#include "tests/ui/ui_test_support.h"
#include "ui/models/inductor_run_actions.h"
#include "ui/models/inductor_run_models.h"
#include "ui/models/text.h"

namespace occx::ui {
namespace {

QStringList runModelHeaders(const QAbstractItemModel& m) {
  QStringList out;
  for (int c = 0; c < m.columnCount(); ++c) out << m.headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
  return out;
}

QVariant runModelCell(const QAbstractItemModel& m, int row, int column, int role = Qt::DisplayRole) {
  return m.data(m.index(row, column), role);
}

/// A compiled looped-reduction config: X1, `r0_block`, `num_warps`, `n_regs`, occupancy `occupancy`.
triton::ScanRow runModelRow(std::int64_t r0_block, std::int64_t num_warps, std::int64_t n_regs, double occupancy) {
  triton::ScanRow r;
  r.device = "CC 9.0, 132 SMs";
  r.cc = "9.0";
  r.sm_count = 132;
  r.kernel = "triton_red_fused_sum_0";
  r.module = "cabc123";
  r.kind = "looped reduction";
  r.size_hints = "x=512, r0_=8192";
  r.xblock = 1;
  r.r0_block = r0_block;
  r.num_warps = num_warps;
  r.num_stages = 1;
  r.n_regs = n_regs;
  r.n_spills = 0;
  r.occupancy_pct = occupancy;
  r.origin = "candidate";
  return r;
}

/// Two kernels: a looped reduction with three configs (the second the winner, the third added by
/// scaling and spilling over the threshold), and a pointwise kernel listed, not analysed.
std::vector<RunKernelEntry> twoKernels() {
  InductorRunData data;
  data.rows.push_back(runModelRow(2048, 16, 40, 100.0));
  data.rows.push_back(runModelRow(8192, 16, 56, 50.0));
  data.rows.back().winner = true;
  data.rows.push_back(runModelRow(4096, 16, 255, 25.0));
  data.rows.back().origin = "added by scaling";
  data.rows.back().n_spills = 40;
  data.rows.back().over_spill_threshold = true;
  data.rows.back().bounds_disagree = true;
  triton::ScanRow pointwise;
  pointwise.kernel = "triton_poi_fused_add_1";
  pointwise.module = "cdef456";
  pointwise.kind = "pointwise";
  pointwise.size_hints = "x=1048576";
  data.rows.push_back(pointwise);
  groupKernels(data);
  return data.kernels;
}

TEST(KernelListModel, HeadersRowsAndCells) {
  KernelListModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.rowCount(), 0);
  EXPECT_EQ(runModelHeaders(model), (QStringList{"Kernel", "Kind", "Size hints", "Configs", "Winner regs", "Max spills",
                                                 "Winner occ. (%)", "Added", "Bounds disagree", "In-step µs/step"}));
  EXPECT_TRUE(model.headerData(KernelListModel::kConfigs, Qt::Horizontal, Qt::ToolTipRole)
                  .toString()
                  .startsWith(QStringLiteral("Compiled configs: those Inductor compiled (found in Triton's cache), "
                                             "then \"+ N\" a sweep added")));
  EXPECT_TRUE(model.headerData(KernelListModel::kKernel, Qt::Horizontal, Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("triton_red_: looped reduction")));

  model.setRows(twoKernels());
  ASSERT_EQ(model.rowCount(), 2);
  using M = KernelListModel;
  EXPECT_EQ(runModelCell(model, 0, M::kKernel).toString(), QStringLiteral("triton_red_fused_sum_0"));
  EXPECT_EQ(runModelCell(model, 0, M::kKind).toString(), QStringLiteral("looped reduction"));
  EXPECT_EQ(runModelCell(model, 0, M::kSizeHints).toString(), QStringLiteral("x=512, r0_=8192"));
  EXPECT_EQ(runModelCell(model, 0, M::kConfigs).toInt(), 3);
  EXPECT_EQ(runModelCell(model, 0, M::kWinnerRegisters).toInt(), 56);  // the winner's, not the first config's
  EXPECT_EQ(runModelCell(model, 0, M::kMaxSpills).toInt(), 40);
  EXPECT_EQ(runModelCell(model, 0, M::kWinnerOccupancy).toString(), QStringLiteral("50.0"));
  EXPECT_DOUBLE_EQ(runModelCell(model, 0, M::kWinnerOccupancy, M::kSortRole).toDouble(), 50.0);
  EXPECT_EQ(runModelCell(model, 0, M::kAdded).toInt(), 1);
  EXPECT_EQ(runModelCell(model, 0, M::kBoundsDisagree).toString(), QStringLiteral("yes"));
  EXPECT_EQ(runModelCell(model, 0, M::kInStep).toString(), QString());  // no trace
  EXPECT_EQ(runModelCell(model, 0, M::kKernel, Qt::ToolTipRole).toString(),
            QStringLiteral("triton_red_fused_sum_0\nmodule cabc123\nCC 9.0, 132 SMs"));
  EXPECT_EQ(runModelCell(model, 0, M::kKind, Qt::BackgroundRole).value<QBrush>().color(), kSpillColor);
  // The pointwise kernel: no compiled config, no winner, nothing spills.
  EXPECT_EQ(runModelCell(model, 1, M::kConfigs).toInt(), 0);
  EXPECT_EQ(runModelCell(model, 1, M::kWinnerRegisters).toString(), QString());
  EXPECT_EQ(runModelCell(model, 1, M::kMaxSpills).toString(), QString());
  EXPECT_EQ(runModelCell(model, 1, M::kBoundsDisagree).toString(), QString());
  EXPECT_FALSE(runModelCell(model, 1, M::kKind, Qt::BackgroundRole).isValid());
  EXPECT_EQ(runModelCell(model, 1, M::kConfigs, Qt::TextAlignmentRole).toInt(),
            static_cast<int>(Qt::AlignRight | Qt::AlignVCenter));
}

TEST(KernelListModel, InStepTimesFillTheirColumnAndSortAsNumbers) {
  KernelListModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setRows(twoKernels());
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
  model.setInStepTimes(
      {{{"triton_red_fused_sum_0", "cabc123"}, 224.737}, {{"triton_poi_fused_add_1", "cdef456"}, 9.5}});
  EXPECT_EQ(changed.count(), 1);
  EXPECT_EQ(runModelCell(model, 0, KernelListModel::kInStep).toString(), QStringLiteral("224.7"));
  EXPECT_EQ(runModelCell(model, 1, KernelListModel::kInStep).toString(), QStringLiteral("9.5"));
  EXPECT_EQ(model.inStepTime(*model.row(0)), 224.737);
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(&model);
  proxy.setSortRole(KernelListModel::kSortRole);
  proxy.sort(KernelListModel::kInStep, Qt::DescendingOrder);
  EXPECT_EQ(runModelCell(proxy, 0, KernelListModel::kKernel).toString(), QStringLiteral("triton_red_fused_sum_0"));
  proxy.sort(KernelListModel::kInStep, Qt::AscendingOrder);  // 9.5 before 224.7: numbers, not text
  EXPECT_EQ(runModelCell(proxy, 0, KernelListModel::kKernel).toString(), QStringLiteral("triton_poi_fused_add_1"));
  // A kernel the trace does not have is blank; no trace at all empties the column.
  model.setInStepTimes({{{"triton_red_fused_sum_0", "cabc123"}, 1.0}});
  EXPECT_EQ(runModelCell(model, 1, KernelListModel::kInStep).toString(), QString());
  EXPECT_FALSE(model.inStepTime(*model.row(1)).has_value());
  model.setInStepTimes({});
  EXPECT_EQ(runModelCell(model, 0, KernelListModel::kInStep).toString(), QString());
}

TEST(RunConfigModel, HeadersRowsCellsAndDecisions) {
  RunConfigModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  EXPECT_EQ(model.columnCount(), 26);
  EXPECT_EQ(runModelHeaders(model),
            (QStringList{
                "XBLOCK",  "R0_BLOCK",  "num_warps",  "Regs/thread", "n_spills",     "Occupancy (%)",     "Origin",
                "Winner",  "Status",    "Cold (µs)",  "Warm (µs)",   "DRAM GB/s",    "Achieved occ. (%)", "Picked by",
                "Regret",  "new bound", "old bound",  "review_min",  "exact bound",  "spills rule",       "Blocks/SM",
                "Limiter", "Local (B)", "Shared (B)", "num_stages",  "Triton folder"}));
  std::vector<triton::ScanRow> rows = compiledConfigsOf(twoKernels().front());
  ASSERT_EQ(rows.size(), 3u);
  rows[2].halved_from = "XBLOCK=1, R0_BLOCK=8192, num_warps=16";
  rows[2].new_decision = "scale";
  rows[2].new_reason = "1 block per SM · 132 SMs < 512 blocks";
  rows[2].old_decision = "no scaling";
  model.setRows(rows);
  ASSERT_EQ(model.rowCount(), 3);
  using M = RunConfigModel;
  EXPECT_EQ(runModelCell(model, 0, M::kXBlock).toInt(), 1);
  EXPECT_EQ(runModelCell(model, 0, M::kR0Block).toInt(), 2048);
  EXPECT_EQ(runModelCell(model, 0, M::kNumWarps).toInt(), 16);
  EXPECT_EQ(runModelCell(model, 0, M::kRegisters).toInt(), 40);
  EXPECT_EQ(runModelCell(model, 0, M::kOccupancy).toString(), QStringLiteral("100.0"));
  EXPECT_EQ(runModelCell(model, 0, M::kWinner).toString(), QString());
  EXPECT_EQ(runModelCell(model, 1, M::kWinner).toString(), QStringLiteral("yes"));
  EXPECT_EQ(runModelCell(model, 2, M::kOrigin).toString(), QStringLiteral("added by scaling"));
  EXPECT_EQ(runModelCell(model, 2, M::kOrigin, Qt::ToolTipRole).toString(),
            QStringLiteral("halved from XBLOCK=1, R0_BLOCK=8192, num_warps=16"));
  EXPECT_EQ(runModelCell(model, 2, M::kNew).toString(), QStringLiteral("scale"));
  EXPECT_EQ(runModelCell(model, 2, M::kNew, Qt::ToolTipRole).toString(),
            QStringLiteral("1 block per SM · 132 SMs < 512 blocks"));
  EXPECT_EQ(runModelCell(model, 2, M::kNew, Qt::BackgroundRole).value<QBrush>().color(), kScaleColor);
  EXPECT_FALSE(runModelCell(model, 2, M::kOld, Qt::BackgroundRole).isValid());
  EXPECT_EQ(runModelCell(model, 2, M::kSpills, Qt::BackgroundRole).value<QBrush>().color(), kSpillColor);
  EXPECT_EQ(runModelCell(model, 2, M::kBlocksPerSm).toString(), QString());  // not known
  // Not measured: blank, and the tooltip says how to measure.
  EXPECT_EQ(runModelCell(model, 0, M::kTime).toString(), QString());
  EXPECT_EQ(runModelCell(model, 0, M::kStatus, Qt::ToolTipRole).toString(),
            QStringLiteral("Not measured: run it on a GPU (Run on this GPU) or open a kernel-runs CSV"));
  EXPECT_EQ(model.measured(0), nullptr);
  EXPECT_EQ(shortConfigText(rows[2]), QStringLiteral("X1 R4096 w16"));
}

TEST(RunConfigModel, MeasuredCellsSayTimeBandwidthPicksAndRegret) {
  RunConfigModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setRows(compiledConfigsOf(twoKernels().front()));
  RunConfigModel::Measured fast;
  fast.row.measured.status = RunStatus::kOk;
  fast.row.measured.time.median_us = 33.5;  // events
  fast.row.measured.time.runs = 100;
  fast.row.measured.kernel_time = TimingStats{100, 32.04, 31.9, 33.0, 32.0, 32.1, 0.3};  // CUPTI: the figure
  fast.row.measured.bandwidth_GBps = 2517.6;
  fast.row.measured.bandwidth_from = "DRAM bytes";
  fast.picked_by = {QStringLiteral("best"), QStringLiteral("new")};
  fast.regret = 1.0;
  fast.best_us = 32.04;
  RunConfigModel::Measured failed;
  failed.row.measured.status = RunStatus::kLaunchFailed;
  failed.row.measured.reason = "too many resources requested for launch";
  QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
  model.setMeasured({fast, std::nullopt, failed});
  EXPECT_EQ(changed.count(), 1);
  using M = RunConfigModel;
  EXPECT_EQ(runModelCell(model, 0, M::kStatus).toString(), QStringLiteral("ok"));
  EXPECT_EQ(runModelCell(model, 0, M::kTime).toString(), QStringLiteral("32.0"));
  EXPECT_DOUBLE_EQ(runModelCell(model, 0, M::kTime, M::kSortRole).toDouble(), 32.04);
  EXPECT_EQ(runModelCell(model, 0, M::kBandwidth).toString(), QStringLiteral("2518"));
  EXPECT_EQ(runModelCell(model, 0, M::kPickedBy).toString(), QStringLiteral("best, new"));
  EXPECT_EQ(runModelCell(model, 0, M::kRegret).toString(), QStringLiteral("1.00"));
  EXPECT_EQ(runModelCell(model, 0, M::kRegret, Qt::ToolTipRole).toString(),
            QStringLiteral("best of the kernel: 32.0 µs"));
  EXPECT_TRUE(runModelCell(model, 0, M::kPickedBy, Qt::BackgroundRole).isValid());  // the best is marked
  EXPECT_EQ(runModelCell(model, 0, M::kWarmTime).toString(), QString());            // warm not measured
  EXPECT_EQ(runModelCell(model, 1, M::kStatus).toString(), QString());              // not measured
  EXPECT_EQ(runModelCell(model, 2, M::kStatus).toString(), q(runStatusName(RunStatus::kLaunchFailed)));
  EXPECT_EQ(runModelCell(model, 2, M::kTime).toString(), QString());
  EXPECT_EQ(runModelCell(model, 2, M::kTime, Qt::ToolTipRole).toString(),
            QStringLiteral("too many resources requested for launch"));
  EXPECT_EQ(runModelCell(model, 2, M::kStatus, Qt::BackgroundRole).value<QBrush>().color(), kSpillColor);
  ASSERT_NE(model.measured(0), nullptr);
  EXPECT_EQ(model.measured(1), nullptr);
  EXPECT_EQ(model.measured(7), nullptr);
  // New rows drop nothing they should not: measurements are given again after setRows.
  model.setRows({});
  EXPECT_EQ(model.measured(0), nullptr);
}

// The bundled spill case measured on the H200: each config's measurement, the policies whose pick
// it is and its regret, from the run's measured rows and picks.
TEST(RunConfigModel, TheMeasurementsOfABundledRunAttachToTheirConfigs) {
  auto data = loadBundledRun(QStringLiteral("spill_log_softmax_w16"));
  ASSERT_TRUE(data.hasValue()) << data.error();
  ASSERT_EQ(data->kernels.size(), 1u);
  const std::vector<triton::ScanRow> rows = compiledConfigsOf(data->kernels.front());
  RunConfigModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.setRows(rows);
  model.setMeasured(measuredOfRows(*data, rows));
  int best = -1;
  int winner = -1;
  for (int r = 0; r < model.rowCount(); ++r) {
    if (shortConfigText(rows[static_cast<std::size_t>(r)]) == QStringLiteral("X1 R8192 w16")) best = r;
    if (shortConfigText(rows[static_cast<std::size_t>(r)]) == QStringLiteral("X1 R2048 w16")) winner = r;
    ASSERT_NE(model.measured(r), nullptr) << r;  // every config of the bundled run was measured
  }
  ASSERT_GE(best, 0);
  ASSERT_GE(winner, 0);
  EXPECT_TRUE(runModelCell(model, best, RunConfigModel::kPickedBy).toString().contains(QStringLiteral("best")));
  EXPECT_EQ(runModelCell(model, best, RunConfigModel::kRegret).toString(), QStringLiteral("1.00"));
  EXPECT_EQ(runModelCell(model, winner, RunConfigModel::kTime).toString(), QStringLiteral("26.7"));
  EXPECT_TRUE(runModelCell(model, winner, RunConfigModel::kPickedBy).toString().contains(QStringLiteral("new")));
  EXPECT_GT(model.measured(winner)->regret, 1.0);
  EXPECT_DOUBLE_EQ(model.measured(winner)->best_us, model.measured(best)->row.measured.timeUs());
}

}  // namespace
}  // namespace occx::ui
