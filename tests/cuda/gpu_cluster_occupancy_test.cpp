// The driver's live occupancy answers (core/cuda/driver_occupancy.h) against the model: active
// blocks per SM and best block size on any GPU, max active clusters and the largest cluster size on
// CC 9.0+ — equal to the GPC-layout model on an H200, at most the naive bound elsewhere. Label
// "gpu": skips with the reason when there is no driver or GPU.
#include <gtest/gtest.h>

#include <string>

#include "core/cuda/driver_api.h"
#include "core/cuda/driver_occupancy.h"
#include "core/gpu/gpu_data.h"
#include "core/occupancy/clusters.h"
#include "core/occupancy/occupancy.h"
#include "tests/support/arch_support.h"

using namespace occx;

namespace {

std::string skipReason() {
  auto s = cuda::driverStatus();
  if (!s.available) return "no GPU: " + s.reason;
  if (s.device_count == 0) return "no GPU: the driver reports no device";
  return {};
}

// The layout of the GPU data when device 0 is the recorded kind of GPU (H200, 132 SMs); unknown otherwise.
ClusterLayout layoutFor(const DriverOccupancy& d) {
  if (d.device_name.find("H200") == std::string::npos || d.sm_count != 132) return {};
  const GpuSpec* g = GpuDatabase::builtin().findGpu("H200");
  return g != nullptr ? clusterLayoutOf(*g) : ClusterLayout{};
}

struct Launch {
  int registers;
  int threads;
  std::int64_t smem;
};

const Launch kLaunches[] = {{32, 256, 0},   {64, 128, 0},    {128, 256, 16384},
                            {255, 1024, 0}, {40, 96, 65536}, {32, 32, 0}};

}  // namespace

TEST(GpuDriverOccupancy, ActiveBlocksAndBestBlockSizeEqualTheModel) {
  if (std::string why = skipReason(); !why.empty()) GTEST_SKIP() << why;
  for (const Launch& l : kLaunches) {
    DriverOccupancyQuery q;
    q.registers_per_thread = l.registers;
    q.threads_per_block = l.threads;
    q.shared_memory_bytes = l.smem;
    auto d = cuda::queryDriverOccupancy(q);
    ASSERT_TRUE(d) << d.error();
    const ArchLimits* a = GpuDatabase::builtin().findArch(d->cc);
    ASSERT_NE(a, nullptr) << "no GPU data for CC " << d->cc.str();
    ASSERT_EQ(d->probe_registers, l.registers) << d->note;
    OccupancyInput in = test::occupancyInput(l.threads, d->probe_registers, 0, l.smem, -1, d->probe_block_barriers);
    in.sm_count = d->sm_count;
    auto ours = computeOccupancy(*a, in, false);
    ASSERT_TRUE(ours) << ours.error();
    EXPECT_EQ(d->active_blocks_per_sm, ours->active_blocks_per_sm)
        << d->device_name << ": " << l.registers << " registers, " << l.threads << " threads, " << l.smem << " B";
    auto best = bestBlockSize(*a, in);
    ASSERT_TRUE(best) << best.error();
    EXPECT_EQ(d->best_block_size, best->block_size) << l.registers << " registers, " << l.smem << " B";
    EXPECT_EQ(d->best_min_grid_size, best->min_grid_size) << l.registers << " registers, " << l.smem << " B";
  }
}

TEST(GpuDriverOccupancy, ClustersEqualTheModelOnTheRecordedGpu) {
  if (std::string why = skipReason(); !why.empty()) GTEST_SKIP() << why;
  int checked = 0;
  for (const Launch& l : kLaunches) {
    for (int c = 1; c <= 16; ++c) {
      DriverOccupancyQuery q;
      q.registers_per_thread = l.registers;
      q.threads_per_block = l.threads;
      q.shared_memory_bytes = l.smem;
      q.cluster_size = c;
      auto d = cuda::queryDriverOccupancy(q);
      ASSERT_TRUE(d) << d.error();
      if (d->cc.major < 9)
        GTEST_SKIP() << d->device_name << " is CC " << d->cc.str() << ": thread-block clusters need CC 9.0";
      const ArchLimits* a = GpuDatabase::builtin().findArch(d->cc);
      ASSERT_NE(a, nullptr);
      if (c > maxClusterSize(*a, true)) break;
      const ClusterLayout layout = layoutFor(*d);
      const std::int64_t model = maxActiveClusters(layout, d->sm_count, d->active_blocks_per_sm, c);
      if (layout.known()) {
        EXPECT_EQ(d->max_active_clusters, model) << d->device_name << ": " << l.registers << " registers, " << l.threads
                                                 << " threads, " << l.smem << " B, cluster size " << c;
      } else {
        EXPECT_LE(d->max_active_clusters, model) << "the naive bound is an upper bound";
      }
      OccupancyInput in = test::occupancyInput(l.threads, d->probe_registers, 0, l.smem, -1, 1);
      auto occ = computeOccupancy(*a, in, false);
      ASSERT_TRUE(occ);
      for (bool nonPortable : {false, true}) {
        auto r = computeClusters(*a, layout, d->sm_count, *occ, {1, nonPortable}, false);
        ASSERT_TRUE(r) << r.error();
        EXPECT_EQ(r->max_potential_cluster_size,
                  nonPortable ? d->max_potential_cluster_size_nonportable : d->max_potential_cluster_size_portable)
            << l.registers << " registers, " << l.threads << " threads";
      }
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

// The sample, on an H200: 1056, 528, 327, 248 … 58 clusters for sizes 1 … 16.
TEST(GpuDriverOccupancy, H200SampleFromTheRecording) {
  if (std::string why = skipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::int64_t recorded[] = {1056, 528, 327, 248, 193, 163, 139, 124, 102, 88, 81, 74, 67, 65, 58, 58};
  for (int c = 1; c <= 16; ++c) {
    DriverOccupancyQuery q;
    q.registers_per_thread = 32;
    q.threads_per_block = 256;
    q.cluster_size = c;
    auto d = cuda::queryDriverOccupancy(q);
    ASSERT_TRUE(d) << d.error();
    if (!layoutFor(*d).known())
      GTEST_SKIP() << d->device_name << " (" << d->sm_count << " SMs) is not the recorded H200";
    EXPECT_EQ(d->active_blocks_per_sm, 8);
    EXPECT_EQ(d->max_active_clusters, recorded[c - 1]) << "cluster size " << c;
  }
}

TEST(GpuDriverOccupancy, RefusesInputsOutOfRange) {
  DriverOccupancyQuery q;
  q.cluster_size = 17;
  auto d = cuda::queryDriverOccupancy(q);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error(), "cluster size 17 is out of range: allowed 0 (none) … 16");
  q.cluster_size = 0;
  q.registers_per_thread = 256;
  EXPECT_FALSE(cuda::queryDriverOccupancy(q));
}
