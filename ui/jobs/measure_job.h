// Runs Inductor's compiled configs of some kernels (core/triton/kernel_measurements.h) on a GPU off the UI
// thread for the Inductor run view, through the Backend's GpuRunner: progress arrives as progress()
// on the UI thread, then the rows as finished() (also after a cancel: the finished rows stay), or
// failed(). A new start() cancels the running one; the superseded request's reports are dropped.
#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "core/sweep/backend.h"
#include "core/triton/kernel_measurements.h"
#include "ui/jobs/job.h"

namespace occx::ui {

class MeasureJob : public Job {
  Q_OBJECT

 public:
  explicit MeasureJob(QObject* parent = nullptr);

  /// Starts running `kernels` (of `run`, which the job keeps alive) on device `ordinal` of
  /// `backend` as the latest request. Returns its id.
  quint64 start(const std::shared_ptr<Backend>& backend, int ordinal,
                const std::shared_ptr<const triton::InductorRun>& run, std::vector<const triton::RunKernel*> kernels,
                const triton::MeasureOptions& options);

 signals:
  /// Request `id`: `text` ("kernel 1 of 3, config 2 of 6: X1 R2048 w16 ok 29.7 µs"), `done` of `total` configs.
  void progress(quint64 id, const QString& text, int done, int total);
  /// Request `id` ended with rows (cancelled set when it was cancelled).
  void finished(quint64 id, std::shared_ptr<const occx::triton::KernelMeasurements> result);
  /// Request `id` could not run: no GPU, a device that cannot be opened.
  void failed(quint64 id, const QString& message);
};

}  // namespace occx::ui
