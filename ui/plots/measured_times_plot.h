// Measured time of each compiled config of one kernel, as bars: the fastest config and each
// policy's pick marked (one marker per policy above its pick's bar), status, GB/s and regret
// in the tooltip. x: the configs in the table's order ("X1 R2048 w16"); y: median time in µs.
#pragma once

#include <QString>
#include <vector>

#include "ui/models/inductor_run_models.h"
#include "ui/plots/plot_controller.h"

class QCPBars;
class QCPGraph;

namespace occx::ui {

class MeasuredTimesPlot : public PlotController {
  Q_OBJECT

 public:
  explicit MeasuredTimesPlot(QWidget* parent);

  /// Replaces the bars: one per row (rows not measured or not ok show no bar), the best and each
  /// policy's pick marked; `kernel` names the plot. Replots lazily.
  void setConfigs(const std::vector<triton::ScanRow>& rows,
                  const std::vector<std::optional<RunConfigModel::Measured>>& measured, const QString& kernel);

  /// Median time (µs) of each bar, in row order (0 for rows without one), for tests.
  [[nodiscard]] const std::vector<double>& values() const { return values_; }
  /// Row of the fastest config, -1 when none.
  [[nodiscard]] int bestRow() const { return best_row_; }
  /// Row of each policy's pick (kPolicies order; -1 when none), for tests.
  [[nodiscard]] const std::vector<int>& pickRows() const { return pick_rows_; }

  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  QCPBars* configs_;
  QCPBars* best_;
  std::vector<QCPGraph*> pick_marks_;
  std::vector<triton::ScanRow> rows_;
  std::vector<std::optional<RunConfigModel::Measured>> measured_;
  std::vector<double> values_;
  std::vector<int> pick_rows_;
  int best_row_ = -1;
};

}  // namespace occx::ui
