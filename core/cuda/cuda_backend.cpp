#include "core/cuda/cuda_backend.h"

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

class CudaBackend final : public SharedRunnerBackend {
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

  Expected<std::unique_ptr<GpuRunner>> startGpuRunner(int ordinal) override {
    if (const Availability a = liveAvailability(); !a.available) return Error{a.reason};
    auto worker = startGpuWorker(ordinal);
    if (!worker) return Error{worker.error()};
    return std::unique_ptr<GpuRunner>(std::move(worker).value());
  }

  [[nodiscard]] CompileFunction compilerWithCache(CompileCache& cache) const override {
    auto nvrtc = std::make_shared<const NvrtcCompiler>(&cache);
    return [nvrtc](const CompileRequest& request) { return nvrtc->compile(request); };
  }

  [[nodiscard]] CrossCheck crossCheck(const CompileResult& result) const override {
    return crossCheckWithDriver(result);
  }

  Expected<DriverOccupancy> driverOccupancy(const DriverOccupancyQuery& query) override {
    // Occupancy questions load a module but launch nothing: asked in this process.
    if (const Availability a = liveAvailability(); !a.available) return Error{a.reason};
    return queryDriverOccupancy(query);
  }

 private:
  struct Compiler {
    CompileCache cache{CompileCache::defaultDirectory()};
    NvrtcCompiler nvrtc{&cache};
    Expected<CompileResult> compile(const CompileRequest& request) const { return nvrtc.compile(request); }
  };
  std::shared_ptr<const Compiler> compiler_ = std::make_shared<const Compiler>();
};

}  // namespace

std::shared_ptr<Backend> makeCudaBackend() {
  return std::make_shared<CudaBackend>();
}

}  // namespace occx::cuda
