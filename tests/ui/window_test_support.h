// The application's main window around one view, closed the way a user closes it: for the tests of
// what a view does with a job still running when its window goes away.
#pragma once

#include <QCoreApplication>
#include <QPointer>
#include <QString>

#include "ui/shell/main_window.h"

namespace occx::ui {

/// A shown main window (no settings) with `view` added as a tab; deleted when closed, as the app's.
inline MainWindow* windowAround(QWidget* view, const QString& title) {
  auto* window = new MainWindow(testContext());
  window->setAttribute(Qt::WA_DeleteOnClose);
  window->addView(view, title);
  window->show();
  return window;
}

/// Closes `window` and runs its deferred deletion; true when the window (and with it the view and
/// the view's job) is gone.
inline bool closeAndDelete(MainWindow* window) {
  const QPointer<MainWindow> alive(window);
  if (!window->close()) return false;
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
  return alive.isNull();
}

}  // namespace occx::ui
