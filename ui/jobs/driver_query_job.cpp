#include "ui/jobs/driver_query_job.h"

namespace occx::ui {

DriverQueryJob::DriverQueryJob(QObject* parent) : Job(parent) {}

quint64 DriverQueryJob::start(std::shared_ptr<Backend> backend, const DriverOccupancyQuery& query) {
  return launch([this, backend = std::move(backend), query](quint64 id, const std::atomic<bool>*) {
    // The driver's calls take no cancel flag: a superseded query runs to its end and is dropped.
    Expected<DriverOccupancy> answer = Error{"no backend"};
    try {
      if (backend) answer = backend->driverOccupancy(query);
    } catch (const std::exception& e) {
      answer = Error{std::string("the driver query stopped unexpectedly: ") + e.what()};
    }
    if (!answer) {
      const QString message = QString::fromStdString(answer.error());
      post(id, [this, id, message] {
        markFinished(id);
        emit failed(id, message);
      });
      return;
    }
    post(id, [this, id, d = std::move(answer).value()] {
      markFinished(id);
      emit answered(id, d);
    });
  });
}

}  // namespace occx::ui
