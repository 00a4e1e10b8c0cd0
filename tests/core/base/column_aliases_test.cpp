// One key per concept in every CSV, and the keys files were saved under before still read
// (columnAliases): registers_per_thread ← registers / n_regs / nregs, theoretical_occupancy_pct ←
// occupancy_percent / occupancy_pct, smem_bytes ← static_smem_bytes / shared_bytes,
// active_blocks_per_sm ← blocks_per_sm, driver_active_blocks_per_sm ← driver_blocks_per_sm.
#include <gtest/gtest.h>

#include <string>

#include "core/base/atomic_file.h"
#include "core/base/columns.h"
#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/report.h"
#include "core/sweep/live_results.h"
#include "core/triton/kernel_measurements.h"
#include "core/triton/run_table.h"

namespace occx {
namespace {

// The table with header `from` renamed to `to` (the column must be there).
CsvTable renamed(CsvTable t, const std::string& from, const std::string& to) {
  const int c = t.column(from);
  EXPECT_GE(c, 0) << from;
  if (c >= 0) t.header[static_cast<std::size_t>(c)] = to;
  return t;
}

TEST(ColumnAliases, FindColumnTriesTheKeyThenItsAliases) {
  CsvTable t;
  t.header = {"n_regs", "occupancy_percent", "registers_per_thread"};
  EXPECT_EQ(findColumn(t, "registers_per_thread"), 2);  // the current key wins over an alias
  EXPECT_EQ(findColumn(t, "theoretical_occupancy_pct"), 1);
  EXPECT_EQ(findColumn(t, "smem_bytes"), -1);
  EXPECT_EQ(columnAliases("registers_per_thread"), (std::vector<std::string>{"registers", "n_regs", "nregs"}));
  EXPECT_TRUE(columnAliases("time_us").empty());
}

TEST(ColumnAliases, ALiveSweepDatasetSavedWithTheOldKeysOpens) {
  LiveDataset d;
  LiveRow r;
  r.config.xblock = 1;
  r.config.rblock = 2048;
  r.config.num_warps = 16;
  r.registers = 38;
  r.static_smem_bytes = 64;
  r.theoretical_occupancy_pct = 75.0;
  r.measured.status = RunStatus::kOk;
  r.measured.time.median_us = 128.625;
  d.rows.push_back(r);
  CsvTable t = liveDatasetToCsv(d);
  EXPECT_GE(t.column("registers_per_thread"), 0);
  EXPECT_GE(t.column("smem_bytes"), 0);
  t = renamed(renamed(t, "registers_per_thread", "registers"), "smem_bytes", "static_smem_bytes");
  auto back = liveDatasetFromCsv(t);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->rows.front().registers, 38);
  EXPECT_EQ(back->rows.front().static_smem_bytes, 64);
  EXPECT_DOUBLE_EQ(back->rows.front().theoretical_occupancy_pct, 75.0);
}

TEST(ColumnAliases, AConceptUnderTwoOfItsNamesIsRefusedNotGuessed) {
  // registers_per_thread and its old key registers in one file: which one the file means is unknown.
  LiveDataset d;
  LiveRow r;
  r.config.xblock = 1;
  r.config.rblock = 2048;
  r.config.num_warps = 16;
  r.registers = 38;
  d.rows.push_back(r);
  CsvTable t = liveDatasetToCsv(d);
  const int at = t.column("registers_per_thread");
  ASSERT_GE(at, 0);
  t.header.push_back("registers");
  for (auto& row : t.rows) row.push_back("40");
  auto back = liveDatasetFromCsv(t);
  ASSERT_FALSE(back);
  EXPECT_EQ(back.error(), "live-sweep dataset: column 'registers_per_thread' appears twice in the header (columns " +
                              std::to_string(at + 1) + " 'registers_per_thread' and " +
                              std::to_string(t.header.size()) + " 'registers')");
  EXPECT_EQ(duplicateColumn(t, "time_us"), std::nullopt);
}

TEST(ColumnAliases, AKernelRunsCsvSavedWithTheOldKeysOpens) {
  triton::KernelMeasurements res;
  triton::MeasuredConfig r;
  r.kernel = "triton_red_fused_sum_0";
  r.module = "abc";
  r.xblock = 1;
  r.r0_block = 2048;
  r.num_warps = 16;
  r.n_regs = 38;
  r.occupancy_pct = 75.0;
  r.measured.driver_active_blocks_per_sm = 3;
  r.measured.status = RunStatus::kOk;
  r.measured.time.median_us = 130.0;
  res.rows.push_back(r);
  CsvTable t = triton::measurementsToCsv(res);
  t = renamed(renamed(renamed(t, "registers_per_thread", "n_regs"), "theoretical_occupancy_pct", "occupancy_pct"),
              "driver_active_blocks_per_sm", "driver_blocks_per_sm");
  auto back = triton::measurementsFromCsv(t);
  ASSERT_TRUE(back) << back.error();
  EXPECT_EQ(back->rows.front().n_regs, 38);
  EXPECT_DOUBLE_EQ(back->rows.front().occupancy_pct, 75.0);
  EXPECT_EQ(back->rows.front().measured.driver_active_blocks_per_sm, 3);
}

TEST(ColumnAliases, TheBundledScanCsvsWrittenWithTheOldKeysOpen) {
  // resources/inductor-runs/spill_log_softmax.csv was written with n_regs, shared_bytes,
  // blocks_per_sm and occupancy_pct.
  auto text = readFile(std::string(OCCX_SOURCE_DIR) + "/resources/inductor-runs/spill_log_softmax.csv");
  ASSERT_TRUE(text) << text.error();
  auto table = parseCsv(*text);
  ASSERT_TRUE(table) << table.error();
  for (const char* old_key : {"n_regs", "shared_bytes", "blocks_per_sm", "occupancy_pct"}) {
    EXPECT_GE(table->column(old_key), 0) << old_key;
  }
  auto rows = triton::scanFromCsv(*table);
  ASSERT_TRUE(rows) << rows.error();
  bool spilling = false;
  for (const auto& r : *rows) {
    // The spill case: R0_BLOCK 32768, 32 warps → 64 registers, 50 spills on the H200.
    if (r.r0_block == 32768) {
      EXPECT_EQ(r.n_regs, 64);
      EXPECT_TRUE(r.blocks_per_sm.has_value());
      EXPECT_TRUE(r.occupancy_pct.has_value());
      spilling = true;
    }
  }
  EXPECT_TRUE(spilling);
}

TEST(ColumnAliases, TheBatchInputReadsEveryRegisterKey) {
  // The H200 anchor: 38 registers → the new bound scales (3 × 132 = 396 < 512), whatever the key.
  for (const char* key : {"registers_per_thread", "n_regs", "nregs"}) {
    CsvTable in;
    in.header = {"xnumel", "rnumel", "xblock", "rblock", "num_warps", key, "gpu"};
    in.rows = {{"512", "8192", "1", "2048", "16", "38", "H200"}};
    inductor::BatchOptions b;
    b.db = &GpuDatabase::builtin();
    auto out = inductor::decideCsvBatch(in, b);
    ASSERT_TRUE(out) << key << ": " << out.error();
    EXPECT_EQ(out->rows[0][static_cast<std::size_t>(out->column("new_bound_blocks_per_sm"))], "3") << key;
    EXPECT_EQ(out->rows[0][static_cast<std::size_t>(out->column("new_decision"))], "scale") << key;
  }
}

}  // namespace
}  // namespace occx
