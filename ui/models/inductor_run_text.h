// The Inductor run view's words, as functions of the run (no widgets): the run's and the kernel's
// headings, a kernel's source with numbered lines and its tile lines, and what the status line
// says after a scan, a measurement or a sweep.
#pragma once

#include <QString>
#include <QStringList>
#include <vector>

#include "core/triton/inductor_run.h"
#include "core/triton/kernel_measurements.h"
#include "core/triton/kernel_sweep.h"
#include "ui/models/inductor_run_actions.h"
#include "ui/models/inductor_run_data.h"

namespace occx::ui {

/// The run's heading (rich text): "<b>title</b> — origin", then " · <b>measured on …</b>" when
/// the run carries measurements.
QString runTitleHtml(const InductorRunData& data);

/// The kernel's heading (rich text): its name (breakable after underscores), kind, size hints,
/// device and module; the note of a kernel that was not analysed; a mix-order reduction's RSPLIT_SIZE.
QString kernelTitleHtml(const RunKernelEntry& kernel);

/// Why the size hints differ from the kernel's shape, after them in the kernel's heading: "(264 ×
/// 30000 rounded up)", the numels from `row` (a dynamic shape: the first compile's); empty when it
/// has no hints. sizeHintsExplanation() is the heading's tooltip.
QString sizeHintsNote(const triton::ScanRow& row);
/// What size hints are: Inductor's code generator writes size_hint = next_power_of_2(numel hint)
/// into the kernel; its configs and the RBLOCK scaling's block count use them, the kernel runs on
/// the real shape.
QString sizeHintsExplanation();

/// A kernel's source as the Source tab shows it.
struct NumberedSource {
  QString text;                 ///< every line with its module line number in front, right-aligned
  std::vector<int> tile_lines;  ///< lines of `text` (0-based) that set the tile (XBLOCK, R0_BLOCK)
  QString label;                ///< "Module <hash> · 2 lines that set the tile … highlighted"
};
/// The source of `kernel` in `data`; an empty text and the run's missing-source note (or a generic
/// one) as the label when the run has none.
NumberedSource numberedSourceOf(const InductorRunData& data, const RunKernelEntry& kernel);

/// What the Inductor run view says of `path`, a dataset of another view (`kind`: kLiveSweepCsv or
/// kCompileSweepCsv): that it was handed to that view's tab (`handed_over`), or that it is to be
/// opened there.
QString otherViewDatasetText(const QString& path, RunPathKind kind, bool handed_over);

/// The Inductor run view's part of a report (rich text): what the measured figures are, when the
/// run carries measurements; then, with `step_shown`, the step of trace `trace_path` in words
/// (`step_words`, one paragraph a line).
QString runReportHtml(const InductorRunData& data, bool step_shown, const QString& trace_path,
                      const QString& step_words);

/// The status after a scan: the files read and the Triton caches found, how many files could not be read.
QString scanStatusText(const triton::InductorRun& run);
/// The status after running configs on the GPU: how many ran, ok, in how long, cancelled, and
/// `merged` (why they were not merged) when not empty.
QString measureStatusText(const triton::KernelMeasurements& result, const QString& merged);
/// The status after a sweep: configs compiled of those asked for, timed or why not, and the first
/// sentence of `explanation`.
QString sweepStatusText(const triton::KernelSweepResult& result, const QStringList& explanation);

}  // namespace occx::ui
