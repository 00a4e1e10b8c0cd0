// The GPU data as one table (the GUI's "GPU data" tab and its CSV): every limit with its source.
#include <gtest/gtest.h>

#include "core/gpu/gpu_data.h"
#include "core/gpu/gpu_data_table.h"

using namespace occx;

namespace {
const std::vector<std::string>* findRow(const CsvTable& t, const std::string& entry, const std::string& field) {
  for (const auto& r : t.rows) {
    if (r[0] == entry && r[3] == field) return &r;
  }
  return nullptr;
}
}  // namespace

TEST(GpuDataTable, EveryLimitOfEveryCcWithItsSourceThenTheGpus) {
  const GpuDatabase& db = GpuDatabase::builtin();
  const CsvTable t = gpuDataTable(db);
  ASSERT_EQ(t.header, (std::vector<std::string>{"entry", "kind", "compute_capability", "field", "value", "source"}));
  std::size_t archRows = 0;
  for (const auto& r : t.rows) archRows += r[1] == "architecture";
  EXPECT_EQ(archRows, 17 * db.architectures().size());
  const auto* blocks = findRow(t, "CC 9.0 (Hopper)", "max_blocks_per_sm");
  ASSERT_NE(blocks, nullptr);
  EXPECT_EQ((*blocks)[4], "32");
  EXPECT_EQ((*blocks)[5], "PG; HDR cudaOccMaxBlocksPerMultiprocessor");
  const auto* carveout = findRow(t, "CC 9.0 (Hopper)", "shared_memory_carveout_kb");
  ASSERT_NE(carveout, nullptr);
  EXPECT_EQ((*carveout)[4], "0 8 16 32 64 100 132 164 196 228");
  const auto* sms = findRow(t, "H200", "sm_count");
  ASSERT_NE(sms, nullptr);
  EXPECT_EQ((*sms)[4], "132");
  const auto* layout = findRow(t, "H200", "cluster_gpc_sm_counts");
  ASSERT_NE(layout, nullptr);
  EXPECT_EQ((*layout)[4], "18 18 16 16 16 16 16 8 2 2 2 2");
  EXPECT_EQ(findRow(t, "H100 SXM5", "cluster_gpc_sm_counts"), nullptr);  // not recorded
}
