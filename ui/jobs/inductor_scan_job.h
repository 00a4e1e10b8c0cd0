// Scans an Inductor run (core/triton/inductor_run.h) off the UI thread for the Inductor run view:
// progress arrives as progress() on the UI thread, then the run as finished() (or failed(), or
// cancelled()). A new start() cancels the running scan; the superseded scan's reports are dropped.
#pragma once

#include <QString>
#include <memory>

#include "core/triton/inductor_run.h"
#include "ui/jobs/job.h"

namespace occx::ui {

class InductorScanJob : public Job {
  Q_OBJECT

 public:
  explicit InductorScanJob(QObject* parent = nullptr);

  /// Starts a scan as the latest request (cancelling the running one). Returns its id.
  quint64 start(const triton::RunScanOptions& options);

 signals:
  /// Request `id` is in `phase` ("reading modules", "reading Triton caches", "analysing"), `done`
  /// of `total` items (total 0: not counted).
  void progress(quint64 id, const QString& phase, int done, int total);
  /// The scan of request `id` ended with a run.
  void finished(quint64 id, std::shared_ptr<const occx::triton::InductorRun> run);
  /// The scan of request `id` failed (nothing to read); `message` names the folder and why.
  void failed(quint64 id, const QString& message);
  /// The scan of request `id` was cancelled.
  void cancelled(quint64 id);
};

}  // namespace occx::ui
