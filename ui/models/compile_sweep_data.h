// The compile-sweep view's rows as data: one entry per compiled configuration, built from a compile sweep
// that just ran (core/compile_sweep.h) or read back from the CSV that `occx sweep` writes
// (compileSweepToCsv's columns, found by name). The table model, the plots and the CSV export all
// read these entries.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/sweep/compile_sweep.h"
#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/rblock_scaling.h"
#include "core/kernels/kernel_family.h"

namespace occx::ui {

/// One policy's RBLOCK-scaling decision for a config, as shown.
struct DecisionCell {
  inductor::Policy policy = inductor::Policy::kNew;
  int bound = -1;  ///< resident blocks per SM of the bound; -1 when a gate skipped the config
  std::optional<inductor::Outcome> outcome;  ///< empty while pending (or not recorded in a CSV)
  std::string reason;                        ///< the decision's sentence (empty when read from a CSV)
};

/// One configuration of the sweep.
struct CompileSweepEntry {
  int index = 0;
  KernelConfig config;
  std::string origin;  ///< "grid", "Inductor: contiguous", "new scaling: halved from …"
  bool ok = false;     ///< compiled
  std::string error;   ///< why not (first line shown; the whole text in the tooltip)
  std::string kernel_name;
  int registers = -1;           ///< registers per thread
  int spill_stores_bytes = -1;  ///< per thread
  int spill_loads_bytes = -1;   ///< per thread
  int stack_frame_bytes = -1;   ///< local memory per thread
  int n_spills = -1;            ///< Triton's n_spills: stack frame / 4
  int smem_bytes = -1;          ///< static shared memory per block
  bool cache_hit = false;
  double compile_ms = -1.0;
  std::int64_t grid_blocks = 0;
  int active_blocks_per_sm = -1;  ///< -1 until known (decisions and occupancy come at the end of a sweep)
  int active_warps_per_sm = -1;
  double occupancy_pct = -1.0;
  std::string limiter;                        ///< "registers", "warps", … or "cannot launch"
  std::vector<DecisionCell> decisions;  ///< per sweepDecisionPolicies(); empty while pending
  bool inductor_candidate = false;
  std::vector<CandidateState> candidates;  ///< per sweepCandidatePolicies()
  bool pending = false;                 ///< compiled, but occupancy and decisions not computed yet

  /// This entry's decision under `policy`; nullptr while pending or when not recorded.
  [[nodiscard]] const DecisionCell* decision(inductor::Policy policy) const;
  /// Where this entry stands in the candidate set of sweepCandidatePolicies()[i] (kNotCandidate
  /// when not recorded).
  [[nodiscard]] CandidateState candidate(std::size_t i) const {
    return i < candidates.size() ? candidates[i] : CandidateState::kNotCandidate;
  }
  /// True when the compiler reported spill stores or loads.
  [[nodiscard]] bool spills() const { return spill_stores_bytes > 0 || spill_loads_bytes > 0; }
};

/// A whole sweep as the view shows it.
struct CompileSweepData {
  std::vector<std::pair<std::string, std::string>> meta;  ///< the CSV metadata (compileSweepToCsv's keys)
  std::vector<CompileSweepEntry> rows;
  ComputeCapability arch;
  std::string device_label;  ///< "H100 SXM5 (CC 9.0, 132 SMs)"
  int sm_count = 0;
  int max_registers_per_thread = 255;  ///< the architecture's cap
  int full_occupancy_registers = 32;   ///< registers_per_SM // max_threads_per_SM: at or below, registers never limit
  std::int64_t xnumel = 0;
  std::int64_t rnumel = 0;
  Workload workload = Workload::kSum;
  DType dtype = DType::kF32;
  int k = 1;
  std::string compiler;
  std::string date_utc;
  bool cancelled = false;
  std::size_t total_configs = 0;
  CsvTable csv;  ///< the table for export (as compileSweepToCsv or as read)

  [[nodiscard]] std::string metaValue(const std::string& key) const;
};

/// The entry of a finished (or in-progress) row of a running sweep.
CompileSweepEntry entryFromRow(const CompileSweepRow& row);

/// The header of a sweep of `spec` (device, architecture caps, shape, workload) with no rows yet:
/// what a running sweep shows while its rows arrive.
CompileSweepData dataFromSpec(const CompileSweepSpec& spec);

/// The whole result of a sweep (rows sorted by index) with its CSV export table.
CompileSweepData dataFromResult(const CompileSweepResult& result,
                               const std::vector<std::pair<std::string, std::string>>& extra_meta = {});

/// Reads a compile-sweep CSV written by `occx sweep --csv` (format "occx-compile-sweep 1"). Columns
/// are found by name. Errors: a live-sweep file (says to open it in the live view), another format,
/// a missing required column (index, workload, dtype, XBLOCK, RBLOCK, num_warps, status), a cell that
/// is not a number where one is required (naming the row and the column), an unknown architecture.
Expected<CompileSweepData> dataFromCsv(const CsvTable& table, const GpuDatabase& db = GpuDatabase::builtin());

}  // namespace occx::ui
