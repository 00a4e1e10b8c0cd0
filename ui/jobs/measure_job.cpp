#include "ui/jobs/measure_job.h"

namespace occx::ui {

MeasureJob::MeasureJob(QObject* parent) : Job(parent) {}

quint64 MeasureJob::start(const std::shared_ptr<Backend>& backend, int ordinal,
                          const std::shared_ptr<const triton::InductorRun>& run,
                          std::vector<const triton::RunKernel*> kernels, const triton::MeasureOptions& options) {
  int total = 0;
  for (const auto* k : kernels) total += static_cast<int>(k->configs.size());
  return launch([this, backend, ordinal, run, kernels, options, total](quint64 id, const std::atomic<bool>* cancel) {
    int done_before = 0;  // configs of the kernels already finished
    int last_kernel = 0;
    int last_total = 0;
    auto report = [&](const triton::MeasureProgress& p) {
      if (p.kernel_index != last_kernel) {
        done_before += last_total;
        last_kernel = p.kernel_index;
      }
      last_total = p.total;
      QString text = tr("kernel %1 of %2, config %3 of %4").arg(p.kernel_index).arg(p.kernels).arg(p.done).arg(p.total);
      if (p.row != nullptr) {
        text += QStringLiteral(": ") + QString::fromStdString(p.row->configText()) + QLatin1Char(' ') +
                QString::fromStdString(std::string(runStatusName(p.row->measured.status)));
        if (p.row->ok()) text += tr(" %1 µs").arg(p.row->measured.timeUs(), 0, 'f', 1);
      }
      const int done = done_before + p.done;
      post(id, [this, id, text, done, total] { emit progress(id, text, done, total); });
    };
    auto result = std::make_shared<triton::KernelMeasurements>();
    std::optional<Error> error =
        backend ? withRunnerOrNone(
                      backend, ordinal,
                      [&](GpuRunner* runner) {
                        *result = triton::measureKernelConfigs(*runner, kernels, options, report, cancel);
                      },
                      "the run")
                : Error{"no GPU backend to run the configs on"};
    if (error) {
      const QString message = QString::fromStdString(error->message);
      postEnd(id, [this, id, message] { emit failed(id, message); });
      return;
    }
    if (run) result->meta.emplace_back("input", run->input);
    std::shared_ptr<const triton::KernelMeasurements> shared = result;
    postEnd(id, [this, id, shared] { emit finished(id, shared); });
  });
}

}  // namespace occx::ui
