// Helpers of the Inductor run view's tests: the recorded runs' paths, a scan that waits for its
// end, the view's widgets and panes found by their object names, its tables' models, and a
// config's row in the configs table.
#pragma once

#include <QLabel>
#include <QObject>
#include <QSortFilterProxyModel>
#include <QString>
#include <QTableView>
#include <stdexcept>
#include <string>

#include <gtest/gtest.h>

#include "ui/models/inductor_run_models.h"
#include "ui/plots/config_occupancy_plot.h"
#include "ui/plots/measured_times_plot.h"
#include "ui/plots/rblock_bounds_plot.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/inductor_bounds_pane.h"
#include "ui/views/inductor_config_pane.h"
#include "ui/views/inductor_measured_pane.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/inductor_sweep_pane.h"
#include "ui_test_support.h"

namespace occx::ui {

/// <build>/test-data/inductor/<name>.
inline QString inductorFixture(const char* name) {
  return QStringLiteral(OCCX_INDUCTOR_FIXTURES_DIR "/") + QLatin1String(name);
}

/// Opens `path` in `view` and waits for its scan to end (20 s at most).
inline bool scanAndWait(InductorRunView& view, const QString& path) {
  bool done = false;
  QObject::connect(
      &view, &InductorRunView::scanFinished, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  EXPECT_TRUE(view.openPath(path).isEmpty());
  return waitFor([&] { return done; }, 20000);
}

/// The child of `root` of type T named `name`. Throws when there is none, which fails the test.
template <typename T>
T& childNamed(const QObject& root, const char* name) {
  T* child = root.findChild<T*>(QLatin1String(name));
  if (child == nullptr) throw std::runtime_error(std::string("no child named ") + name);
  return *child;
}

/// The text of the view's label `name`: "runStatus", "runTitle", "runSummary", "sourceLabel" …
inline QString labelText(const QObject& view, const char* name) {
  return childNamed<QLabel>(view, name).text();
}

/// The model of the view's configs table.
inline const RunConfigModel& configModel(const InductorRunView& view) {
  return *childNamed<InductorConfigPane>(view, "inductorConfigs").model();
}

/// The model behind the view's kernel list (its rows in the run's order, unsorted).
inline const KernelListModel& kernelModel(const InductorRunView& view) {
  auto* proxy = qobject_cast<QSortFilterProxyModel*>(childNamed<QTableView>(view, "kernelTable").model());
  auto* model = proxy != nullptr ? qobject_cast<const KernelListModel*>(proxy->sourceModel()) : nullptr;
  if (model == nullptr) throw std::runtime_error("the kernel table shows no KernelListModel");
  return *model;
}

/// The plots of the view's detail tabs: the RBLOCK bounds, the occupancy bars, the measured
/// times, the sweep.
inline RblockBoundsPlot& boundsPlot(const InductorRunView& view) {
  return *childNamed<InductorBoundsPane>(view, "inductorBounds").plot();
}
inline ConfigOccupancyPlot& occupancyPlot(const InductorRunView& view) {
  return childNamed<ConfigOccupancyPlot>(view, "occupancyPlot");
}
inline MeasuredTimesPlot& measuredPlot(const InductorRunView& view) {
  return *childNamed<InductorMeasuredPane>(view, "inductorMeasured").plot();
}
inline SweepSeriesPlot& sweepPlot(const InductorRunView& view) {
  return *childNamed<InductorSweepPane>(view, "inductorSweep").plot();
}

/// The configs table's row of `config` ("X1 R2048 w16"), -1 when none.
inline int configRowOf(const InductorRunView& view, const QString& config) {
  const RunConfigModel& model = configModel(view);
  for (int r = 0; r < model.numRows(); ++r) {
    if (shortConfigText(*model.row(r)) == config) return r;
  }
  return -1;
}

}  // namespace occx::ui
