#include "ui/models/compile_sweep_content.h"

#include <QCoreApplication>
#include <QObject>
#include <QStringList>
#include <algorithm>
#include <map>
#include <set>

#include "ui/models/compile_sweep_model.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

namespace {

const QColor kCapColor(214, 39, 40);
const QColor kFullOccColor(44, 160, 44);
const QColor kCompileSelectedColor(214, 39, 40);

// ", 3 not compiled (the config cannot be built; hover a row for why)", or "" for none.
QString notCompiledText(int n) {
  if (n <= 0) return {};
  return QCoreApplication::translate("occx::ui::CompileSweepView",
                                     ", %n not compiled (the config cannot be built; hover its status for why)",
                                     nullptr, n);
}

QString compileXBlockTitle(const QString& title, int xblock, bool shown) {
  return shown ? title + QObject::tr(" (XBLOCK = %1)").arg(xblock) : title;
}

}  // namespace

QString compileConfigText(const KernelConfig& c) {
  return QStringLiteral("XBLOCK=%1 RBLOCK=%2 num_warps=%3").arg(c.xblock).arg(c.rblock).arg(c.num_warps);
}

CompileSweepPlots compileSweepPlots(const std::vector<CompileSweepRecord>& entries, int xblock, int selected,
                                    const CompileSweepDataset& data, const QString& empty_note) {
  std::map<int, std::vector<int>> by_warps;  // num_warps → rows
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    if (e.ok && e.config.xblock == xblock && e.registers >= 0)
      by_warps[e.config.num_warps].push_back(static_cast<int>(i));
  }
  const CompileSweepRecord* sel = selected >= 0 && selected < static_cast<int>(entries.size())
                                      ? &entries[static_cast<std::size_t>(selected)]
                                      : nullptr;
  CompileSweepPlots out;
  int max_spill = 0;
  for (const bool regs : {true, false}) {
    SweepPlotData& p = regs ? out.registers : out.spills;
    for (const auto& [w, rows] : by_warps) {
      SweepSeriesData s = sweepSeries(warpCountText(w), w);
      for (int row : rows) {
        const auto& e = entries[static_cast<std::size_t>(row)];
        s.x.append(e.config.rblock);
        s.y.append(regs ? e.registers : std::max(0, e.spill_stores_bytes));
        s.rows.append(row);
        if (!regs) max_spill = std::max(max_spill, e.spill_stores_bytes);
      }
      p.series.push_back(std::move(s));
    }
    if (regs) {
      p.lines.push_back({static_cast<double>(data.max_registers_per_thread),
                         QObject::tr("%1-register cap").arg(data.max_registers_per_thread), kCapColor, Qt::DashLine});
      p.lines.push_back({static_cast<double>(data.full_occupancy_registers),
                         QObject::tr("full occupancy ≤ %1 registers").arg(data.full_occupancy_registers), kFullOccColor,
                         Qt::DashDotLine});
    }
    if (sel != nullptr && sel->ok && sel->config.xblock == xblock) {
      p.markers.push_back(
          {QObject::tr("selected: RBLOCK %1, %2").arg(sel->config.rblock).arg(warpCountText(sel->config.num_warps)),
           {static_cast<double>(sel->config.rblock)},
           {static_cast<double>(regs ? sel->registers : std::max(0, sel->spill_stores_bytes))},
           {selected},
           MarkerShape::kDiamond,
           kCompileSelectedColor,
           13,
           /*in_legend=*/false});
    }
  }
  out.registers.y_hi = std::max(data.max_registers_per_thread, 1) * 1.1;
  out.spills.y_hi = std::max(16.0, max_spill * 1.15);
  out.registers.title =
      compileXBlockTitle(QObject::tr("Registers per thread against RBLOCK"), xblock, !by_warps.empty());
  out.spills.title =
      compileXBlockTitle(QObject::tr("Spill stores per thread against RBLOCK"), xblock, !by_warps.empty());
  if (by_warps.empty()) {
    out.registers.note = empty_note;
    out.spills.note = empty_note;
  } else if (max_spill <= 0) {
    out.spills.note = QObject::tr("No config with XBLOCK = %1 spills").arg(xblock);
  }
  return out;
}

QString compilePlotNote(bool running, bool can_compile) {
  if (running) return QObject::tr("compiling …");
  return can_compile ? QObject::tr("No data: compile a sweep or open a CSV")
                     : QObject::tr("No data: open a CSV written by 'occx sweep'");
}

QString describeCompileRecord(const CompileSweepRecord& e) {
  QString text = compileConfigText(e.config);
  if (!e.ok) {
    return text + QObject::tr("\nerror: %1").arg(QString::fromStdString(e.error.substr(0, e.error.find('\n'))));
  }
  text += QObject::tr("\n%1 registers per thread, spill stores %2 B, loads %3 B, n_spills %4")
              .arg(e.registers)
              .arg(e.spill_stores_bytes)
              .arg(e.spill_loads_bytes)
              .arg(e.n_spills);
  if (e.occupancy_pct >= 0) {
    text += QObject::tr("\n%1 blocks/SM, occupancy %2 % (limited by %3)")
                .arg(e.active_blocks_per_sm)
                .arg(e.occupancy_pct, 0, 'f', 1)
                .arg(QString::fromStdString(e.limiter));
  }
  QStringList decisions;
  for (const auto& d : e.decisions)
    decisions << QStringLiteral("%1: %2").arg(QString::fromUtf8(inductor::policyKey(d.policy).data()), decisionText(d));
  if (!decisions.isEmpty()) text += QLatin1Char('\n') + decisions.join(QStringLiteral(", "));
  return text;
}

QString compileRowStatusText(qulonglong done, qulonglong total, const CompileSweepRow& row) {
  QString line = QObject::tr("[%1/%2] %3: ").arg(done).arg(total).arg(compileConfigText(row.config));
  if (row.ok) {
    line += QObject::tr("%1 registers, %2 B spill stores%3")
                .arg(row.report.registers)
                .arg(row.report.spill_stores_bytes)
                .arg(row.cache_hit ? QObject::tr(" (cache)") : QString());
  } else {
    line += QObject::tr("error: %1").arg(QString::fromStdString(row.error.substr(0, row.error.find('\n'))));
  }
  return line;
}

QString compileFinishedText(const CompileSweepResult& result) {
  const int rows = static_cast<int>(result.rows.size());
  if (result.cancelled) {
    return QObject::tr("Cancelled: kept the %1 finished rows of %2 configs (%3 compiled, %4 failed%5).")
        .arg(rows)
        .arg(result.total_configs)
        .arg(result.compiled)
        .arg(result.failed)
        .arg(notCompiledText(result.not_compiled));
  }
  return QObject::tr("%1 configs in %2 s: %3 compiled (%4 from the cache), %5 failed%6. %7.")
      .arg(rows)
      .arg(result.wall_seconds, 0, 'f', 2)
      .arg(result.compiled)
      .arg(result.cache_hits)
      .arg(result.failed)
      .arg(notCompiledText(result.not_compiled))
      .arg(QString::fromStdString(result.compiler.empty() ? std::string("no compiler output") : result.compiler));
}

QString compileDatasetTitle(const CompileSweepDataset& data, const QString& source) {
  QString shape =
      QObject::tr("%1 %2%3, %4 × %5 on %6 — %7")
          .arg(QString::fromUtf8(workloadName(data.workload).data()), QString::fromUtf8(dtypeName(data.dtype).data()),
               data.workload == Workload::kFusedK ? QStringLiteral(" K=%1").arg(data.k) : QString())
          .arg(data.xnumel)
          .arg(data.rnumel)
          .arg(QString::fromStdString(data.arch.smName() + (data.device_label.empty() ? "" : ", " + data.device_label)))
          .arg(source);
  if (data.cancelled) {
    shape += QObject::tr(" (cancelled: %1 of %2 configs)").arg(data.rows.size()).arg(data.total_configs);
  }
  return shape;
}

QString compileSweepSummary(const QString& arch, const CompileSweepDataset& data, bool can_compile) {
  QString s = arch;
  if (!data.rows.empty()) {
    int spilling = 0;
    for (const auto& e : data.rows) spilling += e.spills() ? 1 : 0;
    s += QObject::tr(" · %1 configs shown, %2 spill").arg(data.rows.size()).arg(spilling);
  }
  if (!can_compile) s += QObject::tr(" · compiling needs the CUDA Toolkit");
  return s;
}

int compileDefaultSelection(const CompileSweepDataset& data) {
  for (const auto& e : data.rows) {
    if (e.inductor_candidate && e.ok) return e.index;
  }
  return data.rows.empty() ? -1 : data.rows.front().index;
}

CompileSweepSpec compileSpecFromDataset(const CompileSweepDataset& d, CompileSweepSpec spec) {
  spec.workload = d.workload;
  spec.dtype = d.dtype;
  spec.k = d.k;
  spec.xnumel = d.xnumel;
  spec.rnumel = d.rnumel;
  spec.static_shape = d.metaValue("shape") == shapeKindName(true);  // files without it: run-time shapes
  std::set<int> xblocks;
  std::set<int> rblocks;
  std::set<int> warps;
  for (const auto& r : d.rows) {
    xblocks.insert(r.config.xblock);
    rblocks.insert(r.config.rblock);
    warps.insert(r.config.num_warps);
  }
  if (!d.rows.empty()) {
    spec.grid.xblock.assign(xblocks.begin(), xblocks.end());
    spec.grid.r0_block.assign(rblocks.begin(), rblocks.end());
    spec.grid.num_warps.assign(warps.begin(), warps.end());
  }
  return spec;
}

}  // namespace occx::ui
