// Horizontal stacked bars, one row per SM resource: used by the active blocks, unusable because
// another resource limits, remainder (see ResourceUtilization).
#pragma once

#include <QVector>
#include <vector>

#include "ui/models/utilization.h"
#include "ui/plots/plot_controller.h"

class QCPBars;

namespace occx::ui {

class UtilizationChart : public PlotController {
  Q_OBJECT

 public:
  explicit UtilizationChart(QWidget* parent);

  /// Replaces the rows (first row drawn at the top). Values are plotted as percent of each
  /// resource's capacity; tooltips give the absolute amounts. Replots lazily.
  void setRows(const std::vector<ResourceUtilization>& rows);
  [[nodiscard]] const std::vector<ResourceUtilization>& rows() const { return rows_; }

  /// Plotted percentages of one series (0 used, 1 unusable, 2 remainder), in row order.
  [[nodiscard]] QVector<double> seriesPercent(int series) const;
  /// The row labels on the vertical axis, in row order.
  [[nodiscard]] QStringList rowLabels() const;

  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  /// Sets the row labels of rows_: the resource (and "(limiter)"), and on a tall enough chart its
  /// capacity on a second line.
  void applyRowLabels();

  std::vector<ResourceUtilization> rows_;
  bool two_line_labels_ = true;
  QCPBars* used_;
  QCPBars* unusable_;
  QCPBars* remainder_;
};

}  // namespace occx::ui
