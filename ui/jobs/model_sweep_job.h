// Sweeps the step's reductions (core/step/model_sweep.h) off the UI thread for the Step tab: each
// kernel of the plan compiled with the user's Python and Triton at its default grid and — when the
// Backend can hand out a GPU runner — timed, the next kernel compiling while the GPU times the
// current one. Progress arrives as progress() on the UI thread, then the result as finished() (also
// after a cancel: the finished kernels stay and the gain is computed over them), or failed() (a GPU
// that cannot be opened, an unexpected stop). A new start() cancels the running one; the superseded
// request's reports are dropped.
#pragma once

#include <QString>
#include <memory>
#include <string>

#include "core/step/model_sweep.h"
#include "core/sweep/backend.h"
#include "ui/jobs/job.h"

namespace occx::ui {

class ModelSweepJob : public Job {
  Q_OBJECT

 public:
  explicit ModelSweepJob(QObject* parent = nullptr);

  /// Starts sweeping `plan` (its targets point into `run`, kept alive by the job) as the latest
  /// request; with `backend` not null the configs are also run on its GPU `ordinal`, else compiled
  /// and analysed only. Measured rows are kept in and taken from a sweep cache in `cache_dir`
  /// (empty: none). Returns the request's id.
  quint64 start(const std::shared_ptr<Backend>& backend, int ordinal, std::shared_ptr<const triton::InductorRun> run,
                step::ModelSweepPlan plan, step::ModelSweepOptions options, const std::string& cache_dir);

 signals:
  /// Request `id`: kernel `p.kernel_index` of `p.kernels`, its own phase and progress, the wall time so far.
  void progress(quint64 id, const occx::step::ModelSweepProgress& p);
  /// Request `id` ended with a result (cancelled set when it was cancelled).
  void finished(quint64 id, std::shared_ptr<const occx::step::ModelSweepResult> result);
  /// Request `id` could not sweep: a GPU that cannot be opened, an unexpected stop.
  void failed(quint64 id, const QString& message);
};

}  // namespace occx::ui
