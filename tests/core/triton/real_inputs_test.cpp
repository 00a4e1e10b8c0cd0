// Every reduction kernel of the recorded steps (tests/data/inductor/step_*) plans a launch and
// builds its GPU module without a GPU: the mix-order reductions of RMSNorm and LayerNorm backward
// (MixOrderReductionGrid: ⌈xnumel / RSPLIT_SIZE⌉ programs, their ws_ptr workspace an output), and
// index inputs drawn from the range the kernel itself asserts or compares against (embedding
// lookups, nll_loss labels with the ignore index), the same for the same seed.
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>

#include "core/sweep/buffer_problem.h"
#include "core/triton/config_grid.h"
#include "core/triton/launch_plan.h"
#include "tests/support/inductor_scan.h"

namespace occx::triton {
namespace {

using testing_support::inductorFixture;
using testing_support::scanFixturePath;

const RunKernel* kernelNamed(const InductorRun& run, const std::string& prefix) {
  for (const auto& k : run.kernels) {
    if (k.module.name.rfind(prefix, 0) == 0) return &k;
  }
  return nullptr;
}

const BufferSpec* bufferOf(const LaunchPlan& plan, const std::string& argument) {
  for (const auto& b : plan.problem.buffers) {
    if (b.name.rfind(argument + " ", 0) == 0 || b.name == argument) return &b;
  }
  return nullptr;
}

class EveryReduction : public ::testing::TestWithParam<const char*> {};

TEST_P(EveryReduction, PlansAndBuildsItsModule) {
  const InductorRun run = scanFixturePath(inductorFixture(std::string("step_") + GetParam()));
  int reductions = 0;
  for (const auto& k : run.kernels) {
    if (!k.analysed() || k.configs.empty()) continue;
    ++reductions;
    auto plan = planLaunch(k);
    ASSERT_TRUE(plan.hasValue()) << k.module.name << ": " << plan.error();
    for (const auto& c : k.configs) {
      auto module = tritonModule(k, c, *plan);
      EXPECT_TRUE(module.hasValue()) << k.module.name << " " << c.config.str() << ": " << module.error();
    }
  }
  EXPECT_GT(reductions, 0);
}

INSTANTIATE_TEST_SUITE_P(Steps, EveryReduction,
                         ::testing::Values("bert", "blenderbot", "gpt2", "llama", "norms_bwd", "t5", "ref_sum",
                                           "ref_log_softmax_vocab", "spill_log_softmax"));

TEST(MixOrderReduction, GridIsXnumelOverRsplitSizeAndTheWorkspaceIsAnOutput) {
  const InductorRun run = scanFixturePath(inductorFixture("step_norms_bwd"));
  const RunKernel* k = kernelNamed(run, "triton_per_fused__to_copy_add_div_expand_mul_pow_sum_5");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->module.meta.grid_type, "MixOrderReductionGrid");
  EXPECT_EQ(k->module.meta.rsplit_size, 16);
  EXPECT_FALSE(k->module.meta.mix_order_multi_stages);
  ASSERT_EQ(k->configs.size(), 1U);
  const RunConfig& c = k->configs[0];
  EXPECT_EQ(c.config.xblock, 1);  // min(max(16 // 32, 1), 16), as Inductor sets it
  EXPECT_EQ(c.rsplit_size, 16);
  EXPECT_EQ(c.mix_num_stages, 1);  // mix_order_reduction_allow_multi_stages False
  auto plan = planLaunch(*k);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  const BufferSpec* ws = bufferOf(*plan, "ws_ptr");
  ASSERT_NE(ws, nullptr);
  EXPECT_EQ(ws->role, BufferSpec::Role::kOutput);
  EXPECT_EQ(ws->elements, 512 * 4096);  // one row of partial sums per program
  auto module = tritonModule(*k, c, *plan);
  ASSERT_TRUE(module.hasValue()) << module.error();
  EXPECT_EQ(module->grid_x, 512);  // ⌈8192 / 16⌉
  EXPECT_EQ(module->grid_y, 1);
  EXPECT_EQ(module->block_threads, 256);
  // Its scan row and words say what it is.
  bool said = false;
  for (const auto& n : k->notes)
    said = said || n.find("grid ⌈xnumel / RSPLIT_SIZE⌉ = 512 programs") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(MixOrderReduction, OtherGridTypesAreRefusedWithWhy) {
  const InductorRun run = scanFixturePath(inductorFixture("step_norms_bwd"));
  RunKernel k = *kernelNamed(run, "triton_per_fused__to_copy_add_div_expand_mul_pow_sum_5");
  auto plan = planLaunch(k);
  ASSERT_TRUE(plan.hasValue());
  const std::map<std::string, std::string> why = {
      {"Grid3D", "its z dimension (znumel, ZBLOCK) is not planned"},
      {"CooperativeReductionGrid", "a cooperative reduction needs its RSPLIT programs co-resident"},
      {"SplitScanGrid", "a split scan needs its workspace and the scan's carry"},
      {"FixedGrid", "its grid is passed by the caller, not computed"},
      {"SequentialComboKernelGrid", "a combo kernel launches several kernels' programs"}};
  for (const auto& [grid, reason] : why) {
    k.module.meta.grid_type = grid;
    auto module = tritonModule(k, k.configs[0], *plan);
    ASSERT_FALSE(module.hasValue()) << grid;
    EXPECT_NE(module.error().find("grid type " + grid + " is not launched here: " + reason +
                                  " (Grid1D, Grid2D and MixOrderReductionGrid are)"),
              std::string::npos)
        << module.error();
  }
}

TEST(IndexInputs, NllLossLabelsAreColumnsOfTheRowWithTheIgnoreIndex) {
  const InductorRun run = scanFixturePath(inductorFixture("step_gpt2"));
  const RunKernel* k = kernelNamed(run, "triton_red_fused__log_softmax__log_softmax_backward_data");
  ASSERT_NE(k, nullptr);
  auto plan = planLaunch(*k);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  const BufferSpec* labels = bufferOf(*plan, "in_ptr0");
  ASSERT_NE(labels, nullptr);
  ASSERT_EQ(labels->type, ElementType::kI64);
  ASSERT_TRUE(labels->values.has_value());
  EXPECT_EQ(labels->values->low, 0);
  EXPECT_EQ(labels->values->high, 50257);  // compared with the r0_ index; r0_numel 50257
  EXPECT_EQ(labels->values->ignore, -100);
  EXPECT_DOUBLE_EQ(labels->values->ignore_fraction, 0.02);
  bool noted = false;
  for (const auto& n : plan->notes)
    noted = noted || n.find("in_ptr0 (i64): uniform in [0, 50257)") != std::string::npos;
  EXPECT_TRUE(noted);
  // The host buffer: every value in range or the ignore index, about 2 % of them ignored, and the
  // same bytes for the same seed.
  BufferProblemSpec only;  // the labels alone (the logits are 200 MB)
  only.seed = plan->problem.seed;
  only.buffers = {*labels, {"out", ElementType::kF32, 1, BufferSpec::Role::kOutput, {}}};
  auto host = makeHostBuffers(only);
  ASSERT_TRUE(host.hasValue()) << host.error();
  const std::size_t index = 0;
  const auto& bytes = host->initial[index];
  const std::size_t n = bytes.size() / 8;
  std::size_t ignored = 0;
  std::int64_t largest = 0;
  for (std::size_t i = 0; i < n; ++i) {
    std::int64_t v = 0;
    std::memcpy(&v, bytes.data() + 8 * i, 8);
    if (v == -100) {
      ++ignored;
      continue;
    }
    ASSERT_GE(v, 0);
    ASSERT_LT(v, 50257);
    largest = std::max(largest, v);
  }
  EXPECT_GT(largest, 40000);  // spread over the range, not all zero
  EXPECT_NEAR(static_cast<double>(ignored) / static_cast<double>(n), 0.02, 0.01);
  auto again = makeHostBuffers(only);
  EXPECT_EQ(again->initial[index], bytes);
}

TEST(IndexInputs, AnEmbeddingLookupTakesTheRangeItsAssertStates) {
  const InductorRun run = scanFixturePath(inductorFixture("step_llama"));
  int asserted = 0;
  for (const auto& k : run.kernels) {
    if (k.module.source.find("tl.device_assert(") == std::string::npos) continue;
    auto plan = planLaunch(k);
    if (!plan) continue;  // pointwise kernels without a launch in a wrapper
    for (const auto& b : plan->problem.buffers) {
      if (!b.values || b.values->origin.find("tl.device_assert") == std::string::npos) continue;
      ++asserted;
      EXPECT_EQ(b.values->low, 0);
      EXPECT_GT(b.values->high, 1);
    }
  }
  EXPECT_GT(asserted, 0);
  // The cross-entropy forward of the 32000-word vocabulary: its labels assert 0 <= v < 32000.
  const RunKernel* ce = nullptr;
  for (const auto& k : run.kernels) {
    if (k.module.source.find("tmp12 < 32000") != std::string::npos && k.analysed()) ce = &k;
  }
  ASSERT_NE(ce, nullptr);
  auto plan = planLaunch(*ce);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  bool found = false;
  for (const auto& b : plan->problem.buffers) found = found || (b.values && b.values->high == 32000);
  EXPECT_TRUE(found);
}

TEST(IndexInputs, ValuesOnAFloatingBufferOrOutOfTheTypeAreRefused) {
  BufferProblemSpec spec;
  spec.buffers = {{"in_ptr0", ElementType::kF32, 16, BufferSpec::Role::kInput, IntegerValues{0, 4, {}, 0.0, ""}},
                  {"out_ptr0", ElementType::kF32, 16, BufferSpec::Role::kOutput, {}}};
  auto e = checkBufferProblemSpec(spec);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message, "buffer 0 (in_ptr0): integer values are for integer inputs, not a fp32 input");
  spec.buffers[0].type = ElementType::kI8;
  spec.buffers[0].values = IntegerValues{0, 300, {}, 0.0, ""};
  e = checkBufferProblemSpec(spec);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message, "buffer 0 (in_ptr0): values [0, 300) are out of range: allowed low < high within -128 … 127");
}

}  // namespace
}  // namespace occx::triton

namespace occx::triton {
namespace {

TEST(MixOrderReduction, ASweepKeepsRsplitSizeAndOnlyXblocksThatDivideIt) {
  const InductorRun run = scanFixturePath(inductorFixture("step_norms_bwd"));
  const RunKernel* k = kernelNamed(run, "triton_per_fused__to_copy_add_div_expand_mul_pow_sum_5");
  ASSERT_NE(k, nullptr);
  auto grid = parseConfigGrid({"XBLOCK=1,2,4,8,32 num_warps=4,8"}, *k);
  ASSERT_TRUE(grid.hasValue()) << grid.error();
  auto plan = planSweep(*k, *grid, false);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  for (const auto& c : plan->configs) EXPECT_EQ(16 % c.xblock, 0) << c.text();
  bool said = false;
  for (const auto& l : plan->left_out) {
    said = said || l == "1 XBLOCK value that does not divide the mix-order reduction's RSPLIT_SIZE 16";
  }
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace occx::triton
