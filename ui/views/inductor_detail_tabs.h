// The Inductor run view's detail tabs, under the configs table: for the selected config the RBLOCK
// bounds against registers (InductorBoundsPane) and the occupancy of every config as bars; for the
// chosen kernel its source (InductorSourcePane), its measured times (InductorMeasuredPane) and its
// sweep (InductorSweepPane); and the user's step (StepPane).
#pragma once

#include <QString>
#include <QStringList>
#include <QTabWidget>
#include <vector>

#include "ui/models/inductor_run_data.h"

namespace occx::ui {

class ConfigOccupancyPlot;
class InductorBoundsPane;
class InductorMeasuredPane;
class InductorSourcePane;
class InductorSweepPane;
class PlotController;
class StepPane;

class InductorDetailTabs : public QTabWidget {
  Q_OBJECT

 public:
  explicit InductorDetailTabs(QWidget* parent = nullptr);

  /// Shows `kernel` (null: none) of `run`, its compiled configs `configs`, in the Source, Measured
  /// and Sweep tabs; `unavailable` says why the run cannot be measured here (empty: it can),
  /// `explanation` is the sentences of a sweep of the kernel run here (empty: none).
  void showKernel(const InductorRunData& run, const RunKernelEntry* kernel, const std::vector<triton::ScanRow>& configs,
                  const QString& unavailable, const QStringList& explanation);
  /// Shows config `row` (-1: none) of `configs` of `kernel` (null: none) in the bounds and occupancy tabs.
  void showConfig(const RunKernelEntry* kernel, const std::vector<triton::ScanRow>& configs, int row);

  /// The plots a report or an export takes: the bounds, the occupancy bars, the measured times.
  [[nodiscard]] std::vector<PlotController*> plots() const;
  [[nodiscard]] InductorSweepPane* sweepPane() const { return sweep_; }
  [[nodiscard]] StepPane* stepPane() const { return step_; }

 private:
  InductorBoundsPane* bounds_;
  ConfigOccupancyPlot* occupancy_;
  InductorSourcePane* source_;
  InductorMeasuredPane* measured_;
  InductorSweepPane* sweep_;
  StepPane* step_;
};

}  // namespace occx::ui
