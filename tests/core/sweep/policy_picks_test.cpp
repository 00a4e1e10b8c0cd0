// One pick summary for both kernel sources: summarizePicks itself, the family's replay
// (summarizeReplay over LiveRows) and Inductor's configs run live (summarizeMeasurements over
// MeasuredConfigs) — in particular the rule when every config of a set is over the spill threshold.
#include "core/sweep/policy_picks.h"

#include <gtest/gtest.h>

#include "core/sweep/live_results.h"
#include "core/triton/kernel_measurements.h"

namespace occx {
namespace {

using inductor::Policy;
using inductor::PolicySet;

Measurement measured(RunStatus status, double median_us) {
  Measurement m;
  m.status = status;
  m.time.median_us = median_us;
  m.bandwidth_GBps = median_us > 0 ? 1000.0 / median_us : 0.0;
  return m;
}

TEST(PolicySet, KeyedByTheEnum) {
  PolicySet s{Policy::kNew, Policy::kSpills};
  EXPECT_TRUE(s.contains(Policy::kNew));
  EXPECT_TRUE(s.contains(Policy::kSpills));
  EXPECT_FALSE(s.contains(Policy::kOld));
  EXPECT_EQ(s.keys(), "new,spills");
  s.set(Policy::kNew, false);
  EXPECT_EQ(s.keys(), "spills");
  EXPECT_TRUE(PolicySet().empty());
  EXPECT_EQ(PolicySet::all().members().size(), inductor::kPolicies.size());
  EXPECT_EQ(inductor::boundPolicies().size(), 4u);  // every policy but spills
}

TEST(SummarizePicks, FastestOfTheSetUnderTheThreshold) {
  const Measurement a = measured(RunStatus::kOk, 30.0);
  const Measurement b = measured(RunStatus::kOk, 20.0);  // fastest, but over the threshold
  const Measurement c = measured(RunStatus::kOk, 25.0);
  const Measurement d = measured(RunStatus::kWrongResult, 0.0);
  const std::vector<PickInput> rows = {{&a, {Policy::kOld, Policy::kNew}, false},
                                       {&b, {Policy::kNew}, true},
                                       {&c, {Policy::kNew}, false},
                                       {&d, {Policy::kOld}, false}};
  const PickSummary s = summarizePicks(rows, {Policy::kOld, Policy::kNew, Policy::kExact});
  EXPECT_EQ(s.best_row, 1);
  EXPECT_DOUBLE_EQ(s.best_time_us, 20.0);
  ASSERT_EQ(s.picks.size(), 3u);
  const PolicyPick* old_pick = s.pick(Policy::kOld);
  ASSERT_NE(old_pick, nullptr);
  EXPECT_EQ(old_pick->row, 0);
  EXPECT_EQ(old_pick->candidates, 2);
  EXPECT_EQ(old_pick->benchmarked, 1);
  EXPECT_DOUBLE_EQ(old_pick->regret, 1.5);
  const PolicyPick* new_pick = s.pick(Policy::kNew);
  EXPECT_EQ(new_pick->row, 2);
  EXPECT_EQ(new_pick->candidates, 3);
  EXPECT_EQ(new_pick->benchmarked, 2);
  EXPECT_FALSE(new_pick->all_over_threshold);
  EXPECT_DOUBLE_EQ(new_pick->regret, 1.25);
  EXPECT_EQ(s.pick(Policy::kExact)->row, -1);   // an empty set has no pick
  EXPECT_EQ(s.pick(Policy::kSpills), nullptr);  // not asked for
}

TEST(SummarizePicks, EveryConfigOverTheThresholdPicksTheFirstThatRan) {
  // Inductor scores every config over the threshold as infinitely slow; min() keeps the first.
  const Measurement failed = measured(RunStatus::kLaunchFailed, 0.0);
  const Measurement slow = measured(RunStatus::kOk, 40.0);
  const Measurement fast = measured(RunStatus::kOk, 10.0);
  const std::vector<PickInput> rows = {
      {&failed, {Policy::kNew}, true}, {&slow, {Policy::kNew}, true}, {&fast, {Policy::kNew}, true}};
  const PickSummary s = summarizePicks(rows, {Policy::kNew});
  const PolicyPick& p = s.picks.front();
  EXPECT_TRUE(p.all_over_threshold);
  EXPECT_EQ(p.row, 1);  // the first of the set that ran, not the fastest
  EXPECT_EQ(p.candidates, 3);
  EXPECT_EQ(p.benchmarked, 0);
  EXPECT_DOUBLE_EQ(p.time_us, 40.0);
  EXPECT_DOUBLE_EQ(p.regret, 4.0);
}

LiveRow familyRow(int rblock, double median_us, int n_spills) {
  LiveRow r;
  r.config.rblock = rblock;
  r.config.num_warps = 16;
  r.inductor_candidate = true;
  r.n_spills = n_spills;
  r.measured = measured(RunStatus::kOk, median_us);
  return r;
}

TEST(SummarizePicks, FamilyReplayWhenEveryCandidateSpills) {
  // Both candidates spill 40 registers (threshold 16): the first is the pick for every policy.
  const std::vector<LiveRow> rows = {familyRow(32768, 45.0, 40), familyRow(16384, 30.0, 40)};
  const PickSummary s = summarizeReplay(rows, 16);
  ASSERT_EQ(s.picks.size(), 3u);  // old, new, exact: the sets a family dataset records
  for (const PolicyPick& p : s.picks) {
    EXPECT_TRUE(p.all_over_threshold) << inductor::policyKey(p.policy);
    EXPECT_EQ(p.row, 0) << inductor::policyKey(p.policy);
    EXPECT_DOUBLE_EQ(p.regret, 1.5) << inductor::policyKey(p.policy);
  }
  EXPECT_EQ(s.best_row, 1);
}

triton::MeasuredConfig inductorRow(int r0_block, double median_us, bool over_threshold) {
  triton::MeasuredConfig r;
  r.kernel = "triton_red_fused__log_softmax_0";
  r.module = "abc";
  r.r0_block = r0_block;
  r.num_warps = 16;
  r.origin = "candidate";
  r.in_set = PolicySet::all();
  r.over_spill_threshold = over_threshold;
  r.measured = measured(RunStatus::kOk, median_us);
  return r;
}

TEST(SummarizePicks, InductorRunsWhenEveryCandidateSpills) {
  const std::vector<triton::MeasuredConfig> rows = {inductorRow(32768, 45.0, true), inductorRow(16384, 30.0, true)};
  const auto picks = triton::summarizeMeasurements(rows);
  ASSERT_EQ(picks.size(), 1u);
  ASSERT_EQ(picks.front().picks.size(), inductor::kPolicies.size());
  for (const PolicyPick& p : picks.front().picks) {
    EXPECT_TRUE(p.all_over_threshold) << inductor::policyKey(p.policy);
    EXPECT_EQ(p.row, 0) << inductor::policyKey(p.policy);
    EXPECT_DOUBLE_EQ(p.regret, 1.5) << inductor::policyKey(p.policy);
  }
  EXPECT_EQ(picks.front().best_row, 1);
}

}  // namespace
}  // namespace occx
