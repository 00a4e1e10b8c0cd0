// Sweeps one Inductor kernel (core/triton/kernel_sweep.h) off the UI thread for the Inductor run
// view: the configs compiled with the user's Python and Triton, read back, and — when the Backend
// can hand out a GPU runner — run on the GPU. Progress arrives as progress() on the UI thread, then
// the result as finished() (also after a cancel: what finished stays), or failed() (no usable
// Python: what to install). A new start() cancels the running one; the superseded request's
// reports are dropped.
#pragma once

#include <QString>
#include <memory>
#include <string>

#include "core/sweep/backend.h"
#include "core/triton/kernel_sweep.h"
#include "ui/jobs/job.h"

namespace occx::ui {

class KernelSweepJob : public Job {
  Q_OBJECT

 public:
  explicit KernelSweepJob(QObject* parent = nullptr);

  /// Starts sweeping `kernel` (its whole module text in `module_text`) as the latest request; with
  /// `backend` not null the configs are also run on its GPU `ordinal`. Returns the request's id.
  quint64 start(const std::shared_ptr<Backend>& backend, int ordinal, triton::RunKernel kernel, std::string module_text,
                triton::KernelSweepOptions options);

 signals:
  /// Request `id`: `text` ("compiling [3/88] X1 R2048 w8: compiled in 0.4 s"), `done` of `total` in the phase.
  void progress(quint64 id, const QString& text, int done, int total);
  /// Request `id` ended with a result.
  void finished(quint64 id, std::shared_ptr<const occx::triton::KernelSweepResult> result);
  /// Request `id` could not sweep: no usable Python, not a reduction, a GPU that cannot be opened.
  void failed(quint64 id, const QString& message);
};

}  // namespace occx::ui
