// Sweeping one of the user's own Inductor kernels: compile it at configs Inductor never tried
// (core/triton/config_grid.h, core/triton/triton_compile.h), read them back like Inductor's own
// (registers and spills from the cubins, occupancy, every policy's decision), and with a GPU run
// them all (core/triton/kernel_measurements.h): each policy's pick, Inductor's own pick, the best config and
// why it wins. Without a GPU the rows have everything but times.
#pragma once

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/sweep/gpu_runner.h"
#include "core/triton/config_grid.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_measurements.h"
#include "core/triton/triton_compile.h"

namespace occx::triton {

class SweepCache;

/// A first pass that times every config briefly, so that the full method (MeasureOptions::run) is
/// spent only on configs that could be the best.
struct ScreenPass {
  RunOptions brief;  ///< the brief method: briefScreenOptions()
  /// A config goes on to the full method when its brief time is within max(this, 3 × the largest
  /// spread of the brief pass) of the brief best, %; Inductor's winner and every policy's brief pick
  /// always go on.
  double min_margin_pct = 8.0;
};

/// The brief method of a screen pass: no warm-up beyond 2 launches, 8 … 60 timed launches aiming at
/// 3 ms of kernel time, L2 flushed as the full method does, no warm pass, no CUPTI metrics.
RunOptions briefScreenOptions(const RunOptions& full);

/// After a brief pass over `rows` (one kernel's): the indices that go on to the full method — rows ok
/// and within max(screen.min_margin_pct, 3 × the largest brief spread) of the brief best, Inductor's
/// winner and each policy's brief pick; `margin_pct` gets the margin used. Each row left out gets
/// its reason in `method` ("brief: 12.3 % slower than the brief best, over the margin of 8.0 %").
std::vector<std::size_t> screenFinalists(std::vector<MeasuredConfig>& rows, const ScreenPass& screen,
                                         double& margin_pct);

/// What to sweep.
struct KernelSweepOptions {
  std::optional<ConfigGrid> grid;  ///< nullopt: no grid (policies only)
  bool policies = true;            ///< also what each decision policy would add
  TritonCompileOptions compile;
  MeasureOptions run;                ///< used when a runner is given
  std::optional<ScreenPass> screen;  ///< nullopt: every config gets the full method
  SweepCache* cache = nullptr;       ///< rows measured before are taken from it, and new ones kept in it
  const GpuDatabase* db = nullptr;   ///< nullptr = the built-in GPU data
};

/// Progress: the phase ("compiling", "running"), `done` of `total` in it, and the line to show.
struct KernelSweepProgress {
  std::string phase;
  int done = 0;
  int total = 0;
  std::string text;  ///< "X1 R2048 w16: compiled in 1.2 s", "X1 R2048 w16: ok 29.6 µs"
};

/// The outcome.
struct KernelSweepResult {
  SweepPlan plan;
  TritonCompileReport compile;
  RunKernel kernel;                ///< the kernel re-read with every compiled config
  KernelMeasurements runs;         ///< one row per compiled config (timed when measured), and the picks
  bool measured = false;           ///< a GPU ran the configs
  std::string not_measured;        ///< why not, when not measured ("no GPU: …")
  int from_cache = 0;              ///< rows whose measurement came from the sweep cache
  int screened_out = 0;            ///< configs the screen pass kept from the full method
  double screen_margin_pct = 0.0;  ///< the margin the screen pass used, % (0 without one)
  /// The best config and the picks in words, with the occupancy, registers and spills behind them.
  std::vector<std::string> explanation;
};

/// Sweeps `kernel` (a looped or persistent reduction of a scanned run; `module_text` is its whole
/// kernel module). Plans the configs, compiles those not compiled yet with the user's Python
/// (compileWithTriton), reads the kernel's configs again from its own Triton folders and the sweep's
/// cache, and — when `runner` is not null — runs every config (measureKernelConfigs). Rows of configs
/// the sweep compiled say why (swept_for) and how long Triton took (compile_s). Errors: the plan's
/// (not a reduction, a bad grid), the compile's (no usable Python: what to install), nothing to
/// compile or read; Error::cancellation() when cancelled before any config could be read. Cancel
/// keeps what finished. `progress` is called from the compile's reader threads (one call at a
/// time) and then from the calling thread. Never throws.
Expected<KernelSweepResult> sweepKernel(const RunKernel& kernel, const std::string& module_text,
                                        const KernelSweepOptions& options, GpuRunner* runner,
                                        const std::function<void(const KernelSweepProgress&)>& progress = {},
                                        const std::atomic<bool>* cancel = nullptr);

/// The first half of sweepKernel: plans, compiles and re-reads the kernel; the rows are not run
/// (KernelSweepResult::measured false). A caller that runs the GPU on one kernel while the next
/// compiles calls this, then measureKernelSweep. Errors as sweepKernel's.
Expected<KernelSweepResult> prepareKernelSweep(const RunKernel& kernel, const std::string& module_text,
                                               const KernelSweepOptions& options,
                                               const std::function<void(const KernelSweepProgress&)>& progress = {},
                                               const std::atomic<bool>* cancel = nullptr);

/// The second half: runs the prepared kernel's configs on `runner` (null: not run, the rows say
/// why) — with options.screen, a brief pass first and the full method for the finalists; with
/// options.cache, rows measured before by the same device, driver, module, seed and method are
/// taken from it and the new ones stored — then the picks and the explanation. Never throws.
void measureKernelSweep(KernelSweepResult& result, const RunKernel& kernel, const KernelSweepOptions& options,
                        GpuRunner* runner, const std::function<void(const KernelSweepProgress&)>& progress = {},
                        const std::atomic<bool>* cancel = nullptr);

/// The best config and each pick in words: "Best: X4 R256 w4, 136.6 µs (4100 GB/s): 100 % occupancy
/// (limited by warps), 32 registers, no spills", then Inductor's pick and each policy's pick against it
/// (regret, and which of occupancy, registers, spills and tile differ; policies that pick the same
/// config from sets of the same size in one sentence). Without times, the
/// occupancy leaders and the configs that spill. From the rows only (also for a CSV read back).
std::vector<std::string> explainSweep(const std::vector<MeasuredConfig>& rows, const std::vector<KernelPicks>& picks);

}  // namespace occx::triton
