#include "ui/jobs/live_sweep_job.h"

#include <mutex>

#include "occx_config.h"

#if OCCX_HAVE_CUDA
#include "core/kernels/compile_cache.h"
#include "core/cuda/driver_api.h"
#include "core/cuda/gpu_session.h"
#include "core/sweep/live_sweep.h"
#include "core/cuda/nvrtc_compiler.h"
#endif

namespace occx::ui {

LiveAvailability liveAvailability() {
  LiveAvailability a;
#if OCCX_HAVE_CUDA
  const cuda::DriverStatus s = cuda::driverStatus();
  if (!s.available) {
    a.reason = QObject::tr("No NVIDIA driver: %1").arg(QString::fromStdString(s.reason));
  } else if (s.device_count == 0) {
    a.reason = QObject::tr("The NVIDIA driver is loaded but sees no GPU.");
  } else {
    a.available = true;
    auto devices = cuda::queryDevices();
    if (devices && !devices->empty()) a.device = QString::fromStdString(devices->front().name);
  }
#else
  a.reason = QObject::tr("This build has no CUDA Toolkit: live runs need it (and an NVIDIA GPU with its driver).");
#endif
  return a;
}

std::vector<DetectedGpu> detectedGpus() {
  static const std::vector<DetectedGpu> gpus = [] {
    std::vector<DetectedGpu> out;
#if OCCX_HAVE_CUDA
    if (!cuda::driverStatus().available) return out;
    auto devices = cuda::queryDevices();
    if (!devices) return out;
    for (const auto& d : *devices) out.push_back({QString::fromStdString(d.name), d.cc, d.sm_count});
#endif
    return out;
  }();
  return gpus;
}

LiveRunFunction defaultLiveRunFunction() {
#if OCCX_HAVE_CUDA
  struct State {
    std::mutex mutex;  // one live run at a time on the session
    std::unique_ptr<cuda::GpuSession> session;
    int ordinal = -1;
    CompileCache cache{CompileCache::defaultDirectory()};
    cuda::NvrtcCompiler compiler{&cache};
  };
  auto state = std::make_shared<State>();
  return [state](const LiveRunRequest& req, const LiveRunProgressFn& progress,
                 const std::atomic<bool>* cancel) -> Expected<LiveRunOutcome> {
    std::lock_guard<std::mutex> lock(state->mutex);
    if (!state->session || state->ordinal != req.device_ordinal) {
      state->session.reset();
      auto s = cuda::GpuSession::open(req.device_ordinal);
      if (!s) return Error{s.error()};
      state->session = std::move(s).value();
      state->ordinal = req.device_ordinal;
    }
    LiveSweepSpec spec;
    spec.toolkit = cuda::nvrtcVersionString();
    spec.compile = req.compile;
    spec.run.cupti_metrics = req.cupti_metrics;
    auto r = runLiveSweep(
        *state->session, spec, state->compiler.function(),
        [&progress](const LiveSweepProgress& p) {
          if (progress) progress({std::string(phaseName(p.phase)), p.done, p.total, p.row});
        },
        cancel);
    if (!r) return Error{r.error()};
    LiveRunOutcome out;
    out.dataset = std::move(r->dataset);
    out.cancelled = r->cancelled;
    out.wall_seconds = r->wall_seconds;
    out.cache_repairs = r->compile.cache_repairs;
    return out;
  };
#else
  return {};
#endif
}

LiveSweepJob::LiveSweepJob(LiveRunFunction run, QObject* parent)
    : SweepJob(parent), run_(std::move(run)), gpu_(std::make_shared<std::mutex>()) {}

quint64 LiveSweepJob::start(const LiveRunRequest& request) {
  LiveRunFunction run = run_;
  std::shared_ptr<std::mutex> gpu = gpu_;
  return launch([this, request, run, gpu](quint64 id, const std::atomic<bool>* cancel) {
    if (!run) {
      post(id, [this, id] {
        markFinished(id);
        emit failed(id, tr("Live runs are not available in this build (no CUDA Toolkit)."));
      });
      return;
    }
    auto progress = [this, id](const LiveRunProgress& p) {
      const auto done = static_cast<qulonglong>(p.done);
      const auto total = static_cast<qulonglong>(p.total);
      if (p.row != nullptr) {
        LiveRow row = *p.row;
        post(id, [this, id, done, total, row = std::move(row)] { emit rowMeasured(id, done, total, row); });
      } else {
        const QString phase = QString::fromStdString(p.phase);
        post(id, [this, id, phase, done, total] { emit phaseProgress(id, phase, done, total); });
      }
    };
    // Never two runs on the GPU at once: a new request waits here until the one it superseded has
    // seen its cancel flag and returned. Cancelled while waiting, it does not start at all (and ends
    // as a cancelled run without rows).
    std::unique_lock<std::mutex> lock(*gpu);
    Expected<LiveRunOutcome> outcome = LiveRunOutcome{{}, true, 0.0, {}};
    if (!cancel->load()) outcome = run(request, progress, cancel);
    lock.unlock();
    if (!outcome) {
      const QString message = QString::fromStdString(outcome.error());
      post(id, [this, id, message] {
        markFinished(id);
        emit failed(id, message);
      });
      return;
    }
    auto shared = std::make_shared<const LiveRunOutcome>(std::move(outcome).value());
    post(id, [this, id, shared] {
      markFinished(id);
      emit finished(id, shared);
    });
  });
}

}  // namespace occx::ui
