// Inductor's own compiled configs, run live: every compiled config of a kernel launched on the
// local GPU through a GpuRunner (core/sweep/gpu_runner.h) on one buffer problem (core/triton/
// launch_plan.h), its outputs checked against the first config's, timed by the product's method
// (warm-up, L2 flushed, events, median/min/max, spread; CUPTI where available), GB/s from the
// bytes the buffers imply, registers cross-checked with cuFuncGetAttribute. Then each decision
// policy's pick among the configs it would have had — Inductor's candidates plus the halved configs
// that policy adds, spill filter applied — and its regret against the best measured config.
//
// The rows are the one description of a run: the CSV writes and reads them, the CLI prints them,
// and the picks are computed from them, so a CSV recorded elsewhere opens and says the same.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/base/columns.h"
#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/sweep/gpu_runner.h"
#include "core/sweep/policy_picks.h"
#include "core/triton/inductor_run.h"

namespace occx::triton {

/// The metadata line that marks a CSV of kernel runs: "# format: inductor-kernel-runs".
inline constexpr std::string_view kMeasurementsFormatValue = "inductor-kernel-runs";

/// A halved config a policy would add that is not among the compiled configs.
struct NotCompiled {
  inductor::Policy policy = inductor::Policy::kNew;
  std::string config;  ///< "X1 R8192 w16"
};

/// One compiled config of one kernel, measured (or not, with the reason).
struct MeasuredConfig {
  std::string kernel;
  std::string module;  ///< module hash
  std::string device;  ///< the GPU it ran on ("NVIDIA H200")
  int xblock = 0, yblock = 0, r0_block = 0, r1_block = 0, num_warps = 0, num_stages = 0;
  std::string origin;   ///< configOriginName
  bool winner = false;  ///< the .best_config's config
  int n_regs = -1;      ///< registers per thread, from the cubin (what Triton reports)
  int n_spills = -1;
  double occupancy_pct = -1.0;  ///< theoretical, from the calculator; -1 unknown
  /// The policies whose candidate set holds the config (Inductor's candidates plus what each adds).
  inductor::PolicySet in_set;
  /// Candidates only: the halved configs a policy would add that are not compiled.
  std::vector<NotCompiled> not_compiled;
  bool over_spill_threshold = false;  ///< n_spills > the kernel's spill_threshold: Inductor never times it
  Measurement measured;               ///< what the GPU run gave (core/sweep/measurement.h)
  std::string buffers_from;           ///< the launch plan's source of buffers
  /// Each policy's decision for this config, in inductor::kPolicies order (outcomeName: "scale",
  /// "no scaling", "not applicable", "duplicate"); empty when not analysed.
  std::vector<std::string> decisions;
  // Sweeps (core/triton/kernel_sweep.h) only.
  std::string swept_for;    ///< why a sweep compiled it: "grid", "grid, new", "spills"; empty = Inductor compiled it
  double compile_s = -1.0;  ///< Triton's compile time of this config, s; -1 = not compiled by the sweep
  /// How it was timed when a sweep screened its configs: "full", or "brief: …" for a config the brief
  /// pass kept from the full method (its time is the brief one); empty otherwise.
  std::string method;

  [[nodiscard]] bool ok() const { return measured.ok(); }
  /// "X1 R16384 w32" (Y and R1 when present).
  [[nodiscard]] std::string configText() const;
};

/// The picks of one kernel: the best config and each policy's pick (summarizePicks,
/// core/sweep/policy_picks.h), with row indices into the whole run's rows.
struct KernelPicks : PickSummary {
  std::string kernel;
  std::string module;
  int winner_row = -1;  ///< the .best_config's config, when on disk
  double winner_regret = 0.0;
  int rows = 0;  ///< configs of the kernel
  int ok_rows = 0;
  bool outputs_agree = true;  ///< no config disagreed with the reference config
};

/// Best config and each policy's pick per kernel (kernels are runs of rows with the same kernel and
/// module), by summarizePicks (core/sweep/policy_picks.h) over inductor::kPolicies: the fastest ok
/// row of the set not over the spill threshold; when every ok row of the set is over it, the first
/// (Inductor times them all as infinite and keeps the first); regret = pick time / best time. A
/// policy's halved configs that were never compiled come from the candidates' rows
/// (MeasuredConfig::not_compiled).
std::vector<KernelPicks> summarizeMeasurements(const std::vector<MeasuredConfig>& rows);

/// The rows of a kernel's compiled configs before anything runs: config, origin, registers,
/// spills, occupancy, each policy's set and decision; status skipped with an empty reason. `device`
/// names the GPU the rows are for (may be empty). Never throws.
std::vector<MeasuredConfig> kernelConfigRows(const RunKernel& kernel, const std::string& device);

/// What to run.
struct MeasureOptions {
  RunOptions run;
  std::uint64_t seed = 1;
};

/// Progress: kernel `kernel` of `kernels`, config `done` of `total` in it; the row just measured.
struct MeasureProgress {
  std::string kernel;
  int kernel_index = 0;
  int kernels = 0;
  int done = 0;
  int total = 0;
  const MeasuredConfig* row = nullptr;
};

/// The outcome.
struct KernelMeasurements {
  std::vector<std::pair<std::string, std::string>> meta;  ///< device, driver, date, input, …
  std::vector<MeasuredConfig> rows;
  std::vector<KernelPicks> picks;
  std::vector<std::string>
      notes;  ///< what the launch plans assumed, per kernel ("triton_red_…: xnumel = 264 in the kernel body")
  bool cancelled = false;
  double seconds = 0.0;
};

/// The picks of `kernel` in `m` (its first run of rows), nullptr when it has none.
const KernelPicks* picksOf(const KernelMeasurements& m, const std::string& kernel);

/// Runs every compiled config of `kernels` (looped and persistent reductions, and pointwise
/// kernels; others are rows saying why not) on `runner`. Per kernel: the launch plan, one buffer
/// problem, then each config (the autotuner's winner first, then Inductor's candidates: the first
/// config that writes its outputs is the reference of the others; rows keep the kernel's order) — a config that cannot
/// be launched (no cubin, a .ptx that does not match, a cubin for another architecture than the GPU's) is a row with
/// the reason, and a failing one (fault, wrong outputs, out of memory) is a row with the driver's or the check's words;
/// the rest still run. Cancel keeps the finished rows and marks the rest cancelled. Never throws.
KernelMeasurements measureKernelConfigs(GpuRunner& runner, const std::vector<const RunKernel*>& kernels,
                                        const MeasureOptions& options,
                                        const std::function<void(const MeasureProgress&)>& progress = {},
                                        const std::atomic<bool>* cancel = nullptr);

/// The columns, in order.
const std::vector<Column<MeasuredConfig>>& measuredConfigColumns();
/// The result as CSV (format line, meta, columns).
CsvTable measurementsToCsv(const KernelMeasurements& result);
/// Reads a kernel-runs CSV back (picks recomputed). Errors: not such a file, a missing required
/// column, a malformed cell (row and column named).
Expected<KernelMeasurements> measurementsFromCsv(const CsvTable& table);
/// The picks as a table for the CLI and the closing note: one line per kernel and policy — kernel,
/// policy, candidates, benchmarked, pick, time µs, regret, not compiled.
std::vector<std::vector<std::string>> picksTable(const KernelMeasurements& result);

}  // namespace occx::triton
