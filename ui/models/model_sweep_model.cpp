#include "ui/models/model_sweep_model.h"

#include <QBrush>
#include <QColor>
#include <QStringList>
#include <algorithm>
#include <iterator>

#include "core/base/format.h"
#include "core/inductor/bounds.h"
#include "core/sweep/measurement.h"
#include "ui/models/text.h"

namespace occx::ui {

namespace {

const ColumnText kModelSweepColumns[] = {
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "#"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Order of the sweep: by in-step time per step, longest first")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Kernel"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "The looped reduction swept (hover for its whole name)")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "µs/step"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "Its in-step device time of all its launches in one step, from the trace (torch.profiler)")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Share (%)"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Of the step's GPU time, from the trace")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Ran config"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "The config its launches used in the step")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Ran µs"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "The sweep's time of the config that ran: cold device time per launch (L2 flushed), µs")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Best config"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "The fastest config of the sweep")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Best µs"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "The sweep's time of the best config: cold device time per launch (L2 flushed), µs")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Gain µs/step"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "What the config fastest as the step sees it would save per step: µs/step × (1 − its time / "
                       "ran's), each time as the step sees it (cold and warm weighed by where the config that ran lies "
                       "between them inside the step; hover for the config); a kernel that failed says why")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "New pick"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "The fastest config of the new (current) bound's set: what Inductor's autotuner would pick")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Old pick"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "The fastest config of the old bound's set")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Coordesc"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "The config Inductor's coordinate descent found, and its sweep time over the best's")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Best as a pin"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "Whether the best config, written to the kernel's .best_config, would run: 'holds'; "
                       "'scaled' when Inductor's RBLOCK scaling adds a halved copy to time against it; 'not a "
                       "candidate' when the run was compiled without coordinate descent and Inductor ignores it; "
                       "'no .best_config' when Inductor wrote none; 'undecided' when registers are unknown (hover a "
                       "row for why)")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Pin"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "The config that would hold and is fastest as the step sees it, when faster there than the one "
                       "that ran, and the kernel's in-step time with it (µs/step × its time / ran's, as the step sees "
                       "them): what `occx inductor pin` writes")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Configs"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Configs the sweep compiled and read back for this kernel")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Screened out"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "Configs the brief first pass found too slow to time with the full method")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "From cache"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel",
                       "Rows whose times came from the sweep cache (measured before on this GPU and driver)")},
    {QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Wall s"),
     QT_TRANSLATE_NOOP("occx::ui::ModelSweepModel", "Wall time of the kernel's sweep (compile and runs), s")},
};
static_assert(std::size(kModelSweepColumns) == ModelSweepModel::kColumnCount);

/// The gain cell: the gain, or why there is none.
QString gainCell(const ModelSweepRow& row) {
  if (row.gain.ran_us > 0) return q(fixed(row.gain.gain_us, 1));
  if (!row.swept.error.empty()) return ModelSweepModel::tr("failed: %1").arg(q(row.swept.error));
  if (row.swept.result && !row.swept.result->measured) return ModelSweepModel::tr("not timed");
  return ModelSweepModel::tr("unknown");
}

/// Why the gain cell says what it says, and what the sweep found, for the row's tooltip.
QString rowToolTip(const ModelSweepRow& row) {
  QStringList lines{q(row.gain.kernel)};
  if (!row.gain.module.empty()) lines << ModelSweepModel::tr("module %1").arg(q(row.gain.module));
  const auto* res = row.swept.result ? &*row.swept.result : nullptr;
  if (!row.swept.error.empty()) {
    lines << ModelSweepModel::tr("failed: %1").arg(q(row.swept.error));
  } else if (res != nullptr && !res->measured) {
    lines << ModelSweepModel::tr("not timed: %1").arg(q(res->not_measured));
  } else if (row.gain.ran_us <= 0) {
    lines << ModelSweepModel::tr("the config that ran in the step was not timed ok: no gain is predicted");
  } else if (row.gain.gain_us > 0) {
    lines << ModelSweepModel::tr("gain: %1 µs/step with %2, as the step sees it.%3")
                 .arg(q(fixed(row.gain.gain_us, 1)), q(row.gain.gain_config),
                      q(row.gain.mix.words(row.gain.ran_config)));
  } else {
    lines << ModelSweepModel::tr("no gain: no config swept is faster than %1 as the step sees it.%2")
                 .arg(q(row.gain.ran_config), q(row.gain.mix.words(row.gain.ran_config)));
  }
  if (!row.pin.words.empty()) lines << q(row.pin.words);
  if (res != nullptr) {
    for (const auto& l : res->explanation) lines << q(l);
  }
  return lines.join(QLatin1Char('\n'));
}

}  // namespace

std::vector<ModelSweepRow> modelSweepRows(const step::ModelSweepResult& result) {
  std::vector<ModelSweepRow> rows;
  std::vector<step::KernelPin> pins = step::planPins(result);
  for (std::size_t i = 0; i < result.kernels.size() && i < result.gain.kernels.size(); ++i) {
    rows.push_back({static_cast<int>(i) + 1, result.kernels[i], result.gain.kernels[i],
                    i < pins.size() ? std::move(pins[i]) : step::KernelPin{}});
  }
  return rows;
}

QString kernelCountText(int n) {
  return n == 1 ? ModelSweepModel::tr("1 kernel") : ModelSweepModel::tr("%1 kernels").arg(n);
}

QString modelSweepText(const step::ModelSweepResult& result) {
  QStringList lines;
  if (result.cancelled) {
    lines << ModelSweepModel::tr("Cancelled: the kernels that finished are kept, and the gain is theirs.");
  }
  for (const auto& l : step::modelSweepNotes(result)) lines << q(l);
  return lines.join(QLatin1Char('\n'));
}

ModelSweepModel::ModelSweepModel(QObject* parent) : TableModel(parent) {}

QVariant ModelSweepModel::headerCell(int column, int role) const {
  return columnHeader(kModelSweepColumns[column], "occx::ui::ModelSweepModel", role);
}

QVariant ModelSweepModel::cell(const ModelSweepRow& row, int /*r*/, int column, int role) const {
  const step::KernelGain& g = row.gain;
  const auto* res = row.swept.result ? &*row.swept.result : nullptr;
  if (role == Qt::DisplayRole || role == kSortRole) {
    const bool sort = role == kSortRole;
    auto number = [sort](double v, int digits) { return sort ? QVariant(v) : QVariant(q(fixed(v, digits))); };
    auto timeOrBlank = [&](double us) { return us > 0 ? number(us, 1) : QVariant(QString()); };
    auto count = [res](int v) { return res != nullptr ? QVariant(v) : QVariant(QString()); };
    switch (column) {
      case kRank:
        return row.rank;
      case kKernel:
        return q(g.kernel);
      case kPerStep:
        return number(g.per_step_us, 1);
      case kShare:
        return number(100.0 * row.swept.target.share, 1);
      case kRanConfig:
        return q(g.ran_config);
      case kRanUs:
        return timeOrBlank(g.ran_us);
      case kBestConfig:
        return q(g.best_config);
      case kBestUs:
        return timeOrBlank(g.best_us);
      case kGain:
        return sort && g.ran_us > 0 ? QVariant(g.gain_us) : QVariant(gainCell(row));
      case kNewPick:
        return q(g.policy_config[inductor::policyIndex(inductor::Policy::kNew)]);
      case kOldPick:
        return q(g.policy_config[inductor::policyIndex(inductor::Policy::kOld)]);
      case kCoordesc:
        if (g.coordesc_config.empty()) return QString();
        if (g.best_us <= 0) return q(g.coordesc_config);
        return tr("%1 (%2×)").arg(q(g.coordesc_config), q(fixed(g.coordesc_us / g.best_us, 2)));
      case kBestAsPin:
        return row.pin.best_config.empty() ? QString() : q(std::string(step::pinHoldName(row.pin.best_check.hold)));
      case kPin:
        if (!row.pin.pin) return row.pin.best_config.empty() ? QString() : tr("none");
        return sort
                   ? QVariant(row.pin.predicted_per_step_us)
                   : QVariant(
                         tr("%1 → %2 µs/step").arg(q(row.pin.pinConfig()), q(fixed(row.pin.predicted_per_step_us, 1))));
      case kConfigs:
        return count(res != nullptr ? static_cast<int>(res->runs.rows.size()) : 0);
      case kScreenedOut:
        return count(res != nullptr ? res->screened_out : 0);
      case kFromCache:
        return count(res != nullptr ? res->from_cache : 0);
      case kSeconds:
        return number(row.swept.seconds, 0);
      default:
        return {};
    }
  }
  if (role == Qt::ToolTipRole) return rowToolTip(row);
  if (role == Qt::ForegroundRole && column == kGain && !row.swept.error.empty()) return QBrush(QColor(160, 0, 0));
  if (role == Qt::TextAlignmentRole && (column == kRank || column == kPerStep || column == kShare || column == kRanUs ||
                                        column == kBestUs || column >= kConfigs || (column == kGain && g.ran_us > 0))) {
    return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  }
  return {};
}

}  // namespace occx::ui
