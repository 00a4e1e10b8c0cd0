// Helpers the UI tests share: the path of a recorded data file, waiting for a job off the UI thread
// while the event loop runs, and reading a plotted graph's points.
#pragma once

#include <QCoreApplication>
#include <QPointF>
#include <QVector>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QString>
#include <QThread>
#include <cmath>
#include <functional>
#include <limits>

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

}  // namespace occx::ui
