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

std::string utcTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Expected<CompileSweepResult> runCompileSweep(const CompileSweepSpec& spec, const CompileFunction& compile,
                                             const CompileSweepProgressFn& progress, const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  // ---- validate ---------------------------------------------------------------------------------
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
  inductor::KernelInfo kernel_info;
  kernel_info.size_hints = *hints;

  // ---- the config list: the grid, then Inductor's candidates ------------------------------------
  std::vector<CompileSweepRow> rows;
  auto addConfig = [&](int xblock, int rblock, int num_warps, const std::string& origin) -> int {
    if (int i = findRow(rows, xblock, rblock, num_warps); i >= 0) {
      addOrigin(rows[static_cast<std::size_t>(i)], origin);
      return i;
    }
    CompileSweepRow row;
    row.index = static_cast<int>(rows.size());
    row.config.workload = spec.workload;
    row.config.dtype = spec.dtype;
    row.config.k = spec.k;
    row.config.fp32_outputs = spec.fp32_outputs;
    row.config.max_registers = spec.maxrregcount;
    row.config.xblock = xblock;
    row.config.rblock = rblock;
    row.config.num_warps = num_warps;
    row.config = configForShape(row.config, spec.xnumel, spec.rnumel, spec.static_shape);
    row.origin = origin;
    row.grid_blocks = (spec.xnumel + xblock - 1) / xblock;
    row.candidate.assign(sweepCandidatePolicies().size(), CandidateState::kNotCandidate);
    auto layout = tileLayout(row.config);
    if (layout) {
      row.layout = *layout;
    } else {
      row.error = layout.error();
    }
    rows.push_back(std::move(row));
    return rows.back().index;
  };
  for (int x : spec.grid.xblock) {
    for (int r : spec.grid.r0_block) {
      for (int w : spec.grid.num_warps) rows[static_cast<std::size_t>(addConfig(x, r, w, "grid"))].in_grid = true;
    }
  }
  std::vector<inductor::ReductionConfig> candidates;
  if (spec.inductor_candidates) {
    auto c = inductor::reductionCandidates(*hints, spec.hint, spec.decision_options.profile,
                                           candidateOptionsFor(spec.workload, spec.k));
    if (!c) return Error{"Inductor's candidates: " + c.error()};
    candidates = std::move(c).value();
    for (const auto& rc : candidates) {
      const int i = addConfig(rc.xblock, rc.r0_block, rc.num_warps, "Inductor: " + rc.origin);
      rows[static_cast<std::size_t>(i)].inductor_candidate = true;
    }
  }

  // ---- compile ---------------------------------------------------------------------------------
  std::mutex progress_mutex;
  std::size_t done = 0;
  std::vector<char> finished(rows.size(), 0);
  auto compileRows = [&](std::vector<CompileSweepRow>& all, std::size_t first) {
    const std::size_t count = all.size() - first;
    finished.resize(all.size(), 0);
    parallelFor(
        count, spec.threads,
        [&](std::size_t k) {
          CompileSweepRow& row = all[first + k];
          if (row.layout) {
            auto grid = checkShape(row.config, spec.xnumel, spec.rnumel);
            auto gen = generateKernel(row.config);
            if (!grid) {
              row.error = grid.error();
            } else if (!gen) {
              row.error = gen.error();
            } else {
              CompileRequest req;
              req.source = gen->source;
              req.kernel_name = gen->name;
              req.arch = spec.device.arch.cc;
              req.cancel = cancel;
              row.kernel_name = gen->name;
              auto r = compile(req);
              if (!r) {
                row.error = r.error();
                row.cancelled = r.cancelled();
              } else {
                row.ok = true;
                row.report = r->report;
                row.cache_hit = r->cache_hit;
                row.compile_ms = r->compile_ms;
                std::lock_guard<std::mutex> lock(progress_mutex);
                if (res.compiler.empty()) res.compiler = r->compiler;
                if (!r->cache_repair.empty()) res.cache_repairs.push_back(r->cache_repair);
              }
            }
          }
          if (row.cancelled) return;  // stopped by cancel: not finished
          std::lock_guard<std::mutex> lock(progress_mutex);
          finished[first + k] = 1;
          ++done;
          if (progress) progress({done, all.size(), &row});
        },
        cancel);
  };
  compileRows(rows, 0);

  // ---- each policy's pipeline: candidates → scaling pass → spill filter -------------------------
  auto factsFor = [&](int xblock, int rblock, int num_warps) -> std::optional<inductor::CompiledFacts> {
    const int i = findRow(rows, xblock, rblock, num_warps);
    if (i < 0) return std::nullopt;
    const auto& row = rows[static_cast<std::size_t>(i)];
    if (!row.ok) return std::nullopt;
    return inductor::CompiledFacts{row.report.registers, row.report.nSpills(), row.report.static_smem_bytes};
  };
  auto runPipelines = [&]() -> std::optional<Error> {
    res.pipelines.clear();
    for (Policy p : sweepCandidatePolicies()) {
      inductor::PipelineInput in;
      in.kernel = kernel_info;
      in.hint = spec.hint;
      in.candidate_options = candidateOptionsFor(spec.workload, spec.k);
      in.policy = p;
      in.options = spec.decision_options;
      for (const auto& rc : candidates) in.compiled.push_back(factsFor(rc.xblock, rc.r0_block, rc.num_warps));
      // First run without the added configs' facts to learn which configs the pass adds.
      auto first = inductor::runPipeline(in, *device);
      if (!first) return Error{"Inductor's " + std::string(inductor::policyKey(p)) + " pipeline: " + first.error()};
      for (const auto& e : first->entries) {
        if (e.added_by_scaling)
          in.compiled_added.push_back(factsFor(e.config.xblock, e.config.r0_block, e.config.num_warps));
      }
      auto full = inductor::runPipeline(in, *device);
      if (!full) return Error{"Inductor's " + std::string(inductor::policyKey(p)) + " pipeline: " + full.error()};
      res.pipelines.push_back(std::move(full).value());
    }
    return std::nullopt;
  };
  if (spec.inductor_candidates) {
    if (auto e = runPipelines()) return *e;
    // Configs the scaling added that are not in the sweep yet: compile them too.
    const std::size_t before = rows.size();
    for (std::size_t pi = 0; pi < res.pipelines.size(); ++pi) {
      for (const auto& e : res.pipelines[pi].entries) {
        if (!e.added_by_scaling) continue;
        std::string parent = e.parent >= 0 && e.parent < static_cast<int>(res.pipelines[pi].entries.size())
                                 ? res.pipelines[pi].entries[static_cast<std::size_t>(e.parent)].config.str()
                                 : std::string("?");
        addConfig(e.config.xblock, e.config.r0_block, e.config.num_warps,
                  std::string(inductor::policyKey(sweepCandidatePolicies()[pi])) + " scaling: halved from " + parent);
      }
    }
    if (rows.size() > before && !(cancel != nullptr && cancel->load())) {
      compileRows(rows, before);
    }
    if (auto e = runPipelines()) return *e;
    for (std::size_t pi = 0; pi < res.pipelines.size(); ++pi) {
      for (const auto& e : res.pipelines[pi].entries) {
        const int i = findRow(rows, e.config.xblock, e.config.r0_block, e.config.num_warps);
        if (i < 0) continue;
        rows[static_cast<std::size_t>(i)].candidate[pi] = e.spill;
      }
    }
  }

  // ---- occupancy and decisions per finished row ------------------------------------------------
  for (auto& row : rows) {
    if (!row.ok) continue;
    OccupancyInput oi;
    oi.threads_per_block = row.config.num_warps * 32;
    oi.registers_per_thread = row.report.registers;
    oi.static_smem_bytes = row.report.static_smem_bytes;
    oi.grid_blocks = row.grid_blocks;
    oi.sm_count = device->sm_count;
    auto occ = computeOccupancy(device->arch, oi, false);
    if (occ) row.occupancy = std::move(occ).value();
    for (Policy p : sweepDecisionPolicies()) {
      auto d = inductor::decide(p, toReductionConfig(row), kernel_info, *device, spec.decision_options);
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

  res.total_configs = rows.size();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (!finished[i]) {
      res.cancelled = true;
      continue;
    }
    if (rows[i].ok) {
      ++res.compiled;
      if (rows[i].cache_hit) ++res.cache_hits;
    } else if (!rows[i].layout) {
      ++res.not_compiled;
    } else {
      ++res.failed;
    }
    res.rows.push_back(std::move(rows[i]));
  }
  if (cancel != nullptr && cancel->load()) res.cancelled = true;
  res.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return res;
}

// ---- export ----------------------------------------------------------------------------------

}  // namespace occx
