#include "ui/jobs/job.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QThread>
#include <algorithm>

#include "core/sweep/backend.h"

namespace occx::ui {

Job::Job(QObject* parent) : QObject(parent) {}

Job::~Job() {
  for (auto& r : threads_) r.cancel->store(true);
  for (auto& r : threads_) {
    r.thread->wait();
    delete r.thread;
  }
  threads_.clear();
}

quint64 Job::launch(Work work) {
  // The previous request stops early; whatever it still posts is dropped (its id is stale).
  for (auto& r : threads_) r.cancel->store(true);
  const quint64 id = ++current_id_;
  Request req;
  req.id = id;
  req.cancel = std::make_shared<std::atomic<bool>>(false);
  std::shared_ptr<std::atomic<bool>> flag = req.cancel;
  req.thread = QThread::create([work = std::move(work), id, flag] { work(id, flag.get()); });
  QThread* thread = req.thread;
  connect(thread, &QThread::finished, this, [this, thread] { threadEnded(thread); });
  threads_.push_back(std::move(req));
  const bool was_running = running_;
  running_ = true;
  thread->start();
  if (!was_running) emit runningChanged(true);
  return id;
}

void Job::post(quint64 id, std::function<void()> fn) {
  QMetaObject::invokeMethod(
      this,
      [this, id, fn = std::move(fn)] {
        if (id == current_id_) fn();
      },
      Qt::QueuedConnection);
}

void Job::markFinished(quint64 id) {
  if (id != current_id_ || !running_) return;
  running_ = false;
  emit runningChanged(false);
}

void Job::threadEnded(QThread* thread) {
  auto it = std::find_if(threads_.begin(), threads_.end(), [thread](const Request& r) { return r.thread == thread; });
  if (it == threads_.end()) return;
  threads_.erase(it);
  thread->deleteLater();
}

void Job::cancel() {
  for (auto& r : threads_) {
    if (r.id == current_id_) r.cancel->store(true);
  }
}

void Job::discard() {
  if (!running_) return;
  cancel();
  ++current_id_;  // no request has this id: whatever the dropped one posts is stale
  running_ = false;
  emit runningChanged(false);
}

bool Job::cancelRequested() const {
  for (const auto& r : threads_) {
    if (r.id == current_id_) return r.cancel->load();
  }
  return false;
}

bool Job::waitForIdle(int timeout_ms) {
  QDeadlineTimer deadline(timeout_ms);
  while ((running_ || !threads_.empty()) && !deadline.hasExpired()) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  QCoreApplication::processEvents();
  return !running_ && threads_.empty();
}

void Job::postEnd(quint64 id, std::function<void()> deliver) {
  post(id, [this, id, deliver = std::move(deliver)] {
    markFinished(id);
    deliver();
  });
}

std::optional<Error> Job::withRunnerOrNone(const std::shared_ptr<Backend>& backend, int ordinal,
                                           const std::function<void(GpuRunner*)>& work, const char* what) {
  try {
    if (!backend) {
      work(nullptr);
      return std::nullopt;
    }
    return backend->withGpuRunner(ordinal, [&](GpuRunner& runner) { work(&runner); });
  } catch (const std::exception& e) {
    return Error{std::string(what) + " stopped unexpectedly: " + e.what()};
  }
}

}  // namespace occx::ui
