// Opening a file or folder in its own view: the routing by "# format:" line, a drop on the window
// (a live sweep CSV to the live view, a compile sweep CSV to the compile view, a folder or a scan CSV
// to the Inductor run view), and File → Open Recent (newest first, once each, ten at most, kept in
// settings, a path that is gone shown disabled, Clear list).
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QDragEnterEvent>
#include <QDropEvent>
#include <QFile>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMimeData>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QUrl>

#include "tests/ui/ui_test_support.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/shell/main_window.h"
#include "ui/shell/path_opener.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/live_sweep_view.h"

namespace occx::ui {
namespace {

QString bundledScanCsv() {
  return QStringLiteral(OCCX_SOURCE_DIR "/resources/inductor-runs/bert.csv");
}

QString writeFile(const QTemporaryDir& dir, const QString& name, const QByteArray& text) {
  const QString path = dir.filePath(name);
  QFile f(path);
  EXPECT_TRUE(f.open(QIODevice::WriteOnly));
  f.write(text);
  return path;
}

struct Window {
  MainWindow window{testContext()};
  InductorRunView* inductor_run = new InductorRunView(testContext());
  CompileSweepView* compile_sweep = new CompileSweepView(testContext(offlineBackend()));
  LiveSweepView* live_sweep = new LiveSweepView(testContext(offlineBackend()));
  PathOpener* opener;
  explicit Window(bool use_settings = false) {
    window.addView(inductor_run, QStringLiteral("Inductor run"));
    window.addView(compile_sweep, QStringLiteral("Compile sweep (NVRTC)"));
    window.addView(live_sweep, QStringLiteral("Live sweep"));
    opener = new PathOpener(&window, inductor_run, compile_sweep, live_sweep, use_settings, &window);
    window.addOpenAction(opener->recentMenu()->menuAction());
  }
  /// As a drop on the window reports it (MainWindow::dropEvent emits the local paths).
  void drop(const QStringList& paths) { emit window.pathsDropped(paths); }
  QWidget* current() const { return window.tabs()->currentWidget(); }
};

TEST(PathOpener, CsvFilesAreRoutedByTheirFormatLine) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  EXPECT_EQ(openTargetFor(testData("live_sweep_fixture.csv")), OpenTarget::kLiveSweep);
  EXPECT_EQ(openTargetFor(testData("compile_sweep_mean_var_sm90.csv")), OpenTarget::kCompileSweep);
  EXPECT_EQ(openTargetFor(bundledScanCsv()), OpenTarget::kInductorRun);
  EXPECT_EQ(openTargetFor(dir.path()), OpenTarget::kInductorRun);
  EXPECT_EQ(openTargetFor(writeFile(dir, "k.py", "import triton\n")), OpenTarget::kInductorRun);
  EXPECT_EQ(openTargetFor(writeFile(dir, "other.csv", "a,b\n1,2\n")), OpenTarget::kInductorRun);
  // The format line among other metadata lines, with the case of the suffix ignored.
  EXPECT_EQ(openTargetFor(writeFile(dir, "LIVE.CSV", "# device: X\n# format: occupancy-explorer-live-sweep 1\na\n")),
            OpenTarget::kLiveSweep);
  // Measured kernel runs (occx inductor run --csv) merge into the Inductor run shown.
  EXPECT_EQ(
      openTargetFor(writeFile(dir, "runs.csv", "# format: inductor-kernel-runs\n# device: NVIDIA H200\nkernel\n")),
      OpenTarget::kMeasurements);
  // Metadata ends at the first row: a later "format:" text is data.
  EXPECT_EQ(openTargetFor(writeFile(dir, "late.csv", "a\n# format: occx-compile-sweep 1\n")), OpenTarget::kInductorRun);
}

TEST(PathOpener, ADroppedFileOpensInItsViewAndIsRemembered) {
  Window w;
  w.drop({testData("live_sweep_fixture.csv")});
  EXPECT_EQ(w.current(), w.live_sweep);
  EXPECT_EQ(w.live_sweep->datasetLabel()->text(), QStringLiteral("recorded data: Test fixture GPU, 2026-11-29"));
  w.drop({testData("compile_sweep_mean_var_sm90.csv")});
  EXPECT_EQ(w.current(), w.compile_sweep);
  EXPECT_GT(w.compile_sweep->model()->rowCount(), 0);
  w.drop({bundledScanCsv()});
  EXPECT_EQ(w.current(), w.inductor_run);
  const QLabel* status = w.inductor_run->findChild<QLabel*>(QStringLiteral("runStatus"));
  ASSERT_NE(status, nullptr);
  EXPECT_TRUE(status->text().startsWith(QStringLiteral("Opened "))) << status->text().toStdString();
  ASSERT_EQ(w.opener->recent().size(), 3);
  EXPECT_EQ(w.opener->recent().front(), bundledScanCsv());
  EXPECT_EQ(w.opener->recent().back(), QFileInfo(testData("live_sweep_fixture.csv")).absoluteFilePath());
  // A path that does not exist is not remembered.
  EXPECT_EQ(w.opener->open(QStringLiteral("/nonexistent/run.csv")),
            QStringLiteral("/nonexistent/run.csv does not exist."));
  EXPECT_EQ(w.opener->recent().size(), 3);
}

// A sweep dataset given to the Inductor run view's own Open button opens in its view; a view
// without a window says which tab it belongs in, not that a scan's metadata line is missing.
TEST(PathOpener, ASweepDatasetOpenedInTheInductorRunViewGoesToItsView) {
  Window w;
  EXPECT_EQ(w.inductor_run->openPath(testData("live_sweep_fixture.csv")), QString());
  EXPECT_EQ(w.current(), w.live_sweep);
  EXPECT_EQ(w.live_sweep->datasetLabel()->text(), QStringLiteral("recorded data: Test fixture GPU, 2026-11-29"));
  EXPECT_EQ(w.inductor_run->openPath(testData("compile_sweep_mean_var_sm90.csv")), QString());
  EXPECT_EQ(w.current(), w.compile_sweep);

  InductorRunView alone{testContext()};
  const QString why = alone.openPath(testData("live_sweep_fixture.csv"));
  EXPECT_TRUE(
      why.endsWith(QStringLiteral("is a live-sweep dataset, not an Inductor run: open it in the Live sweep tab.")))
      << why.toStdString();
  const QLabel* status = alone.findChild<QLabel*>(QStringLiteral("runStatus"));
  ASSERT_NE(status, nullptr);
  EXPECT_EQ(status->text(), why);
}

TEST(PathOpener, OpenRecentListsNewestFirstOnceEachAndReopens) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  Window w;
  for (int i = 0; i < 12; ++i) w.opener->remember(writeFile(dir, QStringLiteral("f%1.csv").arg(i), "a\n"));
  w.opener->remember(dir.filePath(QStringLiteral("f5.csv")));  // again: moves to the top, not twice
  const QStringList recent = w.opener->recent();
  ASSERT_EQ(recent.size(), PathOpener::kMaxRecent);
  EXPECT_EQ(recent.front(), dir.filePath(QStringLiteral("f5.csv")));
  EXPECT_EQ(recent[1], dir.filePath(QStringLiteral("f11.csv")));
  EXPECT_EQ(recent.count(dir.filePath(QStringLiteral("f5.csv"))), 1);
  EXPECT_FALSE(recent.contains(dir.filePath(QStringLiteral("f0.csv"))));  // the oldest fell off
  QFile::remove(dir.filePath(QStringLiteral("f11.csv")));
  w.opener->remember(testData("live_sweep_fixture.csv"));

  QMenu* menu = w.opener->recentMenu();
  const QList<QAction*> actions = menu->actions();
  ASSERT_EQ(actions.size(), PathOpener::kMaxRecent + 2);  // entries, separator, Clear list
  EXPECT_EQ(actions[0]->text(),
            QStringLiteral("live_sweep_fixture.csv — ") +
                QDir::toNativeSeparators(QFileInfo(testData("live_sweep_fixture.csv")).absolutePath()));
  EXPECT_TRUE(actions[0]->isEnabled());
  EXPECT_TRUE(actions[2]->text().endsWith(QStringLiteral(" (not found)"))) << actions[2]->text().toStdString();
  EXPECT_FALSE(actions[2]->isEnabled());
  // Choosing an entry opens it in its view.
  w.window.tabs()->setCurrentIndex(0);
  actions[0]->trigger();
  EXPECT_EQ(w.current(), w.live_sweep);
  QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
  QAction* clear = menu->actions().back();
  EXPECT_EQ(clear->text(), QStringLiteral("&Clear list"));
  clear->trigger();
  EXPECT_TRUE(w.opener->recent().isEmpty());
  ASSERT_EQ(menu->actions().size(), 3);  // "(nothing opened yet)", separator, Clear list
  EXPECT_FALSE(menu->actions().front()->isEnabled());
}

TEST(PathOpener, TheRecentListIsKeptBetweenRuns) {
  QSettings().remove(QStringLiteral("recent"));
  {
    Window w(/*use_settings=*/true);
    ASSERT_EQ(w.opener->open(testData("live_sweep_fixture.csv")), QString());
  }
  Window again(/*use_settings=*/true);
  ASSERT_EQ(again.opener->recent().size(), 1);
  EXPECT_EQ(again.opener->recent().front(), QFileInfo(testData("live_sweep_fixture.csv")).absoluteFilePath());
  QSettings().remove(QStringLiteral("recent"));
}

TEST(PathOpener, TheFileMenuHasOpenRecentBetweenOpenAndExport) {
  Window w;
  auto* open = new QAction(QStringLiteral("Open Inductor run…"), &w.window);
  // As main() does: the open action first, then the recent menu (here already added: add another).
  w.window.addOpenAction(open);
  QMenu* file = w.window.menuBar()->actions().front()->menu();
  ASSERT_NE(file, nullptr);
  const QList<QAction*> a = file->actions();
  ASSERT_GE(a.size(), 4);
  EXPECT_EQ(a[0], w.opener->recentMenu()->menuAction());
  EXPECT_EQ(a[1], open);
  EXPECT_TRUE(a[2]->isSeparator());
  EXPECT_EQ(a[3], w.window.exportCsvAction());
}

}  // namespace
}  // namespace occx::ui

namespace occx::ui {
namespace {

// The window's own drag-and-drop handlers (QApplication delivers drops only during a real drag).
struct DropTarget : MainWindow {
  DropTarget() : MainWindow(testContext()) {}
  using MainWindow::dragEnterEvent;
  using MainWindow::dropEvent;
};

TEST(PathOpener, ARealDropOnTheWindowReportsItsLocalPaths) {
  DropTarget w;
  EXPECT_TRUE(w.acceptDrops());
  QSignalSpy dropped(&w, &MainWindow::pathsDropped);
  QMimeData remote;
  remote.setUrls(
      {QUrl::fromLocalFile(testData("live_sweep_fixture.csv")), QUrl(QStringLiteral("https://example.com/x.csv"))});
  QDragEnterEvent refused(QPoint(10, 10), Qt::CopyAction, &remote, Qt::LeftButton, Qt::NoModifier);
  refused.setAccepted(false);
  w.dragEnterEvent(&refused);
  EXPECT_FALSE(refused.isAccepted());  // not every URL is a local file
  QMimeData mime;
  mime.setUrls({QUrl::fromLocalFile(testData("live_sweep_fixture.csv")), QUrl::fromLocalFile(QStringLiteral("/tmp"))});
  QDragEnterEvent enter(QPoint(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  enter.setAccepted(false);
  w.dragEnterEvent(&enter);
  EXPECT_TRUE(enter.isAccepted());
  QDropEvent drop(QPointF(10, 10), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
  w.dropEvent(&drop);
  ASSERT_EQ(dropped.count(), 1);
  EXPECT_EQ(dropped.front().front().toStringList(),
            (QStringList{testData("live_sweep_fixture.csv"), QStringLiteral("/tmp")}));
}

}  // namespace
}  // namespace occx::ui
