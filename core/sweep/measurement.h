// What measuring one config on one GPU gives, whichever kernel source it came from (the built-in
// family's NVRTC kernels or Inductor's Triton cubins): how the run ended, the loaded kernel's
// attributes as the driver reports them, the output check, the times (CUDA events and CUPTI kernel
// records), the bytes bandwidth counts, and the CUPTI metrics. One struct and one column list
// (measurementColumns): the live-sweep dataset and the measured-configs CSV take their measured
// columns from that list by key; the GPU worker's frames carry the struct field by field
// (core/sweep/worker_protocol.cpp, tested by a round trip).
//
// Source of the method: DESIGN.md §2.4 (warm-up, then timed launches with L2 cold — flushed before
// each — and warm — the inputs just written by a copy on the GPU, as a preceding kernel of a step
// leaves them —; median, min, max and spread; CUPTI where permitted). The figure configs are
// compared by everywhere is kTimeFigure's (the device time per launch, L2 cold). Plain C++: no CUDA,
// no Qt.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/columns.h"
#include "core/base/expected.h"
#include "core/gpu/gpu_module.h"
#include "core/kernels/live_problem.h"

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

/// What configs are compared by, in every output (picks, regrets, best config, plots' headline):
/// the kernel's own device time per launch with L2 cold — CUPTI's kernel record (start to end on
/// the GPU, no launch overhead), or where CUPTI gives none, CUDA events around the launch. Cold,
/// because Inductor's autotuner times with L2 cleared before each run (Triton's do_bench), so the
/// policies' picks are compared as Inductor compares them, and because a cold figure does not
/// depend on what ran before; the warm figure is kept beside it (the step lies between the two).
inline constexpr std::string_view kTimeFigure =
    "device time per launch, L2 cold (CUPTI kernel records; "
    "CUDA events where CUPTI gives none)";

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

/// How measuring a config ended.
enum class RunStatus {
  kOk,             ///< ran, result correct, timed
  kWrongResult,    ///< ran, but an output differs from the reference (not timed)
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

/// The measured figures of one config on one GPU. Unknown integers are -1 (or 0 for counts);
/// figures that need an ok run (times, bandwidth) are meaningful only when ok().
struct Measurement {
  RunStatus status = RunStatus::kSkipped;
  std::string reason;                    ///< why not ok; notes for ok runs (e.g. "CUPTI: …")
  std::int64_t grid_blocks = 0;          ///< blocks launched
  FunctionAttributes attributes;         ///< cuFuncGetAttribute of the loaded kernel (-1 = not loaded)
  int driver_active_blocks_per_sm = -1;  ///< cuOccupancyMaxActiveBlocksPerMultiprocessor; -1 = not asked
  bool checked = false;                  ///< the outputs were checked (check holds the outcome)
  OutputCheck check;                     ///< what the outputs were compared with, and the largest error
  int warmup_runs = 0;
  TimingStats time;                        ///< CUDA events around each launch, L2 cold (flushed before each), µs
  std::optional<TimingStats> kernel_time;  ///< CUPTI kernel records, L2 cold, µs (a CSV keeps only the median)
  /// L2 warm: before each launch the inputs (and in-out buffers) are written by a device-to-device
  /// copy from a pristine device copy, as a preceding kernel of a step leaves them; what fits in L2
  /// is resident. Empty when not measured (warm_note says why). CUDA events around each launch, µs.
  std::optional<TimingStats> warm_time;
  std::optional<TimingStats> warm_kernel_time;  ///< CUPTI kernel records of the warm launches, µs
  std::string warm_note;                        ///< why warm was not measured; empty when it was
  /// The bytes of the buffers: the family's minimum bytes (inputs read once, outputs written once);
  /// for Inductor's kernels the bytes of the buffers the launch passes (a kernel may touch part of
  /// them). Divided by time only as applyBandwidth's estimate, which it shows only under the copy
  /// bandwidth.
  std::int64_t bytes_moved = 0;
  /// Bandwidth, GB/s (applyBandwidth): DRAM bytes read + written (CUPTI) over the cold device time,
  /// or without them the buffers' estimate (bandwidth_from says which); 0 = not shown (and why).
  double bandwidth_GBps = 0.0;
  double pct_of_copy = 0.0;    ///< bandwidth / the device's measured copy bandwidth × 100; 0 = not computed
  std::string bandwidth_from;  ///< "DRAM bytes", "buffer bytes (estimate)" or why no bandwidth is shown
  Metric achieved_occupancy_pct = Metric::missing("not collected");
  Metric dram_read_bytes = Metric::missing("not collected");
  Metric dram_write_bytes = Metric::missing("not collected");
  Metric local_load_bytes = Metric::missing("not collected");
  Metric local_store_bytes = Metric::missing("not collected");

  [[nodiscard]] bool ok() const { return status == RunStatus::kOk; }
  /// The CUPTI kernel duration's median in µs, when recorded.
  [[nodiscard]] std::optional<double> kernelTimeUs() const;
  /// The figure configs are compared by (kTimeFigure): the cold CUPTI median, else the cold events
  /// median, µs.
  [[nodiscard]] double timeUs() const { return kernel_time ? kernel_time->median_us : time.median_us; }
  /// The runs behind timeUs(): the CUPTI timings when they hold runs, else the events' timings
  /// scaled to timeUs() (a CSV keeps only CUPTI's median), for error bars: min, max, spread.
  [[nodiscard]] TimingStats timeStats() const;
  /// The same figure warm, from the same source as timeUs() (CUPTI beside CUPTI, events beside
  /// events), µs; empty when warm was not measured by that source.
  [[nodiscard]] std::optional<double> warmTimeUs() const;
  /// The warm runs behind warmTimeUs() (the same source as timeUs()); empty when not measured by it.
  [[nodiscard]] const std::optional<TimingStats>& warmTimeStats() const {
    return kernel_time ? warm_kernel_time : warm_time;
  }
  /// The largest |output − reference| when checked, else -1.
  [[nodiscard]] double maxAbsError() const { return checked ? check.max_abs_error : -1.0; }
  /// Every metric set to "unavailable: <reason>" (e.g. "not recorded" for files without them).
  void setMetricsMissing(const std::string& reason);
};

/// Sets bandwidth_GBps, pct_of_copy and bandwidth_from of an ok measurement by the one rule every
/// output follows: with CUPTI's DRAM bytes, (read + write) / timeUs() ("DRAM bytes"); without them,
/// the buffers' bytes / timeUs() as an estimate only when that does not exceed `copy_GBps` (the
/// device's measured copy bandwidth; 0 = unknown, so nothing to check against and no estimate);
/// otherwise no bandwidth, and bandwidth_from says why. A DRAM figure above the copy bandwidth by
/// more than kBandwidthTolerancePct is not shown either (a counter or clock artefact).
void applyBandwidth(Measurement& m, double copy_GBps);
/// An ok measurement's times in words: "37.21 µs device time, L2 cold (warm 30.10 µs; CUDA events
/// 41.02 µs)", with `digits` decimals; names events as the figure where CUPTI gave none.
std::string timeText(const Measurement& m, int digits = 2);
/// An ok measurement's bandwidth in words: "3100 GB/s from DRAM bytes (70.4 % of copy)", "2900 GB/s
/// from buffer bytes (estimate: …)", or "no bandwidth: <why>".
std::string bandwidthText(const Measurement& m);

/// Where a kernel's in-step time (torch.profiler, µs) lies against an ok measurement of the config
/// that ran in the step: "between warm and cold" (inclusive), "within 10 % of cold" / "… of warm",
/// or "outside: 0.47× the in-step time (cold, below it)" (the nearer figure over the in-step time).
/// `agrees` is true for the first three.
struct StepAgreement {
  bool agrees = false;
  std::string text;
};
StepAgreement stepAgreement(const Measurement& m, double in_step_us);

/// An ok measurement's bandwidth as a table cell: "" when none is shown, "2900" from DRAM bytes,
/// "~2900" for an estimate from the buffers' (or the family's minimum) bytes.
std::string bandwidthCell(const Measurement& m);

/// What a table's time and bandwidth columns are, for the line under it: "cold <unit>: …; warm <unit>:
/// …; DRAM GB/s: … (~: an estimate …)". `unit` is the columns' time unit as the table writes it ("µs",
/// or "us" where a table is plain ASCII).
std::string figureLegend(std::string_view unit);

/// A file written before bandwidth_from existed recorded some bytes over CUDA events as its bandwidth:
/// with its DRAM bytes, applyBandwidth again; else its recorded figure is kept (labelled as recorded)
/// only where the file's copy bandwidth shows it is one the GPU could move, and hidden (saying why)
/// where it is above it or `copy_GBps` is unknown (0).
void applyRecordedBandwidth(Measurement& m, double copy_GBps);

/// The keys of the time and bandwidth columns, in the order every dataset writes them: time_us …
/// bandwidth_from (see measurementColumns()).
const std::vector<std::string>& measurementTimingKeys();

/// How far above the measured copy bandwidth a DRAM-byte bandwidth may lie and still be shown, %:
/// a kernel that only reads (or only writes) can beat a copy, which does both.
inline constexpr double kBandwidthTolerancePct = 5.0;

/// The columns of a Measurement (each dataset takes the ones it writes, by key, in its own order):
/// status, reason,
/// grid_blocks, driver_registers, driver_local_bytes, driver_active_blocks_per_sm, time_us, min_us,
/// max_us, spread_pct, runs, kernel_time_us, warm_time_us, warm_kernel_time_us, warm_note,
/// bandwidth_GBps, pct_of_copy, bandwidth_from, bytes_moved,
/// achieved_occupancy_pct, dram_read_bytes, dram_write_bytes, local_load_bytes, local_store_bytes,
/// compared_with, max_abs_error. Times and bandwidth are written for ok rows only.
const std::vector<Column<Measurement>>& measurementColumns();

/// The Measurement column `key` as a column of a row type that holds its Measurement in `field`;
/// `required`: the file being read must have it (status is always required). Throws
/// std::out_of_range for a key measurementColumns() does not have (a programming error).
template <class Row>
Column<Row> measurementColumn(const std::string& key, Measurement Row::*field, bool required = false) {
  for (const auto& c : measurementColumns()) {
    if (c.key != key) continue;
    Column<Row> out{c.key, c.title, c.unit, c.kind, {}, {}, c.required || required};
    out.write = [w = c.write, field](const Row& r) { return w(r.*field); };
    if (c.read) out.read = [rd = c.read, field](Row& r, const std::string& t) { return rd(r.*field, t); };
    return out;
  }
  throw std::out_of_range("measurementColumn: no column '" + key + "'");
}

}  // namespace occx
