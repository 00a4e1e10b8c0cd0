#include "core/cuda/cuda_backend.h"

#include <mutex>

#include "core/cuda/device.h"
#include "core/cuda/driver_api.h"
#include "core/cuda/gpu_session.h"
#include "core/cuda/nvrtc_compiler.h"
#include "core/kernels/compile_cache.h"

namespace occx::cuda {

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
    if (const Availability a = liveAvailability(); !a.available) return Error{a.reason};
    // A session whose context the driver made unusable cannot measure again: open a fresh one
    // where the driver allows it, else say why at once (no compiles, no rows of "not run").
    if (session_ && !session_->contextLost().empty()) {
      const std::string lost = session_->contextLost();
      session_.reset();
      auto fresh = GpuSession::open(ordinal);
      if (!fresh || !(*fresh)->contextLost().empty()) {
        return Error{"the GPU is not usable in this process any more (" + lost + "); restart the program to measure again"};
      }
      session_ = std::move(fresh).value();
      ordinal_ = ordinal;
    }
    if (!session_ || ordinal_ != ordinal) {
      session_.reset();
      auto s = GpuSession::open(ordinal);
      if (!s) return Error{s.error()};
      session_ = std::move(s).value();
      ordinal_ = ordinal;
    }
    LiveSweepSpec with_toolkit = spec;
    if (with_toolkit.toolkit.empty()) with_toolkit.toolkit = nvrtcVersionString();
    return occx::runLiveSweep(*session_, with_toolkit, compiler(), progress, cancel);
  }

 private:
  struct Compiler {
    CompileCache cache{CompileCache::defaultDirectory()};
    NvrtcCompiler nvrtc{&cache};
    Expected<CompileResult> compile(const CompileRequest& request) const { return nvrtc.compile(request); }
  };
  std::shared_ptr<const Compiler> compiler_ = std::make_shared<const Compiler>();
  std::mutex mutex_;  ///< one live sweep at a time on the session
  std::unique_ptr<GpuSession> session_;
  int ordinal_ = -1;
};

}  // namespace

std::shared_ptr<Backend> makeCudaBackend() { return std::make_shared<CudaBackend>(); }

}  // namespace occx::cuda
