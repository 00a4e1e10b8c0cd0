// What the program can do with GPUs here, behind one interface: compile kernels (NVRTC), list the
// GPUs the driver sees, and run live sweeps through a GpuRunner. main() picks the implementation —
// the CUDA one (core/cuda/cuda_backend.h) in a build with the CUDA Toolkit, the offline one below
// otherwise — and hands it to the GUI's views and jobs, so nothing in ui/ needs to know whether this
// build has CUDA. The CLI's main() does the same and hands it to every command. Tests hand in fakes,
// or workerBackend() over the fake GPU worker.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/detected_gpu.h"
#include "core/gpu/gpu_data.h"
#include "core/kernels/compile.h"
#include "core/kernels/compile_cache.h"
#include "core/occupancy/driver_answer.h"
#include "core/sweep/gpu_runner.h"
#include "core/sweep/live_sweep.h"

namespace occx {

/// Whether a capability is available here, and in words why not.
struct Availability {
  bool available = false;
  std::string reason;  ///< when not available: "no NVIDIA driver: …", "this build has no CUDA Toolkit …"
};

class Backend {
 public:
  Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;
  virtual ~Backend() = default;

  /// Whether kernels can be compiled here (a compiler is built in), and why not.
  [[nodiscard]] virtual Availability compileAvailability() const = 0;
  /// The compiler's name and version, e.g. "NVRTC 13.0"; empty without a compiler.
  [[nodiscard]] virtual std::string compilerVersion() const = 0;
  /// The architectures the compiler can target, from the GPU data `db`, oldest first; empty without
  /// a compiler.
  [[nodiscard]] virtual std::vector<ComputeCapability> offeredArchitectures(const GpuDatabase& db) const = 0;
  /// A compile function backed by the user's compile cache; safe to call from several threads at
  /// once. Empty (false) without a compiler.
  [[nodiscard]] virtual CompileFunction compiler() const = 0;

  /// Like compiler(), but backed by `cache` (the caller's, e.g. a --cache folder, so that its damaged
  /// entries can be reported afterwards); `cache` must outlive the function. Empty without a compiler.
  [[nodiscard]] virtual CompileFunction compilerWithCache(CompileCache& cache) const {
    (void)cache;
    return {};
  }
  /// Loads `result.cubin` on the first GPU of its architecture and compares the driver's registers,
  /// local memory and static shared memory with the compiler's report (cuFuncGetAttribute). kSkipped,
  /// with the reason, without a driver or a GPU of that architecture; kFailed when the driver rejects
  /// the module.
  [[nodiscard]] virtual CrossCheck crossCheck(const CompileResult& result) const {
    (void)result;
    CrossCheck c;
    c.note = liveAvailability().reason;
    return c;
  }

  /// Whether live runs are possible here (a driver that sees a GPU), and why not. Asks the driver
  /// once per process.
  [[nodiscard]] virtual Availability liveAvailability() const = 0;
  /// Whether CUPTI (kernel records, the profiled pass) can be loaded here, and why not.
  [[nodiscard]] virtual Availability profilerAvailability() const { return {false, "this build cannot tell"}; }
  /// The GPUs the driver reports, matched to the built-in GPU data; empty without a driver or GPU.
  [[nodiscard]] virtual std::vector<DeviceInfo> detectedGpus() const = 0;
  /// Runs a live sweep on device `ordinal` (0 … count − 1): opens a GpuRunner on it (kept for later
  /// sweeps on the same device) and compiles with compiler(). One sweep at a time: callers must not
  /// overlap calls. Errors: live runs unavailable (liveAvailability's reason), a device that cannot
  /// be opened, and runLiveSweep's errors; per-config failures are rows.
  virtual Expected<LiveSweepResult> runLiveSweep(int ordinal, const LiveSweepSpec& spec,
                                                 const LiveSweepProgressFn& progress,
                                                 const std::atomic<bool>* cancel) = 0;
  /// Calls `work` with a GpuRunner on device `ordinal` (the one runLiveSweep uses, opened on first
  /// use and kept), on the calling thread, holding the backend's lock: one piece of GPU work at a
  /// time. For work that brings its own modules (Inductor's compiled cubins). Errors: live runs
  /// unavailable (liveAvailability's reason), a device that cannot be opened; `work` is not called then.
  virtual std::optional<Error> withGpuRunner(int ordinal, const std::function<void(GpuRunner&)>& work) {
    (void)ordinal;
    (void)work;
    const Availability a = liveAvailability();
    return Error{a.available ? std::string("this backend cannot hand out a GPU runner") : a.reason};
  }
  /// A GPU runner of the caller's own on device `ordinal` (0 … detectedGpus().size() − 1): a new GPU
  /// worker process, ended when the runner is destroyed. For a command that runs one piece of GPU work
  /// from start to end (the CLI); views share withGpuRunner's. Errors: live runs unavailable
  /// (liveAvailability's reason), the worker cannot start or cannot open the device (its reason).
  virtual Expected<std::unique_ptr<GpuRunner>> startGpuRunner(int ordinal) {
    (void)ordinal;
    return Error{liveAvailability().reason};
  }
  /// Asks the driver of device `query.device` about one launch (occupancy, clusters, best block
  /// size) with a probe kernel compiled to the requested registers. Takes about a second the first
  /// time per register count (the compile), then milliseconds. Errors: no driver or GPU (the reason),
  /// a device out of range, a compile or driver failure naming the call.
  virtual Expected<DriverOccupancy> driverOccupancy(const DriverOccupancyQuery& query) {
    (void)query;
    return Error{liveAvailability().reason};
  }
};

/// A Backend that keeps one GPU runner (startGpuRunner's, opened on first use, replaced after a lost
/// context or for another device) for runLiveSweep and withGpuRunner, one piece of work at a time.
/// Live sweeps compile with compiler() and are labelled with compilerVersion().
class SharedRunnerBackend : public Backend {
 public:
  Expected<LiveSweepResult> runLiveSweep(int ordinal, const LiveSweepSpec& spec, const LiveSweepProgressFn& progress,
                                         const std::atomic<bool>* cancel) override;
  std::optional<Error> withGpuRunner(int ordinal, const std::function<void(GpuRunner&)>& work) override;

 private:
  std::optional<Error> openRunner(int ordinal);  ///< called with mutex_ held
  std::mutex mutex_;                             ///< one piece of GPU work at a time on the runner
  std::unique_ptr<GpuRunner> runner_;
  int ordinal_ = -1;
};

/// `base` with its GPU work (the GPUs, live sweeps, runners) done by the GPU worker program
/// `worker_program` alone, with no driver in this process: the GPUs are the ones the worker opens
/// for --device 0, 1, … (until it refuses or repeats itself, at most 16); compiling, the driver's
/// occupancy and the cross-check stay `base`'s. For a worker other than the installed one (a fake
/// GPU in tests, $OCCX_GPU_WORKER).
std::shared_ptr<Backend> workerBackend(std::shared_ptr<Backend> base, std::string worker_program);

/// The backend of a build without the CUDA Toolkit: nothing compiles and nothing runs, and the
/// reasons say so; GPUs are never detected.
std::shared_ptr<Backend> offlineBackend();

}  // namespace occx
