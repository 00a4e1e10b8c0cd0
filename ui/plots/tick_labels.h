// Tick labels that stay apart. Where QCustomPlot draws an axis's tick labels (their outlines, in
// pixels, rotated as drawn), whether two of them overlap, a text ticker that leaves out the labels
// that would overlap at the axis's length, and a layout pass that makes the axis rects' sizes
// current before a replot computes its ticks (QCustomPlot computes them from the previous layout's
// sizes, so the first draw of a plot, or the first after a resize, would fit the old size).
// Included by the plots' .cpp files and the tests; the views' headers keep QCustomPlot's out.
#pragma once

#include <QPolygonF>
#include <QString>
#include <QStringList>
#include <QVector>

#include "qcustomplot.h"

namespace occx::ui {

/// Runs QCustomPlot's layout passes (preparation, margins, layout) for `plot`'s viewport now, as its
/// next replot would: afterwards axisRect()->rect() and QCPAxis::coordToPixel are those of the
/// plot's present size. Call before measuring the axis rect in a beforeReplot handler; an export at
/// another size sets the viewport to that size first.
void layOutPlotNow(QCustomPlot* plot);

/// Fewer ticks on `plot`'s numeric axes (those without a text ticker) whose labels would overlap
/// at the axes' present length (call after layOutPlotNow): each ticker's tick count is lowered, down
/// to 2, until its labels keep apart, and given back when the axis has room again. Tickers that
/// do not follow their tick count (QCPAxisTickerFixed without a scale strategy) are left as they are.
void fitNumericTickLabels(QCustomPlot* plot);

/// The outline, in pixels, of the tick label `text` at the axis coordinate `coord` of `axis` as
/// QCustomPlot places it (its font's bounding box of the text, rotated by the axis's tick-label
/// rotation, anchored at the tick). Labels of one axis share their distance from the axis line, so
/// outlines of one axis compare with each other; they are not the drawn position on the widget.
[[nodiscard]] QPolygonF tickLabelOutline(const QCPAxis* axis, double coord, const QString& text);

/// Whether two convex outlines overlap by more than `tolerance` pixels (separating-axis test).
[[nodiscard]] bool outlinesOverlap(const QPolygonF& a, const QPolygonF& b, double tolerance = 0.5);

/// The tick labels `axis` drew in its last layout that overlap another of its labels, as
/// "\"16384\" overlaps \"32768\"" lines; empty when none do (or the axis or its labels are hidden).
[[nodiscard]] QStringList overlappingTickLabels(const QCPAxis* axis);

/// A text ticker (labels at given positions, like QCPAxisTickerText) that draws only labels that
/// keep apart at the axis's present length: the priority ticks first (in their order, each unless
/// it would overlap one already kept), then every n-th of the others with the smallest n whose
/// labels keep apart, less those that would overlap a priority label. Ticks whose labels are left
/// out keep their tick mark. Create one per axis (it measures that axis).
class FittingTextTicker : public QCPAxisTickerText {
 public:
  explicit FittingTextTicker(const QCPAxis* axis) : axis_(axis) {}

  /// Positions whose labels are kept before any other (e.g. the fastest config, the policies' picks).
  void setPriorityTicks(QVector<double> keys) { priority_ = std::move(keys); }

 protected:
  QVector<QString> createLabelVector(const QVector<double>& ticks, const QLocale& locale, QChar formatChar,
                                     int precision) override;

 private:
  const QCPAxis* axis_;
  QVector<double> priority_;
};

/// Which of `labels` (at `ticks` of `axis`) FittingTextTicker keeps: true for each kept; empty
/// labels are never kept. `priority` as setPriorityTicks.
[[nodiscard]] QVector<bool> keptTickLabels(const QCPAxis* axis, const QVector<double>& ticks,
                                           const QVector<QString>& labels, const QVector<double>& priority);

}  // namespace occx::ui
