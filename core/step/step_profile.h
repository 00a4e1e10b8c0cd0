// Where a model step's GPU time goes: a profiler trace (core/step/profiler_trace.h) grouped by
// kernel, each kernel's in-step time per launch and per step, the step's time by kind, and each
// Triton kernel joined to the Inductor run it came from — the run's scan rows (core/triton/run_table.h:
// a scan, a scan CSV or a bundled run alike): its module, the config its launcher used, and every
// policy's decision for that config.
//
// Words: the *step* is one ProfilerStep of the trace (or the whole trace divided by the user's
// step count); a kernel's *in-step time* is its device time as the profiler recorded it inside the
// step (Kineto's kernel "dur", CUPTI activity records). *GPU time per step* is the summed device
// time of the step's kernels, memcpys and memsets (kernels on several streams may overlap, so it
// can exceed the step's wall time).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/csv.h"
#include "core/inductor/bounds.h"
#include "core/step/profiler_trace.h"
#include "core/triton/run_table.h"

namespace occx::step {

/// What a kernel of the step is, from its name, or from the run's module when it is matched.
enum class KernelCategory {
  kTritonLoopedReduction,      ///< triton_red_…, or a matched @reduction
  kTritonPersistentReduction,  ///< triton_per_…, or a matched @persistent_reduction
  kTritonPointwise,            ///< triton_poi_…, or a matched @pointwise
  kTritonOther,                ///< other triton_… kernels (templates, foreach, scans)
  kLibrary,                    ///< matmul and attention libraries (cuBLAS, cuBLASLt, CUTLASS, cuDNN, flash attention)
  kAten,                       ///< PyTorch's own CUDA kernels (at::native, c10)
  kMemory,                     ///< memcpy and memset
  kOther,
};
/// Every category, in the order tables and plots show them.
inline constexpr std::array<KernelCategory, 8> kKernelCategories = {KernelCategory::kTritonLoopedReduction,
                                                                    KernelCategory::kTritonPersistentReduction,
                                                                    KernelCategory::kTritonPointwise,
                                                                    KernelCategory::kTritonOther,
                                                                    KernelCategory::kLibrary,
                                                                    KernelCategory::kAten,
                                                                    KernelCategory::kMemory,
                                                                    KernelCategory::kOther};
/// "Triton reduction (looped)", "Triton reduction (persistent)", "Triton pointwise", "other Triton",
/// "matmul/attention library", "ATen", "memcpy/memset", "other". Never fails.
std::string_view kernelCategoryName(KernelCategory category);
/// "triton_red", "triton_per", "triton_poi", "triton_other", "library", "aten", "memory", "other"
/// (CSV and JSON). Never fails.
std::string_view kernelCategoryKey(KernelCategory category);
/// True for the two Triton reduction categories.
bool isReduction(KernelCategory category);
/// True for the four Triton categories.
bool isTriton(KernelCategory category);
/// The category a kernel's name says (Inductor's triton_red_/triton_per_/triton_poi_ prefixes; library
/// name patterns such as "gemm", "cutlass", "nvjet", "flash", "fmha", "cudnn"; "at::native").
KernelCategory categorizeKernel(std::string_view name, GpuActivityKind kind);

/// How a kernel of the trace was joined to the run.
enum class RunMatch {
  kMatched,    ///< one kernel of the run has this name (and, among several, this grid and block)
  kAmbiguous,  ///< several kernels of the run have this name and launch shape
  kNotInRun,   ///< no kernel of the run has this name (another run's Triton kernel, a library's, ATen's)
  kNoRun,      ///< no run was given
};
/// "matched", "ambiguous", "not in the run", "no run". Never fails.
std::string_view runMatchName(RunMatch match);

/// One kernel of the step: the launches of one name that join to the same kernel of the run.
struct StepKernel {
  std::string name;
  KernelCategory category = KernelCategory::kOther;
  std::array<std::int64_t, 3> grid{};   ///< of the first launch
  std::array<std::int64_t, 3> block{};  ///< of the first launch
  bool shapes_vary = false;             ///< launches with more than one grid or block
  int launches = 0;                     ///< in the counted steps
  double total_us = 0.0;                ///< device time over the counted steps, µs
  double median_us = 0.0;               ///< per launch, µs
  double min_us = 0.0;
  double max_us = 0.0;
  double per_step_us = 0.0;        ///< total_us / step count
  double launches_per_step = 0.0;  ///< launches / step count
  double share = 0.0;              ///< per_step_us / the step's GPU time, 0 … 1
  RunMatch match = RunMatch::kNoRun;
  std::string module;                   ///< the matched kernel's module hash; empty unless matched
  std::vector<std::string> candidates;  ///< module hashes of the run's kernels that fit, when ambiguous
  int config_row = -1;                  ///< index into the run's rows: the config its launcher used; -1 unknown
  std::string match_note;               ///< how it was matched, or why not, in words
};

/// A category's share of the step.
struct CategoryTime {
  KernelCategory category = KernelCategory::kOther;
  double per_step_us = 0.0;
  double share = 0.0;  ///< 0 … 1 of the step's GPU time
  int kernels = 0;     ///< StepKernel rows of this category
};

/// The step.
struct StepProfile {
  std::string trace_path;
  std::string run_input;    ///< empty without a run
  std::string device_name;  ///< from the trace
  int step_count = 1;
  bool annotated_steps = false;
  bool steps_on_gpu = false;            ///< the steps are GPU-side annotations (their spans are GPU time)
  std::vector<std::string> step_names;  ///< "ProfilerStep#1", …
  double gpu_time_per_step_us = 0.0;
  double mean_step_span_us = 0.0;        ///< mean CPU span of the annotated steps; 0 without annotations
  int outside_steps = 0;                 ///< activities outside every step (not counted)
  std::vector<StepKernel> kernels;       ///< ranked by per-step time, longest first
  std::vector<CategoryTime> categories;  ///< in kKernelCategories order, every category present
  int triton_kernels = 0;                ///< StepKernel rows of Triton categories
  int triton_matched = 0;
  int triton_ambiguous = 0;
  int triton_not_in_run = 0;
  std::vector<std::string> problems;  ///< the trace's

  /// The time of `category` per step, µs.
  [[nodiscard]] const CategoryTime& category(KernelCategory category) const;
};

/// The run a trace is joined to: its scan rows (scanRows of a scan, a scan CSV read back, a bundled
/// run) and where they came from. `rows` must outlive every StepProfile made with it.
struct StepRun {
  const std::vector<triton::ScanRow>* rows = nullptr;
  std::string input;  ///< the run's folder or file, for the words
};

/// Groups the trace's activities of the counted steps by kernel, ranks them and, when `run` has rows,
/// joins each kernel to them: one kernel (name, module) of the run with the name → matched; several
/// → told apart by block (32 × the launcher config's num_warps), registers per thread (the trace's
/// CUPTI record against the config's n_regs) and grid x (⌈xnumel / XBLOCK⌉ when xnumel is fixed),
/// else ambiguous with the candidates named. The launcher's config: the winner, else the only
/// compiled config, else the one whose block and registers are the launch's. Never fails: an empty
/// trace gives an empty profile.
StepProfile profileStep(const ProfilerTrace& trace, const StepRun& run = {});

/// The step in words: GPU time per step, the shares by kind with the Triton reductions' share
/// named, the largest reductions with their configs and the old and new bounds' decisions, and
/// what was matched. Several lines.
std::string stepText(const StepProfile& profile, const StepRun& run = {});

/// One row per kernel (meta: format "step-profile", trace, run, device, steps, GPU time per step):
/// rank, kernel, category, launches_per_step, in_step_median_us, in_step_per_step_us, share_pct,
/// grid, block, match, module, config, registers_per_thread, n_spills, theoretical_occupancy_pct,
/// one decision column per policy (old_decision, new_decision, …) and match_note.
CsvTable stepToCsv(const StepProfile& profile, const StepRun& run = {});

/// The launcher config's row of a kernel, nullptr when unknown or no run.
const triton::ScanRow* configRowOf(const StepKernel& kernel, const StepRun& run);
/// "X1 R2048 w8" for a reduction config, "X1024 w4" for a pointwise one (from a scan row; "s2"
/// added for num_stages above 1). Never fails.
std::string shortConfigLabel(const triton::ScanRow& row, bool reduction);
/// A row's decision of `policy` ("scale", "no scaling", …; empty when not analysed).
const std::string& decisionOf(const triton::ScanRow& row, inductor::Policy policy);

}  // namespace occx::step
