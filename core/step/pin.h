// Handing a sweep's pick back to Inductor: a kernel's `.best_config` (the autotuner's winner, beside
// its module in the Inductor cache) rewritten to name the config, so that the next compile of the step
// runs it — and whether it would hold. Inductor (torch/_inductor/runtime/autotune_cache.py and
// triton_heuristics.py, PyTorch 2.11) reads the file when it loads the kernel; the file is used when
// its configs_hash is the kernel's (we keep the one Inductor wrote) and, when the module was compiled
// with coordinate descent, as is if found_by_coordesc is true; otherwise only when it names one of
// Inductor's candidates. The one config is then compiled, and the dynamic RBLOCK scaling runs on it
// alone (core/inductor/rblock_scaling.h, current bound): when it adds a halved copy, Inductor times
// the two and keeps the faster, so the pin does not hold (seen on an H200: a pinned X2 R4096 w16 ran as
// X2 R2048 w16). A pin holds when the file is used and the scaling adds nothing.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/step/model_sweep.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_measurements.h"

namespace occx::step {

/// Whether Inductor would run a pinned config.
enum class PinHold {
  kHolds,          ///< the file is used and the RBLOCK scaling adds nothing: Inductor runs the config
  kScaled,         ///< the scaling adds a halved copy and Inductor times the two
  kNotACandidate,  ///< compiled without coordinate descent and not a candidate: Inductor ignores the file
  kNoFile,         ///< no `.best_config` beside the module: its configs_hash is unknown
  kUndecided,      ///< the scaling decision is unknown (registers, device or a size hint unknown)
};
/// "holds", "scaled", "not a candidate", "no .best_config", "undecided".
std::string_view pinHoldName(PinHold hold);

/// The verdict on one config as a pin, with the reason in words.
struct PinCheck {
  PinHold hold = PinHold::kUndecided;
  std::string sibling;  ///< kScaled: the halved copy the scaling adds ("X2 R2048 w16")
  std::string reason;   ///< one sentence with the numbers that decided

  [[nodiscard]] bool holds() const { return hold == PinHold::kHolds; }
};

/// Whether `row` (a config of `kernel` as a sweep measured it: tile, num_warps, num_stages and the
/// compiled kernel's n_regs and n_spills) would hold as a pin of `kernel` (a scanned kernel: its module,
/// device and `.best_config`). The scaling decision is the current bound's (Policy::kNew) on the config
/// alone (triton::decideAlone). Never throws.
PinCheck checkPin(const triton::RunKernel& kernel, const triton::MeasuredConfig& row);

/// One swept kernel's pin: the config that would hold and is fastest as the step sees it, when it is
/// faster there than the config that ran in the step.
struct KernelPin {
  std::string kernel;
  std::string module;
  std::string file;          ///< the `.best_config` to rewrite; empty when none
  double per_step_us = 0.0;  ///< in-step time per step in the trace, µs
  std::string ran_config;
  double ran_us = 0.0;  ///< its time in the sweep: cold device time per launch, µs (0 unknown)
  std::string best_config;
  double best_us = 0.0;  ///< cold device time per launch in the sweep, µs
  PinCheck best_check;   ///< the sweep's best as a pin
  /// The config to pin: the fastest as the step sees it that holds and has a warm time when the mix
  /// needs one, when faster there than the one that ran; empty otherwise.
  std::optional<triton::MeasuredConfig> pin;
  double pin_us = 0.0;       ///< cold device time per launch in the sweep, µs
  InStepMix mix;             ///< how the step weighs cold and warm times (targetMix; cold_share 1: cold only)
  double pin_step_us = 0.0;  ///< the pin as the step sees it: mix.stepUs(pin cold, pin warm), µs per launch
  /// per_step_us × pin_step_us / mix.ran_step_us: the kernel's in-step time per step once pinned, µs.
  double predicted_per_step_us = 0.0;
  /// The largest interquartile spread of the ran and pinned configs' cold and warm runs, % (a
  /// predicted gain below it is within the sweep's noise: the words say so).
  double spread_pct = 0.0;
  std::string words;  ///< what to pin and why, or why nothing is pinned

  [[nodiscard]] std::string pinConfig() const { return pin ? pin->configText() : std::string(); }
};

/// The pin of one kernel from its sweep: `swept` holds the kernel's measured configs and their picks
/// (other kernels' rows are ignored; the picks give the clock), `target` says what ran in the step, its in-step time
/// and launches. Device times per launch on one clock, as the kernel's picks compare them (CUDA events for every row
/// when one lacks CUPTI's); the best is the fastest cold; a pin is compared as the step sees it: cold and warm weighed
/// by where the config that ran lies between them in the step (inStepMix). A config whose registers
/// are unknown is never pinned (undecided). Never throws.
KernelPin planPin(const triton::RunKernel& kernel, const triton::KernelMeasurements& swept, const SweepTarget& target);

/// The pins of every kernel a model sweep measured, in the sweep's order (kernels that failed or were
/// not timed say so in their words). Never throws.
std::vector<KernelPin> planPins(const ModelSweepResult& result);

/// What writing a pin did.
struct PinWritten {
  std::string file;          ///< the `.best_config` rewritten
  std::string backup;        ///< Inductor's own file, kept the first time the file is pinned
  bool backup_made = false;  ///< false: a backup of Inductor's file was already there and is kept
};

/// The suffix of a pinned `.best_config`'s backup: "<file>.occx-backup".
inline constexpr std::string_view kPinBackupSuffix = ".occx-backup";

/// Rewrites `pin.file` to name `pin.pin`: the kernel's keys as Inductor wrote them (XBLOCK, R0_BLOCK…,
/// num_warps, num_stages, configs_hash) with the pinned values, found_by_coordesc true, the Triton cache
/// hash null. Inductor's file is first copied to file + kPinBackupSuffix, unless a backup is there
/// already (an earlier pin's: the original stays). Both writes are atomic. Errors: nothing to pin, no
/// file, the file is not Inductor's JSON or lacks a key the pin sets, a write fails (the file is
/// then unchanged). Never throws.
Expected<PinWritten> writePin(const KernelPin& pin);

/// Puts back every `.best_config` pinned under `dir` (recursively, at most 32 levels) from its backup,
/// and removes the backup. Returns the files restored. Errors: `dir` is not a folder; a backup that
/// cannot be restored (the rest are still restored; the error lists each). Never throws.
Expected<std::vector<std::string>> restorePins(const std::string& dir);

}  // namespace occx::step
