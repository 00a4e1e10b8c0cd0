// The Inductor run view's Measured tab: the chosen kernel's configs timed on a GPU (run here,
// bundled, or from a kernel-runs CSV) as bars with the fastest and each policy's pick marked, a
// note in words, and the table of each policy's pick with its time and regret.
#pragma once

#include <QString>
#include <QWidget>

#include "ui/models/inductor_run_data.h"

class QLabel;
class QTableWidget;

namespace occx::ui {

class MeasuredTimesPlot;

class InductorMeasuredPane : public QWidget {
  Q_OBJECT

 public:
  explicit InductorMeasuredPane(QWidget* parent = nullptr);

  /// Shows what `run` measured of `kernel` (null: no kernel) and its compiled configs `configs`;
  /// `unavailable` says why the run cannot be measured here (empty when it can).
  void showKernel(const InductorRunData& run, const RunKernelEntry* kernel, const std::vector<triton::ScanRow>& configs,
                  const QString& unavailable);
  /// The plot, for exports.
  [[nodiscard]] MeasuredTimesPlot* plot() const { return plot_; }

 private:
  QLabel* note_;
  MeasuredTimesPlot* plot_;
  QTableWidget* picks_;
};

}  // namespace occx::ui
