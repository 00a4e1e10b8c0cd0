// Inductor's looped-reduction candidate configs and the whole pipeline around the RBLOCK-scaling
// decision: candidates → (n_regs, n_spills supplied per compiled candidate) → scaling pass (halved
// configs added) → spill filter at benchmark time.
//
// Source of the logic: torch/_inductor/runtime/triton_heuristics.py, _reduction_configs,
// triton_config_reduction, _get_nd_reduction_numels, _num_warps, _check_max_grid_x and
// CachingAutotuner.bench (spill_threshold 16). The 2023 profile follows the single-RBLOCK
// generator (num_warps clamped to 2 … 8, MAX_RBLOCK 2048). Not modelled: 3-D tilings with a "y"
// size hint (tiling scores), ROCm's extra configs and halved warps, the deterministic-mode filter
// that keeps one config, persistent-reduction candidates.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/inductor/rblock_scaling.h"

namespace occx::inductor {

/// Inductor's reduction hint for a kernel.
enum class ReductionHint { kInner, kOuter, kOuterTiny, kDefault };
/// "inner", "outer", "outer_tiny", "default".
std::string_view reductionHintKey(ReductionHint hint);
/// Parses a hint key (case-insensitive, "outer-tiny" accepted). Error lists the keys.
Expected<ReductionHint> parseReductionHint(std::string_view text);

/// Kernel facts the candidate generator reads (Inductor's inductor_meta).
struct CandidateOptions {
  int num_load = 0;        ///< loads in the kernel (0 … 1000)
  int num_reduction = 0;   ///< reductions in the kernel (0 … 1000)
  int num_dynamic = 0;     ///< dynamic-shape symbols in the signature (0 … 100)
  bool max_autotune = false;           ///< all configs whatever the hint
  bool add_persistent_rblock = false;  ///< prepend a config with R0_BLOCK = min(rnumel, 32768)
};

/// The looped-reduction configs Inductor would compile for `hints` and `hint`, in its order,
/// duplicates dropped (as cached_autotune does), each with num_warps as Inductor computes it and
/// `origin` naming the rule ("contiguous", "outer", "tiny", "64×64", "8×512", "64×4",
/// "persistent R0_BLOCK"). Errors: size hints not powers of two, counts out of range, a 2-D
/// reduction in the 2023 profile.
Expected<std::vector<ReductionConfig>> reductionCandidates(const SizeHints& hints, ReductionHint hint, Profile profile,
                                                           const CandidateOptions& options = {});

/// What compiling one config reported.
struct CompiledFacts {
  int n_regs = 0;                ///< registers per thread, 1 … 255
  int n_spills = 0;              ///< spilled registers (Triton's n_spills)
  std::int64_t shared_bytes = 0; ///< shared memory per block, bytes
};

/// Autotuning skips (times as infinitely slow) any Inductor-generated config spilling more than this.
inline constexpr int kSpillThreshold = 16;

/// Whether the autotuner will time a config.
enum class SpillStatus {
  kNotCompiled,  ///< n_spills not known (a config added by the pass, not compiled here)
  kEligible,     ///< n_spills <= threshold: benchmarked
  kExcluded,     ///< n_spills > threshold: never chosen
};
/// "not compiled", "benchmarked", "excluded (spills)".
std::string_view spillStatusName(SpillStatus status);

/// Input of the pipeline.
struct PipelineInput {
  KernelInfo kernel;
  ReductionHint hint = ReductionHint::kDefault;
  CandidateOptions candidate_options;
  Policy policy = Policy::kNew;
  DecisionOptions options;
  /// Per candidate (in candidate order): what compiling it reported; missing or nullopt = not
  /// compiled (n_regs unknown, the decision skips it).
  std::vector<std::optional<CompiledFacts>> compiled;
  /// Optionally, per added config (in the order the pass adds them): what compiling it reported,
  /// used only for the spill column (the pass never reads it, as Inductor does not).
  std::vector<std::optional<CompiledFacts>> compiled_added;
  int spill_threshold = kSpillThreshold;  ///< 0 … 1000000
};

/// One row of the pipeline's final list.
struct PipelineEntry {
  ReductionConfig config;
  bool added_by_scaling = false;
  int parent = -1;  ///< index of the config it was halved from
  Decision decision;
  SpillStatus spill = SpillStatus::kNotCompiled;
  std::string spill_reason;
};

/// The pipeline's stages.
struct Pipeline {
  std::vector<ReductionConfig> candidates;  ///< stage 1: what Inductor generates
  ScalingPass pass;                         ///< stage 3: the scaling loop over the compiled candidates
  std::vector<PipelineEntry> entries;       ///< stage 4: originals + added, with the spill filter applied
  int benchmarked = 0;                      ///< entries the autotuner will time
  std::string order_note;                   ///< the stages' order, as Inductor runs them
};

/// Runs candidates → compiled facts → scaling pass → spill filter. Inductor scales at precompile
/// time over every compiled config, spilling or not, and filters spills only when benchmarking, so
/// a spilling config is still halved (the motivating case). A persistent reduction gives no
/// candidates here (not modelled) and a note. Errors: as reductionCandidates / runScalingPass;
/// more compiled facts than candidates; facts out of range.
Expected<Pipeline> runPipeline(const PipelineInput& input, const Device& device);

}  // namespace occx::inductor
