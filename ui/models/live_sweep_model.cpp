#include "ui/models/live_sweep_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>

namespace occx::ui {

namespace {

const QColor kBestColor(255, 243, 191);
const QColor kPickColor(214, 234, 248);
const QColor kFailColor(139, 0, 0);
const QColor kSpillColor(248, 215, 215);

QVariant metricCell(const Metric& m, int digits, bool sort) {
  if (m.value) return sort ? QVariant(*m.value) : QVariant(QString::number(*m.value, 'f', digits));
  return sort ? QVariant(-1.0) : QVariant(QObject::tr("unavailable"));
}

QVariant timeCell(const LiveRow& r, double v, int digits, bool sort) {
  if (!r.ok()) return sort ? QVariant(1e300) : QVariant(QString());
  return sort ? QVariant(v) : QVariant(QString::number(v, 'f', digits));
}

}  // namespace

QString policySetsText(const LiveRow& row) {
  QStringList sets;
  for (auto p : kReplayPolicies) {
    if (row.inPolicySet(p)) sets << QString::fromLatin1(inductor::policyKey(p));
  }
  if (sets.isEmpty() && row.in_grid) return QObject::tr("grid only");
  return sets.join(QLatin1Char(' '));
}

LiveRowsModel::LiveRowsModel(QObject* parent) : QAbstractTableModel(parent) {}

void LiveRowsModel::setRows(std::vector<LiveRow> rows, const ReplaySummary& replay) {
  beginResetModel();
  rows_ = std::move(rows);
  replay_ = replay;
  endResetModel();
}

void LiveRowsModel::appendRow(const LiveRow& row, const ReplaySummary& replay) {
  const int at = static_cast<int>(rows_.size());
  beginInsertRows({}, at, at);
  rows_.push_back(row);
  endInsertRows();
  replay_ = replay;
  if (!rows_.empty()) emit dataChanged(index(0, kPicks), index(static_cast<int>(rows_.size()) - 1, kPicks));
}

void LiveRowsModel::clear() {
  setRows({}, {});
}

const LiveRow* LiveRowsModel::row(int r) const {
  if (r < 0 || r >= static_cast<int>(rows_.size())) return nullptr;
  return &rows_[static_cast<std::size_t>(r)];
}

QString LiveRowsModel::picksAt(int r) const {
  QStringList out;
  if (replay_.best_row == r && r >= 0) out << tr("best");
  for (const auto& p : replay_.picks) {
    if (p.row == r && r >= 0) out << QString::fromLatin1(inductor::policyKey(p.policy));
  }
  return out.join(QStringLiteral(", "));
}

int LiveRowsModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int LiveRowsModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : kColumnCount;
}

QVariant LiveRowsModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal) return {};
  if (role == Qt::DisplayRole) {
    switch (section) {
      case kXBlock:
        return tr("XBLOCK");
      case kRBlock:
        return tr("RBLOCK");
      case kNumWarps:
        return tr("num_warps");
      case kStatus:
        return tr("Status");
      case kTime:
        return tr("Time (µs)");
      case kMin:
        return tr("Min (µs)");
      case kMax:
        return tr("Max (µs)");
      case kSpread:
        return tr("Spread (%)");
      case kBandwidth:
        return tr("Bandwidth (GB/s)");
      case kPctCopy:
        return tr("% of copy");
      case kTheoretical:
        return tr("Theor. occ. (%)");
      case kAchieved:
        return tr("Achieved occ. (%)");
      case kRegisters:
        return tr("Registers/thread");
      case kSpillStores:
        return tr("Spill stores (B)");
      case kNSpills:
        return tr("n_spills");
      case kSets:
        return tr("In candidate set of");
      case kPicks:
        return tr("Picked by");
      case kDramRead:
        return tr("DRAM read (B)");
      case kDramWrite:
        return tr("DRAM written (B)");
      case kLocalLoad:
        return tr("Local loads (B)");
      case kLocalStore:
        return tr("Local stores (B)");
      case kMaxError:
        return tr("Max |error|");
      case kReason:
        return tr("Notes");
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (section) {
      case kTime:
        return tr("Median of the timed runs (CUDA events, L2 flushed before each), microseconds");
      case kSpread:
        return tr("Interquartile range of the timed runs in percent of the median");
      case kBandwidth:
        return tr("Minimum bytes moved (inputs read once + outputs written once) / median time, 10^9 B/s");
      case kPctCopy:
        return tr("Bandwidth in percent of the device's measured device-to-device copy bandwidth");
      case kTheoretical:
        return tr("Occupancy calculator: active warps per SM / maximum warps per SM, real registers");
      case kAchieved:
        return tr("CUPTI's achieved occupancy (sm__warps_active), where the profiler is permitted");
      case kNSpills:
        return tr("Triton's n_spills (local bytes / 4); the autotuner skips configs with more than 16");
      case kSets:
        return tr("The autotuner candidate sets (Inductor's configs plus the halved configs each bound adds)");
      case kPicks:
        return tr("The fastest benchmarked candidate of each policy, and the fastest config of all");
      default:
        return {};
    }
  }
  return {};
}

QVariant LiveRowsModel::data(const QModelIndex& index, int role) const {
  const LiveRow* r = row(index.row());
  if (r == nullptr) return {};
  const int col = index.column();
  if (role == Qt::DisplayRole || role == kSortRole) {
    const bool sort = role == kSortRole;
    switch (col) {
      case kXBlock:
        return r->config.xblock;
      case kRBlock:
        return r->config.rblock;
      case kNumWarps:
        return r->config.num_warps;
      case kStatus:
        return QString::fromUtf8(runStatusName(r->status).data());
      case kTime:
        return timeCell(*r, r->time.median_us, 2, sort);
      case kMin:
        return timeCell(*r, r->time.min_us, 2, sort);
      case kMax:
        return timeCell(*r, r->time.max_us, 2, sort);
      case kSpread:
        return timeCell(*r, r->time.spread_pct, 2, sort);
      case kBandwidth:
        if (!r->ok()) return sort ? QVariant(-1.0) : QVariant(QString());
        return sort ? QVariant(r->bandwidth_GBps) : QVariant(QString::number(r->bandwidth_GBps, 'f', 0));
      case kPctCopy:
        if (!r->ok()) return sort ? QVariant(-1.0) : QVariant(QString());
        return sort ? QVariant(r->pct_of_copy) : QVariant(QString::number(r->pct_of_copy, 'f', 1));
      case kTheoretical:
        if (r->theoretical_occupancy_pct < 0) return sort ? QVariant(-1.0) : QVariant(QString());
        return sort ? QVariant(r->theoretical_occupancy_pct)
                    : QVariant(QString::number(r->theoretical_occupancy_pct, 'f', 1));
      case kAchieved:
        return metricCell(r->achieved_occupancy_pct, 1, sort);
      case kRegisters:
        return r->registers < 0 ? QVariant(QString()) : QVariant(r->registers);
      case kSpillStores:
        return r->spill_stores_bytes < 0 ? QVariant(QString()) : QVariant(r->spill_stores_bytes);
      case kNSpills:
        return r->n_spills < 0 ? QVariant(QString()) : QVariant(r->n_spills);
      case kSets:
        return policySetsText(*r);
      case kPicks:
        return picksAt(index.row());
      case kDramRead:
        return metricCell(r->dram_read_bytes, 0, sort);
      case kDramWrite:
        return metricCell(r->dram_write_bytes, 0, sort);
      case kLocalLoad:
        return metricCell(r->local_load_bytes, 0, sort);
      case kLocalStore:
        return metricCell(r->local_store_bytes, 0, sort);
      case kMaxError:
        if (r->max_abs_error < 0) return sort ? QVariant(-1.0) : QVariant(QString());
        return sort ? QVariant(r->max_abs_error) : QVariant(QString::number(r->max_abs_error, 'g', 3));
      case kReason:
        return QString::fromStdString(r->reason);
      default:
        return {};
    }
  }
  if (role == Qt::TextAlignmentRole) {
    if (col == kStatus || col == kSets || col == kPicks || col == kReason)
      return QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::BackgroundRole) {
    if (col == kPicks || col == kTime || col == kBandwidth) {
      if (replay_.best_row == index.row()) return QBrush(kBestColor);
      for (const auto& p : replay_.picks) {
        if (p.row == index.row()) return QBrush(kPickColor);
      }
    }
    if ((col == kSpillStores || col == kNSpills) && r->spill_stores_bytes > 0) return QBrush(kSpillColor);
    return {};
  }
  if (role == Qt::ForegroundRole) {
    if (col == kStatus && !r->ok()) return QBrush(kFailColor);
    return {};
  }
  if (role == Qt::FontRole) {
    if (col == kPicks && !picksAt(index.row()).isEmpty()) {
      QFont f;
      f.setBold(true);
      return f;
    }
    return {};
  }
  if (role == Qt::ToolTipRole) {
    if (col == kAchieved && !r->achieved_occupancy_pct.value) {
      return tr("unavailable: %1").arg(QString::fromStdString(r->achieved_occupancy_pct.unavailable));
    }
    if (col == kReason || col == kStatus) return QString::fromStdString(r->reason);
    if (col == kTime && r->ok() && r->kernel_time_us) {
      return tr("CUPTI kernel duration (median): %1 µs").arg(*r->kernel_time_us, 0, 'f', 2);
    }
    return {};
  }
  return {};
}

}  // namespace occx::ui
