// The step of each recorded run (tests/data/inductor/step_*: a run and a torch.profiler trace of
// its step, recorded in one process on an H200): every Triton kernel of the trace joined to the
// run, the per-kernel in-step totals equal to torch.profiler's own key_averages() on the same
// trace, and the step in words.
#include "core/step/step_profile.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/support/inductor_scan.h"

namespace occx::step {
namespace {

using testing_support::inductorFixture;

const char* const kCases[] = {"bert",
                              "blenderbot",
                              "coordesc_sum",
                              "dynamic_log_softmax",
                              "gpt2",
                              "llama",
                              "norms_bwd",
                              "ref_layer_norm_bwd",
                              "ref_log_softmax",
                              "ref_log_softmax_vocab",
                              "ref_mean_var",
                              "ref_sum",
                              "spill_log_softmax",
                              "t5"};

struct Recorded {
  std::vector<triton::ScanRow> rows;
  StepRun run;
  ProfilerTrace trace;
  StepProfile profile;
};

// Loaded once per case and kept (run.rows points into it).
const Recorded& load(const std::string& name) {
  static std::map<std::string, std::unique_ptr<Recorded>> loaded;
  auto& slot = loaded[name];
  if (slot) return *slot;
  slot = std::make_unique<Recorded>();
  Recorded& r = *slot;
  const std::string dir = inductorFixture("step_" + name);
  r.rows = triton::scanRows(testing_support::scanFixturePath(dir));
  auto trace = readProfilerTrace(dir + "/trace.pt.trace.json.gz");
  EXPECT_TRUE(trace.hasValue()) << trace.error();
  if (trace.hasValue()) r.trace = std::move(trace.value());
  r.run = {&r.rows, dir};
  r.profile = profileStep(r.trace, r.run);
  return r;
}

class RecordedStep : public ::testing::TestWithParam<const char*> {};

TEST_P(RecordedStep, EveryTritonKernelIsMatchedOrAmbiguousWithWhy) {
  const Recorded& r = load(GetParam());
  EXPECT_TRUE(r.trace.annotated_steps);
  EXPECT_EQ(r.profile.step_count, 2);
  EXPECT_GT(r.profile.triton_kernels, 0);
  EXPECT_EQ(r.profile.triton_not_in_run, 0);
  EXPECT_EQ(r.profile.triton_matched + r.profile.triton_ambiguous, r.profile.triton_kernels);
  for (const StepKernel& k : r.profile.kernels) {
    if (!isTriton(k.category)) continue;
    if (k.match == RunMatch::kAmbiguous) {
      EXPECT_GE(k.candidates.size(), 2U) << k.name;
      EXPECT_NE(k.match_note.find("kernels of the run have this name"), std::string::npos) << k.match_note;
    } else {
      ASSERT_EQ(k.match, RunMatch::kMatched) << k.name;
      EXPECT_FALSE(k.module.empty()) << k.name;
    }
  }
}

TEST_P(RecordedStep, InStepTotalsEqualTheProfilersKeyAveragesWithinOnePercent) {
  const Recorded& r = load(GetParam());
  std::ifstream in(inductorFixture(std::string("step_") + GetParam() + "/key_averages.json"));
  const auto doc = nlohmann::json::parse(in);
  std::map<std::string, double> ours;
  for (const StepKernel& k : r.profile.kernels) ours[k.name] += k.total_us;
  int compared = 0;
  for (const auto& e : doc["events"]) {
    const std::string name = e["name"];
    if (e["device_type"] != "DeviceType.CUDA" || name.rfind("triton_", 0) != 0) continue;
    const double theirs = e["device_time_total_us"];
    EXPECT_NEAR(ours[name], theirs, 0.01 * theirs) << name;
    ++compared;
  }
  std::set<std::string> triton_names;  // a name split over two rows (ambiguous, matched) is one entry there
  for (const StepKernel& k : r.profile.kernels) {
    if (isTriton(k.category)) triton_names.insert(k.name);
  }
  EXPECT_EQ(compared, static_cast<int>(triton_names.size()));
}

TEST_P(RecordedStep, TheStepInWordsNamesTheReductionsShare) {
  const Recorded& r = load(GetParam());
  const std::string text = stepText(r.profile, r.run);
  const double reductions = r.profile.category(KernelCategory::kTritonLoopedReduction).share +
                            r.profile.category(KernelCategory::kTritonPersistentReduction).share;
  EXPECT_NE(text.find("The Triton reductions take "), std::string::npos) << text;
  EXPECT_GT(reductions, 0.0);
  double shares = 0.0;
  for (const auto& c : r.profile.categories) shares += c.share;
  EXPECT_NEAR(shares, 1.0, 1e-9);
  const CsvTable csv = stepToCsv(r.profile, r.run);
  EXPECT_EQ(csv.rows.size(), r.profile.kernels.size());
  EXPECT_EQ(csv.metaValue("format"), "step-profile");
}

INSTANTIATE_TEST_SUITE_P(Runs, RecordedStep, ::testing::ValuesIn(kCases));

TEST(StepProfile, Gpt2TheLargestReductionsConfigIsToldByItsRegisters) {
  const Recorded& r = load("gpt2");
  const StepProfile& p = r.profile;
  EXPECT_EQ(p.triton_kernels, 42);
  EXPECT_EQ(p.triton_matched, 41);
  EXPECT_EQ(p.triton_ambiguous, 1);
  EXPECT_NEAR(p.gpu_time_per_step_us, 2428.0, 1.0);
  // The cross-entropy backward has no .best_config on disk and two configs of 8 warps; the trace's
  // 39 registers per thread say it ran R0_BLOCK=1024 (#2), not the halved R0_BLOCK=512 (32 registers).
  const StepKernel* ce = nullptr;
  for (const auto& k : p.kernels) {
    if (k.name.rfind("triton_red_fused__log_softmax__log_softmax_backward_data", 0) == 0) ce = &k;
  }
  ASSERT_NE(ce, nullptr);
  EXPECT_EQ(ce->category, KernelCategory::kTritonLoopedReduction);
  ASSERT_EQ(ce->match, RunMatch::kMatched);
  const triton::ScanRow* c = configRowOf(*ce, r.run);
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(shortConfigLabel(*c, true), "X1 R1024 w8");
  EXPECT_EQ(c->n_regs, 39);
  EXPECT_EQ(c->new_decision, "scale");
  EXPECT_NEAR(ce->per_step_us, 224.737, 0.01);
  EXPECT_EQ(ce->launches_per_step, 1.0);
  // The one ambiguous kernel: two modules of the same name, both 128 threads on the same grid.
  for (const auto& k : p.kernels) {
    if (k.match != RunMatch::kAmbiguous) continue;
    EXPECT_EQ(k.name, "triton_poi_fused__to_copy_17");
    EXPECT_EQ(k.candidates.size(), 2U);
  }
}

TEST(StepProfile, WithoutARunKernelsAreClassedByName) {
  EXPECT_EQ(categorizeKernel("triton_red_fused_sum_0", GpuActivityKind::kKernel),
            KernelCategory::kTritonLoopedReduction);
  EXPECT_EQ(categorizeKernel("triton_per_fused_native_layer_norm_3", GpuActivityKind::kKernel),
            KernelCategory::kTritonPersistentReduction);
  EXPECT_EQ(categorizeKernel("triton_poi_fused_add_0", GpuActivityKind::kKernel), KernelCategory::kTritonPointwise);
  EXPECT_EQ(categorizeKernel("triton_tem_fused_mm_0", GpuActivityKind::kKernel), KernelCategory::kTritonOther);
  EXPECT_EQ(categorizeKernel("nvjet_sm90_hsh_128x256_64x4_2x1_v_bz_coopA_TNN", GpuActivityKind::kKernel),
            KernelCategory::kLibrary);
  EXPECT_EQ(categorizeKernel("cudnn_generated_fort_native_sdpa_sm90_flash_fprop", GpuActivityKind::kKernel),
            KernelCategory::kLibrary);
  EXPECT_EQ(categorizeKernel("void at::native::vectorized_elementwise_kernel<4>", GpuActivityKind::kKernel),
            KernelCategory::kAten);
  EXPECT_EQ(categorizeKernel("Memcpy DtoD (Device -> Device)", GpuActivityKind::kMemcpy), KernelCategory::kMemory);
  EXPECT_EQ(categorizeKernel("my_custom_kernel", GpuActivityKind::kKernel), KernelCategory::kOther);

  const Recorded& r = load("llama");
  const StepProfile alone = profileStep(r.trace);
  EXPECT_EQ(alone.triton_matched, 0);
  for (const auto& k : alone.kernels) EXPECT_EQ(k.match, RunMatch::kNoRun);
  EXPECT_NEAR(alone.gpu_time_per_step_us, r.profile.gpu_time_per_step_us, 1e-9);
  EXPECT_NE(stepText(alone).find("No Inductor run given"), std::string::npos);
}

}  // namespace
}  // namespace occx::step
