// What the Inductor run view's plots and the notes beside them show, computed as plain data from a
// run (no widgets): the Sweep tab's series and marks (sweepPlotSource, then sweepPlotData for a
// metric and an XBLOCK), the Measured tab's note and picks table (measuredNoteText,
// picksTableRows), and the RBLOCK bounds of the selected config (configBounds). The panes in
// ui/views only draw what these return.
#pragma once

#include <QString>
#include <QStringList>
#include <QVector>
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "core/inductor/teaching.h"
#include "ui/models/inductor_run_data.h"
#include "ui/models/inductor_run_models.h"

namespace occx::ui {

/// What the Sweep tab plots against the tile, in the order of its Plot menu.
enum class SweepMetric { kBandwidth, kTime, kRegisters, kOccupancy };
/// Every SweepMetric, in menu order.
inline constexpr std::array<SweepMetric, 4> kSweepMetrics = {SweepMetric::kBandwidth, SweepMetric::kTime,
                                                             SweepMetric::kRegisters, SweepMetric::kOccupancy};
/// The metric's menu entry and y-axis label, with its unit: "DRAM bandwidth (GB/s)",
/// "Device time, L2 cold (µs)", "Registers per thread", "Theoretical occupancy (%)".
QString sweepMetricLabel(SweepMetric metric);
/// True for the measured metrics (bandwidth and time): only they carry the best and the picks.
bool isMeasuredMetric(SweepMetric metric);

/// A measured config marked on the sweep plot: the fastest, Inductor's pick, or the pick of one or
/// more policies (those that pick the same config share one mark).
struct SweepMark {
  enum class Kind { kBest, kInductorPick, kPolicyPick };
  Kind kind = Kind::kBest;
  int group = 0;            ///< kPolicyPick: 0, 1, … in the order of the policies (one shape and colour each)
  QString label;            ///< "best: X1 R8192 w16", "Inductor's pick, regret 1.01", "old, new pick, regret 1.00"
  std::vector<int> rows;    ///< the config rows that are this measured config
  std::int64_t xblock = 0;  ///< its XBLOCK (named in the legend when another XBLOCK is plotted)
};

/// One kernel's compiled configs and what was measured of them, as the Sweep tab draws from them: a
/// copy, so that the plot can be redrawn for another metric or XBLOCK after the run changed.
struct SweepPlotSource {
  QString kernel;                                                 ///< the kernel's name
  std::vector<triton::ScanRow> rows;                              ///< its compiled configs, in the run's order
  std::vector<std::optional<RunConfigModel::Measured>> measured;  ///< per row; empty entry: not measured
  std::vector<SweepMark> marks;                                   ///< the best, Inductor's pick, each policy's
  QString note;                                                   ///< the sweep in words (one sentence a line)
};

/// The Sweep tab's source for `kernel` of `data`: its compiled configs and their measurements, the
/// marks of its picks (none when not measured), and the note: `explanation` (the sentences of a sweep
/// run here) when not empty, else the same sentences from the run's measured rows when they hold a
/// sweep (bundled, or from a CSV), else what Sweep this kernel would do.
SweepPlotSource sweepPlotSource(const InductorRunData& data, const RunKernelEntry& kernel,
                                const QStringList& explanation);

/// The points of one num_warps value: x the tile (R0_BLOCK, or XBLOCK along_x), y the metric.
struct SweepSeries {
  int num_warps = 0;
  QVector<double> x;
  QVector<double> y;
  QVector<int> rows;  ///< the config row of each point
};

/// A SweepMark's points for the metric and XBLOCK plotted (empty when the config is not among them).
struct SweepMarkPoints {
  SweepMark::Kind kind = SweepMark::Kind::kBest;
  int group = 0;
  QString name;  ///< the mark's label, + " [XBLOCK n]" when it has no point here
  QVector<double> x;
  QVector<double> y;
  QVector<int> rows;
};

/// What the Sweep tab's plot shows for one metric and one XBLOCK.
struct KernelSweepPlotData {
  bool along_x = false;             ///< no config has an R0_BLOCK (a persistent reduction): x is XBLOCK
  std::vector<int> xblocks;         ///< the XBLOCK choices: those of the configs with an R0_BLOCK, ascending
  int xblock = 0;                   ///< the XBLOCK plotted: the one asked for when a choice, else the first (0: none)
  QString title;                    ///< "Device time (L2 cold) per config of K, XBLOCK 1 (7 configs in all)"
  QString x_label;                  ///< the tile axis, log₂ scale
  QString y_label;                  ///< sweepMetricLabel
  std::vector<SweepSeries> series;  ///< by num_warps, ascending; points with a value only
  std::vector<SweepMarkPoints> marks;  ///< measured metrics only: the source's marks
  QString note;                        ///< why nothing is plotted; empty when something is
  double y_hi = 1.0;                   ///< the y range's top: 12 % over the largest value (at least 1)
};

/// The Sweep tab's plot of `source` for `metric` at `xblock` (kept when it is one of the configs'
/// XBLOCKs, else the first of them). A config is plotted when its num_warps and tile are known and
/// it has a value of the metric (the measured ones: ran ok).
KernelSweepPlotData sweepPlotData(const SweepPlotSource& source, SweepMetric metric, int xblock);

/// The Measured tab's note (rich text) for `kernel`: how many configs ran ok and where, the fastest
/// and its time, the regret of Inductor's winner, whether the outputs agree. Not measured: that it
/// is not, and why not when `unavailable` (why the run cannot run here) is not empty.
QString measuredNoteText(const InductorRunData& data, const RunKernelEntry& kernel, const QString& unavailable);

/// One bar of the Measured tab's plot: a config that ran ok.
struct MeasuredBar {
  int row = -1;               ///< its row in the configs table
  QString label;              ///< "X1 R2048 w16"
  double time_us = 0.0;       ///< device time per launch, L2 cold, µs
  bool inductors = false;     ///< one of Inductor's own configs (not one a sweep added)
  bool best = false;          ///< the fastest config
  std::vector<int> policies;  ///< the policies whose pick it is, as indices into inductor::kPolicies
};

/// What the Measured tab's plot shows, as horizontal bars from the top: Inductor's own configs,
/// fastest first, then the fastest of the others (a sweep's); the slowest of the others summed up
/// in one row (their count and range) when they are more than the plot has room for.
struct MeasuredBars {
  std::vector<MeasuredBar> bars;  ///< top to bottom
  int rest = 0;                   ///< configs that ran ok without a bar of their own
  double rest_lo_us = 0.0;        ///< the fastest of them, µs (0 when rest is 0)
  double rest_hi_us = 0.0;        ///< the slowest of them, µs
  int without_time = 0;           ///< configs not measured, or measured and not ok: no bar
  double top_us = 0.0;            ///< the slowest time of all that ran ok (0 when none did)
};

/// The bars of `rows` (the configs table) measured as `measured` (one entry per row; empty: not
/// measured), in at most `max_bars` rows, the summary row included. Inductor's own configs (origin
/// other than "swept"), the fastest and every policy's pick always have a bar, even past
/// `max_bars`; the others fill the rows left, fastest first. `max_bars` < 1 counts as 1.
MeasuredBars measuredBars(const std::vector<triton::ScanRow>& rows,
                          const std::vector<std::optional<RunConfigModel::Measured>>& measured, int max_bars);

/// One row of the Measured tab's picks table: one policy's pick among the measured configs.
struct PickTableRow {
  QString policy;        ///< "new"
  QString pick;          ///< "X1 R16384 w32", or "none ran"
  QString pick_tooltip;  ///< the policy's set: its size and how many were benchmarked
  QString cold_us;       ///< the pick's device time per launch, L2 cold, µs ("32.0"); empty when none ran
  QString regret;        ///< "1.00"; empty when none ran
  QString not_compiled;  ///< the halved configs the policy would add that are not in the cache; "—" when none
};
/// The picks table of `kernel`, one row per policy (inductor::kPolicies order); empty when the
/// kernel was not measured.
std::vector<PickTableRow> picksTableRows(const InductorRunData& data, const RunKernelEntry& kernel);

/// The RBLOCK-bounds tab for one config: blocks per SM against registers per thread under each
/// bound, the config's point on the new bound, the title and the note.
struct ConfigBounds {
  std::optional<inductor::BoundCurves> curves;  ///< none: nothing to draw (the note says why)
  int sm_count = 0;
  int n_regs = 0;         ///< the config's registers per thread
  int current_bound = 0;  ///< the new bound at n_regs: the y of the config's point
  QString title;          ///< empty without curves
  QString note;
};
/// The bounds of `row` (null: no config selected) of `kernel` (null: no kernel). Without curves
/// when there is no config, or its device or registers are unknown, or the decision refuses it.
ConfigBounds configBounds(const triton::ScanRow* row, const RunKernelEntry* kernel);

}  // namespace occx::ui
