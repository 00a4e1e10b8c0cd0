// The live sweep's logic without a GPU: a stand-in GpuRunner and a stand-in compiler. Checks what the
// sweep hands the runner (one module per compiled config, with the family's launch contract), how
// runner outcomes become rows (times, bandwidth, % of copy, failures as rows), the autotuner replay
// over those rows, progress phases, cancellation, and a runner whose GPU was lost.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/gpu/gpu_data.h"
#include "core/sweep/live_sweep.h"
#include "tests/support/live_sweep_fakes.h"

namespace occx {
namespace {

// A GPU that "runs" a module in a time set per entry point: 100 µs, except what `times` says.
class FakeRunner final : public GpuRunner {
 public:
  FakeRunner() {
    info_.name = "Fake H200";
    info_.cc = {9, 0};
    info_.sm_count = 132;
    info_.registers_per_sm = 65536;
    info_.max_threads_per_sm = 2048;
    info_.max_blocks_per_sm = 32;
    info_.warp_size = 32;
    info_.uuid = "GPU-fake";
  }
  [[nodiscard]] const DeviceInfo& device() const override { return info_; }
  Expected<CopyBandwidth> copyBandwidth(bool) override {
    CopyBandwidth bw;
    bw.GBps = 4000.0;
    bw.bytes_per_copy = std::int64_t{1} << 30;
    bw.runs = 20;
    return bw;
  }
  std::optional<Error> setProblem(const ProblemSpec& spec) override {
    auto bytes = bytesMoved(spec.workload, spec.dtype, spec.k, spec.xnumel, spec.rnumel, spec.fp32_outputs);
    if (!bytes) return Error{bytes.error()};
    bytes_ = *bytes;
    ++problems_set;
    return std::nullopt;
  }
  std::optional<Error> clearProblem() override {
    ++problems_cleared;
    return std::nullopt;
  }
  RunOutcome run(const GpuModule& module, const RunOptions&, const std::atomic<bool>* cancel) override {
    std::lock_guard<std::mutex> lock(mutex_);
    modules.push_back(module);
    RunOutcome o;
    if (cancel != nullptr && cancel->load()) {
      o.status = RunStatus::kCancelled;
      o.reason = "cancelled";
      return o;
    }
    if (!lost_.empty()) {
      o.status = RunStatus::kLaunchFailed;
      o.reason = lost_;
      return o;
    }
    if (module.entry == fault_entry) {
      o.status = RunStatus::kLaunchFailed;
      o.reason = "CUDA_ERROR_ILLEGAL_ADDRESS";
      lost_ = "the context was lost: CUDA_ERROR_ILLEGAL_ADDRESS";
      return o;
    }
    o.status = RunStatus::kOk;
    o.grid_blocks = module.gridBlocks();
    const auto it = times.find(module.entry);
    const double us = it == times.end() ? 100.0 : it->second;
    o.time.runs = 25;
    o.time.median_us = o.time.min_us = o.time.max_us = us;
    o.bytes_moved = bytes_.total();  // no DRAM bytes: the sweep estimates from these, checked against copy
    return o;
  }
  [[nodiscard]] std::string contextLost() const override { return lost_; }
  [[nodiscard]] std::string driverVersionText() const override { return "fake 1.0"; }

  std::map<std::string, double> times;
  std::string fault_entry;
  std::vector<GpuModule> modules;
  int problems_set = 0;
  int problems_cleared = 0;

 private:
  DeviceInfo info_;
  ByteCounts bytes_;
  std::string lost_;
  std::mutex mutex_;
};

using testing_support::fakeCompile;
LiveSweepSpec smallSpec() {
  return testing_support::smallSumSweep();
}

TEST(LiveSweep, EveryCompiledConfigBecomesOneModuleWithTheFamilysLaunchContract) {
  FakeRunner runner;
  auto res = runLiveSweep(runner, smallSpec(), fakeCompile);
  ASSERT_TRUE(res) << res.error();
  ASSERT_EQ(runner.modules.size(), 4u);
  ASSERT_EQ(res->dataset.rows.size(), 4u);
  EXPECT_EQ(runner.problems_set, 1);
  EXPECT_EQ(runner.problems_cleared, 1);   // the device memory is freed after the sweep
  const GpuModule& m = runner.modules[1];  // XBLOCK 1, RBLOCK 1024, 8 warps
  EXPECT_EQ(m.entry, "occx_sum_fp32_x1_r1024_w8_s256x4096");
  EXPECT_EQ(m.arch, (ComputeCapability{9, 0}));
  EXPECT_EQ(m.cubin, (std::vector<std::uint8_t>{1, 2, 3, 4}));
  EXPECT_EQ(m.grid_x, 256);  // ceil(256 / XBLOCK 1)
  EXPECT_EQ(m.block_threads, 256);
  EXPECT_EQ(m.dynamic_smem_bytes, 0);
  ASSERT_EQ(m.arguments.size(), 4u);
  EXPECT_EQ(m.arguments[0].kind, LaunchArgument::Kind::kInput);
  EXPECT_EQ(m.arguments[0].buffer, 0);
  EXPECT_EQ(m.arguments[1].kind, LaunchArgument::Kind::kOutput);
  EXPECT_EQ(m.arguments[2].kind, LaunchArgument::Kind::kInt32);
  EXPECT_EQ(m.arguments[2].value, 256);   // xnumel
  EXPECT_EQ(m.arguments[3].value, 4096);  // rnumel
  for (const auto& row : res->dataset.rows) {
    EXPECT_TRUE(row.ok()) << row.measured.reason;
    EXPECT_TRUE(row.in_grid);
    EXPECT_EQ(row.registers, 40);
  }
}

TEST(LiveSweep, RowsCarryTimesBandwidthAndTheReplayPicksTheFastest) {
  FakeRunner runner;
  runner.times["occx_sum_fp32_x1_r2048_w4_s256x4096"] = 50.0;
  auto res = runLiveSweep(runner, smallSpec(), fakeCompile);
  ASSERT_TRUE(res) << res.error();
  const LiveRow& fast = res->dataset.rows[2];  // RBLOCK 2048, 4 warps
  EXPECT_EQ(fast.config.rblock, 2048);
  EXPECT_EQ(fast.config.num_warps, 4);
  EXPECT_DOUBLE_EQ(fast.measured.time.median_us, 50.0);
  // 256 × 4096 fp32 read once + 256 fp32 written = 4 195 328 bytes in 50 µs = 83.90656 GB/s, an
  // estimate (no DRAM bytes) shown because it is under the copy bandwidth.
  EXPECT_DOUBLE_EQ(fast.measured.bandwidth_GBps, 4195328.0 / 50e-6 / 1e9);
  EXPECT_EQ(fast.measured.bandwidth_from.rfind("buffer bytes (estimate", 0), 0u) << fast.measured.bandwidth_from;
  EXPECT_DOUBLE_EQ(fast.measured.pct_of_copy, fast.measured.bandwidth_GBps / 4000.0 * 100.0);
  EXPECT_EQ(res->replay.best_row, 2);
  EXPECT_DOUBLE_EQ(res->replay.best_time_us, 50.0);
  EXPECT_EQ(res->dataset.metaValue("toolkit"), "stand-in 1.0");
  EXPECT_EQ(res->dataset.metaValue("device"), "Fake H200");
  EXPECT_EQ(res->dataset.metaValue("copy_bandwidth_GBps"), "4000.0");
}

TEST(LiveSweep, ProgressGoesThroughProblemCompileAndRunPhasesInOrder) {
  FakeRunner runner;
  std::mutex m;
  std::vector<Phase> phases;
  int rows_reported = 0;
  auto res = runLiveSweep(runner, smallSpec(), fakeCompile, [&](const LiveSweepProgress& p) {
    std::lock_guard<std::mutex> lock(m);
    if (phases.empty() || phases.back() != p.phase) phases.push_back(p.phase);
    if (p.phase == Phase::kRun) {
      ++rows_reported;
      EXPECT_NE(p.row, nullptr);
      EXPECT_EQ(p.total, 4u);
    }
  });
  ASSERT_TRUE(res) << res.error();
  EXPECT_EQ(rows_reported, 4);
  ASSERT_GE(phases.size(), 3u);
  EXPECT_EQ(phases.front(), Phase::kProblem);
  EXPECT_EQ(phases.back(), Phase::kRun);
  EXPECT_EQ(phaseName(Phase::kCompile), "compile");
}

TEST(LiveSweep, AFaultingConfigIsARowAndLaterRowsSayWhyTheyDidNotRun) {
  FakeRunner runner;
  runner.fault_entry = "occx_sum_fp32_x1_r1024_w8_s256x4096";
  auto res = runLiveSweep(runner, smallSpec(), fakeCompile);
  ASSERT_TRUE(res) << res.error();
  const auto& rows = res->dataset.rows;
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_TRUE(rows[0].ok());
  EXPECT_EQ(rows[1].measured.status, RunStatus::kLaunchFailed);
  EXPECT_EQ(rows[1].measured.reason, "CUDA_ERROR_ILLEGAL_ADDRESS");
  for (std::size_t i = 2; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i].measured.status, RunStatus::kSkipped);
    EXPECT_NE(rows[i].measured.reason.find("not run: the GPU cannot be used any more"), std::string::npos)
        << rows[i].measured.reason;
  }
  EXPECT_EQ(res->replay.best_row, 0);
}

TEST(LiveSweep, CancelDuringTheRunsKeepsTheMeasuredRowsAndMarksTheRest) {
  FakeRunner runner;
  std::atomic<bool> cancel{false};
  auto res = runLiveSweep(
      runner, smallSpec(), fakeCompile,
      [&](const LiveSweepProgress& p) {
        if (p.phase == Phase::kRun && p.done == 2) cancel.store(true);
      },
      &cancel);
  ASSERT_TRUE(res) << res.error();
  EXPECT_TRUE(res->cancelled);
  const auto& rows = res->dataset.rows;
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_TRUE(rows[0].ok());
  EXPECT_TRUE(rows[1].ok());
  EXPECT_EQ(rows[2].measured.status, RunStatus::kCancelled);
  EXPECT_EQ(rows[3].measured.status, RunStatus::kCancelled);
  EXPECT_EQ(res->dataset.metaValue("cancelled").rfind("yes", 0), 0u);
}

TEST(LiveSweep, AConfigThatDoesNotFitTheShapeIsSkippedNotRun) {
  FakeRunner runner;
  LiveSweepSpec spec = smallSpec();
  spec.compile.rnumel = 4095;        // not a multiple of the vector width: scalar loads, still runnable
  spec.compile.grid.xblock = {512};  // XBLOCK 512 × RBLOCK 1024 exceeds the tile limits
  auto res = runLiveSweep(runner, spec, fakeCompile);
  ASSERT_TRUE(res) << res.error();
  for (const auto& row : res->dataset.rows) {
    EXPECT_EQ(row.measured.status, RunStatus::kSkipped) << row.config.label() << ": " << row.measured.reason;
    EXPECT_FALSE(row.measured.reason.empty());
  }
  EXPECT_TRUE(runner.modules.empty());
}

}  // namespace
}  // namespace occx
