// What the Inductor run view shows, whatever it came from: a scan of a folder (core/triton), a scan
// CSV written earlier (on a machine without the cache: no sources), or a bundled run (its CSV and
// its kernel modules embedded under ":/inductor-runs/"). Rows are core's ScanRow; kernels group them.
#pragma once

#include <QString>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/gpu/device.h"
#include "core/inductor/config.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_measurements.h"
#include "core/triton/run_table.h"

namespace occx::ui {

/// One kernel of a run: its rows (one per compiled config; one row with empty config cells for a
/// kernel listed, not analysed) and what the kernel list shows.
struct RunKernelEntry {
  std::string device;
  std::string kernel;
  std::string module;
  std::string kind;
  std::string size_hints;
  std::vector<triton::ScanRow> configs;
  int winner = -1;  ///< index into configs; -1 when unknown
  int added = 0;    ///< configs added by RBLOCK scaling
  bool bounds_disagree = false;
  std::optional<std::int64_t> max_spills;
  bool over_spill_threshold = false;  ///< some config spills over the kernel's spill_threshold

  /// Rows that are compiled configs (num_warps known): Inductor's and a sweep's.
  [[nodiscard]] int compiledConfigs() const;
  /// Of them, the configs a sweep compiled (origin triton::kSweptOrigin), not Inductor.
  [[nodiscard]] int sweptConfigs() const;
  [[nodiscard]] const triton::ScanRow* winnerRow() const;
};

/// A kernel's source as the source pane shows it.
struct KernelSource {
  std::string text;
  int first_line = 1;           ///< module line of text's first line
  std::vector<int> tile_lines;  ///< module lines that set the tile (XBLOCK, R0_BLOCK …)
};

/// One run, ready for the view.
struct InductorRunData {
  QString title;    ///< "BlenderbotForCausalLM training step, H200", or the folder's name
  QString origin;   ///< "bundled run", "scan of /tmp/torchinductor_ada", "CSV file /home/ada/scan.csv"
  QString summary;  ///< the run in words (RunSummary::text of its rows)
  std::vector<triton::ScanRow> rows;
  std::vector<RunKernelEntry> kernels;
  std::map<std::string, KernelSource> sources;  ///< by module hash
  QString missing_source_note;                  ///< why a kernel's source is not shown
  std::vector<std::string> problems;
  /// The scan itself, when a folder or a module was scanned: its kernels can be run on a GPU. Null
  /// for a CSV or a bundled run (no cubins).
  std::shared_ptr<const triton::InductorRun> scanned;
  /// Kernel runs measured on a GPU (run here, bundled, or from a kernel-runs CSV); picks recomputed.
  triton::KernelMeasurements measured;
  /// Where the measurements come from: "measured on NVIDIA H200 (2026-12-01) — bundled"; empty when none.
  QString measured_label;
};

/// A measured row's match in a scan: same kernel, module, XBLOCK, R0_BLOCK, num_warps, num_stages.
bool measuredRowMatches(const triton::MeasuredConfig& measured, const triton::ScanRow& row);
/// The measured row of `row` in `data.measured`, nullptr when none.
const triton::MeasuredConfig* measuredRowOf(const InductorRunData& data, const triton::ScanRow& row);
/// The picks of kernel `kernel` / `module` in `data.measured`, nullptr when none.
const triton::KernelPicks* measuredPicksOf(const InductorRunData& data, const std::string& kernel,
                                           const std::string& module);
/// "measured on NVIDIA H200 (2026-12-01)" from a result's device and date metadata.
QString measuredLabelOf(const triton::KernelMeasurements& result);
/// Merges `result` into `data`: rows of kernels (kernel and module) in `data` replace the measured
/// rows of those kernels; picks are recomputed. Returns an empty string, or why nothing was merged
/// (none of its kernels is in the run: names the input the measurements came from).
QString mergeMeasured(InductorRunData& data, const triton::KernelMeasurements& result, const QString& label);
/// Reads a kernel-runs CSV (a file or ":/…"). Errors name the file.
Expected<triton::KernelMeasurements> measurementsFromFile(const QString& path);

/// From a scan: rows, kernels, sources (with the tile lines), problems.
InductorRunData runDataFromScan(const triton::InductorRun& run);
/// The same, keeping the scan (InductorRunData::scanned) so that its kernels can be run.
InductorRunData runDataFromScan(std::shared_ptr<const triton::InductorRun> run);
/// From a scan CSV (a file, or a resource path ":/…"). Errors name the file: unreadable, over the
/// CSV size limit, not a scan CSV ("not an Inductor run scan …"), a bad cell.
Expected<InductorRunData> runDataFromCsv(const QString& path);

/// Groups rows into kernels (in row order) and counts the summary.
void groupKernels(InductorRunData& data);
/// The run in words, from its rows (the same sentence as RunSummary::text).
QString summaryOfRows(const std::vector<triton::ScanRow>& rows);

/// A run that ships with the program.
struct BundledRun {
  QString key;    ///< "blenderbot"
  QString title;  ///< "BlenderbotForCausalLM training step, H200"
};
/// The bundled runs (":/inductor-runs/<key>.csv"), the model runs first.
std::vector<BundledRun> bundledInductorRuns();
/// Loads a bundled run: its CSV, and its kernel modules (":/inductor-runs/<key>/<hash>.py") as sources.
/// Error for an unknown key (naming the keys) or a damaged resource.
Expected<InductorRunData> loadBundledRun(const QString& key);

/// The rows as a scan CSV (the format occx writes), with `data`'s title and origin as metadata.
CsvTable runDataToCsv(const InductorRunData& data);

/// The Device of a row (its compute capability and SM count, limits from the GPU data); none
/// when the row names no device or the data does not know its compute capability.
std::optional<Device> deviceOfRow(const triton::ScanRow& row);
/// The row as the decision's config and kernel facts (size hints from its text). Nullopt for a row
/// that is not a compiled reduction config.
std::optional<std::pair<inductor::ReductionConfig, inductor::KernelInfo>> decisionInputsOfRow(
    const triton::ScanRow& row);

}  // namespace occx::ui
