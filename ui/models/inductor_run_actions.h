// What the Inductor run view does with a run, as functions of the run (no widgets): what a path it
// is given is, whether the run can be measured or a kernel swept and why not, which kernels to
// measure, what a sweep starts from, merging a sweep into the run, the kernel shown first, and the
// step's in-step times per kernel.
#pragma once

#include <QString>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/base/expected.h"
#include "core/step/model_sweep.h"
#include "core/step/step_profile.h"
#include "core/sweep/backend.h"
#include "core/triton/kernel_sweep.h"
#include "ui/models/inductor_run_data.h"

namespace occx::ui {

/// What the Inductor run view does with a path.
enum class RunPathKind {
  kScan,             ///< a folder (an Inductor cache, a torch_compile_debug folder) or a kernel module: scanned
  kScanCsv,          ///< a CSV that is no other dataset: read as a scan CSV (its reader says when it is not one)
  kMeasurementsCsv,  ///< a kernel-runs CSV: merged into the run shown
  kProfilerTrace,    ///< a torch.profiler trace: the Step tab
  kLiveSweepCsv,     ///< a dataset of the live-sweep view
  kCompileSweepCsv,  ///< a dataset of the compile-sweep view
};
/// The kind of `path`, by openTargetFor (ui/models/csv_file.h: the "# format:" line of a CSV, the
/// name of a trace); of what it calls an Inductor run, a regular file named *.csv is a scan CSV.
RunPathKind runPathKindOf(const QString& path);

/// Why the run shown cannot be run on the GPU, empty when it can: no rows; no cubins (opened from a
/// CSV, or `bundled`); no `backend` (may be null); the backend's reason for having no GPU.
QString runUnavailableReason(const InductorRunData& data, bool bundled, const Backend* backend);

/// Why `kernel` (null: none selected) cannot be swept, empty when it can: only looped and
/// persistent reductions are swept, and a sweep compiles the kernel's module: the scan's, or the
/// bundled module of bundled run `bundled_key` (empty: the run is not a bundled one).
QString sweepUnavailableReason(const InductorRunData& data, const RunKernelEntry* kernel, const QString& bundled_key);

/// The scanned kernels with compiled configs to run: `kernel`'s (null: every kernel of the run).
/// Empty when the run was not scanned (a CSV or a bundled run has no cubins).
std::vector<const triton::RunKernel*> kernelsToMeasure(const InductorRunData& data, const RunKernelEntry* kernel);

/// What a sweep of one kernel starts from: the kernel as analysed, and its module's whole text.
struct SweepInput {
  triton::RunKernel kernel;
  std::string module_text;
};
/// The sweep input of `kernel`: the scan's kernel with its module file read again, or (a bundled run,
/// `bundled_key`) its bundled module parsed and analysed. Errors: the module file cannot be read
/// (naming it and why), the kernel is not in the scan.
Expected<SweepInput> sweepInputOf(const InductorRunData& data, const RunKernelEntry& kernel,
                                  const QString& bundled_key);

/// What every sweep from the view compiles with: what each policy would add, compiled with `python`
/// (empty: $OCCX_PYTHON, else python3); no grid. `choose_python` says where to choose another Python.
triton::KernelSweepOptions sweepCompileOptionsOf(const QString& python, const QString& choose_python);

/// The options of a sweep of `kernel`: the configs of `grid` (as occx inductor sweep --grid takes
/// it; empty: the default grid) and what each policy would add, compiled with `python` (empty:
/// $OCCX_PYTHON, else python3). Errors: a grid that does not parse, its message starting "Grid: ".
Expected<triton::KernelSweepOptions> sweepOptionsOf(const triton::RunKernel& kernel, const QString& grid,
                                                    const QString& python);

/// The options of a sweep of the step's reductions (as `occx inductor sweep --all` builds them):
/// each kernel's default grid and what each policy would add, compiled with `python`
/// (sweepCompileOptionsOf), the brief screen pass, rows kept in and taken from `cache` (may be null),
/// no new kernel started after `budget_min` minutes (0: no budget).
step::ModelSweepOptions modelSweepOptionsOf(const QString& python, double budget_min, triton::SweepCache* cache);

/// Why the step's reductions cannot be swept, empty when they can: no trace read (`step` null), no
/// run whose kernel modules are files on disk (`run` null: a bundled run or a scan CSV), or no
/// looped reduction of the step matched to a kernel of the run (`targets`: the plan's, 0).
QString modelSweepUnavailableReason(const step::StepProfile* step, const triton::InductorRun* run, std::size_t targets);

/// Merges the sweep of one kernel into `data`: the configs it compiled that the run does not list
/// join the kernel's rows after them (rows the run has keep what it knew), the scan's kernel is
/// replaced by the swept one, and the sweep's measurements are merged under `label`. Returns an
/// empty string, or why nothing was merged (the kernel is not in the run shown any more).
QString mergeSweep(InductorRunData& data, const triton::KernelSweepResult& result, const QString& label);

/// The index in data.kernels of the kernel shown first: the looped reduction the RBLOCK scaling
/// added most configs to (then the one with the most compiled configs), else the first kernel; -1
/// when the run has none.
int preferredKernel(const InductorRunData& data);
/// The index in data.kernels of kernel `name` of module `module`; -1 when none.
int kernelIndexOf(const InductorRunData& data, const std::string& name, const std::string& module);

/// `kernel` of `data` as a run of its own (its rows; the run's title with the kernel's name, its
/// origin; the summary of its rows), for the CSV of the selected kernel's configs.
InductorRunData kernelRunData(const InductorRunData& data, const RunKernelEntry& kernel);

/// The compiled configs of `kernel` (its rows with a num_warps), in the run's order.
std::vector<triton::ScanRow> compiledConfigsOf(const RunKernelEntry& kernel);
/// The row of the autotuner's winner among compiledConfigsOf(kernel); 0 when it has none.
int winnerConfigRow(const RunKernelEntry& kernel);

/// In-step time per step (µs) by (kernel, module) of the kernels of `profile` matched to the run,
/// summed over their launches' entries; empty for a null profile.
std::map<std::pair<std::string, std::string>, double> inStepTimesOf(const step::StepProfile* profile);

/// The torch.profiler trace that ships with bundled run `key` (":/inductor-runs/<key>.pt.trace.json.gz");
/// empty when it has none or `key` is empty.
QString bundledTracePath(const QString& key);

}  // namespace occx::ui
