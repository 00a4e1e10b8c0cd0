// The one interface live runs go through: a GpuRunner owns a GPU (its context lives wherever the
// implementation puts it: a worker process for the CLI and the GUI, core/sweep/worker_runner.h; a
// thread of this process in the worker itself and in the GPU tests), holds one problem's inputs
// on the device, and runs prepared GPU modules (core/gpu/gpu_module.h) on them — checks the outputs
// against the problem's CPU reference, then times the kernel: warm-up, L2 flushed before each timed
// launch (cold), then as many launches with the inputs just written (warm), CUDA events around each
// launch and CUPTI kernel records where available, median, min, max and spread; DRAM bytes from
// CUPTI's range profiler where permitted, and the bandwidth by applyBandwidth's rule
// (core/sweep/measurement.h).
//
// No CUDA types: core/cuda implements it (GpuSession); tests implement fakes.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/detected_gpu.h"
#include "core/gpu/gpu_module.h"
#include "core/kernels/live_problem.h"
#include "core/sweep/buffer_problem.h"
#include "core/sweep/measurement.h"

namespace occx {

/// How one module is run and timed.
struct RunOptions {
  int min_warmup_runs = 3;   ///< warm-up launches, at least this many …
  double warmup_ms = 10.0;   ///< … and at least this much kernel time
  int min_timed_runs = 25;   ///< timed launches: at least this many …
  int max_timed_runs = 400;  ///< … at most this many …
  double timed_ms = 40.0;    ///< … aiming at this much kernel time in all
  bool flush_l2 = true;      ///< clear L2 (memset of 2 × L2 bytes) before every timed launch
  /// Also time the kernel warm, as many launches again: before each, every input and in-out buffer
  /// is written by a device-to-device copy from a pristine device copy (allocated once per problem;
  /// where it does not fit, warm is not measured and warm_note says why).
  bool warm = true;
  bool check = true;           ///< poison outputs, run once, compare with the CPU reference
  bool cupti_activity = true;  ///< also collect CUPTI kernel records (duration in ns)
  /// After timing, one profiled launch under the CUPTI range profiler (replayed once per pass):
  /// achieved occupancy, DRAM bytes, local-memory bytes. Where profiling is not permitted the
  /// metrics say so and the run is still ok.
  bool cupti_metrics = true;
  int check_threads = 0;  ///< host threads for the check (0 = hardware)
};

/// How a run was timed, as metadata lines of every dataset that holds measurements: "time_figure"
/// (kTimeFigure: what configs are compared by), "timing" (the method in words: warm-up, cold and warm
/// passes, events and CUPTI), "bandwidth" (applyBandwidth's rule) and "copy_bandwidth_GBps" when
/// `copy_GBps` > 0.
std::vector<std::pair<std::string, std::string>> timingMetadata(const RunOptions& options, double copy_GBps);

/// Outcome of running one module: its Measurement (core/sweep/measurement.h), and what the run did
/// to the runner.
struct RunOutcome : Measurement {
  bool context_reset = false;  ///< the context was reset after this run's error
};

/// The phases a live sweep reports progress in.
enum class Phase {
  kProblem,  ///< random inputs and the CPU reference are being built
  kCompile,  ///< configs are being compiled
  kRun,      ///< configs are being run, checked and timed
};
/// "problem", "compile", "run".
std::string_view phaseName(Phase phase);

class GpuRunner {
 public:
  GpuRunner() = default;
  GpuRunner(const GpuRunner&) = delete;
  GpuRunner& operator=(const GpuRunner&) = delete;
  virtual ~GpuRunner() = default;

  /// The GPU as the driver reports it (name, compute capability, SM count, limits).
  [[nodiscard]] virtual const DeviceInfo& device() const = 0;
  /// The device's copy bandwidth (GB/s, the roofline): from the per-user cache, or measured now
  /// (`refresh` measures again). Errors: the copy cannot be measured (out of memory, driver error).
  virtual Expected<CopyBandwidth> copyBandwidth(bool refresh) = 0;
  /// Builds a problem's random inputs and CPU reference (makeHostProblem) where the GPU is, uploads
  /// the inputs and allocates the outputs, replacing the previous problem. Errors: makeHostProblem's
  /// (a shape out of range), "out of memory: …" naming the bytes, or a driver failure.
  virtual std::optional<Error> setProblem(const ProblemSpec& spec) = 0;
  /// Builds a buffer problem's initial contents (makeHostBuffers, core/sweep/buffer_problem.h) where
  /// the GPU is, uploads inputs and in-outs and allocates outputs, replacing the previous problem
  /// of either kind. Runs on it check that outputs are written and equal those of the first run
  /// that checked ok (that run becomes the reference; a new problem, or a worker restarted after a
  /// crash, starts without one). Errors: checkBufferProblemSpec's, "out of memory: …" naming the
  /// bytes, a driver failure; a runner that cannot run buffer problems says so.
  virtual std::optional<Error> setBufferProblem(const BufferProblemSpec& spec);
  /// Frees the current problem's device memory (nothing to run afterwards). Error: a driver failure.
  virtual std::optional<Error> clearProblem() = 0;
  /// Runs one module on the current problem: load, launch with poisoned outputs, check, warm-up,
  /// timed launches. A failing module is an outcome with the reason (launch failed, wrong result,
  /// compile failed for a module that does not load); `cancel` (may be null) is read between phases.
  /// Never throws.
  virtual RunOutcome run(const GpuModule& module, const RunOptions& options, const std::atomic<bool>* cancel) = 0;
  /// Empty while the GPU is usable; else why not (every later run fails with it at once): in-process,
  /// an error the driver made fatal to the context; for a worker process, a worker that could not be
  /// restarted.
  [[nodiscard]] virtual std::string contextLost() const = 0;
  /// The driver's version text ("580.159.04"), for the dataset's metadata.
  [[nodiscard]] virtual std::string driverVersionText() const = 0;
};

}  // namespace occx
