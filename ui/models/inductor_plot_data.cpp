#include "ui/models/inductor_plot_data.h"

#include <QObject>
#include <algorithm>
#include <map>
#include <set>

#include "core/triton/kernel_sweep.h"
#include "ui/models/inductor_run_actions.h"
#include "ui/models/text.h"

namespace occx::ui {

namespace {

using triton::ScanRow;

/// The rows of `rows` that are measured config `m` (and were measured).
std::vector<int> rowsOfMeasured(const triton::MeasuredConfig& m, const std::vector<ScanRow>& rows,
                                const std::vector<std::optional<RunConfigModel::Measured>>& measured) {
  std::vector<int> out;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (measured[i] && measuredRowMatches(m, rows[i])) out.push_back(static_cast<int>(i));
  }
  return out;
}

/// The value of `metric` for row `i` of `source`; none when unknown or (measured metrics) not run ok.
std::optional<double> sweepValueOf(const SweepPlotSource& source, std::size_t i, SweepMetric metric) {
  const ScanRow& r = source.rows[i];
  const auto& m = source.measured[i];
  switch (metric) {
    case SweepMetric::kBandwidth:
      return m && m->row.ok() ? std::optional<double>(m->row.measured.bandwidth_GBps) : std::nullopt;
    case SweepMetric::kTime:
      return m && m->row.ok() ? std::optional<double>(m->row.measured.timeUs()) : std::nullopt;
    case SweepMetric::kRegisters:
      return r.n_regs ? std::optional<double>(static_cast<double>(*r.n_regs)) : std::nullopt;
    case SweepMetric::kOccupancy:
      return r.occupancy_pct;
  }
  return std::nullopt;
}

}  // namespace

QString sweepMetricLabel(SweepMetric metric) {
  switch (metric) {
    case SweepMetric::kBandwidth:
      return QObject::tr("DRAM bandwidth (GB/s)");
    case SweepMetric::kTime:
      return QObject::tr("Device time, L2 cold (µs)");
    case SweepMetric::kRegisters:
      return QObject::tr("Registers per thread");
    case SweepMetric::kOccupancy:
      return QObject::tr("Theoretical occupancy (%)");
  }
  return {};
}

bool isMeasuredMetric(SweepMetric metric) {
  return metric == SweepMetric::kBandwidth || metric == SweepMetric::kTime;
}

SweepPlotSource sweepPlotSource(const InductorRunData& data, const RunKernelEntry& kernel,
                                const QStringList& explanation) {
  SweepPlotSource s;
  s.kernel = q(kernel.kernel);
  s.rows = compiledConfigsOf(kernel);
  s.measured = measuredOfRows(data, s.rows);
  const triton::KernelPicks* p = measuredPicksOf(data, kernel.kernel, kernel.module);
  QStringList lines = explanation;
  if (lines.isEmpty() && p != nullptr) {
    // A sweep measured elsewhere (bundled, or a CSV opened): the same sentences from its rows.
    const bool swept =
        std::any_of(data.measured.rows.begin(), data.measured.rows.end(), [&](const triton::MeasuredConfig& r) {
          return r.kernel == kernel.kernel && r.module == kernel.module && !r.swept_for.empty();
        });
    if (swept) {
      for (const auto& l : triton::explainSweep(data.measured.rows, {*p})) lines << q(l);
    }
  }
  s.note = lines.isEmpty() ? QObject::tr(
                                 "Sweep this kernel compiles the configs Inductor never tried; until then "
                                 "this plots the configs of the cache.")
                           : lines.join(QLatin1Char('\n'));
  if (p == nullptr) return s;
  const auto& measured_rows = data.measured.rows;
  auto mark = [&](SweepMark::Kind kind, int group, const QString& label, int measured_row) {
    if (measured_row < 0 || measured_row >= static_cast<int>(measured_rows.size())) return;
    const triton::MeasuredConfig& m = measured_rows[static_cast<std::size_t>(measured_row)];
    s.marks.push_back({kind, group, label, rowsOfMeasured(m, s.rows, s.measured), m.xblock});
  };
  if (p->best_row >= 0 && p->best_row < static_cast<int>(measured_rows.size())) {
    mark(SweepMark::Kind::kBest, 0,
         QObject::tr("best: %1").arg(q(measured_rows[static_cast<std::size_t>(p->best_row)].configText())),
         p->best_row);
  }
  if (p->winner_row >= 0) {
    mark(SweepMark::Kind::kInductorPick, 0, QObject::tr("Inductor's pick, regret %1").arg(p->winner_regret, 0, 'f', 2),
         p->winner_row);
  }
  // Each policy's pick; policies that pick the same config share one mark (named after all of them).
  std::vector<bool> said(p->picks.size(), false);
  int group = 0;
  for (std::size_t i = 0; i < p->picks.size(); ++i) {
    if (said[i] || p->picks[i].row < 0) continue;
    QStringList names;
    for (std::size_t j = i; j < p->picks.size(); ++j) {
      if (!said[j] && p->picks[j].row == p->picks[i].row) {
        said[j] = true;
        names << q(std::string(inductor::policyKey(p->picks[j].policy)));
      }
    }
    mark(SweepMark::Kind::kPolicyPick, group,
         QObject::tr("%1 pick, regret %2").arg(names.join(QStringLiteral(", "))).arg(p->picks[i].regret, 0, 'f', 2),
         p->picks[i].row);
    ++group;
  }
  return s;
}

KernelSweepPlotData sweepPlotData(const SweepPlotSource& source, SweepMetric metric, int xblock) {
  KernelSweepPlotData d;
  const std::vector<ScanRow>& rows = source.rows;
  // A persistent reduction has no R loop (no R0_BLOCK to vary): its configs go along XBLOCK.
  d.along_x = std::none_of(rows.begin(), rows.end(), [](const ScanRow& r) { return r.r0_block.has_value(); });
  std::set<int> xs;
  for (const auto& r : rows) {
    if (r.xblock && r.r0_block) xs.insert(static_cast<int>(*r.xblock));
  }
  d.xblocks.assign(xs.begin(), xs.end());
  d.xblock = xs.count(xblock) > 0 ? xblock : (xs.empty() ? 0 : *xs.begin());
  const bool along_x = d.along_x;
  auto xOf = [along_x](const ScanRow& r) { return static_cast<double>(along_x ? *r.xblock : *r.r0_block); };
  auto shown = [&](const ScanRow& r) {
    return r.xblock && r.num_warps && (along_x || (r.r0_block && *r.xblock == d.xblock));
  };

  static const QStringList kWhat = {QObject::tr("DRAM bandwidth"), QObject::tr("Device time (L2 cold)"),
                                    QObject::tr("Registers"), QObject::tr("Theoretical occupancy")};
  const QString what = kWhat.value(static_cast<int>(metric));
  const auto configs = static_cast<qulonglong>(rows.size());
  d.title = along_x ? QObject::tr("%1 per config of %2 (%3 configs)").arg(what, source.kernel).arg(configs)
                    : QObject::tr("%1 per config of %2, XBLOCK %3 (%4 configs in all)")
                          .arg(what, source.kernel)
                          .arg(d.xblock)
                          .arg(configs);
  d.x_label = along_x ? QObject::tr("XBLOCK (rows per block, log₂ scale)")
                      : QObject::tr("R0_BLOCK (elements per loop iteration, log₂ scale)");
  d.y_label = sweepMetricLabel(metric);

  std::map<int, SweepSeries> series;
  double hi = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const ScanRow& r = rows[i];
    if (!shown(r)) continue;
    const auto y = sweepValueOf(source, i, metric);
    if (!y) continue;
    SweepSeries& s = series[static_cast<int>(*r.num_warps)];
    s.num_warps = static_cast<int>(*r.num_warps);
    s.x.append(xOf(r));
    s.y.append(*y);
    s.rows.append(static_cast<int>(i));
    hi = std::max(hi, *y);
  }
  for (auto& [w, s] : series) d.series.push_back(std::move(s));

  // The best and each policy's pick, where they are of this XBLOCK.
  if (isMeasuredMetric(metric)) {
    for (const SweepMark& m : source.marks) {
      SweepMarkPoints p;
      p.kind = m.kind;
      p.group = m.group;
      for (int i : m.rows) {
        const auto y = sweepValueOf(source, static_cast<std::size_t>(i), metric);
        if (!y || !shown(rows[static_cast<std::size_t>(i)])) continue;
        p.x.append(xOf(rows[static_cast<std::size_t>(i)]));
        p.y.append(*y);
        p.rows.append(i);
      }
      p.name = m.label + (p.x.isEmpty() ? QObject::tr(" [XBLOCK %1]").arg(m.xblock) : QString());
      d.marks.push_back(std::move(p));
    }
  }
  if (d.series.empty()) {
    d.note = isMeasuredMetric(metric) ? QObject::tr("Not measured: sweep or run this kernel on a GPU.")
                                      : QObject::tr("No configs of XBLOCK %1.").arg(d.xblock);
  }
  d.y_hi = std::max(hi, 1.0) * 1.12;
  return d;
}

QString measuredNoteText(const InductorRunData& data, const RunKernelEntry& kernel, const QString& unavailable) {
  const triton::KernelPicks* p = measuredPicksOf(data, kernel.kernel, kernel.module);
  if (p == nullptr) {
    return unavailable.isEmpty() ? QObject::tr("Not measured yet: Run on this GPU runs its compiled configs.")
                                 : QObject::tr("Not measured: %1").arg(unavailable);
  }
  QString note = QObject::tr("%1: %2 of %3 configs ran ok").arg(data.measured_label).arg(p->ok_rows).arg(p->rows);
  if (p->best_row >= 0 && p->best_row < static_cast<int>(data.measured.rows.size())) {
    note += QObject::tr("; fastest %1 at %2 µs")
                .arg(q(data.measured.rows[static_cast<std::size_t>(p->best_row)].configText()))
                .arg(p->best_time_us, 0, 'f', 1);
  }
  if (p->winner_row >= 0) note += QObject::tr("; Inductor's winner: regret %1").arg(p->winner_regret, 0, 'f', 2);
  note += p->outputs_agree ? QObject::tr("; outputs agree across configs.")
                           : QObject::tr("; <b>outputs disagree</b> (hover the Status cells).");
  return note;
}

namespace {

/// A bar for row `i` of `rows`, measured as `m` (ran ok).
MeasuredBar measuredBarOf(const std::vector<ScanRow>& rows, std::size_t i, const RunConfigModel::Measured& m) {
  MeasuredBar bar;
  bar.row = static_cast<int>(i);
  bar.label = shortConfigText(rows[i]);
  bar.time_us = m.row.measured.timeUs();
  bar.inductors = rows[i].origin != "swept" && m.row.origin != "swept";
  bar.best = m.picked_by.contains(QStringLiteral("best"));
  for (std::size_t p = 0; p < inductor::kPolicies.size(); ++p) {
    if (m.picked_by.contains(q(inductor::policyKey(inductor::kPolicies[p]))))
      bar.policies.push_back(static_cast<int>(p));
  }
  return bar;
}

}  // namespace

MeasuredBars measuredBars(const std::vector<ScanRow>& rows,
                          const std::vector<std::optional<RunConfigModel::Measured>>& measured, int max_bars) {
  MeasuredBars out;
  std::vector<MeasuredBar> own;
  std::vector<MeasuredBar> must;    // the others that are the fastest or a pick
  std::vector<MeasuredBar> others;  // the rest
  for (std::size_t i = 0; i < rows.size() && i < measured.size(); ++i) {
    const auto& m = measured[i];
    if (!m || !m->row.ok()) {
      ++out.without_time;
      continue;
    }
    MeasuredBar bar = measuredBarOf(rows, i, *m);
    out.top_us = std::max(out.top_us, bar.time_us);
    if (bar.inductors) {
      own.push_back(std::move(bar));
    } else if (bar.best || !bar.policies.empty()) {
      must.push_back(std::move(bar));
    } else {
      others.push_back(std::move(bar));
    }
  }
  auto faster = [](const MeasuredBar& a, const MeasuredBar& b) {
    return a.time_us != b.time_us ? a.time_us < b.time_us : a.row < b.row;
  };
  std::sort(own.begin(), own.end(), faster);
  std::sort(others.begin(), others.end(), faster);
  // Room for the others: the rows left, less one for the summary when not all of them fit.
  const auto fixed = static_cast<int>(own.size() + must.size());
  const int room = std::max(max_bars, 1) - fixed;
  const auto all = static_cast<int>(others.size());
  const int shown = all <= room ? all : std::max(room - 1, 0);
  std::vector<MeasuredBar> rest_of_them(others.begin() + shown, others.end());
  others.resize(static_cast<std::size_t>(shown));
  others.insert(others.end(), must.begin(), must.end());
  std::sort(others.begin(), others.end(), faster);
  out.bars = std::move(own);
  out.bars.insert(out.bars.end(), others.begin(), others.end());
  out.rest = static_cast<int>(rest_of_them.size());
  if (!rest_of_them.empty()) {
    out.rest_lo_us = rest_of_them.front().time_us;
    out.rest_hi_us = rest_of_them.back().time_us;
  }
  return out;
}

std::vector<PickTableRow> picksTableRows(const InductorRunData& data, const RunKernelEntry& kernel) {
  std::vector<PickTableRow> out;
  const triton::KernelPicks* p = measuredPicksOf(data, kernel.kernel, kernel.module);
  if (p == nullptr) return out;
  for (const PolicyPick& r : p->picks) {
    PickTableRow row;
    row.policy = q(inductor::policyKey(r.policy));
    const bool picked = r.row >= 0 && r.row < static_cast<int>(data.measured.rows.size());
    row.pick = picked ? q(data.measured.rows[static_cast<std::size_t>(r.row)].configText()) : QObject::tr("none ran");
    row.pick_tooltip =
        QObject::tr("%1 configs in the policy's set, %2 benchmarked").arg(r.candidates).arg(r.benchmarked);
    row.cold_us = picked ? QString::number(r.time_us, 'f', 1) : QString();
    row.regret = picked ? QString::number(r.regret, 'f', 2) : QString();
    QStringList missing;
    for (const auto& m : r.not_compiled) missing << q(m);
    row.not_compiled = missing.isEmpty() ? QObject::tr("—") : missing.join(QStringLiteral("; "));
    out.push_back(std::move(row));
  }
  return out;
}

ConfigBounds configBounds(const ScanRow* row, const RunKernelEntry* kernel) {
  ConfigBounds b;
  if (row == nullptr) {
    if (kernel != nullptr)
      b.note = QObject::tr("This kernel has no compiled config to show (%1).").arg(q(kernel->kind));
    return b;
  }
  const auto device = deviceOfRow(*row);
  const auto inputs = decisionInputsOfRow(*row);
  if (!device || !inputs || !inputs->first.n_regs) {
    b.note = QObject::tr("No bounds for this config: its device or its registers are unknown.");
    return b;
  }
  auto curves = inductor::boundCurves(inputs->first, inputs->second, *device);
  if (!curves) {
    b.note = q(curves.error());
    return b;
  }
  b.n_regs = *inputs->first.n_regs;
  for (const auto& p : curves->points) {
    if (p.n_regs == b.n_regs) b.current_bound = p.new_bound;
  }
  b.sm_count = device->sm_count;
  b.curves = std::move(curves).value();
  b.title =
      QObject::tr("Resident blocks per SM vs registers per thread — %1, %2").arg(shortConfigText(*row), q(row->device));
  b.note = QObject::tr("%1: %2 registers, new bound %3. ")
               .arg(shortConfigText(*row))
               .arg(b.n_regs)
               .arg(q(row->new_decision));
  if (row->kind != triton::kernelKindName(triton::KernelKind::kLoopedReduction)) {
    b.note += QObject::tr("A %1 is never scaled: the bounds are shown for reference.").arg(q(row->kind));
  } else if (!row->new_reason.empty()) {
    b.note += q(row->new_reason);
  }
  return b;
}

}  // namespace occx::ui
