#include "ui/models/live_sweep_model.h"

#include <QBrush>
#include <QColor>
#include <QFont>
#include <iterator>

#include "core/sweep/compile_sweep.h"
#include "ui/models/text.h"

namespace occx::ui {

namespace {

const QColor kLiveBestRowColor(255, 243, 191);
const QColor kPickColor(214, 234, 248);
const QColor kFailColor(139, 0, 0);

QVariant metricCell(const Metric& m, int digits, bool sort) {
  if (m.value) return sort ? QVariant(*m.value) : QVariant(QString::number(*m.value, 'f', digits));
  return sort ? QVariant(-1.0) : QVariant(QObject::tr("unavailable"));
}

QVariant timeCell(const LiveRow& r, double v, int digits, bool sort) {
  if (!r.ok()) return sort ? QVariant(1e300) : QVariant(QString());
  return sort ? QVariant(v) : QVariant(QString::number(v, 'f', digits));
}

/// The header of every column, in Column order.
const ColumnText kLiveSweepColumns[] = {
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "XBLOCK"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Rows (elements of the kept dimension) one block reduces")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "RBLOCK"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Elements of the reduced dimension per loop iteration (Inductor now calls it R0_BLOCK)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "num_warps"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Warps of 32 threads per block")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Status"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "How the config's run ended: ok, or why not (hover for the reason)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Cold (µs)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Device time per launch, L2 cold (flushed before each launch): the median of CUPTI's kernel "
                       "records, or of CUDA events where CUPTI gives none; configs are compared by it")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Triton µs"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Device time (L2 cold) of Inductor's own Triton kernel at the same XBLOCK, R0_BLOCK and "
                       "num_warps, measured for the same problem, microseconds")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Triton / ours"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Triton's device time / ours (L2 cold, one source for both): below 1 Inductor's kernel is "
                       "faster, above 1 ours is")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Triton regs"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Registers per thread of Inductor's Triton kernel at this config (n_regs)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Warm (µs)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Device time per launch, L2 warm: the inputs just written by a copy on the GPU, as the "
                       "kernel before it leaves them in a step")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Min (µs)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "The fastest of the cold timed runs")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Max (µs)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "The slowest of the cold timed runs")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Spread (%)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Spread of the cold timed runs: (75th percentile − 25th percentile) / median × 100, the middle "
                       "half of the runs. One slow run moves Max, not the spread (hover a cell for both)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "DRAM GB/s"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Achieved DRAM bandwidth: DRAM bytes read + written (CUPTI) / the cold device time, 10^9 B/s; "
                       "without CUPTI's counters, the minimum bytes (inputs read once, outputs written once) / "
                       "time as an estimate; hover for the source")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "% of copy"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Bandwidth in percent of the device's measured device-to-device copy bandwidth")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Theor. occ. (%)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Occupancy calculator: active warps per SM / maximum warps per SM, real registers")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Achieved occ. (%)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "CUPTI's achieved occupancy (sm__warps_active), where the profiler is permitted")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Registers/thread"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Registers per thread, from NVRTC's compile (ptxas)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Spill stores (B)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Bytes of spill stores per thread ptxas reports: registers that did not fit went to local "
                       "memory")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "n_spills"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Triton's n_spills (local bytes / 4); the autotuner skips configs with more than 16")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "In candidate set of"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "The autotuner candidate sets (Inductor's configs plus the halved configs each bound adds)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Picked by"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "The fastest benchmarked candidate of each policy, and the fastest config of all")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "DRAM read (B)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Bytes DRAM read during one cold launch (CUPTI)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "DRAM written (B)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Bytes DRAM wrote during one cold launch (CUPTI)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Local loads (B)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Bytes loaded from local memory (spilled registers) during one launch (CUPTI)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Local stores (B)"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "Bytes stored to local memory (spilled registers) during one launch (CUPTI)")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Max |error|"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel",
                       "The largest absolute difference between the kernel's outputs and the CPU reference")},
    {QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Notes"),
     QT_TRANSLATE_NOOP("occx::ui::LiveSweepModel", "Why a config did not run or was not checked, and other notes")},
};
static_assert(std::size(kLiveSweepColumns) == LiveSweepModel::kColumnCount);

/// `v` with `digits` decimals, blank (sorting first) when negative: not known.
QVariant knownCell(double v, int digits, bool sort, char format = 'f') {
  if (v < 0) return sort ? QVariant(-1.0) : QVariant(QString());
  return sort ? QVariant(v) : QVariant(QString::number(v, format, digits));
}

bool isTextColumn(int column) {
  return column == LiveSweepModel::kStatus || column == LiveSweepModel::kSets || column == LiveSweepModel::kPicks ||
         column == LiveSweepModel::kReason;
}

}  // namespace

QString spreadToolTip(const TimingStats& t) {
  if (t.runs == 0 || t.median_us <= 0.0) return {};
  return QObject::tr(
             "%1 cold runs: 25th percentile %2 µs, median %3 µs, 75th percentile %4 µs → spread (%4 − %2) / %3 = "
             "%5 %.\nMin %6 µs, max %7 µs: the slowest run is %8 % above the median.")
      .arg(t.runs)
      .arg(t.p25_us, 0, 'f', 2)
      .arg(t.median_us, 0, 'f', 2)
      .arg(t.p75_us, 0, 'f', 2)
      .arg(t.spread_pct, 0, 'f', 2)
      .arg(t.min_us, 0, 'f', 2)
      .arg(t.max_us, 0, 'f', 2)
      .arg((t.max_us / t.median_us - 1.0) * 100.0, 0, 'f', 0);
}

QString policySetsText(const LiveRow& row) {
  QStringList sets;
  for (auto p : sweepCandidatePolicies()) {
    if (row.inPolicySets().contains(p)) sets << QString::fromLatin1(inductor::policyKey(p));
  }
  if (sets.isEmpty() && row.in_grid) return QObject::tr("grid only");
  return sets.join(QLatin1Char(' '));
}

LiveSweepModel::LiveSweepModel(QObject* parent) : TableModel(parent) {}

void LiveSweepModel::setRows(std::vector<LiveRow> rows, const PickSummary& replay) {
  replay_ = replay;
  pairs_.clear();
  pair_of_row_.clear();
  TableModel::setRows(std::move(rows));
}

void LiveSweepModel::setTritonPairs(std::vector<FidelityPair> pairs) {
  pairs_ = std::move(pairs);
  pair_of_row_.assign(static_cast<std::size_t>(numRows()), -1);
  for (std::size_t i = 0; i < pairs_.size(); ++i) {
    const int r = pairs_[i].live_row;
    if (r >= 0 && r < numRows()) pair_of_row_[static_cast<std::size_t>(r)] = static_cast<int>(i);
  }
  if (numRows() > 0) emit dataChanged(index(0, kTritonTime), index(numRows() - 1, kTritonRegisters));
}

const FidelityPair* LiveSweepModel::tritonPairAt(int r) const {
  if (r < 0 || r >= static_cast<int>(pair_of_row_.size())) return nullptr;
  const int i = pair_of_row_[static_cast<std::size_t>(r)];
  return i < 0 ? nullptr : &pairs_[static_cast<std::size_t>(i)];
}

void LiveSweepModel::appendRow(const LiveRow& row, const PickSummary& replay) {
  TableModel::appendRow(row);
  replay_ = replay;
  emit dataChanged(index(0, kPicks), index(numRows() - 1, kPicks));
}

QString LiveSweepModel::picksAt(int r) const {
  QStringList out;
  if (replay_.best_row == r && r >= 0) out << tr("best");
  for (const auto& p : replay_.picks) {
    if (p.row == r && r >= 0) out << QString::fromLatin1(inductor::policyKey(p.policy));
  }
  return out.join(QStringLiteral(", "));
}

QVariant LiveSweepModel::headerCell(int column, int role) const {
  return columnHeader(kLiveSweepColumns[column], staticMetaObject.className(), role);
}

QVariant LiveSweepModel::cell(const LiveRow& row, int r, int col, int role) const {
  switch (role) {
    case Qt::DisplayRole:
    case kSortRole:
      return displayCell(row, r, col, role == kSortRole);
    case Qt::TextAlignmentRole:
      return QVariant((isTextColumn(col) ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      return backgroundCell(row, r, col);
    case Qt::ForegroundRole:
      return col == kStatus && !row.ok() ? QVariant(QBrush(kFailColor)) : QVariant();
    case Qt::FontRole:
      if (col == kPicks && !picksAt(r).isEmpty()) {
        QFont f;
        f.setBold(true);
        return f;
      }
      return {};
    case Qt::ToolTipRole:
      return toolTipCell(row, r, col);
    default:
      return {};
  }
}

QVariant LiveSweepModel::displayCell(const LiveRow& row, int r, int col, bool sort) const {
  switch (col) {
    case kXBlock:
      return row.config.xblock;
    case kRBlock:
      return row.config.rblock;
    case kNumWarps:
      return row.config.num_warps;
    case kStatus:
      return QString::fromUtf8(runStatusName(row.measured.status).data());
    case kTime:
      return timeCell(row, row.measured.timeUs(), 2, sort);
    case kWarmTime: {
      const auto w = row.ok() ? row.measured.warmTimeUs() : std::nullopt;
      return knownCell(w ? *w : -1.0, 2, sort);
    }
    case kTritonTime:
    case kTritonRegisters:
    case kTritonRatio: {
      const FidelityPair* p = tritonPairAt(r);
      if (col == kTritonRegisters) return p != nullptr ? numberOrBlank(p->triton_registers) : QVariant(QString());
      return knownCell(p == nullptr ? -1.0 : col == kTritonTime ? p->triton_us : p->ratio, 2, sort);
    }
    case kMin:
      return timeCell(row, row.measured.timeStats().min_us, 2, sort);
    case kMax:
      return timeCell(row, row.measured.timeStats().max_us, 2, sort);
    case kSpread:
      return timeCell(row, row.measured.timeStats().spread_pct, 2, sort);
    case kBandwidth:
      if (!row.ok() || row.measured.bandwidth_GBps <= 0.0) return knownCell(-1, 0, sort);
      return sort ? QVariant(row.measured.bandwidth_GBps) : QVariant(q(bandwidthCell(row.measured)));
    case kPctCopy:
      return row.ok() && row.measured.pct_of_copy > 0.0 ? knownCell(row.measured.pct_of_copy, 1, sort)
                                                        : knownCell(-1, 1, sort);
    case kTheoretical:
      return knownCell(row.theoretical_occupancy_pct, 1, sort);
    case kAchieved:
      return metricCell(row.measured.achieved_occupancy_pct, 1, sort);
    case kRegisters:
      return numberOrBlank(row.registers);
    case kSpillStores:
      return numberOrBlank(row.spill_stores_bytes);
    case kNSpills:
      return numberOrBlank(row.n_spills);
    case kSets:
      return policySetsText(row);
    case kPicks:
      return picksAt(r);
    case kDramRead:
      return metricCell(row.measured.dram_read_bytes, 0, sort);
    case kDramWrite:
      return metricCell(row.measured.dram_write_bytes, 0, sort);
    case kLocalLoad:
      return metricCell(row.measured.local_load_bytes, 0, sort);
    case kLocalStore:
      return metricCell(row.measured.local_store_bytes, 0, sort);
    case kMaxError:
      return knownCell(row.measured.maxAbsError(), 3, sort, 'g');
    case kReason:
      return QString::fromStdString(row.measured.reason);
    default:
      return {};
  }
}

QVariant LiveSweepModel::backgroundCell(const LiveRow& row, int r, int col) const {
  if (col == kPicks || col == kTime || col == kBandwidth) {
    if (replay_.best_row == r) return QBrush(kLiveBestRowColor);
    for (const auto& p : replay_.picks) {
      if (p.row == r) return QBrush(kPickColor);
    }
  }
  if ((col == kSpillStores || col == kNSpills) && row.spill_stores_bytes > 0) return QBrush(kSpillColor);
  return {};
}

QVariant LiveSweepModel::toolTipCell(const LiveRow& row, int r, int col) const {
  if (col == kAchieved && !row.measured.achieved_occupancy_pct.value) {
    return tr("unavailable: %1").arg(QString::fromStdString(row.measured.achieved_occupancy_pct.unavailable));
  }
  if (col == kReason || col == kStatus) return QString::fromStdString(row.measured.reason);
  if (col == kTritonRegisters || col == kTritonRatio || col == kTritonTime) {
    const FidelityPair* p = tritonPairAt(r);
    if (p == nullptr) return {};
    return tr("Triton %1 µs, ours %2 µs; Triton %3 registers, ours %4; spills: Triton %5, ours %6")
        .arg(p->triton_us, 0, 'f', 2)
        .arg(p->ours_us, 0, 'f', 2)
        .arg(p->triton_registers)
        .arg(p->ours_registers)
        .arg(p->triton_spills ? tr("yes") : tr("no"), p->ours_spills ? tr("yes") : tr("no"));
  }
  if ((col == kTime || col == kWarmTime) && row.ok()) return q(timeText(row.measured));
  if ((col == kSpread || col == kMax || col == kMin) && row.ok()) return spreadToolTip(row.measured.timeStats());
  if (col == kBandwidth && row.ok()) return q(bandwidthText(row.measured));
  return {};
}

}  // namespace occx::ui
