// Asks the GPU's driver for its occupancy figures (Backend::driverOccupancy: a probe kernel compiled
// to the requested registers, then the cuOccupancy* calls) off the UI thread, for the occupancy
// calculator: the answer arrives as answered() on the UI thread, or failed(). A new start() supersedes
// the running query, and discard() drops it when the inputs it was asked for have changed; either
// way the superseded query's answer never arrives.
#pragma once

#include <QString>
#include <memory>

#include "core/occupancy/driver_answer.h"
#include "core/sweep/backend.h"
#include "ui/jobs/job.h"

namespace occx::ui {

class DriverQueryJob : public Job {
  Q_OBJECT

 public:
  explicit DriverQueryJob(QObject* parent = nullptr);

  /// Asks `backend` (which the job keeps alive until the query returns) as the latest request.
  /// Returns its id.
  quint64 start(std::shared_ptr<Backend> backend, const DriverOccupancyQuery& query);

 signals:
  /// Request `id`: the driver's answer.
  void answered(quint64 id, const occx::DriverOccupancy& answer);
  /// Request `id`: the driver could not answer (no driver, the probe did not compile), in its words.
  void failed(quint64 id, const QString& message);
};

}  // namespace occx::ui
