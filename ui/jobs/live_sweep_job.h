// Runs a live sweep (core/sweep/live_sweep.h: compile, run and time every config on the local GPU,
// autotuner replay) off the UI thread for the live-sweep view, through the program's Backend
// (core/sweep/backend.h). Each measured config arrives as rowMeasured() on the UI thread, then the
// result as finished(). Tests hand in a fake Backend, so the view does not need a GPU.
#pragma once

#include <QString>
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "core/sweep/backend.h"
#include "core/sweep/live_sweep.h"
#include "ui/jobs/job.h"
#include "ui/widgets/device_selector.h"

namespace occx::ui {

/// Whether this program can run kernels here, and why not, as the view shows it.
struct LiveAvailability {
  bool available = false;
  QString reason;  ///< when not available: no CUDA Toolkit in this build, no driver (the driver's reason), no GPU
  QString device;  ///< the first GPU's name when available
};
/// What `backend` says about live runs here (asks the driver once). Never fails.
LiveAvailability liveAvailability(const Backend& backend);

/// GPUs `backend` reports here (name, compute capability, SM count), for the device selectors; empty
/// without a driver or a GPU.
std::vector<DetectedGpu> detectedGpus(const Backend& backend);

class LiveSweepJob : public Job {
  Q_OBJECT

 public:
  explicit LiveSweepJob(std::shared_ptr<Backend> backend, QObject* parent = nullptr);

  /// Starts a live sweep of `spec` on device `device_ordinal` as the latest request (cancelling the
  /// running one). It starts on the GPU only when the superseded one has returned: never two GPU runs
  /// at once. Returns its id.
  quint64 start(const LiveSweepSpec& spec, int device_ordinal = 0);

 signals:
  /// Phase progress (problem, compile) of request `id`.
  void phaseProgress(quint64 id, occx::Phase phase, qulonglong done, qulonglong total);
  /// Config `done` of `total` of request `id` was measured (or failed, with the reason in the row).
  void rowMeasured(quint64 id, qulonglong done, qulonglong total, const occx::LiveRow& row);
  /// Request `id` ended with its result (finished rows only when cancelled).
  void finished(quint64 id, std::shared_ptr<const occx::LiveSweepResult> result);
  /// Request `id` could not run (no GPU, invalid spec, copy bandwidth not measurable).
  void failed(quint64 id, const QString& message);

 private:
  std::shared_ptr<Backend> backend_;
  std::shared_ptr<std::mutex> gpu_;  ///< held while a request runs on the GPU: one GPU run at a time
};

}  // namespace occx::ui
