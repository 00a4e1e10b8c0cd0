#include "core/triton/kernel_sweep.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "core/base/format.h"
#include "core/base/text.h"
#include "core/triton/sweep_cache.h"

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

using MeasureProgressFn = std::function<void(const MeasureProgress&)>;

/// The figures of `from` (a measured row of the same config) on `into` (a row of the whole kernel).
void graftMeasurement(MeasuredConfig& into, const MeasuredConfig& from) {
  into.measured = from.measured;
  into.buffers_from = from.buffers_from;
  into.device = from.device;
}

/// One timing pass over configs `wanted` of `kernel` (indices into kernel.configs and `rows`): a config
/// in `cached` is taken from it; the rest run on `runner` with `options`. Returns what the run said
/// (meta, notes; empty when nothing ran).
KernelMeasurements timingPass(GpuRunner& runner, const RunKernel& kernel, std::vector<MeasuredConfig>& rows,
                              const std::vector<std::size_t>& wanted, const MeasureOptions& options,
                              const std::vector<MeasuredConfig>& cached, int& from_cache,
                              const MeasureProgressFn& progress, const std::atomic<bool>* cancel) {
  RunKernel sub = kernel;
  sub.configs.clear();
  sub.winner = -1;
  std::vector<std::size_t> to_run;
  for (std::size_t i : wanted) {
    const std::string config = rows[i].configText();
    const auto hit = std::find_if(cached.begin(), cached.end(), [&](const MeasuredConfig& c) {
      return c.kernel == rows[i].kernel && c.configText() == config;
    });
    if (hit != cached.end()) {
      graftMeasurement(rows[i], *hit);
      ++from_cache;
      continue;
    }
    sub.configs.push_back(kernel.configs[i]);
    to_run.push_back(i);
  }
  if (sub.configs.empty()) return {};
  KernelMeasurements m = measureKernelConfigs(runner, {&sub}, options, progress, cancel);
  for (const MeasuredConfig& r : m.rows) {
    for (std::size_t i : to_run) {
      if (rows[i].configText() == r.configText()) graftMeasurement(rows[i], r);
    }
  }
  return m;
}

/// The spread of a measured row's time, %.
double spreadOf(const MeasuredConfig& r) {
  return r.measured.kernel_time ? r.measured.kernel_time->spread_pct : r.measured.time.spread_pct;
}

// Runs the re-read kernel's configs on the runner: with a screen pass, every config briefly and the
// finalists with the full method; rows in the cache are taken from it and new rows stored. Without a
// runner (or once cancelled) the rows say why they were not run.
void runSweptConfigs(KernelSweepResult& result, GpuRunner* runner, const KernelSweepOptions& options,
                     const KernelSweepProgressFn& progress, const std::atomic<bool>* cancel) {
  if (runner == nullptr || (cancel != nullptr && cancel->load())) {
    result.runs.rows = kernelConfigRows(result.kernel, "");
    result.not_measured = runner == nullptr ? "no GPU ran them" : "cancelled before the runs";
    for (auto& r : result.runs.rows) r.measured.reason = "not run: " + result.not_measured;
    result.runs.picks = summarizeMeasurements(result.runs.rows);
    result.runs.cancelled = cancel != nullptr && cancel->load();
    return;
  }
  std::vector<MeasuredConfig> rows = kernelConfigRows(result.kernel, runner->device().name);
  SweepCacheKey key{runner->device().name, runner->driverVersionText(), result.kernel.module.module_hash,
                    options.run.seed, sweepMethodKey(options.run.run)};
  auto pass = [&](const char* phase, const std::vector<std::size_t>& wanted, const MeasureOptions& how) {
    SweepCacheKey k = key;
    k.method = sweepMethodKey(how.run);
    const std::vector<MeasuredConfig> cached =
        options.cache != nullptr ? options.cache->load(k) : std::vector<MeasuredConfig>{};
    KernelMeasurements m = timingPass(
        *runner, result.kernel, rows, wanted, how, cached, result.from_cache,
        [&](const MeasureProgress& p) {
          if (!progress) return;
          KernelSweepProgress s{phase, p.done, p.total, {}};
          if (p.row != nullptr) {
            s.text = p.row->configText() + ": " + std::string(runStatusName(p.row->measured.status));
            if (p.row->ok()) s.text += " " + fixed(p.row->measured.timeUs(), 1) + " µs";
          }
          progress(s);
        },
        cancel);
    if (options.cache != nullptr && !m.rows.empty()) (void)options.cache->store(k, m.rows);
    if (!m.meta.empty()) result.runs.meta = m.meta;
    result.runs.notes.insert(result.runs.notes.end(), m.notes.begin(), m.notes.end());
    result.runs.cancelled = result.runs.cancelled || m.cancelled;
  };
  std::vector<std::size_t> all(rows.size());
  for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
  if (options.screen) {
    MeasureOptions brief = options.run;
    brief.run = options.screen->brief;
    pass("screening", all, brief);
    const std::vector<std::size_t> finalists = screenFinalists(rows, *options.screen, result.screen_margin_pct);
    result.screened_out = static_cast<int>(rows.size() - finalists.size());
    if (!(cancel != nullptr && cancel->load())) pass("running", finalists, options.run);
    for (std::size_t i : finalists) rows[i].method = "full";
    result.runs.meta.emplace_back("screen", "every config timed briefly (" + sweepMethodKey(brief.run) + "); " +
                                                std::to_string(finalists.size()) + " within " +
                                                fixed(result.screen_margin_pct, 1) +
                                                " % of the brief best, Inductor's winner and the policies' brief "
                                                "picks timed with the full method");
  } else {
    pass("running", all, options.run);
  }
  if (result.runs.meta.empty()) {
    result.runs.meta.emplace_back("device", runner->device().name);
    result.runs.meta.emplace_back("driver", runner->driverVersionText());
  }
  result.runs.rows = std::move(rows);
  result.measured = true;
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

std::vector<std::size_t> screenFinalists(std::vector<MeasuredConfig>& rows, const ScreenPass& screen,
                                         double& margin_pct) {
  const std::vector<KernelPicks> picks = summarizeMeasurements(rows);
  double max_spread = 0.0;
  for (const auto& r : rows) {
    if (r.ok()) max_spread = std::max(max_spread, spreadOf(r));
  }
  margin_pct = std::max(screen.min_margin_pct, 3.0 * max_spread);
  std::set<std::size_t> keep;
  double best = 0.0;
  for (const KernelPicks& k : picks) {
    if (k.best_row >= 0) best = k.best_time_us;
    if (k.winner_row >= 0) keep.insert(static_cast<std::size_t>(k.winner_row));
    for (const PolicyPick& p : k.picks) {
      if (p.row >= 0) keep.insert(static_cast<std::size_t>(p.row));
    }
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (rows[i].ok() && rows[i].measured.timeUs() <= best * (1.0 + margin_pct / 100.0)) keep.insert(i);
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (keep.count(i) != 0U || !rows[i].ok()) continue;
    rows[i].method = "brief: " + fixed(100.0 * (rows[i].measured.timeUs() / best - 1.0), 1) +
                     " % slower than the brief best, over the margin of " + fixed(margin_pct, 1) + " %";
  }
  return {keep.begin(), keep.end()};
}

Expected<KernelSweepResult> prepareKernelSweep(const RunKernel& kernel, const std::string& module_text,
                                               const KernelSweepOptions& options,
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
  return result;
}

void measureKernelSweep(KernelSweepResult& result, const RunKernel& kernel, const KernelSweepOptions& options,
                        GpuRunner* runner, const std::function<void(const KernelSweepProgress&)>& progress,
                        const std::atomic<bool>* cancel) {
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
}

Expected<KernelSweepResult> sweepKernel(const RunKernel& kernel, const std::string& module_text,
                                        const KernelSweepOptions& options, GpuRunner* runner,
                                        const std::function<void(const KernelSweepProgress&)>& progress,
                                        const std::atomic<bool>* cancel) {
  auto result = prepareKernelSweep(kernel, module_text, options, progress, cancel);
  if (!result) return result;
  measureKernelSweep(*result, kernel, options, runner, progress, cancel);
  return result;
}

RunOptions briefScreenOptions(const RunOptions& full) {
  RunOptions brief = full;
  brief.min_warmup_runs = 2;
  brief.warmup_ms = 1.0;
  brief.min_timed_runs = 8;
  brief.max_timed_runs = 60;
  brief.timed_ms = 3.0;
  brief.warm = false;
  brief.cupti_metrics = false;
  return brief;
}

}  // namespace occx::triton
