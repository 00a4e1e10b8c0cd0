#include "ui/models/inductor_run_models.h"

#include <QBrush>
#include <QColor>
#include <algorithm>

#include "ui/models/text.h"

namespace occx::ui {

namespace {

using triton::ScanRow;

const QColor kWinnerColor(220, 240, 220);

const ColumnText kKernelColumns[] = {
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Kernel"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel",
                       "The Triton kernel's name (triton_red_: looped reduction, triton_per_: persistent, triton_poi_: "
                       "pointwise); hover for its module and device")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Kind"),
     QT_TRANSLATE_NOOP(
         "occx::ui::KernelListModel",
         "looped reduction (R loop, R0_BLOCK tuned), persistent reduction, pointwise (listed, not analysed)")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Size hints"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Inductor's size hints: numels rounded up to powers of two")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Configs"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel",
                       "Compiled configs: those Inductor compiled (found in Triton's cache), then \"+ N\" a sweep "
                       "added (Sweep this kernel, or a bundled sweep's measurements)")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Winner regs"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Registers per thread of the autotuner's winner (.best_config)")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Max spills"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "The most spilled registers (Triton's n_spills) of any config")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Winner occ. (%)"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Theoretical occupancy of the winner")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Added"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Configs the dynamic RBLOCK scaling added (halved copies)")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "Bounds disagree"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel",
                       "Some config on which the old, new, review_min and exact bounds decide differently")},
    {QT_TRANSLATE_NOOP("occx::ui::KernelListModel", "In-step µs/step"),
     QT_TRANSLATE_NOOP("occx::ui::KernelListModel",
                       "The kernel's device time per step inside your training step, from the profiler trace opened "
                       "in the Step tab (blank: not in the trace, or no trace)")},
};
static_assert(std::size(kKernelColumns) == KernelListModel::kColumnCount);

const ColumnText kConfigColumns[] = {
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "XBLOCK"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Rows (elements of the kept dimension, xnumel) one program (block) handles")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "R0_BLOCK"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Elements of the reduced dimension per loop iteration (RBLOCK in older Inductor); the RBLOCK "
                       "scaling halves it")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "num_warps"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Warps of 32 threads per block")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Regs/thread"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Registers per thread, read from the cubin (what cuFuncGetAttribute reports)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "n_spills"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Triton's n_spills: local memory per thread / 4; over the kernel's spill_threshold (16 unless "
                       "its inductor_meta says otherwise) a config is never benchmarked")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Occupancy (%)"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Theoretical occupancy: active warps per SM / maximum warps per SM")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Origin"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Who compiled the config. Inductor: candidate (its list for the size hints), added by scaling "
                       "(a halved copy), coordinate descent, other (in the cache, none of these). A sweep: swept "
                       "(Sweep this kernel, or a bundled sweep's measurements)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Winner"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "The autotuner's choice (.best_config)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Status"),
     QT_TRANSLATE_NOOP(
         "occx::ui::RunConfigModel",
         "How the config's run on the GPU ended (hover for the reason and what its outputs were compared with)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Cold (µs)"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Device time per launch, L2 cold (flushed before each launch): the median of CUPTI's kernel "
                       "records (CUDA events where CUPTI gives none). Configs are compared by this figure, as "
                       "Inductor's autotuner compares them; hover for the warm and events figures")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Warm (µs)"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Device time per launch, L2 warm: the inputs were just written by a copy on the GPU, as "
                       "the kernel before it leaves them in a step. A kernel's time inside a step lies between "
                       "cold and warm")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "DRAM GB/s"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Achieved DRAM bandwidth: the bytes DRAM read and wrote (CUPTI) / the cold device time. "
                       "Without CUPTI's counters, the buffers' bytes / time as an estimate, shown only when not "
                       "above the copy bandwidth; hover for the source")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Achieved occ. (%)"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Achieved occupancy measured by CUPTI (sm__warps_active / the maximum)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Picked by"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "The policies whose pick this config is (the fastest measured config of the policy's "
                       "candidate set), and \"best\" for the fastest config of the kernel")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Regret"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Time / the best config's time (1.00 = the best)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "new bound"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Decision under the new (current) bound: max(regs_per_SM // (n_regs · 32 · num_warps), 1)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "old bound"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Decision under the old bound: max_threads_per_SM // (32 · num_warps)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "review_min"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Decision under min(register term, max_warps_per_SM // num_warps)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "exact bound"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Decision under the occupancy calculator's active blocks per SM")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "spills rule"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Decision of the rule proposed in the new bound's review: halve whenever the config spills "
                       "(n_spills > 0), whatever occupancy says")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Blocks/SM"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Active blocks per SM (occupancy calculator; measured: the driver's answer)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Limiter"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "The limit that binds active blocks per SM: warps, blocks, registers or shared memory")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Local (B)"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Local memory per thread (the cubin's frame size), bytes")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Shared (B)"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel",
                       "Shared memory per block the kernel asks for (static + dynamic), bytes; the CUDA runtime "
                       "reserves 1 KB more per block on CC 8.0 and later, which occupancy counts")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "num_stages"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Software-pipelining stages of Triton's loads (1: none)")},
    {QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "Triton folder"),
     QT_TRANSLATE_NOOP("occx::ui::RunConfigModel", "The Triton cache folder of this config")},
};
static_assert(std::size(kConfigColumns) == RunConfigModel::kColumnCount);

QVariant optionalNumber(const std::optional<std::int64_t>& v) {
  return v ? QVariant(static_cast<qlonglong>(*v)) : QVariant(QString());
}

}  // namespace

QString configsText(const RunKernelEntry& k) {
  const int swept = k.sweptConfigs();
  const int inductor = k.compiledConfigs() - swept;
  return swept == 0 ? QString::number(inductor) : QStringLiteral("%1 + %2").arg(inductor).arg(swept);
}

QString shortConfigText(const ScanRow& row) {
  QString s;
  if (row.xblock) s += QStringLiteral("X%1").arg(*row.xblock);
  if (row.r0_block) s += QStringLiteral(" R%1").arg(*row.r0_block);
  if (row.r1_block) s += QStringLiteral("×%1").arg(*row.r1_block);
  if (row.num_warps) s += QStringLiteral(" w%1").arg(*row.num_warps);
  if (row.num_stages && *row.num_stages != 1) s += QStringLiteral(" s%1").arg(*row.num_stages);
  return s.trimmed();
}

QStringList kernelListNames(const std::vector<RunKernelEntry>& kernels) {
  std::map<std::string, int> count;
  for (const RunKernelEntry& k : kernels) ++count[k.kernel];
  QStringList out;
  out.reserve(static_cast<qsizetype>(kernels.size()));
  for (const RunKernelEntry& k : kernels) {
    QString name = QString::fromStdString(k.kernel);
    if (count[k.kernel] > 1) name += QStringLiteral(" [%1]").arg(QString::fromStdString(k.module.substr(0, 7)));
    out << name;
  }
  return out;
}

namespace {

/// A short form of a name: its first characters, "…", optionally a run of its words and "…" again,
/// and its last words ("triton_poi_fused…_view_12", "triton_poi…_clone…_view_10").
struct ElidedForm {
  QString head;
  QString middle;  ///< empty: one "…" only
  QString tail;

  [[nodiscard]] QString text() const {
    const QString dots = QStringLiteral("…");
    return middle.isEmpty() ? head + dots + tail : head + dots + middle + dots + tail;
  }
  /// Whether `other` could read as this form: starts with head, ends with tail, has middle between.
  [[nodiscard]] bool matches(const QString& other) const {
    if (other.size() < head.size() + tail.size() || !other.startsWith(head) || !other.endsWith(tail)) return false;
    return QStringView(other).mid(head.size(), other.size() - head.size() - tail.size()).contains(middle);
  }
};

/// `form` with the longest head (of `name`'s first `head_max` characters) that fits `width`
/// pixels; false when not even an empty head fits.
bool fitHead(ElidedForm& form, const QString& name, qsizetype head_max, const QFontMetrics& metrics, int width) {
  form.head = name.left(head_max);
  while (metrics.horizontalAdvance(form.text()) > width) {
    if (form.head.isEmpty()) return false;
    form.head.chop(1);
  }
  return true;
}

/// Where `name`'s '_'-separated words start (each at its '_'), first to last.
QVector<qsizetype> wordStarts(const QString& name) {
  QVector<qsizetype> out;
  for (qsizetype i = 1; i < name.size(); ++i) {
    if (name[i] == QLatin1Char('_') && name[i - 1] != QLatin1Char('_')) out << i;
  }
  return out;
}

/// The first form of `name` in `width` pixels that no other of `names` could read as: one "…"
/// before more and more of the last words; then "…", one or two words of the middle, "…" and the
/// last word. Empty when none fits or tells it apart.
QString distinctForm(const QString& name, const QStringList& names, const QFontMetrics& metrics, int width) {
  auto alone = [&](const ElidedForm& f) {
    return std::none_of(names.begin(), names.end(),
                        [&](const QString& other) { return other != name && f.matches(other); });
  };
  const QVector<qsizetype> starts = wordStarts(name);
  for (qsizetype k = starts.size() - 1; k >= 0; --k) {
    ElidedForm f{{}, {}, name.mid(starts[k])};
    if (!fitHead(f, name, starts[k], metrics, width)) break;  // longer tails fit no better
    if (alone(f)) return f.text();
  }
  if (starts.size() < 3) return {};
  const qsizetype last = starts.back();
  for (qsizetype words = 1; words <= 2; ++words) {
    for (qsizetype a = starts.size() - 1 - words; a >= 1; --a) {
      ElidedForm f{{}, name.mid(starts[a], starts[a + words] - starts[a]), name.mid(last)};
      if (fitHead(f, name, starts[a], metrics, width) && alone(f)) return f.text();
    }
  }
  return {};
}

}  // namespace

QString elideKernelName(const QString& name, const QStringList& names, const QFontMetrics& metrics, int width) {
  if (metrics.horizontalAdvance(name) <= width) return name;
  const QString form = distinctForm(name, names, metrics, width);
  return form.isEmpty() ? metrics.elidedText(name, Qt::ElideMiddle, width) : form;
}

KernelListModel::KernelListModel(QObject* parent) : TableModel(parent) {
  auto stale = [this] { names_valid_ = false; };
  connect(this, &QAbstractItemModel::modelReset, this, stale);
  connect(this, &QAbstractItemModel::rowsInserted, this, stale);
  connect(this, &QAbstractItemModel::dataChanged, this, stale);
}

const QStringList& KernelListModel::shownNames() const {
  if (!names_valid_) {
    shown_names_ = kernelListNames(rows());
    names_valid_ = true;
  }
  return shown_names_;
}

void KernelListModel::setInStepTimes(std::map<std::pair<std::string, std::string>, double> times) {
  in_step_ = std::move(times);
  if (numRows() > 0) emit dataChanged(index(0, kInStep), index(numRows() - 1, kInStep));
}

std::optional<double> KernelListModel::inStepTime(const RunKernelEntry& k) const {
  auto it = in_step_.find({k.kernel, k.module});
  if (it == in_step_.end()) return std::nullopt;
  return it->second;
}

QVariant KernelListModel::headerCell(int column, int role) const {
  return columnHeader(kKernelColumns[column], "occx::ui::KernelListModel", role);
}

QVariant KernelListModel::cell(const RunKernelEntry& k, int r, int column, int role) const {
  const ScanRow* w = k.winnerRow();
  if (role == Qt::DisplayRole || role == kSortRole) {
    switch (column) {
      case kKernel:
        return r < shownNames().size() ? shownNames()[r] : QString::fromStdString(k.kernel);
      case kKind:
        return QString::fromStdString(k.kind);
      case kSizeHints:
        return QString::fromStdString(k.size_hints);
      case kConfigs:
        return role == kSortRole || k.sweptConfigs() == 0 ? QVariant(k.compiledConfigs()) : QVariant(configsText(k));
      case kWinnerRegisters:
        return w != nullptr ? optionalNumber(w->n_regs) : QVariant(QString());
      case kMaxSpills:
        return optionalNumber(k.max_spills);
      case kWinnerOccupancy:
        if (w == nullptr || !w->occupancy_pct) return QString();
        return role == kSortRole ? QVariant(*w->occupancy_pct) : QVariant(QString::number(*w->occupancy_pct, 'f', 1));
      case kAdded:
        return k.added;
      case kBoundsDisagree:
        return k.bounds_disagree ? tr("yes") : QString();
      case kInStep: {
        const auto t = inStepTime(k);
        if (!t) return QString();
        return role == kSortRole ? QVariant(*t) : QVariant(QString::number(*t, 'f', 1));
      }
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole && column == kKernel) {
    return tr("%1\nmodule %2\n%3")
        .arg(QString::fromStdString(k.kernel), QString::fromStdString(k.module), QString::fromStdString(k.device));
  }
  if (role == Qt::BackgroundRole && k.over_spill_threshold) return QBrush(kSpillColor);
  if (role == Qt::TextAlignmentRole && column >= kConfigs) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

RunConfigModel::RunConfigModel(QObject* parent) : TableModel(parent) {}

void RunConfigModel::setMeasured(std::vector<std::optional<Measured>> measured) {
  measured_ = std::move(measured);
  if (numRows() > 0) emit dataChanged(index(0, 0), index(numRows() - 1, kColumnCount - 1));
}

const RunConfigModel::Measured* RunConfigModel::measured(int r) const {
  if (r < 0 || r >= static_cast<int>(measured_.size()) || r >= numRows()) return nullptr;
  const auto& m = measured_[static_cast<std::size_t>(r)];
  return m ? &*m : nullptr;
}

QVariant RunConfigModel::measuredCell(const Measured& m, int column, int role) const {
  const triton::MeasuredConfig& k = m.row;
  if (role == Qt::DisplayRole || role == kSortRole) {
    const bool sort = role == kSortRole;
    switch (column) {
      case kStatus:
        return QString::fromUtf8(runStatusName(k.measured.status).data(),
                                 static_cast<qsizetype>(runStatusName(k.measured.status).size()));
      case kTime:
        if (!k.ok()) return QString();
        return sort ? QVariant(k.measured.timeUs()) : QVariant(QString::number(k.measured.timeUs(), 'f', 1));
      case kWarmTime: {
        const auto w = k.ok() ? k.measured.warmTimeUs() : std::nullopt;
        if (!w) return QString();
        return sort ? QVariant(*w) : QVariant(QString::number(*w, 'f', 1));
      }
      case kBandwidth:
        if (!k.ok() || k.measured.bandwidth_GBps <= 0) return QString();
        return sort ? QVariant(k.measured.bandwidth_GBps) : QVariant(q(bandwidthCell(k.measured)));
      case kAchieved:
        if (!k.measured.achieved_occupancy_pct.value) return QString();
        return sort ? QVariant(*k.measured.achieved_occupancy_pct.value)
                    : QVariant(QString::number(*k.measured.achieved_occupancy_pct.value, 'f', 1));
      case kPickedBy:
        return m.picked_by.join(QStringLiteral(", "));
      case kRegret:
        if (m.regret <= 0) return QString();
        return sort ? QVariant(m.regret) : QVariant(QString::number(m.regret, 'f', 2));
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) {
    switch (column) {
      case kStatus: {
        QString text = k.measured.reason.empty() ? QString::fromStdString(std::string(runStatusName(k.measured.status)))
                                                 : QString::fromStdString(k.measured.reason);
        if (!k.measured.check.compared_with.empty())
          text += tr("\nOutputs compared with: %1").arg(QString::fromStdString(k.measured.check.compared_with));
        if (k.measured.maxAbsError() >= 0)
          text += tr("\nLargest difference: %1").arg(k.measured.maxAbsError(), 0, 'g', 3);
        if (!k.buffers_from.empty()) text += tr("\nBuffers from %1").arg(QString::fromStdString(k.buffers_from));
        return text;
      }
      case kTime:
      case kWarmTime:
        if (!k.ok()) return QString::fromStdString(k.measured.reason);
        return q(timeText(k.measured)) + tr("\nevents: min %1, max %2, spread (p75 − p25) / median %3 % over %4 runs")
                                             .arg(k.measured.time.min_us, 0, 'f', 2)
                                             .arg(k.measured.time.max_us, 0, 'f', 2)
                                             .arg(k.measured.time.spread_pct, 0, 'f', 1)
                                             .arg(k.measured.time.runs);
      case kBandwidth:
        return q(bandwidthText(k.measured)) +
               tr("\nthe buffers hold %1 bytes").arg(static_cast<qlonglong>(k.measured.bytes_moved));
      case kAchieved:
        return k.measured.achieved_occupancy_pct.value
                   ? QVariant()
                   : QVariant(QString::fromStdString(k.measured.achieved_occupancy_pct.unavailable));
      case kRegret:
        return m.best_us > 0 ? QVariant(tr("best of the kernel: %1 µs").arg(m.best_us, 0, 'f', 1)) : QVariant();
      default:
        return {};
    }
  }
  if (role == Qt::BackgroundRole) {
    if (column == kStatus && !k.ok()) return QBrush(kSpillColor);
    if (column == kPickedBy && m.picked_by.contains(QStringLiteral("best"))) return QBrush(kWinnerColor);
  }
  if (role == Qt::TextAlignmentRole &&
      (column == kTime || column == kWarmTime || column == kBandwidth || column == kAchieved || column == kRegret)) {
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  return {};
}

std::vector<std::optional<RunConfigModel::Measured>> measuredOfRows(const InductorRunData& data,
                                                                    const std::vector<ScanRow>& rows) {
  std::vector<std::optional<RunConfigModel::Measured>> out(rows.size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const triton::MeasuredConfig* m = measuredRowOf(data, rows[i]);
    if (m == nullptr) continue;
    RunConfigModel::Measured cell;
    cell.row = *m;
    if (const triton::KernelPicks* p = measuredPicksOf(data, m->kernel, m->module)) {
      const auto index = static_cast<int>(m - data.measured.rows.data());
      cell.best_us = p->best_time_us;
      if (p->best_row == index) cell.picked_by << QStringLiteral("best");
      for (const auto& pick : p->picks) {
        if (pick.row == index)
          cell.picked_by << QString::fromUtf8(inductor::policyKey(pick.policy).data(),
                                              static_cast<qsizetype>(inductor::policyKey(pick.policy).size()));
      }
      if (m->ok() && p->best_time_us > 0) cell.regret = p->timeOf(m->measured) / p->best_time_us;
    }
    out[i] = std::move(cell);
  }
  return out;
}

QVariant RunConfigModel::headerCell(int column, int role) const {
  return columnHeader(kConfigColumns[column], "occx::ui::RunConfigModel", role);
}

QVariant RunConfigModel::displayCell(const ScanRow& row, int column, int role) const {
  switch (column) {
    case kXBlock:
      return optionalNumber(row.xblock);
    case kR0Block:
      return optionalNumber(row.r0_block);
    case kNumWarps:
      return optionalNumber(row.num_warps);
    case kRegisters:
      return optionalNumber(row.n_regs);
    case kSpills:
      return optionalNumber(row.n_spills);
    case kOccupancy:
      if (!row.occupancy_pct) return QString();
      return role == kSortRole ? QVariant(*row.occupancy_pct) : QVariant(QString::number(*row.occupancy_pct, 'f', 1));
    case kOrigin:
      return QString::fromStdString(row.origin);
    case kWinner:
      return row.winner ? tr("yes") : QString();
    case kNew:
      return QString::fromStdString(row.new_decision);
    case kOld:
      return QString::fromStdString(row.old_decision);
    case kReviewMin:
      return QString::fromStdString(row.review_min_decision);
    case kExact:
      return QString::fromStdString(row.exact_decision);
    case kSpillsRule:
      return QString::fromStdString(row.spills_decision);
    case kBlocksPerSm:
      return optionalNumber(row.blocks_per_sm);
    case kLimiter:
      return QString::fromStdString(row.limiter);
    case kLocalBytes:
      return optionalNumber(row.local_bytes);
    case kSharedBytes:
      return optionalNumber(row.shared_bytes);
    case kNumStages:
      return optionalNumber(row.num_stages);
    case kTritonFolder:
      return QString::fromStdString(row.triton_cache_hash);
    default:
      return {};
  }
}

QVariant RunConfigModel::toolTipCell(const ScanRow& row, int column) const {
  switch (column) {
    case kNew:
      return QString::fromStdString(row.new_reason);
    case kOld:
      return QString::fromStdString(row.old_reason);
    case kReviewMin:
      return QString::fromStdString(row.review_min_reason);
    case kExact:
      return QString::fromStdString(row.exact_reason);
    case kSpillsRule:
      return QString::fromStdString(row.spills_reason);
    case kOrigin:
      return row.halved_from.empty() ? QVariant()
                                     : QVariant(tr("halved from %1").arg(QString::fromStdString(row.halved_from)));
    case kSharedBytes: {
      const auto device = deviceOfRow(row);
      const std::int64_t reserved = device ? device->arch.reserved_shared_memory_per_block : 0;
      if (!row.shared_bytes || reserved <= 0) return {};
      return tr("%1 B the kernel asks for + %2 B the CUDA runtime reserves per block = %3 B a block takes")
          .arg(static_cast<qlonglong>(*row.shared_bytes))
          .arg(reserved)
          .arg(static_cast<qlonglong>(*row.shared_bytes) + static_cast<qlonglong>(reserved));
    }
    default:
      return row.notes.empty() ? QVariant() : QVariant(QString::fromStdString(row.notes));
  }
}

QVariant RunConfigModel::backgroundCell(const ScanRow& row, int column) {
  if (row.over_spill_threshold && (column == kSpills || column == kRegisters)) return QBrush(kSpillColor);
  if ((column == kNew || column == kOld || column == kReviewMin || column == kExact || column == kSpillsRule)) {
    const std::string& d = column == kNew         ? row.new_decision
                           : column == kOld       ? row.old_decision
                           : column == kReviewMin ? row.review_min_decision
                           : column == kExact     ? row.exact_decision
                                                  : row.spills_decision;
    if (d == "scale") return QBrush(kScaleColor);
  }
  if (row.winner && column == kWinner) return QBrush(kWinnerColor);
  return {};
}

QVariant RunConfigModel::cell(const ScanRow& row, int r, int column, int role) const {
  if (column >= kStatus && column <= kRegret) {
    const Measured* m = measured(r);
    if (m != nullptr) return measuredCell(*m, column, role);
    if (role == Qt::DisplayRole || role == kSortRole) return QString();
    if (role == Qt::ToolTipRole) return tr("Not measured: run it on a GPU (Run on this GPU) or open a kernel-runs CSV");
    return {};
  }
  if (role == Qt::DisplayRole || role == kSortRole) return displayCell(row, column, role);
  if (role == Qt::ToolTipRole) return toolTipCell(row, column);
  if (role == Qt::BackgroundRole) return backgroundCell(row, column);
  if (role == Qt::TextAlignmentRole && (column <= kOccupancy || column == kBlocksPerSm || column == kLocalBytes ||
                                        column == kSharedBytes || column == kNumStages)) {
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  return {};
}

}  // namespace occx::ui
