// Reads a torch.profiler trace (core/step/profiler_trace.h) and builds its step joined to a run
// (core/step/step_profile.h) off the UI thread, for the Step tab: progress arrives as progress() on
// the UI thread (bytes of the file read), then the step as finished() (or failed(), or
// cancelled()). rejoin() builds the step of a trace already read against another run. A new request
// cancels the running one; the superseded request's reports are dropped.
#pragma once

#include <QString>
#include <memory>
#include <vector>

#include "core/step/profiler_trace.h"
#include "core/step/step_profile.h"
#include "ui/jobs/job.h"

namespace occx::ui {

/// A trace and its step, joined to a snapshot of a run's rows (the step's config_row indices point
/// into `rows`).
struct StepResult {
  std::shared_ptr<const step::ProfilerTrace> trace;
  std::shared_ptr<const std::vector<triton::ScanRow>> rows;  ///< null: no run
  std::string input;                                         ///< where the rows came from
  step::StepProfile profile;

  /// The run as step_profile's functions take it.
  [[nodiscard]] step::StepRun run() const { return {rows.get(), input}; }
};

class TraceReadJob : public Job {
  Q_OBJECT

 public:
  explicit TraceReadJob(QObject* parent = nullptr);

  /// Starts reading `path` (a file, or a resource ":/…", copied to a temporary file first) as the
  /// latest request (cancelling the running one), then builds its step joined to `rows` (may be
  /// null). Returns its id.
  quint64 start(const QString& path, int steps_when_unannotated,
                const std::shared_ptr<const std::vector<triton::ScanRow>>& rows, const QString& input);
  /// Builds the step of `trace` joined to `rows` (another run) as the latest request. Returns its id.
  quint64 rejoin(const std::shared_ptr<const step::ProfilerTrace>& trace,
                 const std::shared_ptr<const std::vector<triton::ScanRow>>& rows, const QString& input);

 signals:
  /// Request `id` has read `bytes_read` of the file's `file_bytes`.
  void progress(quint64 id, qint64 bytes_read, qint64 file_bytes);
  /// Request `id` ended with a step (the trace's problems, if any, inside).
  void finished(quint64 id, std::shared_ptr<const occx::ui::StepResult> result);
  /// The read of request `id` failed; `message` names the file and why.
  void failed(quint64 id, const QString& message);
  /// Request `id` was cancelled.
  void cancelled(quint64 id);

 private:
  void deliver(quint64 id, Expected<step::ProfilerTrace> trace,
               const std::shared_ptr<const std::vector<triton::ScanRow>>& rows, const std::string& input);
  void join(quint64 id, std::shared_ptr<const step::ProfilerTrace> trace,
            const std::shared_ptr<const std::vector<triton::ScanRow>>& rows, const std::string& input);
};

}  // namespace occx::ui
