// The built-in kernel family beside Inductor's real kernel: a live sweep of the family (a
// LiveDataset, core/sweep/live_results.h) paired config by config with a sweep of the Triton kernel
// Inductor generated for the same reduction and shape (a KernelMeasurements, core/triton/
// kernel_measurements.h), so the user sees how far the family's times, registers and spills stand from the
// real kernel's.
//
// Plain C++ (no CUDA, no Qt): both sides are recorded data; nothing here runs a kernel.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/columns.h"
#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/sweep/live_results.h"
#include "core/triton/kernel_measurements.h"

namespace occx {

/// Time ratios (Triton / ours) in this range count as "the same time".
inline constexpr double kFidelityTimeLow = 0.85;
inline constexpr double kFidelityTimeHigh = 1.15;
/// Register counts within this fraction of Triton's count as "the same registers".
inline constexpr double kFidelityRegisterTolerance = 0.25;

/// One config (XBLOCK, RBLOCK = R0_BLOCK, num_warps) that ran ok on both sides.
struct FidelityPair {
  int live_row = -1;    ///< index into LiveDataset::rows
  int triton_row = -1;  ///< index into KernelMeasurements::rows
  int xblock = 0;
  int rblock = 0;  ///< RBLOCK of ours, R0_BLOCK of Triton's
  int num_warps = 0;
  double ours_us = 0.0;    ///< our device time, L2 cold (Measurement::timeUs()), µs
  double triton_us = 0.0;  ///< Triton's device time, L2 cold (Measurement::timeUs()), µs
  /// triton_us / ours_us: below 1 Triton's kernel is faster (ours slower), above 1 ours is faster.
  double ratio = 0.0;
  /// Triton's bandwidth as its run recorded it (its buffers' bytes / median), GB/s.
  double triton_bandwidth_GBps = 0.0;
  int ours_registers = -1;    ///< registers per thread of ours (NVRTC); -1 unknown
  int triton_registers = -1;  ///< Triton's n_regs (from its cubin); -1 unknown
  /// Ours spills: spill stores, spill loads or n_spills above 0 in the LiveRow.
  bool ours_spills = false;
  bool triton_spills = false;  ///< Triton's n_spills > 0
};

/// The pairs in numbers.
struct FidelitySummary {
  int paired = 0;             ///< configs that ran ok on both sides
  double median_ratio = 0.0;  ///< median of the pairs' ratios (mean of the middle two for an even count); 0 when none
  /// Percent of the pairs whose ratio lies in kFidelityTimeLow … kFidelityTimeHigh (both ends in).
  double time_within_pct = 0.0;
  /// Percent of the pairs with both register counts known whose counts differ by at most
  /// kFidelityRegisterTolerance × Triton's count; 0 when no pair has both.
  double registers_within_pct = 0.0;
  int registers_known = 0;  ///< pairs with both register counts known (the denominator above)
  int one_side_spills = 0;  ///< pairs where exactly one side spills
};

/// A family dataset against one Triton kernel.
struct FamilyFidelity {
  std::string kernel;       ///< the Triton kernel's name ("triton_red_fused__to_copy_var_mean_0")
  std::int64_t xnumel = 0;  ///< the shape both describe
  std::int64_t rnumel = 0;
  std::vector<FidelityPair> pairs;  ///< in the dataset's row order
  FidelitySummary summary;
};

/// A Triton kernel's problem shape as its run recorded it.
struct KernelShape {
  std::string kernel;
  std::int64_t xnumel = 0;
  std::int64_t rnumel = 0;  ///< r0_numel
};

/// The shapes of the kernels of `runs`, read from its notes ("<kernel>: xnumel = 32768 in the
/// kernel body", "<kernel>: r0_numel = 8192 as launched", which the launch plans write); a kernel
/// whose xnumel or r0_numel is only known from a size hint (rounded up to a power of two) or not at
/// all is left out. In the order the notes name them. Never throws.
std::vector<KernelShape> kernelShapes(const triton::KernelMeasurements& runs);

/// Pairs `family` (a live sweep of the built-in family) with `runs` (a sweep of Inductor's Triton
/// kernel): the kernel of `runs` whose shape equals the dataset's xnumel × rnumel metadata, then
/// every config (XBLOCK, RBLOCK = R0_BLOCK, num_warps; Triton rows with YBLOCK or R1_BLOCK are not
/// comparable and left out) that ran ok on both sides, the first Triton row of a config counting
/// when it has several (other num_stages). Pairs and summary as FidelityPair and FidelitySummary say.
/// Errors: the dataset has no xnumel/rnumel metadata; `runs` records no kernel shape; no kernel of
/// `runs` has the dataset's shape (both shapes named: "… is 32768 × 8192, the dataset is 264 × 30000").
/// A shape that matches with no config in common is a result with 0 pairs, not an error.
Expected<FamilyFidelity> compareWithTriton(const LiveDataset& family, const triton::KernelMeasurements& runs);

/// The pairs' columns (written, not read back), in order: xblock, rblock, num_warps, ours_time_us,
/// triton_time_us, triton_over_ours (3 decimals), ours_registers, triton_registers (empty when not
/// known), ours_spills, triton_spills (1/0), triton_bandwidth_GBps.
const std::vector<Column<FidelityPair>>& fidelityColumns();
/// The pairs as CSV: metadata kernel, xnumel, rnumel, paired, median_ratio, then `meta` (where the
/// two sides come from), then fidelityColumns().
CsvTable fidelityToCsv(const FamilyFidelity& fidelity, const std::vector<std::pair<std::string, std::string>>& meta);

}  // namespace occx
