#include "ui/jobs/live_sweep_job.h"

namespace occx::ui {

LiveAvailability liveAvailability(const Backend& backend) {
  LiveAvailability a;
  const Availability live = backend.liveAvailability();
  a.available = live.available;
  a.reason = QString::fromStdString(live.reason);
  if (a.available) {
    const auto gpus = backend.detectedGpus();
    if (!gpus.empty()) a.device = QString::fromStdString(gpus.front().name);
  }
  return a;
}

std::vector<DetectedGpu> detectedGpus(const Backend& backend) {
  std::vector<DetectedGpu> out;
  for (const auto& d : backend.detectedGpus()) out.push_back({QString::fromStdString(d.name), d.cc, d.sm_count});
  return out;
}

LiveSweepJob::LiveSweepJob(std::shared_ptr<Backend> backend, QObject* parent)
    : Job(parent), backend_(std::move(backend)), gpu_(std::make_shared<std::mutex>()) {}

quint64 LiveSweepJob::start(const LiveSweepSpec& spec, int device_ordinal) {
  std::shared_ptr<Backend> backend = backend_;
  std::shared_ptr<std::mutex> gpu = gpu_;
  return launch([this, spec, device_ordinal, backend, gpu](quint64 id, const std::atomic<bool>* cancel) {
    auto progress = [this, id](const LiveSweepProgress& p) {
      const auto done = static_cast<qulonglong>(p.done);
      const auto total = static_cast<qulonglong>(p.total);
      if (p.row != nullptr) {
        LiveRow row = *p.row;
        post(id, [this, id, done, total, row = std::move(row)] { emit rowMeasured(id, done, total, row); });
      } else {
        const Phase phase = p.phase;
        post(id, [this, id, phase, done, total] { emit phaseProgress(id, phase, done, total); });
      }
    };
    // Never two runs on the GPU at once: a new request waits here until the one it superseded has
    // seen its cancel flag and returned. Cancelled while waiting, it does not start at all (and ends
    // as a cancelled run without rows).
    std::unique_lock<std::mutex> lock(*gpu);
    Expected<LiveSweepResult> result = [] {
      LiveSweepResult cancelled;
      cancelled.cancelled = true;
      return cancelled;
    }();
    if (!cancel->load()) result = backend->runLiveSweep(device_ordinal, spec, progress, cancel);
    lock.unlock();
    if (!result) {
      const QString message = QString::fromStdString(result.error());
      post(id, [this, id, message] {
        markFinished(id);
        emit failed(id, message);
      });
      return;
    }
    auto shared = std::make_shared<const LiveSweepResult>(std::move(result).value());
    post(id, [this, id, shared] {
      markFinished(id);
      emit finished(id, shared);
    });
  });
}

}  // namespace occx::ui
