// The model sweep's plan (the step's looped reductions by in-step time) on the recorded GPT-2 step,
// and the step's predicted gain from measured rows.
#include <gtest/gtest.h>

#include "core/step/model_sweep.h"
#include "core/step/profiler_trace.h"
#include "tests/support/inductor_scan.h"

namespace occx::step {
namespace {

using testing_support::inductorFixture;

struct Gpt2Step {
  triton::InductorRun run;
  std::vector<triton::ScanRow> rows;
  StepProfile profile;
};

const Gpt2Step& gpt2() {
  static const Gpt2Step s = [] {
    Gpt2Step g;
    const std::string dir = inductorFixture("step_gpt2");
    g.run = testing_support::scanFixturePath(dir);
    g.rows = triton::scanRows(g.run);
    auto trace = readProfilerTrace(dir + "/trace.pt.trace.json.gz");
    EXPECT_TRUE(trace.hasValue()) << trace.error();
    g.profile = profileStep(*trace, StepRun{&g.rows, dir});
    return g;
  }();
  return s;
}

TEST(ModelSweep, ThePlanRanksTheStepsLoopedReductionsByInStepTime) {
  const Gpt2Step& g = gpt2();
  const ModelSweepPlan plan = planModelSweep(g.profile, g.run, g.rows, 0);
  ASSERT_GE(plan.targets.size(), 3U);
  for (std::size_t i = 1; i < plan.targets.size(); ++i) {
    EXPECT_GE(plan.targets[i - 1].per_step_us, plan.targets[i].per_step_us);
  }
  // The largest: the cross-entropy backward, 224.7 µs per step, which ran R0_BLOCK=1024 with 8 warps.
  EXPECT_EQ(plan.targets[0].kernel->module.name.rfind("triton_red_fused__log_softmax__log_softmax_backward_data", 0),
            0U);
  EXPECT_NEAR(plan.targets[0].per_step_us, 224.737, 0.01);
  EXPECT_EQ(plan.targets[0].ran_config, "X1 R1024 w8");
  EXPECT_NEAR(plan.step_us, 2428.0, 1.0);
  double sum = 0.0;
  for (const auto& t : plan.targets) sum += t.per_step_us;
  EXPECT_LE(sum, plan.looped_per_step_us + 1e-6);
  const ModelSweepPlan top2 = planModelSweep(g.profile, g.run, g.rows, 2);
  ASSERT_EQ(top2.targets.size(), 2U);
  EXPECT_EQ(top2.targets[1].kernel, plan.targets[1].kernel);
  EXPECT_EQ(top2.left_out.size(), plan.left_out.size() + plan.targets.size() - 2);
  EXPECT_NE(top2.left_out.back().find("beyond the top 2"), std::string::npos) << top2.left_out.back();
}

triton::MeasuredConfig measuredRow(const std::string& kernel, int r0, int warps, double us, inductor::PolicySet in) {
  triton::MeasuredConfig m;
  m.kernel = kernel;
  m.module = "m";
  m.xblock = 1;
  m.r0_block = r0;
  m.num_warps = warps;
  m.num_stages = 1;
  m.in_set = in;
  m.measured.status = RunStatus::kOk;
  m.measured.time = summarizeTimes({us, us, us});
  return m;
}

TEST(ModelSweep, TheGainIsTheInStepTimeTimesOneMinusBestOverRan) {
  const Gpt2Step& g = gpt2();
  ModelSweepPlan plan = planModelSweep(g.profile, g.run, g.rows, 1);
  ASSERT_EQ(plan.targets.size(), 1U);
  plan.step_us = 2000.0;
  plan.targets[0].per_step_us = 200.0;
  const std::string name = plan.targets[0].kernel->module.name;
  triton::KernelMeasurements m;
  const auto all = inductor::PolicySet::all();
  inductor::PolicySet old_only;
  old_only.insert(inductor::Policy::kOld);
  m.rows = {measuredRow(name, 1024, 8, 100.0, all),                  // ran in the step
            measuredRow(name, 512, 8, 80.0, inductor::PolicySet{}),  // the sweep's best
            measuredRow(name, 2048, 8, 120.0, old_only)};
  for (auto& r : m.rows) r.module = plan.targets[0].kernel->module.module_hash;
  m.picks = triton::summarizeMeasurements(m.rows);
  const StepGain gain = predictStepGain(plan, {m});
  ASSERT_EQ(gain.kernels.size(), 1U);
  const KernelGain& k = gain.kernels[0];
  EXPECT_EQ(k.ran_config, "X1 R1024 w8");
  EXPECT_DOUBLE_EQ(k.ran_us, 100.0);
  EXPECT_EQ(k.best_config, "X1 R512 w8");
  EXPECT_DOUBLE_EQ(k.gain_us, 200.0 * (1.0 - 80.0 / 100.0));  // 40 µs per step
  EXPECT_DOUBLE_EQ(gain.gain_share, 40.0 / 2000.0);
  // Every policy's set holds the config that ran: each picks it (old also has a slower one).
  EXPECT_EQ(k.policy_config[inductor::policyIndex(inductor::Policy::kNew)], "X1 R1024 w8");
  EXPECT_DOUBLE_EQ(gain.policy_step_us[inductor::policyIndex(inductor::Policy::kOld)], 2000.0);
  EXPECT_NE(gain.text.find("40.0 µs per step (2.0 % of the step)"), std::string::npos) << gain.text;
  EXPECT_EQ(gain.text.find("Little to gain"), std::string::npos);
  // A best within 1 % of the step: said plainly.
  m.rows[1].measured.time = summarizeTimes({99.0, 99.0, 99.0});
  m.picks = triton::summarizeMeasurements(m.rows);
  const StepGain small = predictStepGain(plan, {m});
  EXPECT_DOUBLE_EQ(small.gain_us, 2.0);
  EXPECT_NE(small.text.find("Little to gain"), std::string::npos) << small.text;
  // The config that ran did not run ok: no gain is claimed.
  m.rows[0].measured.status = RunStatus::kLaunchFailed;
  m.picks = triton::summarizeMeasurements(m.rows);
  EXPECT_DOUBLE_EQ(predictStepGain(plan, {m}).gain_us, 0.0);
}

}  // namespace
}  // namespace occx::step
