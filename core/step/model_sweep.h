// The user's whole step, swept: the looped reductions that ran in a torch.profiler trace of the step,
// in order of their in-step time, each swept (core/triton/kernel_sweep.h) on the default grid — the
// next kernel compiling while the GPU times the current one — until a time budget or a kernel count
// is spent; then what the step would gain: per kernel, its in-step time × (1 − best / the config that
// ran), the total as µs per step and as a share of the step, and the step as each policy's picks
// would make it. In-step times are the trace's (the truth for a kernel's time); the ratios are the
// sweep's cold device times.
#pragma once

#include <array>
#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/step/step_profile.h"
#include "core/sweep/policy_picks.h"
#include "core/triton/kernel_sweep.h"

namespace occx::step {

/// One reduction of the step to sweep.
struct SweepTarget {
  const triton::RunKernel* kernel = nullptr;  ///< in the run (outlives the plan)
  int step_kernel = -1;                       ///< index into StepProfile::kernels
  double per_step_us = 0.0;                   ///< its device time per step, µs
  double share = 0.0;                         ///< of the step's GPU time, 0 … 1
  double launches_per_step = 0.0;
  std::string ran_config;  ///< the config its launches used ("X1 R2048 w16"); empty when unknown
};

/// What a model sweep will sweep, and what it leaves out and why.
struct ModelSweepPlan {
  std::vector<SweepTarget> targets;   ///< longest in-step time first
  std::vector<std::string> left_out;  ///< "triton_red_fused_1: 3.1 µs/step — not in the run", "… beyond --top 3"
  double looped_per_step_us = 0.0;    ///< every looped reduction of the step, µs
  double step_us = 0.0;               ///< the step's GPU time, µs
};

/// The looped reductions of `profile` (joined to `run`, whose rows are `rows`: scanRows(run)) that
/// matched one kernel of the run, longest in-step time first; at most `top_n` (0 = all). Kernels
/// not matched, ambiguous or beyond top_n are left out with the reason. Never throws.
ModelSweepPlan planModelSweep(const StepProfile& profile, const triton::InductorRun& run,
                              const std::vector<triton::ScanRow>& rows, int top_n);

/// A kernel's configs as its step sees them. Inside a step a kernel finds part of its inputs in L2,
/// written there by the kernel before it; the sweep measures both ends (cold: L2 flushed; warm: the
/// inputs just written, core/sweep/measurement.h). The config that ran places the step between them.
struct InStepMix {
  /// (in-step − warm) / (cold − warm) of the config that ran, clamped to 0 … 1 (0: the step is no
  /// slower than warm); 1 (cold only) when its warm time is unknown, not at least 2 % below cold, or
  /// its in-step time is unknown.
  double cold_share = 1.0;
  double in_step_us = 0.0;   ///< the config that ran: mean device time per launch inside the step, µs
  double ran_cold_us = 0.0;  ///< the config that ran: cold device time per launch in the sweep, µs
  double ran_warm_us = 0.0;  ///< likewise warm, µs (0: unknown)
  double ran_step_us = 0.0;  ///< cold_share × cold + (1 − cold_share) × warm, µs per launch
  /// Cold only because the sweep compared CUDA events (some row lacks CUPTI's times): the step's
  /// times are CUPTI's device times, which events (with launch overhead) cannot be placed against.
  bool events_only = false;

  /// A config's time as the step sees it, µs per launch, from its cold and warm sweep times (µs, the
  /// clock of ran's). Warm unknown (≤ 0) while the step is not cold only: its cold time scaled as
  /// ran's, cold_us × ran_step_us / ran_cold_us (hasWarm says when a row has one).
  [[nodiscard]] double stepUs(double cold_us, double warm_us) const;
  /// The same for a measured row on `clock` (the picks' clock: timeOf and warmTimeOf), µs per launch.
  [[nodiscard]] double stepUs(const PickSummary& clock, const Measurement& m) const {
    return stepUs(clock.timeOf(m), clock.warmTimeOf(m));
  }
  /// Whether `m` can be compared as the step sees it without a guess: the step is cold only, or `m`
  /// has a warm time on `clock` (the screen pass's brief rows have none).
  [[nodiscard]] bool hasWarm(const PickSummary& clock, const Measurement& m) const {
    return cold_share >= 1.0 || clock.warmTimeOf(m) > 0;
  }
  /// The mix in words for a pin or a gain, e.g. " In the step X1 R1024 w8 takes 14.1 µs per launch,
  /// between its warm (13.4 µs) and cold (18.9 µs) times: configs are compared 13 % cold, 87 % warm,
  /// as the step sees them."; empty when compared cold for want of a warm time.
  [[nodiscard]] std::string words(const std::string& ran_config) const;
};

/// The mix from `in_step_us`, the mean time per launch inside the step of the config that ran (its
/// device time per step / launches per step, from the profiler trace), and that config's cold and warm
/// sweep times (µs, one clock; warm ≤ 0: unknown). On four models' training steps on an H200 (GPT-2,
/// BERT, T5, Blenderbot; 21 pins) the pinned kernels' in-step times were predicted within 12 %
/// (mean error 3.6 %); by cold times alone within 20 % (mean 4.9 %). Never throws.
InStepMix inStepMix(double in_step_us, double ran_cold_us, double ran_warm_us);

/// The mix of `target`'s kernel from its sweep: `ran` (the row of the config that ran, ok) on `clock`
/// (its picks' clock) against the target's device time per step / launches per step. Cold only, with
/// events_only set, when the clock is CUDA events. Never throws.
InStepMix targetMix(const SweepTarget& target, const PickSummary& clock, const Measurement& ran);

/// One kernel's predicted gain.
struct KernelGain {
  std::string kernel;
  std::string module;
  double per_step_us = 0.0;
  std::string ran_config;   ///< the config of the step ("" unknown: no gain predicted)
  double ran_us = 0.0;      ///< its time in the sweep (cold device time), µs; 0 unknown
  std::string best_config;  ///< the fastest config cold: the sweep's pick
  double best_us = 0.0;
  /// How the step weighs the kernel's cold and warm times (targetMix of the config that ran).
  InStepMix mix;
  /// The config fastest as the step sees it (mix.stepUs; rows with a warm time when the mix needs one):
  /// best_config unless the step's L2 reorders them.
  std::string gain_config;
  /// per_step_us × (1 − gain_config / ran), each as the step sees it, µs per step (≥ 0).
  double gain_us = 0.0;
  /// Each policy's pick (inductor::kPolicies order) and the kernel's in-step time with it (per_step_us ×
  /// pick / ran, each as the step sees it), µs.
  std::array<std::string, 5> policy_config;
  std::array<double, 5> policy_per_step_us{};
  std::string coordesc_config;  ///< Inductor's winner when coordinate descent found it; else empty
  double coordesc_us = 0.0;     ///< its time in the sweep, µs
};

/// The step's predicted gain.
struct StepGain {
  double step_us = 0.0;  ///< the step's GPU time, µs
  std::vector<KernelGain> kernels;
  double gain_us = 0.0;     ///< Σ gain_us, µs per step
  double gain_share = 0.0;  ///< gain_us / step_us, 0 … 1
  /// The step's GPU time if every swept kernel took that policy's pick (kPolicies order), µs.
  std::array<double, 5> policy_step_us{};
  std::string text;  ///< in words; says plainly when there is little to gain (under 1 % of the step)

  /// Whether some swept kernel has coordinate descent's pick (its .best_config says found_by_coordesc).
  [[nodiscard]] bool hasCoordesc() const;
};

/// The gain of the swept kernels: `swept[i]` is the sweep of `targets[i]` (rows and picks; rows of
/// another kernel are ignored). A kernel whose config of the step did not run ok predicts no gain.
StepGain predictStepGain(const ModelSweepPlan& plan, const std::vector<triton::KernelMeasurements>& swept);

/// How to sweep the step.
struct ModelSweepOptions {
  triton::KernelSweepOptions sweep;  ///< per kernel; the grid is each kernel's default grid
  double budget_s = 0.0;             ///< stop starting kernels after this much wall time, s (0 = none)
};

/// Progress: kernel `kernel_index` (1-based) of `kernels`, the kernel's own progress, wall time so far.
struct ModelSweepProgress {
  int kernel_index = 0;
  int kernels = 0;
  std::string kernel;
  triton::KernelSweepProgress inner;
  double elapsed_s = 0.0;
};

/// One kernel's outcome.
struct ModelSweepKernel {
  SweepTarget target;
  std::optional<triton::KernelSweepResult> result;  ///< empty when it failed
  std::string error;                                ///< why it failed
  double seconds = 0.0;                             ///< wall time of its sweep (compile and runs)
};

struct ModelSweepResult {
  ModelSweepPlan plan;
  std::vector<ModelSweepKernel> kernels;  ///< those started, in plan order
  std::vector<std::string> not_swept;     ///< targets the budget or a cancel left out, with the reason
  StepGain gain;
  double seconds = 0.0;
  bool cancelled = false;
};

/// The sweep's result in words, one paragraph a line, as the CLI and the Step tab show them under the
/// table: the gain (StepGain::text), what each figure is, how to see Inductor's own tuning when the run
/// was not compiled with coordinate descent, the kernels left out and not swept, and the wall time.
std::vector<std::string> modelSweepNotes(const ModelSweepResult& result);

/// Sweeps the plan's targets in order (kernel modules read from their files): the next kernel
/// compiles while the GPU runs the current one; a kernel that fails is a row with its error and the
/// sweep goes on; once `budget_s` is spent no kernel is started (those left say so); cancel keeps
/// what finished. `runner` may be null (compiled and analysed, not timed). Never throws.
ModelSweepResult sweepModel(const ModelSweepPlan& plan, const ModelSweepOptions& options, GpuRunner* runner,
                            const std::function<void(const ModelSweepProgress&)>& progress = {},
                            const std::atomic<bool>* cancel = nullptr);

}  // namespace occx::step
