// Helpers the UI tests share: the path of a recorded data file, and waiting for a job off the UI
// thread while the event loop runs.
#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QString>
#include <QThread>
#include <functional>

namespace occx::ui {

/// tests/data/<name>, found from this header's own path.
inline QString testData(const char* name) {
  return QFileInfo(QStringLiteral(__FILE__)).absoluteDir().filePath(QStringLiteral("../data/") + QLatin1String(name));
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

}  // namespace occx::ui
