// What the compile-sweep view shows, computed without widgets: the registers and spill-stores plots
// as SweepPlotData (one series per num_warps, the register cap and the full-occupancy line, the
// selected config), a row's tooltip, the status lines of a streaming and a finished sweep, the
// dataset's title, the status summary, the row selected when a sweep is shown, and the sweep inputs
// that rebuild an opened dataset.
#pragma once

#include <QString>
#include <vector>

#include "core/sweep/compile_sweep.h"
#include "core/sweep/compile_sweep_dataset.h"
#include "ui/models/sweep_plot_data.h"

namespace occx::ui {

/// "XBLOCK=1 RBLOCK=2048 num_warps=16".
QString compileConfigText(const KernelConfig& config);

/// The two plots of a compile sweep.
struct CompileSweepPlots {
  SweepPlotData registers;  ///< registers per thread, the cap and the full-occupancy line
  SweepPlotData spills;     ///< spill stores per thread (bytes)
};
/// The plots of `entries`' compiled rows with this `xblock` (`selected`: the selected row, -1 for
/// none; marked when it compiled and is of this XBLOCK). `data` gives the register cap and the
/// full-occupancy register count; `empty_note` is said over plots with no row (compilePlotNote).
CompileSweepPlots compileSweepPlots(const std::vector<CompileSweepRecord>& entries, int xblock, int selected,
                                    const CompileSweepDataset& data, const QString& empty_note);
/// Over empty plots: compiling, or where data can come from (`can_compile`: this build has NVRTC).
QString compilePlotNote(bool running, bool can_compile);

/// A row's tooltip: the config, or its error; registers, spills, occupancy and each policy's decision.
QString describeCompileRecord(const CompileSweepRecord& record);
/// The status line when config `done` of `total` has compiled: its registers and spills, or its error.
QString compileRowStatusText(qulonglong done, qulonglong total, const CompileSweepRow& row);
/// The status line when a sweep ended: what compiled, from the cache, failed and could not be built
/// (or, cancelled, which rows were kept).
QString compileFinishedText(const CompileSweepResult& result);
/// The title over the plots: workload, dtype, shape, architecture and device, `source` (compiled
/// here, opened …), and when cancelled how many configs it has.
QString compileDatasetTitle(const CompileSweepDataset& data, const QString& source);
/// The status summary: `arch` ("sm_90"), the configs shown and how many spill, and whether this
/// build can compile.
QString compileSweepSummary(const QString& arch, const CompileSweepDataset& data, bool can_compile);
/// The sweep index to select when `data` is shown: Inductor's first config that compiled, else the
/// first row; -1 when there are no rows.
int compileDefaultSelection(const CompileSweepDataset& data);
/// `base` with the workload, dtype, K, shape and the grid's XBLOCK, RBLOCK and num_warps values of
/// `data`, so that a sweep builds what it shows (fp32 outputs and the Inductor candidates are kept).
CompileSweepSpec compileSpecFromDataset(const CompileSweepDataset& data, CompileSweepSpec base);

}  // namespace occx::ui
