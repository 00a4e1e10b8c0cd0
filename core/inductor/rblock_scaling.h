// PyTorch Inductor's dynamic RBLOCK scaling decision for one compiled config, and
// the scaling loop over a kernel's compiled configs, under four upper bounds on resident blocks per
// SM (core/inductor/bounds.h) and two versions ("profiles", core/inductor/profile.h) of Inductor.
//
// Source of the logic: torch/_inductor/runtime/triton_heuristics.py, CachingAutotuner
// ._dynamic_scale_rblock (current) and the precompile() loop of September 2023 (first version, one
// RBLOCK kwarg). This is our own code; every number it uses comes from the device (registers per SM,
// threads per SM, warp size, SM count) or from the compiled kernel (n_regs, shared memory).
//
// The decision, per compiled reduction config, in seven steps (Decision::step names the one that
// decided):
//   1. gates: the dynamic_scale_rblock switch, deterministic mode (current only), persistent
//      reductions and non-reduction kernels, the compute-capability gate (2023: major == 8;
//      current: major >= 8 or ROCm);
//   2. n_regs unknown → skip; product of the R blocks <= 64 → skip;
//   3. n_regs <= registers_per_SM // max_threads_per_SM → skip (registers do not limit occupancy);
//   4. total_blocks = ceil(size_hint_x / XBLOCK);
//   5. bound on resident blocks per SM (the policy);
//   6. total_blocks <= bound × SM count → no new config;
//   7. otherwise a copy with the largest R block halved, unless an identical config exists.
// The spills rule (Policy::kSpills) keeps steps 1, 2 and 7 and replaces 3–6 with one question:
// does the config spill (n_spills > 0)? Unknown n_spills skips at step 2.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/device.h"
#include "core/inductor/bounds.h"
#include "core/inductor/config.h"
#include "core/inductor/profile.h"

namespace occx::inductor {

/// How a decision ended.
enum class Outcome {
  kNotApplicable,  ///< a gate of steps 1–3 skipped the config
  kNoScale,        ///< step 6: total blocks fit in bound × SMs
  kScale,          ///< step 7: a halved config is added
  kDuplicate,      ///< step 7: the halved config is already a candidate, nothing added
};
/// "not applicable", "no scaling", "scale", "duplicate".
std::string_view outcomeName(Outcome outcome);

/// The decision of one policy for one config.
struct Decision {
  Policy policy = Policy::kNew;
  Profile profile = Profile::kInductorCurrent;
  Outcome outcome = Outcome::kNotApplicable;
  bool applies = false;                       ///< passed steps 1–3, so the bound was evaluated
  int step = 0;                               ///< the step (1–7) that decided
  int bound_blocks_per_sm = 0;                ///< step 5 (0 when not applicable)
  std::int64_t capacity_blocks = 0;           ///< bound × SM count
  std::int64_t total_blocks = 0;              ///< ceil(size_hint_x / XBLOCK), computed for every config
  std::optional<ReductionConfig> new_config;  ///< the halved config (kScale, and kDuplicate for show)
  std::string halved_kwarg;                   ///< "R0_BLOCK", "R1_BLOCK" or "RBLOCK"
  std::string bound_arithmetic;
  std::string reason;  ///< one sentence naming the step that decided, with its numbers

  [[nodiscard]] bool scales() const { return outcome == Outcome::kScale; }
};

/// Decides one config. `existing` are the configs already compiled or added (for step 7's duplicate
/// check; may be null). Errors: an invalid config or device (validateConfig's message). Never throws.
Expected<Decision> decide(Policy policy, const ReductionConfig& config, const KernelInfo& kernel, const Device& device,
                          const DecisionOptions& options = {}, const std::vector<ReductionConfig>* existing = nullptr);

/// One config visited by the scaling loop.
struct PassEntry {
  ReductionConfig config;
  bool added_by_pass = false;  ///< appended by this pass (a halved copy)
  int parent = -1;             ///< index of the config it was halved from
  Decision decision;
};

/// The whole loop over a kernel's compiled configs, as Inductor runs it.
struct ScalingPass {
  Policy policy = Policy::kNew;
  Profile profile = Profile::kInductorCurrent;
  std::vector<PassEntry> entries;  ///< originals, then added configs, in loop order
  int added = 0;
  std::string note;  ///< how the profile's loop treats the configs it adds
};

/// Runs the loop over `compiled` (each with n_regs, or without = unknown). The current profile's
/// loop also visits the configs it appends, but their n_regs is not known until the kernels are
/// loaded after the loop, so step 2 skips them: each original is halved at most once. The 2023
/// loop walks the original configs only. Errors: as decide().
Expected<ScalingPass> runScalingPass(Policy policy, const std::vector<ReductionConfig>& compiled,
                                     const KernelInfo& kernel, const Device& device,
                                     const DecisionOptions& options = {});

}  // namespace occx::inductor
