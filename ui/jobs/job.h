// The base of every job (Job): runs one long engine call (a compile sweep, a live sweep, a measurement)
// on its own thread, turns the engine's plain progress callbacks into calls on the UI thread, and
// lets the latest request win — starting a request cancels the running one (through the engine's
// cancel flag) and drops whatever the superseded request still reports.
#pragma once

#include <QObject>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "core/base/expected.h"

class QThread;

namespace occx {
class Backend;
class GpuRunner;
}  // namespace occx

namespace occx::ui {

class Job : public QObject {
  Q_OBJECT

 public:
  explicit Job(QObject* parent = nullptr);
  /// Cancels every request still running and waits for their threads (compiles and runs stop early
  /// when their cancel flag is set).
  ~Job() override;
  Job(const Job&) = delete;
  Job& operator=(const Job&) = delete;

  /// Id of the latest request (0 before the first).
  [[nodiscard]] quint64 currentId() const { return current_id_; }
  /// True while the latest request has not delivered its result.
  [[nodiscard]] bool isRunning() const { return running_; }
  /// Requests that have not ended yet, current or superseded (their threads still run).
  [[nodiscard]] int activeThreads() const { return static_cast<int>(threads_.size()); }
  /// Asks the latest request to stop; it still delivers what it finished (cancelled = true).
  void cancel();
  /// Drops the latest request while it runs: it is cancelled, nothing it still reports arrives,
  /// and the job is idle at once (runningChanged(false)); currentId() then names no request. For
  /// work whose result no longer applies (an opened file replaces a sweep, the inputs of a query
  /// changed). Does nothing when no request runs.
  void discard();
  /// Whether cancel() was called for the latest request.
  [[nodiscard]] bool cancelRequested() const;
  /// Processes events until no request runs any more, or `timeout_ms` passes. True when idle.
  bool waitForIdle(int timeout_ms);

  /// The work of one request: runs on a worker thread with the request's id and cancel flag.
  using Work = std::function<void(quint64 id, const std::atomic<bool>* cancel)>;

 signals:
  /// The latest request started (true) or delivered its result (false).
  void runningChanged(bool running);

 protected:
  /// Starts `work` on a new thread as the latest request; the previous one is cancelled and its
  /// later reports are dropped. Returns the new id.
  quint64 launch(Work work);
  /// Runs `fn` on the UI thread, but only if request `id` is still the latest when it gets there.
  /// Callable from any thread.
  void post(quint64 id, std::function<void()> fn);
  /// Marks request `id` finished (from the UI thread, inside a post()ed function): running → false.
  void markFinished(quint64 id);
  /// Ends request `id` on the UI thread: marks it finished, then `deliver` emits the job's own
  /// finished or failed signal. Callable from any thread.
  void postEnd(quint64 id, std::function<void()> deliver);
  /// Runs `work` with a GPU runner of `backend`'s device `ordinal`, or with none (nullptr) when
  /// `backend` is null. Returns the backend's error (the device cannot be opened), or one naming
  /// `what` when the work throws.
  static std::optional<Error> withRunnerOrNone(const std::shared_ptr<Backend>& backend, int ordinal,
                                               const std::function<void(GpuRunner*)>& work, const char* what);

 private:
  struct Request {
    quint64 id = 0;
    std::shared_ptr<std::atomic<bool>> cancel;
    QThread* thread = nullptr;
  };
  void threadEnded(QThread* thread);

  quint64 current_id_ = 0;
  bool running_ = false;
  std::vector<Request> threads_;
};

}  // namespace occx::ui
