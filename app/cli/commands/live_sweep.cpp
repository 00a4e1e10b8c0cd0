#include "app/cli/commands/live_sweep.h"

#include <unistd.h>

#include <iostream>

#include <nlohmann/json.hpp>

#include "core/sweep/live_results.h"
#include "occx_config.h"

#if OCCX_HAVE_CUDA
#include "app/cli/options/kernel_options.h"
#include "core/kernels/compile_cache.h"
#include "core/cuda/driver_api.h"
#include "core/cuda/gpu_session.h"
#include "core/cuda/nvrtc_compiler.h"
#include "core/sweep/live_sweep.h"
#endif

namespace occx::cli {

void addLiveSweepOptions(CLI::App& cmd, LiveSweepOptions& o) {
  cmd.add_option("--device", o.device, "live runs: CUDA device ordinal (default 0)");
  cmd.add_option("--seed", o.seed, "live runs: seed of the random inputs (default 1)");
  cmd.add_flag("--metrics", o.metrics,
               "live runs: also collect CUPTI metrics per config (achieved occupancy, DRAM bytes, local-memory "
               "traffic); columns say 'unavailable: <reason>' where profiling is not permitted");
  cmd.add_flag("--refresh-bandwidth", o.refresh_bandwidth, "live runs: measure the copy bandwidth again (not the cached figure)");
  cmd.add_option("--repeat", o.repeat, "live runs: time the best config and each policy's pick N more times (0 … 100)");
  cmd.add_option("--timed-ms", o.timed_ms, "live runs: kernel time to aim at per config, ms (1 … 10000; default 40)");
  cmd.add_flag("--no-l2-flush", o.no_flush, "live runs: do not flush L2 between timed launches");
}

namespace {

[[maybe_unused]] nlohmann::json cellValue(const std::string& s) {
  if (s.empty()) return nullptr;
  try {
    std::size_t used = 0;
    const double v = std::stod(s, &used);
    if (used == s.size()) return v;
  } catch (...) {
  }
  return s;
}

[[maybe_unused]] nlohmann::json tableToJson(const CsvTable& t) {
  nlohmann::json j;
  j["meta"] = nlohmann::json::object();
  for (const auto& [k, v] : t.meta) j["meta"][k] = v;
  j["rows"] = nlohmann::json::array();
  for (const auto& row : t.rows) {
    nlohmann::json r = nlohmann::json::object();
    for (std::size_t i = 0; i < t.header.size() && i < row.size(); ++i) r[t.header[i]] = cellValue(row[i]);
    j["rows"].push_back(r);
  }
  return j;
}

}  // namespace

std::optional<int> runLiveSweepIfGpu(Context& ctx, const CompileSweepSpec& spec, const LiveSweepOptions& live,
                                     const SweepOutput& output, const std::atomic<bool>* cancel) {
#if !OCCX_HAVE_CUDA
  (void)spec;
  (void)live;
  (void)output;
  (void)cancel;
  ctx.err << "compile-only sweep: this build has no CUDA support for live runs\n";
  return std::nullopt;
#else
  const char* cmd = "occx sweep";
  if (live.repeat < 0 || live.repeat > 100) {
    ctx.err << cmd << ": --repeat " << live.repeat << " is out of range: allowed 0 … 100\n";
    return kExitUsage;
  }
  if (!(live.timed_ms >= 1.0 && live.timed_ms <= 10000.0)) {
    ctx.err << cmd << ": --timed-ms " << live.timed_ms << " is out of range: allowed 1 … 10000\n";
    return kExitUsage;
  }
  const auto ds = cuda::driverStatus();
  if (!ds.available || ds.device_count == 0) {
    ctx.err << "compile-only sweep: no GPU to run on ("
            << (ds.available ? std::string("the driver reports no device") : ds.reason) << ")\n";
    return std::nullopt;
  }
  if (live.device < 0 || live.device >= ds.device_count) {
    ctx.err << cmd << ": --device " << live.device << " is out of range: allowed 0 … " << ds.device_count - 1 << "\n";
    return kExitUsage;
  }
  auto session = cuda::GpuSession::open(live.device);
  if (!session) {
    ctx.err << cmd << ": cannot open device " << live.device << ": " << session.error() << "\n";
    return kExitRuntime;
  }
  const auto& dev = (*session)->device();
  if (dev.cc != spec.device.arch.cc) {
    ctx.err << "compile-only sweep: the target is " << spec.device.arch.cc.smName() << " but the GPU (" << dev.name
            << ") is " << dev.cc.smName() << "; pass --arch " << dev.cc.smName() << " (or no --arch/--gpu) to run live\n";
    return std::nullopt;
  }
  LiveSweepSpec ls;
  ls.toolkit = cuda::nvrtcVersionString();
  ls.compile = spec;
  ls.seed = live.seed;
  ls.refresh_copy_bandwidth = live.refresh_bandwidth;
  ls.repeat = live.repeat;
  ls.run.cupti_metrics = live.metrics;
  ls.run.timed_ms = live.timed_ms;
  ls.run.flush_l2 = !live.no_flush;
  CompileCache cache(output.cache_dir);
  cuda::NvrtcCompiler compiler(&cache);
  ctx.err << "live sweep on device " << dev.ordinal << ": " << dev.label() << "\n";
  const bool tty = &ctx.err == &std::cerr && isatty(STDERR_FILENO) == 1;
  auto progress = [&](const LiveSweepProgress& p) {
    if (output.quiet) return;
    std::string line;
    if (p.phase == Phase::kProblem) {
      line = p.done == 0 ? "preparing inputs and the CPU reference…" : "inputs and reference ready";
    } else if (p.phase == Phase::kCompile) {
      line = "compiling [" + std::to_string(p.done) + "/" + std::to_string(p.total) + "]";
    } else if (p.row != nullptr) {
      const auto& r = *p.row;
      line = "[" + std::to_string(p.done) + "/" + std::to_string(p.total) + "] " + r.config.label() + ": ";
      if (r.ok()) {
        line += fixed(r.time.median_us, 2) + " us, " + fixed(r.bandwidth_GBps, 0) + " GB/s (" + fixed(r.pct_of_copy, 1) +
                " % of copy)";
      } else {
        line += std::string(runStatusName(r.status)) + ": " + r.reason.substr(0, r.reason.find('\n'));
      }
    }
    if (tty && p.phase != Phase::kRun) {
      ctx.err << "\r\033[K" << line << std::flush;
    } else {
      if (tty) ctx.err << "\r\033[K";
      ctx.err << line << "\n";
    }
  };
  auto res = runLiveSweep(**session, ls, compiler.function(), progress, cancel);
  reportCorruptCacheEntries(ctx.err, cmd, cache);
  if (!res) {
    ctx.err << cmd << ": " << res.error() << "\n";
    return kExitRuntime;
  }
  auto& data = res->dataset;
  data.meta.emplace_back("compile_cache_hits", std::to_string(cache.stats().hits));
  for (const auto& rt : res->repeats) {
    std::string medians;
    for (double m : rt.medians_us) medians += (medians.empty() ? "" : " ") + fixed(m, 3);
    data.meta.emplace_back("repeat_" + data.rows[static_cast<std::size_t>(rt.row)].config.label(),
                           "medians_us " + medians + "; spread " + fixed(rt.spread_pct, 3) + " %");
  }
  const CsvTable table = liveDatasetToCsv(data);
  if (output.json) {
    auto j = tableToJson(table);
    j["replay"] = nlohmann::json::array();
    for (const auto& p : res->replay.picks) {
      j["replay"].push_back({{"policy", std::string(inductor::policyKey(p.policy))},
                             {"candidates", p.candidates},
                             {"benchmarked", p.benchmarked},
                             {"row", p.row},
                             {"time_us", p.time_us},
                             {"bandwidth_GBps", p.bandwidth_GBps},
                             {"regret", p.regret}});
    }
    j["best_row"] = res->replay.best_row;
    ctx.out << j.dump(2) << "\n";
  } else {
    ctx.out << "Live sweep: " << data.metaValue("workload") << " " << data.metaValue("dtype") << " (outputs "
            << data.metaValue("output_dtype") << "), xnumel " << spec.xnumel << " × rnumel " << spec.rnumel << " on "
            << dev.label() << "\n"
            << "Driver " << data.metaValue("driver") << ", " << data.metaValue("toolkit") << "; copy bandwidth "
            << fixed(res->copy.GBps, 0) << " GB/s" << (res->copy.from_cache ? " (cached)" : "") << "\n\n";
    std::vector<std::vector<std::string>> rows = {{"#", "XBLOCK", "RBLOCK", "warps", "regs", "spill st/ld B", "occ %",
                                                   "status", "time us", "spread %", "GB/s", "% copy", "ach. occ %",
                                                   "inductor", "added o/n/e"}};
    for (std::size_t i = 0; i < data.rows.size(); ++i) {
      const auto& r = data.rows[i];
      rows.push_back({std::to_string(i), std::to_string(r.config.xblock), std::to_string(r.config.rblock),
                      std::to_string(r.config.num_warps), r.registers >= 0 ? std::to_string(r.registers) : "",
                      r.spill_stores_bytes >= 0
                          ? std::to_string(r.spill_stores_bytes) + "/" + std::to_string(r.spill_loads_bytes)
                          : "",
                      r.theoretical_occupancy_pct >= 0 ? fixed(r.theoretical_occupancy_pct, 1) : "",
                      r.ok() ? "ok" : std::string(runStatusName(r.status)), r.ok() ? fixed(r.time.median_us, 2) : "",
                      r.ok() ? fixed(r.time.spread_pct, 2) : "", r.ok() ? fixed(r.bandwidth_GBps, 0) : "",
                      r.ok() ? fixed(r.pct_of_copy, 1) : "",
                      r.achieved_occupancy_pct.value ? fixed(*r.achieved_occupancy_pct.value, 1) : "-",
                      r.inductor_candidate ? "yes" : "",
                      std::string(r.added_old ? "o" : "-") + (r.added_new ? "n" : "-") + (r.added_exact ? "e" : "-")});
    }
    printTable(ctx.out, rows);
    for (const auto& r : data.rows) {
      if (!r.ok() && r.status != RunStatus::kCancelled) ctx.out << "  " << r.config.label() << ": " << r.reason << "\n";
    }
    ctx.out << "\nAutotuner replay (each policy's pick = its fastest candidate with n_spills ≤ 16; regret = pick time / "
               "best time):\n";
    printTable(ctx.out, replayTable(*res));
    for (const auto& rt : res->repeats) {
      ctx.out << "repeat " << data.rows[static_cast<std::size_t>(rt.row)].config.label() << ": " << rt.medians_us.size()
              << " medians, spread " << fixed(rt.spread_pct, 2) << " %\n";
    }
  }
  int ok = 0;
  for (const auto& r : data.rows) ok += r.ok() ? 1 : 0;
  ctx.err << ok << " of " << data.rows.size() << " configs ran correct; problem " << fixed(res->problem_seconds, 1)
          << " s, compile " << fixed(res->compile_seconds, 1) << " s, runs " << fixed(res->run_seconds, 1) << " s, wall "
          << fixed(res->wall_seconds, 1) << " s\n";
  int rc = kExitOk;
  if (!output.csv.empty()) rc = writeCsv(ctx, output.csv, table);
  if (res->cancelled) {
    ctx.err << cmd << ": cancelled: kept the finished rows" << (output.csv.empty() ? std::string() : " in " + output.csv)
            << "\n";
    return kExitRuntime;
  }
  return rc;
#endif
}

}  // namespace occx::cli
