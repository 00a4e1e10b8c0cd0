// The compile sweep: "what would Inductor do here", without a GPU. Over a grid of (XBLOCK, RBLOCK,
// num_warps) for one workload, dtype, xnumel × rnumel problem and device: generate each kernel,
// compile it (registers, spills, shared memory), compute its occupancy, ask each RBLOCK policy for
// its decision with the real n_regs, and build the autotuner's candidate set under the old, new and
// exact bounds (Inductor's own candidate configs, the halved configs each policy adds, the spill
// filter). CUDA-free: the compiler is passed in as a CompileFunction (core/cuda provides NVRTC's).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/base/format.h"
#include "core/inductor/candidates.h"
#include "core/inductor/config_grid.h"
#include "core/inductor/rblock_scaling.h"
#include "core/kernels/compile.h"
#include "core/kernels/kernel_family.h"
#include "core/occupancy/occupancy.h"

namespace occx {

/// What to sweep. Defaults: the 48-config grid XBLOCK {1, 2} × RBLOCK {256 … 8192} × num_warps
/// {4, 8, 16, 32}, plus Inductor's own candidates for the shape.
struct CompileSweepSpec {
  Workload workload = Workload::kSum;
  DType dtype = DType::kF32;
  int k = 1;                  ///< fused_k inputs
  bool fp32_outputs = false;  ///< outputs in fp32 instead of the input dtype (KernelConfig::fp32_outputs)
  std::int64_t xnumel = 0;    ///< rows (1 … 2^31-1)
  std::int64_t rnumel = 0;    ///< reduction length (1 … 2^31-1); xnumel·rnumel < 2^31
  Device device;              ///< architecture limits and SM count (makeDevice / deviceForGpu)
  /// The grid (XBLOCK × RBLOCK × num_warps; the family has no pipelining: num_stages must be {1}).
  inductor::ConfigGrid grid = {{1, 2}, {256, 512, 1024, 2048, 4096, 8192}, {4, 8, 16, 32}, {1}, false};
  bool inductor_candidates = true;  ///< add Inductor's candidates and each policy's halved configs
  inductor::ReductionHint hint = inductor::ReductionHint::kInner;  ///< row reductions: inner
  inductor::DecisionOptions decision_options;                      ///< Inductor version (profile), CC gate
  int maxrregcount = 0;  ///< register cap for every config (KernelConfig::max_registers; 0 = none)
  int threads = 1;       ///< parallel compiles (1 … 64)
  /// Kernels built for this shape (KernelConfig::static_xnumel/static_rnumel), as Inductor builds
  /// them for static shapes — its default; false: the shape is passed at run time, as with
  /// torch.compile(dynamic=True). Registers and times differ between the two (the loop over R is
  /// unrolled only with a static shape).
  bool static_shape = true;
};

/// The policies whose decision each row shows: the bounds (inductor::boundPolicies(): old, new,
/// review_min, exact); and those whose autotuner candidate set the sweep builds and a live sweep
/// replays (old, new, exact; a filter of inductor::kPolicies).
const std::vector<inductor::Policy>& sweepDecisionPolicies();
const std::vector<inductor::Policy>& sweepCandidatePolicies();

/// Where a config stands in one policy's autotuner candidate set: the pipeline's state
/// (core/inductor/candidates.h), the same type and name here.
using inductor::CandidateState;
using inductor::candidateStateName;

/// One configuration of the sweep.
struct CompileSweepRow {
  int index = 0;  ///< 0-based position in the sweep's config list
  KernelConfig config;
  std::string origin;                ///< "grid", "Inductor: contiguous", "new scaling: halved from #3" ("; "-joined)
  bool in_grid = false;              ///< part of the requested grid (the origin then includes "grid")
  bool cancelled = false;            ///< its compile was stopped by the sweep's cancel (not a failure)
  std::optional<TileLayout> layout;  ///< absent when the config is invalid
  bool ok = false;                   ///< compiled
  std::string error;                 ///< why not: invalid config, shape, or the compiler's message with its log
  std::string kernel_name;
  PtxasReport report;  ///< registers per thread, spill stores/loads, stack frame, static smem
  bool cache_hit = false;
  double compile_ms = 0.0;
  std::int64_t grid_blocks = 0;               ///< ceil(xnumel / XBLOCK)
  OccupancyResult occupancy;                  ///< for num_warps·32 threads, the real registers and static smem
  std::vector<inductor::Decision> decisions;  ///< per sweepDecisionPolicies(), standalone (no duplicates)
  bool inductor_candidate = false;            ///< one of the configs Inductor itself generates
  std::vector<CandidateState> candidate;      ///< per sweepCandidatePolicies()
};

/// Progress of a running sweep: `done` of `total` configs finished (total grows when scaling adds
/// configs), with the row just finished.
struct CompileSweepProgress {
  std::size_t done = 0;
  std::size_t total = 0;
  const CompileSweepRow* row = nullptr;
};
using CompileSweepProgressFn = std::function<void(const CompileSweepProgress&)>;

/// The sweep's outcome.
struct CompileSweepResult {
  CompileSweepSpec spec;
  inductor::SizeHints size_hints;
  ByteCounts bytes;                   ///< minimum bytes the workload moves (for bandwidth)
  std::vector<CompileSweepRow> rows;  ///< finished rows (every row when not cancelled), by index
  std::size_t total_configs = 0;      ///< configs planned
  bool cancelled = false;
  int compiled = 0;      ///< rows that compiled
  int failed = 0;        ///< rows whose compile failed (the compiler's error)
  int not_compiled = 0;  ///< rows refused before compiling: the config cannot be built (error says why)
  int cache_hits = 0;
  std::vector<std::string> cache_repairs;  ///< damaged cache entries met and recompiled (CompileResult::cache_repair)
  double wall_seconds = 0.0;
  std::string compiler;                       ///< the compiler's version string, from the first compile
  std::string date_utc;                       ///< when the sweep started, "2026-11-29T21:14:31Z"
  std::vector<inductor::Pipeline> pipelines;  ///< per sweepCandidatePolicies() (empty when disabled)
};

/// Runs the sweep. Compiles on spec.threads worker threads; `progress` is called from those threads,
/// one call at a time. When `cancel` becomes true, running compiles stop early, no new one starts,
/// and the result holds the rows that finished (cancelled = true). A failing config (invalid
/// parameters, a compile error) is a row with the reason; it never stops the sweep.
/// Errors (before anything runs): xnumel/rnumel out of range, empty or invalid grid lists (each value
/// named with its range), threads outside 1 … 64, K out of range, an invalid device.
Expected<CompileSweepResult> runCompileSweep(const CompileSweepSpec& spec, const CompileFunction& compile,
                                             const CompileSweepProgressFn& progress = {},
                                             const std::atomic<bool>* cancel = nullptr);

/// The sweep as a dataset (core/sweep/compile_sweep_dataset.h writes it from its column list): one
/// row per config with columns (units in the names)
///   index, workload, dtype, k, XBLOCK, RBLOCK, num_warps, threads_per_block, vector_bytes,
///   accumulator_values_per_thread, origin, status, error, kernel, registers_per_thread,
///   spill_stores_bytes, spill_loads_bytes, stack_frame_bytes, n_spills, smem_bytes, cache_hit,
///   compile_ms, grid_blocks, active_blocks_per_sm, active_warps_per_sm, theoretical_occupancy_pct,
///   occupancy_limiter, then per decision policy P: P_bound_blocks_per_sm, P_decision; then
///   inductor_candidate and per candidate policy P: candidate_P;
/// and metadata: format, arch, device, sm_count, workload, dtype, output_dtype, k, xnumel, rnumel, size hints,
/// bytes_read, bytes_written, compiler, date_utc, profile, hint, maxrregcount, configs (finished
/// of planned), cancelled, then `extra_meta` (e.g. cache statistics) in order.
CsvTable compileSweepToCsv(const CompileSweepResult& result,
                           const std::vector<std::pair<std::string, std::string>>& extra_meta = {});

/// The same as JSON: {"meta": {…}, "rows": [{column: value, …}, …]} with numbers as numbers.
nlohmann::json compileSweepToJson(const CompileSweepResult& result,
                                  const std::vector<std::pair<std::string, std::string>>& extra_meta = {});

}  // namespace occx
