#include "ui/plots/measured_times_plot.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <QFontMetrics>

#include "core/inductor/bounds.h"
#include "qcustomplot.h"
#include "ui/models/text.h"
#include "ui/plots/bars.h"
#include "ui/plots/tick_labels.h"

namespace occx::ui {

namespace {

QString policyText(inductor::Policy policy) {
  const auto key = inductor::policyKey(policy);
  return QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()));
}

}  // namespace

namespace {

constexpr int kDefaultBarRoom = 24;  ///< rows before the plot was laid out (a hidden plot's export)
constexpr int kMinBarRoom = 6;       ///< rows however short the plot: the labels thin out below that

}  // namespace

MeasuredTimesPlot::MeasuredTimesPlot(QWidget* parent)
    : PlotController(tr("Measured time per compiled config"), parent) {
  QCustomPlot* p = plot();
  p->setObjectName(QStringLiteral("measuredTimesPlot"));
  // Horizontal bars: the configs down the left axis (first on top), the time along the bottom.
  own_ = makeBars(p->yAxis, p->xAxis, tr("Inductor's config"), QColor(31, 119, 180));
  swept_ = makeBars(p->yAxis, p->xAxis, tr("Swept config"), QColor(158, 202, 225));
  best_ = makeBars(p->yAxis, p->xAxis, tr("Fastest"), QColor(44, 160, 44));
  rest_ = makeBars(p->yAxis, p->xAxis, tr("Slower configs"), QColor(215, 215, 215));
  for (QCPBars* bars : {own_, swept_, best_, rest_}) bars->setWidth(0.7);
  // One marker per policy on the row of its pick, right of the bar; policies that pick the same
  // config sit side by side.
  static const QCPScatterStyle::ScatterShape kShapes[] = {QCPScatterStyle::ssTriangle, QCPScatterStyle::ssDiamond,
                                                          QCPScatterStyle::ssSquare, QCPScatterStyle::ssCircle,
                                                          QCPScatterStyle::ssCross};
  static const QColor kColors[] = {QColor(148, 103, 189), QColor(214, 39, 40), QColor(140, 86, 75),
                                   QColor(227, 119, 194), QColor(255, 127, 14)};
  const auto& policies = inductor::kPolicies;
  for (std::size_t i = 0; i < policies.size(); ++i) {
    auto* g = p->addGraph(p->yAxis, p->xAxis);
    g->setName(tr("%1 pick").arg(policyText(policies[i])));
    g->setLineStyle(QCPGraph::lsNone);
    const QColor color = kColors[i % std::size(kColors)];
    g->setPen(QPen(color, 2));
    g->setScatterStyle(QCPScatterStyle(kShapes[i % std::size(kShapes)], color, color, 8));
    pick_marks_.push_back(g);
  }
  // No y label: the rows name their configs ("X1 R2048 w16"), and the width is the bars'.
  setAxisLabels(tr("Device time, L2 cold (µs)"), QString());
  p->legend->setIconSize(18, 12);
  p->yAxis->setTicker(QSharedPointer<FittingTextTicker>::create(p->yAxis));
  p->yAxis->setRangeReversed(true);
  p->yAxis->setSubTicks(false);
  p->yAxis->grid()->setVisible(false);
  setLegendColumns(4);
  // As many rows as the height has room for: counted again before every replot (the layout is
  // current then), the bars refilled when the room changed.
  connect(p, &QCustomPlot::beforeReplot, this, [this] {
    if (const int room = roomNow(); room != room_) {
      fill(room);
    } else {
      placeMarkers();  // the axis's width may have changed
    }
  });
}

int MeasuredTimesPlot::roomNow() const {
  const int line = QFontMetrics(plot()->yAxis->tickLabelFont()).height() + 1;
  const int height = plot()->axisRect()->height();
  if (height < 2 * line) return room_ > 0 ? room_ : kDefaultBarRoom;  // not laid out yet
  return std::max(kMinBarRoom, height / line);
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
  const auto& policies = inductor::kPolicies;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& m = measured_[i];
    values_[i] = m && m->row.ok() ? m->row.measured.timeUs() : 0.0;
    if (!m) continue;
    if (m->picked_by.contains(QStringLiteral("best"))) best_row_ = static_cast<int>(i);
    for (std::size_t p = 0; p < pick_marks_.size(); ++p) {
      if (m->picked_by.contains(policyText(policies[p]))) pick_rows_[p] = static_cast<int>(i);
    }
  }
  fill(roomNow());
  const QString name = kernel.size() > 60 ? kernel.left(40) + QStringLiteral("…") + kernel.right(16) : kernel;
  setTitle(name.isEmpty() ? tr("Measured time per compiled config")
                          : tr("Measured time per compiled config — %1").arg(name));
  requestReplot();
}

void MeasuredTimesPlot::fill(int room) {
  room_ = room;
  bars_ = measuredBars(rows_, measured_, room);
  QVector<double> own_keys, own_values, swept_keys, swept_values, best_keys, best_values;
  QVector<double> best_first, picks, inductors;  // the labels kept first, in this order
  auto ticker = QSharedPointer<FittingTextTicker>::create(plot()->yAxis);
  for (std::size_t i = 0; i < bars_.bars.size(); ++i) {
    const MeasuredBar& b = bars_.bars[i];
    const double key = static_cast<double>(i) + 1.0;
    (b.best ? best_keys : b.inductors ? own_keys : swept_keys) << key;
    (b.best ? best_values : b.inductors ? own_values : swept_values) << b.time_us;
    ticker->addTick(key, b.label);
    if (b.best) {
      best_first << key;
    } else if (!b.policies.empty()) {
      picks << key;
    } else if (b.inductors) {
      inductors << key;
    }
  }
  own_->setData(own_keys, own_values, true);
  swept_->setData(swept_keys, swept_values, true);
  best_->setData(best_keys, best_values, true);
  const auto rows_shown = static_cast<double>(bars_.bars.size() + (bars_.rest > 0 ? 1 : 0));
  rest_->data()->clear();
  if (bars_.rest > 0) {
    // The slower configs as one bar over their range (from the fastest of them to the slowest),
    // cut at the right end of the axis when it reaches past the bars shown.
    rest_->setBaseValue(bars_.rest_lo_us);
    rest_->setData(QVector<double>{rows_shown}, QVector<double>{bars_.rest_hi_us}, true);
    rest_->setName(
        tr("%1 more: %2–%3 µs").arg(bars_.rest).arg(bars_.rest_lo_us, 0, 'f', 0).arg(bars_.rest_hi_us, 0, 'f', 0));
    ticker->addTick(rows_shown, tr("%1 more").arg(bars_.rest));
  }
  ticker->setPriorityTicks(best_first + picks + inductors);
  plot()->yAxis->setTicker(ticker);
  plot()->yAxis->setRange(0.4, std::max(rows_shown, 1.0) + 0.6);
  placeMarkers();
  // The legend in a fixed order, with only what is drawn.
  QCPLegend* legend = plot()->legend;
  legend->clearItems();
  for (QCPAbstractPlottable* p :
       {static_cast<QCPAbstractPlottable*>(own_), static_cast<QCPAbstractPlottable*>(swept_),
        static_cast<QCPAbstractPlottable*>(best_), static_cast<QCPAbstractPlottable*>(rest_)}) {
    if (p->interface1D()->dataCount() > 0) p->addToLegend();
  }
  for (QCPGraph* g : pick_marks_) {
    if (!g->data()->isEmpty()) g->addToLegend();
  }
}

void MeasuredTimesPlot::placeMarkers() {
  // Markers kMarkerGap pixels apart, the first that far right of its bar's end; the time axis
  // reaches just past the last marker (the summary's bar may run past its end).
  constexpr double kMarkerGap = 10.0;
  const double width = std::max(plot()->axisRect()->width(), 120);
  double right = 0.0;
  for (const MeasuredBar& b : bars_.bars) {
    const double share = std::min((static_cast<double>(b.policies.size()) + 0.8) * kMarkerGap / width, 0.6);
    right = std::max(right, b.time_us / (1.0 - share));
  }
  if (right <= 0.0) right = bars_.rest > 0 ? bars_.rest_hi_us : 1.0;
  const double unit = right / width;  // µs per pixel
  std::vector<QVector<double>> keys(pick_marks_.size()), values(pick_marks_.size());
  for (std::size_t i = 0; i < bars_.bars.size(); ++i) {
    const MeasuredBar& b = bars_.bars[i];
    for (std::size_t k = 0; k < b.policies.size(); ++k) {
      const auto p = static_cast<std::size_t>(b.policies[k]);
      keys[p] << static_cast<double>(i) + 1.0;
      values[p] << b.time_us + (static_cast<double>(k) + 0.8) * kMarkerGap * unit;
    }
  }
  for (std::size_t p = 0; p < pick_marks_.size(); ++p) pick_marks_[p]->setData(keys[p], values[p], true);
  plot()->xAxis->setRange(0, right);
}

double MeasuredTimesPlot::barKey(int row) const {
  for (std::size_t i = 0; i < bars_.bars.size(); ++i) {
    if (bars_.bars[i].row == row) return static_cast<double>(i) + 1.0;
  }
  return std::numeric_limits<double>::quiet_NaN();
}

std::vector<std::pair<double, double>> MeasuredTimesPlot::plottedBars() const {
  std::vector<std::pair<double, double>> out;
  for (const QCPBars* bars : {own_, swept_, best_}) {
    for (auto it = bars->data()->constBegin(); it != bars->data()->constEnd(); ++it)
      out.emplace_back(it->key, it->value);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<double> MeasuredTimesPlot::markerKeys(int policy) const {
  std::vector<double> out;
  if (policy < 0 || policy >= static_cast<int>(pick_marks_.size())) return out;
  const auto data = pick_marks_[static_cast<std::size_t>(policy)]->data();
  for (auto it = data->constBegin(); it != data->constEnd(); ++it) out.push_back(it->key);
  return out;
}

QString MeasuredTimesPlot::toolTipAt(double /*x*/, double y) const {
  const long slot = std::lround(y) - 1;
  if (slot < 0) return {};
  if (slot == static_cast<long>(bars_.bars.size()) && bars_.rest > 0) {
    return tr("%1 slower configs: %2 … %3 µs (the Configs table lists them)")
        .arg(bars_.rest)
        .arg(bars_.rest_lo_us, 0, 'f', 1)
        .arg(bars_.rest_hi_us, 0, 'f', 1);
  }
  if (slot >= static_cast<long>(bars_.bars.size())) return {};
  const long index = bars_.bars[static_cast<std::size_t>(slot)].row;
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
