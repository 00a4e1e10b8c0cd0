// Results of live runs as data: timing statistics, one row per measured configuration, the
// autotuner replay's picks and regrets, and the dataset CSV that the CLI writes and the GUI opens
// (also on machines without a GPU: the bundled H200 data under resources/datasets/).
//
// Plain C++ (no CUDA, no Qt). core/cuda fills the rows; everything here is testable without a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/columns.h"
#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/inductor/rblock_scaling.h"
#include "core/kernels/kernel_family.h"

namespace occx {

/// Summary of repeated timings, in microseconds.
struct TimingStats {
  int runs = 0;
  double median_us = 0.0;
  double min_us = 0.0;
  double max_us = 0.0;
  double p25_us = 0.0;
  double p75_us = 0.0;
  /// Spread of the runs: (p75 − p25) / median × 100, the interquartile range in percent of the
  /// median (robust to a few outliers, unlike max − min).
  double spread_pct = 0.0;
};

/// Summarises samples (microseconds, any order): median (mean of the middle two for an even count),
/// min, max, quartiles by linear interpolation between order statistics, spread. Empty input → all
/// zero with runs = 0.
TimingStats summarizeTimes(std::vector<double> samples_us);

/// Bandwidth in GB/s (10^9 bytes/s) of moving `bytes` in `time_us`; 0 when time_us <= 0.
double bandwidthGBps(std::int64_t bytes, double time_us);

/// A profiler metric: a value, or the reason it is missing ("unavailable: <reason>" in tables).
struct Metric {
  std::optional<double> value;
  std::string unavailable;  ///< reason when value is empty, e.g. "profiling not permitted (ERR_NVGPUCTRPERM)"

  static Metric of(double v) { return Metric{v, {}}; }
  static Metric missing(std::string reason) { return Metric{std::nullopt, std::move(reason)}; }
  /// The value with `digits` decimals, or "unavailable: <reason>".
  [[nodiscard]] std::string text(int digits = 1) const;
};

/// Reads a metric cell as text() wrote it ("12.5", "unavailable: <reason>"; empty = "not recorded")
/// into `out`. Returns empty, or "a number" for the column reader's error message.
std::string readMetric(const std::string& text, Metric& out);

/// How a measured row ended.
enum class RunStatus {
  kOk,             ///< ran, result correct, timed
  kWrongResult,    ///< ran, but an output differs from the CPU reference (not timed)
  kLaunchFailed,   ///< the launch or the kernel failed (reason holds the driver's error)
  kOutOfMemory,    ///< device memory could not be allocated
  kCompileFailed,  ///< NVRTC or module load failed
  kSkipped,        ///< not run: e.g. the shape does not fit the config, or the spill filter of a replay
  kCancelled,      ///< the sweep was cancelled before this row ran
};
/// "ok", "wrong result", "launch failed", "out of memory", "compile failed", "skipped", "cancelled".
std::string_view runStatusName(RunStatus status);
/// Parses runStatusName's text. Error lists the names.
Expected<RunStatus> parseRunStatus(std::string_view text);

/// One measured configuration.
struct LiveRow {
  KernelConfig config;
  bool in_grid = false;             ///< part of the exhaustive grid
  bool inductor_candidate = false;  ///< one of Inductor's own candidate configs (before scaling)
  bool added_old = false;           ///< added (halved) by the scaling pass under the old bound
  bool added_new = false;           ///< … under the new bound
  bool added_exact = false;         ///< … under the exact bound
  // Compile facts (NVRTC report), -1 when unknown.
  int registers = -1;  ///< registers per thread
  int spill_stores_bytes = -1;
  int spill_loads_bytes = -1;
  int n_spills = -1;  ///< spilled 32-bit registers as Triton counts them (local bytes / 4)
  int static_smem_bytes = -1;
  double theoretical_occupancy_pct = -1.0;  ///< occupancy calculator: active warps / max warps × 100
  // Measured.
  RunStatus status = RunStatus::kSkipped;
  std::string reason;  ///< why a row is not ok; notes for ok rows (e.g. "CUPTI: …")
  std::int64_t grid_blocks = 0;
  TimingStats time;                      ///< CUDA events around each launch, L2 flushed before each
  std::optional<double> kernel_time_us;  ///< median CUPTI kernel duration (activity records), when available
  double bandwidth_GBps = 0.0;           ///< minimum bytes moved / median time
  double pct_of_copy = 0.0;              ///< bandwidth / measured copy bandwidth × 100
  double max_abs_error = -1.0;           ///< largest |output − reference|; -1 when not checked
  Metric achieved_occupancy_pct = Metric::missing("not collected");
  Metric dram_read_bytes = Metric::missing("not collected");
  Metric dram_write_bytes = Metric::missing("not collected");
  Metric local_load_bytes = Metric::missing("not collected");
  Metric local_store_bytes = Metric::missing("not collected");

  [[nodiscard]] bool ok() const { return status == RunStatus::kOk; }
  /// Whether the row belongs to the candidate set that a policy's autotuner benchmarks: Inductor's
  /// candidates plus the configs that policy's scaling pass added.
  [[nodiscard]] bool inPolicySet(inductor::Policy policy) const;
};

/// The policies replayed, in table order.
inline constexpr inductor::Policy kReplayPolicies[] = {inductor::Policy::kOld, inductor::Policy::kNew,
                                                       inductor::Policy::kExact};

/// One policy's pick in the autotuner replay.
struct PolicyPick {
  inductor::Policy policy = inductor::Policy::kNew;  ///< one of kReplayPolicies
  int candidates = 0;                                ///< configs in the policy's set
  int benchmarked = 0;                               ///< of those, not dropped by the spill filter and measured ok
  int row = -1;                                      ///< index of the pick in the rows; -1 when no candidate ran
  double time_us = 0.0;
  double bandwidth_GBps = 0.0;
  double regret = 0.0;  ///< pick time / best time (1 = the autotuner found the best)
};

/// The replay's outcome over a set of rows.
struct ReplaySummary {
  int best_row = -1;  ///< fastest ok row over everything measured (grid ∪ candidates)
  double best_time_us = 0.0;
  double best_bandwidth_GBps = 0.0;
  std::vector<PolicyPick> picks;  ///< one per kReplayPolicies entry
};

/// Computes the picks: a policy's pick is the fastest ok row of its set whose n_spills is at most
/// `spill_threshold` (unknown n_spills passes, as Inductor times configs it cannot count); the best
/// is the fastest ok row of all. Regret = pick time / best time.
ReplaySummary summarizeReplay(const std::vector<LiveRow>& rows, int spill_threshold = 16);

/// A dataset: metadata ("device", "driver", "toolkit", "date", "workload", …) and rows.
struct LiveDataset {
  std::vector<std::pair<std::string, std::string>> meta;
  std::vector<LiveRow> rows;

  /// Metadata value for a key; empty when absent.
  [[nodiscard]] std::string metaValue(std::string_view key) const;
};

/// Metadata key and value that mark a file as live-sweep data; the GUI labels rows "recorded".
inline constexpr std::string_view kLiveFormatKey = "format";
inline constexpr std::string_view kLiveFormatValue = "occupancy-explorer-live-sweep 1";

/// The dataset's columns (key with the unit in the name, table title and unit, writer, reader), in
/// order: the one description the CSV writer, the CSV reader, JSON and the tables use.
const std::vector<Column<LiveRow>>& liveRowColumns();
/// The keys of liveRowColumns(), in order (time_us, bandwidth_GBps, …).
const std::vector<std::string>& liveColumns();

/// Serialises a dataset as a CSV table: the format line first, then `meta`, then liveColumns().
CsvTable liveDatasetToCsv(const LiveDataset& data);

/// The same as JSON, from the same columns: {"meta": {…}, "rows": [{column: value, …}, …]} with
/// number columns as numbers (integers without a decimal point), empty cells as null, text as text.
nlohmann::json liveDatasetToJson(const LiveDataset& data);

/// Reads a dataset written by liveDatasetToCsv (on any machine). Columns are found by name, so
/// extra columns are ignored and their order may differ; a missing required column, a malformed
/// number or an unknown status names the line and the column. Errors: not a live-sweep file. With
/// metadata "shape: static" (and xnumel, rnumel) every row's config gets the shape baked in, its
/// recorded vector_loads kept; without it the configs take the shape at run time.
Expected<LiveDataset> liveDatasetFromCsv(const CsvTable& table);

}  // namespace occx
