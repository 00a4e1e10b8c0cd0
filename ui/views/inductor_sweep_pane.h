// The Inductor run view's Sweep tab: the chosen kernel's configs (Inductor's and a sweep's) plotted
// against the tile, one series per num_warps, for a metric (DRAM bandwidth, device time, registers,
// occupancy) and an XBLOCK, the fastest and each policy's pick marked, the sweep in words; and the
// Grid and Python fields a sweep of the kernel takes. The plot's data comes from
// ui/models/inductor_plot_data.h (sweepPlotSource, sweepPlotData).
#pragma once

#include <QString>
#include <QWidget>
#include <optional>

#include "ui/models/inductor_plot_data.h"

class QComboBox;
class QLabel;
class QLineEdit;

namespace occx::ui {

class SweepSeriesPlot;

class InductorSweepPane : public QWidget {
  Q_OBJECT

 public:
  explicit InductorSweepPane(QWidget* parent = nullptr);

  /// Plots `source` (nullopt: no kernel chosen), keeping the metric and, when the kernel has it,
  /// the XBLOCK chosen.
  void showKernel(std::optional<SweepPlotSource> source);

  /// The Grid field: the configs a sweep compiles, as occx inductor sweep --grid takes them (empty: the default grid).
  [[nodiscard]] QString gridText() const;
  void setGridText(const QString& text);
  /// The Python field: the Python with PyTorch and Triton that compiles (empty: $OCCX_PYTHON, else python3).
  [[nodiscard]] QString pythonText() const;
  void setPythonText(const QString& text);

  /// The plot.
  [[nodiscard]] SweepSeriesPlot* plot() const { return plot_; }

 private:
  void replot();

  std::optional<SweepPlotSource> source_;
  QComboBox* xblock_;
  QComboBox* metric_;
  QLineEdit* grid_;
  QLineEdit* python_;
  QLabel* note_;
  SweepSeriesPlot* plot_;
};

}  // namespace occx::ui
