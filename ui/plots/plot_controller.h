// A QCustomPlot behind a small controller: title, axis labels, a legend below the axes, hover
// tooltips, and atomic PNG/PDF export. QCustomPlot's header stays in .cpp files; views hold a
// controller and put widget() into their layouts.
#pragma once

#include <QObject>
#include <QPointF>
#include <QString>
#include <QVector>
#include <cstddef>

#include "core/base/expected.h"

class QCustomPlot;
class QCPTextElement;
class QWidget;

namespace occx::ui {

/// Owns one QCustomPlot (a child of `parent`) styled the same way for every view: a title row, the
/// axis rect, and a legend row under it (so the legend never covers data). Subclasses fill the plot
/// and override toolTipAt() to describe the data under the mouse.
class PlotController : public QObject {
  Q_OBJECT

 public:
  PlotController(const QString& title, QWidget* parent);
  ~PlotController() override;

  /// The plot widget, for layouts.
  [[nodiscard]] QWidget* widget() const;
  /// The plot itself (include qcustomplot.h in the .cpp that uses it).
  [[nodiscard]] QCustomPlot* plot() const { return plot_; }

  [[nodiscard]] QString title() const;
  void setTitle(const QString& title);
  /// Labels of the bottom and left axes, units in the text ("Threads per block", "Active warps per SM").
  void setAxisLabels(const QString& x_label, const QString& y_label);
  /// The most legend columns before the legend wraps to a new row (default 3). Fewer are used
  /// when the entries would not fit the plot's width (recomputed before every replot and export).
  void setLegendColumns(int columns);

  /// Redraws on the next event-loop turn; several calls in a row cost one replot.
  void requestReplot();

  /// Writes the plot as PNG, `width` × `height` pixels (0: the widget's size when shown, else
  /// 900 × 560), atomically: rendered in memory, then written to a temporary file in the target's
  /// folder and renamed. Returns the bytes written, or an Error naming the path and the reason.
  [[nodiscard]] Expected<std::size_t> exportPng(const QString& path, int width = 0, int height = 0) const;
  /// Writes the plot as a vector PDF page of `width` × `height` points (0: as exportPng), atomically
  /// (rendered into a scratch folder, then written next to the target and renamed).
  [[nodiscard]] Expected<std::size_t> exportPdf(const QString& path, int width = 0, int height = 0) const;
  /// exportPng or exportPdf by the file's suffix (.png / .pdf); other suffixes are an Error.
  [[nodiscard]] Expected<std::size_t> exportImage(const QString& path, int width = 0, int height = 0) const;

  /// Graphs (line/scatter plottables) in the plot, for tests and exports.
  [[nodiscard]] int graphCount() const;
  [[nodiscard]] QString graphName(int index) const;
  /// The (x, y) data of one graph in plotted units; empty for a bad index.
  [[nodiscard]] QVector<QPointF> graphPoints(int index) const;

  /// Text for a tooltip at plot coordinates (x, y); empty for none. The default names the nearest
  /// point of the first graph.
  [[nodiscard]] virtual QString toolTipAt(double x, double y) const;

 private:
  void onMouseMove(const QPointF& pos, const QPoint& global_pos);
  /// Sets the legend's columns to the most (up to setLegendColumns) whose widest entries fit a
  /// plot `width` pixels wide (the window's, or an export's).
  void fitLegendColumns(int width) const;
  /// Fits the title and the x axis label to a plot `width` pixels wide: the title breaks into two
  /// lines at the space nearest its middle, then both shrink (down to 8 pt) until they fit.
  void fitTitleAndLabel(int width);
  [[nodiscard]] QSize exportSize(int width, int height) const;

  QCustomPlot* plot_;
  QCPTextElement* title_;
  QString full_title_;  ///< the title as set (the shown text may be broken into two lines)
  int max_legend_columns_ = 3;
};

}  // namespace occx::ui
