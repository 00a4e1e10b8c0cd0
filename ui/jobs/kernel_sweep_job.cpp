#include "ui/jobs/kernel_sweep_job.h"

namespace occx::ui {

KernelSweepJob::KernelSweepJob(QObject* parent) : Job(parent) {}

quint64 KernelSweepJob::start(const std::shared_ptr<Backend>& backend, int ordinal, triton::RunKernel kernel,
                              std::string module_text, triton::KernelSweepOptions options) {
  auto shared_kernel = std::make_shared<const triton::RunKernel>(std::move(kernel));
  auto text = std::make_shared<const std::string>(std::move(module_text));
  return launch([this, backend, ordinal, shared_kernel, text, options](quint64 id, const std::atomic<bool>* cancel) {
    auto report = [&](const triton::KernelSweepProgress& p) {
      const QString line = QString::fromStdString(p.phase) + QStringLiteral(" [%1/%2] ").arg(p.done).arg(p.total) +
                           QString::fromStdString(p.text);
      const int done = p.done;
      const int total = p.total;
      post(id, [this, id, line, done, total] { emit progress(id, line, done, total); });
    };
    Expected<triton::KernelSweepResult> result = Error{"not run"};
    std::optional<Error> error = withRunnerOrNone(
        backend, ordinal,
        [&](GpuRunner* runner) {
          result = triton::sweepKernel(*shared_kernel, *text, options, runner, report, cancel);
        },
        "the sweep");
    if (!error && !result) error = Error{result.error()};
    if (error) {
      const QString message = QString::fromStdString(error->message);
      postEnd(id, [this, id, message] { emit failed(id, message); });
      return;
    }
    std::shared_ptr<const triton::KernelSweepResult> shared =
        std::make_shared<triton::KernelSweepResult>(std::move(*result));
    postEnd(id, [this, id, shared] { emit finished(id, shared); });
  });
}

}  // namespace occx::ui
