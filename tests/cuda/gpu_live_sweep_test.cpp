// A small live sweep end to end on the GPU: every row correct and timed, the replay's picks, and
// the dataset written as CSV and read back as the GUI reads it. Skips without a GPU.
#include <gtest/gtest.h>

#include "core/base/csv.h"
#include "core/sweep/live_sweep.h"
#include "gpu_test_support.h"

using namespace occx;

TEST(GpuLiveSweep, EveryRowCorrectAndTheReplayPicks) {
  OCCX_REQUIRE_GPU(session);
  LiveSweepSpec spec;
  spec.compile.workload = Workload::kMeanVar;
  spec.compile.dtype = DType::kBF16;
  spec.compile.xnumel = 2002;  // not a multiple of XBLOCK 4: a tail block
  spec.compile.rnumel = 4096;
  spec.compile.grid.xblock = {1, 4};
  spec.compile.grid.r0_block = {512, 2048};
  spec.compile.grid.num_warps = {4, 16};
  spec.compile.threads = 8;
  spec.run = test::quickRun();
  cuda::NvrtcCompiler compiler(nullptr);
  std::size_t run_calls = 0;
  auto res = runLiveSweep(*session, spec, compiler.function(), [&](const LiveSweepProgress& p) {
    if (p.phase == Phase::kRun) {
      ++run_calls;
      ASSERT_NE(p.row, nullptr);
    }
  });
  ASSERT_TRUE(res) << res.error();
  EXPECT_FALSE(res->cancelled);
  ASSERT_GE(res->dataset.rows.size(), 8u);  // the grid, plus Inductor's candidates and halved configs
  EXPECT_EQ(run_calls, res->dataset.rows.size());
  int candidates = 0;
  for (const auto& r : res->dataset.rows) {
    SCOPED_TRACE(r.config.label());
    EXPECT_EQ(r.measured.status, RunStatus::kOk) << r.measured.reason;
    EXPECT_GT(r.measured.time.median_us, 0.0);
    EXPECT_GT(r.measured.bandwidth_GBps, 0.0);
    EXPECT_GT(r.measured.pct_of_copy, 0.0);
    EXPECT_GE(r.registers, 1);
    EXPECT_GE(r.measured.maxAbsError(), 0.0);
    candidates += r.inductor_candidate ? 1 : 0;
  }
  EXPECT_GE(candidates, 1);
  ASSERT_EQ(res->replay.picks.size(), 3u);
  for (const auto& p : res->replay.picks) {
    SCOPED_TRACE(std::string(inductor::policyKey(p.policy)));
    ASSERT_GE(p.row, 0);
    EXPECT_GE(p.regret, 1.0);
    EXPECT_TRUE(res->dataset.rows[static_cast<std::size_t>(p.row)].inPolicySets().contains(p.policy));
  }
  EXPECT_GE(res->replay.best_row, 0);
  EXPECT_GT(res->copy.GBps, 0.0);
  for (const char* key : {"device", "driver", "toolkit", "date_utc", "copy_bandwidth_GBps", "workload", "xnumel"}) {
    EXPECT_FALSE(res->dataset.metaValue(key).empty()) << key;
  }
  // Written and read back, as the GUI opens a file from another machine.
  auto parsed = parseCsv(toCsv(liveDatasetToCsv(res->dataset)));
  ASSERT_TRUE(parsed) << parsed.error();
  auto back = liveDatasetFromCsv(*parsed);
  ASSERT_TRUE(back) << back.error();
  ASSERT_EQ(back->rows.size(), res->dataset.rows.size());
  EXPECT_EQ(summarizeReplay(back->rows).best_row, res->replay.best_row);
  for (const auto& line : replayTable(*res)) {
    for (const auto& cell : line) std::cout << cell << "  ";
    std::cout << "\n";
  }
}
