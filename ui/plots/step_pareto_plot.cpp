#include "ui/plots/step_pareto_plot.h"

#include <algorithm>
#include <cmath>

#include "qcustomplot.h"
#include "ui/models/text.h"
#include "ui/plots/bars.h"
#include "ui/plots/tick_labels.h"

namespace occx::ui {

namespace {

// Short legend entries, so that several fit a row beside the table.
QString legendName(step::KernelCategory c) {
  switch (c) {
    case step::KernelCategory::kTritonLoopedReduction:
      return StepParetoPlot::tr("reduction (looped)");
    case step::KernelCategory::kTritonPersistentReduction:
      return StepParetoPlot::tr("reduction (persistent)");
    case step::KernelCategory::kTritonPointwise:
      return StepParetoPlot::tr("pointwise");
    case step::KernelCategory::kTritonOther:
      return StepParetoPlot::tr("other Triton");
    case step::KernelCategory::kLibrary:
      return StepParetoPlot::tr("matmul/attention");
    case step::KernelCategory::kAten:
      return StepParetoPlot::tr("ATen");
    case step::KernelCategory::kMemory:
      return StepParetoPlot::tr("memcpy/memset");
    case step::KernelCategory::kOther:
      return StepParetoPlot::tr("other");
  }
  return StepParetoPlot::tr("other");
}

}  // namespace

StepParetoPlot::StepParetoPlot(QWidget* parent) : PlotController(tr("Kernels by in-step time per step"), parent) {
  QCustomPlot* p = plot();
  p->setObjectName(QStringLiteral("stepParetoPlot"));
  for (step::KernelCategory c : step::kKernelCategories) {
    auto* bars = makeBars(p->xAxis, p->yAxis, legendName(c), categoryColor(c));
    bars->setWidth(0.7);
    bars_.push_back(bars);
  }
  rest_ = makeBars(p->xAxis, p->yAxis, tr("the rest"), QColor(200, 200, 200));
  rest_->setWidth(0.7);
  cumulative_line_ = p->addGraph(p->xAxis, p->yAxis2);
  cumulative_line_->setName(tr("cumulative %"));
  cumulative_line_->setPen(QPen(QColor(40, 40, 40), 2));
  cumulative_line_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
  setAxisLabels(tr("Kernel rank (the table's #)"), tr("In-step time per step (µs)"));
  p->yAxis2->setVisible(true);
  p->yAxis2->setLabel(tr("Cumulative share (%)"));
  p->yAxis2->setRange(0, 100);
  p->xAxis->setTicker(QSharedPointer<FittingTextTicker>::create(p->xAxis));
  p->xAxis->grid()->setVisible(false);
  setLegendColumns(5);
}

void StepParetoPlot::setKernels(const std::vector<StepKernelRow>& rows, double gpu_time_per_step_us) {
  rows_ = rows;
  values_.clear();
  cumulative_.clear();
  const int shown = std::min<int>(kShownKernels, static_cast<int>(rows.size()));
  others_ = static_cast<int>(rows.size()) - shown;
  others_us_ = 0.0;
  std::vector<QVector<double>> keys(bars_.size());
  std::vector<QVector<double>> heights(bars_.size());
  auto ticker = QSharedPointer<FittingTextTicker>::create(plot()->xAxis);
  QVector<double> line_x;
  QVector<double> line_y;
  auto categoryIndex = [](step::KernelCategory c) {
    const auto& all = step::kKernelCategories;
    return static_cast<std::size_t>(std::find(all.begin(), all.end(), c) - all.begin());
  };
  for (int i = 0; i < shown; ++i) {
    const StepKernelRow& r = rows[static_cast<std::size_t>(i)];
    const double x = i + 1.0;
    const std::size_t c = categoryIndex(r.kernel.category);
    keys[c] << x;
    heights[c] << r.kernel.per_step_us;
    values_.push_back(r.kernel.per_step_us);
    cumulative_.push_back(100.0 * r.cumulative);
    line_x << x;
    line_y << 100.0 * r.cumulative;
    ticker->addTick(x, QString::number(r.rank));
  }
  rest_->data()->clear();
  if (others_ > 0) {
    for (std::size_t i = static_cast<std::size_t>(shown); i < rows.size(); ++i)
      others_us_ += rows[i].kernel.per_step_us;
    const double x = shown + 1.0;
    rest_->setData(QVector<double>{x}, QVector<double>{others_us_}, true);
    values_.push_back(others_us_);
    cumulative_.push_back(100.0 * rows.back().cumulative);
    line_x << x;
    line_y << 100.0 * rows.back().cumulative;
    ticker->addTick(x, tr("+%1").arg(others_));  // the rest, summed (the tooltip says how many)
  }
  for (std::size_t c = 0; c < bars_.size(); ++c) {
    bars_[c]->setData(keys[c], heights[c], true);
    // A category with no kernel of its own stays out of the legend ("others" counts as "other").
    if (heights[c].isEmpty()) {
      bars_[c]->removeFromLegend();
    } else if (!bars_[c]->visible() || plot()->legend->itemWithPlottable(bars_[c]) == nullptr) {
      bars_[c]->addToLegend();
    }
  }
  if (others_ > 0) {
    rest_->addToLegend();
  } else {
    rest_->removeFromLegend();
  }
  cumulative_line_->setData(line_x, line_y, true);
  QCustomPlot* p = plot();
  p->xAxis->setTicker(ticker);
  p->xAxis->setRange(0.3, (shown + (others_ > 0 ? 1 : 0)) + 0.7);
  const double top = values_.empty() ? 1.0 : *std::max_element(values_.begin(), values_.end());
  p->yAxis->setRange(0, std::max(1.0, top * 1.1));
  setExportSubtitle(tr("in-step device time per step (torch.profiler, CUPTI); GPU time per step %1 µs")
                        .arg(gpu_time_per_step_us, 0, 'f', 1));
  requestReplot();
}

QString StepParetoPlot::toolTipAt(double x, double /*y*/) const {
  const int i = static_cast<int>(std::lround(x)) - 1;
  const int shown = static_cast<int>(values_.size()) - (others_ > 0 ? 1 : 0);
  if (i < 0 || i >= static_cast<int>(values_.size())) return {};
  if (i >= shown) {
    return tr("%1 other kernels: %2 µs per step together; cumulative %3 %")
        .arg(others_)
        .arg(others_us_, 0, 'f', 1)
        .arg(cumulative_.back(), 0, 'f', 1);
  }
  const StepKernelRow& r = rows_[static_cast<std::size_t>(i)];
  QString tip = tr("#%1 %2\n%3 · %4 µs per step (%5 % of the GPU time; cumulative %6 %)\n%7 launches per step, median "
                   "%8 µs")
                    .arg(r.rank)
                    .arg(QString::fromStdString(r.kernel.name), q(step::kernelCategoryName(r.kernel.category)))
                    .arg(r.kernel.per_step_us, 0, 'f', 1)
                    .arg(100.0 * r.kernel.share, 0, 'f', 1)
                    .arg(100.0 * r.cumulative, 0, 'f', 1)
                    .arg(r.kernel.launches_per_step, 0, 'f', 1)
                    .arg(r.kernel.median_us, 0, 'f', 1);
  if (r.config) {
    tip += tr("\nconfig %1, %2 registers")
               .arg(QString::fromStdString(step::shortConfigLabel(*r.config, step::isReduction(r.kernel.category))))
               .arg(r.config->n_regs ? QString::number(*r.config->n_regs) : tr("unknown"));
  }
  return tip;
}

}  // namespace occx::ui
