#include <gtest/gtest.h>

#include "core/gpu/gpu_data.h"

using namespace occx;

TEST(GpuData, BuiltinParsesAndHasEveryComputeCapability) {
  const auto& db = GpuDatabase::builtin();
  EXPECT_EQ(db.ccList(), "5.0, 5.2, 5.3, 6.0, 6.1, 6.2, 7.0, 7.2, 7.5, 8.0, 8.6, 8.7, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0, 12.1");
  for (const char* name : {"T4", "V100", "A100-SXM-40GB", "A100-SXM-80GB", "A10", "L4", "L40S", "RTX-3090", "RTX-4090",
                           "H100-SXM", "H100-PCIe", "H200", "GH200", "B200", "RTX-5090"}) {
    EXPECT_NE(db.findGpu(name), nullptr) << name;
  }
  const GpuSpec* h200 = db.findGpu("h200");
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200->sm_count, 132);
  EXPECT_EQ(h200->cc, (ComputeCapability{9, 0}));
  const ArchLimits* hopper = db.findArch({9, 0});
  ASSERT_NE(hopper, nullptr);
  EXPECT_EQ(hopper->shared_memory_per_sm, 233472);
  EXPECT_EQ(hopper->shared_memory_per_block_optin, 232448);
  EXPECT_EQ(hopper->reserved_shared_memory_per_block, 1024);
  EXPECT_EQ(hopper->max_blocks_per_sm, 32);
  EXPECT_EQ(hopper->sources.at("max_warps_per_sm"), "PG; HDR maxThreadsPerMultiprocessor/warpSize");
}
