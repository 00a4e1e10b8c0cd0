#include "ui/shell/path_opener.h"

#include <QAction>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>
#include <QTabWidget>

#include "ui/models/csv_file.h"
#include "ui/shell/main_window.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/live_sweep_view.h"

namespace occx::ui {

namespace {

const QString kRecentKey = QStringLiteral("recent/paths");

}  // namespace

PathOpener::PathOpener(MainWindow* window, InductorRunView* inductor_run, CompileSweepView* compile_sweep,
                       LiveSweepView* live_sweep, bool use_settings, QObject* parent)
    : QObject(parent),
      window_(window),
      inductor_run_(inductor_run),
      compile_sweep_(compile_sweep),
      live_sweep_(live_sweep),
      use_settings_(use_settings),
      menu_(new QMenu(tr("Open &Recent"), window)) {
  menu_->setObjectName(QStringLiteral("openRecentMenu"));
  if (use_settings_) recent_ = QSettings().value(kRecentKey).toStringList().mid(0, kMaxRecent);
  rebuildMenu();
  // What the views open with their own buttons is remembered too.
  if (inductor_run_ != nullptr) connect(inductor_run_, &InductorRunView::pathOpened, this, &PathOpener::remember);
  // A file the Inductor run view's own Open button was given that belongs to another view.
  if (inductor_run_ != nullptr) {
    connect(inductor_run_, &InductorRunView::openElsewhere, this, [this](const QString& path) { openShown(path); });
  }
  if (compile_sweep_ != nullptr) connect(compile_sweep_, &SweepView::pathOpened, this, &PathOpener::remember);
  if (live_sweep_ != nullptr) connect(live_sweep_, &SweepView::pathOpened, this, &PathOpener::remember);
  if (window_ != nullptr) {
    connect(window_, &MainWindow::pathsDropped, this, [this](const QStringList& paths) {
      for (const QString& p : paths) openShown(p);  // each in its view; the last one's view stays current
    });
  }
}

QString PathOpener::open(const QString& path) {
  const QFileInfo info(path);
  if (!info.exists()) return tr("%1 does not exist.").arg(QDir::toNativeSeparators(path));
  QWidget* view = nullptr;
  QString error;
  switch (openTargetFor(path)) {
    case OpenTarget::kLiveSweep:
      view = live_sweep_;
      if (view != nullptr) error = live_sweep_->openCsvFile(path);
      break;
    case OpenTarget::kCompileSweep:
      view = compile_sweep_;
      if (view != nullptr) error = compile_sweep_->openCsvFile(path);
      break;
    case OpenTarget::kInductorRun:
      view = inductor_run_;
      if (view != nullptr) error = inductor_run_->openPath(path);
      break;
    case OpenTarget::kMeasurements:
      view = inductor_run_;
      if (view != nullptr) error = inductor_run_->openMeasurementsCsv(path);
      break;
    case OpenTarget::kProfilerTrace:
      view = inductor_run_;
      if (view != nullptr) error = inductor_run_->openTrace(path);
      break;
  }
  if (view == nullptr) return tr("No view here opens %1.").arg(QDir::toNativeSeparators(path));
  if (window_ != nullptr) window_->tabs()->setCurrentWidget(view);
  if (error.isEmpty()) remember(path);
  return error;
}

void PathOpener::openShown(const QString& path) {
  const QString error = open(path);
  if (!error.isEmpty() && window_ != nullptr) window_->showFileError(error);
}

void PathOpener::remember(const QString& path) {
  const QString absolute = QFileInfo(path).absoluteFilePath();
  recent_.removeAll(absolute);
  recent_.prepend(absolute);
  while (recent_.size() > kMaxRecent) recent_.removeLast();
  store();
  rebuildMenu();
}

void PathOpener::store() const {
  if (use_settings_) QSettings().setValue(kRecentKey, recent_);
}

void PathOpener::rebuildMenu() {
  // An entry's own click rebuilds the menu: its action is deleted later, not under its signal.
  for (QAction* a : menu_->actions()) {
    menu_->removeAction(a);
    a->deleteLater();
  }
  for (const QString& path : recent_) {
    const QFileInfo info(path);
    const QString text = tr("%1 — %2").arg(info.fileName(), QDir::toNativeSeparators(info.absolutePath()));
    QAction* a = menu_->addAction(text, this, [this, path] { openShown(path); });
    a->setToolTip(QDir::toNativeSeparators(path));
    a->setStatusTip(QDir::toNativeSeparators(path));
    a->setData(path);
    if (!info.exists()) {
      a->setEnabled(false);
      a->setText(text + tr(" (not found)"));
    }
  }
  if (recent_.isEmpty()) menu_->addAction(tr("(nothing opened yet)"))->setEnabled(false);
  menu_->addSeparator();
  QAction* clear = menu_->addAction(tr("&Clear list"), this, [this] {
    recent_.clear();
    store();
    rebuildMenu();
  });
  clear->setEnabled(!recent_.isEmpty());
}

}  // namespace occx::ui
