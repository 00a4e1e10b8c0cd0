#include "ui/plots/config_occupancy_plot.h"

#include <cmath>

#include "qcustomplot.h"
#include "ui/models/inductor_run_models.h"
#include "ui/plots/bars.h"
#include "ui/plots/tick_labels.h"

namespace occx::ui {

ConfigOccupancyPlot::ConfigOccupancyPlot(QWidget* parent)
    : PlotController(tr("Theoretical occupancy per compiled config"), parent) {
  QCustomPlot* p = plot();
  p->setObjectName(QStringLiteral("configOccupancyPlot"));
  configs_ = makeBars(p->xAxis, p->yAxis, tr("Compiled config"), QColor(31, 119, 180));
  winner_ = makeBars(p->xAxis, p->yAxis, tr("Autotuner's winner"), QColor(44, 160, 44));
  selected_bar_ = makeBars(p->xAxis, p->yAxis, tr("Selected"), QColor(255, 127, 14));
  setAxisLabels(tr("Compiled config (XBLOCK, R0_BLOCK, num_warps)"), tr("Theoretical occupancy (%)"));
  p->yAxis->setRange(0, 105);
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(25);
  p->yAxis->setTicker(ticker);
  p->xAxis->setTicker(QSharedPointer<FittingTextTicker>::create(p->xAxis));
  p->xAxis->setTickLabelRotation(30);
  p->xAxis->grid()->setVisible(false);
  setLegendColumns(3);
}

void ConfigOccupancyPlot::setConfigs(const std::vector<triton::ScanRow>& rows, int selected, const QString& kernel) {
  rows_ = rows;
  selected_ = selected;
  values_.assign(rows.size(), 0.0);
  QVector<double> keys;
  QVector<double> plain;
  QVector<double> win;
  QVector<double> sel;
  auto ticker = QSharedPointer<FittingTextTicker>::create(plot()->xAxis);
  QVector<double> first;  // the labels kept before the others: the selected config, the winner
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const double x = static_cast<double>(i) + 1.0;
    const double v = rows[i].occupancy_pct.value_or(0.0);
    values_[i] = v;
    keys << x;
    const bool is_selected = static_cast<int>(i) == selected;
    plain << (!is_selected && !rows[i].winner ? v : 0.0);
    win << (!is_selected && rows[i].winner ? v : 0.0);
    sel << (is_selected ? v : 0.0);
    ticker->addTick(x, shortConfigText(rows[i]));
    if (is_selected) first.prepend(x);
    if (rows[i].winner && !is_selected) first.append(x);
  }
  configs_->setData(keys, plain, true);
  winner_->setData(keys, win, true);
  selected_bar_->setData(keys, sel, true);
  ticker->setPriorityTicks(first);
  plot()->xAxis->setTicker(ticker);
  plot()->xAxis->setRange(0.4, static_cast<double>(std::max<std::size_t>(rows.size(), 1)) + 0.6);
  // Fused kernel names run to 150 characters: the title keeps their start and their number.
  const QString name = kernel.size() > 60 ? kernel.left(40) + QStringLiteral("…") + kernel.right(16) : kernel;
  setTitle(name.isEmpty() ? tr("Theoretical occupancy per compiled config")
                          : tr("Theoretical occupancy per compiled config — %1").arg(name));
  requestReplot();
}

QString ConfigOccupancyPlot::toolTipAt(double x, double /*y*/) const {
  const long index = std::lround(x) - 1;
  if (index < 0 || index >= static_cast<long>(rows_.size())) return {};
  const triton::ScanRow& r = rows_[static_cast<std::size_t>(index)];
  QString text = tr("%1: occupancy %2 %, %3 registers, %4 spills, %5")
                     .arg(shortConfigText(r))
                     .arg(r.occupancy_pct ? QString::number(*r.occupancy_pct, 'f', 1) : tr("unknown"))
                     .arg(r.n_regs ? QString::number(*r.n_regs) : tr("?"))
                     .arg(r.n_spills ? QString::number(*r.n_spills) : tr("?"))
                     .arg(QString::fromStdString(r.origin));
  if (r.winner) text += tr(" — the autotuner's winner");
  return text;
}

}  // namespace occx::ui
