#include "ui/plots/measured_times_plot.h"

#include <algorithm>
#include <cmath>

#include "core/inductor/bounds.h"
#include "qcustomplot.h"
#include "ui/models/text.h"
#include "ui/plots/bars.h"

namespace occx::ui {

namespace {

QString policyText(inductor::Policy policy) {
  const auto key = inductor::policyKey(policy);
  return QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
}

}  // namespace

MeasuredTimesPlot::MeasuredTimesPlot(QWidget* parent)
    : PlotController(tr("Measured time per compiled config"), parent) {
  QCustomPlot* p = plot();
  p->setObjectName(QStringLiteral("measuredTimesPlot"));
  configs_ = makeBars(p->xAxis, p->yAxis, tr("Measured config"), QColor(31, 119, 180));
  best_ = makeBars(p->xAxis, p->yAxis, tr("Fastest"), QColor(44, 160, 44));
  // One marker per rule, stacked above the bar of its pick so that rules picking the same config stay apart.
  static const QCPScatterStyle::ScatterShape kShapes[] = {QCPScatterStyle::ssTriangleInverted,
                                                          QCPScatterStyle::ssDiamond, QCPScatterStyle::ssSquare,
                                                          QCPScatterStyle::ssCircle, QCPScatterStyle::ssCross};
  static const QColor kColors[] = {QColor(148, 103, 189), QColor(214, 39, 40), QColor(140, 86, 75),
                                   QColor(227, 119, 194), QColor(255, 127, 14)};
  const auto& policies = inductor::kPolicies;
  for (std::size_t i = 0; i < policies.size(); ++i) {
    auto* g = p->addGraph();
    g->setName(tr("%1 policy's pick").arg(policyText(policies[i])));
    g->setLineStyle(QCPGraph::lsNone);
    const QColor color = kColors[i % std::size(kColors)];
    g->setPen(QPen(color, 2));
    g->setScatterStyle(QCPScatterStyle(kShapes[i % std::size(kShapes)], color, color, 7));
    pick_marks_.push_back(g);
  }
  setAxisLabels(tr("Compiled config (XBLOCK, R0_BLOCK, num_warps)"), tr("Device time, L2 cold (µs)"));
  p->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());
  p->xAxis->setTickLabelRotation(30);
  p->xAxis->grid()->setVisible(false);
  setLegendColumns(4);
}

void MeasuredTimesPlot::setConfigs(const std::vector<triton::ScanRow>& rows,
                                   const std::vector<std::optional<RunConfigModel::Measured>>& measured,
                                   const QString& kernel) {
  rows_ = rows;
  measured_ = measured;
  measured_.resize(rows.size());
  values_.assign(rows.size(), 0.0);
  best_row_ = -1;
  pick_rows_.assign(pick_marks_.size(), -1);
  QVector<double> keys;
  QVector<double> plain;
  QVector<double> best;
  double top = 0.0;
  auto ticker = QSharedPointer<QCPAxisTickerText>::create();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& m = measured_[i];
    const double v = m && m->row.ok() ? m->row.measured.timeUs() : 0.0;
    values_[i] = v;
    top = std::max(top, v);
    if (m && m->picked_by.contains(QStringLiteral("best"))) best_row_ = static_cast<int>(i);
    ticker->addTick(static_cast<double>(i) + 1.0, shortConfigText(rows[i]));
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    keys << static_cast<double>(i) + 1.0;
    const bool is_best = static_cast<int>(i) == best_row_;
    plain << (is_best ? 0.0 : values_[i]);
    best << (is_best ? values_[i] : 0.0);
  }
  configs_->setData(keys, plain, true);
  best_->setData(keys, best, true);
  // Policy picks: the row whose measured row is the policy's pick (by the "picked by" names).
  const auto& policies = inductor::kPolicies;
  // Side by side above the bar of the pick, one slot per rule, so that rules picking the same config stay apart.
  const double slot_count = static_cast<double>(pick_marks_.size());
  for (std::size_t p = 0; p < pick_marks_.size(); ++p) {
    const QString name = policyText(policies[p]);
    QVector<double> x;
    QVector<double> y;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      if (!measured_[i] || !measured_[i]->picked_by.contains(name)) continue;
      pick_rows_[p] = static_cast<int>(i);
      x << static_cast<double>(i) + 1.0 + 0.7 * ((static_cast<double>(p) + 0.5) / slot_count - 0.5);
      y << values_[i] + top * 0.1;
    }
    pick_marks_[p]->setData(x, y, true);
  }
  plot()->xAxis->setTicker(ticker);
  plot()->xAxis->setRange(0.4, static_cast<double>(std::max<std::size_t>(rows.size(), 1)) + 0.6);
  plot()->yAxis->setRange(0, top > 0 ? top * 1.25 : 1.0);
  const QString name = kernel.size() > 60 ? kernel.left(40) + QStringLiteral("…") + kernel.right(16) : kernel;
  setTitle(name.isEmpty() ? tr("Measured time per compiled config")
                          : tr("Measured time per compiled config — %1").arg(name));
  requestReplot();
}

QString MeasuredTimesPlot::toolTipAt(double x, double /*y*/) const {
  const long index = std::lround(x) - 1;
  if (index < 0 || index >= static_cast<long>(rows_.size())) return {};
  const auto& m = measured_[static_cast<std::size_t>(index)];
  const QString config = shortConfigText(rows_[static_cast<std::size_t>(index)]);
  if (!m) return tr("%1: not measured").arg(config);
  if (!m->row.ok()) {
    return tr("%1: %2 — %3")
        .arg(config, QString::fromStdString(std::string(runStatusName(m->row.measured.status))),
             QString::fromStdString(m->row.measured.reason));
  }
  QString text = tr("%1: %2 µs cold, %3, regret %4")
                     .arg(config)
                     .arg(m->row.measured.timeUs(), 0, 'f', 1)
                     .arg(q(bandwidthText(m->row.measured)))
                     .arg(m->regret, 0, 'f', 2);
  if (!m->picked_by.isEmpty()) text += tr(" — picked by %1").arg(m->picked_by.join(QStringLiteral(", ")));
  return text;
}

}  // namespace occx::ui
