// The compile sweep as a dataset: one flat record per configuration — built from a sweep that just
// ran (core/sweep/compile_sweep.h) or read back from the CSV that `occx sweep` writes — and the one
// column list (core/base/columns.h) that writes the CSV and the JSON and reads the CSV back. The
// GUI's table, plots and exports read these records; a CSV written on a GPU server opens on a laptop.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/base/columns.h"
#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"
#include "core/kernels/kernel_family.h"
#include "core/sweep/compile_sweep.h"

namespace occx {

/// One policy's RBLOCK-scaling decision for a config, as a dataset holds it.
struct DecisionRecord {
  inductor::Policy policy = inductor::Policy::kNew;
  int bound = -1;                            ///< resident blocks per SM of the bound; -1 when a gate skipped the config
  std::optional<inductor::Outcome> outcome;  ///< empty while the sweep has not decided yet
  std::string reason;                        ///< the decision's sentence (empty when read from a CSV)
};

/// One configuration of a compile sweep, flat. Counts are -1 where not known (a config that did not
/// compile, or whose occupancy and decisions are not computed yet).
struct CompileSweepRecord {
  int index = 0;  ///< position in the sweep's config list
  KernelConfig config;
  std::string origin;  ///< "grid", "Inductor: contiguous", "new scaling: halved from …"
  bool ok = false;     ///< compiled
  std::string error;   ///< why not
  std::string kernel_name;
  int vector_bytes = -1;  ///< bytes per load (vector width, or the element size for scalar loads)
  int accumulator_values_per_thread = -1;
  int registers = -1;           ///< registers per thread
  int spill_stores_bytes = -1;  ///< per thread
  int spill_loads_bytes = -1;   ///< per thread
  int stack_frame_bytes = -1;   ///< local memory per thread
  int n_spills = -1;            ///< Triton's n_spills: stack frame / 4
  int smem_bytes = -1;          ///< static shared memory per block
  bool cache_hit = false;
  double compile_ms = -1.0;
  std::int64_t grid_blocks = 0;  ///< ceil(xnumel / XBLOCK)
  int active_blocks_per_sm = -1;
  int active_warps_per_sm = -1;
  double occupancy_pct = -1.0;
  std::string limiter;                    ///< "registers", "warps", … or "cannot launch"
  std::vector<DecisionRecord> decisions;  ///< per sweepDecisionPolicies(); empty while pending
  bool inductor_candidate = false;
  std::vector<CandidateState> candidates;  ///< per sweepCandidatePolicies()
  bool pending = false;                    ///< compiled, but occupancy and decisions not computed yet

  /// True for a config refused before compiling (it cannot be built: its tile layout is invalid, e.g.
  /// too many accumulator values per thread); `error` says why. Known from the layout columns.
  [[nodiscard]] bool notCompiled() const { return !ok && accumulator_values_per_thread < 0; }
  /// True when the compiler reported spill stores or loads.
  [[nodiscard]] bool spills() const { return spill_stores_bytes > 0 || spill_loads_bytes > 0; }
  /// The decision of `policy`, or nullptr.
  [[nodiscard]] const DecisionRecord* decision(inductor::Policy policy) const;
  /// The candidate state under `policy` (kNotCandidate when not recorded).
  [[nodiscard]] CandidateState candidate(inductor::Policy policy) const;
};

/// A whole compile sweep as a dataset.
struct CompileSweepDataset {
  std::vector<std::pair<std::string, std::string>> meta;  ///< the CSV's metadata (format, arch, device, …)
  std::vector<CompileSweepRecord> rows;                   ///< by index
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

  /// Metadata value for a key; empty when absent.
  [[nodiscard]] std::string metaValue(const std::string& key) const;
  /// The dataset as the CSV `occx sweep --csv` writes (metadata, then compileSweepColumns()).
  [[nodiscard]] CsvTable toCsv() const;
};

/// The metadata key and value that mark a compile-sweep CSV.
inline constexpr std::string_view kCompileSweepFormat = "occx-compile-sweep 1";

/// The dataset's columns, in order: index, workload, dtype, k, XBLOCK, RBLOCK, num_warps,
/// threads_per_block, vector_bytes, accumulator_values_per_thread, origin, status, error, kernel,
/// registers_per_thread, spill_stores_bytes, spill_loads_bytes, stack_frame_bytes, n_spills,
/// smem_bytes, cache_hit, compile_ms, grid_blocks, active_blocks_per_sm, active_warps_per_sm,
/// theoretical_occupancy_pct, occupancy_limiter, then per decision policy P: P_bound_blocks_per_sm and
/// P_decision; then inductor_candidate and per candidate policy P: candidate_P.
const std::vector<Column<CompileSweepRecord>>& compileSweepColumns();

/// The record of a finished (or in-progress: pending) row of a running sweep.
CompileSweepRecord recordFromRow(const CompileSweepRow& row);

/// The header of a sweep of `spec` (device, architecture caps, shape, workload) with no rows yet:
/// what a running sweep shows while its rows arrive.
CompileSweepDataset datasetFromSpec(const CompileSweepSpec& spec);

/// The whole result of a sweep as a dataset (rows sorted by index): metadata format, arch, device,
/// sm_count, workload, dtype, output_dtype, k, xnumel, rnumel, size hints, bytes_read,
/// bytes_written, compiler, date_utc, profile, hint, maxrregcount, configs (finished of planned),
/// cancelled, then `extra_meta` (e.g. cache statistics) in order.
CompileSweepDataset datasetFromResult(const CompileSweepResult& result,
                                      const std::vector<std::pair<std::string, std::string>>& extra_meta = {});

/// Reads a compile-sweep CSV (format "occx-compile-sweep 1"), written on any machine. Columns are
/// found by name. Errors: a live-sweep file (says so, and where it opens), another format, a
/// missing required column (index, workload, dtype, XBLOCK, RBLOCK, num_warps, status), a cell that is
/// not what its column holds (naming the row and the column), metadata that is not an integer where
/// one is needed, an architecture not in `db`, a "shape" other than static / run-time. Each row's
/// config is rebuilt for the file's shape (vector loads as the shape allows, the shape baked in when
/// "shape" is static; files without the key were built with run-time shapes).
Expected<CompileSweepDataset> compileSweepFromCsv(const CsvTable& table,
                                                  const GpuDatabase& db = GpuDatabase::builtin());

/// {"meta": {…}, "rows": [{column: value, …}, …]} with number columns as numbers.
nlohmann::json compileSweepDatasetToJson(const CompileSweepDataset& data);

/// Whether `table` is a compile-sweep CSV: its metadata has "format: occx-compile-sweep 1".
bool isCompileSweepCsv(const CsvTable& table);

/// The sweep's configs as the input of inductor::decideCsvBatch (`occx rblock --input` on a sweep
/// CSV): one row per record with columns index, origin, status, xnumel and rnumel (the sweep's, from
/// its metadata), xblock (XBLOCK), rblock (RBLOCK), num_warps, registers_per_thread (empty
/// where the config did not compile, so its decisions say the registers are unknown), n_spills
/// (empty likewise) and smem_bytes (0 where unknown). Metadata: sweep_arch,
/// sweep_device, workload, dtype, xnumel, rnumel of the sweep (not its format line: the result is no
/// sweep CSV).
CsvTable compileSweepBatchInput(const CompileSweepDataset& data);

}  // namespace occx
