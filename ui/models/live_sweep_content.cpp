#include "ui/models/live_sweep_content.h"

#include <QFileInfo>
#include <QObject>
#include <QStringList>
#include <algorithm>
#include <set>

#include "core/base/columns.h"
#include "core/base/format.h"
#include "core/gpu/detected_gpu.h"
#include "core/gpu/gpu_data.h"
#include "ui/models/live_datasets.h"
#include "ui/models/text.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

namespace {

const QColor kRooflineColor(178, 34, 34);
const QColor kDatasheetColor(110, 110, 110);
const QColor kLiveSelectedColor(0, 0, 0);
const QColor kLiveBestPointColor(214, 39, 40);

/// How each policy's pick is marked in the bandwidth plot and named in the replay table.
struct LivePickStyle {
  inductor::Policy policy;
  const char* title;
  MarkerShape shape;
  QColor color;
  double size;
};
const LivePickStyle kLivePickStyles[] = {
    {inductor::Policy::kOld, "old bound", MarkerShape::kSquare, QColor(100, 100, 100), 15},
    {inductor::Policy::kNew, "new bound", MarkerShape::kTriangle, QColor(200, 0, 120), 17},
    {inductor::Policy::kExact, "exact bound", MarkerShape::kCircle, QColor(0, 120, 80), 21},
};

QString livePolicyName(inductor::Policy policy) {
  return QString::fromUtf8(inductor::policyKey(policy).data());
}

const LiveRow* liveRowAt(const std::vector<LiveRow>& rows, int r) {
  return r >= 0 && r < static_cast<int>(rows.size()) ? &rows[static_cast<std::size_t>(r)] : nullptr;
}

QString liveXBlockTitle(const QString& title, const LivePlotRows& shown) {
  return shown.by_warps.empty() ? title : title + QObject::tr(" (XBLOCK = %1)").arg(shown.xblock);
}

QString tileText(const KernelConfig& c) {
  return QStringLiteral("%1 × %2, %3 w").arg(c.xblock).arg(c.rblock).arg(c.num_warps);
}

}  // namespace

LivePlotRows livePlotRows(const std::vector<LiveRow>& rows, int xblock, int selected) {
  LivePlotRows shown;
  shown.xblock = xblock;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (!r.ok()) continue;
    if (r.measured.achieved_occupancy_pct.value)
      shown.any_achieved = true;
    else if (shown.achieved_reason.empty())
      shown.achieved_reason = r.measured.achieved_occupancy_pct.unavailable;
    if (r.config.xblock != shown.xblock) continue;
    shown.by_warps[r.config.num_warps].push_back(static_cast<int>(i));
    shown.max_bandwidth = std::max(shown.max_bandwidth, r.measured.bandwidth_GBps);
    shown.max_time = std::max(shown.max_time, r.measured.timeUs());
    shown.max_time_bar = std::max(shown.max_time_bar, r.measured.timeStats().max_us);
  }
  const LiveRow* sel = liveRowAt(rows, selected);
  if (sel != nullptr && sel->ok() && sel->config.xblock == shown.xblock) shown.selected = selected;
  return shown;
}

QString liveConfigText(const KernelConfig& c) {
  return QObject::tr("XBLOCK %1, RBLOCK %2, %3").arg(c.xblock).arg(c.rblock).arg(warpCountText(c.num_warps));
}

SweepPlotData liveBandwidthPlot(const std::vector<LiveRow>& rows, const PickSummary& replay, const LivePlotRows& shown,
                                double copy_GBps, double datasheet_GBps) {
  SweepPlotData plot;
  plot.title = liveXBlockTitle(QObject::tr("DRAM bandwidth per config"), shown);
  for (const auto& [w, idx] : shown.by_warps) {
    SweepSeriesData s = sweepSeries(warpCountText(w), w);
    for (int i : idx) {
      const double bw = rows[static_cast<std::size_t>(i)].measured.bandwidth_GBps;
      if (bw <= 0.0) continue;  // not shown: above what the GPU can move, or nothing to check it against
      s.x.append(rows[static_cast<std::size_t>(i)].config.rblock);
      s.y.append(bw);
      s.rows.append(i);
    }
    plot.series.push_back(std::move(s));
  }
  if (copy_GBps > 0) {
    // The measured limit: a device-to-device copy reads and writes every byte once, so it is the
    // roofline of read+write kernels; a reduction that mostly reads can sit above it.
    plot.lines.push_back({copy_GBps,
                          QObject::tr("roofline: copy %1 GB/s (measured, read + write)").arg(copy_GBps, 0, 'f', 0),
                          kRooflineColor, Qt::DashLine});
  }
  if (datasheet_GBps > 0) {
    plot.lines.push_back({datasheet_GBps, QObject::tr("datasheet DRAM peak %1 GB/s").arg(datasheet_GBps, 0, 'f', 0),
                          kDatasheetColor, Qt::DotLine});
  }
  // Each policy's pick and the best: marked where they are of this XBLOCK, named in the legend always.
  const auto mark = [&](QString name, int row, MarkerShape shape, const QColor& color, double size, bool name_xblock) {
    SweepMarkers m;
    if (const LiveRow* r = liveRowAt(rows, row)) {
      if (r->config.xblock == shown.xblock && r->measured.bandwidth_GBps > 0.0) {
        m.x.append(r->config.rblock);
        m.y.append(r->measured.bandwidth_GBps);
        m.rows.append(row);
      } else if (name_xblock) {
        name += QObject::tr(" [XBLOCK %1]").arg(r->config.xblock);
      }
    }
    m.name = name;
    m.shape = shape;
    m.color = color;
    m.size = size;
    plot.markers.push_back(std::move(m));
  };
  for (const LivePickStyle& style : kLivePickStyles) {
    const PolicyPick* p = replay.pick(style.policy);
    if (p == nullptr) continue;
    QString name = QObject::tr("%1 pick").arg(livePolicyName(style.policy));
    name += liveRowAt(rows, p->row) == nullptr ? QObject::tr(": none timed")
                                               : QObject::tr(", regret %1").arg(p->regret, 0, 'f', 2);
    mark(name, p->row, style.shape, style.color, style.size, /*name_xblock=*/true);
  }
  if (const LiveRow* best = liveRowAt(rows, replay.best_row)) {
    mark(best->measured.bandwidth_GBps > 0 ? QObject::tr("best: %1 GB/s").arg(best->measured.bandwidth_GBps, 0, 'f', 0)
                                           : QObject::tr("best (its bandwidth is not shown)"),
         replay.best_row, MarkerShape::kStar, kLiveBestPointColor, 20, /*name_xblock=*/false);
  }
  if (const LiveRow* sel = liveRowAt(rows, shown.selected)) {
    plot.markers.push_back({QObject::tr("selected"),
                            {static_cast<double>(sel->config.rblock)},
                            {sel->measured.bandwidth_GBps},
                            {shown.selected},
                            MarkerShape::kDiamond,
                            kLiveSelectedColor,
                            11,
                            /*in_legend=*/false});
  }
  plot.y_hi = std::max({shown.max_bandwidth, copy_GBps, 1.0}) * 1.12;
  return plot;
}

SweepPlotData liveTimePlot(const std::vector<LiveRow>& rows, const LivePlotRows& shown,
                           const std::vector<FidelityPair>& triton_pairs) {
  SweepPlotData plot;
  plot.title = liveXBlockTitle(QObject::tr("Device time per config (L2 cold), bars min … max"), shown);
  for (const auto& [w, idx] : shown.by_warps) {
    SweepSeriesData s = sweepSeries(warpCountText(w), w);
    for (int i : idx) {
      const auto& r = rows[static_cast<std::size_t>(i)];
      s.x.append(r.config.rblock);
      const TimingStats st = r.measured.timeStats();
      s.y.append(st.median_us);
      s.minus.append(std::max(0.0, st.median_us - st.min_us));
      s.plus.append(std::max(0.0, st.max_us - st.median_us));
      s.rows.append(i);
    }
    plot.series.push_back(std::move(s));
  }
  // Inductor's kernel at the same configs, the tooltip describing our row and Triton's figures beside it.
  std::map<int, const FidelityPair*> pair_of_row;
  for (const FidelityPair& p : triton_pairs) {
    if (p.live_row >= 0 && p.live_row < static_cast<int>(rows.size())) pair_of_row[p.live_row] = &p;
  }
  double triton_max = 0.0;
  for (const auto& [w, idx] : shown.by_warps) {
    SweepSeriesData s = sweepSeries(QObject::tr("Triton w%1").arg(w), w, /*dashed=*/true);
    for (int i : idx) {
      const auto it = pair_of_row.find(i);
      if (it == pair_of_row.end()) continue;
      s.x.append(it->second->rblock);
      s.y.append(it->second->triton_us);
      s.rows.append(i);
      triton_max = std::max(triton_max, it->second->triton_us);
    }
    if (!s.x.isEmpty()) plot.series.push_back(std::move(s));
  }
  if (const LiveRow* sel = liveRowAt(rows, shown.selected)) {
    plot.markers.push_back({QObject::tr("selected"),
                            {static_cast<double>(sel->config.rblock)},
                            {sel->measured.timeUs()},
                            {shown.selected},
                            MarkerShape::kDiamond,
                            kLiveSelectedColor,
                            11,
                            /*in_legend=*/false});
  }
  // The y range follows the medians; a rare slow run (a clock ramp, a preemption) would otherwise
  // flatten every median to the axis. Bars that reach past the top are cut there, and said so.
  plot.y_hi = std::max({shown.max_time, triton_max, 1.0}) * 1.5;
  if (shown.max_time_bar > plot.y_hi) {
    plot.corner_note = QObject::tr("slowest single run %1 µs: bars cut at the top").arg(shown.max_time_bar, 0, 'f', 1);
  }
  return plot;
}

SweepPlotData liveOccupancyPlot(const std::vector<LiveRow>& rows, const LivePlotRows& shown) {
  SweepPlotData plot;
  for (const bool achieved : {false, true}) {  // theoretical series first, then achieved: one legend row each
    for (const auto& [w, idx] : shown.by_warps) {
      SweepSeriesData s = sweepSeries(achieved ? QObject::tr("%1 w achieved").arg(w) : warpCountText(w), w, achieved);
      for (int i : idx) {
        const auto& r = rows[static_cast<std::size_t>(i)];
        if (!achieved && r.theoretical_occupancy_pct >= 0) {
          s.x.append(r.config.rblock);
          s.y.append(r.theoretical_occupancy_pct);
          s.rows.append(i);
        } else if (achieved && r.measured.achieved_occupancy_pct.value) {
          s.x.append(r.config.rblock);
          s.y.append(*r.measured.achieved_occupancy_pct.value);
          s.rows.append(i);
        }
      }
      if (!achieved || !s.x.isEmpty()) plot.series.push_back(std::move(s));
    }
  }
  plot.y_hi = 122;  // room above 100 % for the corner note
  plot.title = QObject::tr("Occupancy: theoretical (solid), achieved (dashed)");
  if (!shown.any_achieved && !rows.empty()) {
    QString why = QString::fromStdString(shown.achieved_reason);
    if (why.size() > 70) why = why.left(68) + QStringLiteral("…");
    plot.title = QObject::tr("Occupancy: theoretical (achieved unavailable)");
    plot.corner_note = QObject::tr("achieved: %1").arg(why);
  }
  return plot;
}

QString livePlotNote(const LivePlotRows& shown, bool running, bool has_rows, bool can_run) {
  if (!shown.by_warps.empty()) return {};
  if (running) return QObject::tr("measuring …");
  if (has_rows)
    return QObject::tr("No config with XBLOCK = %1 was timed (see the table for the reasons)").arg(shown.xblock);
  return QObject::tr("No data: %1")
      .arg(can_run ? QObject::tr("press Run or open a CSV") : QObject::tr("open a CSV or a bundled dataset"));
}

std::vector<RegretLine> regretLines(const PickSummary& replay, const std::vector<LiveRow>& rows) {
  std::vector<RegretLine> lines;
  for (const LivePickStyle& style : kLivePickStyles) {
    RegretLine line;
    line.title = QLatin1String(style.title);
    line.color = style.color;
    if (const PolicyPick* pick = replay.pick(style.policy)) {
      const PolicyPick& p = *pick;
      line.timed = QObject::tr("%1 of %2").arg(p.benchmarked).arg(p.candidates);
      if (const LiveRow* r = liveRowAt(rows, p.row)) {
        line.pick = tileText(r->config);
        line.pick_tooltip = liveConfigText(r->config);
        line.time_us = QString::number(p.time_us, 'f', 2);
        line.bandwidth_GBps = QString::number(p.bandwidth_GBps, 'f', 0);
        line.regret = QString::number(p.regret, 'f', 3);
        line.high_regret = p.regret > 1.05;
      } else {
        line.pick = p.candidates == 0 ? QObject::tr("no candidates") : QObject::tr("none timed");
      }
    }
    lines.push_back(std::move(line));
  }
  RegretLine best;
  best.title = QObject::tr("best of all");
  best.color = kLiveBestPointColor;
  int ok = 0;
  for (const auto& r : rows) ok += r.ok() ? 1 : 0;
  best.timed = QObject::tr("%1 of %2").arg(ok).arg(rows.size());
  if (const LiveRow* b = liveRowAt(rows, replay.best_row)) {
    best.pick = tileText(b->config);
    best.pick_tooltip = liveConfigText(b->config);
    best.time_us = QString::number(replay.best_time_us, 'f', 2);
    best.bandwidth_GBps = QString::number(replay.best_bandwidth_GBps, 'f', 0);
    best.regret = QStringLiteral("1.000");
  }
  lines.push_back(std::move(best));
  return lines;
}

CsvTable regretCsv(const PickSummary& replay, const std::vector<LiveRow>& rows, const std::string& device,
                   const std::string& date_utc) {
  CsvTable regret;
  regret.meta = {{"device", device}, {"date_utc", date_utc}};
  regret.header = {"policy", "candidates", "benchmarked", "pick", "time_us", "bandwidth_GBps", "regret"};
  for (const auto& p : replay.picks) {
    const LiveRow* r = liveRowAt(rows, p.row);
    regret.rows.push_back({std::string(inductor::policyKey(p.policy)), std::to_string(p.candidates),
                           std::to_string(p.benchmarked), r != nullptr ? r->config.label() : std::string(),
                           r != nullptr ? fixed(p.time_us, 3) : "", r != nullptr ? fixed(p.bandwidth_GBps, 1) : "",
                           r != nullptr ? fixed(p.regret, 3) : ""});
  }
  if (const LiveRow* b = liveRowAt(rows, replay.best_row)) {
    regret.rows.push_back({"best", std::to_string(rows.size()), "", b->config.label(), fixed(replay.best_time_us, 3),
                           fixed(replay.best_bandwidth_GBps, 1), "1"});
  }
  return regret;
}

QString describeLiveRow(const LiveRow& row, const QString& picks, const FidelityPair* pair) {
  QString text = liveConfigText(row.config);
  if (!row.ok()) {
    return text + QObject::tr("\n%1: %2")
                      .arg(QString::fromUtf8(runStatusName(row.measured.status).data()),
                           QString::fromStdString(row.measured.reason));
  }
  text += QStringLiteral("\n") + q(timeText(row.measured)) + QStringLiteral("\n") + q(bandwidthText(row.measured));
  text += QObject::tr("\n%1 registers, spill stores %2 B, occupancy %3 % theoretical, %4 achieved")
              .arg(row.registers)
              .arg(row.spill_stores_bytes)
              .arg(row.theoretical_occupancy_pct, 0, 'f', 1)
              .arg(row.measured.achieved_occupancy_pct.value
                       ? QString::number(*row.measured.achieved_occupancy_pct.value, 'f', 1) + QStringLiteral(" %")
                       : QObject::tr("unavailable"));
  if (!picks.isEmpty()) text += QObject::tr("\npicked by: %1").arg(picks);
  if (pair != nullptr) {
    text += QObject::tr("\nInductor's Triton kernel: %1 µs (Triton / ours %2), %3 GB/s, %4 registers%5")
                .arg(pair->triton_us, 0, 'f', 2)
                .arg(pair->ratio, 0, 'f', 2)
                .arg(pair->triton_bandwidth_GBps, 0, 'f', 0)
                .arg(pair->triton_registers)
                .arg(pair->triton_spills ? QObject::tr(", spills") : QString());
  }
  return text;
}

QString liveRowStatusText(const LiveRow& row) {
  if (row.ok()) {
    return QObject::tr("%1: %2 µs cold, %3")
        .arg(liveConfigText(row.config))
        .arg(row.measured.timeUs(), 0, 'f', 2)
        .arg(q(bandwidthText(row.measured)));
  }
  return QObject::tr("%1: %2 — %3")
      .arg(liveConfigText(row.config), QString::fromUtf8(runStatusName(row.measured.status).data()),
           QString::fromStdString(row.measured.reason));
}

QString fidelitySummaryText(const FamilyFidelity* fidelity, const QString& source) {
  if (fidelity == nullptr) {
    return QObject::tr(
        "Times and registers are the built-in family's: no measurement of Inductor's own kernel "
        "for this shape (Compare with Inductor's kernel… to add one)");
  }
  const FidelitySummary& s = fidelity->summary;
  QString text = QObject::tr("Inductor's Triton kernel at the same configs (%1): ").arg(source);
  if (s.paired == 0) return text + QObject::tr("no config ran ok on both sides");
  text += QObject::tr("%1 paired, time Triton/ours median %2, %3 % within %4…%5, registers within ±%6 % on %7 %")
              .arg(s.paired)
              .arg(s.median_ratio, 0, 'f', 2)
              .arg(s.time_within_pct, 0, 'f', 0)
              .arg(kFidelityTimeLow, 0, 'f', 2)
              .arg(kFidelityTimeHigh, 0, 'f', 2)
              .arg(kFidelityRegisterTolerance * 100, 0, 'f', 0)
              .arg(s.registers_within_pct, 0, 'f', 0);
  if (s.one_side_spills > 0) text += QObject::tr(", one side spills on %1").arg(s.one_side_spills);
  return text;
}

QString fidelitySourceText(const triton::KernelMeasurements& runs, const QString& path) {
  QStringList source{QFileInfo(path).completeBaseName()};
  QString device;
  QString date;
  for (const auto& [key, value] : runs.meta) {
    if (key == "device") device = QString::fromStdString(value);
    if (key == "date") date = QString::fromStdString(value).left(10);
  }
  if (device.startsWith(QLatin1String("NVIDIA "))) device = device.mid(7);
  if (!device.isEmpty()) source << device;
  if (!date.isEmpty()) source << date;
  return source.join(QStringLiteral(", "));
}

double liveMetaNumber(const LiveDataset& data, const char* key, double fallback) {
  const std::string s = data.metaValue(key);
  double v = fallback;
  return readNumber(s, v, fallback).empty() ? v : fallback;
}

double datasheetBandwidthOf(const LiveDataset& data) {
  if (auto cc = ComputeCapability::parse(data.metaValue("compute_capability"))) {
    const GpuSpec* g = matchGpu(GpuDatabase::builtin(), data.metaValue("device"), *cc,
                                static_cast<int>(liveMetaNumber(data, "sm_count", 0.0)));
    if (g != nullptr) return g->memory_bandwidth_GBps;
  }
  return 0.0;
}

QString liveDatasetDetail(const LiveDataset& data, double copy_GBps) {
  QStringList detail;
  detail << datasetShapeText(data);
  if (copy_GBps > 0) detail << QObject::tr("copy bandwidth %1 GB/s").arg(copy_GBps, 0, 'f', 0);
  for (const char* key : {"driver", "toolkit"}) {
    const std::string v = data.metaValue(key);
    if (!v.empty()) detail << QStringLiteral("%1 %2").arg(QLatin1String(key), QString::fromStdString(v));
  }
  detail << QObject::tr("%1 configs").arg(data.rows.size());
  const std::string recorded = data.metaValue("recorded");
  if (!recorded.empty()) detail << QString::fromStdString(recorded);
  return detail.join(QStringLiteral(" · "));
}

QString liveResultSummary(const PickSummary& replay, const QString& label, double copy_GBps) {
  if (replay.best_row < 0) return {};
  QString s = label + QObject::tr(" · best %1 µs cold").arg(replay.best_time_us, 0, 'f', 1);
  if (replay.best_bandwidth_GBps > 0) {
    s += QObject::tr(", %1 GB/s").arg(replay.best_bandwidth_GBps, 0, 'f', 0);
    if (copy_GBps > 0)
      s += QObject::tr(" (%1 % of copy)").arg(100.0 * replay.best_bandwidth_GBps / copy_GBps, 0, 'f', 0);
  }
  QStringList regrets;
  for (const auto& p : replay.picks) {
    if (p.row >= 0) regrets << QStringLiteral("%1 %2").arg(livePolicyName(p.policy)).arg(p.regret, 0, 'f', 2);
  }
  if (!regrets.isEmpty()) s += QObject::tr(" · regret ") + regrets.join(QStringLiteral(", "));
  return s;
}

QString liveReportHtml(const LiveDataset& data) {
  const std::string figure = data.metaValue("time_figure");
  const std::string bandwidth = data.metaValue("bandwidth");
  QString html = QObject::tr("<p><b>Times</b>: %1.</p>")
                     .arg(q(figure.empty() ? std::string("CUDA events around each launch, L2 cold (recorded before "
                                                         "device times were kept)")
                                           : figure)
                              .toHtmlEscaped());
  html += QObject::tr("<p><b>Bandwidth</b>: %1.</p>")
              .arg(q(bandwidth.empty() ? std::string("the dataset's figures, checked against the copy bandwidth when "
                                                     "read (shown only where not above it)")
                                       : bandwidth)
                       .toHtmlEscaped());
  return html;
}

CompileSweepSpec liveSpecFromDataset(const LiveDataset& data, CompileSweepSpec spec) {
  if (auto w = parseWorkload(data.metaValue("workload"))) spec.workload = *w;
  if (auto t = parseDType(data.metaValue("dtype"))) spec.dtype = *t;
  spec.k = static_cast<int>(liveMetaNumber(data, "k", 1));
  spec.xnumel = static_cast<std::int64_t>(liveMetaNumber(data, "xnumel", static_cast<double>(spec.xnumel)));
  spec.rnumel = static_cast<std::int64_t>(liveMetaNumber(data, "rnumel", static_cast<double>(spec.rnumel)));
  spec.fp32_outputs = data.metaValue("output_dtype") == "fp32" && spec.dtype != DType::kF32;
  spec.static_shape = data.metaValue("shape") == shapeKindName(true);  // files without it: run-time shapes
  std::set<int> xs, rs, ws;
  for (const auto& r : data.rows) {
    if (!r.in_grid) continue;
    xs.insert(r.config.xblock);
    rs.insert(r.config.rblock);
    ws.insert(r.config.num_warps);
  }
  if (!xs.empty()) {
    spec.grid.xblock.assign(xs.begin(), xs.end());
    spec.grid.r0_block.assign(rs.begin(), rs.end());
    spec.grid.num_warps.assign(ws.begin(), ws.end());
  }
  return spec;
}

}  // namespace occx::ui
