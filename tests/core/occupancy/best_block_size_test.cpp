// Best block size (cudaOccupancyMaxPotentialBlockSize): against the driver's answers recorded on an
// H200 (tests/data/h200_best_block_size.csv), hand-derived cases and the lean path's agreement with
// the explained one. The comparison with cuda_occupancy.h on every CC is in
// occupancy_differential_test.cpp.
#include <gtest/gtest.h>

#include <string>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"
#include "tests/support/arch_support.h"

using namespace occx;
using test::builtinArch;

TEST(BestBlockSize, MatchesTheDriverOnTheH200ForEveryRecordedCase) {
  auto text = readFile(std::string(OCCX_TEST_DATA_DIR) + "/h200_best_block_size.csv");
  ASSERT_TRUE(text) << text.error();
  auto t = parseCsv(*text);
  ASSERT_TRUE(t) << t.error();
  ASSERT_EQ(t->rows.size(), 546u);
  const int iR = t->column("registers"), iS = t->column("dynamic_smem_bytes"), iL = t->column("block_size_limit"),
            iG = t->column("min_grid_size"), iB = t->column("block_size"), iOk = t->column("status");
  const ArchLimits& a = builtinArch(9, 0);
  int compared = 0;
  for (const auto& row : t->rows) {
    ASSERT_EQ(row[iOk], "ok");
    OccupancyInput in = test::occupancyInput(256, std::stoi(row[iR]), 0, std::stoll(row[iS]), -1, 1);
    in.sm_count = 132;
    auto best = bestBlockSize(a, in, std::stoi(row[iL]));
    ASSERT_TRUE(best) << best.error();
    EXPECT_EQ(best->block_size, std::stoi(row[iB])) << row[iR] << " registers, " << row[iS] << " B, limit " << row[iL];
    EXPECT_EQ(best->min_grid_size, std::stoll(row[iG])) << row[iR] << " registers, " << row[iS] << " B, limit " << row[iL];
    ++compared;
  }
  EXPECT_EQ(compared, 546);
}

// 40 registers on CC 9.0: 1280 per warp → 48 warps per SM at most. 1024 threads (32 warps): 1 block
// = 32 warps; 768 (24 warps): 2 blocks = 48 warps, the first size with 48, and full 48 is not the
// SM's 64, so every smaller size is tried too: none exceeds 1536 threads → 768, grid 2 × 132.
TEST(BestBlockSize, Hopper40RegistersPicks768Threads) {
  OccupancyInput in = test::occupancyInput(256, 40);
  in.sm_count = 132;
  auto best = bestBlockSize(builtinArch(9, 0), in);
  ASSERT_TRUE(best) << best.error();
  EXPECT_EQ(best->block_size, 768);
  EXPECT_EQ(best->active_blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(best->occupancy, 0.75);
  EXPECT_EQ(best->min_grid_size, 264);
  // A limit of 100 threads: sizes 100, 96, 64, 32 are tried; 100 threads (4 warps) × 12 blocks =
  // 1200 threads, 96 (3 warps) × 16 blocks = 1536, more; 64 × 24 = 1536 is not more → 96.
  auto limited = bestBlockSize(builtinArch(9, 0), in, 100);
  ASSERT_TRUE(limited);
  EXPECT_EQ(limited->block_size, 96);
  EXPECT_EQ(limited->active_blocks_per_sm, 16);
  EXPECT_FALSE(bestBlockSize(builtinArch(9, 0), in, -1));
  // Too many registers for any block: none.
  in.registers_per_thread = 256;
  auto none = bestBlockSize(builtinArch(9, 0), in);
  ASSERT_TRUE(none);
  EXPECT_EQ(none->block_size, 0);
  EXPECT_EQ(none->min_grid_size, 0);
}

// The lean path agrees with computeOccupancy (blocks and limiters) on a grid over every CC; the
// sweeps are built from it.
TEST(LeanPath, AgreesWithTheExplainedPathOnEveryCc) {
  long compared = 0;
  for (const auto& a : GpuDatabase::builtin().architectures()) {
    for (int threads : {0, 1, 32, 96, 100, 256, 768, 1024, 1025}) {
      for (int regs : {0, 1, 24, 32, 33, 40, 64, 65, 128, 200, 255, 256}) {
        for (std::int64_t smem : {std::int64_t{0}, std::int64_t{1}, std::int64_t{4096}, std::int64_t{49152},
                                  a.shared_memory_per_block_optin, a.shared_memory_per_block_optin + 1}) {
          for (int barriers : {0, 1, 3}) {
            for (int carveout : {-1, 0, 50}) {
              const OccupancyInput in = test::occupancyInput(threads, regs, 0, smem, carveout, barriers);
              const ActiveBlocks lean = activeBlocksPerSm(a, in);
              auto full = computeOccupancy(a, in, false);
              ASSERT_TRUE(full) << full.error();
              ASSERT_EQ(lean.active_blocks_per_sm, full->active_blocks_per_sm) << a.cc.str() << " " << threads << " " << regs;
              ASSERT_EQ(lean.limiters, full->limiters) << a.cc.str() << " " << threads << " " << regs;
              ++compared;
            }
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 100000);
  // Malformed input: 0 blocks, no limiters (computeOccupancy returns an Error).
  const OccupancyInput bad = test::occupancyInput(256, -1);
  EXPECT_EQ(activeBlocksPerSm(builtinArch(9, 0), bad).active_blocks_per_sm, 0);
  EXPECT_EQ(activeBlocksPerSm(builtinArch(9, 0), bad).limiters, 0u);
}

// Barriers on CC 9.0: 64 per SM; 256 threads, 32 registers → 8 blocks until 64 / b < 8, i.e. from
// 9 barriers on: 9 → 7, 16 → 4; 0 barriers → not counted. Below CC 9.0 the curve is flat.
TEST(LeanPath, BlockBarrierSweep) {
  auto pts = sweepBlockBarriers(builtinArch(9, 0), test::occupancyInput(256, 32));
  ASSERT_EQ(pts.size(), 17u);
  EXPECT_EQ(pts[0].active_blocks_per_sm, 8);
  EXPECT_EQ(pts[8].active_blocks_per_sm, 8);
  EXPECT_EQ(pts[9].active_blocks_per_sm, 7);
  EXPECT_EQ(pts[9].limiters, unsigned{kLimitBarriers});
  EXPECT_EQ(pts[16].active_blocks_per_sm, 4);
  EXPECT_EQ(pts[16].active_warps_per_sm, 32);
  for (const auto& p : sweepBlockBarriers(builtinArch(8, 0), test::occupancyInput(256, 32))) {
    EXPECT_EQ(p.active_blocks_per_sm, 8);
  }
}
