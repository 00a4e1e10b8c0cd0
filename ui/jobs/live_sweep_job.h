// Runs a live sweep (core/sweep/live_sweep.h: compile, run and time every config on the local GPU,
// autotuner replay) off the UI thread for the live view. Each measured config arrives as
// rowMeasured() on the UI thread, then the dataset as finished(). The GPU work itself goes through a
// LiveRunFunction, so the view and its tests do not depend on a GPU being present.
#pragma once

#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "core/sweep/compile_sweep.h"
#include "core/base/expected.h"
#include "core/sweep/live_results.h"
#include "ui/widgets/device_selector.h"
#include "ui/jobs/sweep_job.h"

namespace occx::ui {

/// What to measure: the workload, shape and grid (compile.device is ignored: the local GPU is used)
/// and whether to collect CUPTI metrics (achieved occupancy, DRAM bytes, local-memory traffic).
struct LiveRunRequest {
  CompileSweepSpec compile;
  bool cupti_metrics = false;
  int device_ordinal = 0;
};

/// Progress of a live run: phase "problem", "compile" or "run", `done` of `total` in it, and in phase
/// "run" the row just measured.
struct LiveRunProgress {
  std::string phase;
  std::size_t done = 0;
  std::size_t total = 0;
  const LiveRow* row = nullptr;
};

/// A finished live run: the dataset as the CLI would write it (metadata with the device, driver,
/// toolkit, date and copy bandwidth; one row per config).
struct LiveRunOutcome {
  LiveDataset dataset;
  bool cancelled = false;
  double wall_seconds = 0.0;
  std::vector<std::string> cache_repairs;  ///< damaged compile-cache entries met and recompiled
};

using LiveRunProgressFn = std::function<void(const LiveRunProgress&)>;
/// Measures a request; called on a worker thread. Errors (nothing measured) as values.
using LiveRunFunction =
    std::function<Expected<LiveRunOutcome>(const LiveRunRequest&, const LiveRunProgressFn&, const std::atomic<bool>*)>;

/// Whether this program can run kernels here, and why not.
struct LiveAvailability {
  bool available = false;
  QString reason;  ///< when not available: no CUDA Toolkit in this build, no driver (the driver's reason), no GPU
  QString device;  ///< the first GPU's name when available
};
/// Asks the driver once (cached by the core layer). Never fails.
LiveAvailability liveAvailability();

/// GPUs the driver reports here (name, compute capability, SM count), for the device selectors;
/// empty without the toolkit, the driver or a GPU. Asks the driver once per process.
std::vector<DetectedGpu> detectedGpus();

/// The real thing: NVRTC with the user's compile cache and a GpuSession on the device, opened on
/// first use and kept for later runs. Empty when this build has no CUDA Toolkit.
LiveRunFunction defaultLiveRunFunction();

class LiveSweepJob : public SweepJob {
  Q_OBJECT

 public:
  explicit LiveSweepJob(LiveRunFunction run, QObject* parent = nullptr);

  [[nodiscard]] bool hasRunner() const { return static_cast<bool>(run_); }
  /// Starts a live sweep as the latest request (cancelling the running one). Its run function starts
  /// only when the superseded one has returned: never two GPU runs at once. Returns its id.
  quint64 start(const LiveRunRequest& request);

 signals:
  /// Phase progress (problem, compile) of request `id`.
  void phaseProgress(quint64 id, const QString& phase, qulonglong done, qulonglong total);
  /// Config `done` of `total` of request `id` was measured (or failed, with the reason in the row).
  void rowMeasured(quint64 id, qulonglong done, qulonglong total, const occx::LiveRow& row);
  /// Request `id` ended with its dataset (finished rows only when cancelled).
  void finished(quint64 id, std::shared_ptr<const occx::ui::LiveRunOutcome> outcome);
  /// Request `id` could not run (no GPU, invalid spec, copy bandwidth not measurable).
  void failed(quint64 id, const QString& message);

 private:
  LiveRunFunction run_;
  std::shared_ptr<std::mutex> gpu_;  ///< held while a request's run function runs: one GPU run at a time
};

}  // namespace occx::ui
