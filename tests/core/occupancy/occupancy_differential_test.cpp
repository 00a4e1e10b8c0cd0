// Exhaustive differential test: our calculator against the CUDA Toolkit's cuda_occupancy.h
// (cudaOccMaxActiveBlocksPerMultiprocessor), the reference the runtime agrees with.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"
#include "tests/support/arch_support.h"

#if defined(OCCX_HAVE_CUDA_OCCUPANCY_HEADER)
#include <cuda_occupancy.h>
#endif

using namespace occx;

#if defined(OCCX_HAVE_CUDA_OCCUPANCY_HEADER)
namespace {

cudaOccDeviceProp headerProps(const ArchLimits& a) {
  cudaOccDeviceProp p;
  p.computeMajor = a.cc.major;
  p.computeMinor = a.cc.minor;
  p.maxThreadsPerBlock = a.max_threads_per_block;
  p.maxThreadsPerMultiprocessor = a.maxThreadsPerSm();
  p.regsPerBlock = a.max_registers_per_block;
  p.regsPerMultiprocessor = a.registers_per_sm;
  p.warpSize = a.warp_size;
  p.sharedMemPerBlock = static_cast<size_t>(a.shared_memory_per_block);
  p.sharedMemPerMultiprocessor = static_cast<size_t>(a.shared_memory_per_sm);
  p.numSms = 1;
  p.sharedMemPerBlockOptin = static_cast<size_t>(a.shared_memory_per_block_optin);
  p.reservedSharedMemPerBlock = static_cast<size_t>(a.reserved_shared_memory_per_block);
  return p;
}

struct Counter {
  long compared = 0;
  long skipped = 0;  // inputs the header rejects (its error codes)
  long mismatches = 0;
};

void compareOne(const ArchLimits& a, const LeanLimits& lean, const cudaOccDeviceProp& props, const OccupancyInput& in,
                Counter& c) {
  cudaOccFuncAttributes attr;
  attr.maxThreadsPerBlock = a.max_threads_per_block;
  attr.numRegs = in.registers_per_thread;
  attr.sharedSizeBytes = static_cast<size_t>(in.static_smem_bytes);
  attr.partitionedGCConfig = PARTITIONED_GC_OFF;
  // A user who needs more than 48 KB opts in with cudaFuncSetAttribute(MaxDynamicSharedMemorySize).
  attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  attr.maxDynamicSharedSizeBytes = static_cast<size_t>(in.dynamic_smem_bytes);
  attr.numBlockBarriers = in.block_barriers;
  cudaOccDeviceState state;
  state.carveoutConfig = in.carveout_percent;
  cudaOccResult ref{};
  cudaOccError err = cudaOccMaxActiveBlocksPerMultiprocessor(&ref, &props, &attr, &state, in.threads_per_block,
                                                             static_cast<size_t>(in.dynamic_smem_bytes));
  if (err != CUDA_OCC_SUCCESS) {
    ++c.skipped;
    return;
  }
  auto ours = computeOccupancy(a, in, false);
  const ActiveBlocks fast = activeBlocksPerSm(lean, in);  // the sweeps' path: the same answer
  ++c.compared;
  // Our documented choice: when the barrier limit (CC >= 9.0) is below every other limit, only
  // barriers are named; the header keeps the flags it set before applying barriers
  // (OccupancyHopper.BarriersLimitFromCC90 tests this on its own).
  unsigned expected = ref.limitingFactors;
  const int others = std::min({ref.blockLimitRegs, ref.blockLimitSharedMem, ref.blockLimitWarps, ref.blockLimitBlocks});
  if (ref.blockLimitBarriers < others) expected = OCC_LIMIT_BARRIERS;
  if (!ours || ours->active_blocks_per_sm != ref.activeBlocksPerMultiprocessor || ours->limiters != expected ||
      fast.active_blocks_per_sm != ref.activeBlocksPerMultiprocessor || fast.limiters != expected) {
    if (++c.mismatches <= 10) {
      ADD_FAILURE() << "CC " << a.cc.str() << " threads " << in.threads_per_block << " regs " << in.registers_per_thread
                    << " static " << in.static_smem_bytes << " dynamic " << in.dynamic_smem_bytes << " carveout "
                    << in.carveout_percent << " barriers " << in.block_barriers << ": header "
                    << ref.activeBlocksPerMultiprocessor << " blocks (" << limiterNames(ref.limitingFactors)
                    << "), ours "
                    << (ours ? std::to_string(ours->active_blocks_per_sm) + " (" + limiterNames(ours->limiters) + ")"
                             : "error " + ours.error());
    }
  }
}

std::vector<int> blockSizes() {
  std::vector<int> v;
  for (int t = 32; t <= 1024; t += 32) v.push_back(t);                                        // every warp multiple
  for (int t : {1, 17, 31, 33, 65, 100, 129, 250, 333, 513, 700, 999, 1023}) v.push_back(t);  // a sample of others
  return v;
}

}  // namespace

// Registers 0 … 255 × every block size, no shared memory, every carveout preference class.
TEST(OccupancyDifferential, EveryCCxBlockSizexRegistersAgreesWithCudaOccupancyHeader) {
  Counter c;
  for (const auto& a : GpuDatabase::builtin().architectures()) {
    auto props = headerProps(a);
    const LeanLimits lean(a);  // prepared once per architecture, as the sweeps do
    for (int threads : blockSizes()) {
      for (int regs = 0; regs <= 255; ++regs) {
        for (int carveout : {-1, 0, 50, 100}) {
          compareOne(a, lean, props, test::occupancyInput(threads, regs, 0, 0, carveout), c);
        }
      }
    }
  }
  std::printf("[differential] registers grid: %ld cases compared, %ld rejected by the header, %ld mismatches\n",
              c.compared, c.skipped, c.mismatches);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_GT(c.compared, 800000);
}

// Shared memory: a grid of static/dynamic sizes (unit boundaries, the 48 KB edge, the opt-in
// maximum and one over) × carveouts × barriers × block sizes × a register sample.
TEST(OccupancyDifferential, SharedMemoryCarveoutBarrierGridAgreesWithCudaOccupancyHeader) {
  Counter c;
  for (const auto& a : GpuDatabase::builtin().architectures()) {
    auto props = headerProps(a);
    const LeanLimits lean(a);  // prepared once per architecture, as the sweeps do
    const std::int64_t unit = a.shared_memory_allocation_unit;
    const std::int64_t optin = a.shared_memory_per_block_optin;
    std::vector<std::int64_t> statics = {0, 1, unit, 4096, 12345, 49152};
    std::vector<std::int64_t> dynamics = {
        0,     1,          unit - 1, unit,          unit + 1,     8191,      16384, 30000,    47 * 1024, 49152 - 1024,
        65536, 100 * 1024, 131000,   optin - 49152, optin - 1024, optin - 1, optin, optin + 1};
    for (int threads : {32, 64, 96, 128, 256, 384, 512, 768, 1024, 100}) {
      for (int regs : {0, 16, 32, 40, 64, 128, 255}) {
        for (std::int64_t s : statics) {
          for (std::int64_t d : dynamics) {
            if (d < 0) continue;
            for (int carveout : {-1, 0, 10, 25, 33, 50, 75, 100}) {
              for (int barriers : {0, 1, 2, 5}) {
                compareOne(a, lean, props, test::occupancyInput(threads, regs, s, d, carveout, barriers), c);
              }
            }
          }
        }
      }
    }
  }
  std::printf("[differential] shared-memory grid: %ld cases compared, %ld rejected by the header, %ld mismatches\n",
              c.compared, c.skipped, c.mismatches);
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_GT(c.compared, 1000000);
}
// Best block size against cudaOccMaxPotentialOccupancyBlockSize: every CC × registers 0 … 255 ×
// dynamic shared memory × block-size limit × barriers.
TEST(OccupancyDifferential, BestBlockSizeAgreesWithCudaOccupancyHeaderOnEveryCC) {
  long compared = 0, skipped = 0, mismatches = 0;
  for (const auto& a : GpuDatabase::builtin().architectures()) {
    cudaOccDeviceProp props = headerProps(a);
    props.numSms = 100;
    for (int regs = 0; regs <= 255; ++regs) {
      for (std::int64_t dyn : {std::int64_t{0}, std::int64_t{1000}, std::int64_t{16384}, std::int64_t{49152},
                               a.shared_memory_per_block_optin}) {
        for (int limit : {0, 100, 256, 512}) {
          for (int barriers : {1, 6}) {
            cudaOccFuncAttributes attr;
            attr.maxThreadsPerBlock = limit == 0 ? a.max_threads_per_block : limit;
            attr.numRegs = regs;
            attr.sharedSizeBytes = 0;
            attr.partitionedGCConfig = PARTITIONED_GC_OFF;
            attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
            attr.maxDynamicSharedSizeBytes = static_cast<size_t>(dyn);
            attr.numBlockBarriers = barriers;
            cudaOccDeviceState state;
            int grid = 0, block = 0;
            if (cudaOccMaxPotentialOccupancyBlockSize(&grid, &block, &props, &attr, &state, static_cast<size_t>(dyn)) !=
                CUDA_OCC_SUCCESS) {
              ++skipped;
              continue;
            }
            OccupancyInput in = test::occupancyInput(32, regs, 0, dyn, -1, barriers);
            in.sm_count = 100;
            auto ours = bestBlockSize(a, in, limit);
            ++compared;
            if (!ours || ours->block_size != block || ours->min_grid_size != grid) {
              if (++mismatches <= 10) {
                ADD_FAILURE() << "CC " << a.cc.str() << " regs " << regs << " dynamic " << dyn << " limit " << limit
                              << " barriers " << barriers << ": header block " << block << " grid " << grid << ", ours "
                              << (ours ? std::to_string(ours->block_size) + " grid " +
                                             std::to_string(ours->min_grid_size)
                                       : "error " + ours.error());
              }
            }
          }
        }
      }
    }
  }
  std::printf("[differential] best block size: %ld cases compared, %ld rejected by the header, %ld mismatches\n",
              compared, skipped, mismatches);
  EXPECT_EQ(mismatches, 0);
  EXPECT_GT(compared, 150000);
}
#else
TEST(OccupancyDifferential, EveryCCxBlockSizexRegistersAgreesWithCudaOccupancyHeader) {
  GTEST_SKIP() << "cuda_occupancy.h not found (CUDA Toolkit absent): the differential test needs it";
}
#endif
