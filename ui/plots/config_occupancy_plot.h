// Theoretical occupancy of each compiled config of one kernel, as bars: the autotuner's winner and
// the selected config marked, registers and spills in the tooltip. x: the configs in the table's
// order ("X1 R2048 w16"); y: occupancy in percent.
#pragma once

#include <QString>
#include <vector>

#include "core/triton/run_table.h"
#include "ui/plots/plot_controller.h"

class QCPBars;

namespace occx::ui {

class ConfigOccupancyPlot : public PlotController {
  Q_OBJECT

 public:
  explicit ConfigOccupancyPlot(QWidget* parent);

  /// Replaces the bars: one per row (rows without an occupancy show no bar), `selected` and the
  /// winner marked; `kernel` names the plot. Replots lazily.
  void setConfigs(const std::vector<triton::ScanRow>& rows, int selected, const QString& kernel);

  /// Occupancy (%) of each bar, in row order (0 for rows without one), for tests.
  [[nodiscard]] const std::vector<double>& values() const { return values_; }
  [[nodiscard]] int selected() const { return selected_; }

  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  QCPBars* configs_;
  QCPBars* winner_;
  QCPBars* selected_bar_;
  std::vector<triton::ScanRow> rows_;
  std::vector<double> values_;
  int selected_ = -1;
};

}  // namespace occx::ui
