#include "core/triton/kernel_sweep.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/base/format.h"
#include "core/base/text.h"

namespace occx::triton {
namespace {

/// The row's config as a sweep config (persistent reductions have no R axis).
SweepConfig sweepConfigOf(const MeasuredConfig& r, bool persistent) {
  return SweepConfig{r.xblock, persistent ? 0 : r.r0_block, r.num_warps, r.num_stages, {}};
}

std::string regsText(const MeasuredConfig& r) {
  std::string s = r.n_regs >= 0 ? std::to_string(r.n_regs) + " registers" : std::string("registers unknown");
  if (r.n_spills > 0) {
    s += ", " + std::to_string(r.n_spills) + " spilled";
  } else if (r.n_spills == 0) {
    s += ", no spills";
  }
  return s;
}

std::string occupancyText(const MeasuredConfig& r) {
  return r.occupancy_pct >= 0 ? fixed(r.occupancy_pct, 0) + " % occupancy" : std::string("occupancy unknown");
}

/// What differs between the best row and another: occupancy, registers, spills, the tile.
std::string difference(const MeasuredConfig& best, const MeasuredConfig& other) {
  std::vector<std::string> parts;
  if (best.occupancy_pct >= 0 && other.occupancy_pct >= 0 &&
      std::abs(best.occupancy_pct - other.occupancy_pct) >= 1.0) {
    parts.push_back("occupancy " + fixed(other.occupancy_pct, 0) + " % vs " + fixed(best.occupancy_pct, 0) + " %");
  }
  if (best.n_regs >= 0 && other.n_regs >= 0 && best.n_regs != other.n_regs) {
    parts.push_back(std::to_string(other.n_regs) + " vs " + std::to_string(best.n_regs) + " registers");
  }
  if (other.n_spills > 0 && best.n_spills <= 0)
    parts.push_back(std::to_string(other.n_spills) + " registers spilled, the best none");
  if (other.xblock != best.xblock || other.r0_block != best.r0_block) {
    parts.push_back("tile " + std::to_string(other.xblock) + "×" + std::to_string(other.r0_block) + " vs " +
                    std::to_string(best.xblock) + "×" + std::to_string(best.r0_block));
  }
  if (other.num_warps != best.num_warps)
    parts.push_back(std::to_string(other.num_warps) + " vs " + std::to_string(best.num_warps) + " warps");
  if (parts.empty()) return "the same occupancy, registers and tile";
  return joined(parts, "; ");
}

}  // namespace

std::vector<std::string> explainSweep(const std::vector<MeasuredConfig>& rows, const std::vector<KernelPicks>& picks) {
  std::vector<std::string> out;
  for (const KernelPicks& k : picks) {
    const std::string who = picks.size() > 1 ? k.kernel + ": " : std::string();
    if (k.best_row < 0) {
      // Not measured: the occupancy leaders and what spills.
      int top = -1;
      int spilling = 0;
      int ok_regs = 0;
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const MeasuredConfig& r = rows[i];
        if (r.kernel != k.kernel || r.module != k.module) continue;
        if (r.n_spills > 0) ++spilling;
        if (r.n_regs >= 0) ++ok_regs;
        if (r.occupancy_pct >= 0 && (top < 0 || r.occupancy_pct > rows[static_cast<std::size_t>(top)].occupancy_pct))
          top = static_cast<int>(i);
      }
      std::string s = who + "Not timed (no GPU ran the configs): " + std::to_string(ok_regs) +
                      " configs with registers from their cubins";
      if (top >= 0)
        s += "; highest occupancy " + rows[static_cast<std::size_t>(top)].configText() + " (" +
             occupancyText(rows[static_cast<std::size_t>(top)]) + ")";
      s += "; " + std::to_string(spilling) + (spilling == 1 ? " config spills" : " configs spill") + ".";
      out.push_back(s);
      continue;
    }
    const MeasuredConfig& best = rows[static_cast<std::size_t>(k.best_row)];
    out.push_back(who + "Best: " + best.configText() + ", " + fixed(best.measured.timeUs(), 1) + " µs" +
                  (best.measured.bandwidth_GBps <= 0 ? std::string()
                   : best.measured.bandwidth_from == "DRAM bytes"
                       ? " (" + fixed(best.measured.bandwidth_GBps, 0) + " GB/s of DRAM)"
                       : " (~" + fixed(best.measured.bandwidth_GBps, 0) + " GB/s, estimated from the buffers)") +
                  ": " + occupancyText(best) + ", " + regsText(best) +
                  (best.swept_for.empty() ? "" : " — compiled by the sweep") + ".");
    if (k.winner_row >= 0) {
      const MeasuredConfig& w = rows[static_cast<std::size_t>(k.winner_row)];
      if (w.ok()) {
        out.push_back(who + "Inductor's pick (.best_config) " + w.configText() + ": " + fixed(w.measured.timeUs(), 1) +
                      " µs, " + fixed(k.winner_regret, 2) + "× the best" +
                      (k.winner_row == k.best_row ? " (it is the best)." : "; " + difference(best, w) + "."));
      }
    }
    // Rules that pick the same config from sets of the same size say it once.
    std::vector<bool> said(k.picks.size(), false);
    for (std::size_t i = 0; i < k.picks.size(); ++i) {
      if (said[i]) continue;
      const PolicyPick& p = k.picks[i];
      std::vector<std::string> names;
      for (std::size_t j = i; j < k.picks.size(); ++j) {
        const PolicyPick& o = k.picks[j];
        if (!said[j] && o.row == p.row && o.candidates == p.candidates && o.not_compiled == p.not_compiled) {
          said[j] = true;
          names.push_back(std::string(inductor::policyKey(o.policy)));
        }
      }
      std::string s = who + joined(names, ", ") + (names.size() == 1 ? " policy: " : " policies: each ");
      if (p.row < 0) {
        s += "no config of its set ran";
      } else {
        const MeasuredConfig& r = rows[static_cast<std::size_t>(p.row)];
        s += "picks " + r.configText() + " of " + std::to_string(p.candidates) + ", " + fixed(p.time_us, 1) +
             " µs, regret " + fixed(p.regret, 2);
        if (p.row != k.best_row) s += " (" + difference(best, r) + ")";
      }
      if (!p.not_compiled.empty()) s += "; not compiled: " + joined(p.not_compiled, ", ");
      out.push_back(s + ".");
    }
  }
  return out;
}

namespace {

using KernelSweepProgressFn = std::function<void(const KernelSweepProgress&)>;

// Compiles the plan's configs with the user's Triton (a mix-order reduction keeps its own
// RSPLIT_SIZE and stage limit), reporting each config compiled.
Expected<TritonCompileReport> compilePlannedConfigs(const RunKernel& kernel, const std::string& module_text,
                                                    const std::vector<SweepConfig>& configs,
                                                    const KernelSweepOptions& options,
                                                    const KernelSweepProgressFn& progress,
                                                    const std::atomic<bool>* cancel) {
  TritonCompileOptions compile = options.compile;
  if (kernel.module.meta.rsplit_size > 0) {  // a mix-order reduction: RSPLIT_SIZE is the kernel's, not swept
    compile.rsplit_size = kernel.module.meta.rsplit_size;
    const SizeHint* r0 = kernel.module.sizeHint("r0_");
    const std::int64_t r0_hint = r0 != nullptr && r0->value ? *r0->value : 0;
    compile.mix_max_stages = !kernel.module.meta.mix_order_multi_stages ? 1 : (r0_hint > 8192 ? 2 : 3);
  }
  return compileWithTriton(
      module_text, kernel.module.module_hash, configs, compile,
      [&](const CompileProgress& p) {
        if (!progress) return;
        KernelSweepProgress s{"compiling", p.done, p.total, {}};
        if (p.config != nullptr) {
          s.text = p.config->config.text() + (p.config->ok ? ": compiled in " + fixed(p.config->seconds, 1) + " s"
                                                           : ": failed: " + p.config->error.substr(0, 120));
        }
        progress(s);
      },
      cancel);
}

// The kernel again, with its own compiled configs and the sweep's, read from their Triton folders.
// Error: none could be read (the first compile failure says why), or the sweep was cancelled.
Expected<RunKernel> reanalyseSweptKernel(const RunKernel& kernel, const TritonCompileReport& compiled,
                                         const KernelSweepOptions& options, const std::atomic<bool>* cancel) {
  std::vector<TritonCompiled> read;
  std::set<std::string> seen;
  auto readFolder = [&](const std::string& folder) {
    if (folder.empty()) return;
    auto c = readTritonCacheFolder(folder);
    if (!c || c->name != kernel.module.name || !seen.insert(c->triton_cache_hash).second) return;
    read.push_back(std::move(*c));
  };
  for (const RunConfig& rc : kernel.configs) readFolder(rc.folder);
  for (const ConfigCompileReport& r : compiled.configs) {
    if (r.ok) readFolder(r.folder);
  }
  std::vector<const TritonCompiled*> ptrs;
  for (const auto& c : read) ptrs.push_back(&c);
  const GpuDatabase& db = options.db != nullptr ? *options.db : GpuDatabase::builtin();
  RunKernel again = analyseKernel(kernel.module, ptrs, kernel.best, db);
  again.launches = kernel.launches;
  if (!again.configs.empty()) return again;
  if (cancel != nullptr && cancel->load()) return Error::cancellation();
  std::string why = "no compiled config of " + kernel.module.name + " could be read";
  for (const auto& r : compiled.configs) {
    if (!r.ok) {
      why += " (" + r.config.text() + ": " + r.error + ")";
      break;
    }
  }
  return Error{why};
}

// Runs every config of the re-read kernel on the runner; without one (or once cancelled) the rows
// say why they were not run.
void runSweptConfigs(KernelSweepResult& result, GpuRunner* runner, const KernelSweepOptions& options,
                     const KernelSweepProgressFn& progress, const std::atomic<bool>* cancel) {
  if (runner != nullptr && !(cancel != nullptr && cancel->load())) {
    result.runs = measureKernelConfigs(
        *runner, {&result.kernel}, options.run,
        [&](const MeasureProgress& p) {
          if (!progress) return;
          KernelSweepProgress s{"running", p.done, p.total, {}};
          if (p.row != nullptr) {
            s.text = p.row->configText() + ": " + std::string(runStatusName(p.row->measured.status));
            if (p.row->ok()) s.text += " " + fixed(p.row->measured.timeUs(), 1) + " µs";
          }
          progress(s);
        },
        cancel);
    result.measured = true;
    return;
  }
  result.runs.rows = kernelConfigRows(result.kernel, "");
  result.not_measured = runner == nullptr ? "no GPU ran them" : "cancelled before the runs";
  for (auto& r : result.runs.rows) r.measured.reason = "not run: " + result.not_measured;
  result.runs.picks = summarizeMeasurements(result.runs.rows);
  result.runs.cancelled = cancel != nullptr && cancel->load();
}

// What the sweep compiled, and why: the rows of the configs it compiled say so, and each config
// Triton could not compile becomes a row with its words.
void addSweepCompileRows(const RunKernel& kernel, KernelSweepResult& result) {
  const bool persistent = kernel.module.kind == KernelKind::kPersistentReduction;
  for (MeasuredConfig& row : result.runs.rows) {
    const SweepConfig c = sweepConfigOf(row, persistent);
    for (const ConfigCompileReport& r : result.compile.configs) {
      if (r.ok && r.config.sameLaunch(c)) {
        row.swept_for = joined(r.config.requested_by, ", ");
        row.compile_s = r.seconds;
        if (row.origin == configOriginName(ConfigOrigin::kOther)) row.origin = std::string(kSweptOrigin);
      }
    }
  }
  for (const ConfigCompileReport& r : result.compile.configs) {
    if (r.ok) continue;
    MeasuredConfig row;
    row.kernel = kernel.module.name;
    row.module = kernel.module.module_hash;
    row.xblock = r.config.xblock;
    row.r0_block = r.config.r0_block;
    row.num_warps = r.config.num_warps;
    row.num_stages = r.config.num_stages;
    row.origin = std::string(kSweptOrigin);
    row.swept_for = joined(r.config.requested_by, ", ");
    row.compile_s = r.seconds;
    row.measured.status = r.error == "cancelled" ? RunStatus::kCancelled : RunStatus::kCompileFailed;
    row.measured.reason = r.error;
    result.runs.rows.push_back(std::move(row));
  }
}

}  // namespace

Expected<KernelSweepResult> sweepKernel(const RunKernel& kernel, const std::string& module_text,
                                        const KernelSweepOptions& options, GpuRunner* runner,
                                        const std::function<void(const KernelSweepProgress&)>& progress,
                                        const std::atomic<bool>* cancel) {
  KernelSweepResult result;
  auto plan = planSweep(kernel, options.grid, options.policies);
  if (!plan) return Error{plan.error()};
  result.plan = std::move(*plan);
  if (!result.plan.configs.empty()) {
    auto compiled = compilePlannedConfigs(kernel, module_text, result.plan.configs, options, progress, cancel);
    if (!compiled) return Error{compiled.error()};
    result.compile = std::move(*compiled);
  }
  auto again = reanalyseSweptKernel(kernel, result.compile, options, cancel);
  if (!again) return again.cancelled() ? Error::cancellation() : Error{again.error()};
  result.kernel = std::move(*again);
  runSweptConfigs(result, runner, options, progress, cancel);
  addSweepCompileRows(kernel, result);
  result.runs.picks = summarizeMeasurements(result.runs.rows);
  result.runs.meta.emplace_back("sweep_grid", result.plan.grid);
  result.runs.meta.emplace_back("sweep_policies", options.policies ? "yes" : "no");
  if (!result.compile.python.empty()) {
    result.runs.meta.emplace_back("python", result.compile.python + " " + result.compile.python_version);
    result.runs.meta.emplace_back("torch", result.compile.torch_version);
    result.runs.meta.emplace_back("triton", result.compile.triton_version);
    result.runs.meta.emplace_back("compile_s", fixed(result.compile.seconds, 1));
  }
  result.explanation = explainSweep(result.runs.rows, result.runs.picks);
  return result;
}

}  // namespace occx::triton
