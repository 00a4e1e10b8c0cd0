// Where a step's GPU time goes, as a Pareto chart: the longest kernels of the step as bars (in-step
// time per step, µs, left axis), coloured by kind, the rest summed into one bar ("+N"), and the
// cumulative share of the step's GPU time as a line (right axis, %). x: the kernels' ranks, as the
// Step table numbers them; names, launches and configs in the tooltip.
#pragma once

#include <QString>
#include <vector>

#include "ui/models/step_kernel_model.h"
#include "ui/plots/plot_controller.h"

class QCPBars;
class QCPGraph;

namespace occx::ui {

class StepParetoPlot : public PlotController {
  Q_OBJECT

 public:
  /// Kernels shown as bars of their own before the rest are summed (the chart stays readable with
  /// hundreds of kernels).
  static constexpr int kShownKernels = 15;

  explicit StepParetoPlot(QWidget* parent);

  /// Replaces the chart with `rows` (ranked, as stepKernelRows gives them). Replots lazily.
  void setKernels(const std::vector<StepKernelRow>& rows, double gpu_time_per_step_us);

  /// Heights of the bars in x order (the last is "others" when there are more than kShownKernels
  /// kernels), µs per step; for tests.
  [[nodiscard]] const std::vector<double>& barValues() const { return values_; }
  /// The cumulative share at each bar, %; for tests.
  [[nodiscard]] const std::vector<double>& cumulativePct() const { return cumulative_; }

  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  std::vector<QCPBars*> bars_;  ///< one per category, in kKernelCategories order
  QCPBars* rest_;               ///< the kernels after kShownKernels, summed
  QCPGraph* cumulative_line_;
  std::vector<StepKernelRow> rows_;
  std::vector<double> values_;
  std::vector<double> cumulative_;
  int others_ = 0;  ///< kernels summed into the last bar
  double others_us_ = 0.0;
};

}  // namespace occx::ui
