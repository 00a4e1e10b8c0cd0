// occx inductor: what torch.compile left on disk, read without Python or a GPU.
//   occx inductor scan [DIR] [--triton-cache DIR] [--json | --csv FILE]: one row per (kernel, config)
//   occx inductor show KERNEL [DIR]: one kernel with every policy's reasoning in words
//   occx inductor run KERNEL|DIR [DIR]: every compiled config run live on the GPU, each rule's pick
#include <filesystem>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/printer.h"
#include "app/cli/printers/progress_printer.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_runs.h"
#include "core/triton/run_table.h"
#include "app/cli/interrupt.h"
#include "core/base/format.h"
#include "occx_config.h"

#if OCCX_HAVE_CUDA
#include "core/cuda/cuda_backend.h"
#include "core/cuda/driver_api.h"
#include "core/sweep/worker_runner.h"
#endif

namespace occx::cli {
namespace {

using namespace occx::triton;

struct InductorOpts {
  std::string input;
  std::vector<std::string> triton_caches;
  bool no_home_cache = false;
  bool quiet = false;
  OutputOptions output;
  std::string kernel;  ///< show, run
  // run only
  bool reductions_only = false;
  int device = 0;
  std::uint64_t seed = 1;
  bool no_metrics = false;
  double timed_ms = 40.0;
  bool no_flush = false;
};

void addInputOptions(CLI::App& cmd, InductorOpts& o) {
  cmd.add_option("--triton-cache", o.triton_caches,
                 "also read this Triton cache (a folder of <hash>/ folders); repeatable. <DIR>/triton/<device>/ is always read, "
                 "and ~/.triton/cache unless --no-home-cache");
  cmd.add_flag("--no-home-cache", o.no_home_cache, "do not read ~/.triton/cache");
  cmd.add_flag("-q,--quiet", o.quiet, "no progress lines on standard error");
}

Expected<InductorRun> scan(Context& ctx, const InductorOpts& o) {
  RunScanOptions options;
  options.input = o.input;
  options.triton_caches = o.triton_caches;
  options.home_triton_cache = !o.no_home_cache;
  ProgressPrinter progress(ctx.err, o.quiet || &ctx.err != &std::cerr);
  auto run = scanInductorRun(options, [&](const ScanProgress& p) {
    progress.step(p.phase + (p.total > 0 ? " [" + std::to_string(p.done) + "/" + std::to_string(p.total) + "]" : std::string()));
  });
  progress.finish();
  return run;
}

std::string shortName(const std::string& name) {
  constexpr std::size_t kMax = 56;
  if (name.size() <= kMax) return name;
  return name.substr(0, 40) + "…" + name.substr(name.size() - 15);
}

// The text table: the columns a reader scans first; --csv and --json have them all.
void printScanText(std::ostream& out, const InductorRun& run) {
  out << "Inductor run: " << run.input << "\n";
  out << "  " << run.files_read << " files read; Triton caches: " << (run.triton_caches.empty() ? std::string("none found") : std::string());
  for (std::size_t i = 0; i < run.triton_caches.size(); ++i) out << (i ? ", " : "") << run.triton_caches[i];
  out << "\n" << run.summary.text() << "\n";
  std::string device;
  TextRows rows;
  const TextRows header = {{"kernel", "kind", "size hints", "XBLOCK", "R0_BLOCK", "warps", "regs", "spills", "occupancy",
                            "blocks/SM", "origin", "winner", "new", "old", "disagree"}};
  auto flush = [&] {
    if (rows.empty()) return;
    out << "\ndevice " << device << "\n";
    TextRows all = header;
    all.insert(all.end(), rows.begin(), rows.end());
    printTable(out, all);
    rows.clear();
  };
  for (const ScanRow& r : scanRows(run)) {
    if (r.device != device) {
      flush();
      device = r.device;
    }
    auto n = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string(); };
    rows.push_back({shortName(r.kernel), r.kind, r.size_hints, n(r.xblock), n(r.r0_block), n(r.num_warps), n(r.n_regs),
                    n(r.n_spills), r.occupancy_pct ? std::to_string(static_cast<int>(*r.occupancy_pct + 0.5)) + " %" : std::string(),
                    n(r.blocks_per_sm), r.r0_block ? r.origin : std::string(), r.winner ? "yes" : "", r.new_decision,
                    r.old_decision, r.bounds_disagree ? "yes" : ""});
  }
  flush();
  if (!run.problems.empty()) {
    out << "\n" << run.problems.size() << (run.problems.size() == 1 ? " problem" : " problems") << " reading the run (files that could not be read or matched):\n";
    for (std::size_t i = 0; i < run.problems.size() && i < 10; ++i) out << "  " << run.problems[i] << "\n";
    if (run.problems.size() > 10) out << "  … and " << run.problems.size() - 10 << " more (--json lists them all)\n";
  }
  out << "\nPer-config benchmark times are not on disk (Inductor logs them only at DEBUG level).\n";
}

int runScan(Context& ctx, const InductorOpts& o) {
  auto run = scan(ctx, o);
  if (!run) return fail(ctx, "occx inductor scan", run.error(), kExitRuntime);
  if (o.output.json) {
    printJson(ctx.out, runToJson(*run));
  } else if (o.output.text()) {
    printScanText(ctx.out, *run);
  }
  if (!o.output.csv.empty()) return writeCsv(ctx, o.output.csv, scanToCsv(*run));
  return kExitOk;
}

int runShow(Context& ctx, const InductorOpts& o) {
  auto run = scan(ctx, o);
  if (!run) return fail(ctx, "occx inductor show", run.error(), kExitRuntime);
  const auto found = run->findKernels(o.kernel);
  if (found.empty()) {
    return fail(ctx, "occx inductor show",
                "no kernel named or containing '" + o.kernel + "' in " + run->input + " (" + std::to_string(run->kernels.size()) +
                    (run->kernels.size() == 1 ? " kernel" : " kernels") + "; `occx inductor scan` lists them)");
  }
  InductorRun only;  // the run with the kernels asked for only (not a copy of every kernel)
  only.input = run->input;
  only.triton_caches = run->triton_caches;
  only.problems = run->problems;
  only.files_read = run->files_read;
  only.summary = run->summary;
  for (const RunKernel* k : found) only.kernels.push_back(*k);
  if (o.output.json) {
    printJson(ctx.out, runToJson(only));
  } else if (o.output.text()) {
    for (std::size_t i = 0; i < found.size(); ++i) ctx.out << (i ? "\n" : "") << kernelReport(*found[i]);
  }
  if (!o.output.csv.empty()) return writeCsv(ctx, o.output.csv, scanToCsv(only));
  return kExitOk;
}


// `occx inductor run`: the configs Inductor compiled, run on the local GPU.
void printRunsText(std::ostream& out, const KernelRunsResult& r) {
  TextRows rows = {{"kernel", "config", "origin", "regs", "spills", "occupancy", "status", "time µs", "spread %", "GB/s",
                    "achieved occ.", "rules with it", "reason"}};
  for (const auto& row : r.rows) {
    std::string rules;
    for (std::size_t i = 0; i < row.in_set.size() && i < inductor::decisionPolicies().size(); ++i) {
      if (row.in_set[i]) rules += (rules.empty() ? "" : ",") + std::string(inductor::policyKey(inductor::decisionPolicies()[i]));
    }
    rows.push_back({shortName(row.kernel), row.configText() + (row.winner ? " *" : ""), row.origin,
                    row.n_regs >= 0 ? std::to_string(row.n_regs) : "", row.n_spills >= 0 ? std::to_string(row.n_spills) : "",
                    row.occupancy_pct >= 0 ? fixed(row.occupancy_pct, 1) + " %" : "", std::string(runStatusName(row.status)),
                    row.ok() ? fixed(row.time.median_us, 1) : "", row.ok() ? fixed(row.time.spread_pct, 1) : "",
                    row.ok() ? fixed(row.bandwidth_GBps, 0) : "",
                    row.ok() && row.achieved_occupancy_pct.value ? fixed(*row.achieved_occupancy_pct.value, 1) + " %" : "", rules,
                    row.reason.substr(0, 90)});
  }
  printTable(out, rows);
  out << "\n* = Inductor's winner (.best_config). Each rule's pick: the fastest measured config of its set (Inductor's candidates "
         "plus the halved configs the rule adds), spill filter applied; regret = pick time / best time.\n\n";
  printTable(out, picksTable(r));
  for (const auto& n : r.notes) out << "note: " << n << "\n";
}

int runRun(Context& ctx, const InductorOpts& o) {
  constexpr const char* kRunCmd = "occx inductor run";
  if (!(o.timed_ms >= 1.0 && o.timed_ms <= 10000.0)) return fail(ctx, kRunCmd, "--timed-ms " + fixed(o.timed_ms, 1) + " is out of range: allowed 1 … 10000");
  InductorOpts scan_opts = o;
  std::string key;
  std::error_code ec;
  if (std::filesystem::exists(o.kernel, ec)) {
    if (!o.input.empty()) return fail(ctx, kRunCmd, "give a kernel and a folder, or a folder alone: '" + o.input + "' is one too many");
    scan_opts.input = o.kernel;
  } else {
    key = o.kernel;
  }
  auto run = scan(ctx, scan_opts);
  if (!run) return fail(ctx, kRunCmd, run.error(), kExitRuntime);
  std::vector<const RunKernel*> kernels;
  if (key.empty()) {
    for (const auto& k : run->kernels) {
      if (o.reductions_only && !k.analysed()) continue;
      if (!k.configs.empty()) kernels.push_back(&k);
    }
  } else {
    kernels = run->findKernels(key);
    if (kernels.empty()) {
      return fail(ctx, kRunCmd, "no kernel named or containing '" + key + "' in " + run->input + " (`occx inductor scan` lists them)");
    }
  }
  if (kernels.empty()) return fail(ctx, kRunCmd, "no kernel with compiled configs in " + run->input, kExitRuntime);
#if !OCCX_HAVE_CUDA
  return fail(ctx, kRunCmd, "this build has no CUDA support (built without the CUDA Toolkit): nothing can run on a GPU", kExitRuntime);
#else
  const auto ds = cuda::driverStatus();
  if (!ds.available || ds.device_count == 0) {
    return fail(ctx, kRunCmd, "no GPU to run on (" + (ds.available ? std::string("the driver reports no device") : ds.reason) + ")", kExitRuntime);
  }
  if (o.device < 0 || o.device >= ds.device_count) {
    return fail(ctx, kRunCmd, outOfRange("--device", o.device, "0 … " + std::to_string(ds.device_count - 1)));
  }
  auto worker = cuda::startGpuWorker(o.device);
  if (!worker) return fail(ctx, kRunCmd, "cannot open device " + std::to_string(o.device) + ": " + worker.error(), kExitRuntime);
  KernelRunOptions options;
  options.seed = o.seed;
  options.run.cupti_metrics = !o.no_metrics;
  options.run.timed_ms = o.timed_ms;
  options.run.flush_l2 = !o.no_flush;
  std::size_t configs = 0;
  for (const auto* k : kernels) configs += k->configs.size();
  ctx.err << kRunCmd << ": " << kernels.size() << (kernels.size() == 1 ? " kernel, " : " kernels, ") << configs << " compiled configs on "
          << (*worker)->device().name << "\n";
  SigintScope sigint;
  ProgressPrinter progress(ctx.err, o.quiet || &ctx.err != &std::cerr);
  auto result = runKernelConfigs(**worker, kernels, options, [&](const KernelRunProgress& p) {
    std::string line = "[" + std::to_string(p.kernel_index) + "/" + std::to_string(p.kernels) + "] " + shortName(p.kernel) + " " +
                       std::to_string(p.done) + "/" + std::to_string(p.total);
    if (p.row != nullptr) {
      line += " " + p.row->configText() + ": " + std::string(runStatusName(p.row->status));
      if (p.row->ok()) line += " " + fixed(p.row->time.median_us, 1) + " µs";
    }
    progress.step(line);
  }, &interrupted());
  progress.finish();
  result.meta.emplace_back("input", run->input);
  if (o.output.json) {
    nlohmann::json j = columnsToJson(kernelRunColumns(), result.rows, result.meta);
    const auto table = picksTable(result);
    nlohmann::json picks = nlohmann::json::array();
    for (std::size_t i = 1; i < table.size(); ++i) {
      nlohmann::json p = nlohmann::json::object();
      for (std::size_t c = 0; c < table[0].size() && c < table[i].size(); ++c) p[table[0][c]] = table[i][c];
      picks.push_back(std::move(p));
    }
    j["picks"] = std::move(picks);
    j["notes"] = result.notes;
    printJson(ctx.out, j);
  } else if (o.output.text()) {
    printRunsText(ctx.out, result);
  }
  int rc = kExitOk;
  if (!o.output.csv.empty()) rc = writeCsv(ctx, o.output.csv, kernelRunsToCsv(result));
  if (result.cancelled) {
    ctx.err << kRunCmd << ": cancelled: kept the finished rows\n";
    return kExitRuntime;
  }
  return rc;
#endif
}

void addInductorCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("inductor", "read what torch.compile left on disk: kernels, compiled configs, registers, "
                                             "spills, occupancy and every RBLOCK policy's decision (no Python, no GPU); run them on the GPU");
  cmd->require_subcommand(1);

  auto s = std::make_shared<InductorOpts>();
  auto* scan_cmd = cmd->add_subcommand("scan", "one row per (kernel, compiled config) of an Inductor cache, a "
                                                "torch_compile_debug folder or one kernel module");
  scan_cmd->add_option("DIR", s->input,
                       "an Inductor cache folder, a torch_compile_debug folder or one kernel module (default: "
                       "$TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>)");
  addInputOptions(*scan_cmd, *s);
  s->output.add(*scan_cmd, "print JSON: a kernel list, each with its configs", "also write one row per (kernel, config) to this CSV file");
  setAction(*scan_cmd, ctx, s, &runScan);

  auto w = std::make_shared<InductorOpts>();
  auto* show_cmd = cmd->add_subcommand("show", "one kernel with every policy's reasoning in words");
  show_cmd->add_option("KERNEL", w->kernel, "the kernel's name, its module hash, or part of its name")->required();
  show_cmd->add_option("DIR", w->input, "as for scan (default: $TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>)");
  addInputOptions(*show_cmd, *w);
  w->output.add(*show_cmd, "print JSON", "also write the kernel's configs to this CSV file");
  setAction(*show_cmd, ctx, w, &runShow);

  auto r = std::make_shared<InductorOpts>();
  auto* run_cmd = cmd->add_subcommand("run", "run every config Inductor compiled on the local GPU: outputs checked across configs, "
                                             "timed (L2 flushed, median), and each rule's pick with its regret");
  run_cmd->add_option("KERNEL|DIR", r->kernel,
                      "a kernel (its name, module hash or part of its name) in DIR, or a folder (a run, an Inductor cache) or one kernel "
                      "module: then every kernel with compiled configs")
      ->required();
  run_cmd->add_option("DIR", r->input, "with a KERNEL: the run to look in (default: $TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>)");
  addInputOptions(*run_cmd, *r);
  run_cmd->add_flag("--reductions", r->reductions_only, "only looped and persistent reductions (not pointwise kernels)");
  run_cmd->add_option("--device", r->device, "CUDA device ordinal");
  run_cmd->add_option("--seed", r->seed, "seed of the random inputs");
  run_cmd->add_flag("--no-metrics", r->no_metrics, "no CUPTI profiled pass (achieved occupancy) per config");
  run_cmd->add_option("--timed-ms", r->timed_ms, "kernel time to aim at per config, ms (1 … 10000)");
  run_cmd->add_flag("--no-l2-flush", r->no_flush, "do not flush L2 before each timed launch");
  r->output.add(*run_cmd, "print JSON rows", "also write one row per (kernel, config) to this CSV file (atomically; Ctrl-C keeps the finished rows)");
  setAction(*run_cmd, ctx, r, &runRun);
}

const CommandRegistrar kInductor{{"inductor", 30, &addInductorCommand}};

}  // namespace
}  // namespace occx::cli
