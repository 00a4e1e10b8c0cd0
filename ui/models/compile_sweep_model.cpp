#include "ui/models/compile_sweep_model.h"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <iterator>
#include <optional>

namespace occx::ui {

namespace {

const QColor kErrorColor(139, 0, 0);
const QColor kExcludedColor(253, 235, 208);

QString firstLine(const std::string& s) {
  const auto nl = s.find('\n');
  return QString::fromStdString(nl == std::string::npos ? s : s.substr(0, nl));
}

const char* const kCandidateTip =
    QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                      "In that policy's autotuner candidate set: yes = benchmarked; spills = excluded (n_spills > 16)");
/// The header of every column, in Column order.
const ColumnText kCompileSweepColumns[] = {
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "#"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "The config's place in the sweep's grid (the CSV's index column)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "XBLOCK"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Rows (elements of the kept dimension) one block reduces")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "RBLOCK"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "Elements of the reduced dimension per loop iteration (Inductor now calls it R0_BLOCK)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "num_warps"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Warps of 32 threads per block")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Regs/thread"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Registers per thread, from the compiler's report (ptxas -v)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Spill st. (B)"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "Bytes of spill stores per thread (local memory writes of spilled registers)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Blocks/SM"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "Active blocks per SM (occupancy calculator, real registers and shared memory)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Occupancy (%)"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "Theoretical occupancy: active warps per SM / maximum warps per SM")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "old bound"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "RBLOCK-scaling decision under the old bound: max_threads_per_SM // (32 · num_warps)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "new bound"),
     QT_TRANSLATE_NOOP(
         "occx::ui::CompileSweepModel",
         "RBLOCK-scaling decision under the new bound: max(regs_per_SM // (n_regs · 32 · num_warps), 1)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "exact bound"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "Decision under the exact bound: the occupancy calculator's active blocks per SM")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Cand. old"), kCandidateTip},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Cand. new"), kCandidateTip},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Cand. exact"), kCandidateTip},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Inductor config"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "One of the configs Inductor itself generates for this shape")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Spill ld. (B)"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Bytes of spill loads per thread")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "n_spills"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "Triton's n_spills: local memory bytes per thread / 4. Inductor's autotuner skips configs with "
                       "more than 16.")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Static smem (B)"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Static shared memory per block (bytes)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Limited by"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "The limit that binds active blocks per SM: warps, blocks, registers or shared memory")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "review_min"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "Decision under the review variant: min(register term, max_warps // num_warps)")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Origin"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "Why the config is in the sweep: the grid, one of Inductor's own configs for this shape, or a "
                       "halved copy a policy adds")},
    {QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel", "Status"),
     QT_TRANSLATE_NOOP("occx::ui::CompileSweepModel",
                       "ok, or why the config did not compile (hover for the compiler's words)")},
};
static_assert(std::size(kCompileSweepColumns) == CompileSweepModel::kColumnCount);

/// The policy whose decision a column shows.
std::optional<inductor::Policy> decisionPolicyOf(int column) {
  switch (column) {
    case CompileSweepModel::kDecisionOld:
      return inductor::Policy::kOld;
    case CompileSweepModel::kDecisionNew:
      return inductor::Policy::kNew;
    case CompileSweepModel::kDecisionReviewMin:
      return inductor::Policy::kReviewMin;
    case CompileSweepModel::kDecisionExact:
      return inductor::Policy::kExact;
    default:
      return std::nullopt;
  }
}

/// The sweepCandidatePolicies() slot a column shows, -1 for other columns.
int candidateSlotOf(int column) {
  switch (column) {
    case CompileSweepModel::kCandidateOld:
      return 0;
    case CompileSweepModel::kCandidateNew:
      return 1;
    case CompileSweepModel::kCandidateExact:
      return 2;
    default:
      return -1;
  }
}

bool isNumberColumn(int column) {
  return column <= CompileSweepModel::kOccupancy ||
         (column >= CompileSweepModel::kSpillLoads && column <= CompileSweepModel::kSmem);
}

}  // namespace

QString decisionText(const DecisionRecord& cell) {
  if (!cell.outcome) return QStringLiteral("…");
  if (*cell.outcome == inductor::Outcome::kNotApplicable) return QObject::tr("n/a");
  const auto name = inductor::outcomeName(*cell.outcome);
  const QString outcome = QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
  return cell.bound >= 0 ? QObject::tr("%1 (%2/SM)").arg(outcome).arg(cell.bound) : outcome;
}

QString candidateText(CandidateState state) {
  switch (state) {
    case CandidateState::kBenchmarked:
      return QObject::tr("yes");
    case CandidateState::kExcludedSpills:
      return QObject::tr("spills");
    case CandidateState::kNotCompiled:
      return QObject::tr("not compiled");
    case CandidateState::kNotCandidate:
      break;
  }
  return {};
}

CompileSweepModel::CompileSweepModel(QObject* parent) : TableModel(parent) {}

void CompileSweepModel::upsertEntry(const CompileSweepRecord& entry) {
  if (const int r = rowOfIndex(entry.index); r >= 0) {
    replaceRow(r, entry);
  } else {
    appendRow(entry);
  }
}

int CompileSweepModel::rowOfIndex(int sweep_index) const {
  const auto& entries = rows();
  for (std::size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].index == sweep_index) return static_cast<int>(i);
  }
  return -1;
}

QVariant CompileSweepModel::headerCell(int column, int role) const {
  return columnHeader(kCompileSweepColumns[column], staticMetaObject.className(), role);
}

QVariant CompileSweepModel::cell(const CompileSweepRecord& e, int /*r*/, int col, int role) const {
  const auto policy = decisionPolicyOf(col);
  const DecisionRecord* dec = policy ? e.decision(*policy) : nullptr;
  const int slot = candidateSlotOf(col);
  switch (role) {
    case Qt::DisplayRole:
    case kSortRole:
      return displayCell(e, col, role == kSortRole);
    case Qt::TextAlignmentRole:
      return QVariant((isNumberColumn(col) ? Qt::AlignRight : Qt::AlignLeft) | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      if ((col == kSpillStores || col == kSpillLoads || col == kNSpills) && e.spills()) return QBrush(kSpillColor);
      if (dec != nullptr && dec->outcome == inductor::Outcome::kScale) return QBrush(kScaleColor);
      if (slot >= 0 &&
          e.candidate(sweepCandidatePolicies()[static_cast<std::size_t>(slot)]) == CandidateState::kExcludedSpills)
        return QBrush(kExcludedColor);
      return {};
    case Qt::ForegroundRole:
      return col == kStatus && !e.ok ? QVariant(QBrush(kErrorColor)) : QVariant();
    case Qt::ToolTipRole:
      return toolTipCell(e, col);
    default:
      return {};
  }
}

QVariant CompileSweepModel::displayCell(const CompileSweepRecord& e, int col, bool sort) const {
  switch (col) {
    case kIndex:
      return e.index;
    case kXBlock:
      return e.config.xblock;
    case kRBlock:
      return e.config.rblock;
    case kNumWarps:
      return e.config.num_warps;
    case kRegisters:
      return numberOrBlank(e.registers);
    case kSpillStores:
      return numberOrBlank(e.spill_stores_bytes);
    case kSpillLoads:
      return numberOrBlank(e.spill_loads_bytes);
    case kNSpills:
      return numberOrBlank(e.n_spills);
    case kSmem:
      return numberOrBlank(e.smem_bytes);
    case kBlocksPerSm:
      if (e.pending) return sort ? QVariant(-1) : QVariant(QStringLiteral("…"));
      return numberOrBlank(e.active_blocks_per_sm);
    case kOccupancy:
      if (e.pending) return sort ? QVariant(-1.0) : QVariant(QStringLiteral("…"));
      if (e.occupancy_pct < 0) return sort ? QVariant(-1.0) : QVariant(QString());
      return sort ? QVariant(e.occupancy_pct) : QVariant(QString::number(e.occupancy_pct, 'f', 1));
    case kLimiter:
      return e.pending ? QStringLiteral("…") : QString::fromStdString(e.limiter);
    case kInductor:
      return e.inductor_candidate ? tr("yes") : QString();
    case kOrigin:
      return QString::fromStdString(e.origin);
    case kStatus:
      if (e.ok) return e.cache_hit ? tr("ok (cache)") : tr("ok");
      if (e.notCompiled()) return tr("not compiled: %1").arg(firstLine(e.error));
      return tr("error: %1").arg(firstLine(e.error));
    default:
      break;
  }
  if (const auto policy = decisionPolicyOf(col)) {
    const DecisionRecord* dec = e.decision(*policy);
    if (dec == nullptr) return e.pending ? QStringLiteral("…") : QString();
    return decisionText(*dec);
  }
  if (const int slot = candidateSlotOf(col); slot >= 0) {
    return candidateText(e.candidate(sweepCandidatePolicies()[static_cast<std::size_t>(slot)]));
  }
  return {};
}

QVariant CompileSweepModel::toolTipCell(const CompileSweepRecord& e, int col) const {
  if (const auto policy = decisionPolicyOf(col)) {
    const DecisionRecord* dec = e.decision(*policy);
    if (dec != nullptr && !dec->reason.empty()) return QString::fromStdString(dec->reason);
    return {};
  }
  // Rich text, so that Qt wraps a long reason instead of drawing one line off the screen.
  if (col == kStatus && !e.ok) {
    return QStringLiteral("<qt>%1</qt>")
        .arg(QString::fromStdString(e.error).toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
  }
  if (col == kStatus && e.compile_ms >= 0) {
    return tr("%1\ncompiled in %2 ms%3")
        .arg(QString::fromStdString(e.kernel_name))
        .arg(e.compile_ms, 0, 'f', 1)
        .arg(e.cache_hit ? tr(" (read from the compile cache)") : QString());
  }
  if (col == kOrigin) return QString::fromStdString(e.origin);
  return {};
}

}  // namespace occx::ui
