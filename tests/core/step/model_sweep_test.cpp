// The model sweep's plan (the step's looped reductions by in-step time) on the recorded GPT-2 step,
// and the step's predicted gain from measured rows.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
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

/// The plan of GPT-2's largest looped reduction alone, in a step of `step_us` where it takes `per_step_us`.
ModelSweepPlan largestKernelPlan(double step_us, double per_step_us) {
  const Gpt2Step& g = gpt2();
  ModelSweepPlan plan = planModelSweep(g.profile, g.run, g.rows, 1);
  plan.step_us = step_us;
  if (!plan.targets.empty()) plan.targets[0].per_step_us = per_step_us;
  return plan;
}

/// A policy set of one policy.
inductor::PolicySet only(inductor::Policy policy) {
  inductor::PolicySet set;
  set.insert(policy);
  return set;
}

TEST(ModelSweep, TheGainIsTheInStepTimeTimesOneMinusBestOverRan) {
  const ModelSweepPlan plan = largestKernelPlan(2000.0, 200.0);
  ASSERT_EQ(plan.targets.size(), 1U);
  const std::string name = plan.targets[0].kernel->module.name;
  triton::KernelMeasurements m;
  m.rows = {measuredRow(name, 1024, 8, 100.0, inductor::PolicySet::all()),  // ran in the step
            measuredRow(name, 512, 8, 80.0, inductor::PolicySet{}),         // the sweep's best
            measuredRow(name, 2048, 8, 120.0, only(inductor::Policy::kOld))};
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

TEST(ModelSweep, TheGainIsWhatTheStepWouldSeeBetweenWarmAndCold) {
  ModelSweepPlan plan = largestKernelPlan(2000.0, 28.0);  // two launches of 14.0 µs
  ASSERT_EQ(plan.targets.size(), 1U);
  plan.targets[0].launches_per_step = 2.0;
  const std::string name = plan.targets[0].kernel->module.name;
  triton::KernelMeasurements m;
  m.rows = {measuredRow(name, 1024, 8, 19.0, inductor::PolicySet::all()),    // ran: 19.0 cold, 13.0 warm
            measuredRow(name, 512, 8, 17.0, only(inductor::Policy::kNew))};  // best cold, 14.5 warm; new's pick
  const auto cupti = [](triton::MeasuredConfig& r, double cold, double warm) {
    r.measured.kernel_time = summarizeTimes({cold, cold, cold});
    r.measured.warm_kernel_time = summarizeTimes({warm, warm, warm});
  };
  cupti(m.rows[0], 19.0, 13.0);
  cupti(m.rows[1], 17.0, 14.5);
  for (auto& r : m.rows) r.module = plan.targets[0].kernel->module.module_hash;
  m.picks = triton::summarizeMeasurements(m.rows);
  StepGain gain = predictStepGain(plan, {m});
  ASSERT_EQ(gain.kernels.size(), 1U);
  // In the step the config that ran took 14.0 µs per launch: 1/6 of the way from warm (13.0) to cold (19.0).
  EXPECT_NEAR(gain.kernels[0].mix.cold_share, 1.0 / 6.0, 1e-12);
  EXPECT_EQ(gain.kernels[0].best_config, "X1 R512 w8");  // the fastest cold: the sweep's pick
  // As the step sees it the best takes 17.0 / 6 + 14.5 × 5 / 6 = 14.917 µs, slower than 14.0: no gain, where
  // cold times alone would have claimed 28 × (1 − 17 / 19) = 2.9 µs per step.
  EXPECT_DOUBLE_EQ(gain.kernels[0].gain_us, 0.0);
  EXPECT_EQ(gain.kernels[0].gain_config, "X1 R1024 w8");  // nothing is faster in the step than ran
  // The new bound's pick, X1 R512 w8, would make the step slower: 28 × 14.917 / 14.0 = 29.83 µs.
  EXPECT_NEAR(gain.policy_step_us[inductor::policyIndex(inductor::Policy::kNew)],
              2000.0 - 28.0 + 28.0 * (17.0 / 6.0 + 14.5 * 5.0 / 6.0) / 14.0, 1e-9);
  // Warm 12.0 instead: 17 / 6 + 12 × 5 / 6 = 12.833 µs, 28 × (1 − 12.833 / 14.0) = 2.333 µs per step.
  cupti(m.rows[1], 17.0, 12.0);
  m.picks = triton::summarizeMeasurements(m.rows);
  gain = predictStepGain(plan, {m});
  EXPECT_EQ(gain.kernels[0].gain_config, "X1 R512 w8");
  EXPECT_NEAR(gain.kernels[0].gain_us, 28.0 * (1.0 - (17.0 / 6.0 + 12.0 * 5.0 / 6.0) / 14.0), 1e-9);
  EXPECT_NEAR(gain.policy_step_us[inductor::policyIndex(inductor::Policy::kOld)], 2000.0, 1e-9);  // picks ran
}

TEST(ModelSweep, TheNotesSayWhatTheFiguresAreAndHowToSeeCoordinateDescent) {
  ModelSweepResult r;
  r.kernels.resize(1);
  r.gain.kernels.resize(1);
  r.gain.text = "the gain";
  r.not_swept = {"k: cancelled"};
  r.seconds = 12.34;
  std::vector<std::string> notes = modelSweepNotes(r);
  ASSERT_EQ(notes.size(), 5U);
  EXPECT_EQ(notes[0], "the gain");
  EXPECT_NE(notes[1].find("cold µs"), std::string::npos) << notes[1];
  EXPECT_NE(notes[2].find("TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1"), std::string::npos) << notes[2];
  EXPECT_EQ(notes[3], "not swept: k: cancelled");
  EXPECT_EQ(notes[4], "Wall time: 12.3 s for 1 kernel.");
  // With coordinate descent's pick in the table, no advice to compile with it.
  EXPECT_FALSE(r.gain.hasCoordesc());
  r.gain.kernels[0].coordesc_config = "X1 R2048 w8";
  EXPECT_TRUE(r.gain.hasCoordesc());
  notes = modelSweepNotes(r);
  ASSERT_EQ(notes.size(), 4U);
  EXPECT_EQ(notes[2], "not swept: k: cancelled");
}

/// The kernel-runs CSV `name` of the recorded model sweeps (H200).
triton::KernelMeasurements recordedSweep(const std::string& name) {
  auto text = readFile(inductorFixture("model_sweeps") + "/" + name);
  if (!text) {
    ADD_FAILURE() << name << ": " << text.error();
    return {};
  }
  auto table = parseCsv(*text);
  if (!table) {
    ADD_FAILURE() << name << ": " << table.error();
    return {};
  }
  auto m = triton::measurementsFromCsv(*table);
  if (!m) {
    ADD_FAILURE() << name << ": " << m.error();
    return {};
  }
  return std::move(m).value();
}

const triton::MeasuredConfig* rowOfConfig(const triton::KernelMeasurements& m, const std::string& kernel,
                                          const std::string& config) {
  for (const auto& r : m.rows) {
    if (r.kernel == kernel && r.configText() == config) return &r;
  }
  return nullptr;
}

class RecordedModelSweep : public ::testing::TestWithParam<const char*> {};

/// On the H200, each model's step swept whole with a brief first pass picked, for each of its three
/// largest reductions, the config the exhaustive full-method sweep found best, within the baseline's
/// run-to-run spread (the larger of the two configs', at least 1 %).
TEST_P(RecordedModelSweep, TheFastSweepPicksWhatTheExhaustiveBaselinePicks) {
  const std::string model = GetParam();
  const triton::KernelMeasurements full = recordedSweep(model + ".full.csv");
  const triton::KernelMeasurements fast = recordedSweep(model + ".fast.csv");
  ASSERT_EQ(full.picks.size(), 3U);
  for (const auto& k : full.picks) {
    ASSERT_GE(k.best_row, 0) << k.kernel;
    const auto& best = full.rows[static_cast<std::size_t>(k.best_row)];
    const triton::KernelPicks* f = nullptr;
    for (const auto& p : fast.picks) {
      if (p.kernel == k.kernel) f = &p;
    }
    ASSERT_NE(f, nullptr) << k.kernel;
    const auto& fast_best = fast.rows[static_cast<std::size_t>(f->best_row)];
    EXPECT_EQ(fast_best.method, "full") << k.kernel;
    const triton::MeasuredConfig* in_full = rowOfConfig(full, k.kernel, fast_best.configText());
    ASSERT_NE(in_full, nullptr) << k.kernel;
    const double spread =
        std::max({1.0, best.measured.timeStats().spread_pct, in_full->measured.timeStats().spread_pct});
    EXPECT_LE(in_full->measured.timeUs(), k.best_time_us * (1.0 + spread / 100.0))
        << model << " " << k.kernel << ": fast " << fast_best.configText() << ", baseline " << best.configText();
  }
}

/// The screen pass, applied to the baseline's full-method times as if they were the brief ones,
/// keeps the best config of every recorded kernel and leaves most configs out.
TEST_P(RecordedModelSweep, TheScreenKeepsTheBaselinesBestAndDropsMostConfigs) {
  const triton::KernelMeasurements full = recordedSweep(std::string(GetParam()) + ".full.csv");
  for (const auto& k : full.picks) {
    std::vector<triton::MeasuredConfig> rows;
    for (const auto& r : full.rows) {
      if (r.kernel == k.kernel) rows.push_back(r);
    }
    double margin = 0.0;
    const auto finalists = triton::screenFinalists(rows, triton::ScreenPass{}, margin);
    EXPECT_GE(margin, 8.0);
    const std::string best = full.rows[static_cast<std::size_t>(k.best_row)].configText();
    bool kept = false;
    for (std::size_t i : finalists) kept = kept || rows[i].configText() == best;
    EXPECT_TRUE(kept) << k.kernel << ": " << best;
    if (rows.size() >= 40) {
      EXPECT_LT(finalists.size(), rows.size() / 2) << k.kernel;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Models, RecordedModelSweep, ::testing::Values("gpt2", "bert", "t5", "blenderbot"));

}  // namespace
}  // namespace occx::step
