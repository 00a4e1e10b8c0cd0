#include "ui/jobs/inductor_scan_job.h"

namespace occx::ui {

InductorScanJob::InductorScanJob(QObject* parent) : Job(parent) {}

quint64 InductorScanJob::start(const triton::RunScanOptions& options) {
  return launch([this, options](quint64 id, const std::atomic<bool>* cancel) {
    auto report = [this, id](const triton::ScanProgress& p) {
      const QString phase = QString::fromStdString(p.phase);
      const int done = p.done;
      const int total = p.total;
      post(id, [this, id, phase, done, total] { emit progress(id, phase, done, total); });
    };
    // scanInductorRun never throws; an exception escaping a worker thread would end the program.
    Expected<triton::InductorRun> run = Error{"the scan stopped unexpectedly"};
    try {
      run = triton::scanInductorRun(options, report, cancel);
    } catch (const std::exception& e) {
      run = Error{std::string("the scan stopped unexpectedly: ") + e.what()};
    }
    if (!run) {
      const bool was_cancelled = run.cancelled();
      const QString message = QString::fromStdString(run.error());
      post(id, [this, id, was_cancelled, message] {
        markFinished(id);
        if (was_cancelled) {
          emit cancelled(id);
        } else {
          emit failed(id, message);
        }
      });
      return;
    }
    auto shared = std::make_shared<const triton::InductorRun>(std::move(run).value());
    post(id, [this, id, shared] {
      markFinished(id);
      emit finished(id, shared);
    });
  });
}

}  // namespace occx::ui
