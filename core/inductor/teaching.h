// Teaching aids around the RBLOCK-scaling decision, none of which Inductor itself runs: the
// keep-halving chain (the decision applied again to each halved config), the bounds and decisions
// against registers per thread (the plot), and the grid comparison of the policies' decisions.
//
// Source: built on decide() (core/inductor/rblock_scaling.h) and the bounds of
// core/inductor/bounds.h; no logic of its own beyond the loops.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/expected.h"
#include "core/inductor/rblock_scaling.h"

namespace occx::inductor {

/// Label shown wherever the keep-halving chain appears.
inline constexpr std::string_view kKeepHalvingLabel =
    "Teaching aid, not Inductor: Inductor halves each config at most once. This chain applies the "
    "decision again to each halved config.";

/// One link of the keep-halving chain.
struct ChainStep {
  ReductionConfig config;
  bool n_regs_assumed = false;  ///< n_regs was not supplied for this step: the last known value is reused
  Decision decision;
};

/// The teaching chain: decide `start`; while the decision scales, decide the halved config, up to
/// `max_steps` (1 … 32) links. n_regs of link i is n_regs_per_step[i-1] when given (link 0 uses
/// start.n_regs), else the last known value, flagged as assumed. Errors: as decide(); max_steps
/// outside 1 … 32.
Expected<std::vector<ChainStep>> keepHalvingChain(Policy policy, const ReductionConfig& start, const KernelInfo& kernel,
                                                  const Device& device, const DecisionOptions& options = {},
                                                  const std::vector<int>& n_regs_per_step = {}, int max_steps = 16);

/// Bounds and decisions against registers per thread, for the plot.
struct BoundCurvePoint {
  int n_regs = 0;
  int old_bound = 0;
  int new_bound = 0;
  int review_min_bound = 0;
  int exact_bound = 0;
  Outcome old_outcome = Outcome::kNotApplicable;
  Outcome new_outcome = Outcome::kNotApplicable;
  Outcome exact_outcome = Outcome::kNotApplicable;
};

/// An inclusive n_regs range.
struct RegRange {
  int first = 0;
  int last = 0;
};

/// Curves for n_regs 1 … max registers per thread (255) with the config's other fields fixed.
struct BoundCurves {
  int num_warps = 0;
  std::int64_t total_blocks = 0;
  double blocks_needed_per_sm = 0.0;  ///< total_blocks / SM count: resident blocks one wave needs
  std::vector<BoundCurvePoint> points;
  std::vector<RegRange> old_new_disagree;  ///< n_regs ranges where old and new decide differently
};

/// Computes the curves. Bounds are the raw formulas (old is flat; new a floored hyperbola; exact a
/// staircase); outcomes run the full decision (gates included) with that n_regs. Errors: as decide().
Expected<BoundCurves> boundCurves(const ReductionConfig& config, const KernelInfo& kernel, const Device& device,
                                  const DecisionOptions& options = {});

/// Counts of differing decisions over the grid of the closing note.
struct GridCounts {
  int points = 0;
  int old_vs_new = 0;
  int new_vs_exact = 0;
  int new_vs_review_min = 0;
  int unlaunchable = 0;             ///< points whose block exceeds the register file (exact bound 0)
  int new_vs_exact_launchable = 0;  ///< new_vs_exact among launchable points
};

/// The grid comparison: n_regs 33 … 255 × num_warps {1, 2, 4, 8, 16, 32} × total blocks
/// {64, 128, …, 65536}; each point is XBLOCK = 1, size hint x = total blocks, R0_BLOCK = 2048,
/// num_stages 1, no shared memory, decided with `options`. A decision "differs" when one policy
/// scales and the other does not.
struct GridComparison {
  std::string device_label;
  int sm_count = 0;
  GridCounts total;
  std::vector<std::pair<int, GridCounts>> by_num_warps;  ///< (num_warps, counts)
};
/// Runs the grid comparison on `device`. Errors: a profile gate that skips the device entirely.
Expected<GridComparison> compareGrid(const Device& device, const DecisionOptions& options = {});

}  // namespace occx::inductor
