#include "ui/jobs/trace_read_job.h"

#include <QFile>
#include <QTemporaryFile>

namespace occx::ui {

TraceReadJob::TraceReadJob(QObject* parent) : Job(parent) {}

quint64 TraceReadJob::start(const QString& path, int steps_when_unannotated) {
  return launch([this, path, steps_when_unannotated](quint64 id, const std::atomic<bool>* cancel) {
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
      if (path.startsWith(QLatin1String(":/"))) {
        // A bundled trace (gzipped, small): copied to a temporary file, read like any other.
        QTemporaryFile copy;
        QFile resource(path);
        if (!resource.open(QIODevice::ReadOnly) || !copy.open() || copy.write(resource.readAll()) < 0 || !copy.flush()) {
          trace = Error{"cannot read the bundled trace " + path.toStdString()};
        } else {
          trace = step::readProfilerTrace(copy.fileName().toStdString(), options);
          if (trace) trace.value().path = path.toStdString();
        }
      } else {
        trace = step::readProfilerTrace(path.toStdString(), options);
      }
    } catch (const std::exception& e) {
      trace = Error{std::string("the read stopped unexpectedly: ") + e.what()};
    }
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
    auto shared = std::make_shared<const step::ProfilerTrace>(std::move(trace).value());
    post(id, [this, id, shared] {
      markFinished(id);
      emit finished(id, shared);
    });
  });
}

}  // namespace occx::ui
