#include "ui/models/compile_sweep_model.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

namespace occx::ui {

namespace {

const QColor kSpillColor(248, 215, 215);
const QColor kScaleColor(214, 234, 248);
const QColor kErrorColor(139, 0, 0);
const QColor kExcludedColor(253, 235, 208);

QVariant numberOrBlank(int v) {
  return v < 0 ? QVariant(QString()) : QVariant(v);
}

QString firstLine(const std::string& s) {
  const auto nl = s.find('\n');
  return QString::fromStdString(nl == std::string::npos ? s : s.substr(0, nl));
}

const KernelDecisionCell* decisionOf(const KernelSweepEntry& e, const char* policy) {
  for (const auto& d : e.decisions) {
    if (d.policy == policy) return &d;
  }
  return nullptr;
}

}  // namespace

QString decisionText(const KernelDecisionCell& cell) {
  if (cell.outcome.empty()) return QStringLiteral("…");
  if (cell.outcome == "not applicable") return QObject::tr("n/a");
  const QString outcome = QString::fromStdString(cell.outcome);
  return cell.bound >= 0 ? QObject::tr("%1 (%2/SM)").arg(outcome).arg(cell.bound) : outcome;
}

QString candidateText(const std::string& state) {
  if (state == "benchmarked") return QObject::tr("yes");
  if (state == "excluded (spills)") return QObject::tr("spills");
  if (state == "not compiled") return QObject::tr("not compiled");
  return {};
}

KernelSweepModel::KernelSweepModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelSweepModel::setEntries(std::vector<KernelSweepEntry> entries) {
  beginResetModel();
  entries_ = std::move(entries);
  endResetModel();
}

void KernelSweepModel::clear() {
  setEntries({});
}

void KernelSweepModel::upsertEntry(const KernelSweepEntry& entry) {
  const int row = rowOfIndex(entry.index);
  if (row >= 0) {
    entries_[static_cast<std::size_t>(row)] = entry;
    emit dataChanged(index(row, 0), index(row, kColumnCount - 1));
    return;
  }
  const int at = static_cast<int>(entries_.size());
  beginInsertRows({}, at, at);
  entries_.push_back(entry);
  endInsertRows();
}

const KernelSweepEntry* KernelSweepModel::entry(int row) const {
  if (row < 0 || row >= static_cast<int>(entries_.size())) return nullptr;
  return &entries_[static_cast<std::size_t>(row)];
}

int KernelSweepModel::rowOfIndex(int sweep_index) const {
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    if (entries_[i].index == sweep_index) return static_cast<int>(i);
  }
  return -1;
}

int KernelSweepModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int KernelSweepModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant KernelSweepModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case kIndex:
        return tr("#");
      case kXBlock:
        return tr("XBLOCK");
      case kRBlock:
        return tr("RBLOCK");
      case kNumWarps:
        return tr("num_warps");
      case kRegisters:
        return tr("Regs/thread");
      case kSpillStores:
        return tr("Spill st. (B)");
      case kSpillLoads:
        return tr("Spill ld. (B)");
      case kNSpills:
        return tr("n_spills");
      case kSmem:
        return tr("Static smem (B)");
      case kBlocksPerSm:
        return tr("Blocks/SM");
      case kOccupancy:
        return tr("Occupancy (%)");
      case kLimiter:
        return tr("Limited by");
      case kDecisionOld:
        return tr("old bound");
      case kDecisionNew:
        return tr("new bound");
      case kDecisionReviewMin:
        return tr("review_min");
      case kDecisionExact:
        return tr("exact bound");
      case kInductor:
        return tr("Inductor config");
      case kCandidateOld:
        return tr("Cand. old");
      case kCandidateNew:
        return tr("Cand. new");
      case kCandidateExact:
        return tr("Cand. exact");
      case kOrigin:
        return tr("Origin");
      case kStatus:
        return tr("Status");
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kRegisters:
        return tr("Registers per thread, from the compiler's report (ptxas -v)");
      case kSpillStores:
        return tr("Bytes of spill stores per thread (local memory writes of spilled registers)");
      case kSpillLoads:
        return tr("Bytes of spill loads per thread");
      case kNSpills:
        return tr(
            "Triton's n_spills: local memory bytes per thread / 4. Inductor's autotuner skips "
            "configs with more than 16.");
      case kSmem:
        return tr("Static shared memory per block (bytes)");
      case kBlocksPerSm:
        return tr("Active blocks per SM (occupancy calculator, real registers and shared memory)");
      case kOccupancy:
        return tr("Theoretical occupancy: active warps per SM / maximum warps per SM");
      case kDecisionOld:
        return tr("RBLOCK-scaling decision under the old bound: max_threads_per_SM // (32 · num_warps)");
      case kDecisionNew:
        return tr("RBLOCK-scaling decision under the new bound: max(regs_per_SM // (n_regs · 32 · num_warps), 1)");
      case kDecisionReviewMin:
        return tr("Decision under the review variant: min(register term, max_warps // num_warps)");
      case kDecisionExact:
        return tr("Decision under the exact bound: the occupancy calculator's active blocks per SM");
      case kInductor:
        return tr("One of the configs Inductor itself generates for this shape");
      case kCandidateOld:
      case kCandidateNew:
      case kCandidateExact:
        return tr("In that policy's autotuner candidate set: yes = benchmarked; spills = excluded (n_spills > 16)");
      default:
        return {};
    }
  }
  return {};
}

QVariant KernelSweepModel::data(const QModelIndex& index, int role) const {
  const KernelSweepEntry* e = entry(index.row());
  if (e == nullptr || index.column() < 0 || index.column() >= kColumnCount) return {};
  const int col = index.column();
  const KernelDecisionCell* dec = nullptr;
  std::size_t cand = 0;
  switch (col) {
    case kDecisionOld:
      dec = decisionOf(*e, "old");
      break;
    case kDecisionNew:
      dec = decisionOf(*e, "new");
      break;
    case kDecisionReviewMin:
      dec = decisionOf(*e, "review_min");
      break;
    case kDecisionExact:
      dec = decisionOf(*e, "exact");
      break;
    case kCandidateOld:
      cand = 1;
      break;
    case kCandidateNew:
      cand = 2;
      break;
    case kCandidateExact:
      cand = 3;
      break;
    default:
      break;
  }
  const bool is_decision =
      col == kDecisionOld || col == kDecisionNew || col == kDecisionReviewMin || col == kDecisionExact;
  const std::string* cand_state = cand > 0 && cand - 1 < e->candidates.size() ? &e->candidates[cand - 1] : nullptr;

  if (role == Qt::DisplayRole || role == kSortRole) {
    const bool sort = role == kSortRole;
    switch (col) {
      case kIndex:
        return e->index;
      case kXBlock:
        return e->config.xblock;
      case kRBlock:
        return e->config.rblock;
      case kNumWarps:
        return e->config.num_warps;
      case kRegisters:
        return numberOrBlank(e->registers);
      case kSpillStores:
        return numberOrBlank(e->spill_stores_bytes);
      case kSpillLoads:
        return numberOrBlank(e->spill_loads_bytes);
      case kNSpills:
        return numberOrBlank(e->n_spills);
      case kSmem:
        return numberOrBlank(e->smem_bytes);
      case kBlocksPerSm:
        if (e->pending) return sort ? QVariant(-1) : QVariant(QStringLiteral("…"));
        return numberOrBlank(e->active_blocks_per_sm);
      case kOccupancy:
        if (e->pending) return sort ? QVariant(-1.0) : QVariant(QStringLiteral("…"));
        if (e->occupancy_pct < 0) return sort ? QVariant(-1.0) : QVariant(QString());
        return sort ? QVariant(e->occupancy_pct) : QVariant(QString::number(e->occupancy_pct, 'f', 1));
      case kLimiter:
        return e->pending ? QStringLiteral("…") : QString::fromStdString(e->limiter);
      case kInductor:
        return e->inductor_candidate ? tr("yes") : QString();
      case kOrigin:
        return QString::fromStdString(e->origin);
      case kStatus:
        if (e->ok) return e->cache_hit ? tr("ok (cache)") : tr("ok");
        return tr("error: %1").arg(firstLine(e->error));
      default:
        break;
    }
    if (is_decision) {
      if (dec == nullptr) return e->pending ? QStringLiteral("…") : QString();
      return decisionText(*dec);
    }
    if (cand_state != nullptr) return candidateText(*cand_state);
    return {};
  }
  if (role == Qt::TextAlignmentRole) {
    if (col <= kOccupancy || (col >= kSpillLoads && col <= kSmem)) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
  }
  if (role == Qt::BackgroundRole) {
    if ((col == kSpillStores || col == kSpillLoads || col == kNSpills) && e->spills()) return QBrush(kSpillColor);
    if (is_decision && dec != nullptr && dec->outcome == "scale") return QBrush(kScaleColor);
    if (cand_state != nullptr && *cand_state == "excluded (spills)") return QBrush(kExcludedColor);
    return {};
  }
  if (role == Qt::ForegroundRole) {
    if (col == kStatus && !e->ok) return QBrush(kErrorColor);
    return {};
  }
  if (role == Qt::ToolTipRole) {
    if (is_decision && dec != nullptr && !dec->reason.empty()) return QString::fromStdString(dec->reason);
    if (col == kStatus && !e->ok) return QString::fromStdString(e->error);
    if (col == kStatus && e->ok && e->compile_ms >= 0) {
      return tr("%1\ncompiled in %2 ms%3")
          .arg(QString::fromStdString(e->kernel_name))
          .arg(e->compile_ms, 0, 'f', 1)
          .arg(e->cache_hit ? tr(" (read from the compile cache)") : QString());
    }
    if (col == kOrigin) return QString::fromStdString(e->origin);
    return {};
  }
  return {};
}

}  // namespace occx::ui
