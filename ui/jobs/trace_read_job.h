// Reads a torch.profiler trace (core/step/profiler_trace.h) off the UI thread for the Step tab:
// progress arrives as progress() on the UI thread (bytes of the file read), then the trace as
// finished() (or failed(), or cancelled()). A new start() cancels the running read; the superseded
// read's reports are dropped.
#pragma once

#include <QString>
#include <memory>

#include "core/step/profiler_trace.h"
#include "ui/jobs/job.h"

namespace occx::ui {

class TraceReadJob : public Job {
  Q_OBJECT

 public:
  explicit TraceReadJob(QObject* parent = nullptr);

  /// Starts reading `path` as the latest request (cancelling the running one): a file, or a
  /// resource (":/…", read whole: the bundled traces are small). Returns its id.
  quint64 start(const QString& path, int steps_when_unannotated = 1);

 signals:
  /// Request `id` has read `bytes_read` of the file's `file_bytes`.
  void progress(quint64 id, qint64 bytes_read, qint64 file_bytes);
  /// The read of request `id` ended with a trace (its problems, if any, inside).
  void finished(quint64 id, std::shared_ptr<const occx::step::ProfilerTrace> trace);
  /// The read of request `id` failed; `message` names the file and why.
  void failed(quint64 id, const QString& message);
  /// The read of request `id` was cancelled.
  void cancelled(quint64 id);
};

}  // namespace occx::ui
