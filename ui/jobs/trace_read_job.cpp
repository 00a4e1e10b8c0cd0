#include "ui/jobs/trace_read_job.h"

#include <QFile>
#include <QTemporaryFile>

namespace occx::ui {

namespace {

Expected<step::ProfilerTrace> readTrace(const QString& path, const step::TraceReadOptions& options) {
  if (!path.startsWith(QLatin1String(":/"))) return step::readProfilerTrace(path.toStdString(), options);
  // A bundled trace (gzipped, small): copied to a temporary file, read like any other.
  QTemporaryFile copy;
  QFile resource(path);
  if (!resource.open(QIODevice::ReadOnly) || !copy.open() || copy.write(resource.readAll()) < 0 || !copy.flush()) {
    return Error{"cannot read the bundled trace " + path.toStdString()};
  }
  auto trace = step::readProfilerTrace(copy.fileName().toStdString(), options);
  if (trace) trace.value().path = path.toStdString();
  return trace;
}

}  // namespace

TraceReadJob::TraceReadJob(QObject* parent) : Job(parent) {}

void TraceReadJob::deliver(quint64 id, Expected<step::ProfilerTrace> trace,
                           const std::shared_ptr<const std::vector<triton::ScanRow>>& rows, const std::string& input) {
  if (!trace) {
    const bool was_cancelled = trace.cancelled();
    const QString message = QString::fromStdString(trace.error());
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
  join(id, std::make_shared<const step::ProfilerTrace>(std::move(trace).value()), rows, input);
}

void TraceReadJob::join(quint64 id, std::shared_ptr<const step::ProfilerTrace> trace,
                        const std::shared_ptr<const std::vector<triton::ScanRow>>& rows, const std::string& input) {
  auto result = std::make_shared<StepResult>();
  result->trace = std::move(trace);
  result->rows = rows;
  result->input = input;
  result->profile = step::profileStep(*result->trace, result->run());
  std::shared_ptr<const StepResult> done = std::move(result);
  post(id, [this, id, done] {
    markFinished(id);
    emit finished(id, done);
  });
}

quint64 TraceReadJob::start(const QString& path, int steps_when_unannotated,
                            const std::shared_ptr<const std::vector<triton::ScanRow>>& rows, const QString& input) {
  return launch([this, path, steps_when_unannotated, rows, input = input.toStdString()](
                    quint64 id, const std::atomic<bool>* cancel) {
    step::TraceReadOptions options;
    options.steps_when_unannotated = steps_when_unannotated;
    options.cancel = cancel;
    options.progress = [this, id](const step::TraceReadProgress& p) {
      const auto done = static_cast<qint64>(p.bytes_read);
      const auto total = static_cast<qint64>(p.file_bytes);
      post(id, [this, id, done, total] { emit progress(id, done, total); });
    };
    // readProfilerTrace never throws; an exception escaping a worker thread would end the program.
    Expected<step::ProfilerTrace> trace = Error{"the read stopped unexpectedly"};
    try {
      trace = readTrace(path, options);
    } catch (const std::exception& e) {
      trace = Error{std::string("the read stopped unexpectedly: ") + e.what()};
    }
    deliver(id, std::move(trace), rows, input);
  });
}

quint64 TraceReadJob::rejoin(const std::shared_ptr<const step::ProfilerTrace>& trace,
                             const std::shared_ptr<const std::vector<triton::ScanRow>>& rows, const QString& input) {
  return launch([this, trace, rows, input = input.toStdString()](quint64 id, const std::atomic<bool>* /*cancel*/) {
    join(id, trace, rows, input);
  });
}

}  // namespace occx::ui
