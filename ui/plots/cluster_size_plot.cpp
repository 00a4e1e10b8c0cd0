#include "ui/plots/cluster_size_plot.h"

#include <algorithm>
#include <cmath>

#include "qcustomplot.h"

namespace occx::ui {

namespace {
const QColor kModelColor(31, 119, 180);
const QColor kNaiveColor(150, 150, 150);
const QColor kDriverColor(44, 160, 44);
const QColor kClusterMarkerColor(214, 39, 40);
}  // namespace

ClusterSizePlot::ClusterSizePlot(QWidget* parent) : PlotController(tr("Impact of varying cluster size"), parent) {
  QCustomPlot* p = plot();
  p->setObjectName(QStringLiteral("clusterSizePlot"));
  QCPGraph* model = p->addGraph();
  model->setPen(QPen(kModelColor, 2));
  model->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, kModelColor, kModelColor, 5));
  QCPGraph* naive = p->addGraph();
  naive->setName(tr("Naive: floor(blocks / size)"));
  naive->setPen(QPen(kNaiveColor, 1.5, Qt::DashLine));
  QCPGraph* driver = p->addGraph();
  driver->setName(tr("Driver"));
  driver->setLineStyle(QCPGraph::lsNone);
  driver->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QPen(kDriverColor, 2), QBrush(), 10));
  QCPGraph* marker = p->addGraph();
  marker->setLineStyle(QCPGraph::lsNone);
  marker->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(kClusterMarkerColor, 1.5), QBrush(kClusterMarkerColor), 11));
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(1);
  ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  p->xAxis->setTicker(ticker);
  setIntegerTicks(Axis::kY);
  setLegendColumns(2);
  setYMeasure(YMeasure::Warps);
}

void ClusterSizePlot::setYMeasure(YMeasure measure) {
  measure_ = measure;
  setAxisLabels(tr("Cluster size (blocks)"),
                measure_ == YMeasure::Warps ? tr("Active clusters on the GPU") : tr("Cluster occupancy (%)"));
  replotData();
}

double ClusterSizePlot::plottedY(std::int64_t clusters, int size) const {
  if (measure_ == YMeasure::Warps) return static_cast<double>(clusters);
  return blocks_ > 0 ? 100.0 * static_cast<double>(clusters * size) / static_cast<double>(blocks_) : 0.0;
}

void ClusterSizePlot::setData(const std::vector<ClusterCurvePoint>& points, std::int64_t blocks_without_clusters,
                              const std::vector<int>& driver, int current_size, bool layout_known,
                              const QString& note) {
  points_ = points;
  blocks_ = blocks_without_clusters;
  driver_ = driver;
  current_ = current_size;
  layout_known_ = layout_known;
  note_ = note;
  replotData();
}

void ClusterSizePlot::replotData() {
  QCustomPlot* p = plot();
  if (p->graphCount() < 4) return;
  QVector<double> xs, model, naive, dx, dy;
  double top = 1.0;
  for (const auto& pt : points_) {
    xs.append(pt.cluster_size);
    model.append(plottedY(pt.max_active_clusters, pt.cluster_size));
    naive.append(plottedY(blocks_ / pt.cluster_size, pt.cluster_size));
    top = std::max({top, model.back(), naive.back()});
  }
  for (std::size_t i = 0; i < driver_.size(); ++i) {
    if (driver_[i] < 0) continue;
    dx.append(static_cast<double>(i + 1));
    dy.append(plottedY(driver_[i], static_cast<int>(i + 1)));
    top = std::max(top, dy.back());
  }
  p->graph(0)->setName(layout_known_ ? tr("Model: GPC packing") : tr("Upper bound (GPC layout unknown)"));
  p->graph(0)->setData(xs, model, true);
  if (layout_known_) {
    p->graph(1)->setData(xs, naive, true);
  } else {
    p->graph(1)->data()->clear();
  }
  p->graph(1)->setVisible(layout_known_);
  p->graph(1)->removeFromLegend();
  if (layout_known_) p->graph(1)->addToLegend();
  p->graph(2)->setData(dx, dy, true);
  p->graph(2)->removeFromLegend();
  if (!dx.isEmpty()) p->graph(2)->addToLegend();
  QVector<double> mx, my;
  if (current_ > 0 && current_ <= static_cast<int>(points_.size())) {
    const auto& pt = points_[static_cast<std::size_t>(current_ - 1)];
    mx.append(current_);
    my.append(plottedY(pt.max_active_clusters, current_));
    p->graph(3)->setName(measure_ == YMeasure::Warps
                             ? tr("Current: size %1 → %2 clusters").arg(current_).arg(pt.max_active_clusters)
                             : tr("Current: size %1 → %2 %").arg(current_).arg(my.back(), 0, 'f', 1));
  } else {
    p->graph(3)->setName(points_.empty() ? (note_.isEmpty() ? tr("No clusters") : note_)
                                         : tr("Current: no cluster size set"));
  }
  p->graph(3)->setData(mx, my, true);
  const double x_end = points_.empty() ? 8.0 : static_cast<double>(points_.size());
  p->xAxis->setRange(0.5, x_end + 0.5);
  p->yAxis->setRange(0, measure_ == YMeasure::Warps ? top * 1.1 : 110.0);
  requestReplot();
}

QString ClusterSizePlot::toolTipAt(double x, double /*y*/) const {
  const int size = static_cast<int>(std::lround(x));
  if (size < 1 || size > static_cast<int>(points_.size())) return {};
  const auto& pt = points_[static_cast<std::size_t>(size - 1)];
  QString text = tr("Cluster size %1\nMax active clusters: %2 (%3 blocks)")
                     .arg(size)
                     .arg(pt.max_active_clusters)
                     .arg(pt.active_blocks_in_clusters);
  if (blocks_ > 0) {
    text +=
        tr("\nCluster occupancy: %1 %")
            .arg(100.0 * static_cast<double>(pt.active_blocks_in_clusters) / static_cast<double>(blocks_), 0, 'f', 1);
    text += tr("\nNaive floor(%1 / %2) = %3").arg(blocks_).arg(size).arg(blocks_ / size);
  }
  if (static_cast<std::size_t>(size) <= driver_.size() && driver_[static_cast<std::size_t>(size - 1)] >= 0) {
    text += tr("\nDriver: %1").arg(driver_[static_cast<std::size_t>(size - 1)]);
  }
  return text;
}

}  // namespace occx::ui
