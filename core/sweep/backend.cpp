#include "core/sweep/backend.h"

#include <mutex>
#include <utility>

#include "core/sweep/worker_runner.h"

namespace occx {

Expected<LiveSweepResult> SharedRunnerBackend::runLiveSweep(int ordinal, const LiveSweepSpec& spec,
                                                            const LiveSweepProgressFn& progress,
                                                            const std::atomic<bool>* cancel) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto error = openRunner(ordinal)) return *error;
  LiveSweepSpec with_toolkit = spec;
  if (with_toolkit.toolkit.empty()) with_toolkit.toolkit = compilerVersion();
  return occx::runLiveSweep(*runner_, with_toolkit, compiler(), progress, cancel);
}

std::optional<Error> SharedRunnerBackend::withGpuRunner(int ordinal, const std::function<void(GpuRunner&)>& work) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (auto error = openRunner(ordinal)) return error;
  work(*runner_);
  return std::nullopt;
}

std::optional<Error> SharedRunnerBackend::openRunner(int ordinal) {
  if (const Availability a = liveAvailability(); !a.available) return Error{a.reason};
  if (runner_ && (ordinal_ != ordinal || !runner_->contextLost().empty())) runner_.reset();
  if (!runner_) {
    auto r = startGpuRunner(ordinal);
    if (!r) return Error{r.error()};
    runner_ = std::move(r).value();
    ordinal_ = ordinal;
  }
  return std::nullopt;
}

namespace {

class OfflineBackend final : public Backend {
 public:
  [[nodiscard]] Availability compileAvailability() const override {
    return {false, "this build has no CUDA Toolkit (NVRTC), so kernels cannot be compiled here"};
  }
  [[nodiscard]] std::string compilerVersion() const override { return {}; }
  [[nodiscard]] std::vector<ComputeCapability> offeredArchitectures(const GpuDatabase&) const override { return {}; }
  [[nodiscard]] CompileFunction compiler() const override { return {}; }
  [[nodiscard]] Availability liveAvailability() const override {
    return {false, "This build has no CUDA Toolkit: live runs need it (and an NVIDIA GPU with its driver)."};
  }
  [[nodiscard]] Availability profilerAvailability() const override {
    return {false, "this build has no CUDA Toolkit (CUPTI ships with it)"};
  }
  [[nodiscard]] std::vector<DeviceInfo> detectedGpus() const override { return {}; }
  Expected<LiveSweepResult> runLiveSweep(int, const LiveSweepSpec&, const LiveSweepProgressFn&,
                                         const std::atomic<bool>*) override {
    return Error{liveAvailability().reason};
  }
};

// Live work through one worker program, the rest through `base`.
class WorkerBackend final : public SharedRunnerBackend {
 public:
  WorkerBackend(std::shared_ptr<Backend> base, std::string program)
      : base_(std::move(base)), program_(std::move(program)) {}

  [[nodiscard]] Availability compileAvailability() const override { return base_->compileAvailability(); }
  [[nodiscard]] std::string compilerVersion() const override { return base_->compilerVersion(); }
  [[nodiscard]] std::vector<ComputeCapability> offeredArchitectures(const GpuDatabase& db) const override {
    return base_->offeredArchitectures(db);
  }
  [[nodiscard]] CompileFunction compiler() const override { return base_->compiler(); }
  [[nodiscard]] CompileFunction compilerWithCache(CompileCache& cache) const override {
    return base_->compilerWithCache(cache);
  }
  [[nodiscard]] CrossCheck crossCheck(const CompileResult& result) const override { return base_->crossCheck(result); }
  [[nodiscard]] Availability profilerAvailability() const override { return base_->profilerAvailability(); }
  Expected<DriverOccupancy> driverOccupancy(const DriverOccupancyQuery& query) override {
    return base_->driverOccupancy(query);
  }

  [[nodiscard]] Availability liveAvailability() const override {
    const Probe& p = probe();
    if (p.gpus.empty()) return {false, p.reason};
    return {true, {}};
  }
  [[nodiscard]] std::vector<DeviceInfo> detectedGpus() const override { return probe().gpus; }

  Expected<std::unique_ptr<GpuRunner>> startGpuRunner(int ordinal) override {
    WorkerOptions options;
    options.program = program_;
    options.arguments = {"--device", std::to_string(ordinal)};
    auto runner = WorkerRunner::start(options);
    if (!runner) return Error{runner.error()};
    return std::unique_ptr<GpuRunner>(std::move(runner).value());
  }

 private:
  struct Probe {
    std::vector<DeviceInfo> gpus;
    std::string reason;  ///< why there are none
  };
  // The GPUs the worker opens, asked once: --device 0, 1, … until it refuses or answers with another
  // ordinal (a worker that ignores --device), at most 16.
  const Probe& probe() const {
    std::call_once(probe_once_, [this] {
      for (int ordinal = 0; ordinal < 16; ++ordinal) {
        WorkerOptions options;
        options.program = program_;
        options.arguments = {"--device", std::to_string(ordinal)};
        auto runner = WorkerRunner::start(options);
        if (!runner) {
          if (ordinal == 0) probe_.reason = "The GPU worker " + program_ + " opened no GPU: " + runner.error();
          break;
        }
        const DeviceInfo& d = (*runner)->device();
        if (d.ordinal != ordinal) break;
        probe_.gpus.push_back(d);
      }
    });
    return probe_;
  }
  std::shared_ptr<Backend> base_;
  std::string program_;
  mutable std::once_flag probe_once_;
  mutable Probe probe_;
};

}  // namespace

std::shared_ptr<Backend> workerBackend(std::shared_ptr<Backend> base, std::string worker_program) {
  return std::make_shared<WorkerBackend>(std::move(base), std::move(worker_program));
}

std::shared_ptr<Backend> offlineBackend() {
  static const std::shared_ptr<Backend> backend = std::make_shared<OfflineBackend>();
  return backend;
}

}  // namespace occx
