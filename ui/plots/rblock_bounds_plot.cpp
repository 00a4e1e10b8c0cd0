#include "ui/plots/rblock_bounds_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "qcustomplot.h"

namespace occx::ui {

namespace {

const QColor kOldColor(120, 120, 120);
const QColor kNewColor(31, 119, 180);
const QColor kExactColor(44, 160, 44);
const QColor kNeededColor(255, 127, 14);
const QColor kCurrentColor(214, 39, 40);
const QColor kShadeColor(255, 221, 87, 90);

QString outcomeText(inductor::Outcome o) {
  return QString::fromUtf8(inductor::outcomeName(o).data());
}

}  // namespace

RblockBoundsPlot::RblockBoundsPlot(QWidget* parent)
    : PlotController(tr("Resident blocks per SM against registers per thread"), parent) {
  QCustomPlot* p = plot();
  p->setObjectName(QStringLiteral("rblockBoundsPlot"));
  setAxisLabels(tr("Registers per thread (n_regs)"), tr("Resident blocks per SM (bound)"));

  QCPGraph* old_g = p->addGraph();
  old_g->setName(tr("old bound: threads/SM // (32 · num_warps)"));
  old_g->setPen(QPen(kOldColor, 2, Qt::DashLine));
  old_g->setLineStyle(QCPGraph::lsLine);

  QCPGraph* new_g = p->addGraph();
  new_g->setName(tr("new bound: max(regs/SM // (n_regs · 32 · num_warps), 1)"));
  new_g->setPen(QPen(kNewColor, 2));
  new_g->setLineStyle(QCPGraph::lsStepLeft);

  QCPGraph* exact_g = p->addGraph();
  exact_g->setName(tr("exact: occupancy calculator"));
  exact_g->setPen(QPen(kExactColor, 2));
  exact_g->setLineStyle(QCPGraph::lsStepLeft);

  QCPGraph* needed_g = p->addGraph();
  needed_g->setName(tr("blocks needed per SM for one wave"));
  needed_g->setPen(QPen(kNeededColor, 1.5, Qt::DashDotLine));
  needed_g->setLineStyle(QCPGraph::lsLine);

  QCPGraph* current_g = p->addGraph();
  current_g->setName(tr("current config"));
  current_g->setLineStyle(QCPGraph::lsNone);
  current_g->setScatterStyle(
      QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(kCurrentColor, 1.5), QBrush(kCurrentColor), 11));
  current_g->setPen(QPen(kCurrentColor));

  QCPGraph* shade_g = p->addGraph();
  shade_g->setName(tr("n_regs where old and new decide differently"));
  shade_g->setLineStyle(QCPGraph::lsNone);
  shade_g->setPen(Qt::NoPen);
  shade_g->setBrush(QBrush(kShadeColor));

  auto* line = new QCPItemStraightLine(p);
  line->setPen(QPen(kCurrentColor, 1, Qt::DashLine));
  line->setSelectable(false);
  line->setVisible(false);
  line->setProperty("occxCurrentLine", true);

  auto regs_ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  regs_ticker->setTickStep(32);
  regs_ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples);
  p->xAxis->setTicker(regs_ticker);
  setIntegerTicks(Axis::kY);  // resident blocks per SM: a count
  p->xAxis->setRange(0, 260);
  setLegendColumns(2);
}

void RblockBoundsPlot::setData(const inductor::BoundCurves& curves, int sm_count, int current_n_regs,
                               int current_bound) {
  curves_ = curves;
  shaded_ = curves.old_new_disagree;
  sm_count_ = sm_count;
  QCustomPlot* p = plot();

  QVector<double> xs, old_y, new_y, exact_y, needed_y;
  int exact_max = 0;
  int old_b = 0;
  for (const auto& pt : curves.points) {
    xs.append(pt.n_regs);
    old_y.append(pt.old_bound);
    new_y.append(pt.new_bound);
    exact_y.append(pt.exact_bound);
    needed_y.append(curves.blocks_needed_per_sm);
    exact_max = std::max(exact_max, pt.exact_bound);
    old_b = pt.old_bound;
  }
  p->graph(kOldGraph)->setData(xs, old_y, true);
  p->graph(kNewGraph)->setData(xs, new_y, true);
  p->graph(kExactGraph)->setData(xs, exact_y, true);
  p->graph(kNeededGraph)->setData(xs, needed_y, true);

  const double base = std::max({1.0, static_cast<double>(old_b), static_cast<double>(exact_max)});
  const double top = std::max(base, std::min(curves.blocks_needed_per_sm, 2.0 * base)) * 1.15 + 1.0;
  p->yAxis->setRange(0, top);
  // Room right of n_regs 255 keeps a marker there whole.
  p->xAxis->setRange(0, xs.isEmpty() ? 260.0 : xs.back() + 5.0);

  QString needed_name = tr("blocks needed per SM for one wave: %1 / %2 = %3")
                            .arg(curves.total_blocks)
                            .arg(sm_count)
                            .arg(curves.blocks_needed_per_sm, 0, 'f', 2);
  if (curves.blocks_needed_per_sm > top) needed_name += tr(" (above the plot)");
  p->graph(kNeededGraph)->setName(needed_name);
  p->graph(kOldGraph)->setName(tr("old bound: threads/SM // (32 · %1) = %2 (flat)").arg(curves.num_warps).arg(old_b));
  p->graph(kNewGraph)->setName(tr("new bound: max(regs/SM // (n_regs · 32 · %1), 1)").arg(curves.num_warps));

  showCurrent(current_n_regs, current_bound);
  showShaded(top);
  requestReplot();
}

// The current config's point and its vertical line (n_regs unknown: neither).
void RblockBoundsPlot::showCurrent(int current_n_regs, int current_bound) {
  QCustomPlot* p = plot();
  QCPItemStraightLine* line = nullptr;
  for (int i = 0; i < p->itemCount(); ++i) {
    if (p->item(i)->property("occxCurrentLine").toBool()) line = qobject_cast<QCPItemStraightLine*>(p->item(i));
  }
  if (current_n_regs > 0) {
    p->graph(kCurrentGraph)
        ->setData(QVector<double>{static_cast<double>(current_n_regs)},
                  QVector<double>{static_cast<double>(current_bound)}, true);
    p->graph(kCurrentGraph)->setName(tr("current: %1 registers → new bound %2").arg(current_n_regs).arg(current_bound));
    if (line) {
      line->point1->setCoords(current_n_regs, 0);
      line->point2->setCoords(current_n_regs, 1);
      line->setVisible(true);
    }
  } else {
    p->graph(kCurrentGraph)->data()->clear();
    p->graph(kCurrentGraph)->setName(tr("current: n_regs unknown"));
    if (line) line->setVisible(false);
  }
}

// The n_regs ranges where the old and new bounds disagree, shaded up to `top` and named in the legend.
void RblockBoundsPlot::showShaded(double top) {
  QCustomPlot* p = plot();
  // Shaded ranges: remove the old rectangles, add one per range, under the graphs.
  for (int i = p->itemCount() - 1; i >= 0; --i) {
    if (p->item(i)->property("occxShade").toBool()) p->removeItem(i);
  }
  for (const auto& r : shaded_) {
    auto* rect = new QCPItemRect(p);
    rect->setProperty("occxShade", true);
    rect->setLayer(QStringLiteral("grid"));
    rect->setPen(Qt::NoPen);
    rect->setBrush(QBrush(kShadeColor));
    rect->topLeft->setCoords(r.first - 0.5, top * 10.0);
    rect->bottomRight->setCoords(r.last + 0.5, 0);
    rect->setSelectable(false);
  }
  QString shade_name = tr("n_regs where old and new decide differently");
  if (shaded_.empty()) {
    shade_name += tr(": none");
  } else {
    QStringList parts;
    for (const auto& r : shaded_)
      parts << (r.first == r.last ? QString::number(r.first) : QStringLiteral("%1–%2").arg(r.first).arg(r.last));
    shade_name += QStringLiteral(": ") + parts.join(QStringLiteral(", "));
  }
  p->graph(kDisagreeGraph)->setName(shade_name);
}

QPointF RblockBoundsPlot::shadedExtent(int index) const {
  if (index < 0 || static_cast<std::size_t>(index) >= shaded_.size()) return {};
  const auto& r = shaded_[static_cast<std::size_t>(index)];
  return {r.first - 0.5, r.last + 0.5};
}

double RblockBoundsPlot::yUpper() const {
  return plot()->yAxis->range().upper;
}

QString RblockBoundsPlot::toolTipAt(double x, double /*y*/) const {
  if (curves_.points.empty()) return {};
  const auto n = static_cast<long>(std::lround(x));
  const auto& pts = curves_.points;
  const auto idx =
      static_cast<std::size_t>(std::clamp<long>(n, pts.front().n_regs, pts.back().n_regs) - pts.front().n_regs);
  const auto& pt = pts[idx];
  return tr("%1 registers per thread, num_warps %2\nold bound %3 → %4\nnew bound %5 → %6\nexact bound %7 → %8\n"
            "blocks needed per SM for one wave: %9")
      .arg(pt.n_regs)
      .arg(curves_.num_warps)
      .arg(pt.old_bound)
      .arg(outcomeText(pt.old_outcome))
      .arg(pt.new_bound)
      .arg(outcomeText(pt.new_outcome))
      .arg(pt.exact_bound)
      .arg(outcomeText(pt.exact_outcome))
      .arg(curves_.blocks_needed_per_sm, 0, 'f', 2);
}

}  // namespace occx::ui
