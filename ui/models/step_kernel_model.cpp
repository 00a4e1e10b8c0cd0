#include "ui/models/step_kernel_model.h"

#include <QBrush>
#include <QColor>
#include <iterator>

#include "ui/models/text.h"

namespace occx::ui {

namespace {

const ColumnText kStepColumns[] = {
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "#"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Rank by in-step time per step (the chart's x axis)")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Kernel"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel",
                       "The kernel's name as the trace records it (hover for the whole name)")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Kind"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel",
                       "Triton reduction (looped or persistent), Triton pointwise, other Triton, matmul/attention "
                       "library, ATen (PyTorch's own kernels), memcpy/memset, other")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Launches/step"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "How often the kernel runs in one step")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Median (µs)"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel",
                       "Median in-step device time of one launch, as torch.profiler recorded it (CUPTI)")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "µs/step"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "In-step device time of all its launches in one step")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Share (%)"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Of the step's GPU time (summed device time of every launch)")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Cumulative (%)"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "This kernel's share plus every longer kernel's")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Config"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel",
                       "The config its launcher used: the autotuner's winner, the only compiled config, or the one "
                       "whose block and registers the trace records")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Regs/thread"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel",
                       "Registers per thread of that config (from the trace, or from Triton's cubin)")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Occupancy (%)"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "Theoretical occupancy of that config")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "old bound"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "The old bound's decision for that config")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "new bound"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "The new (current) bound's decision for that config")},
    {QT_TRANSLATE_NOOP("occx::ui::StepKernelModel", "In the run"),
     QT_TRANSLATE_NOOP("occx::ui::StepKernelModel",
                       "matched: a kernel of the open run; ambiguous: several fit (hover for them); not in the run")},
};
static_assert(std::size(kStepColumns) == StepKernelModel::kColumnCount);

}  // namespace

std::vector<StepKernelRow> stepKernelRows(const step::StepProfile& profile, const step::StepRun& run) {
  std::vector<StepKernelRow> rows;
  rows.reserve(profile.kernels.size());
  double cumulative = 0.0;
  int rank = 0;
  for (const auto& k : profile.kernels) {
    cumulative += k.share;
    StepKernelRow r;
    r.kernel = k;
    r.rank = ++rank;
    r.cumulative = cumulative;
    if (const triton::ScanRow* c = step::configRowOf(k, run)) r.config = *c;
    rows.push_back(std::move(r));
  }
  return rows;
}

QString displayKernelName(const std::string& name) {
  QString s = QString::fromStdString(name);
  if (s.startsWith(QLatin1String("void "))) s = s.mid(5);
  const qsizetype open = s.indexOf(QLatin1Char('<'));
  if (open > 0) {
    // The outermost template arguments, and what follows them (the parameter list), become "<…>".
    s = s.left(open) + QStringLiteral("<…>");
  } else if (const qsizetype paren = s.indexOf(QLatin1Char('(')); paren > 0) {
    s = s.left(paren);
  }
  return s;
}

QColor categoryColor(step::KernelCategory category) {
  switch (category) {
    case step::KernelCategory::kTritonLoopedReduction:
      return {214, 39, 40};
    case step::KernelCategory::kTritonPersistentReduction:
      return {255, 127, 14};
    case step::KernelCategory::kTritonPointwise:
      return {44, 160, 44};
    case step::KernelCategory::kTritonOther:
      return {188, 189, 34};
    case step::KernelCategory::kLibrary:
      return {31, 119, 180};
    case step::KernelCategory::kAten:
      return {148, 103, 189};
    case step::KernelCategory::kMemory:
      return {140, 86, 75};
    case step::KernelCategory::kOther:
      return {127, 127, 127};
  }
  return {127, 127, 127};
}

StepKernelModel::StepKernelModel(QObject* parent) : TableModel(parent) {}

QVariant StepKernelModel::headerCell(int column, int role) const {
  return columnHeader(kStepColumns[column], "occx::ui::StepKernelModel", role);
}

QVariant StepKernelModel::cell(const StepKernelRow& row, int /*r*/, int column, int role) const {
  const step::StepKernel& k = row.kernel;
  const bool reduction = step::isReduction(k.category);
  if (role == Qt::DisplayRole || role == kSortRole) {
    const bool sort = role == kSortRole;
    auto number = [sort](double v, int digits) {
      return sort ? QVariant(v) : QVariant(QString::number(v, 'f', digits));
    };
    switch (column) {
      case kRank:
        return row.rank;
      case kKernel:
        return displayKernelName(k.name);
      case kCategory:
        return q(step::kernelCategoryName(k.category));
      case kLaunches:
        return number(k.launches_per_step, k.launches_per_step == static_cast<int>(k.launches_per_step) ? 0 : 1);
      case kMedian:
        return number(k.median_us, 1);
      case kPerStep:
        return number(k.per_step_us, 1);
      case kShare:
        return number(100.0 * k.share, 1);
      case kCumulative:
        return number(100.0 * row.cumulative, 1);
      case kConfig:
        return row.config ? QString::fromStdString(step::shortConfigLabel(*row.config, reduction)) : QString();
      case kRegisters:
        return row.config && row.config->n_regs ? QVariant(static_cast<int>(*row.config->n_regs)) : QVariant(QString());
      case kOccupancy:
        if (!row.config || !row.config->occupancy_pct) return QString();
        return number(*row.config->occupancy_pct, 1);
      case kOldDecision:
        return row.config ? QString::fromStdString(row.config->old_decision) : QString();
      case kNewDecision:
        return row.config ? QString::fromStdString(row.config->new_decision) : QString();
      case kMatch:
        return step::isTriton(k.category) && k.match != step::RunMatch::kNoRun ? q(step::runMatchName(k.match))
                                                                               : QString();
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    QString tip = tr("%1\n%2 · grid %3×%4×%5, block %6×%7×%8 · %9 launches · median %10 µs (min %11, max %12)")
                      .arg(QString::fromStdString(k.name), q(step::kernelCategoryName(k.category)))
                      .arg(k.grid[0])
                      .arg(k.grid[1])
                      .arg(k.grid[2])
                      .arg(k.block[0])
                      .arg(k.block[1])
                      .arg(k.block[2])
                      .arg(k.launches)
                      .arg(k.median_us, 0, 'f', 1)
                      .arg(k.min_us, 0, 'f', 1)
                      .arg(k.max_us, 0, 'f', 1);
    if (!k.module.empty()) tip += tr("\nmodule %1").arg(QString::fromStdString(k.module));
    if (!k.match_note.empty()) tip += QLatin1Char('\n') + QString::fromStdString(k.match_note);
    return tip;
  }
  if (role == Qt::DecorationRole && column == kCategory) return categoryColor(k.category);
  if (role == Qt::TextAlignmentRole && column != kKernel && column != kCategory && column != kConfig &&
      column != kOldDecision && column != kNewDecision && column != kMatch) {
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  return {};
}

}  // namespace occx::ui
