#include "core/cuda/cuda_backend.h"

#include <mutex>

#include "core/cuda/cupti_support.h"
#include "core/cuda/device.h"
#include "core/cuda/driver_api.h"
#include "core/cuda/driver_occupancy.h"
#include "core/cuda/nvrtc_compiler.h"
#include "core/kernels/compile_cache.h"
#include "core/sweep/worker_runner.h"

namespace occx::cuda {

Expected<std::unique_ptr<WorkerRunner>> startGpuWorker(int ordinal) {
  auto program = gpuWorkerProgram();
  if (!program) return Error{program.error()};
  WorkerOptions options;
  options.program = *program;
  options.arguments = {"--device", std::to_string(ordinal)};
  return WorkerRunner::start(options);
}

namespace {

class CudaBackend final : public Backend {
 public:
  [[nodiscard]] Availability compileAvailability() const override { return {true, {}}; }
  [[nodiscard]] std::string compilerVersion() const override { return nvrtcVersionString(); }
  [[nodiscard]] std::vector<ComputeCapability> offeredArchitectures(const GpuDatabase& db) const override {
    return cuda::offeredArchitectures(db);
  }
  [[nodiscard]] CompileFunction compiler() const override {
    auto compiler = compiler_;
    return [compiler](const CompileRequest& request) { return compiler->compile(request); };
  }

  [[nodiscard]] Availability liveAvailability() const override {
    const DriverStatus s = driverStatus();
    if (!s.available) return {false, "No NVIDIA driver: " + s.reason};
    if (s.device_count == 0) return {false, "The NVIDIA driver is loaded but sees no GPU."};
    return {true, {}};
  }

  [[nodiscard]] Availability profilerAvailability() const override {
    auto a = cupti::available();
    if (!a) return {false, a.error()};
    return {true, {}};
  }

  [[nodiscard]] std::vector<DeviceInfo> detectedGpus() const override {
    static const std::vector<DeviceInfo> gpus = [] {
      if (!driverStatus().available) return std::vector<DeviceInfo>{};
      auto devices = queryDevices();
      return devices ? std::move(devices).value() : std::vector<DeviceInfo>{};
    }();
    return gpus;
  }

  Expected<LiveSweepResult> runLiveSweep(int ordinal, const LiveSweepSpec& spec, const LiveSweepProgressFn& progress,
                                         const std::atomic<bool>* cancel) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto error = openRunner(ordinal)) return *error;
    LiveSweepSpec with_toolkit = spec;
    if (with_toolkit.toolkit.empty()) with_toolkit.toolkit = nvrtcVersionString();
    return occx::runLiveSweep(*runner_, with_toolkit, compiler(), progress, cancel);
  }

  std::optional<Error> withGpuRunner(int ordinal, const std::function<void(GpuRunner&)>& work) override {
    std::lock_guard<std::mutex> lock(mutex_);
    if (auto error = openRunner(ordinal)) return error;
    work(*runner_);
    return std::nullopt;
  }

  Expected<DriverOccupancy> driverOccupancy(const DriverOccupancyQuery& query) override {
    // Occupancy questions load a module but launch nothing: asked in this process.
    if (const Availability a = liveAvailability(); !a.available) return Error{a.reason};
    return queryDriverOccupancy(query);
  }

 private:
  // The GPU worker process, started on first use and kept for later work on the same device; a new
  // one where the last could not be restarted. Called with mutex_ held.
  std::optional<Error> openRunner(int ordinal) {
    if (const Availability a = liveAvailability(); !a.available) return Error{a.reason};
    if (runner_ && (ordinal_ != ordinal || !runner_->contextLost().empty())) runner_.reset();
    if (!runner_) {
      auto r = startGpuWorker(ordinal);
      if (!r) return Error{r.error()};
      runner_ = std::move(r).value();
      ordinal_ = ordinal;
    }
    return std::nullopt;
  }

  struct Compiler {
    CompileCache cache{CompileCache::defaultDirectory()};
    NvrtcCompiler nvrtc{&cache};
    Expected<CompileResult> compile(const CompileRequest& request) const { return nvrtc.compile(request); }
  };
  std::shared_ptr<const Compiler> compiler_ = std::make_shared<const Compiler>();
  std::mutex mutex_;  ///< one piece of GPU work (a live sweep, a kernel run) at a time on the worker
  std::unique_ptr<WorkerRunner> runner_;
  int ordinal_ = -1;
};

}  // namespace

std::shared_ptr<Backend> makeCudaBackend() {
  return std::make_shared<CudaBackend>();
}

}  // namespace occx::cuda
