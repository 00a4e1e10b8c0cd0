// A plot of per-config values against RBLOCK on a log2 axis, one series per num_warps, with
// horizontal reference lines (a register cap, the roofline), marker sets (each policy's pick, the
// best, the selected config) and error bars (min … max of timed runs). Used by the compile-sweep view
// (registers, spills) and the live-sweep view (bandwidth, time, occupancy). Every graph remembers which
// row of the view each of its points came from, for tooltips.
#pragma once

#include <QColor>
#include <QString>
#include <QVector>
#include <functional>
#include <map>

#include "ui/models/sweep_plot_data.h"
#include "ui/plots/plot_controller.h"

class QCPGraph;

namespace occx::ui {

/// The colour of the series of one num_warps value (the same in every plot of the app).
QColor numWarpsColor(int num_warps);

class SweepSeriesPlot : public PlotController {
  Q_OBJECT

 public:
  SweepSeriesPlot(const QString& title, const QString& object_name, QWidget* parent);

  /// Removes every graph, error bar and note.
  void clear();
  /// Draws `data` in place of what was shown: clear(), its series, reference lines and markers in
  /// that order, finish(y_lo, y_hi), its title (when not empty) and its notes.
  void show(const SweepPlotData& data);
  /// A line through (x, y) with circles at the points; `rows` gives the view row of each point.
  /// Returns the graph index.
  /// Points are sorted by x (with their rows). With `minus`/`plus` (one per point, distances below
  /// and above y) the points get error bars.
  int addSeries(const QString& name, QVector<double> x, QVector<double> y, QVector<int> rows, const QColor& color,
                Qt::PenStyle style = Qt::SolidLine, QVector<double> minus = {}, QVector<double> plus = {});
  /// Error-bar plottables in the plot (not graphs).
  [[nodiscard]] int errorBarCount() const;
  /// A horizontal line at `y` across the x range, named in the legend. Returns the graph index.
  int addReferenceLine(double y, const QString& name, const QColor& color, Qt::PenStyle style);
  /// Unconnected markers (picks, the selected config). Returns the graph index.
  int addMarkers(const QString& name, QVector<double> x, QVector<double> y, QVector<int> rows, MarkerShape shape,
                 const QColor& color, double size, bool filled, bool in_legend = true);
  /// Fixes the ranges (x: the RBLOCKs shown with room on both sides; y: lo … hi), stretches the
  /// reference lines across, and replots.
  void finish(double y_lo, double y_hi);
  /// A grey note in the middle of the axes (e.g. "no data: open a CSV"); empty removes it.
  void setNote(const QString& text);
  [[nodiscard]] QString note() const { return note_; }
  /// A small grey note in the top right corner of the axes (e.g. what the y range cuts off); empty removes it.
  void setCornerNote(const QString& text);
  [[nodiscard]] QString cornerNote() const { return corner_note_; }

  /// The index of the graph with this legend name, -1 when none.
  [[nodiscard]] int graphIndex(const QString& name) const;
  /// View rows of a graph's points (empty for reference lines).
  [[nodiscard]] QVector<int> graphRows(int graph) const;
  /// The x axis's tick positions and labels (powers of two).
  [[nodiscard]] QVector<double> xTicks() const;
  [[nodiscard]] QString xAxisLabel() const;
  [[nodiscard]] QString yAxisLabel() const;

  /// Describes a view row for tooltips.
  void setRowDescriber(std::function<QString(int row)> describe) { describe_ = std::move(describe); }
  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  std::map<const QCPGraph*, QVector<int>> rows_;
  std::vector<QCPGraph*> reference_lines_;
  std::function<QString(int)> describe_;
  QString note_;
  QString corner_note_;
  double x_lo_ = 0.0;
  double x_hi_ = 0.0;
};

}  // namespace occx::ui
