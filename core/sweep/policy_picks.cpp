#include "core/sweep/policy_picks.h"

namespace occx {

const PolicyPick* PickSummary::pick(inductor::Policy policy) const {
  for (const auto& p : picks) {
    if (p.policy == policy) return &p;
  }
  return nullptr;
}

PickSummary summarizePicks(const std::vector<PickInput>& rows, const std::vector<inductor::Policy>& policies) {
  PickSummary s;
  // One source for every row compared: CUPTI's device time when every ok row has it, else events.
  for (const PickInput& r : rows) {
    if (r.measured->ok() && !r.measured->kernel_time) s.events_only = true;
  }
  const auto timeOf = [&s](const Measurement& m) { return s.timeOf(m); };
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const Measurement& m = *rows[i].measured;
    if (!m.ok()) continue;
    if (s.best_row < 0 || timeOf(m) < s.best_time_us) {
      s.best_row = static_cast<int>(i);
      s.best_time_us = timeOf(m);
      s.best_bandwidth_GBps = m.bandwidth_GBps;
    }
  }
  for (inductor::Policy policy : policies) {
    PolicyPick p;
    p.policy = policy;
    int first_ok = -1;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const PickInput& r = rows[i];
      if (!r.in_set.contains(policy)) continue;
      ++p.candidates;
      const Measurement& m = *r.measured;
      if (!m.ok()) continue;
      if (first_ok < 0) first_ok = static_cast<int>(i);
      if (r.over_spill_threshold) continue;
      ++p.benchmarked;
      if (p.row < 0 || timeOf(m) < p.time_us) {
        p.row = static_cast<int>(i);
        p.time_us = timeOf(m);
        p.bandwidth_GBps = m.bandwidth_GBps;
      }
    }
    if (p.row < 0 && first_ok >= 0) {
      // Every config of the set that ran is over the spill threshold: Inductor times them all as
      // infinitely slow and min() keeps the first.
      p.all_over_threshold = true;
      p.row = first_ok;
      const Measurement& m = *rows[static_cast<std::size_t>(first_ok)].measured;
      p.time_us = timeOf(m);
      p.bandwidth_GBps = m.bandwidth_GBps;
    }
    if (p.row >= 0 && s.best_time_us > 0.0) p.regret = p.time_us / s.best_time_us;
    s.picks.push_back(std::move(p));
  }
  return s;
}

}  // namespace occx
