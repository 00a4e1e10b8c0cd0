// Runs a compile sweep (core/sweep/compile_sweep.h) off the UI thread for the compile-sweep view: each finished
// config arrives as rowFinished() on the UI thread, then the whole result as finished(). A new
// start() cancels the running sweep; the superseded sweep's reports are dropped.
#pragma once

#include <QString>
#include <cstddef>
#include <memory>

#include "core/sweep/compile_sweep.h"
#include "ui/jobs/job.h"

namespace occx::ui {

class CompileSweepJob : public Job {
  Q_OBJECT

 public:
  /// `compile` is called from the sweep's worker threads (NVRTC's CompileFunction, or a test's).
  explicit CompileSweepJob(CompileFunction compile, QObject* parent = nullptr);

  /// Whether a compiler was given (false: start() fails at once with a message).
  [[nodiscard]] bool hasCompiler() const { return static_cast<bool>(compile_); }

  /// Starts a sweep as the latest request (cancelling the running one). Returns its id.
  quint64 start(const CompileSweepSpec& spec);

 signals:
  /// Config `done` of `total` of request `id` finished compiling (registers and spills known; its
  /// occupancy and decisions come with finished()).
  void rowFinished(quint64 id, qulonglong done, qulonglong total, const occx::CompileSweepRow& row);
  /// The sweep of request `id` ended: every row, or the finished ones when cancelled.
  void finished(quint64 id, std::shared_ptr<const occx::CompileSweepResult> result);
  /// The sweep of request `id` could not start (an invalid spec); nothing was compiled.
  void failed(quint64 id, const QString& message);

 private:
  CompileFunction compile_;
};

}  // namespace occx::ui
