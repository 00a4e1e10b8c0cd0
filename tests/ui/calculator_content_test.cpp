// What the calculator shows, computed without widgets (ui/models/calculator_content): the figures
// for one set of inputs, the rows of its tables, the headline, the status line, the CSV tables and
// the driver's question and lines. Numbers as in calculator_view_test: H100 SXM5 and H200 (CC 9.0,
// 64 warps and 65536 registers per SM, 132 SMs), 256 threads × 32 registers → 8 blocks, 100 %.
#include <gtest/gtest.h>

#include "core/gpu/gpu_data.h"
#include "ui/models/calculator_content.h"

namespace occx::ui {
namespace {

const ArchLimits& calcArch(int major, int minor) {
  const ArchLimits* a = GpuDatabase::builtin().findArch({major, minor});
  EXPECT_NE(a, nullptr);
  return *a;
}

OccupancyInput calcLaunch(int threads, int registers, int sm_count) {
  OccupancyInput in;
  in.threads_per_block = threads;
  in.registers_per_thread = registers;
  in.block_barriers = 1;
  in.sm_count = sm_count;
  return in;
}

CalculatorFigures calcFigures(const ArchLimits& a, const OccupancyInput& in, const GpuSpec* gpu, int cluster_size) {
  CalculatorFigures f;
  computeCalculatorFigures(a, in, gpu, {cluster_size, false}, f);
  return f;
}

TEST(CalculatorContent, FiguresOfAFullOccupancyLaunch) {
  const ArchLimits& a = calcArch(9, 0);
  const OccupancyInput in = calcLaunch(256, 32, 132);
  const CalculatorFigures f = calcFigures(a, in, GpuDatabase::builtin().findGpu("H100 SXM5"), 0);
  EXPECT_TRUE(f.result.can_launch);
  EXPECT_EQ(f.result.active_blocks_per_sm, 8);
  EXPECT_DOUBLE_EQ(f.result.occupancy, 1.0);
  EXPECT_TRUE(f.input_error.isEmpty());
  EXPECT_FALSE(f.block_size.empty());
  EXPECT_FALSE(f.registers.empty());
  EXPECT_FALSE(f.shared_memory.empty());
  EXPECT_FALSE(f.barriers.empty());
  EXPECT_FALSE(f.clusters.has_value());
  EXPECT_EQ(f.clusters_note, QStringLiteral("set a cluster size"));
  EXPECT_GT(f.best.block_size, 0);

  const CalculatorHeadline h = calculatorHeadline(f.result, f.input_error);
  EXPECT_EQ(h.value, QStringLiteral("100.0 %"));
  EXPECT_TRUE(h.detail.startsWith(QStringLiteral("64 of 64 warps per SM active")));
  EXPECT_TRUE(h.validation.isEmpty());
  EXPECT_EQ(calculatorSummary(QStringLiteral("H100"), in, f.result),
            QStringLiteral("H100 · 256 threads, 32 registers, 0 B shared memory · occupancy 100.0 % (64 of 64 warps), "
                           "limited by ") +
                QString::fromStdString(limiterNames(f.result.limiters)));
  EXPECT_EQ(calculatorExportSubtitle(QStringLiteral("H100"), in),
            QStringLiteral("H100 · 256 threads, 32 registers, 0 B shared"));
  // Where shared memory is shown, the 1 KB the runtime reserves per block (CC 8.0 on) is said too.
  EXPECT_EQ(f.reserved_smem_bytes, 1024);
  EXPECT_TRUE(
      calculatorSummary(QStringLiteral("H100"), in, f.result, f.reserved_smem_bytes)
          .startsWith(QStringLiteral("H100 · 256 threads, 32 registers, 0 B shared memory + 1 KB reserved · ")));
  const QString html = calculatorDerivationHtml(QStringLiteral("H100 <SXM5>"), in, f);
  EXPECT_TRUE(html.contains(QStringLiteral("<b>H100 &lt;SXM5&gt;</b>")));
  EXPECT_TRUE(html.contains(QStringLiteral("0 B dynamic shared memory (+ 1 KB the CUDA runtime reserves per block).")))
      << html.toStdString();
  EXPECT_TRUE(html.endsWith(QStringLiteral("</ol>")));
}

TEST(CalculatorContent, LimitRowsMarkTheLimitersOrTheBlocker) {
  const ArchLimits& a = calcArch(9, 0);
  OccupancyInput in = calcLaunch(256, 32, 132);
  const auto rows = calculatorLimitRows(a, in, calcFigures(a, in, nullptr, 0).result);
  ASSERT_EQ(rows.size(), 5u);  // warps, block slots, registers, shared memory, barriers (CC 9.0)
  EXPECT_EQ(rows[0].cells.front(), QStringLiteral("Warps (64 per SM)"));
  EXPECT_EQ(rows[0].mark, CalculatorRow::Mark::kLimiter);
  EXPECT_EQ(rows[1].mark, CalculatorRow::Mark::kNone);
  EXPECT_EQ(rows[2].cells, (QStringList{QStringLiteral("Registers (65536 per SM)"), QStringLiteral("8"),
                                        QStringLiteral("8192 registers")}));
  EXPECT_EQ(rows[2].mark, CalculatorRow::Mark::kLimiter);
  EXPECT_EQ(rows[4].cells[2], QStringLiteral("1 barrier"));

  // 1024 threads × 255 registers do not fit the register file: the registers stop the launch.
  in = calcLaunch(1024, 255, 132);
  const CalculatorFigures blocked = calcFigures(a, in, nullptr, 0);
  ASSERT_FALSE(blocked.result.can_launch);
  const auto blocked_rows = calculatorLimitRows(a, in, blocked.result);
  EXPECT_EQ(blocked_rows[2].mark, CalculatorRow::Mark::kBlocker);
  const CalculatorHeadline h = calculatorHeadline(blocked.result, blocked.input_error);
  EXPECT_EQ(h.value, QStringLiteral("Cannot launch"));
  EXPECT_TRUE(h.validation.startsWith(QStringLiteral("<b>Cannot launch:</b> "))) << h.validation.toStdString();
  EXPECT_TRUE(calculatorSummary(QStringLiteral("H100"), in, blocked.result).endsWith(QStringLiteral("cannot launch")));

  // Below CC 9.0 the barriers are not counted.
  const ArchLimits& ampere = calcArch(8, 0);
  const OccupancyInput ampere_in = calcLaunch(256, 32, 108);
  const auto old_rows = calculatorLimitRows(ampere, ampere_in, calcFigures(ampere, ampere_in, nullptr, 0).result);
  EXPECT_EQ(old_rows.back().cells,
            (QStringList{QStringLiteral("Barriers"), QStringLiteral("—"), QStringLiteral("from CC 9.0 on")}));
}

TEST(CalculatorContent, DetailRowsSayWhatTheWavesNeed) {
  const ArchLimits& a = calcArch(9, 0);
  OccupancyInput in = calcLaunch(256, 32, 132);
  auto rows = calculatorDetailRows(a, in, calcFigures(a, in, nullptr, 0).result);
  ASSERT_EQ(rows.size(), 10u);
  EXPECT_EQ(rows[8].cells,
            (QStringList{QStringLiteral("Max active blocks on the GPU"), QStringLiteral("1056 (8 × 132 SMs)")}));
  EXPECT_EQ(rows[9].cells[1], QStringLiteral("set grid blocks"));
  in.grid_blocks = 2000;  // 2000 / 1056 = 1.89 waves
  rows = calculatorDetailRows(a, in, calcFigures(a, in, nullptr, 0).result);
  EXPECT_EQ(rows[9].cells[1], QStringLiteral("1.89 (grid of 2000 blocks)"));
  in.sm_count = 0;  // a compute capability, not a GPU
  rows = calculatorDetailRows(a, in, calcFigures(a, in, nullptr, 0).result);
  EXPECT_EQ(rows[8].cells[1], QStringLiteral("needs a GPU's SM count"));
  EXPECT_EQ(rows[9].cells[1], QStringLiteral("needs a GPU's SM count"));
}

TEST(CalculatorContent, ClustersWithTheGpcLayoutAndTheDriverBeside) {
  const ArchLimits& a = calcArch(9, 0);
  const OccupancyInput in = calcLaunch(256, 32, 132);
  const CalculatorFigures f = calcFigures(a, in, GpuDatabase::builtin().findGpu("H200"), 4);
  ASSERT_TRUE(f.clusters.has_value());
  EXPECT_TRUE(f.layout.known());
  EXPECT_EQ(f.clusters->max_active_clusters, 248);  // 2 × 36 + 5 × 32 + 16
  auto rows = calculatorClusterRows(f, std::nullopt, false);
  ASSERT_EQ(rows.size(), 6u);  // 4 cluster rows, best block size, smallest grid
  EXPECT_EQ(rows[0].cells,
            (QStringList{QStringLiteral("Max active clusters (size 4)"), QStringLiteral("248"), QStringLiteral("—")}));
  EXPECT_EQ(rows[3].cells[0], QStringLiteral("Largest cluster that can launch (portable)"));
  DriverOccupancy d;
  d.max_active_clusters = 248;
  d.active_blocks_per_sm = 8;
  rows = calculatorClusterRows(f, d, true);
  ASSERT_EQ(rows.size(), 7u);  // and the driver's active blocks per SM
  EXPECT_EQ(rows[0].cells[2], QStringLiteral("248"));
  EXPECT_EQ(rows[1].cells[2], QStringLiteral("992"));  // 248 clusters × 4 blocks
  EXPECT_EQ(rows[3].cells[0], QStringLiteral("Largest cluster that can launch (non-portable)"));
  EXPECT_EQ(rows[6].cells,
            (QStringList{QStringLiteral("Active blocks per SM"), QStringLiteral("8"), QStringLiteral("8")}));

  // Why there are none: no SM count, or an architecture without clusters.
  EXPECT_EQ(calcFigures(a, calcLaunch(256, 32, 0), nullptr, 4).clusters_note,
            QStringLiteral("clusters need a GPU's SM count: pick a GPU"));
  const CalculatorFigures ampere = calcFigures(calcArch(8, 0), calcLaunch(256, 32, 108), nullptr, 4);
  EXPECT_EQ(ampere.clusters_note, QStringLiteral("CC 8.0 has no thread-block clusters (CC 9.0 and later)"));
  EXPECT_EQ(calculatorClusterRows(ampere, std::nullopt, false)[0].cells[1], ampere.clusters_note);
}

TEST(CalculatorContent, CsvTablesNameTheTarget) {
  const ArchLimits& a = calcArch(9, 0);
  const OccupancyInput in = calcLaunch(256, 32, 132);
  const CalculatorFigures f = calcFigures(a, in, GpuDatabase::builtin().findGpu("H200"), 4);
  DriverOccupancy d;
  d.max_active_clusters_by_size = {264, 264, 176, 248};
  const CalculatorCsv csv = calculatorCsv(a, QStringLiteral("H200 (CC 9.0, 132 SMs)"), in, f, {4, false}, d);
  for (const CsvTable* t : {&csv.result, &csv.curves, &csv.barriers, &csv.clusters}) {
    ASSERT_FALSE(t->meta.empty());
    EXPECT_EQ(t->meta.front(), (std::pair<std::string, std::string>{"target", "H200 (CC 9.0, 132 SMs)"}));
  }
  EXPECT_EQ(csv.barriers.rows.size(), f.barriers.size());
  EXPECT_EQ(csv.clusters.header.back(), "driver_max_active_clusters");
  ASSERT_EQ(csv.clusters.rows.size(), f.clusters_curve.size());
  EXPECT_EQ(csv.clusters.rows[3].back(), "248");  // size 4: the driver's figure
  EXPECT_EQ(csv.clusters.rows[4].back(), "");     // size 5: not asked
}

TEST(CalculatorContent, TheDriversQuestionAndLines) {
  const ArchLimits& a = calcArch(9, 0);
  OccupancyInput in = calcLaunch(256, 40, 132);
  in.static_smem_bytes = 1024;
  in.dynamic_smem_bytes = 4096;
  const DriverOccupancyQuery q = driverQueryFor(a, in, 2);
  EXPECT_EQ(q.registers_per_thread, 40);
  EXPECT_EQ(q.threads_per_block, 256);
  EXPECT_EQ(q.shared_memory_bytes, 5120);
  EXPECT_EQ(q.cluster_size, 2);
  EXPECT_TRUE(q.every_cluster_size);
  EXPECT_FALSE(driverQueryFor(calcArch(8, 0), in, 0).every_cluster_size);

  DriverOccupancy d;
  d.device_name = "NVIDIA H200";
  d.cc = {9, 0};
  d.sm_count = 132;
  d.note = "probe of 40 registers";
  EXPECT_EQ(driverAnswerText(d, 132, {9, 0}),
            QStringLiteral("Driver of NVIDIA H200 (CC 9.0, 132 SMs): probe of 40 registers."));
  EXPECT_TRUE(
      driverAnswerText(d, 114, {9, 0}).endsWith(QStringLiteral("It is not the selected target: compare with care.")));

  EXPECT_EQ(driverWaitingText(nullptr, true, false), QStringLiteral("No driver here: the model's figures only."));
  const Availability none{false, "no GPU (test)"};
  EXPECT_EQ(driverWaitingText(&none, true, false), QStringLiteral("No driver here: no GPU (test)"));
  const Availability here{true, {}};
  EXPECT_EQ(driverWaitingText(&here, false, false),
            QStringLiteral("Pick the detected GPU to compare with its driver."));
  EXPECT_EQ(driverWaitingText(&here, true, false), QStringLiteral("Ask the driver for its figures."));
  EXPECT_EQ(driverWaitingText(&here, true, true), QStringLiteral("The inputs changed: ask again."));
}

}  // namespace
}  // namespace occx::ui
