// Helpers the UI tests share: the path of a recorded data file, waiting for a job off the UI thread
// while the event loop runs, reading a plotted graph's points, and the Backends the views get in tests
// (a fake made of functions, and this build's own).
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPointF>
#include <QString>
#include <QThread>
#include <QVector>
#include <cmath>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <limits>
#include "app/backend/build_backend.h"
#include "core/sweep/backend.h"
#include "occx_config.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/views/view_context.h"

namespace occx::ui {

/// tests/data/<name>. From the source folder that QtTest names (an absolute path), so the tests find
/// their data from any working directory; else from this header's own path.
inline QString testData(const char* name) {
#ifdef QT_TESTCASE_SOURCEDIR
  return QDir(QStringLiteral(QT_TESTCASE_SOURCEDIR)).filePath(QStringLiteral("data/") + QLatin1String(name));
#else
  return QFileInfo(QStringLiteral(__FILE__)).absoluteDir().filePath(QStringLiteral("../data/") + QLatin1String(name));
#endif
}

/// Processes events until `done()` or `timeout_ms` passes; returns `done()`.
inline bool waitFor(const std::function<bool()>& done, int timeout_ms) {
  QElapsedTimer t;
  t.start();
  while (!done() && t.elapsed() < timeout_ms) {
    QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);
  }
  return done();
}

/// y of the point with this x, NaN when the graph has none.
inline double yAt(const QVector<QPointF>& pts, double x) {
  for (const QPointF& p : pts) {
    if (std::abs(p.x() - x) < 1e-9) return p.y();
  }
  return std::numeric_limits<double>::quiet_NaN();
}

/// What a fake live run does: measure `spec`, reporting progress, honouring `cancel`.
using FakeLiveRun = std::function<Expected<LiveSweepResult>(const LiveSweepSpec&, const LiveSweepProgressFn&,
                                                            const std::atomic<bool>*)>;

/// A Backend made of functions: compiles with `compile` (none = no compiler here), reports `live`
/// and `gpus`, runs live sweeps with `run`, answers driver queries with `driver` (none: the
/// Backend's own "no driver" answer).
class FakeBackend final : public Backend {
 public:
  CompileFunction compile;
  std::string compiler_version = "stand-in compiler";
  Availability live{false, "no GPU (test)"};
  std::vector<DeviceInfo> gpus;
  FakeLiveRun run;
  GpuRunner* runner = nullptr;  ///< what withGpuRunner hands out; none: live.reason
  std::function<Expected<DriverOccupancy>(const DriverOccupancyQuery&)> driver;
  std::vector<ComputeCapability> archs;  ///< what the compiler offers; empty: not said

  [[nodiscard]] Availability compileAvailability() const override {
    return compile ? Availability{true, {}} : Availability{false, "no compiler (test)"};
  }
  [[nodiscard]] std::string compilerVersion() const override { return compile ? compiler_version : std::string(); }
  [[nodiscard]] std::vector<ComputeCapability> offeredArchitectures(const GpuDatabase&) const override { return archs; }
  [[nodiscard]] CompileFunction compiler() const override { return compile; }
  [[nodiscard]] Availability liveAvailability() const override { return live; }
  [[nodiscard]] std::vector<DeviceInfo> detectedGpus() const override { return gpus; }
  Expected<LiveSweepResult> runLiveSweep(int, const LiveSweepSpec& spec, const LiveSweepProgressFn& progress,
                                         const std::atomic<bool>* cancel) override {
    if (!run) return Error{live.reason};
    return run(spec, progress, cancel);
  }
  std::optional<Error> withGpuRunner(int, const std::function<void(GpuRunner&)>& work) override {
    if (runner == nullptr) return Error{live.reason};
    work(*runner);
    return std::nullopt;
  }
  Expected<DriverOccupancy> driverOccupancy(const DriverOccupancyQuery& query) override {
    return driver ? driver(query) : Backend::driverOccupancy(query);
  }
};

/// A backend that compiles with `compile` (empty: cannot compile) and has no GPU.
inline std::shared_ptr<Backend> compileBackend(CompileFunction compile) {
  auto b = std::make_shared<FakeBackend>();
  b->compile = std::move(compile);
  return b;
}

/// A backend whose live runs are `run` and whose GPU is as `a` says (available, why not, its name).
inline std::shared_ptr<Backend> liveBackend(FakeLiveRun run, const LiveAvailability& a) {
  auto b = std::make_shared<FakeBackend>();
  b->run = std::move(run);
  b->live = {a.available, a.reason.toStdString()};
  if (a.available) {
    DeviceInfo d;
    d.name = a.device.toStdString();
    d.cc = {9, 0};
    d.sm_count = 132;
    b->gpus.push_back(d);
  }
  return b;
}

/// The backend this build's program runs with (what main() picks).
inline std::shared_ptr<Backend> thisBuildBackend() {
  return app::buildBackend();
}

/// The context a view gets in a test: `backend` (default: offline, no GPU), settings neither read
/// nor written unless `use_settings`.
inline ViewContext testContext(std::shared_ptr<Backend> backend = offlineBackend(), bool use_settings = false) {
  return ViewContext(std::move(backend), use_settings);
}

}  // namespace occx::ui
