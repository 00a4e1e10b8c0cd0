// What the live-sweep view shows, computed without widgets: the rows each plot draws and the plots
// themselves as SweepPlotData (bandwidth with the roofline and each policy's pick, time with its
// min … max bars and Inductor's kernel beside it, theoretical and achieved occupancy), the autotuner
// replay's table, a row's tooltip, the summary line of a pairing with Inductor's kernel, the
// dataset's detail line, the status summary, the report's words, the regret CSV and the sweep
// inputs that reproduce an opened dataset.
#pragma once

#include <QColor>
#include <QString>
#include <map>
#include <string>
#include <vector>

#include "core/base/csv.h"
#include "core/sweep/compile_sweep.h"
#include "core/sweep/live_results.h"
#include "core/triton/family_fidelity.h"
#include "core/triton/kernel_measurements.h"
#include "ui/models/sweep_plot_data.h"

namespace occx::ui {

/// The ok rows of the plotted XBLOCK by num_warps, and what the plots scale to.
struct LivePlotRows {
  int xblock = 1;
  std::map<int, std::vector<int>> by_warps;  ///< num_warps → rows (ok rows of this XBLOCK)
  double max_bandwidth = 0.0;
  double max_time = 0.0;        ///< slowest median, µs
  double max_time_bar = 0.0;    ///< slowest single run, µs
  bool any_achieved = false;    ///< some ok row (any XBLOCK) has achieved occupancy
  std::string achieved_reason;  ///< why not, from the first ok row without it
  int selected = -1;            ///< `selected` when that row is ok and of this XBLOCK, else -1
};

/// The rows of `rows` the plots show for `xblock`; `selected` is the selected row (-1: none).
LivePlotRows livePlotRows(const std::vector<LiveRow>& rows, int xblock, int selected);

/// "XBLOCK 1, RBLOCK 2048, 16 warps".
QString liveConfigText(const KernelConfig& config);

/// The bandwidth plot: one series per num_warps (rows with a bandwidth shown only), the copy
/// bandwidth as the roofline and the datasheet's DRAM peak (each when > 0, GB/s), each policy's pick
/// and the best (named in the legend always, marked when of this XBLOCK), the selected row.
SweepPlotData liveBandwidthPlot(const std::vector<LiveRow>& rows, const PickSummary& replay, const LivePlotRows& shown,
                                double copy_GBps, double datasheet_GBps);
/// The time plot: median device time per num_warps with min … max bars, Inductor's kernel's median
/// at the same configs ("Triton w16", dashed; `triton_pairs` empty: none), the selected row. The y
/// range follows the medians (× 1.5); bars cut at the top are said so in the corner note.
SweepPlotData liveTimePlot(const std::vector<LiveRow>& rows, const LivePlotRows& shown,
                           const std::vector<FidelityPair>& triton_pairs);
/// The occupancy plot: theoretical per num_warps (solid), then achieved where measured (dashed);
/// the title and the corner note say when achieved occupancy is unavailable, and why.
SweepPlotData liveOccupancyPlot(const std::vector<LiveRow>& rows, const LivePlotRows& shown);
/// The note over empty plots: "" when `shown` has rows, else measuring, no config of this XBLOCK
/// timed, or what to do (`can_run`: a GPU is here).
QString livePlotNote(const LivePlotRows& shown, bool running, bool has_rows, bool can_run);

/// One line of the autotuner-replay table: a policy's pick, or the best of all.
struct RegretLine {
  QString title;  ///< "old bound", "best of all"
  QColor color;   ///< the title's colour: the policy's marker colour in the bandwidth plot
  QString timed;  ///< "5 of 7"
  QString pick;   ///< "1 × 2048, 16 w", "none timed", "no candidates"; empty when not asked for
  QString pick_tooltip;
  QString time_us;
  QString bandwidth_GBps;
  QString regret;
  bool high_regret = false;  ///< regret over 1.05: drawn dark red
};
/// The table's four lines: old, new and exact bound, then the best of all.
std::vector<RegretLine> regretLines(const PickSummary& replay, const std::vector<LiveRow>& rows);
/// The replay as CSV: one row per policy and the best (`device`, `date_utc` as metadata).
CsvTable regretCsv(const PickSummary& replay, const std::vector<LiveRow>& rows, const std::string& device,
                   const std::string& date_utc);

/// A row's tooltip: the config, its times and bandwidth (or why it did not run), registers, spills
/// and occupancy, the picks at it (`picks`, e.g. "best, new"), Inductor's kernel beside it (`pair`,
/// nullptr: none).
QString describeLiveRow(const LiveRow& row, const QString& picks, const FidelityPair* pair);
/// The status line while a sweep streams in: the config with its time and bandwidth, or its status
/// and reason.
QString liveRowStatusText(const LiveRow& row);

/// The line over the plots on the pairing with Inductor's kernel (`fidelity` nullptr: none, what
/// to do to add one); `source` names the kernel runs ("ref_mean_var, H200, 2026-12-01").
QString fidelitySummaryText(const FamilyFidelity* fidelity, const QString& source);
/// "ref_mean_var, H200, 2026-12-01": the kernel-runs file's base name, device and date.
QString fidelitySourceText(const triton::KernelMeasurements& runs, const QString& path);

/// A number of the dataset's metadata, `fallback` when missing or not a number.
double liveMetaNumber(const LiveDataset& data, const char* key, double fallback);
/// The datasheet DRAM bandwidth (GB/s) of the GPU the dataset was measured on; 0 when the GPU data
/// does not know that GPU.
double datasheetBandwidthOf(const LiveDataset& data);
/// The detail line under the dataset's title: shape, copy bandwidth (`copy_GBps` > 0), driver,
/// toolkit, rows, how it was recorded.
QString liveDatasetDetail(const LiveDataset& data, double copy_GBps);
/// The status bar's summary of a shown dataset: `label`, the best time and bandwidth (its share of
/// the copy bandwidth), each pick's regret. Empty when no row ran ok.
QString liveResultSummary(const PickSummary& replay, const QString& label, double copy_GBps);
/// What the report says the times and bandwidths are (the dataset's own words when it has them).
QString liveReportHtml(const LiveDataset& data);
/// `base` with the workload, dtype, K, shape and the grid (the in-grid rows' values) of `data`,
/// so a run measures the sweep the dataset shows.
CompileSweepSpec liveSpecFromDataset(const LiveDataset& data, CompileSweepSpec base);

}  // namespace occx::ui
