#include "core/sweep/backend.h"

namespace occx {

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

}  // namespace

std::shared_ptr<Backend> offlineBackend() {
  static const std::shared_ptr<Backend> backend = std::make_shared<OfflineBackend>();
  return backend;
}

}  // namespace occx
