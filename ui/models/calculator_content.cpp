#include "ui/models/calculator_content.h"

#include <QObject>
#include <algorithm>

#include "core/occupancy/occupancy_report.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

namespace {

QString calculatorBytesText(std::int64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0) return QStringLiteral("%1 KB (%2 B)").arg(bytes / 1024).arg(bytes);
  return QStringLiteral("%1 B").arg(bytes);
}

// "1 KB" (whole kilobytes) or "512 B": the runtime's reserve, in a sentence.
QString reserveText(int bytes) {
  return bytes % 1024 == 0 ? QStringLiteral("%1 KB").arg(bytes / 1024) : QStringLiteral("%1 B").arg(bytes);
}

QString limitText(int v) {
  return v == kUnlimited ? QObject::tr("unlimited") : QString::number(v);
}

QString calculatorPercentText(double fraction) {
  return QString::number(100.0 * fraction, 'f', 1) + QStringLiteral(" %");
}

QString derivationStep(const std::string& topic, const std::string& text) {
  return QStringLiteral("<li style=\"margin-bottom:3px\"><b>%1.</b> %2</li>")
      .arg(QString::fromStdString(topic).toHtmlEscaped(), QString::fromStdString(text).toHtmlEscaped());
}

}  // namespace

void computeCalculatorFigures(const ArchLimits& a, const OccupancyInput& input, const GpuSpec* gpu,
                              const ClusterInput& cluster, CalculatorFigures& out) {
  out.reserved_smem_bytes = static_cast<int>(a.reserved_shared_memory_per_block);
  auto r = computeOccupancy(a, input, true);
  if (r) {
    out.result = std::move(r).value();
    out.input_error.clear();
  } else {
    // The widgets' ranges keep inputs well-formed; should one slip through, show it like a
    // configuration that cannot launch.
    out.result = OccupancyResult{};
    out.result.max_warps_per_sm = a.max_warps_per_sm;
    out.input_error = QString::fromStdString(r.error());
  }
  blockSizeCurveInto(a, input, out.block_size);
  registersCurveInto(a, input, out.registers);
  sharedMemoryCurveInto(a, input, out.shared_memory);
  blockBarriersCurveInto(a, input, out.barriers);

  // Clusters: the GPC layout of a named GPU with its own SM count; the naive bound otherwise.
  out.layout = (gpu != nullptr && gpu->sm_count == input.sm_count) ? clusterLayoutOf(*gpu) : ClusterLayout{};
  const int blocks = out.result.can_launch ? out.result.active_blocks_per_sm : 0;
  out.clusters_curve = clusterSizeCurve(a, out.layout, input.sm_count, blocks, cluster.non_portable);
  out.clusters.reset();
  out.clusters_note.clear();
  if (maxClusterSize(a, true) == 0) {
    out.clusters_note =
        QObject::tr("CC %1 has no thread-block clusters (CC 9.0 and later)").arg(QString::fromStdString(a.cc.str()));
  } else if (input.sm_count <= 0) {
    out.clusters_note = QObject::tr("clusters need a GPU's SM count: pick a GPU");
  } else if (cluster.cluster_size <= 0) {
    out.clusters_note = QObject::tr("set a cluster size");
  } else if (auto c = computeClusters(a, out.layout, input.sm_count, out.result, cluster, true)) {
    out.clusters = std::move(c).value();
  } else {
    out.clusters_note = QString::fromStdString(c.error());
  }
  if (auto b = occx::bestBlockSize(a, input)) {
    out.best = *b;
  } else {
    out.best = BestBlockSize{};
  }
}

std::vector<CalculatorRow> calculatorLimitRows(const ArchLimits& a, const OccupancyInput& input,
                                               const OccupancyResult& r) {
  // Block limit per resource, the limiters marked.
  const CalculatorRow::Mark mark = r.can_launch ? CalculatorRow::Mark::kLimiter : CalculatorRow::Mark::kBlocker;
  auto lim = [&](unsigned bit) { return (r.limiters & bit) != 0 ? mark : CalculatorRow::Mark::kNone; };
  std::vector<CalculatorRow> rows;
  rows.push_back({{QObject::tr("Warps (%1 per SM)").arg(a.max_warps_per_sm), limitText(r.block_limit_warps),
                   warpCountText(r.warps_per_block)},
                  lim(kLimitWarps)});
  rows.push_back({{QObject::tr("Block slots (hardware cap)"), limitText(r.block_limit_blocks), QObject::tr("1 slot")},
                  lim(kLimitBlocks)});
  rows.push_back({{QObject::tr("Registers (%1 per SM)").arg(a.registers_per_sm), limitText(r.block_limit_registers),
                   QObject::tr("%1 registers").arg(r.registers_per_block_allocated)},
                  lim(kLimitRegisters)});
  rows.push_back({{QObject::tr("Shared memory (%1 KB)").arg(r.shared_memory_per_sm_config / 1024),
                   limitText(r.block_limit_shared_memory), calculatorBytesText(r.shared_memory_per_block_allocated)},
                  lim(kLimitSharedMemory)});
  if (a.cc.major >= 9) {
    rows.push_back(
        {{QObject::tr("Barriers (%1 per SM)").arg(a.block_barriers_per_sm), limitText(r.block_limit_barriers),
          input.block_barriers == 1 ? QObject::tr("1 barrier") : QObject::tr("%1 barriers").arg(input.block_barriers)},
         lim(kLimitBarriers)});
  } else {
    rows.push_back({{QObject::tr("Barriers"), QStringLiteral("—"), QObject::tr("from CC 9.0 on")}});
  }
  return rows;
}

std::vector<CalculatorRow> calculatorDetailRows(const ArchLimits& a, const OccupancyInput& input,
                                                const OccupancyResult& r) {
  std::vector<CalculatorRow> rows;
  const auto add = [&rows](const QString& quantity, const QString& value) { rows.push_back({{quantity, value}}); };
  add(QObject::tr("Active blocks per SM"), QString::number(r.active_blocks_per_sm));
  add(QObject::tr("Active warps per SM"), QObject::tr("%1 of %2").arg(r.active_warps_per_sm).arg(r.max_warps_per_sm));
  add(QObject::tr("Active threads per SM"),
      QObject::tr("%1 of %2").arg(r.active_threads_per_sm).arg(a.maxThreadsPerSm()));
  add(QObject::tr("Registers per block (allocated)"),
      QObject::tr("%1 (%2 per warp)").arg(r.registers_per_block_allocated).arg(r.registers_per_warp_allocated));
  add(QObject::tr("Registers used per SM"),
      QObject::tr("%1 of %2").arg(r.registers_used_per_sm).arg(a.registers_per_sm));
  add(QObject::tr("Shared memory per block (allocated)"), calculatorBytesText(r.shared_memory_per_block_allocated));
  add(QObject::tr("SM shared-memory configuration"), calculatorBytesText(r.shared_memory_per_sm_config));
  add(QObject::tr("Shared memory used per SM"), calculatorBytesText(r.shared_memory_used_per_sm));
  const int sms = input.sm_count;
  add(QObject::tr("Max active blocks on the GPU"),
      sms > 0 ? QObject::tr("%1 (%2 × %3 SMs)").arg(r.max_active_blocks_gpu).arg(r.active_blocks_per_sm).arg(sms)
              : QObject::tr("needs a GPU's SM count"));
  QString waves;
  if (!r.can_launch) {
    waves = QObject::tr("none: cannot launch");
  } else if (sms <= 0) {
    waves = QObject::tr("needs a GPU's SM count");
  } else if (input.grid_blocks <= 0) {
    waves = QObject::tr("set grid blocks");
  } else {
    waves = QObject::tr("%1 (grid of %2 blocks)").arg(r.waves, 0, 'f', 2).arg(input.grid_blocks);
  }
  add(QObject::tr("Waves"), waves);
  return rows;
}

std::vector<CalculatorRow> calculatorClusterRows(const CalculatorFigures& figures,
                                                 const std::optional<DriverOccupancy>& d, bool non_portable) {
  auto driverCell = [&](int v) { return d && v >= 0 ? QString::number(v) : QStringLiteral("—"); };
  std::vector<CalculatorRow> rows;
  if (figures.clusters) {
    const ClusterResult& c = *figures.clusters;
    rows.push_back(
        {{c.layout_known
              ? QObject::tr("Max active clusters (size %1)").arg(c.cluster_size)
              : QObject::tr("Max active clusters (size %1; upper bound, GPC layout unknown)").arg(c.cluster_size),
          QString::number(c.max_active_clusters), driverCell(d ? d->max_active_clusters : -1)}});
    rows.push_back(
        {{QObject::tr("Active blocks in clusters"),
          QObject::tr("%1 of %2").arg(c.active_blocks_in_clusters).arg(c.active_blocks_without_clusters),
          d && d->max_active_clusters >= 0 ? QString::number(std::int64_t{d->max_active_clusters} * c.cluster_size)
                                           : QStringLiteral("—")}});
    rows.push_back(
        {{QObject::tr("Cluster occupancy"), calculatorPercentText(c.cluster_occupancy), QStringLiteral("—")}});
    rows.push_back({{non_portable ? QObject::tr("Largest cluster that can launch (non-portable)")
                                  : QObject::tr("Largest cluster that can launch (portable)"),
                     QString::number(c.max_potential_cluster_size),
                     driverCell(d ? (non_portable ? d->max_potential_cluster_size_nonportable
                                                  : d->max_potential_cluster_size_portable)
                                  : -1)}});
  } else {
    rows.push_back({{QObject::tr("Clusters"), figures.clusters_note, QStringLiteral("—")}});
  }
  const BestBlockSize& best = figures.best;
  rows.push_back({{QObject::tr("Best block size (cudaOccupancyMaxPotentialBlockSize)"),
                   best.block_size > 0
                       ? QObject::tr("%1 threads, %2").arg(best.block_size).arg(calculatorPercentText(best.occupancy))
                       : QObject::tr("none launches"),
                   driverCell(d ? d->best_block_size : -1)}});
  rows.push_back({{QObject::tr("Smallest grid for a full GPU at that size"),
                   best.min_grid_size > 0 ? QObject::tr("%1 blocks").arg(best.min_grid_size)
                                          : QObject::tr("needs a GPU's SM count"),
                   driverCell(d ? d->best_min_grid_size : -1)}});
  if (d) {
    rows.push_back({{QObject::tr("Active blocks per SM"), QString::number(figures.result.active_blocks_per_sm),
                     driverCell(d->active_blocks_per_sm)}});
  }
  return rows;
}

CalculatorHeadline calculatorHeadline(const OccupancyResult& r, const QString& input_error) {
  if (r.can_launch) {
    return {calculatorPercentText(r.occupancy),
            QObject::tr("%1 of %2 warps per SM active\nlimited by %3")
                .arg(r.active_warps_per_sm)
                .arg(r.max_warps_per_sm)
                .arg(QString::fromStdString(limiterNames(r.limiters))),
            QString()};
  }
  const QString reason = input_error.isEmpty() ? QString::fromStdString(r.cannot_launch_reason) : input_error;
  return {QObject::tr("Cannot launch"), QObject::tr("0 active blocks: no block of this configuration fits on an SM"),
          QObject::tr("<b>Cannot launch:</b> %1.").arg(reason.toHtmlEscaped())};
}

QString calculatorDerivationHtml(const QString& target, const OccupancyInput& input, const CalculatorFigures& figures) {
  QString html = QStringLiteral(
                     "<p><b>%1</b> — %2 threads per block, %3 registers per thread, %4 B static + %5 B dynamic shared "
                     "memory%6.</p><ol>")
                     .arg(target.toHtmlEscaped())
                     .arg(input.threads_per_block)
                     .arg(input.registers_per_thread)
                     .arg(input.static_smem_bytes)
                     .arg(input.dynamic_smem_bytes)
                     .arg(figures.reserved_smem_bytes > 0 ? QObject::tr(" (+ %1 the CUDA runtime reserves per block)")
                                                                .arg(reserveText(figures.reserved_smem_bytes))
                                                          : QString());
  for (const auto& s : figures.result.derivation) html += derivationStep(s.topic, s.text);
  if (figures.clusters) {
    for (const auto& s : figures.clusters->derivation) html += derivationStep(s.topic, s.text);
  }
  if (!figures.input_error.isEmpty()) {
    html += QStringLiteral("<li><b>Input.</b> %1</li>").arg(figures.input_error.toHtmlEscaped());
  }
  return html + QStringLiteral("</ol>");
}

QString calculatorSummary(const QString& target, const OccupancyInput& input, const OccupancyResult& result,
                          int reserved_smem_bytes) {
  QString launch = QObject::tr("%1 threads, %2 registers, %3 B shared memory")
                       .arg(input.threads_per_block)
                       .arg(input.registers_per_thread)
                       .arg(input.static_smem_bytes + input.dynamic_smem_bytes);
  if (reserved_smem_bytes > 0) launch += QObject::tr(" + %1 reserved").arg(reserveText(reserved_smem_bytes));
  if (!result.can_launch) return QObject::tr("%1 · %2 · cannot launch").arg(target, launch);
  return QObject::tr("%1 · %2 · occupancy %3 (%4 of %5 warps), limited by %6")
      .arg(target, launch, calculatorPercentText(result.occupancy))
      .arg(result.active_warps_per_sm)
      .arg(result.max_warps_per_sm)
      .arg(QString::fromStdString(limiterNames(result.limiters)));
}

QString calculatorExportSubtitle(const QString& target, const OccupancyInput& input) {
  return QObject::tr("%1 · %2 threads, %3 registers, %4 B shared")
      .arg(target)
      .arg(input.threads_per_block)
      .arg(input.registers_per_thread)
      .arg(input.static_smem_bytes + input.dynamic_smem_bytes);
}

QString calculatorArchText(const ArchLimits& a, int sm_count) {
  QString info =
      QObject::tr(
          "%1 warps (%2 threads) and %3 blocks per SM · %4 registers per SM · up to %5 shared memory per SM, "
          "%6 per block (opt-in)")
          .arg(a.max_warps_per_sm)
          .arg(a.maxThreadsPerSm())
          .arg(a.max_blocks_per_sm)
          .arg(a.registers_per_sm)
          .arg(QString::number(a.shared_memory_per_sm / 1024) + QStringLiteral(" KB"))
          .arg(QString::number(a.shared_memory_per_block_optin / 1024) + QStringLiteral(" KB"));
  info += sm_count > 0 ? QObject::tr(" · %1 SMs").arg(sm_count)
                       : QObject::tr(" · no SM count (a compute capability, not a GPU)");
  return info;
}

CalculatorCsv calculatorCsv(const ArchLimits& a, const QString& target_label, const OccupancyInput& input,
                            const CalculatorFigures& figures, const ClusterInput& cluster,
                            const std::optional<DriverOccupancy>& driver) {
  const std::string target = target_label.toStdString();
  CalculatorCsv out;
  out.result = occupancyToCsv(a, input, figures.result);
  out.result.meta.insert(out.result.meta.begin(), {"target", target});
  if (figures.clusters) appendClustersToCsv(out.result, cluster, *figures.clusters);
  appendBestBlockSizeToCsv(out.result, figures.best, 0);
  if (driver) appendDriverOccupancyToCsv(out.result, *driver);

  out.curves = curvesToCsv(a, figures.block_size, figures.registers, figures.shared_memory);
  auto& m = out.curves.meta;
  m.insert(m.begin(), {"target", target});
  m.emplace_back("threads_per_block", std::to_string(input.threads_per_block));
  m.emplace_back("registers_per_thread", std::to_string(input.registers_per_thread));
  m.emplace_back("static_smem_bytes", std::to_string(input.static_smem_bytes));
  m.emplace_back("dynamic_smem_bytes", std::to_string(input.dynamic_smem_bytes));
  m.emplace_back("carveout_percent", std::to_string(input.carveout_percent));
  m.emplace_back("block_barriers", std::to_string(input.block_barriers));

  out.barriers = curvesToCsv(a, {}, {}, {});
  out.barriers.rows.clear();
  for (const auto& p : figures.barriers) {
    out.barriers.rows.push_back({"block_barriers", std::to_string(p.x), std::to_string(p.active_blocks_per_sm),
                                 std::to_string(p.active_warps_per_sm),
                                 QString::number(100.0 * p.occupancy, 'f', 2).toStdString(), limiterNames(p.limiters)});
  }
  out.barriers.meta.insert(out.barriers.meta.begin(), {"target", target});

  out.clusters.meta = {
      {"target", target},
      {"compute_capability", a.cc.str()},
      {"cluster_layout", figures.layout.known() ? figures.layout.source : std::string("unknown: naive upper bound")}};
  out.clusters.header = {"cluster_size", "max_active_clusters", "active_blocks_in_clusters",
                         "driver_max_active_clusters"};
  for (const auto& p : figures.clusters_curve) {
    const auto i = static_cast<std::size_t>(p.cluster_size - 1);
    const bool has = driver && i < driver->max_active_clusters_by_size.size();
    out.clusters.rows.push_back({std::to_string(p.cluster_size), std::to_string(p.max_active_clusters),
                                 std::to_string(p.active_blocks_in_clusters),
                                 has ? std::to_string(driver->max_active_clusters_by_size[i]) : std::string()});
  }
  return out;
}

DriverOccupancyQuery driverQueryFor(const ArchLimits& arch, const OccupancyInput& input, int cluster_size) {
  DriverOccupancyQuery q;
  q.registers_per_thread = input.registers_per_thread;
  q.threads_per_block = input.threads_per_block;
  q.shared_memory_bytes = input.static_smem_bytes + input.dynamic_smem_bytes;
  q.cluster_size = cluster_size;
  q.every_cluster_size = arch.cc.major >= 9;
  return q;
}

QString driverAnswerText(const DriverOccupancy& d, int sm_count, const ComputeCapability& cc) {
  QString text = QObject::tr("Driver of %1 (CC %2, %3 SMs): %4.")
                     .arg(QString::fromStdString(d.device_name), QString::fromStdString(d.cc.str()))
                     .arg(d.sm_count)
                     .arg(QString::fromStdString(d.note));
  if (d.sm_count != sm_count || d.cc != cc) text += QObject::tr(" It is not the selected target: compare with care.");
  return text;
}

QString driverWaitingText(const Availability* live, bool detected, bool had_answer) {
  if (live == nullptr) return QObject::tr("No driver here: the model's figures only.");
  if (!live->available) return QObject::tr("No driver here: %1").arg(QString::fromStdString(live->reason));
  if (!detected) return QObject::tr("Pick the detected GPU to compare with its driver.");
  return had_answer ? QObject::tr("The inputs changed: ask again.") : QObject::tr("Ask the driver for its figures.");
}

}  // namespace occx::ui
