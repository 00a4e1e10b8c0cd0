// The live sweep and the autotuner replay: the compile sweep (core/sweep/compile_sweep.h: the grid,
// Inductor's candidates, each policy's halved configs and spill filter) compiled for the runner's
// GPU, then every config turned into a GPU module, run and timed through a GpuRunner
// (core/sweep/gpu_runner.h) and checked against the CPU reference. Each policy's pick is its fastest
// benchmarked candidate; the best is the fastest of everything; regret = pick time / best time
// (core/sweep/live_results.h).
#pragma once

#include <atomic>
#include <functional>
#include <string>

#include "core/base/expected.h"
#include "core/sweep/compile_sweep.h"
#include "core/sweep/gpu_runner.h"
#include "core/sweep/live_results.h"

namespace occx {

/// What to sweep live. compile.device is replaced by the runner's GPU (its architecture limits as
/// the driver reports them and its SM count); kernels are compiled for the GPU's architecture.
struct LiveSweepSpec {
  CompileSweepSpec compile;
  RunOptions run;
  std::uint64_t seed = 1;               ///< random inputs
  bool refresh_copy_bandwidth = false;  ///< measure the copy bandwidth again instead of the cached figure
  /// After the sweep, time the best config and each policy's pick this many more times (0 … 100):
  /// the run-to-run spread of the median.
  int repeat = 0;
  /// The compiler's version for the dataset's metadata when no compile reported one (all cached).
  std::string toolkit;
};

/// Repeated measurements of one row: the median of each repetition.
struct RepeatedTiming {
  int row = -1;
  std::vector<double> medians_us;
  double spread_pct = 0.0;  ///< (max − min) / median of the medians × 100
};

/// Progress: the phase; `done` of `total` in that phase; the live row just measured (kRun only).
struct LiveSweepProgress {
  Phase phase = Phase::kProblem;
  std::size_t done = 0;
  std::size_t total = 0;
  const LiveRow* row = nullptr;
};
using LiveSweepProgressFn = std::function<void(const LiveSweepProgress&)>;

/// The outcome: the compile sweep, the measured dataset (metadata + one row per config, in the
/// compile sweep's order), the replay's picks, the copy bandwidth used as the roofline, and times.
struct LiveSweepResult {
  CompileSweepResult compile;
  LiveDataset dataset;
  PickSummary replay;
  CopyBandwidth copy;
  std::vector<RepeatedTiming> repeats;  ///< spec.repeat > 0: best row first, then the picks (distinct rows)
  bool cancelled = false;
  double problem_seconds = 0.0;  ///< random inputs + CPU reference (overlaps the compiles)
  double compile_seconds = 0.0;
  double run_seconds = 0.0;  ///< every config: check + warm-up + timed runs
  double wall_seconds = 0.0;
};

/// Runs the live sweep on `runner`, compiling with `compile` (called from worker threads). Errors (before anything is
/// measured): an invalid spec (the compile sweep's messages), a problem that cannot be built, the copy bandwidth that
/// cannot be measured. Every per-config failure (compile error, launch failure, wrong result, out of memory) is a row
/// with the reason; cancel (read between configs and inside each run) keeps the finished rows and marks the rest
/// cancelled.
Expected<LiveSweepResult> runLiveSweep(GpuRunner& runner, const LiveSweepSpec& spec, const CompileFunction& compile,
                                       const LiveSweepProgressFn& progress = {},
                                       const std::atomic<bool>* cancel = nullptr);

/// The replay as a text table (one line per policy: candidates, pick, time, GB/s, regret), then the
/// best config; for the CLI and the closing note.
std::vector<std::vector<std::string>> replayTable(const LiveSweepResult& result);

}  // namespace occx
