// RBLOCK-scaling decisions, curves and pipelines as JSON and CSV tables (one format for the CLI, the
// GUI's exports and the tests), and the batch decision over a CSV of configs.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/csv.h"
#include "core/gpu/device.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/candidates.h"
#include "core/inductor/rblock_scaling.h"
#include "core/inductor/teaching.h"

namespace occx::inductor {

/// {"XBLOCK", "R0_BLOCK" (or "RBLOCK"), "R1_BLOCK"?, "num_warps", "num_stages", "registers_per_thread"|null,
/// "n_spills"|null, "smem_bytes", "origin"}.
nlohmann::json configToJson(const ReductionConfig& config, Profile profile);
/// {"policy", "formula", "outcome", "applies", "step", "bound_blocks_per_sm", "capacity_blocks",
/// "total_blocks", "scale", "halved_kwarg", "new_config"|null, "bound_arithmetic", "reason"}.
nlohmann::json decisionToJson(const Decision& decision);

/// The decision table: one row per decision; columns policy, applies, bound_blocks_per_sm,
/// capacity_blocks, total_blocks, decision, new_config, step, reason, bound_arithmetic.
CsvTable decisionsToCsv(const std::vector<Decision>& decisions);

/// The curves against registers per thread: columns registers_per_thread, old_bound_blocks_per_sm,
/// new_bound_blocks_per_sm, review_min_bound_blocks_per_sm, exact_bound_blocks_per_sm,
/// blocks_needed_per_sm, old_decision, new_decision, exact_decision; meta num_warps, total_blocks.
CsvTable curvesToCsv(const BoundCurves& curves);

/// The pipeline's final list: columns index, stage ("candidate" | "added by scaling"), origin,
/// config, XBLOCK, R0_BLOCK, R1_BLOCK, num_warps, registers_per_thread, n_spills, decision, reason, autotuning.
CsvTable pipelineToCsv(const Pipeline& pipeline);

/// Options of a batch decision.
struct BatchOptions {
  const GpuDatabase* db = nullptr;  ///< GPU data for the per-row "gpu" column and default_gpu
  std::string default_gpu;          ///< used where a row has no "gpu" cell
  std::optional<Device> device;     ///< set: the device of rows without a "gpu" cell, in place of default_gpu
  int sm_override = 0;              ///< > 0: replaces every GPU's SM count
  std::vector<Policy> policies;     ///< columns added per policy (empty = all four)
  DecisionOptions options;
};

/// Decides every row of `input`. Input columns (names case-sensitive): xnumel, xblock, num_warps,
/// rblock (or r0_block), registers_per_thread (or n_regs, nregs; empty = unknown) are required; rnumel, r1numel,
/// r1_block, n_spills (or nspills), smem_bytes (or shared_bytes), num_stages, gpu, persistent (0/1) are optional.
/// Output: the input columns, then size_hint_x, total_blocks, and per policy P: P_applies, P_bound_blocks_per_sm,
/// P_capacity_blocks, P_decision, P_new_config, P_reason. Meta records the profile, the CC gate and the default GPU
/// (with options.device: the device's label, as "device"). Errors name the row (1-based data row), the column, the
/// value and the allowed range, e.g. "row 3, column 'num_warps': num_warps 3 is out of range: …".
Expected<CsvTable> decideCsvBatch(const CsvTable& input, const BatchOptions& options);

}  // namespace occx::inductor
