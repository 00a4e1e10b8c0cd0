#include "ui/jobs/compile_sweep_job.h"

namespace occx::ui {

CompileSweepJob::CompileSweepJob(CompileFunction compile, QObject* parent)
    : Job(parent), compile_(std::move(compile)) {}

quint64 CompileSweepJob::start(const CompileSweepSpec& spec) {
  CompileFunction compile = compile_;
  return launch([this, spec, compile](quint64 id, const std::atomic<bool>* cancel) {
    if (!compile) {
      post(id, [this, id] {
        markFinished(id);
        emit failed(id, tr("No compiler: this build has no CUDA Toolkit (NVRTC)."));
      });
      return;
    }
    auto progress = [this, id](const CompileSweepProgress& p) {
      if (p.row == nullptr) return;
      CompileSweepRow row = *p.row;
      const auto done = static_cast<qulonglong>(p.done);
      const auto total = static_cast<qulonglong>(p.total);
      post(id, [this, id, done, total, row = std::move(row)] { emit rowFinished(id, done, total, row); });
    };
    auto result = runCompileSweep(spec, compile, progress, cancel);
    if (!result) {
      QString message = QString::fromStdString(result.error());
      post(id, [this, id, message] {
        markFinished(id);
        emit failed(id, message);
      });
      return;
    }
    auto shared = std::make_shared<const CompileSweepResult>(std::move(result).value());
    post(id, [this, id, shared] {
      markFinished(id);
      emit finished(id, shared);
    });
  });
}

}  // namespace occx::ui
