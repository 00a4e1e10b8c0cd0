#include "ui/models/inductor_run_text.h"

#include <QDir>
#include <QObject>

#include "core/sweep/measurement.h"

#include "ui/models/text.h"

namespace occx::ui {

QString runTitleHtml(const InductorRunData& data) {
  QString text = QStringLiteral("<b>%1</b> — %2").arg(data.title.toHtmlEscaped(), data.origin.toHtmlEscaped());
  if (!data.measured_label.isEmpty()) text += QStringLiteral(" · <b>%1</b>").arg(data.measured_label.toHtmlEscaped());
  return text;
}

QString sizeHintsNote(const triton::ScanRow& row) {
  if (row.size_hints.empty()) return {};
  auto isNumber = [](const std::string& t) {
    return !t.empty() && t.find_first_not_of("0123456789") == std::string::npos;
  };
  if (!isNumber(row.xnumel)) return QObject::tr("(the first compile's shape rounded up)");
  const QString shape =
      isNumber(row.r0_numel) ? QStringLiteral("%1 × %2").arg(q(row.xnumel), q(row.r0_numel)) : q(row.xnumel);
  return QObject::tr("(%1 rounded up)").arg(shape);
}

QString sizeHintsExplanation() {
  return QObject::tr(
      "Size hints: each numel of the kernel (xnumel, r0_numel) rounded up to the next power of two. Inductor's code "
      "generator writes them into the kernel for its heuristics: the configs it tries and the block count the "
      "RBLOCK scaling compares. The kernel itself runs on the real shape.");
}

QString kernelTitleHtml(const RunKernelEntry& kernel) {
  // Long fused names break after their underscores instead of widening the window.
  QString name = q(kernel.kernel).toHtmlEscaped();
  name.replace(QLatin1Char('_'), QStringLiteral("_&#8203;"));
  const QString hints_note = kernel.configs.empty() ? QString() : sizeHintsNote(kernel.configs.front());
  QString title = QStringLiteral("<b>%1</b><br>%2 · size hints %3%4 · %5 · module %6")
                      .arg(name, q(kernel.kind), q(kernel.size_hints).toHtmlEscaped(),
                           hints_note.isEmpty() ? QString() : QStringLiteral(" ") + hints_note.toHtmlEscaped(),
                           q(kernel.device).toHtmlEscaped(), q(kernel.module));
  if (kernel.configs.empty()) return title;
  const triton::ScanRow& first = kernel.configs.front();
  if (!first.notes.empty() && !first.num_warps)
    title += QStringLiteral("<br><i>%1</i>").arg(q(first.notes).toHtmlEscaped());
  if (first.rsplit_size) {
    title += QObject::tr(
                 "<br>mix-order reduction: RSPLIT_SIZE %1 rows per program, NUM_STAGES %2; grid ⌈xnumel / "
                 "RSPLIT_SIZE⌉; the RBLOCK scaling does not apply (persistent)")
                 .arg(*first.rsplit_size)
                 .arg(first.mix_num_stages.value_or(1));
  }
  return title;
}

NumberedSource numberedSourceOf(const InductorRunData& data, const RunKernelEntry& kernel) {
  NumberedSource out;
  auto it = data.sources.find(kernel.module);
  if (it == data.sources.end() || it->second.text.empty()) {
    out.label = data.missing_source_note.isEmpty() ? QObject::tr("The source of this kernel is not available.")
                                                   : data.missing_source_note;
    return out;
  }
  const KernelSource& s = it->second;
  const QStringList lines = q(s.text).split(QLatin1Char('\n'));
  const int last = s.first_line + static_cast<int>(lines.size()) - 1;
  const int width = static_cast<int>(QString::number(last).size());
  QStringList numbered;
  numbered.reserve(lines.size());
  for (int i = 0; i < lines.size(); ++i)
    numbered << QStringLiteral("%1  %2").arg(s.first_line + i, width).arg(lines[i]);
  out.text = numbered.join(QLatin1Char('\n'));
  for (int line : s.tile_lines) {
    const int at = line - s.first_line;
    if (at >= 0 && at < lines.size()) out.tile_lines.push_back(at);
  }
  out.label = QObject::tr("Module %1 · %n line(s) that set the tile (XBLOCK, R0_BLOCK) highlighted", nullptr,
                          static_cast<int>(s.tile_lines.size()))
                  .arg(q(kernel.module));
  return out;
}

QString otherViewDatasetText(const QString& path, RunPathKind kind, bool handed_over) {
  const bool live = kind == RunPathKind::kLiveSweepCsv;
  const QString tab = live ? QObject::tr("Live sweep") : QObject::tr("Compile sweep (NVRTC)");
  const QString dataset = live ? QObject::tr("live-sweep") : QObject::tr("compile-sweep");
  return handed_over ? QObject::tr("%1 is a %2 dataset: handed to the %3 tab.")
                           .arg(QDir::toNativeSeparators(path), dataset, tab)
                     : QObject::tr("%1 is a %2 dataset, not an Inductor run: open it in the %3 tab.")
                           .arg(QDir::toNativeSeparators(path), dataset, tab);
}

QString runReportHtml(const InductorRunData& data, bool step_shown, const QString& trace_path,
                      const QString& step_words) {
  QString html;
  if (!data.measured.rows.empty()) {
    html += QObject::tr(
                "<p><b>Measured times</b>: %1; warm: the same with the inputs just written. <b>Bandwidth</b>: "
                "DRAM bytes read + written (CUPTI) over the cold time, shown only where the GPU could move "
                "it.</p>")
                .arg(q(kTimeFigure).toHtmlEscaped());
  }
  if (!step_shown) return html;
  html += QObject::tr("<p><b>The step</b> (%1):</p>").arg(QDir::toNativeSeparators(trace_path).toHtmlEscaped());
  for (const QString& line : step_words.split(QLatin1Char('\n')))
    html += QStringLiteral("<p>%1</p>").arg(line.toHtmlEscaped());
  return html;
}

QString scanStatusText(const triton::InductorRun& run) {
  QString text =
      QObject::tr("Read %1 files; Triton caches: %2.")
          .arg(run.files_read)
          .arg(run.triton_caches.empty()
                   ? QObject::tr("none found")
                   : q(run.triton_caches.front()) + (run.triton_caches.size() > 1
                                                         ? QObject::tr(" and %1 more").arg(run.triton_caches.size() - 1)
                                                         : QString()));
  if (!run.problems.empty()) {
    text += QObject::tr(" %n file(s) could not be read (hover for the list).", nullptr,
                        static_cast<int>(run.problems.size()));
  }
  return text;
}

QString measureStatusText(const triton::KernelMeasurements& result, const QString& merged) {
  int ok = 0;
  for (const auto& r : result.rows) ok += r.ok() ? 1 : 0;
  QString text =
      QObject::tr("Ran %n config(s) on the GPU, %1 ok, in %2 s.", nullptr, static_cast<int>(result.rows.size()))
          .arg(ok)
          .arg(result.seconds, 0, 'f', 1);
  if (result.cancelled) text += QObject::tr(" Cancelled: the finished rows are kept.");
  if (!merged.isEmpty()) text += QLatin1Char(' ') + merged;
  return text;
}

QString sweepStatusText(const triton::KernelSweepResult& result, const QStringList& explanation) {
  int ok = 0;
  for (const auto& r : result.compile.configs) ok += r.ok ? 1 : 0;
  QString text = QObject::tr("Swept %1: %2 of %3 configs compiled in %4 s")
                     .arg(q(result.kernel.module.name))
                     .arg(ok)
                     .arg(result.compile.configs.size())
                     .arg(result.compile.seconds, 0, 'f', 1);
  text += result.measured ? QObject::tr(", every config timed.")
                          : QObject::tr("; not timed (%1).").arg(q(result.not_measured));
  if (!explanation.isEmpty()) text += QLatin1Char(' ') + explanation.front();
  return text;
}

}  // namespace occx::ui
