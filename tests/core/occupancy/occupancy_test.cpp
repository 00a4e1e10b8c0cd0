// Hand-derived occupancy cases: the arithmetic of each is in its comment.
#include <gtest/gtest.h>

#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"
#include "tests/support/arch_support.h"

using namespace occx;
using test::builtinArch;

namespace {
OccupancyResult calc(const ArchLimits& a, int threads, int regs, std::int64_t smem = 0, std::int64_t dyn = 0,
                     int carveout = -1, int barriers = 1) {
  auto r = computeOccupancy(a, test::occupancyInput(threads, regs, smem, dyn, carveout, barriers));
  EXPECT_TRUE(r.hasValue()) << r.error();
  return r.hasValue() ? r.value() : OccupancyResult{};
}
}  // namespace

// CUDA C Best Practices Guide, "Calculating Occupancy": CC 7.0, 37 registers, 128-thread blocks.
// 37 × 32 = 1184 → 1280 per warp; 16384 / 1280 = 12 warps per sub-partition, 48 per SM;
// 128 threads = 4 warps → 12 blocks → 48 of 64 warps = 75 %.
TEST(OccupancyGuide, Volta37Registers128Threads_12Blocks75Percent) {
  auto r = calc(builtinArch(7, 0), 128, 37);
  EXPECT_EQ(r.active_blocks_per_sm, 12);
  EXPECT_EQ(r.active_warps_per_sm, 48);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.75);
  EXPECT_EQ(r.limiters, kLimitRegisters);
  EXPECT_EQ(r.registers_per_warp_allocated, 1280);
}

// Same guide: 320-thread blocks (10 warps) with 37 registers: 48 / 10 = 4 blocks → 40 warps =
// 62.5 % (the guide rounds to 63 %).
TEST(OccupancyGuide, Volta37Registers320Threads_4Blocks62Point5Percent) {
  auto r = calc(builtinArch(7, 0), 320, 37);
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_EQ(r.active_warps_per_sm, 40);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.625);
}

// Same guide: 65536 registers / 2048 threads = 32 registers per thread for 100 % on CC 7.0.
TEST(OccupancyGuide, Volta32RegistersIsFullOccupancy_33IsNot) {
  EXPECT_DOUBLE_EQ(calc(builtinArch(7, 0), 256, 32).occupancy, 1.0);
  // 33 × 32 = 1056 → 1280; 16384/1280 = 12 → 48 warps; 256 threads = 8 warps → 6 blocks = 75 %.
  EXPECT_DOUBLE_EQ(calc(builtinArch(7, 0), 256, 33).occupancy, 0.75);
}

// H100 (9.0), 256 threads, 40 registers: 1280 per warp, 48 warps/SM, 8 warps per block → 6 blocks.
TEST(OccupancyHopper, Registers40Threads256_6Blocks) {
  auto r = calc(builtinArch(9, 0), 256, 40);
  EXPECT_EQ(r.active_blocks_per_sm, 6);
  EXPECT_EQ(r.block_limit_warps, 8);
  EXPECT_EQ(r.block_limit_blocks, 32);
  EXPECT_EQ(r.block_limit_registers, 6);
  EXPECT_EQ(r.shared_memory_per_block_allocated, 1024);  // reserved 1 KB, even with no shared memory
  EXPECT_EQ(r.block_limit_shared_memory, 228);           // 233472 / 1024
  EXPECT_EQ(r.block_limit_barriers, 64);
}

// 32-thread blocks on 9.0: warps allow 64, the 32-block cap limits → 32 warps = 50 %.
TEST(OccupancyHopper, TinyBlocksHitTheBlockCap) {
  auto r = calc(builtinArch(9, 0), 32, 16);
  EXPECT_EQ(r.active_blocks_per_sm, 32);
  EXPECT_EQ(r.limiters, kLimitBlocks);
  EXPECT_DOUBLE_EQ(r.occupancy, 0.5);
}

// The 1 KB reserved per block counts: 9.0 with 47 KB dynamic per block: 48128 + 1024 = 49152 →
// the SM's 233472 holds floor(233472 / 49152) = 4 blocks.
TEST(OccupancyHopper, ReservedSharedMemoryCountsForEveryBlock) {
  auto r = calc(builtinArch(9, 0), 128, 32, 0, 47 * 1024);
  EXPECT_EQ(r.shared_memory_per_block_allocated, 49152);
  EXPECT_EQ(r.block_limit_shared_memory, 4);
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_EQ(r.limiters, kLimitSharedMemory);
}

// Opt-in maximum on 9.0 is 232448 B: exactly that fits one block (232448 + 1024 = 233472), one
// byte more cannot launch.
TEST(OccupancyHopper, SharedMemoryOptInBoundary) {
  auto fits = calc(builtinArch(9, 0), 256, 32, 0, 232448);
  EXPECT_EQ(fits.active_blocks_per_sm, 1);
  EXPECT_TRUE(fits.can_launch);
  auto over = calc(builtinArch(9, 0), 256, 32, 0, 232449);
  EXPECT_FALSE(over.can_launch);
  EXPECT_EQ(over.active_blocks_per_sm, 0);
  EXPECT_NE(over.cannot_launch_reason.find("232449"), std::string::npos);
  EXPECT_NE(over.cannot_launch_reason.find("232448"), std::string::npos);
}

// Carveout: 9.0, 25 % of 233472 = 58368 → rounded up to 64 KB = 65536; 8 KB + 1 KB reserved
// = 9216 per block → 7 blocks. With the default carveout: 233472 / 9216 = 25 → the cap 32 and
// warps (256 threads: 8) limit first → 8.
TEST(OccupancyHopper, CarveoutPreferencePicksTheNextSize) {
  auto r = calc(builtinArch(9, 0), 256, 16, 8192, 0, 25);
  EXPECT_EQ(r.shared_memory_per_sm_config, 65536);
  EXPECT_EQ(r.block_limit_shared_memory, 7);
  EXPECT_EQ(r.active_blocks_per_sm, 7);
  auto d = calc(builtinArch(9, 0), 256, 16, 8192);
  EXPECT_EQ(d.shared_memory_per_sm_config, 233472);
  EXPECT_EQ(d.active_blocks_per_sm, 8);
}

// Carveout 0 % with a block that needs shared memory: the runtime takes the smallest size that
// holds one block: 30 KB + 1 KB = 31 KB → 32 KB configuration → 1 block.
TEST(OccupancyHopper, CarveoutTooSmallTakesSmallestSizeThatFits) {
  auto r = calc(builtinArch(9, 0), 256, 16, 30 * 1024, 0, 0);
  EXPECT_EQ(r.shared_memory_per_sm_config, 32 * 1024);
  EXPECT_EQ(r.block_limit_shared_memory, 1);
}

// Barriers on 9.0: 64 per SM; 3 per block → 21 blocks. 64 threads (2 warps), 16 registers:
// warps 32, cap 32, registers 512 per warp → 32 per sub-partition, 128 → 64 blocks → barriers limit.
// Only barriers are named (cuda_occupancy.h would also keep the warps and blocks flags it set
// before applying the barrier limit: our deliberate difference).
TEST(OccupancyHopper, BarriersLimitFromCC90) {
  auto r = calc(builtinArch(9, 0), 64, 16, 0, 0, -1, 3);
  EXPECT_EQ(r.block_limit_barriers, 21);
  EXPECT_EQ(r.active_blocks_per_sm, 21);
  EXPECT_EQ(r.limiters, kLimitBarriers);
  // Below 9.0 barriers are not counted (cuda_occupancy.h).
  auto a = calc(builtinArch(8, 0), 64, 16, 0, 0, -1, 3);
  EXPECT_EQ(a.block_limit_barriers, kUnlimited);
  EXPECT_EQ(a.active_blocks_per_sm, 32);
}

// CC 12.0: 24 barriers = 24 block cap with one barrier per block → both limit when the cap binds.
TEST(OccupancyBlackwell, BarrierAndBlockCapTieOnCC120) {
  auto r = calc(builtinArch(12, 0), 32, 16);
  EXPECT_EQ(r.active_blocks_per_sm, 24);
  EXPECT_EQ(r.limiters, kLimitBlocks | kLimitBarriers);
}

// Cannot launch: 255 registers × 1024 threads: 8160 → 8192 per warp × 32 warps = 262144 > 65536.
TEST(OccupancyCannotLaunch, RegistersPerBlockOverTheLimit) {
  auto r = calc(builtinArch(8, 0), 1024, 255);
  EXPECT_FALSE(r.can_launch);
  EXPECT_EQ(r.active_blocks_per_sm, 0);
  EXPECT_EQ(r.occupancy, 0.0);
  EXPECT_NE(r.cannot_launch_reason.find("registers per block"), std::string::npos);
}

TEST(OccupancyCannotLaunch, ZeroAndTooManyThreads) {
  auto zero = calc(builtinArch(9, 0), 0, 32);
  EXPECT_FALSE(zero.can_launch);
  EXPECT_EQ(zero.occupancy, 0.0);
  auto big = calc(builtinArch(9, 0), 1025, 32);
  EXPECT_FALSE(big.can_launch);
  EXPECT_NE(big.cannot_launch_reason.find("1024"), std::string::npos);
}

TEST(OccupancyCannotLaunch, RegistersOver255AndStaticSharedMemoryOver48K) {
  auto regs = calc(builtinArch(9, 0), 128, 256);
  EXPECT_FALSE(regs.can_launch);
  EXPECT_NE(regs.cannot_launch_reason.find("255"), std::string::npos);
  auto smem = calc(builtinArch(9, 0), 128, 32, 49153);
  EXPECT_FALSE(smem.can_launch);
  EXPECT_NE(smem.cannot_launch_reason.find("49152"), std::string::npos);
}

// CC 5.2 allows 32768 registers per block: 64 registers × 512 threads = 2048 × 16 = 32768 fits;
// 544 threads = 17 warps → 34816 > 32768 cannot launch.
TEST(OccupancyMaxwell, RegistersPerBlockLimit32K) {
  EXPECT_TRUE(calc(builtinArch(5, 2), 512, 64).can_launch);
  EXPECT_FALSE(calc(builtinArch(5, 2), 544, 64).can_launch);
}

// This file follows cuda_occupancy.h (4 sub-partitions) for 5.2, not Nsight Compute's 2:
// 96 registers × 32 = 3072 per warp; 16384 / 3072 = 5 warps per sub-partition → 20 warps per SM;
// 64-thread blocks (2 warps) → 10 blocks. With a granularity of 2 it would be
// 32768 / 3072 = 10 → 20 warps, the same here; at 6 warps per block: 20 / 6 = 3 blocks (ours)
// vs floor(21 / 6) = 3 — where the two differ: 80 registers → 2560 per warp:
// ours 16384 / 2560 = 6 → 24 warps; granularity 2: 32768 / 2560 = 12 → 24 warps (same);
// 112 registers → 3584: ours 4 × 4 = 16 warps; granularity 2: 9 × 2 = 18 warps.
TEST(OccupancyMaxwell, WarpGranularityFollowsTheHeaderOnCC52) {
  const auto& a = builtinArch(5, 2);
  EXPECT_EQ(a.warp_allocation_granularity, 4);
  auto r = calc(a, 64, 112);
  EXPECT_EQ(r.block_limit_registers, 8);  // 16 warps / 2 per block (NCU's granularity would give 9)
}

// Pascal GP100 (6.0) has 2 sub-partitions: 255 registers → 8192 per warp, 32768 / 8192 = 4 warps per
// sub-partition → 8 warps per SM; 64 threads = 2 warps → 4 blocks.
TEST(OccupancyPascal, GP100TwoSubPartitions) {
  auto r = calc(builtinArch(6, 0), 64, 255);
  EXPECT_EQ(r.block_limit_registers, 4);
}

// Turing 7.5: 32 warps and 16 blocks per SM; 1024-thread blocks → 1 block = 100 %.
TEST(OccupancyTuring, ThirtyTwoWarpsPerSM) {
  auto r = calc(builtinArch(7, 5), 1024, 32);
  EXPECT_EQ(r.active_blocks_per_sm, 1);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
}

TEST(OccupancyInputErrors, NegativeAndOutOfRangeValuesNameTheValue) {
  OccupancyInput in;
  in.carveout_percent = 150;
  auto r = computeOccupancy(builtinArch(9, 0), in);
  ASSERT_FALSE(r.hasValue());
  EXPECT_NE(r.error().find("150"), std::string::npos);
  EXPECT_NE(r.error().find("0 … 100"), std::string::npos);
  in = {};
  in.registers_per_thread = -1;
  EXPECT_FALSE(computeOccupancy(builtinArch(9, 0), in).hasValue());
  in = {};
  in.dynamic_smem_bytes = -5;
  EXPECT_FALSE(computeOccupancy(builtinArch(9, 0), in).hasValue());
}

TEST(OccupancyDerivation, StepsShowTheArithmetic) {
  auto r = calc(builtinArch(9, 0), 256, 40);
  ASSERT_GE(r.derivation.size(), 5u);
  std::string all;
  for (const auto& s : r.derivation) all += s.text + "\n";
  EXPECT_NE(all.find("40 registers × 32 threads = 1280 per warp"), std::string::npos) << all;
  EXPECT_NE(all.find("floor(16384 / 1280) = 12 warps"), std::string::npos) << all;
  EXPECT_NE(all.find("theoretical occupancy 75.0%"), std::string::npos) << all;
  EXPECT_EQ(r.derivation.back().topic, "Result");
}

TEST(OccupancyGpuWide, WavesFromGridAndSMs) {
  OccupancyInput in;
  in.threads_per_block = 256;
  in.registers_per_thread = 40;  // 6 blocks per SM on 9.0
  in.sm_count = 132;
  in.grid_blocks = 1584;  // 2 × 792
  auto r = computeOccupancy(builtinArch(9, 0), in);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->max_active_blocks_gpu, 792);
  EXPECT_DOUBLE_EQ(r->waves, 2.0);
}

TEST(OccupancySweeps, CurvesHaveTheDocumentedAxes) {
  OccupancyInput in;  // 256 threads, 32 registers
  const auto& a = builtinArch(9, 0);
  auto bs = blockSizeCurve(a, in);
  ASSERT_EQ(bs.size(), 32u);  // 32, 64, … 1024
  EXPECT_EQ(bs.front().x, 32);
  EXPECT_EQ(bs.back().x, 1024);
  EXPECT_EQ(bs.back().active_warps_per_sm, 64);
  auto rg = registersCurve(a, in);
  ASSERT_EQ(rg.size(), 255u);
  EXPECT_EQ(rg[31].x, 32);
  EXPECT_EQ(rg[31].active_warps_per_sm, 64);
  EXPECT_EQ(rg[39].active_warps_per_sm, 48);  // 40 registers
  EXPECT_EQ(rg[254].active_warps_per_sm, 8);  // 255 → 8192 per warp → 2 per sub-partition → 8 warps → 1 block
  auto sm = sharedMemoryCurve(a, in);
  ASSERT_EQ(sm.size(), 232448u / 128 + 1);
  EXPECT_EQ(sm.front().x, 0);
  EXPECT_EQ(sm.back().x, 232448);
  EXPECT_EQ(sm.back().active_blocks_per_sm, 1);
}
