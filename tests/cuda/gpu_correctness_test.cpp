// Every workload × dtype of the kernel family, run on the GPU and checked against the CPU reference
// in double precision, on shapes with tails: xnumel not a multiple of XBLOCK, rnumel not a multiple
// of RBLOCK, and an odd rnumel that forces scalar loads. Skips without a GPU.
#include <gtest/gtest.h>

#include <mutex>

#include "core/base/parallel.h"
#include "core/kernels/live_problem.h"
#include "gpu_test_support.h"

using namespace occx;
using occx::test::config;

namespace {

struct Shape {
  std::int64_t xnumel;
  std::int64_t rnumel;
};

// 37 × 1000: 37 rows leave a tail for XBLOCK 2 and 4; 1000 is no multiple of 256 or 512.
// 64 × 4096: everything divides. 5 × 777: odd rnumel, scalar loads, and fewer rows than XBLOCK 8.
const Shape kShapes[] = {{37, 1000}, {64, 4096}, {5, 777}};

struct Tile {
  int xblock, rblock, warps;
};
// One row per block with a row across warps (shared memory), two rows per block, several rows per
// warp, and a tile smaller than the block (threads that own no element).
const Tile kTiles[] = {{1, 256, 4}, {2, 512, 8}, {8, 64, 2}, {2, 16, 4}};

RunOptions checkOnly() {
  RunOptions o = test::quickRun();
  o.min_warmup_runs = 0;
  o.warmup_ms = 0.0;
  o.min_timed_runs = 1;
  o.max_timed_runs = 1;
  o.timed_ms = 0.0;
  o.cupti_activity = false;
  return o;
}

void runWorkload(Workload w) {
  OCCX_REQUIRE_GPU(session);
  const int k = w == Workload::kFusedK ? 3 : 1;
  for (DType d : allDTypes()) {
    for (bool f32out : {false, true}) {
      if (f32out && !(w == Workload::kLogSoftmax && d != DType::kF32)) continue;  // the upcast case
      for (const auto& shape : kShapes) {
        ProblemSpec ps;
        ps.workload = w;
        ps.dtype = d;
        ps.k = k;
        ps.xnumel = shape.xnumel;
        ps.rnumel = shape.rnumel;
        ps.fp32_outputs = f32out;
        ps.seed = 11;
        auto problem = makeHostProblem(ps);
        ASSERT_TRUE(problem) << problem.error();
        ASSERT_FALSE(session->setProblem(std::make_shared<const HostProblem>(std::move(problem).value())));
        // Compile the tiles in parallel, then run them one by one; each tile with the shape passed
        // at run time and baked in (no masks where they cannot fail, the loop unrolled).
        std::vector<GeneratedKernel> kernels;
        for (const auto& t : kTiles) {
          for (bool static_shape : {false, true}) {
            auto g = generateKernel(configForShape(config(w, d, t.xblock, t.rblock, t.warps, shape.rnumel, k, f32out),
                                                   shape.xnumel, shape.rnumel, static_shape));
            ASSERT_TRUE(g) << g.error();
            kernels.push_back(*g);
          }
        }
        std::vector<Expected<CompileResult>> compiled(kernels.size(), Error{"not compiled"});
        parallelFor(kernels.size(), 8, [&](std::size_t i) { compiled[i] = test::compileFor(*session, kernels[i]); });
        for (std::size_t i = 0; i < kernels.size(); ++i) {
          SCOPED_TRACE(ps.label() + ": " + kernels[i].config.label());
          ASSERT_TRUE(compiled[i]) << compiled[i].error();
          auto out = session->run(test::moduleOf(*session, kernels[i], compiled[i]->cubin, shape.xnumel, shape.rnumel),
                                  checkOnly());
          EXPECT_EQ(out.status, RunStatus::kOk) << runStatusName(out.status) << ": " << out.reason;
          EXPECT_TRUE(out.checked);
          EXPECT_TRUE(out.check.ok) << out.check.message;
          EXPECT_EQ(out.grid_blocks, (shape.xnumel + kernels[i].config.xblock - 1) / kernels[i].config.xblock);
          EXPECT_EQ(out.attributes.registers, compiled[i]->report.registers);
        }
      }
    }
  }
  session->clearProblem();
}

}  // namespace

TEST(GpuCorrectness, Sum) {
  runWorkload(Workload::kSum);
}
TEST(GpuCorrectness, SumSq) {
  runWorkload(Workload::kSumSq);
}
TEST(GpuCorrectness, Amax) {
  runWorkload(Workload::kAmax);
}
TEST(GpuCorrectness, MeanVar) {
  runWorkload(Workload::kMeanVar);
}
TEST(GpuCorrectness, LogSoftmax) {
  runWorkload(Workload::kLogSoftmax);
}
TEST(GpuCorrectness, FusedK3) {
  runWorkload(Workload::kFusedK);
}
