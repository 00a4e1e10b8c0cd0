// A QCustomPlot behind a small controller: title, axis labels, a legend below or beside the axes, hover
// tooltips, and atomic PNG/PDF export at a size of its own (900 × 560 laid out, PNG drawn twice as
// fine), whatever the window's size, with subtitle lines that say what the plot shows (the device
// and the configuration) added above the axes by making the image taller. QCustomPlot's header stays in .cpp files;
// views hold a controller and put widget() into their layouts.
#pragma once

#include <QImage>
#include <QObject>
#include <QPointF>
#include <QRect>
#include <QSize>
#include <QString>
#include <QVector>
#include <cstddef>

#include "core/base/expected.h"

class QCustomPlot;
class QCPLayoutGrid;
class QCPTextElement;
class QWidget;

namespace occx::ui {

/// "1 warp", "4 warps": a count of warps (num_warps, warps per block) as the UI prints it.
[[nodiscard]] QString warpCountText(long long warps);

/// Owns one QCustomPlot (a child of `parent`) styled the same way for every view: a title row, the
/// axis rect, and a legend under it or beside it (outside the axes, so the legend never covers data).
/// Subclasses fill the plot and override toolTipAt() to describe the data under the mouse.
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
  /// The bottom (x) or left (y) axis.
  enum class Axis { kX, kY };
  /// Ticks of `axis` at whole numbers only (1, 2, 5, 10, 20, … apart), for counts (blocks per SM,
  /// registers, spill bytes): never 2.5 or 7.5. Replaces the axis's ticker.
  void setIntegerTicks(Axis axis);
  /// The most legend columns before the legend wraps to a new row (default 3). Fewer are used
  /// when the entries would not fit the plot's width (recomputed before every replot and export).
  void setLegendColumns(int columns);
  /// Where the legend is: in a row under the axis rect (the default), or in one column right of it,
  /// top-aligned (for a wide plot with many entries on a short screen: the rows would take the axis
  /// rect's height). Beside, setLegendColumns does not apply.
  enum class LegendPlace { kBelow, kBeside };
  void setLegendPlace(LegendPlace place);
  [[nodiscard]] LegendPlace legendPlace() const { return legend_place_; }

  /// Redraws on the next event-loop turn; several calls in a row cost one replot.
  void requestReplot();

  /// A line under the title in exports only (PNG and PDF), saying what the plot shows, e.g.
  /// "H100 SXM5 (CC 9.0, 132 SMs) · 256 threads, 32 registers, 0 B shared". Empty: none.
  void setExportSubtitle(const QString& subtitle) { export_subtitle_ = subtitle; }
  [[nodiscard]] QString exportSubtitle() const { return export_subtitle_; }
  /// How much finer than its layout a PNG export is drawn (default 2: a plot laid out at 900 × 560
  /// exports as 1800 × 1120 pixels). At least 1.
  void setExportScale(double scale);
  [[nodiscard]] double exportScale() const { return export_scale_; }
  /// The size, in layout pixels, that exports are laid out at when no size is given (default
  /// 900 × 560: the plot's title, axes and legend), whatever the widget's size on screen; the export
  /// subtitle's lines come on top, making the image taller. Each side at least 200.
  void setExportSize(QSize size);
  [[nodiscard]] QSize exportSize() const { return export_size_; }

  /// Writes the plot as PNG, atomically: rendered in memory, then written to a temporary file in
  /// the target's folder and renamed. `width` × `height` > 0: the plot laid out at that size and
  /// drawn at 1 pixel per layout pixel. 0: laid out at exportSize() and drawn exportScale() times
  /// finer (1800 × 1120 pixels by default). The export subtitle's lines add to the height (its
  /// rows never squeeze the axes). Returns the bytes written, or an Error naming the path and the reason.
  [[nodiscard]] Expected<std::size_t> exportPng(const QString& path, int width = 0, int height = 0) const;
  /// Writes the plot as a vector PDF page of `width` × `height` points (0: exportSize()), taller by
  /// the export subtitle's lines, atomically (rendered into a scratch folder, then written next to
  /// the target and renamed).
  [[nodiscard]] Expected<std::size_t> exportPdf(const QString& path, int width = 0, int height = 0) const;
  /// exportPng or exportPdf by the file's suffix (.png / .pdf); other suffixes are an Error.
  [[nodiscard]] Expected<std::size_t> exportImage(const QString& path, int width = 0, int height = 0) const;
  /// The plot as exportPng draws it (the export subtitle included): laid out at `width` × `height`
  /// at 1 pixel each, or at exportSize() exportScale() times finer when either is 0; taller by the
  /// subtitle's lines. Null when it cannot render. QCustomPlot::afterLayout is emitted with the
  /// export's layout (its axes and ticks) just before it is drawn; the shown plot is laid out again after.
  [[nodiscard]] QImage renderImage(int width = 0, int height = 0) const;

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
  /// lines at the space nearest its middle, then shrinks (down to 8 pt) until it fits; the label
  /// shrinks (down to 7 pt) to the axis rect's width.
  void fitTitleAndLabel(int width) const;
  /// `width` × `height` when both > 0, else exportSize().
  [[nodiscard]] QSize exportSizeFor(int width, int height) const;
  /// An export in progress: the subtitle element added for it (null for none) and the size the
  /// whole image is laid out at (the plot's size, taller by the subtitle's row).
  struct ExportFrame {
    QCPTextElement* subtitle = nullptr;
    QSize size;
  };
  /// Lays the plot out for an export of a plot `size` layout pixels (legend, title, the subtitle
  /// row on top, the image made taller by it), lets the plot's replot hooks adapt to that size,
  /// and returns what endExport undoes.
  ExportFrame beginExport(QSize size) const;
  void endExport(const ExportFrame& frame) const;
  /// Lays the plot's elements out in `viewport` (what a replot does before it draws), then restores
  /// the viewport.
  void layOutIn(const QRect& viewport) const;

  QCustomPlot* plot_;
  QCPTextElement* title_;
  QCPLayoutGrid* legend_cell_;  ///< holds the legend: the row under the axes, or the column beside them
  QString full_title_;          ///< the title as set (the shown text may be broken into two lines)
  QString export_subtitle_;
  double export_scale_ = 2.0;
  QSize export_size_{900, 560};
  int max_legend_columns_ = 3;
  LegendPlace legend_place_ = LegendPlace::kBelow;
};

}  // namespace occx::ui
