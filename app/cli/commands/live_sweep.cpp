#include "app/cli/commands/live_sweep.h"

#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/options/kernel_options.h"
#include "app/cli/printers/format.h"
#include "app/cli/printers/printer.h"
#include "app/cli/printers/progress_printer.h"
#include "core/kernels/compile_cache.h"
#include "core/sweep/live_results.h"
#include "core/sweep/live_sweep.h"
#include "core/sweep/worker_runner.h"

namespace occx::cli {

namespace {

LiveSweepOutcome ran(int exit_code) {
  return {LiveSweepOutcome::Kind::kRan, exit_code, {}};
}
LiveSweepOutcome stopped(int exit_code) {
  return {LiveSweepOutcome::Kind::kStopped, exit_code, {}};
}
LiveSweepOutcome fallBack(std::string reason) {
  return {LiveSweepOutcome::Kind::kFallBack, kExitOk, std::move(reason)};
}

constexpr const char* kLiveSweepCmd = "occx sweep";

// The GPU on --device when there is one and its architecture is the sweep's; otherwise null, with
// `outcome` saying what to do instead (errors printed).
std::unique_ptr<GpuRunner> openLiveGpu(Context& ctx, const CompileSweepSpec& spec, int device,
                                       LiveSweepOutcome& outcome) {
  OpenedGpu gpu = openGpu(ctx, kLiveSweepCmd, device);
  if (!gpu.runner) {
    outcome = gpu.no_gpu.empty() ? stopped(gpu.exit_code) : fallBack(gpu.no_gpu);
    return nullptr;
  }
  const auto& dev = gpu.runner->device();
  if (dev.cc != spec.device.arch.cc) {
    outcome = fallBack("the target is " + spec.device.arch.cc.smName() + " but the GPU (" + dev.name + ") is " +
                       dev.cc.smName() + "; pass --arch " + dev.cc.smName() + " (or no --arch/--gpu) to run live");
    return nullptr;
  }
  return std::move(gpu.runner);
}

// The progress line of one step: preparing the problem, compiling, or a finished run.
std::string progressLine(const LiveSweepProgress& p) {
  if (p.phase == Phase::kProblem)
    return p.done == 0 ? "preparing inputs and the CPU reference…" : "inputs and reference ready";
  if (p.phase == Phase::kCompile) return "compiling [" + std::to_string(p.done) + "/" + std::to_string(p.total) + "]";
  if (p.row == nullptr) return {};
  const auto& r = *p.row;
  std::string line = "[" + std::to_string(p.done) + "/" + std::to_string(p.total) + "] " + r.config.label() + ": ";
  if (r.ok()) {
    return line + timeText(r.measured) + "; " + bandwidthText(r.measured);
  }
  return line + std::string(runStatusName(r.measured.status)) + ": " +
         r.measured.reason.substr(0, r.measured.reason.find('\n'));
}

// The one call into the engine's live sweep, kept alone so that it follows the engine's API easily.
Expected<LiveSweepResult> runOnGpu(Context& ctx, GpuRunner& session, const CompileSweepSpec& spec,
                                   const LiveSweepOptions& live, bool quiet, CompileCache& cache,
                                   const std::atomic<bool>* cancel) {
  LiveSweepSpec ls;
  ls.toolkit = ctx.backend.compilerVersion();
  ls.compile = spec;
  ls.seed = live.seed;
  ls.refresh_copy_bandwidth = live.refresh_bandwidth;
  ls.repeat = live.repeat;
  ls.run.cupti_metrics = live.metrics;
  ls.run.timed_ms = live.timed_ms;
  ls.run.flush_l2 = !live.no_flush;
  ProgressPrinter progress(ctx.err, quiet);
  auto onProgress = [&](const LiveSweepProgress& p) {
    if (p.phase == Phase::kRun) {
      progress.keep(progressLine(p));
    } else {
      progress.step(progressLine(p));
    }
  };
  auto result = runLiveSweep(session, ls, ctx.backend.compilerWithCache(cache), onProgress, cancel);
  progress.finish();  // an error or the summary after a compile-phase step starts on its own line
  return result;
}

// The metadata the CLI adds: compile-cache hits and the repeated timings.
void addRunMeta(LiveSweepResult& res, const CompileCache& cache) {
  auto& data = res.dataset;
  data.meta.emplace_back("compile_cache_hits", std::to_string(cache.stats().hits));
  for (const auto& rt : res.repeats) {
    const std::string medians = joined(rt.medians_us, " ", [](double m) { return fixed(m, 3); });
    data.meta.emplace_back("repeat_" + data.rows[static_cast<std::size_t>(rt.row)].config.label(),
                           "medians_us " + medians + "; spread " + fixed(rt.spread_pct, 3) + " %");
  }
}

nlohmann::json liveJson(const LiveSweepResult& res) {
  auto j = liveDatasetToJson(res.dataset);
  j["replay"] = nlohmann::json::array();
  for (const auto& p : res.replay.picks) {
    j["replay"].push_back({{"policy", std::string(inductor::policyKey(p.policy))},
                           {"candidates", p.candidates},
                           {"benchmarked", p.benchmarked},
                           {"row", p.row},
                           {"time_us", p.time_us},
                           {"bandwidth_GBps", p.bandwidth_GBps},
                           {"regret", p.regret}});
  }
  j["best_row"] = res.replay.best_row;
  return j;
}

TextRows liveRows(const LiveDataset& data) {
  TextRows rows = {{"#", "XBLOCK", "RBLOCK", "warps", "regs", "spill st/ld B", "occ %", "status", "cold us", "warm us",
                    "spread %", "DRAM GB/s", "% copy", "ach. occ %", "inductor", "added o/n/e"}};
  for (std::size_t i = 0; i < data.rows.size(); ++i) {
    const auto& r = data.rows[i];
    const bool ok = r.ok();
    rows.push_back({std::to_string(i), std::to_string(r.config.xblock), std::to_string(r.config.rblock),
                    std::to_string(r.config.num_warps), r.registers >= 0 ? std::to_string(r.registers) : "",
                    r.spill_stores_bytes >= 0
                        ? std::to_string(r.spill_stores_bytes) + "/" + std::to_string(r.spill_loads_bytes)
                        : "",
                    r.theoretical_occupancy_pct >= 0 ? fixed(r.theoretical_occupancy_pct, 1) : "",
                    ok ? "ok" : std::string(runStatusName(r.measured.status)), ok ? fixed(r.measured.timeUs(), 2) : "",
                    ok && r.measured.warmTimeUs() ? fixed(*r.measured.warmTimeUs(), 2) : "",
                    ok ? fixed(r.measured.timeStats().spread_pct, 2) : "", bandwidthCell(r.measured),
                    ok && r.measured.pct_of_copy > 0 ? fixed(r.measured.pct_of_copy, 1) : "",
                    r.measured.achieved_occupancy_pct.value ? fixed(*r.measured.achieved_occupancy_pct.value, 1) : "-",
                    r.inductor_candidate ? "yes" : "",
                    std::string(r.added_by.contains(inductor::Policy::kOld) ? "o" : "-") +
                        (r.added_by.contains(inductor::Policy::kNew) ? "n" : "-") +
                        (r.added_by.contains(inductor::Policy::kExact) ? "e" : "-")});
  }
  return rows;
}

void printLiveText(Context& ctx, const CompileSweepSpec& spec, const std::string& gpu, const LiveSweepResult& res) {
  const auto& data = res.dataset;
  ctx.out << "Live sweep: " << data.metaValue("workload") << " " << data.metaValue("dtype") << " (outputs "
          << data.metaValue("output_dtype") << "), xnumel " << spec.xnumel << " × rnumel " << spec.rnumel << " on "
          << gpu << "\n"
          << "Driver " << data.metaValue("driver") << ", " << data.metaValue("toolkit") << "; copy bandwidth "
          << fixed(res.copy.GBps, 0) << " GB/s" << (res.copy.from_cache ? " (cached)" : "") << "\n\n";
  printTable(ctx.out, liveRows(data));
  ctx.out << figureLegend("us") << "\n";
  for (const auto& r : data.rows) {
    if (!r.ok() && r.measured.status != RunStatus::kCancelled)
      ctx.out << "  " << r.config.label() << ": " << r.measured.reason << "\n";
  }
  ctx.out << "\nAutotuner replay (each policy's pick = its fastest candidate with n_spills ≤ 16, or the first "
             "candidate when every one is over; regret = pick time / best time):\n";
  printTable(ctx.out, replayTable(res));
  for (const auto& rt : res.repeats) {
    ctx.out << "repeat " << data.rows[static_cast<std::size_t>(rt.row)].config.label() << ": " << rt.medians_us.size()
            << " medians, spread " << fixed(rt.spread_pct, 2) << " %\n";
  }
}

void printLiveSummary(Context& ctx, const LiveSweepResult& res, const GpuRunner& runner) {
  int ok = 0;
  for (const auto& r : res.dataset.rows) ok += r.ok() ? 1 : 0;
  ctx.err << ok << " of " << res.dataset.rows.size() << " configs ran correct; problem "
          << fixed(res.problem_seconds, 1) << " s, compile " << fixed(res.compile_seconds, 1) << " s, runs "
          << fixed(res.run_seconds, 1) << " s, wall " << fixed(res.wall_seconds, 1) << " s";
  const auto* worker = dynamic_cast<const WorkerRunner*>(&runner);
  if (worker != nullptr && worker->restarts() > 0) {
    ctx.err << "; the GPU worker was restarted " << worker->restarts()
            << (worker->restarts() == 1 ? " time" : " times");
  }
  ctx.err << "\n";
}

// Runs on the open GPU and reports: the table or JSON on stdout, the summary on stderr, --csv.
int runLive(Context& ctx, GpuRunner& session, const CompileSweepSpec& spec, const LiveSweepOptions& live,
            const SweepOutput& output, const std::atomic<bool>* cancel) {
  CompileCache cache(output.cache_dir);
  const std::string gpu = session.device().label();
  ctx.err << "live sweep on device " << session.device().ordinal << ": " << gpu;
  if (const auto* worker = dynamic_cast<const WorkerRunner*>(&session)) {
    ctx.err << " (GPU worker ready in " << fixed(worker->startupSeconds(), 2) << " s)";
  }
  ctx.err << "\n";
  auto res = runOnGpu(ctx, session, spec, live, output.quiet, cache, cancel);
  reportCorruptCacheEntries(ctx.err, kLiveSweepCmd, cache);
  if (!res) return fail(ctx, kLiveSweepCmd, res.error(), kExitRuntime);
  addRunMeta(*res, cache);
  const CsvTable table = liveDatasetToCsv(res->dataset);
  if (output.format.json) {
    printJson(ctx.out, liveJson(*res));
  } else if (output.format.text()) {
    printLiveText(ctx, spec, gpu, *res);
  }
  printLiveSummary(ctx, *res, session);
  const std::string& csv = output.format.csv;
  const int rc = csv.empty() ? kExitOk : writeCsv(ctx, csv, table);
  if (res->cancelled) {
    const std::string where = csv.empty()                   ? std::string()
                              : output.format.csvToStdout() ? std::string(" on standard output")
                                                            : " in " + csv;
    ctx.err << kLiveSweepCmd << ": cancelled: kept the finished rows" << where << "\n";
    return kExitRuntime;
  }
  return rc;
}

}  // namespace

LiveSweepOutcome runLiveSweepIfGpu(Context& ctx, const CompileSweepSpec& spec, const LiveSweepOptions& live,
                                   const SweepOutput& output, const std::atomic<bool>* cancel) {
  if (std::string msg = live.rangeError(); !msg.empty()) return stopped(fail(ctx, kLiveSweepCmd, msg));
  LiveSweepOutcome outcome;
  auto session = openLiveGpu(ctx, spec, live.device, outcome);
  if (!session) return outcome;
  return ran(runLive(ctx, *session, spec, live, output, cancel));
}

}  // namespace occx::cli
