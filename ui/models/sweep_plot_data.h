// What a plot of per-config values against RBLOCK shows, as plain data: the series (one per
// num_warps), the horizontal reference lines, the marker sets, the y range and the notes. The sweep
// views' pure functions (compile_sweep_content, live_sweep_content) compute it from their rows, and
// SweepSeriesPlot::show draws it; tests read it without a widget.
#pragma once

#include <QColor>
#include <QString>
#include <QVector>
#include <vector>

namespace occx::ui {

/// A marker's shape (QCustomPlot's scatter styles, kept out of the header).
enum class MarkerShape { kCircle, kSquare, kTriangle, kStar, kDiamond, kCross };

/// A line through points, circles at the points, coloured by its num_warps (numWarpsColor).
struct SweepSeriesData {
  QString name;  ///< the legend's "16 warps"
  int num_warps = 0;
  bool dashed = false;  ///< a second series of the same num_warps (achieved, Inductor's kernel)
  QVector<double> x;
  QVector<double> y;
  QVector<int> rows;      ///< the view row of each point, for tooltips
  QVector<double> minus;  ///< with plus: error bars, distances below and above y (empty: none)
  QVector<double> plus;
};

/// An empty series named `name` of `num_warps` (dashed: a second series of that num_warps).
inline SweepSeriesData sweepSeries(const QString& name, int num_warps, bool dashed = false) {
  SweepSeriesData s;
  s.name = name;
  s.num_warps = num_warps;
  s.dashed = dashed;
  return s;
}

/// A horizontal line across the plot (a register cap, a roofline), named in the legend.
struct SweepReferenceLine {
  double y = 0.0;
  QString name;
  QColor color;
  Qt::PenStyle style = Qt::DashLine;
};

/// Unconnected markers (each policy's pick, the best, the selected config).
struct SweepMarkers {
  QString name;
  QVector<double> x;
  QVector<double> y;
  QVector<int> rows;
  MarkerShape shape = MarkerShape::kCircle;
  QColor color;
  double size = 10.0;
  bool in_legend = true;
};

/// One plot: drawn in this order (series, lines, markers), so the legend reads the same way.
struct SweepPlotData {
  QString title;  ///< empty: the plot keeps its title
  std::vector<SweepSeriesData> series;
  std::vector<SweepReferenceLine> lines;
  std::vector<SweepMarkers> markers;
  double y_lo = 0.0;
  double y_hi = 1.0;
  QString note;         ///< in the middle of the axes ("No data: …"); empty for none
  QString corner_note;  ///< top right ("bars cut at the top"); empty for none
};

}  // namespace occx::ui
