// Measured time of each compiled config of one kernel, as horizontal bars (one row per config, so
// that its label reads level however many configs there are): Inductor's own configs first, then
// the fastest of the others (a sweep's), each group fastest first; as many rows as the plot's
// height has room for, the slowest of the others summed up in a last row (a bar over their range).
// The fastest config is green; each policy's pick has a marker on its bar's row, right of the bar
// (one marker shape per policy, side by side when several pick one config). Status, GB/s and
// regret in the tooltip. x: median time in µs; y: the configs ("X1 R2048 w16"). What is shown is
// computed by measuredBars (ui/models/inductor_plot_data.h).
#pragma once

#include <QString>
#include <vector>

#include "ui/models/inductor_plot_data.h"
#include "ui/models/inductor_run_models.h"
#include "ui/plots/plot_controller.h"

class QCPBars;
class QCPGraph;

namespace occx::ui {

class MeasuredTimesPlot : public PlotController {
  Q_OBJECT

 public:
  explicit MeasuredTimesPlot(QWidget* parent);

  /// Replaces the bars: one per row that ran ok (as many as fit, see above), the best and each
  /// policy's pick marked; `kernel` names the plot. Replots lazily.
  void setConfigs(const std::vector<triton::ScanRow>& rows,
                  const std::vector<std::optional<RunConfigModel::Measured>>& measured, const QString& kernel);

  /// Median time (µs) of each config, in row order (0 for rows without one), for tests.
  [[nodiscard]] const std::vector<double>& values() const { return values_; }
  /// Row of the fastest config, -1 when none.
  [[nodiscard]] int bestRow() const { return best_row_; }
  /// Row of each policy's pick (kPolicies order; -1 when none), for tests.
  [[nodiscard]] const std::vector<int>& pickRows() const { return pick_rows_; }
  /// The bars shown, top to bottom (the last layout's room), with the summary.
  [[nodiscard]] const MeasuredBars& bars() const { return bars_; }
  /// Where the bar of config row `row` is on the category (y) axis; NaN when it has no bar.
  [[nodiscard]] double barKey(int row) const;
  /// The bar data as plotted: (position on the category axis, time in µs) of every bar drawn.
  [[nodiscard]] std::vector<std::pair<double, double>> plottedBars() const;
  /// The category-axis positions of policy `policy`'s markers (kPolicies order), as plotted.
  [[nodiscard]] std::vector<double> markerKeys(int policy) const;
  /// The most rows the plot shows, from its height at the last layout.
  [[nodiscard]] int barRoom() const { return room_; }

  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  /// Rows of the height the axis rect has now (a label's line each), at least kMinBarRoom.
  [[nodiscard]] int roomNow() const;
  /// Fills the bars, markers, ticks and legend from rows_/measured_ for `room` rows.
  void fill(int room);
  /// Puts the policies' markers right of their bars, a fixed number of pixels apart at the axis
  /// rect's present width, and sets the time axis's range to hold them.
  void placeMarkers();

  QCPBars* own_;
  QCPBars* swept_;
  QCPBars* best_;
  QCPBars* rest_;
  std::vector<QCPGraph*> pick_marks_;
  std::vector<triton::ScanRow> rows_;
  std::vector<std::optional<RunConfigModel::Measured>> measured_;
  std::vector<double> values_;
  std::vector<int> pick_rows_;
  MeasuredBars bars_;
  int best_row_ = -1;
  int room_ = 0;
};

}  // namespace occx::ui
