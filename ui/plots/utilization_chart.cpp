#include "ui/plots/utilization_chart.h"

#include <QFontMetrics>
#include <cmath>

#include "qcustomplot.h"
#include "ui/plots/bars.h"

namespace occx::ui {

namespace {

QString amountText(const ResourceUtilization& u, std::int64_t amount) {
  if (u.unit == Unit::kBytes) {
    if (amount % 1024 == 0) return QStringLiteral("%1 KB").arg(amount / 1024);
    return QStringLiteral("%1 B").arg(amount);
  }
  return QStringLiteral("%1 %2").arg(amount).arg(QString::fromUtf8(unitName(u.unit).data()));
}

}  // namespace

UtilizationChart::UtilizationChart(QWidget* parent)
    : PlotController(tr("SM resources used by this configuration"), parent) {
  QCustomPlot* p = plot();
  p->setObjectName(QStringLiteral("utilizationChart"));
  used_ = makeBars(p->yAxis, p->xAxis, tr("Used by active blocks"), QColor(31, 119, 180));
  unusable_ = makeBars(p->yAxis, p->xAxis, tr("Unusable (other limit)"), QColor(255, 127, 14));
  remainder_ = makeBars(p->yAxis, p->xAxis, tr("Left over"), QColor(205, 205, 205));
  unusable_->moveAbove(used_);
  remainder_->moveAbove(unusable_);
  setAxisLabels(tr("Share of the SM's capacity (%)"), QString());
  p->xAxis->setRange(0, 100);
  auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
  ticker->setTickStep(20);
  p->xAxis->setTicker(ticker);
  p->yAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  p->yAxis->grid()->setVisible(false);
  p->yAxis->setTickLength(0, 0);
  p->yAxis->setSubTicks(false);
  setLegendColumns(2);
  p->legend->setIconSize(18, 12);  // colour swatches: small, so two entries share a row on a narrow chart
  // Two-line row labels ("Warps (limiter)" over "of 64 warps") need two text lines of height per
  // bar; on a short chart (a 1280 × 720 screen) they would overlap, so the rows say only the resource.
  connect(p, &QCustomPlot::beforeReplot, this, [this] {
    const int n = static_cast<int>(rows_.size());
    if (n == 0) return;
    const int line = QFontMetrics(plot()->yAxis->tickLabelFont()).height();
    const bool two = plot()->axisRect()->height() >= static_cast<int>(2.3 * line * n);
    if (two != two_line_labels_) {
      two_line_labels_ = two;
      applyRowLabels();
    }
  });
}

void UtilizationChart::applyRowLabels() {
  const int n = static_cast<int>(rows_.size());
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (int i = 0; i < n; ++i) {
    const auto& u = rows_[static_cast<std::size_t>(i)];
    QString label = QString::fromStdString(u.resource);
    if (u.limiter) label += tr(" (limiter)");
    if (two_line_labels_) label += QStringLiteral("\n") + tr("of %1").arg(amountText(u, u.capacity));
    ticker->addTick(n - i, label);
  }
  plot()->yAxis->setTicker(ticker);
}

void UtilizationChart::setRows(const std::vector<ResourceUtilization>& rows) {
  rows_ = rows;
  const int n = static_cast<int>(rows.size());
  QVector<double> keys;
  QVector<double> used;
  QVector<double> unusable;
  QVector<double> remainder;
  for (int i = 0; i < n; ++i) {
    const auto& u = rows[static_cast<std::size_t>(i)];
    keys.append(n - i);
    used.append(u.percent(u.used));
    unusable.append(u.percent(u.unusable));
    remainder.append(u.percent(u.remainder));
  }
  // Keys descend (top row first): let QCustomPlot sort them, stacking looks bars up by key.
  used_->setData(keys, used, false);
  unusable_->setData(keys, unusable, false);
  remainder_->setData(keys, remainder, false);
  applyRowLabels();
  plot()->yAxis->setRange(0.4, n + 0.6);
  requestReplot();
}

QVector<double> UtilizationChart::seriesPercent(int series) const {
  const QCPBars* bars = series == 0 ? used_ : series == 1 ? unusable_ : series == 2 ? remainder_ : nullptr;
  QVector<double> out;
  if (bars == nullptr) return out;
  // Data is sorted by key (bottom row first); return it in row order (top row first).
  for (auto it = bars->data()->constEnd(); it != bars->data()->constBegin();) {
    --it;
    out.append(it->value);
  }
  return out;
}

QStringList UtilizationChart::rowLabels() const {
  QStringList out;
  auto* ticker = dynamic_cast<QCPAxisTickerText*>(plot()->yAxis->ticker().data());
  if (ticker == nullptr) return out;
  const auto& ticks = ticker->ticks();  // QMap, ascending key: bottom row first
  for (auto it = ticks.constEnd(); it != ticks.constBegin();) {
    --it;
    out.append(it.value());
  }
  return out;
}

QString UtilizationChart::toolTipAt(double /*x*/, double y) const {
  const int n = static_cast<int>(rows_.size());
  const int key = static_cast<int>(std::lround(y));
  if (key < 1 || key > n || std::abs(y - key) > 0.4) return {};
  const auto& u = rows_[static_cast<std::size_t>(n - key)];
  QString text = tr("%1 per SM: %2").arg(QString::fromStdString(u.resource), amountText(u, u.capacity));
  if (u.per_block > 0) text += tr(" (%1 per block)").arg(amountText(u, u.per_block));
  text += tr("\nUsed by the active blocks: %1 (%2 %)").arg(amountText(u, u.used)).arg(u.percent(u.used), 0, 'f', 1);
  text += tr("\nUnusable, another resource limits: %1 (%2 %)")
              .arg(amountText(u, u.unusable))
              .arg(u.percent(u.unusable), 0, 'f', 1);
  text += tr("\nLeft over: %1 (%2 %)").arg(amountText(u, u.remainder)).arg(u.percent(u.remainder), 0, 'f', 1);
  if (u.limiter) text += tr("\nThis resource limits active blocks per SM.");
  return text;
}

}  // namespace occx::ui
