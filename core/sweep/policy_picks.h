// Each policy's pick among measured configs, as Inductor's autotuner would make it — one summary for
// both kernel sources (the family's live sweeps and Inductor's own configs run live).
//
// The autotuner benchmarks a policy's candidate set (Inductor's candidates plus the halved configs
// that policy's scaling adds) and keeps the fastest. Configs with more spilled registers than
// spill_threshold are never run: Inductor scores them as infinitely slow
// (torch/_inductor/runtime/triton_heuristics.py, CachingAutotuner.bench), then takes min() over the
// timings, which keeps the first of equal values — so when every config of the set is over the
// threshold, the first config of the set is the pick. We do the same with the rows' order (an
// Inductor run's compiled configs in the order the run lists them; a family sweep's configs in the
// sweep's order), taking the first config of the set that ran ok (one that did not run has no time),
// and mark the pick all_over_threshold so every table can say so.
#pragma once

#include <string>
#include <vector>

#include "core/inductor/bounds.h"
#include "core/sweep/measurement.h"

namespace occx {

/// What a pick needs to know of one measured config.
struct PickInput {
  const Measurement* measured = nullptr;  ///< never null
  inductor::PolicySet in_set;             ///< the policies whose candidate set holds the config
  bool over_spill_threshold = false;      ///< n_spills > the kernel's spill_threshold
};

/// One policy's pick.
struct PolicyPick {
  inductor::Policy policy = inductor::Policy::kNew;
  int candidates = 0;   ///< configs in the policy's set (that are in the rows)
  int benchmarked = 0;  ///< of those, measured ok and not over the spill threshold
  /// Every config of the set was over the spill threshold: the pick is the first one that ran ok,
  /// as Inductor's min() over infinite timings keeps the first.
  bool all_over_threshold = false;
  std::vector<std::string> not_compiled;  ///< halved configs the policy would add that are not in the rows
  int row = -1;                           ///< index of the pick in the rows; -1 when none ran
  double time_us = 0.0;                   ///< the pick's Measurement::timeUs(), µs
  double bandwidth_GBps = 0.0;
  double regret = 0.0;  ///< pick time / best time (1 = the best); 0 when there is no pick
};

/// The best measured config and each policy's pick.
struct PickSummary {
  int best_row = -1;  ///< fastest ok row of all; -1 when none ran ok
  /// Some ok row has no CUPTI device time: every row was compared by CUDA events (one source).
  bool events_only = false;
  /// A row's time as this summary compared it (timeUs(), or events when events_only), µs.
  [[nodiscard]] double timeOf(const Measurement& m) const { return events_only ? m.time.median_us : m.timeUs(); }
  /// The same row's L2-warm time from the same source, µs; 0 when warm was not measured by it.
  [[nodiscard]] double warmTimeOf(const Measurement& m) const {
    if (events_only) return m.warm_time ? m.warm_time->median_us : 0.0;
    return m.warmTimeUs().value_or(0.0);
  }
  double best_time_us = 0.0;
  double best_bandwidth_GBps = 0.0;
  std::vector<PolicyPick> picks;  ///< one per policy asked for, in that order

  /// The pick of `policy`, or nullptr when it was not asked for.
  [[nodiscard]] const PolicyPick* pick(inductor::Policy policy) const;
};

/// Computes the best row (fastest ok row) and, for each of `policies`, its pick: the fastest ok row
/// of its set that is not over the spill threshold; when every ok row of the set is over it, the
/// first ok row of the set (all_over_threshold). Regret = pick time / best time. Times are the
/// figure configs are compared by, Measurement::timeUs() (kTimeFigure: device time per launch, L2
/// cold) — or, when some ok row lacks CUPTI's time, every row's CUDA events (events_only), so one
/// comparison never mixes the two. Row indices are positions in `rows`. Never throws.
PickSummary summarizePicks(const std::vector<PickInput>& rows, const std::vector<inductor::Policy>& policies);

}  // namespace occx
