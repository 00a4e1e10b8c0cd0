// The bundled H200 datasets (resources/datasets/*.csv) open without a GPU: every file parses as a
// live sweep, says where and when it was measured, and replays to the figures recorded in the
// closing note of the live-runs issue.
#include <gtest/gtest.h>

#include <filesystem>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/sweep/live_results.h"

using namespace occx;

namespace {

Expected<LiveDataset> load(const std::string& name) {
  auto text = readFile(std::string(OCCX_SOURCE_DIR) + "/resources/datasets/" + name);
  if (!text) return Error{text.error()};
  auto table = parseCsv(*text);
  if (!table) return Error{table.error()};
  return liveDatasetFromCsv(*table);
}

}  // namespace

TEST(BundledDatasets, EveryFileOpensWithItsProvenance) {
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(OCCX_SOURCE_DIR) + "/resources/datasets")) {
    if (entry.path().extension() != ".csv") continue;
    ++files;
    SCOPED_TRACE(entry.path().filename().string());
    auto d = load(entry.path().filename().string());
    ASSERT_TRUE(d) << d.error();
    EXPECT_EQ(d->metaValue("device"), "NVIDIA H200");
    EXPECT_EQ(d->metaValue("driver"), "580.159.04");
    EXPECT_EQ(d->metaValue("toolkit"), "NVRTC 13.0");
    // Measured on 2026-11-29; mean_var again on 2026-11-30 after its Welford change.
    const bool remeasured = entry.path().filename() == "h200_mean_var_fp16_32768x8192.csv";
    EXPECT_EQ(d->metaValue("date_utc").rfind(remeasured ? "2026-11-30T" : "2026-11-29T", 0), 0u) << d->metaValue("date_utc");
    EXPECT_FALSE(d->metaValue("copy_bandwidth_GBps").empty());
    ASSERT_FALSE(d->rows.empty());
    for (const auto& r : d->rows) {
      EXPECT_EQ(r.status, RunStatus::kOk) << r.config.label() << ": " << r.reason;
      EXPECT_GT(r.time.median_us, 0.0);
    }
  }
  EXPECT_EQ(files, 6);
}

TEST(BundledDatasets, RowSumReplaysToTheRecordedBest) {
  auto d = load("h200_sum_fp16_32768x8192.csv");
  ASSERT_TRUE(d) << d.error();
  ASSERT_EQ(d->rows.size(), 45u);
  auto s = summarizeReplay(d->rows);
  ASSERT_GE(s.best_row, 0);
  const auto& best = d->rows[static_cast<std::size_t>(s.best_row)];
  EXPECT_EQ(best.config.xblock, 1);
  EXPECT_EQ(best.config.rblock, 8192);
  EXPECT_EQ(best.config.num_warps, 8);
  EXPECT_DOUBLE_EQ(s.best_time_us, 128.8);
  // Inductor's one candidate (XBLOCK 1, R0_BLOCK 2048, 16 warps, 20 registers: no scaling under any
  // bound) is every policy's pick: 179.424 us, regret 179.424 / 128.8.
  for (const auto& p : s.picks) {
    SCOPED_TRACE(std::string(inductor::policyKey(p.policy)));
    EXPECT_EQ(p.candidates, 1);
    ASSERT_GE(p.row, 0);
    EXPECT_EQ(d->rows[static_cast<std::size_t>(p.row)].config.rblock, 2048);
    EXPECT_DOUBLE_EQ(p.time_us, 179.424);
    EXPECT_DOUBLE_EQ(p.regret, 179.424 / 128.8);
  }
}

TEST(BundledDatasets, SpillCaseHalvingRemovesTheSpills) {
  auto d = load("h200_spill_log_softmax_fp32_264x30000.csv");
  ASSERT_TRUE(d) << d.error();
  auto find = [&](int rblock, int warps) -> const LiveRow* {
    for (const auto& r : d->rows) {
      if (r.config.xblock == 1 && r.config.rblock == rblock && r.config.num_warps == warps) return &r;
    }
    return nullptr;
  };
  const LiveRow* spilling = find(32768, 16);
  const LiveRow* halved = find(16384, 16);
  ASSERT_NE(spilling, nullptr);
  ASSERT_NE(halved, nullptr);
  EXPECT_EQ(spilling->registers, 128);
  EXPECT_EQ(spilling->spill_stores_bytes, 156);
  EXPECT_EQ(halved->spill_stores_bytes, 0);
  EXPECT_EQ(halved->spill_loads_bytes, 0);
  EXPECT_DOUBLE_EQ(spilling->time.median_us, 46.336);
  EXPECT_DOUBLE_EQ(halved->time.median_us, 40.608);
  // The spills show in CUPTI's local-memory traffic; the halved config has none.
  ASSERT_TRUE(spilling->local_store_bytes.value.has_value());
  EXPECT_GT(*spilling->local_store_bytes.value, 0.0);
  ASSERT_TRUE(halved->local_store_bytes.value.has_value());
  EXPECT_EQ(*halved->local_store_bytes.value, 0.0);
}
