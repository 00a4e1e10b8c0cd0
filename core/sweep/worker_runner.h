// A GpuRunner whose GPU work runs in a worker process (`occx-gpu-worker`) that owns the CUDA
// context. A kernel that faults poisons its context for the whole process (driver 580 cannot
// recover it in-process), so the CLI and the GUI keep it out of theirs: a faulting config becomes
// a row with the driver's error, the worker is restarted (its problem uploaded again) and the sweep
// goes on. A worker that crashes, hangs past its deadline or answers garbage is treated alike.
// Talks the protocol of core/sweep/worker_protocol.h over a socket pair; started with posix_spawn.
//
// One caller at a time (a sweep's thread); cancel is passed on to a running config by a signal.
// Plain C++: no CUDA, no Qt.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/sweep/gpu_runner.h"

namespace occx {

/// How to start the worker and how long to wait for it (seconds).
struct WorkerOptions {
  std::string program;                 ///< the worker's executable (see gpuWorkerProgram)
  std::vector<std::string> arguments;  ///< after the program name, e.g. {"--device", "0"}
  double start_timeout_s = 120.0;      ///< process start until "ready": driver, CUPTI and context
  double request_timeout_s = 600.0;    ///< copy bandwidth, set_problem (inputs + CPU reference)
  double run_timeout_s = 120.0;        ///< one config's run: check, warm-up, timed launches, profiling
  double cancel_grace_s = 10.0;        ///< after a cancel, how long a running config may take to stop
};

/// The worker executable to use: $OCCX_GPU_WORKER when set, else `occx-gpu-worker` beside the
/// running program, else in ../libexec/occupancy-explorer/ from it (an installed tree). Error: none
/// of them exists (the message names the places looked in).
Expected<std::string> gpuWorkerProgram();

class WorkerRunner final : public GpuRunner {
 public:
  /// Starts the worker and waits for its ready message (the GPU it opened). Errors: the program
  /// cannot be started (named), it refused (its reason: no driver, device out of range, …), or it
  /// did not answer within start_timeout_s.
  static Expected<std::unique_ptr<WorkerRunner>> start(const WorkerOptions& options);
  /// Asks the worker to quit, then ends it (SIGKILL after 2 s) and reaps it.
  ~WorkerRunner() override;
  WorkerRunner(const WorkerRunner&) = delete;
  WorkerRunner& operator=(const WorkerRunner&) = delete;

  [[nodiscard]] const DeviceInfo& device() const override;
  Expected<CopyBandwidth> copyBandwidth(bool refresh) override;
  /// Sends the spec; the worker builds the inputs and reference and uploads them. Kept, and sent
  /// again after every restart.
  std::optional<Error> setProblem(const ProblemSpec& spec) override;
  /// Sends the buffer problem; the worker builds the initial contents and uploads them. Kept (in
  /// place of a family problem), and sent again after every restart: a restarted worker has no
  /// reference, so the run whose outputs become its reference says so in its reason. Errors:
  /// the worker's (checkBufferProblemSpec's, out of memory), or the transport's as setProblem.
  std::optional<Error> setBufferProblem(const BufferProblemSpec& spec) override;
  std::optional<Error> clearProblem() override;
  /// Runs one module in the worker. Never throws. A worker that dies (the reason says how: exit
  /// code or signal), does not answer within run_timeout_s, or answers garbage gives an outcome
  /// kLaunchFailed with that reason, context_reset set, and a fresh worker for the next run; so
  /// does a run after which the worker's context is lost (the driver's error stays the reason).
  RunOutcome run(const GpuModule& module, const RunOptions& options, const std::atomic<bool>* cancel) override;
  /// Empty while a worker is running or can be restarted; else why not (the restart's error).
  [[nodiscard]] std::string contextLost() const override;
  [[nodiscard]] std::string driverVersionText() const override;

  /// Worker processes started after the first (each one after a crash, hang, garbage or lost context).
  [[nodiscard]] int restarts() const;
  /// Seconds the first worker took from spawn to ready (the one-off cost of a sweep's first run).
  [[nodiscard]] double startupSeconds() const;
  /// The running worker's process id (0 when none).
  [[nodiscard]] pid_t workerPid() const;

 private:
  explicit WorkerRunner(WorkerOptions options);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace occx
