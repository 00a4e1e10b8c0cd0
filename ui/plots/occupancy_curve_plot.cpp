#include "ui/plots/occupancy_curve_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "qcustomplot.h"

namespace occx::ui {

namespace {

const QColor kCurveColor(31, 119, 180);
const QColor kCurveMarkerColor(214, 39, 40);

QString kbText(std::int64_t bytes) {
  const double kb = static_cast<double>(bytes) / 1024.0;
  return bytes % 1024 == 0 ? QString::number(bytes / 1024) : QString::number(kb, 'f', 2);
}

}  // namespace

OccupancyCurvePlot::OccupancyCurvePlot(CurveKind kind, QWidget* parent)
    : PlotController(QString(), parent), kind_(kind) {
  QCustomPlot* p = plot();
  switch (kind_) {
    case CurveKind::BlockSize:
      setTitle(tr("Impact of varying block size"));
      setAxisLabels(tr("Threads per block"), tr("Active warps per SM"));
      break;
    case CurveKind::Registers:
      setTitle(tr("Impact of varying register count per thread"));
      setAxisLabels(tr("Registers per thread"), tr("Active warps per SM"));
      break;
    case CurveKind::SharedMemory:
      setTitle(tr("Impact of varying shared memory per block"));
      setAxisLabels(tr("Shared memory per block (KB, static + dynamic)"), tr("Active warps per SM"));
      break;
    case CurveKind::BlockBarriers:
      setTitle(tr("Impact of varying block barriers"));
      setAxisLabels(tr("Block barriers per block (counted from CC 9.0)"), tr("Active warps per SM"));
      break;
  }
  p->setObjectName(kind_ == CurveKind::BlockSize      ? QStringLiteral("blockSizePlot")
                   : kind_ == CurveKind::Registers    ? QStringLiteral("registersPlot")
                   : kind_ == CurveKind::SharedMemory ? QStringLiteral("sharedMemoryPlot")
                                                      : QStringLiteral("blockBarriersPlot"));

  QCPGraph* curve = p->addGraph();
  curve->setName(tr("Active warps per SM"));
  curve->setPen(QPen(kCurveColor, 2));
  if (kind_ == CurveKind::BlockSize) {
    curve->setLineStyle(QCPGraph::lsLine);
    curve->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kCurveColor, kCurveColor, 4));
  } else {
    // Every integer register count / allocation unit is sampled: show the steps as they are.
    curve->setLineStyle(QCPGraph::lsStepLeft);
  }

  QCPGraph* marker = p->addGraph();
  marker->setName(tr("Current configuration"));
  marker->setLineStyle(QCPGraph::lsNone);
  marker->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(kCurveMarkerColor, 1.5), QBrush(kCurveMarkerColor), 11));
  marker->setPen(QPen(kCurveMarkerColor));

  auto* line = new QCPItemStraightLine(p);
  line->setObjectName(QStringLiteral("currentLine"));
  line->setPen(QPen(kCurveMarkerColor, 1, Qt::DashLine));
  line->setSelectable(false);
  line->setProperty("occxCurrentLine", true);

  // Right axis: the same scale as theoretical occupancy in percent (in YMeasure::Warps).
  p->yAxis2->setVisible(true);
  p->yAxis2->setLabel(tr("Theoretical occupancy (%)"));
  connect(p->yAxis, qOverload<const QCPRange&>(&QCPAxis::rangeChanged), this, [this](const QCPRange& r) {
    if (max_warps_ > 0 && measure_ == YMeasure::Warps) {
      plot()->yAxis2->setRange(r.lower * 100.0 / max_warps_, r.upper * 100.0 / max_warps_);
    }
  });

  auto fixed = QSharedPointer<QCPAxisTickerFixed>::create();
  fixed->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  if (kind_ == CurveKind::BlockSize) {
    fixed->setTickStep(128);
    p->xAxis->setTicker(fixed);
  } else if (kind_ == CurveKind::Registers) {
    fixed->setTickStep(32);
    p->xAxis->setTicker(fixed);
  } else if (kind_ == CurveKind::BlockBarriers) {
    fixed->setTickStep(2);
    p->xAxis->setTicker(fixed);
  }
  applyYMeasure();
  setLegendColumns(2);
}

void OccupancyCurvePlot::applyYMeasure() {
  QCustomPlot* p = plot();
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  const QString x_label = p->xAxis->label();
  if (measure_ == YMeasure::Warps) {
    ticker->setTickStep(8);
    setAxisLabels(x_label, tr("Active warps per SM"));
    p->yAxis2->setVisible(true);
    p->graph(0)->setName(tr("Active warps per SM"));
  } else {
    ticker->setTickStep(25);
    setAxisLabels(x_label, tr("Theoretical occupancy (%)"));
    p->yAxis2->setVisible(false);
    p->graph(0)->setName(tr("Theoretical occupancy (%)"));
  }
  p->yAxis->setTicker(ticker);
}

void OccupancyCurvePlot::setYMeasure(YMeasure measure) {
  if (measure == measure_) return;
  measure_ = measure;
  applyYMeasure();
  replotData();
}

double OccupancyCurvePlot::plottedY(int warps) const {
  if (measure_ == YMeasure::Warps) return warps;
  return max_warps_ > 0 ? 100.0 * warps / max_warps_ : 0.0;
}

double OccupancyCurvePlot::plottedX(std::int64_t x) const {
  return kind_ == CurveKind::SharedMemory ? static_cast<double>(x) / 1024.0 : static_cast<double>(x);
}

void OccupancyCurvePlot::setData(const std::vector<CurvePoint>& points, int max_warps_per_sm, std::int64_t current_x,
                                 int current_warps, bool current_can_launch) {
  points_ = points;
  max_warps_ = max_warps_per_sm;
  current_x_ = current_x;
  current_warps_ = current_can_launch ? current_warps : 0;
  current_can_launch_ = current_can_launch;
  replotData();
}

void OccupancyCurvePlot::replotData() {
  const auto& points = points_;
  const std::int64_t current_x = current_x_;
  const bool current_can_launch = current_can_launch_;
  const int max_warps_per_sm = max_warps_;
  QCustomPlot* p = plot();
  QVector<double> xs;
  QVector<double> ys;
  xs.reserve(static_cast<int>(points.size()));
  ys.reserve(static_cast<int>(points.size()));
  for (const auto& pt : points) {
    xs.append(plottedX(pt.x));
    ys.append(plottedY(pt.active_warps_per_sm));
  }
  p->graph(0)->setData(xs, ys, true);

  const double mx = plottedX(current_x);
  p->graph(1)->setData(QVector<double>{mx}, QVector<double>{plottedY(current_warps_)}, true);
  QString current;
  switch (kind_) {
    case CurveKind::BlockSize:
      current = tr("%1 threads").arg(current_x);
      break;
    case CurveKind::Registers:
      current = tr("%1 registers").arg(current_x);
      break;
    case CurveKind::SharedMemory:
      current = tr("%1 KB").arg(kbText(current_x));
      break;
    case CurveKind::BlockBarriers:
      current = current_x == 1 ? tr("1 barrier") : tr("%1 barriers").arg(current_x);
      break;
  }
  const QString value = measure_ == YMeasure::Warps ? warpCountText(current_warps_)
                                                    : QStringLiteral("%1 %").arg(plottedY(current_warps_), 0, 'f', 1);
  p->graph(1)->setName(current_can_launch ? tr("Current: %1 → %2").arg(current, value)
                                          : tr("Current: %1 → cannot launch").arg(current));

  for (int i = 0; i < p->itemCount(); ++i) {
    if (auto* line = qobject_cast<QCPItemStraightLine*>(p->item(i))) {
      line->point1->setCoords(mx, 0);
      line->point2->setCoords(mx, 1);
    }
  }

  // Axes: x from 0 to the end of the sweep (or the current value, if further), y to max warps + 10 %.
  double x_end = xs.isEmpty() ? 1.0 : xs.back();
  x_end = std::max(x_end, mx);
  // A little room left of 0 keeps a marker at x = 0 (no shared memory, 0 registers) whole.
  double upper = 1.0;
  switch (kind_) {
    case CurveKind::BlockSize:
      upper = x_end + 32;
      break;
    case CurveKind::Registers:
      upper = x_end + 1;
      break;
    case CurveKind::SharedMemory:
      upper = std::max(1.0, x_end * 1.02);
      break;
    case CurveKind::BlockBarriers:
      upper = x_end + 0.5;
      break;
  }
  p->xAxis->setRange(kind_ == CurveKind::BlockBarriers ? -0.5 : -0.02 * upper, upper);
  p->yAxis->setRange(0, (measure_ == YMeasure::Warps ? std::max(1, max_warps_per_sm) : 100) * 1.1);
  requestReplot();
}

QPointF OccupancyCurvePlot::markerPosition() const {
  const QVector<QPointF> pts = graphPoints(1);
  return pts.isEmpty() ? QPointF() : pts.front();
}

QString OccupancyCurvePlot::describeX(std::int64_t x) const {
  switch (kind_) {
    case CurveKind::BlockSize:
      return tr("%1 threads per block (%2)").arg(x).arg(warpCountText((x + 31) / 32));
    case CurveKind::Registers:
      return tr("%1 registers per thread").arg(x);
    case CurveKind::SharedMemory:
      return tr("%1 KB (%2 B) shared memory per block").arg(kbText(x)).arg(x);
    case CurveKind::BlockBarriers:
      return tr("%1 block barriers per block").arg(x);
  }
  return {};
}

QString OccupancyCurvePlot::toolTipAt(double x, double /*y*/) const {
  if (points_.empty()) return {};
  const CurvePoint* nearest = nullptr;
  double best = std::numeric_limits<double>::max();
  for (const auto& pt : points_) {
    const double d = std::abs(plottedX(pt.x) - x);
    if (d < best) {
      best = d;
      nearest = &pt;
    }
  }
  QString text = describeX(nearest->x);
  if (nearest->active_blocks_per_sm == 0) {
    text += tr("\nCannot launch");
  } else {
    text += tr("\nActive warps per SM: %1 of %2 (%3 %)\nActive blocks per SM: %4\nLimited by: %5")
                .arg(nearest->active_warps_per_sm)
                .arg(max_warps_)
                .arg(100.0 * nearest->occupancy, 0, 'f', 1)
                .arg(nearest->active_blocks_per_sm)
                .arg(QString::fromStdString(limiterNames(nearest->limiters)));
  }
  if (nearest->x == current_x_) text += tr("\n(current configuration)");
  return text;
}

}  // namespace occx::ui
