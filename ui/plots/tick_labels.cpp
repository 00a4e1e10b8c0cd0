#include "ui/plots/tick_labels.h"

#include <QFontMetrics>
#include <QTransform>
#include <algorithm>
#include <cmath>
#include <limits>

namespace occx::ui {

void layOutPlotNow(QCustomPlot* plot) {
  QCPLayoutGrid* layout = plot->plotLayout();
  layout->setOuterRect(plot->viewport());
  layout->update(QCPLayoutElement::upPreparation);  // the ticks, for the axes' margins
  layout->update(QCPLayoutElement::upMargins);
  layout->update(QCPLayoutElement::upLayout);
}

namespace {

/// Where QCustomPlot puts the top left corner of a label's box (`w` × `h`), before rotating it by
/// `degrees`, relative to its anchor at the tick (QCPAxisPainterPrivate::getTickLabelDrawOffset).
QPointF tickLabelDrawOffset(QCPAxis::AxisType type, double degrees, double w, double h) {
  const double radians = degrees / 180.0 * M_PI;
  const bool rotated = !qFuzzyIsNull(degrees);
  switch (type) {
    case QCPAxis::atBottom:
      if (!rotated) return {-w / 2.0, 0.0};
      if (degrees > 0) return {std::sin(radians) * h / 2.0, 0.0};
      return {-std::cos(-radians) * w - std::sin(-radians) * h / 2.0, std::sin(-radians) * w};
    case QCPAxis::atTop:
      if (!rotated) return {-w / 2.0, -h};
      if (degrees > 0)
        return {-std::cos(radians) * w + std::sin(radians) * h / 2.0, -std::sin(radians) * w - std::cos(radians) * h};
      return {-std::sin(-radians) * h / 2.0, -std::cos(-radians) * h};
    case QCPAxis::atLeft:
      if (!rotated) return {-w, -h / 2.0};
      if (degrees > 0) return {-std::cos(radians) * w, -std::sin(radians) * w - std::cos(radians) * h / 2.0};
      return {-std::cos(-radians) * w - std::sin(-radians) * h, std::sin(-radians) * w - std::cos(-radians) * h / 2.0};
    case QCPAxis::atRight:
      if (!rotated) return {0.0, -h / 2.0};
      if (degrees > 0) return {std::sin(radians) * h, -std::cos(radians) * h / 2.0};
      return {0.0, -std::cos(-radians) * h / 2.0};
  }
  return {};
}

/// The least and greatest projection of `points` on the direction `n` (unit length).
std::pair<double, double> projection(const QPolygonF& points, const QPointF& n) {
  double lo = std::numeric_limits<double>::max();
  double hi = std::numeric_limits<double>::lowest();
  for (const QPointF& p : points) {
    const double d = p.x() * n.x() + p.y() * n.y();
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  return {lo, hi};
}

/// Whether an edge of `edges` separates `a` from `b` (with `tolerance` pixels of overlap allowed).
bool separatedByAnEdgeOf(const QPolygonF& edges, const QPolygonF& a, const QPolygonF& b, double tolerance) {
  for (qsizetype i = 0; i < edges.size(); ++i) {
    const QPointF e = edges[(i + 1) % edges.size()] - edges[i];
    const double length = std::hypot(e.x(), e.y());
    if (length <= 1e-9) continue;
    const QPointF n(-e.y() / length, e.x() / length);
    const auto [a_lo, a_hi] = projection(a, n);
    const auto [b_lo, b_hi] = projection(b, n);
    if (a_hi - b_lo <= tolerance || b_hi - a_lo <= tolerance) return true;
  }
  return false;
}

/// Whether the axis has been laid out (its length is known).
bool laidOut(const QCPAxis* axis) {
  const QRect r = axis->axisRect()->rect();
  return r.width() > 0 && r.height() > 0;
}

}  // namespace

QPolygonF tickLabelOutline(const QCPAxis* axis, double coord, const QString& text) {
  QRectF box = QFontMetrics(axis->tickLabelFont()).boundingRect(0, 0, 0, 0, Qt::TextDontClip | Qt::AlignHCenter, text);
  box.moveTopLeft(QPointF(0, 0));
  const double pixel = axis->coordToPixel(coord);
  const QPointF anchor = axis->orientation() == Qt::Horizontal ? QPointF(pixel, 0.0) : QPointF(0.0, pixel);
  const QPointF offset = tickLabelDrawOffset(axis->axisType(), axis->tickLabelRotation(), box.width(), box.height());
  QTransform t;
  t.translate(anchor.x() + offset.x(), anchor.y() + offset.y());
  t.rotate(axis->tickLabelRotation());
  return t.map(QPolygonF(box));
}

bool outlinesOverlap(const QPolygonF& a, const QPolygonF& b, double tolerance) {
  if (a.size() < 3 || b.size() < 3) return false;
  return !separatedByAnEdgeOf(a, a, b, tolerance) && !separatedByAnEdgeOf(b, a, b, tolerance);
}

QStringList overlappingTickLabels(const QCPAxis* axis) {
  QStringList out;
  if (!axis->visible() || !axis->tickLabels()) return out;
  const QVector<double> ticks = axis->tickVector();
  const QVector<QString> labels = axis->tickVectorLabels();
  QVector<QPolygonF> outlines(ticks.size());
  for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
    if (!labels[i].isEmpty() && axis->range().contains(ticks[i]))
      outlines[i] = tickLabelOutline(axis, ticks[i], labels[i]);
  }
  for (qsizetype i = 0; i < outlines.size(); ++i) {
    for (qsizetype j = i + 1; j < outlines.size(); ++j) {
      if (outlinesOverlap(outlines[i], outlines[j])) {
        out << QStringLiteral("\"%1\" overlaps \"%2\"").arg(labels[i], labels[j]);
      }
    }
  }
  return out;
}

namespace {

/// Whether two of `labels` (at `ticks` of `axis`) overlap.
bool anyLabelsOverlap(const QCPAxis* axis, const QVector<double>& ticks, const QVector<QString>& labels) {
  QPolygonF previous;
  for (qsizetype i = 0; i < ticks.size() && i < labels.size(); ++i) {
    if (labels[i].isEmpty() || !axis->range().contains(ticks[i])) continue;
    QPolygonF outline = tickLabelOutline(axis, ticks[i], labels[i]);
    if (outlinesOverlap(previous, outline)) return true;
    previous = std::move(outline);
  }
  return false;
}

const char* const kWantedTickCount = "occxWantedTickCount";
const char* const kFittedTicker = "occxFittedTicker";

}  // namespace

void fitNumericTickLabels(QCustomPlot* plot) {
  for (QCPAxisRect* rect : plot->axisRects()) {
    for (QCPAxis* axis : rect->axes()) {
      const QSharedPointer<QCPAxisTicker> ticker = axis->ticker();
      if (ticker.isNull() || !axis->visible() || !axis->tickLabels() || !laidOut(axis) ||
          !qSharedPointerDynamicCast<QCPAxisTickerText>(ticker).isNull()) {
        continue;
      }
      // The count the plot gave this ticker, remembered the first time it is fitted.
      const auto id = static_cast<qulonglong>(reinterpret_cast<quintptr>(ticker.data()));
      if (axis->property(kFittedTicker).toULongLong() != id) {
        axis->setProperty(kFittedTicker, id);
        axis->setProperty(kWantedTickCount, ticker->tickCount());
      }
      const QString format = axis->numberFormat();
      const QChar format_char = format.isEmpty() ? QLatin1Char('g') : format.at(0);
      for (int count = axis->property(kWantedTickCount).toInt(); count >= 2; --count) {
        ticker->setTickCount(count);
        QVector<double> ticks;
        QVector<QString> labels;
        ticker->generate(axis->range(), plot->locale(), format_char, axis->numberPrecision(), ticks, nullptr, &labels);
        if (!anyLabelsOverlap(axis, ticks, labels)) break;
      }
    }
  }
}

QVector<bool> keptTickLabels(const QCPAxis* axis, const QVector<double>& ticks, const QVector<QString>& labels,
                             const QVector<double>& priority) {
  const qsizetype n = std::min(ticks.size(), labels.size());
  QVector<bool> kept(n, false);
  if (!laidOut(axis)) {  // no length yet: all, until the layout says how long the axis is
    for (qsizetype i = 0; i < n; ++i) kept[i] = !labels[i].isEmpty();
    return kept;
  }
  QVector<QPolygonF> outline(n);
  for (qsizetype i = 0; i < n; ++i) {
    if (!labels[i].isEmpty()) outline[i] = tickLabelOutline(axis, ticks[i], labels[i]);
  }
  QVector<qsizetype> first;  // the priority labels kept
  auto clashes = [&](qsizetype i) {
    return std::any_of(first.begin(), first.end(),
                       [&](qsizetype j) { return outlinesOverlap(outline[i], outline[j]); });
  };
  for (double key : priority) {
    for (qsizetype i = 0; i < n; ++i) {
      if (std::abs(ticks[i] - key) > 1e-9 || labels[i].isEmpty() || kept[i] || clashes(i)) continue;
      kept[i] = true;
      first << i;
    }
  }
  QVector<qsizetype> rest;
  for (qsizetype i = 0; i < n; ++i) {
    if (!kept[i] && !labels[i].isEmpty()) rest << i;
  }
  // Ticks come in axis order, so labels that keep apart from their neighbours keep apart from all.
  for (qsizetype stride = 1; stride <= rest.size(); ++stride) {
    bool apart = true;
    for (qsizetype k = stride; k < rest.size() && apart; k += stride)
      apart = !outlinesOverlap(outline[rest[k - stride]], outline[rest[k]]);
    if (!apart) continue;
    for (qsizetype k = 0; k < rest.size(); k += stride) {
      if (!clashes(rest[k])) kept[rest[k]] = true;
    }
    break;
  }
  return kept;
}

QVector<QString> FittingTextTicker::createLabelVector(const QVector<double>& ticks, const QLocale& locale,
                                                      QChar formatChar, int precision) {
  QVector<QString> labels = QCPAxisTickerText::createLabelVector(ticks, locale, formatChar, precision);
  const QVector<bool> kept = keptTickLabels(axis_, ticks, labels, priority_);
  for (qsizetype i = 0; i < labels.size() && i < kept.size(); ++i) {
    if (!kept[i]) labels[i].clear();
  }
  return labels;
}

}  // namespace occx::ui
