// Opening a file or folder in the view it belongs to, whichever way it came: dropped on the window,
// chosen from File → Open Recent, or opened by a view's own button. A folder or a kernel module
// (.py) is an Inductor run; a CSV is routed by its "# format:" line (a live sweep, a compile sweep,
// else an Inductor scan, whose view names what is wrong with anything else). Every path a view
// opened is remembered in the recent list (QSettings "recent/paths", ten at most, newest first).
#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

#include "ui/models/csv_file.h"  // OpenTarget, openTargetFor

class QMenu;

namespace occx::ui {

class CompileSweepView;
class InductorRunView;
class LiveSweepView;
class MainWindow;

class PathOpener : public QObject {
  Q_OBJECT

 public:
  /// The views may be null (a test without them); a path for a missing view is refused with a
  /// message. With `use_settings` false the recent list lives in memory only.
  PathOpener(MainWindow* window, InductorRunView* inductor_run, CompileSweepView* compile_sweep,
             LiveSweepView* live_sweep, bool use_settings, QObject* parent = nullptr);

  /// Opens `path` in its view (made the current tab). Returns an empty string when the view took it
  /// (a folder's scan then runs in the background), else the message (the view shows it too).
  QString open(const QString& path);
  /// open(path) for the user (a drop, Open Recent, a file the Inductor run view hands over): an
  /// error is also shown by the window (MainWindow::showFileError), where the user looks.
  void openShown(const QString& path);
  /// Remembers `path` (absolute, newest first, once, ten at most) and rebuilds the menu.
  void remember(const QString& path);
  /// The recent paths, newest first.
  [[nodiscard]] QStringList recent() const { return recent_; }
  /// File → Open Recent: one entry per path ("name — folder", the full path as tooltip; a path that
  /// is gone is shown disabled), then "Clear list".
  [[nodiscard]] QMenu* recentMenu() const { return menu_; }

  static constexpr int kMaxRecent = 10;

 private:
  void rebuildMenu();
  void store() const;

  MainWindow* window_;
  InductorRunView* inductor_run_;
  CompileSweepView* compile_sweep_;
  LiveSweepView* live_sweep_;
  bool use_settings_;
  QStringList recent_;
  QMenu* menu_;
};

}  // namespace occx::ui
