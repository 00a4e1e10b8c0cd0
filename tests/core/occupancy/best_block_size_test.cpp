// Best block size (cudaOccupancyMaxPotentialBlockSize): against the driver's answers recorded on an
// H200 (tests/data/h200_best_block_size.csv), hand-derived cases and the lean path's agreement with
// the explained one. The comparison with cuda_occupancy.h on every CC is in
// occupancy_differential_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"
#include "tests/support/arch_support.h"
#include "tests/support/literal_hopper.h"

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
    EXPECT_EQ(best->min_grid_size, std::stoll(row[iG]))
        << row[iR] << " registers, " << row[iS] << " B, limit " << row[iL];
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
              ASSERT_EQ(lean.active_blocks_per_sm, full->active_blocks_per_sm)
                  << a.cc.str() << " " << threads << " " << regs;
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
  auto pts = blockBarriersCurve(builtinArch(9, 0), test::occupancyInput(256, 32));
  ASSERT_EQ(pts.size(), 17u);
  EXPECT_EQ(pts[0].active_blocks_per_sm, 8);
  EXPECT_EQ(pts[8].active_blocks_per_sm, 8);
  EXPECT_EQ(pts[9].active_blocks_per_sm, 7);
  EXPECT_EQ(pts[9].limiters, unsigned{kLimitBarriers});
  EXPECT_EQ(pts[16].active_blocks_per_sm, 4);
  EXPECT_EQ(pts[16].active_warps_per_sm, 32);
  for (const auto& p : blockBarriersCurve(builtinArch(8, 0), test::occupancyInput(256, 32))) {
    EXPECT_EQ(p.active_blocks_per_sm, 8);
  }
}

namespace {

// The input of a sweep's point, for each sweep: the varied value set to x.
using Setter = void (*)(const ArchLimits&, OccupancyInput&, std::int64_t);
using Sweep = std::vector<CurvePoint> (*)(const ArchLimits&, const OccupancyInput&);
struct SweepKind {
  const char* name;
  Sweep sweep;
  Setter set;
};
const SweepKind kSweeps[] = {
    {"block size", blockSizeCurve,
     [](const ArchLimits&, OccupancyInput& in, std::int64_t x) { in.threads_per_block = static_cast<int>(x); }},
    {"registers", registersCurve,
     [](const ArchLimits&, OccupancyInput& in, std::int64_t x) { in.registers_per_thread = static_cast<int>(x); }},
    {"shared memory", sharedMemoryCurve,
     [](const ArchLimits& a, OccupancyInput& in, std::int64_t x) {
       in.dynamic_smem_bytes =
           x - std::clamp<std::int64_t>(in.static_smem_bytes, 0, a.shared_memory_per_block_optin + 1);
     }},
    {"barriers", blockBarriersCurve,
     [](const ArchLimits&, OccupancyInput& in, std::int64_t x) { in.block_barriers = static_cast<int>(x); }},
};

}  // namespace

// The sweeps work out the fixed limits once and only the varied one per point: every point equals
// the lean path at that point and the explained path's occupancy, on every CC, including inputs that
// are malformed, have 0 threads or a static size over the opt-in maximum.
TEST(LeanPath, SweepsAgreeWithThePathAtEveryPoint) {
  long points = 0;
  for (const auto& a : GpuDatabase::builtin().architectures()) {
    const LeanLimits lean(a);
    for (int threads : {0, 100, 256, 1025}) {
      for (int regs : {-1, 0, 40, 256}) {
        for (std::int64_t smem : {std::int64_t{0}, std::int64_t{4096}, a.shared_memory_per_block_optin + 1}) {
          for (int carveout : {-1, 50}) {
            for (int barriers : {0, 5}) {
              const OccupancyInput in = test::occupancyInput(threads, regs, smem, 0, carveout, barriers);
              for (const auto& kind : kSweeps) {
                for (const CurvePoint& p : kind.sweep(a, in)) {
                  OccupancyInput at = in;
                  kind.set(a, at, p.x);
                  const ActiveBlocks want = activeBlocksPerSm(lean, at);
                  ASSERT_EQ(p.active_blocks_per_sm, want.active_blocks_per_sm)
                      << a.cc.str() << " " << kind.name << " x " << p.x;
                  ASSERT_EQ(p.limiters, want.limiters) << a.cc.str() << " " << kind.name << " x " << p.x;
                  ASSERT_EQ(p.active_warps_per_sm, want.active_blocks_per_sm * want.warps_per_block);
                  if (auto full = computeOccupancy(a, at, false)) {
                    ASSERT_EQ(p.occupancy, full->occupancy) << a.cc.str() << " " << kind.name << " x " << p.x;
                  } else {
                    ASSERT_EQ(p.occupancy, 0.0);
                  }
                  ++points;
                }
              }
            }
          }
        }
      }
    }
  }
  EXPECT_GT(points, 100000);
}

// Limits known at compile time: a constexpr LeanLimits from literals gives the answers of the GPU
// data's, and is evaluated by the compiler.
namespace {
using testing_support::kLiteralHopper;
using testing_support::kLiteralHopperLean;
// 256 threads, 40 registers, 4 KB: 1280 registers per warp, 16384 / 1280 = 12 warps per sub-partition,
// 48 per SM → 6 blocks of 8 warps, limited by registers.
constexpr OccupancyInput kDefault{.threads_per_block = 256, .registers_per_thread = 40, .static_smem_bytes = 4096};
static_assert(activeBlocksPerSm(kLiteralHopperLean, kDefault).active_blocks_per_sm == 6);
static_assert(activeBlocksPerSm(kLiteralHopperLean, kDefault).limiters == kLimitRegisters);
}  // namespace

TEST(LeanPath, CompileTimeLimitsGiveTheDataAnswers) {
  const ArchLimits& a = builtinArch(9, 0);
  ASSERT_TRUE(testing_support::literalHopperMatches(a))
      << "tests/support/literal_hopper.h differs from resources/gpu_data.json";
  const LeanLimits lean(a);
  for (int threads : {0, 1, 32, 256, 1024, 1025}) {
    for (int regs = 0; regs <= 256; regs += 8) {
      for (std::int64_t smem :
           {std::int64_t{0}, std::int64_t{4096}, std::int64_t{100000}, a.shared_memory_per_block_optin}) {
        for (int carveout : {-1, 0, 50}) {
          const OccupancyInput in = test::occupancyInput(threads, regs, 0, smem, carveout, 3);
          const ActiveBlocks x = activeBlocksPerSm(kLiteralHopperLean, in), y = activeBlocksPerSm(lean, in);
          ASSERT_EQ(x.active_blocks_per_sm, y.active_blocks_per_sm);
          ASSERT_EQ(x.limiters, y.limiters);
          ASSERT_EQ(x.warps_per_block, y.warps_per_block);
        }
      }
    }
  }
  std::vector<CurvePoint> literal, data;
  sharedMemoryCurveInto(kLiteralHopperLean, test::occupancyInput(256, 40, 4096), literal);
  sharedMemoryCurveInto(a, test::occupancyInput(256, 40, 4096), data);
  ASSERT_EQ(literal.size(), data.size());
  for (std::size_t i = 0; i < data.size(); ++i)
    ASSERT_EQ(literal[i].active_blocks_per_sm, data[i].active_blocks_per_sm);
}

// Carveout lists in any order, and longer than LeanLimits holds inline: the lean path still picks the
// size sharedMemoryConfigForBlock picks (the first in the data's order that fits).
TEST(LeanPath, CarveoutListsInAnyOrderAndOfAnyLength) {
  ArchLimits shuffled = builtinArch(9, 0);
  shuffled.shared_memory_carveout_kb = {100, 8, 228, 0, 64, 164, 32, 196, 16, 132};
  ArchLimits longList = builtinArch(9, 0);
  longList.shared_memory_carveout_kb.clear();
  for (int kb = 4; kb <= 228; kb += 12) longList.shared_memory_carveout_kb.push_back(kb);  // 19 sizes
  longList.shared_memory_carveout_kb.push_back(228);
  for (const ArchLimits* a : {&shuffled, &longList}) {
    const LeanLimits lean(*a);
    for (int carveout = -1; carveout <= 100; carveout += 7) {
      for (std::int64_t smem = 0; smem <= a->shared_memory_per_block_optin; smem += 3000) {
        const OccupancyInput in = test::occupancyInput(128, 32, 0, smem, carveout);
        auto full = computeOccupancy(*a, in, false);
        ASSERT_TRUE(full) << full.error();
        const ActiveBlocks fast = activeBlocksPerSm(lean, in);
        ASSERT_EQ(fast.active_blocks_per_sm, full->active_blocks_per_sm) << carveout << " " << smem;
        ASSERT_EQ(fast.limiters, full->limiters) << carveout << " " << smem;
      }
    }
  }
}
