// An Inductor run as a table: one row per (kernel, compiled config), pointwise and other kernels
// one row each with the config cells empty. The same columns write the CSV, read it back (a scan
// CSV opens without the cache), make the CLI's tables and the JSON's config objects.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/columns.h"
#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/triton/inductor_run.h"

namespace occx::triton {

/// The metadata line that marks a scan CSV: "# format: inductor-run-scan".
inline constexpr std::string_view kScanFormatKey = "format";
inline constexpr std::string_view kScanFormatValue = "inductor-run-scan";

/// One row of the scan table. Decisions are outcome names ("scale", "no scaling", "not
/// applicable", "duplicate"); empty cells are unknown or not applicable.
struct ScanRow {
  std::string device;  ///< "CC 9.0, 132 SMs"
  std::string cc;      ///< "9.0"; empty when the module names no device
  std::optional<std::int64_t> sm_count;
  std::string kernel;
  std::string module;          ///< module hash
  std::string kind;            ///< kernelKindName
  std::string size_hints;      ///< "x=512, r0_=8192"
  std::string reduction_hint;  ///< "INNER"
  std::string xnumel;          ///< a number, or "dynamic"
  std::string r0_numel;
  std::optional<std::int64_t> xblock, r0_block, r1_block, num_warps, num_stages;
  /// Mix-order reductions: RSPLIT_SIZE (rows per program) and the row loop's NUM_STAGES; none otherwise.
  std::optional<std::int64_t> rsplit_size, mix_num_stages;
  std::optional<std::int64_t> n_regs, n_spills, local_bytes, shared_bytes;
  std::string origin;       ///< configOriginName
  std::string halved_from;  ///< "XBLOCK=1, R0_BLOCK=2048, num_warps=16" for added configs
  bool winner = false;
  std::optional<std::int64_t> blocks_per_sm;
  std::optional<double> occupancy_pct;  ///< theoretical occupancy, 0 … 100
  std::string limiter;
  std::string old_decision, new_decision, review_min_decision, exact_decision;
  std::string spills_decision;  ///< the spills rule (halve whenever n_spills > 0); empty in scans written before it
  std::string old_reason, new_reason, review_min_reason, exact_reason, spills_reason;
  bool bounds_disagree = false;
  bool over_spill_threshold = false;
  std::string triton_cache_hash;
  std::string notes;  ///< notes and problems, "; "-separated
};

/// The columns, in order (keys with units: local_bytes, smem_bytes, theoretical_occupancy_pct).
const std::vector<Column<ScanRow>>& scanColumns();

/// The rows of a run: kernels in the run's order, each kernel's configs in its order.
std::vector<ScanRow> scanRows(const InductorRun& run);

/// The counts of RunSummary from rows (a scan's, or a scan CSV's read back): kernels are runs of
/// rows with the same device, kernel and module. The one summary of a run: scanInductorRun and the
/// GUI both use it.
RunSummary summarizeRows(const std::vector<ScanRow>& rows);

/// The run as a CSV table (meta: format, input, triton caches, summary).
CsvTable scanToCsv(const InductorRun& run);
/// Reads a scan CSV back. Errors: the format line is missing, a required column is missing, a cell
/// is not what its column holds (naming the row and column).
Expected<std::vector<ScanRow>> scanFromCsv(const CsvTable& table);

/// The run as JSON: {"input", "triton_caches", "summary": {…, "text"}, "problems": […],
/// "kernels": [{"name", "module", "path", "kind", "device", "size_hints": {…}, "reduction_hint",
/// "signature": [{"name", "type"}], "inductor_meta": {…}, "best_config": {…}|null, "launches":
/// [{"wrapper", "line", "arguments": [{"name", "type", "value", "sizes", "strides", "dtype",
/// "mutated"}]}], "notes", "problems", "configs": [row objects as scanColumns writes them]}]}.
nlohmann::json runToJson(const InductorRun& run);

/// Every problem of `run`, each naming its file: the run's own (files skipped, unreadable or
/// unmatched), then per kernel its problems, its module's warnings and its configs' problems (a
/// Triton folder's cubin or IR that could not be read), in the run's order. What `occx inductor
/// scan` lists; empty when nothing was wrong.
std::vector<std::string> everyProblem(const InductorRun& run);

/// Every policy's reasoning for one kernel, in words (what `occx inductor show` prints): the
/// kernel's facts, each config's tile, registers, spills, occupancy and origin, then per config
/// each policy's decision with its arithmetic and reason.
std::string kernelReport(const RunKernel& kernel);

}  // namespace occx::triton
