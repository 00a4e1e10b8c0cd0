// Launch plans of Inductor's real kernels and the live runs of their compiled configs, without a
// GPU: the recorded fixtures (tests/data/inductor) give the kernels, wrappers and Triton caches; a
// stand-in GpuRunner times each config from a table, so the picks and regrets are exact.
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "core/base/csv.h"
#include "core/triton/kernel_measurements.h"
#include "core/triton/launch_plan.h"
#include "tests/support/inductor_scan.h"
#include "tests/support/table_runner.h"

namespace occx::triton {
namespace {

namespace fs = std::filesystem;

using testing_support::inductorFixture;
using testing_support::scanFixturePath;

const MeasuredConfig& rowOf(const KernelMeasurements& r, const std::string& config) {
  for (const auto& row : r.rows) {
    if (row.configText() == config) return row;
  }
  ADD_FAILURE() << "no row " << config;
  return r.rows.front();
}

const RunKernel& onlyKernel(const InductorRun& run) {
  EXPECT_EQ(run.kernels.size(), 1u);
  return run.kernels.front();
}

const RunConfig& configWith(const RunKernel& k, int r0_block, int num_warps) {
  for (const auto& c : k.configs) {
    if (c.config.r0_block == r0_block && c.config.num_warps == num_warps) return c;
  }
  ADD_FAILURE() << "no config R" << r0_block << " w" << num_warps;
  return k.configs.front();
}

using testing_support::TableRunner;

TEST(LaunchPlan, TheSpillCaseTakesItsBuffersFromTheWrapper) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  auto plan = planLaunch(onlyKernel(run));
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  EXPECT_TRUE(plan->from_wrapper);
  EXPECT_NE(plan->buffers_from.find("the wrapper's call()"), std::string::npos) << plan->buffers_from;
  ASSERT_EQ(plan->problem.buffers.size(), 2u);
  EXPECT_EQ(plan->problem.buffers[0].name, "in_ptr0 (arg0_1)");
  EXPECT_EQ(plan->problem.buffers[0].type, ElementType::kF32);
  EXPECT_EQ(plan->problem.buffers[0].elements, 264 * 30000);
  EXPECT_EQ(plan->problem.buffers[0].role, BufferSpec::Role::kInput);
  EXPECT_EQ(plan->problem.buffers[1].name, "out_ptr2 (buf2)");
  EXPECT_EQ(plan->problem.buffers[1].role, BufferSpec::Role::kOutput);
  EXPECT_EQ(plan->problem.bytesMoved(), std::int64_t{2} * 264 * 30000 * 4);
  EXPECT_EQ(plan->xnumel, 264);
  ASSERT_EQ(plan->arguments.size(), 4u);
  EXPECT_EQ(plan->arguments[2].name, "xnumel");
  EXPECT_EQ(plan->arguments[2].value, 264);
  EXPECT_EQ(plan->arguments[3].name, "r0_numel");
  EXPECT_EQ(plan->arguments[3].value, 30000);
}

TEST(LaunchPlan, EachCompiledConfigBecomesAModuleInTritonsParameterOrder) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = onlyKernel(run);
  auto plan = planLaunch(k);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  ASSERT_EQ(k.configs.size(), 3u);
  auto m = tritonModule(k, configWith(k, 32768, 32), *plan);
  ASSERT_TRUE(m.hasValue()) << m.error();
  EXPECT_EQ(m->entry, "triton_red_fused__log_softmax_prepare_softmax_online_sub_0");
  EXPECT_EQ(m->arch, (ComputeCapability{9, 0}));
  EXPECT_EQ(m->grid_x, 264);  // Grid1D: ceil(xnumel 264 / XBLOCK 1)
  EXPECT_EQ(m->grid_y, 1);
  EXPECT_EQ(m->block_threads, 1024);
  EXPECT_EQ(m->dynamic_smem_bytes, 128);
  ASSERT_EQ(m->arguments.size(), 6u);
  EXPECT_EQ(m->arguments[0].kind, LaunchArgument::Kind::kInput);
  EXPECT_EQ(m->arguments[0].buffer, 0);
  EXPECT_EQ(m->arguments[1].kind, LaunchArgument::Kind::kOutput);
  EXPECT_EQ(m->arguments[1].buffer, 0);
  EXPECT_EQ(m->arguments[2].kind, LaunchArgument::Kind::kInt32);
  EXPECT_EQ(m->arguments[2].value, 264);
  EXPECT_EQ(m->arguments[4].kind, LaunchArgument::Kind::kScratch);
  EXPECT_EQ(m->arguments[4].name, "global_scratch");
  EXPECT_EQ(m->arguments[4].scratch_bytes, 0);
  EXPECT_EQ(m->arguments[5].name, "profile_scratch");
  EXPECT_FALSE(m->cubin.empty());
  auto w16 = tritonModule(k, configWith(k, 2048, 16), *plan);
  ASSERT_TRUE(w16.hasValue()) << w16.error();
  EXPECT_EQ(w16->block_threads, 512);
  EXPECT_EQ(w16->dynamic_smem_bytes, 64);
}

// A copy of the spill case whose .ptx entry lost a parameter: the module is refused, naming both lists.
TEST(LaunchPlan, APtxThatDoesNotMatchTheSignatureIsNotLaunched) {
  const fs::path dir = fs::path(::testing::TempDir()) / "occx_ptx_mismatch";
  fs::remove_all(dir);
  fs::copy(inductorFixture("spill_log_softmax"), dir, fs::copy_options::recursive);
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".ptx") continue;
    std::ifstream in(e.path());
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const std::string cut = ".param .u32 triton_red_fused__log_softmax_prepare_softmax_online_sub_0_param_3,";
    const auto at = text.find(cut);
    ASSERT_NE(at, std::string::npos);
    text.erase(at, cut.size());
    std::ofstream(e.path(), std::ios::trunc) << text;
  }
  const InductorRun run = scanFixturePath(dir.string());
  const RunKernel& k = onlyKernel(run);
  auto plan = planLaunch(k);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  auto m = tritonModule(k, k.configs.front(), *plan);
  ASSERT_FALSE(m.hasValue());
  EXPECT_NE(m.error().find(
                "the .ptx entry's parameters (.u64, .u64, .u32, .u64, .u64) do not match the signature (in_ptr0:8, "
                "out_ptr2:8, xnumel:4, r0_numel:4, global_scratch:8, profile_scratch:8 bytes): not launched"),
            std::string::npos)
      << m.error();
  // The run says so per config and launches nothing.
  TableRunner runner({});
  auto result = measureKernelConfigs(runner, {&k}, {});
  ASSERT_EQ(result.rows.size(), 3u);
  for (const auto& r : result.rows) {
    EXPECT_EQ(r.measured.status, RunStatus::kSkipped);
    EXPECT_NE(r.measured.reason.find("do not match the signature"), std::string::npos) << r.measured.reason;
  }
  EXPECT_TRUE(runner.modules.empty());
  fs::remove_all(dir);
}

TEST(KernelMeasurements, TheSpillCaseHalvedConfigIsEveryRulesPickAndInductorsWinnerIsOff) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = onlyKernel(run);
  // The H200 times of the reference (µs): R32768 w32 spills 50 registers and is never benchmarked.
  TableRunner runner({{"R0_BLOCK=32768", 50.4}, {"R0_BLOCK=2048", 40.4}, {"R0_BLOCK=16384", 32.0}});
  runner.registers = 64;
  auto result = measureKernelConfigs(runner, {&k}, {});
  ASSERT_EQ(runner.problems.size(), 1u);
  EXPECT_EQ(runner.modules.size(), 3u);
  ASSERT_EQ(result.rows.size(), 3u);
  ASSERT_EQ(result.picks.size(), 1u);
  const KernelPicks& p = result.picks.front();
  EXPECT_EQ(p.ok_rows, 3);
  ASSERT_GE(p.best_row, 0);
  EXPECT_EQ(result.rows[static_cast<std::size_t>(p.best_row)].configText(), "X1 R16384 w32");
  EXPECT_DOUBLE_EQ(p.best_time_us, 32.0);
  // Inductor's .best_config is R2048 w16 (the halved config was not yet in its run): 40.4 / 32.
  ASSERT_GE(p.winner_row, 0);
  EXPECT_EQ(result.rows[static_cast<std::size_t>(p.winner_row)].configText(), "X1 R2048 w16");
  EXPECT_NEAR(p.winner_regret, 40.4 / 32.0, 1e-12);
  ASSERT_EQ(p.picks.size(), inductor::kPolicies.size());
  for (const PolicyPick& r : p.picks) {
    SCOPED_TRACE(std::string(inductor::policyKey(r.policy)));
    EXPECT_EQ(r.candidates, 3);   // both candidates, and every rule halves R32768 w32
    EXPECT_EQ(r.benchmarked, 2);  // R32768 w32 is over the spill threshold
    EXPECT_EQ(result.rows[static_cast<std::size_t>(r.row)].configText(), "X1 R16384 w32");
    EXPECT_DOUBLE_EQ(r.regret, 1.0);
    EXPECT_TRUE(r.not_compiled.empty());
  }
  // The rows say what the driver said about registers: 64 for each, so the 32-register config disagrees.
  const MeasuredConfig& w16 = rowOf(result, "X1 R2048 w16");
  EXPECT_NE(w16.measured.reason.find("the driver reports 64 registers, the cubin 32"), std::string::npos)
      << w16.measured.reason;
}

TEST(KernelMeasurements, AFailingConfigIsARowAndTheOthersStillRun) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = onlyKernel(run);
  TableRunner runner({{"R0_BLOCK=32768", 50.4}, {"R0_BLOCK=2048", -1.0}, {"R0_BLOCK=16384", 32.0}});
  auto result = measureKernelConfigs(runner, {&k}, {});
  ASSERT_EQ(result.rows.size(), 3u);
  EXPECT_EQ(rowOf(result, "X1 R2048 w16").measured.status, RunStatus::kLaunchFailed);
  EXPECT_EQ(rowOf(result, "X1 R2048 w16").measured.reason, "CUDA_ERROR_ILLEGAL_ADDRESS (stand-in)");
  EXPECT_EQ(rowOf(result, "X1 R32768 w32").measured.status, RunStatus::kOk);
  EXPECT_EQ(rowOf(result, "X1 R16384 w32").measured.status, RunStatus::kOk);
  EXPECT_EQ(result.picks.front().winner_regret, 0.0);  // the winner did not run
}

TEST(KernelMeasurements, CancelKeepsTheFinishedRows) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = onlyKernel(run);
  TableRunner runner({{"R0_BLOCK", 10.0}});
  std::atomic<bool> cancel{false};
  auto result = measureKernelConfigs(
      runner, {&k}, {},
      [&](const MeasureProgress& p) {
        if (p.done == 1) cancel = true;
      },
      &cancel);
  EXPECT_TRUE(result.cancelled);
  ASSERT_EQ(result.rows.size(), 3u);
  EXPECT_EQ(result.rows[0].measured.status, RunStatus::kOk);
  EXPECT_EQ(result.rows[1].measured.status, RunStatus::kCancelled);
  EXPECT_EQ(result.rows[2].measured.status, RunStatus::kCancelled);
}

TEST(KernelMeasurements, TheCsvRoundTripsWithThePicks) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = onlyKernel(run);
  TableRunner runner({{"R0_BLOCK=32768", 50.4}, {"R0_BLOCK=2048", 40.4}, {"R0_BLOCK=16384", 32.0}});
  auto result = measureKernelConfigs(runner, {&k}, {});
  const std::string text = toCsv(measurementsToCsv(result));
  auto table = parseCsv(text);
  ASSERT_TRUE(table.hasValue()) << table.error();
  auto back = measurementsFromCsv(*table);
  ASSERT_TRUE(back.hasValue()) << back.error();
  ASSERT_EQ(back->rows.size(), result.rows.size());
  for (std::size_t i = 0; i < result.rows.size(); ++i) {
    EXPECT_EQ(rowCells(measuredConfigColumns(), back->rows[i]), rowCells(measuredConfigColumns(), result.rows[i]))
        << "row " << i;
  }
  EXPECT_EQ(picksTable(*back), picksTable(result));
  EXPECT_EQ(back->meta.front().first, "device");
  EXPECT_EQ(back->meta.front().second, "Stand-in H200");
  CsvTable other;
  other.meta = {{"format", "inductor-run-scan"}};
  EXPECT_FALSE(measurementsFromCsv(other).hasValue());
}

TEST(KernelMeasurements, ARuleThatWouldAddAnUncompiledConfigSaysSo) {
  MeasuredConfig cand;
  cand.kernel = "k";
  cand.module = "m";
  cand.xblock = 1;
  cand.r0_block = 4096;
  cand.num_warps = 8;
  cand.measured.status = RunStatus::kOk;
  cand.measured.time = summarizeTimes({10.0});
  cand.in_set = inductor::PolicySet::all();
  cand.not_compiled = {{inductor::Policy::kSpills, "X1 R2048 w8"}};
  const auto picks = summarizeMeasurements({cand});
  ASSERT_EQ(picks.size(), 1u);
  for (const PolicyPick& p : picks.front().picks) {
    if (p.policy == inductor::Policy::kSpills) {
      EXPECT_EQ(p.not_compiled, std::vector<std::string>{"X1 R2048 w8"});
    } else {
      EXPECT_TRUE(p.not_compiled.empty());
    }
  }
}

TEST(LaunchPlan, EveryRecordedReductionGetsAPlanFromItsWrapper) {
  for (const char* name : {"ref_sum", "ref_mean_var", "ref_log_softmax_vocab", "ref_layer_norm_bwd", "gpt2"}) {
    SCOPED_TRACE(name);
    const InductorRun run = scanFixturePath(inductorFixture(name));
    int planned = 0;
    for (const auto& k : run.kernels) {
      if (k.configs.empty() || k.launches.empty()) continue;
      auto plan = planLaunch(k);
      ASSERT_TRUE(plan.hasValue()) << k.module.name << ": " << plan.error();
      EXPECT_TRUE(plan->from_wrapper) << k.module.name << ": " << plan->buffers_from;
      for (const auto& c : k.configs) {
        auto m = tritonModule(k, c, *plan);
        EXPECT_TRUE(m.hasValue()) << k.module.name << " " << c.config.str() << ": " << m.error();
      }
      ++planned;
    }
    EXPECT_GT(planned, 0);
  }
}

}  // namespace
}  // namespace occx::triton

namespace occx::triton {
namespace {

// The spill case with four configs compiled later at 16 and 32 warps by the local Triton (its
// bundled ptxas writes cubins of CUDA's older ELF ABI, version 7, beside Inductor's version-8 ones):
// every config is read with Triton's own register and spill counts and is launchable on sm_90.
TEST(LaunchPlan, ConfigsCompiledLaterByTritonJoinTheirKernel) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax_w16"));
  const RunKernel& k = onlyKernel(run);
  ASSERT_EQ(k.configs.size(), 7u);
  std::ifstream in(inductorFixture("spill_log_softmax_w16") + "/recorded.json");
  const nlohmann::json rec = nlohmann::json::parse(in);
  for (const auto& l : rec["extra_launchers"]) {
    const RunConfig& c = configWith(k, l["kwargs"]["R0_BLOCK"].get<int>(), l["num_warps"].get<int>());
    SCOPED_TRACE(c.config.str());
    EXPECT_EQ(c.config.n_regs, l["n_regs"].get<int>());
    EXPECT_EQ(c.config.n_spills, l["n_spills"].get<int>());
    EXPECT_EQ(c.dynamic_shared_bytes, l["shared"].get<std::int64_t>());
    EXPECT_EQ(c.origin, ConfigOrigin::kOther);
  }
  auto plan = planLaunch(k);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  for (const auto& c : k.configs) {
    auto m = tritonModule(k, c, *plan);
    ASSERT_TRUE(m.hasValue()) << c.config.str() << ": " << m.error();
    EXPECT_EQ(m->arch, (ComputeCapability{9, 0})) << c.config.str();
    EXPECT_EQ(m->block_threads, c.config.num_warps * 32);
  }
  // The added configs are in no rule's set: only Inductor's candidates and their halved copies are.
  TableRunner runner({{"R0_BLOCK", 10.0}});
  auto result = measureKernelConfigs(runner, {&k}, {});
  EXPECT_EQ(result.picks.front().picks.front().candidates, 3);
  EXPECT_EQ(result.picks.front().rows, 7);
}

}  // namespace
}  // namespace occx::triton

namespace occx::triton {
namespace {

// Inductor times every config over the spill threshold as infinite and keeps the first: a rule
// whose set holds only such configs still picks one.
TEST(KernelMeasurements, ASetOfSpillingConfigsOnlyPicksTheFirst) {
  auto row = [](int r0, double us) {
    MeasuredConfig r;
    r.kernel = "k";
    r.module = "m";
    r.xblock = 1;
    r.r0_block = r0;
    r.num_warps = 32;
    r.measured.status = RunStatus::kOk;
    r.measured.time = summarizeTimes({us});
    r.over_spill_threshold = true;
    r.in_set = inductor::PolicySet::all();
    return r;
  };
  const auto picks = summarizeMeasurements({row(32768, 50.0), row(16384, 40.0)});
  ASSERT_EQ(picks.size(), 1u);
  for (const PolicyPick& p : picks.front().picks) {
    EXPECT_EQ(p.benchmarked, 0);
    EXPECT_EQ(p.row, 0);
    EXPECT_DOUBLE_EQ(p.regret, 50.0 / 40.0);
  }
}

// The autotuner's winner runs first, so its outputs are the reference of the other configs.
TEST(KernelMeasurements, TheWinnerRunsFirstAndIsTheReference) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = onlyKernel(run);
  TableRunner runner({{"R0_BLOCK", 10.0}});
  auto result = measureKernelConfigs(runner, {&k}, {});
  ASSERT_EQ(runner.modules.size(), 3u);
  EXPECT_NE(runner.modules.front().label.find("R0_BLOCK=2048"), std::string::npos) << runner.modules.front().label;
  EXPECT_NE(runner.modules[1].label.find("R0_BLOCK=32768"), std::string::npos)
      << runner.modules[1].label;  // the other candidate
  EXPECT_EQ(result.rows.size(), 3u);
}

}  // namespace
}  // namespace occx::triton
