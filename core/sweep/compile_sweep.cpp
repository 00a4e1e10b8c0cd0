#include "core/sweep/compile_sweep.h"

#include <algorithm>
#include <chrono>
#include <ctime>
#include <mutex>

#include <nlohmann/json.hpp>

#include "core/base/format.h"
#include "core/base/parallel.h"
#include "core/occupancy/occupancy_report.h"

namespace occx {

namespace {

using inductor::Policy;

/// Inductor's kernel facts for our workloads: loads and reductions as its code generator counts them
/// (log_softmax: the two passes load once each and reduce max and sum; fused_k: K loads, K sums).
inductor::CandidateOptions candidateOptionsFor(Workload w, int k) {
  inductor::CandidateOptions o;
  switch (w) {
    case Workload::kLogSoftmax:
      o.num_load = 2;
      o.num_reduction = 2;
      break;
    case Workload::kFusedK:
      o.num_load = k;
      o.num_reduction = k;
      break;
    default:
      o.num_load = 1;
      o.num_reduction = 1;
      break;
  }
  return o;
}

std::optional<Error> checkList(const std::vector<int>& values, const char* name, int max_value) {
  if (values.empty()) return Error{std::string(name) + ": the list is empty: give at least one value"};
  for (int v : values) {
    if (v < 1 || v > max_value || (v & (v - 1)) != 0) {
      return Error{std::string(name) + " " + num(v) + " is out of range: allowed powers of two 1 … " + num(max_value)};
    }
  }
  return std::nullopt;
}

inductor::ReductionConfig toReductionConfig(const CompileSweepRow& row) {
  inductor::ReductionConfig rc;
  rc.xblock = row.config.xblock;
  rc.r0_block = row.config.rblock;
  rc.num_warps = row.config.num_warps;
  if (row.ok) {
    rc.n_regs = row.report.registers;
    rc.n_spills = row.report.nSpills();
    rc.shared_bytes = row.report.static_smem_bytes;
  }
  return rc;
}

/// Index of the row with this launch config, or -1.
int findRow(const std::vector<CompileSweepRow>& rows, int xblock, int rblock, int num_warps) {
  for (const auto& r : rows) {
    if (r.config.xblock == xblock && r.config.rblock == rblock && r.config.num_warps == num_warps) return r.index;
  }
  return -1;
}

void addOrigin(CompileSweepRow& row, const std::string& origin) {
  if (row.origin.find(origin) != std::string::npos) return;
  row.origin += (row.origin.empty() ? "" : "; ") + origin;
}

}  // namespace

const std::vector<inductor::Policy>& sweepDecisionPolicies() {
  return inductor::boundPolicies();
}

const std::vector<inductor::Policy>& sweepCandidatePolicies() {
  // The bounds whose scaling the family's sweeps replay: review_min adds what new adds whenever one
  // block fits the register file, and spills is a rule of the real kernels' sweeps.
  static const std::vector<Policy> kReplayed = [] {
    std::vector<Policy> out;
    for (Policy p : inductor::kPolicies) {
      if (p == Policy::kOld || p == Policy::kNew || p == Policy::kExact) out.push_back(p);
    }
    return out;
  }();
  return kReplayed;
}

namespace {

// The spec's ranges: sizes a 32-bit index reaches, power-of-two tile lists, one stage, 1 … 64
// parallel compiles, K inputs for fused_k only, a register cap of 0 … 255.
std::optional<Error> checkCompileSweepSpec(const CompileSweepSpec& spec) {
  constexpr std::int64_t kIntMax = 2147483647;
  if (spec.xnumel < 1 || spec.xnumel > kIntMax) {
    return Error{"xnumel " + num(spec.xnumel) + " is out of range: allowed 1 … " + num(kIntMax)};
  }
  if (spec.rnumel < 1 || spec.rnumel > kIntMax) {
    return Error{"rnumel " + num(spec.rnumel) + " is out of range: allowed 1 … " + num(kIntMax)};
  }
  if (spec.xnumel > kIntMax / spec.rnumel) {
    return Error{"xnumel × rnumel = " + num(spec.xnumel) + " × " + num(spec.rnumel) +
                 " is out of range: the kernels index with 32-bit ints, allowed at most " + num(kIntMax) + " elements"};
  }
  if (auto e = checkList(spec.grid.xblock, "XBLOCK", kMaxXBlock)) return *e;
  if (auto e = checkList(spec.grid.r0_block, "RBLOCK", kMaxRBlock)) return *e;
  if (auto e = checkList(spec.grid.num_warps, "num_warps", kMaxNumWarps)) return *e;
  if (spec.grid.num_stages != std::vector<int>{1}) {
    return Error{"num_stages " + spec.grid.text().substr(spec.grid.text().rfind('=') + 1) +
                 " is out of range: the built-in family has no pipelining, allowed 1"};
  }
  if (spec.threads < 1 || spec.threads > 64) {
    return Error{"threads " + num(spec.threads) + " is out of range: allowed 1 … 64 parallel compiles"};
  }
  if (spec.workload == Workload::kFusedK ? (spec.k < 1 || spec.k > kMaxFusedInputs) : spec.k != 1) {
    return Error{"K " + num(spec.k) + " is out of range: " +
                 (spec.workload == Workload::kFusedK ? "fused_k takes 1 … " + num(kMaxFusedInputs) + " inputs"
                                                     : std::string("only fused_k takes K inputs (allowed K = 1)"))};
  }
  if (spec.maxrregcount < 0 || spec.maxrregcount > 255) {
    return Error{"maxrregcount " + num(spec.maxrregcount) + " is out of range: allowed 0 (no cap) or 1 … 255"};
  }
  return std::nullopt;
}

// One compile sweep under way: its rows (the grid's configs, Inductor's candidates and the configs
// their scaling adds), compiled in parallel, each policy's pipeline over them, then occupancy and
// decisions per compiled row.
class CompileSweepRun {
 public:
  CompileSweepRun(const CompileSweepSpec& spec, const CompileFunction& compile, const CompileSweepProgressFn& progress,
                  const std::atomic<bool>* cancel, Device device, CompileSweepResult res)
      : spec_(spec),
        compile_(compile),
        progress_(progress),
        cancel_(cancel),
        device_(std::move(device)),
        res_(std::move(res)) {
    kernel_info_.size_hints = res_.size_hints;
  }

  // The config list, first part: every combination of the grid's lists.
  void addGridConfigs() {
    for (int x : spec_.grid.xblock) {
      for (int r : spec_.grid.r0_block) {
        for (int w : spec_.grid.num_warps) rows_[static_cast<std::size_t>(addConfig(x, r, w, "grid"))].in_grid = true;
      }
    }
  }

  // The config list, second part: Inductor's candidates for this kernel.
  std::optional<Error> addInductorCandidates() {
    auto c = inductor::reductionCandidates(res_.size_hints, spec_.hint, spec_.decision_options.profile,
                                           candidateOptionsFor(spec_.workload, spec_.k));
    if (!c) return Error{"Inductor's candidates: " + c.error()};
    candidates_ = std::move(c).value();
    for (const auto& rc : candidates_) {
      const int i = addConfig(rc.xblock, rc.r0_block, rc.num_warps, "Inductor: " + rc.origin);
      rows_[static_cast<std::size_t>(i)].inductor_candidate = true;
    }
    return std::nullopt;
  }

  // Compiles the rows from `first` on, spec.threads at a time; a row stopped by cancel is not
  // finished.
  void compileRows(std::size_t first) {
    const std::size_t count = rows_.size() - first;
    finished_.resize(rows_.size(), 0);
    parallelFor(
        count, spec_.threads,
        [&](std::size_t k) {
          CompileSweepRow& row = rows_[first + k];
          if (row.layout) compileRow(row);
          if (row.cancelled) return;  // stopped by cancel: not finished
          std::lock_guard<std::mutex> lock(progress_mutex_);
          finished_[first + k] = 1;
          ++done_;
          if (progress_) progress_({done_, rows_.size(), &row});
        },
        cancel_);
  }

  // Each policy's pipeline (candidates → scaling pass → spill filter); the configs the scaling
  // adds join the sweep and are compiled, the pipelines run again with their facts, and every
  // row learns what each policy's pipeline made of it.
  std::optional<Error> replayInductorPipelines() {
    if (auto e = runPipelines()) return *e;
    // Configs the scaling added that are not in the sweep yet: compile them too.
    const std::size_t before = rows_.size();
    addScaledConfigs();
    if (rows_.size() > before && !(cancel_ != nullptr && cancel_->load())) {
      compileRows(before);
    }
    if (auto e = runPipelines()) return *e;
    for (std::size_t pi = 0; pi < res_.pipelines.size(); ++pi) {
      for (const auto& e : res_.pipelines[pi].entries) {
        const int i = findRow(rows_, e.config.xblock, e.config.r0_block, e.config.num_warps);
        if (i < 0) continue;
        rows_[static_cast<std::size_t>(i)].candidate[pi] = e.spill;
      }
    }
    return std::nullopt;
  }

  // Occupancy and each policy's decision for every compiled row.
  void addOccupancyAndDecisions() {
    for (auto& row : rows_) {
      if (!row.ok) continue;
      OccupancyInput oi;
      oi.threads_per_block = row.config.num_warps * 32;
      oi.registers_per_thread = row.report.registers;
      oi.static_smem_bytes = row.report.static_smem_bytes;
      oi.grid_blocks = row.grid_blocks;
      oi.sm_count = device_.sm_count;
      auto occ = computeOccupancy(device_.arch, oi, false);
      if (occ) row.occupancy = std::move(occ).value();
      for (Policy p : sweepDecisionPolicies()) {
        auto d = inductor::decide(p, toReductionConfig(row), kernel_info_, device_, spec_.decision_options);
        if (d) {
          row.decisions.push_back(std::move(d).value());
        } else {
          inductor::Decision none;
          none.policy = p;
          none.reason = d.error();
          row.decisions.push_back(std::move(none));
        }
      }
    }
  }

  // The result: the finished rows and their counts, cancelled when a row was not finished.
  CompileSweepResult finish(std::chrono::steady_clock::time_point t0) {
    res_.total_configs = rows_.size();
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      if (!finished_[i]) {
        res_.cancelled = true;
        continue;
      }
      if (rows_[i].ok) {
        ++res_.compiled;
        if (rows_[i].cache_hit) ++res_.cache_hits;
      } else if (!rows_[i].layout) {
        ++res_.not_compiled;
      } else {
        ++res_.failed;
      }
      res_.rows.push_back(std::move(rows_[i]));
    }
    if (cancel_ != nullptr && cancel_->load()) res_.cancelled = true;
    res_.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return std::move(res_);
  }

 private:
  // The row of this launch config: a new one, or the existing one with `origin` added to its origins.
  int addConfig(int xblock, int rblock, int num_warps, const std::string& origin) {
    if (int i = findRow(rows_, xblock, rblock, num_warps); i >= 0) {
      addOrigin(rows_[static_cast<std::size_t>(i)], origin);
      return i;
    }
    CompileSweepRow row;
    row.index = static_cast<int>(rows_.size());
    row.config.workload = spec_.workload;
    row.config.dtype = spec_.dtype;
    row.config.k = spec_.k;
    row.config.fp32_outputs = spec_.fp32_outputs;
    row.config.max_registers = spec_.maxrregcount;
    row.config.xblock = xblock;
    row.config.rblock = rblock;
    row.config.num_warps = num_warps;
    row.config = configForShape(row.config, spec_.xnumel, spec_.rnumel, spec_.static_shape);
    row.origin = origin;
    row.grid_blocks = (spec_.xnumel + xblock - 1) / xblock;
    row.candidate.assign(sweepCandidatePolicies().size(), CandidateState::kNotCandidate);
    auto layout = tileLayout(row.config);
    if (layout) {
      row.layout = *layout;
    } else {
      row.error = layout.error();
    }
    rows_.push_back(std::move(row));
    return rows_.back().index;
  }

  // Generates and compiles one row's kernel (the row has a tile layout).
  void compileRow(CompileSweepRow& row) {
    auto grid = checkShape(row.config, spec_.xnumel, spec_.rnumel);
    auto gen = generateKernel(row.config);
    if (!grid) {
      row.error = grid.error();
      return;
    }
    if (!gen) {
      row.error = gen.error();
      return;
    }
    CompileRequest req;
    req.source = gen->source;
    req.kernel_name = gen->name;
    req.arch = spec_.device.arch.cc;
    req.cancel = cancel_;
    row.kernel_name = gen->name;
    auto r = compile_(req);
    if (!r) {
      row.error = r.error();
      row.cancelled = r.cancelled();
      return;
    }
    row.ok = true;
    row.report = r->report;
    row.cache_hit = r->cache_hit;
    row.compile_ms = r->compile_ms;
    std::lock_guard<std::mutex> lock(progress_mutex_);
    if (res_.compiler.empty()) res_.compiler = r->compiler;
    if (!r->cache_repair.empty()) res_.cache_repairs.push_back(r->cache_repair);
  }

  // What the compiler reported of this launch config, when a row has it compiled.
  std::optional<inductor::CompiledFacts> factsFor(int xblock, int rblock, int num_warps) const {
    const int i = findRow(rows_, xblock, rblock, num_warps);
    if (i < 0) return std::nullopt;
    const auto& row = rows_[static_cast<std::size_t>(i)];
    if (!row.ok) return std::nullopt;
    return inductor::CompiledFacts{row.report.registers, row.report.nSpills(), row.report.static_smem_bytes};
  }

  // Each replayed policy's pipeline over the candidates, with the facts of the rows compiled so far.
  std::optional<Error> runPipelines() {
    res_.pipelines.clear();
    for (Policy p : sweepCandidatePolicies()) {
      inductor::PipelineInput in;
      in.kernel = kernel_info_;
      in.hint = spec_.hint;
      in.candidate_options = candidateOptionsFor(spec_.workload, spec_.k);
      in.policy = p;
      in.options = spec_.decision_options;
      for (const auto& rc : candidates_) in.compiled.push_back(factsFor(rc.xblock, rc.r0_block, rc.num_warps));
      // First run without the added configs' facts to learn which configs the pass adds.
      auto first = inductor::runPipeline(in, device_);
      if (!first) return Error{"Inductor's " + std::string(inductor::policyKey(p)) + " pipeline: " + first.error()};
      for (const auto& e : first->entries) {
        if (e.added_by_scaling)
          in.compiled_added.push_back(factsFor(e.config.xblock, e.config.r0_block, e.config.num_warps));
      }
      auto full = inductor::runPipeline(in, device_);
      if (!full) return Error{"Inductor's " + std::string(inductor::policyKey(p)) + " pipeline: " + full.error()};
      res_.pipelines.push_back(std::move(full).value());
    }
    return std::nullopt;
  }

  // The configs each pipeline's scaling added, as rows ("old scaling: halved from …").
  void addScaledConfigs() {
    for (std::size_t pi = 0; pi < res_.pipelines.size(); ++pi) {
      for (const auto& e : res_.pipelines[pi].entries) {
        if (!e.added_by_scaling) continue;
        std::string parent = e.parent >= 0 && e.parent < static_cast<int>(res_.pipelines[pi].entries.size())
                                 ? res_.pipelines[pi].entries[static_cast<std::size_t>(e.parent)].config.str()
                                 : std::string("?");
        addConfig(e.config.xblock, e.config.r0_block, e.config.num_warps,
                  std::string(inductor::policyKey(sweepCandidatePolicies()[pi])) + " scaling: halved from " + parent);
      }
    }
  }

  const CompileSweepSpec& spec_;
  const CompileFunction& compile_;
  const CompileSweepProgressFn& progress_;
  const std::atomic<bool>* cancel_;
  Device device_;
  CompileSweepResult res_;
  inductor::KernelInfo kernel_info_;
  std::vector<CompileSweepRow> rows_;
  std::vector<inductor::ReductionConfig> candidates_;
  std::mutex progress_mutex_;
  std::size_t done_ = 0;
  std::vector<char> finished_;
};

}  // namespace

Expected<CompileSweepResult> runCompileSweep(const CompileSweepSpec& spec, const CompileFunction& compile,
                                             const CompileSweepProgressFn& progress, const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  if (auto e = checkCompileSweepSpec(spec)) return *e;
  auto device = makeDevice(spec.device.arch, spec.device.sm_count, spec.device.label);
  if (!device) return Error{device.error()};
  auto hints = inductor::sizeHintsFromNumels(spec.xnumel, spec.rnumel);
  if (!hints) return Error{hints.error()};
  auto bytes = bytesMoved(spec.workload, spec.dtype, spec.k, spec.xnumel, spec.rnumel, spec.fp32_outputs);
  if (!bytes) return Error{bytes.error()};

  CompileSweepResult res;
  res.spec = spec;
  res.size_hints = *hints;
  res.bytes = *bytes;
  res.date_utc = utcTimestamp();
  CompileSweepRun sweep(spec, compile, progress, cancel, std::move(device).value(), std::move(res));
  sweep.addGridConfigs();
  if (spec.inductor_candidates) {
    if (auto e = sweep.addInductorCandidates()) return *e;
  }
  sweep.compileRows(0);
  if (spec.inductor_candidates) {
    if (auto e = sweep.replayInductorPipelines()) return *e;
  }
  sweep.addOccupancyAndDecisions();
  return sweep.finish(t0);
}

// ---- export ----------------------------------------------------------------------------------

}  // namespace occx
