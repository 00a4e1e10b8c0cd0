#include "ui/plots/sweep_series_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "qcustomplot.h"
#include "ui/plots/tick_labels.h"

namespace occx::ui {

namespace {

QCPScatterStyle::ScatterShape toShape(MarkerShape s) {
  switch (s) {
    case MarkerShape::kCircle:
      return QCPScatterStyle::ssCircle;
    case MarkerShape::kSquare:
      return QCPScatterStyle::ssSquare;
    case MarkerShape::kTriangle:
      return QCPScatterStyle::ssTriangle;
    case MarkerShape::kStar:
      return QCPScatterStyle::ssStar;
    case MarkerShape::kDiamond:
      return QCPScatterStyle::ssDiamond;
    case MarkerShape::kCross:
      return QCPScatterStyle::ssCross;
  }
  return QCPScatterStyle::ssCircle;
}

/// Sorts points by x (QCustomPlot keeps graph data sorted by key), keeping y and rows in step.
void sortByX(QVector<double>& x, QVector<double>& y, QVector<int>& rows, QVector<double>* minus = nullptr,
             QVector<double>* plus = nullptr) {
  QVector<int> order(x.size());
  for (int i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&x](int a, int b) { return x[a] < x[b]; });
  auto permute = [&order](auto& v) {
    if (v.size() != order.size()) return;
    auto copy = v;
    for (int i = 0; i < order.size(); ++i) v[i] = copy[order[i]];
  };
  permute(x);
  permute(y);
  permute(rows);
  if (minus != nullptr) permute(*minus);
  if (plus != nullptr) permute(*plus);
}

QString powerOfTwoLabel(double v) {
  const auto n = static_cast<qint64>(std::llround(v));
  return QString::number(n);
}

}  // namespace

QColor numWarpsColor(int num_warps) {
  switch (num_warps) {
    case 1:
      return {140, 86, 75};
    case 2:
      return {148, 103, 189};
    case 4:
      return {31, 119, 180};
    case 8:
      return {44, 160, 44};
    case 16:
      return {255, 127, 14};
    case 32:
      return {23, 190, 207};
    default:
      return {127, 127, 127};
  }
}

SweepSeriesPlot::SweepSeriesPlot(const QString& title, const QString& object_name, QWidget* parent)
    : PlotController(title, parent) {
  QCustomPlot* p = plot();
  p->setObjectName(object_name);
  p->xAxis->setScaleType(QCPAxis::stLogarithmic);
  p->xAxis->setTicker(QSharedPointer<FittingTextTicker>::create(p->xAxis));
  p->xAxis->grid()->setSubGridVisible(false);
  setLegendColumns(4);
}

void SweepSeriesPlot::clear() {
  QCustomPlot* p = plot();
  p->clearPlottables();  // graphs and error bars
  p->clearItems();
  rows_.clear();
  reference_lines_.clear();
  note_.clear();
  corner_note_.clear();
}

void SweepSeriesPlot::show(const SweepPlotData& data) {
  clear();
  for (const SweepSeriesData& s : data.series) {
    addSeries(s.name, s.x, s.y, s.rows, numWarpsColor(s.num_warps), s.dashed ? Qt::DashLine : Qt::SolidLine, s.minus,
              s.plus);
  }
  for (const SweepReferenceLine& l : data.lines) addReferenceLine(l.y, l.name, l.color, l.style);
  for (const SweepMarkers& m : data.markers) {
    addMarkers(m.name, m.x, m.y, m.rows, m.shape, m.color, m.size, /*filled=*/false, m.in_legend);
  }
  finish(data.y_lo, data.y_hi);
  if (!data.title.isEmpty()) setTitle(data.title);
  setNote(data.note);
  setCornerNote(data.corner_note);
}

int SweepSeriesPlot::addSeries(const QString& name, QVector<double> x, QVector<double> y, QVector<int> rows,
                               const QColor& color, Qt::PenStyle style, QVector<double> minus, QVector<double> plus) {
  const bool bars = !minus.isEmpty() && minus.size() == x.size() && plus.size() == x.size();
  sortByX(x, y, rows, &minus, &plus);
  QCPGraph* g = plot()->addGraph();
  g->setName(name);
  g->setPen(QPen(color, 2, style));
  g->setLineStyle(QCPGraph::lsLine);
  g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 1.5), QBrush(Qt::white), 6));
  g->setData(x, y, true);
  rows_[g] = rows;
  if (bars) {
    auto* eb = new QCPErrorBars(plot()->xAxis, plot()->yAxis);
    eb->removeFromLegend();
    eb->setDataPlottable(g);
    eb->setData(minus, plus);
    QColor bar = color;
    bar.setAlpha(110);
    eb->setPen(QPen(bar, 1));
    eb->setWhiskerWidth(5);
  }
  return plot()->graphCount() - 1;
}

int SweepSeriesPlot::addReferenceLine(double y, const QString& name, const QColor& color, Qt::PenStyle style) {
  QCPGraph* g = plot()->addGraph();
  g->setName(name);
  g->setPen(QPen(color, 1.5, style));
  g->setLineStyle(QCPGraph::lsLine);
  g->setData(QVector<double>{1.0, 2.0}, QVector<double>{y, y}, true);  // stretched by finish()
  reference_lines_.push_back(g);
  return plot()->graphCount() - 1;
}

int SweepSeriesPlot::addMarkers(const QString& name, QVector<double> x, QVector<double> y, QVector<int> rows,
                                MarkerShape shape, const QColor& color, double size, bool filled, bool in_legend) {
  sortByX(x, y, rows);
  QCPGraph* g = plot()->addGraph();
  g->setName(name);
  g->setLineStyle(QCPGraph::lsNone);
  g->setPen(QPen(color, 2));
  g->setScatterStyle(
      QCPScatterStyle(toShape(shape), QPen(color, 2), filled ? QBrush(color) : QBrush(Qt::NoBrush), size));
  g->setData(x, y, true);
  rows_[g] = rows;
  if (!in_legend) g->removeFromLegend();
  return plot()->graphCount() - 1;
}

void SweepSeriesPlot::finish(double y_lo, double y_hi) {
  QCustomPlot* p = plot();
  double lo = std::numeric_limits<double>::max();
  double hi = 0.0;
  for (const auto& [g, rows] : rows_) {
    const auto data = g->data();
    for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
      if (it->key > 0) {
        lo = std::min(lo, it->key);
        hi = std::max(hi, it->key);
      }
    }
  }
  if (hi <= 0.0) {
    lo = 256;
    hi = 8192;
  }
  x_lo_ = lo / 1.5;
  x_hi_ = hi * 1.5;
  p->xAxis->setRange(x_lo_, x_hi_);
  auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(p->xAxis->ticker());
  if (ticker) {
    ticker->clear();
    // Every power of two; those whose labels would overlap at the axis's length are left unlabelled.
    for (double t = 1; t <= hi; t *= 2) {
      if (t >= lo) ticker->addTick(t, powerOfTwoLabel(t));
    }
  }
  for (QCPGraph* g : reference_lines_) {
    const double y = g->data()->isEmpty() ? 0.0 : g->data()->constBegin()->value;
    g->setData(QVector<double>{x_lo_, x_hi_}, QVector<double>{y, y}, true);
  }
  p->yAxis->setRange(y_lo, y_hi);
  requestReplot();
}

void SweepSeriesPlot::setNote(const QString& text) {
  QCustomPlot* p = plot();
  for (int i = p->itemCount() - 1; i >= 0; --i) {
    if (p->item(i)->property("occxNote").toBool()) p->removeItem(i);
  }
  note_ = text;
  if (text.isEmpty()) {
    requestReplot();
    return;
  }
  auto* label = new QCPItemText(p);
  label->setProperty("occxNote", true);
  label->position->setType(QCPItemPosition::ptAxisRectRatio);
  label->position->setCoords(0.5, 0.5);
  label->setPositionAlignment(Qt::AlignCenter);
  // "No data: open a CSV or a bundled dataset" on two lines, so it fits a narrow axis rect.
  QString shown = text;
  if (const auto colon = shown.indexOf(QLatin1String(": ")); colon > 0 && shown.size() > 32)
    shown.replace(colon, 2, QStringLiteral(":\n"));
  label->setText(shown);
  label->setTextAlignment(Qt::AlignCenter);
  label->setColor(QColor(110, 110, 110));
  QFont f = p->font();
  f.setPointSize(10);
  label->setFont(f);
  label->setPadding(QMargins(8, 6, 8, 6));
  label->setBrush(QBrush(QColor(255, 255, 255, 220)));
  requestReplot();
}

void SweepSeriesPlot::setCornerNote(const QString& text) {
  QCustomPlot* p = plot();
  for (int i = p->itemCount() - 1; i >= 0; --i) {
    if (p->item(i)->property("occxCornerNote").toBool()) p->removeItem(i);
  }
  corner_note_ = text;
  if (!text.isEmpty()) {
    auto* label = new QCPItemText(p);
    label->setProperty("occxCornerNote", true);
    label->position->setType(QCPItemPosition::ptAxisRectRatio);
    label->position->setCoords(0.99, 0.01);
    label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);
    label->setTextAlignment(Qt::AlignRight);
    label->setText(text);
    label->setColor(QColor(110, 110, 110));
    QFont f = p->font();
    f.setPointSize(8);
    label->setFont(f);
    label->setBrush(QBrush(QColor(255, 255, 255, 220)));
  }
  requestReplot();
}

int SweepSeriesPlot::graphIndex(const QString& name) const {
  for (int i = 0; i < plot()->graphCount(); ++i) {
    if (plot()->graph(i)->name() == name) return i;
  }
  return -1;
}

QVector<int> SweepSeriesPlot::graphRows(int graph) const {
  if (graph < 0 || graph >= plot()->graphCount()) return {};
  const auto it = rows_.find(plot()->graph(graph));
  return it == rows_.end() ? QVector<int>() : it->second;
}

QVector<double> SweepSeriesPlot::xTicks() const {
  auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(plot()->xAxis->ticker());
  QVector<double> out;
  if (ticker) {
    for (auto it = ticker->ticks().constBegin(); it != ticker->ticks().constEnd(); ++it) out.append(it.key());
  }
  return out;
}

int SweepSeriesPlot::errorBarCount() const {
  int n = 0;
  for (int i = 0; i < plot()->plottableCount(); ++i) {
    if (qobject_cast<QCPErrorBars*>(plot()->plottable(i)) != nullptr) ++n;
  }
  return n;
}

QString SweepSeriesPlot::xAxisLabel() const {
  return plot()->xAxis->label();
}
QString SweepSeriesPlot::yAxisLabel() const {
  return plot()->yAxis->label();
}

QString SweepSeriesPlot::toolTipAt(double x, double y) const {
  if (!describe_) return {};
  const QCustomPlot* p = plot();
  const double px = p->xAxis->coordToPixel(x);
  const double py = p->yAxis->coordToPixel(y);
  double best = 24.0 * 24.0;  // pixels²: only points near the mouse
  int best_row = -1;
  QString best_graph;
  for (const auto& [g, rows] : rows_) {
    const auto data = g->data();
    int i = 0;
    for (auto it = data->constBegin(); it != data->constEnd(); ++it, ++i) {
      const double dx = p->xAxis->coordToPixel(it->key) - px;
      const double dy = p->yAxis->coordToPixel(it->value) - py;
      const double d = dx * dx + dy * dy;
      if (d < best && i < rows.size()) {
        best = d;
        best_row = rows[i];
        best_graph = g->name();
      }
    }
  }
  if (best_row < 0) return {};
  return best_graph + QLatin1Char('\n') + describe_(best_row);
}

}  // namespace occx::ui
