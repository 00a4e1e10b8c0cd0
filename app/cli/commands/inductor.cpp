// occx inductor: what torch.compile left on disk, read without Python or a GPU.
//   occx inductor scan [DIR] [--triton-cache DIR] [--json | --csv FILE]: one row per (kernel, config)
//   occx inductor show KERNEL [DIR]: one kernel with every policy's reasoning in words
//   occx inductor run KERNEL|DIR [DIR]: every compiled config run live on the GPU, each policy's pick
//   occx inductor sweep KERNEL [DIR] [--grid …] [--policies]: configs Inductor never tried, compiled
//     with the user's own Triton (no GPU needed), analysed, and with a GPU timed; with --all --trace,
//     the step's looped reductions swept whole and what the step would gain
//   occx inductor pin [DIR] --trace TRACE: the same, then each kernel's config that would hold and is
//     fastest as the step sees it written to its .best_config (a backup kept); --restore puts
//     Inductor's files back
//   occx inductor step TRACE [DIR]: where a step's GPU time goes, from a torch.profiler trace, each
//     Triton kernel joined to the run in DIR
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/interrupt.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/printer.h"
#include "app/cli/printers/progress_printer.h"
#include "core/base/atomic_file.h"
#include "core/base/format.h"
#include "core/step/model_sweep.h"
#include "core/step/pin.h"
#include "core/step/profiler_trace.h"
#include "core/step/step_profile.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_measurements.h"
#include "core/triton/kernel_sweep.h"
#include "core/triton/run_table.h"
#include "core/triton/sweep_cache.h"

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
  // sweep only
  std::vector<std::string> grid;
  bool policies = false;
  std::string python;
  std::string cache;
  int jobs = 0;
  bool no_run = false;
  bool all = false;         ///< sweep the step's looped reductions (--all)
  std::string budget;       ///< "5m", "300s", "300"
  int sweep_top = 0;        ///< at most this many kernels (0 = all)
  bool full = false;        ///< no screen pass
  std::string sweep_cache;  ///< the sweep cache folder; "none" = no cache
  // pin only
  bool pin = false;      ///< write the pins that hold after the model sweep
  bool dry_run = false;  ///< say what would be pinned, write nothing
  bool restore = false;  ///< put back Inductor's own .best_config files
  // step only
  std::string trace;
  int steps = 1;
  int top = 25;
};

void addInputOptions(CLI::App& cmd, InductorOpts& o) {
  cmd.add_option(
      "--triton-cache", o.triton_caches,
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
    progress.step(p.phase +
                  (p.total > 0 ? " [" + std::to_string(p.done) + "/" + std::to_string(p.total) + "]" : std::string()));
  });
  progress.finish();
  return run;
}

// --trace TRACE on scan, show and run: the step of a torch.profiler trace joined to the run, for the
// in-step columns.
struct StepJoin {
  std::vector<ScanRow> rows;  ///< scanRows(run): the rows the profile's config_row indices point into
  step::StepProfile profile;
  std::string input;
};

void addTraceOptions(CLI::App& cmd, InductorOpts& o) {
  cmd.add_option("--trace", o.trace,
                 "a torch.profiler trace of the step (export_chrome_trace or tensorboard_trace_handler; plain or .gz): "
                 "adds each kernel's in-step time (`occx inductor step` shows the whole step)");
  cmd.add_option("--steps", o.steps,
                 "steps in the trace when it has no ProfilerStep annotations (1 … 1000000; ignored when it has them)");
}

// Reads o.trace with o.steps, a progress line on standard error, and Ctrl-C stopping the read.
Expected<step::ProfilerTrace> readTrace(Context& ctx, const InductorOpts& o) {
  step::TraceReadOptions read;
  read.steps_when_unannotated = o.steps;
  ProgressPrinter progress(ctx.err, o.quiet || &ctx.err != &std::cerr);
  read.progress = [&](const step::TraceReadProgress& p) {
    progress.step("reading the trace [" + std::to_string(p.bytes_read >> 20) + "/" +
                  std::to_string(p.file_bytes >> 20) + " MB]");
  };
  const SigintScope sigint;
  read.cancel = &interrupted();
  auto trace = step::readProfilerTrace(o.trace, read);
  progress.finish();
  return trace;
}

Expected<std::optional<StepJoin>> joinTrace(Context& ctx, const InductorOpts& o, const InductorRun& run) {
  if (o.trace.empty()) return std::optional<StepJoin>();
  auto trace = readTrace(ctx, o);
  if (!trace) return Error(trace.error());
  for (const auto& problem : trace->problems) ctx.err << "warning: " << problem << "\n";
  std::optional<StepJoin> join(std::in_place);
  join->rows = scanRows(run);
  join->input = run.input;
  join->profile = step::profileStep(*trace, step::StepRun{&join->rows, join->input});
  return join;
}

// The step's kernel that is `kernel` of module `module`; nullptr when the step has none.
const step::StepKernel* inStepOf(const StepJoin& join, const std::string& kernel, const std::string& module) {
  for (const auto& k : join.profile.kernels) {
    if (k.match == step::RunMatch::kMatched && k.name == kernel && k.module == module) return &k;
  }
  return nullptr;
}

// Adds "trace" and, per kernel of a runToJson document, "in_step": its in-step figures (null when
// the step did not launch it).
void addInStepJson(nlohmann::json& doc, const StepJoin& join) {
  doc["trace"] = join.profile.trace_path;
  for (auto& k : doc["kernels"]) {
    const auto* s = inStepOf(join, k.value("name", ""), k.value("module", ""));
    k["in_step"] = s == nullptr ? nlohmann::json(nullptr)
                                : nlohmann::json{{"per_step_us", s->per_step_us},
                                                 {"median_us", s->median_us},
                                                 {"launches_per_step", s->launches_per_step},
                                                 {"share_pct", 100.0 * s->share}};
  }
}

// Adds in_step_per_step_us, in_step_median_us, in_step_launches_per_step and ran_in_step to a table
// whose rows `rowKey(i)` names by (kernel, module) and whose launcher row the join gives.
template <class RowIsLauncher>
void addInStepColumns(CsvTable& table, const StepJoin& join, RowIsLauncher&& is_launcher) {
  const int kernel_col = table.column("kernel");
  const int module_col = table.column("module");
  if (kernel_col < 0 || module_col < 0) return;
  table.header.insert(table.header.end(),
                      {"in_step_per_step_us", "in_step_median_us", "in_step_launches_per_step", "ran_in_step"});
  table.meta.emplace_back("trace", join.profile.trace_path);
  table.meta.emplace_back("in_step", "device time inside the traced step (torch.profiler, CUPTI)");
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    auto& row = table.rows[i];
    const auto* k =
        inStepOf(join, row[static_cast<std::size_t>(kernel_col)], row[static_cast<std::size_t>(module_col)]);
    row.push_back(k != nullptr ? fixed(k->per_step_us, 3) : "");
    row.push_back(k != nullptr ? fixed(k->median_us, 3) : "");
    row.push_back(k != nullptr ? fixed(k->launches_per_step, 2) : "");
    row.push_back(k != nullptr && is_launcher(i, *k) ? "yes" : "");
  }
}

std::string shortName(const std::string& name) {
  constexpr std::size_t kMax = 56;
  if (name.size() <= kMax) return name;
  return name.substr(0, 40) + "…" + name.substr(name.size() - 15);
}

// The text table: the columns a reader scans first; --csv and --json have them all.
void printScanText(std::ostream& out, const InductorRun& run, const StepJoin* step) {
  out << "Inductor run: " << run.input << "\n";
  out << "  " << run.files_read
      << " files read; Triton caches: " << (run.triton_caches.empty() ? std::string("none found") : std::string());
  for (std::size_t i = 0; i < run.triton_caches.size(); ++i) out << (i ? ", " : "") << run.triton_caches[i];
  out << "\n" << run.summary.text() << "\n";
  std::string device;
  TextRows rows;
  TextRows header = {{"kernel", "kind", "size hints", "XBLOCK", "R0_BLOCK", "warps", "regs", "spills", "occupancy",
                      "blocks/SM", "origin", "winner", "new", "old", "disagree"}};
  if (step != nullptr) {
    header[0].insert(header[0].begin() + 1, "µs/step");
    header[0].insert(header[0].begin() + 2, "ran");
  }
  const std::vector<ScanRow> all_rows = scanRows(run);
  auto flush = [&] {
    if (rows.empty()) return;
    out << "\ndevice " << device << "\n";
    TextRows all = header;
    all.insert(all.end(), rows.begin(), rows.end());
    printTable(out, all);
    rows.clear();
  };
  for (std::size_t index = 0; index < all_rows.size(); ++index) {
    const ScanRow& r = all_rows[index];
    if (r.device != device) {
      flush();
      device = r.device;
    }
    auto n = [](const std::optional<std::int64_t>& v) { return v ? std::to_string(*v) : std::string(); };
    rows.push_back(
        {shortName(r.kernel), r.kind, r.size_hints, n(r.xblock), n(r.r0_block), n(r.num_warps), n(r.n_regs),
         n(r.n_spills),
         r.occupancy_pct ? std::to_string(static_cast<int>(std::floor(*r.occupancy_pct + 0.5))) + " %" : std::string(),
         n(r.blocks_per_sm), r.r0_block ? r.origin : std::string(), r.winner ? "yes" : "", r.new_decision,
         r.old_decision, r.bounds_disagree ? "yes" : ""});
    if (step != nullptr) {
      const auto* s = inStepOf(*step, r.kernel, r.module);
      rows.back().insert(rows.back().begin() + 1, s != nullptr ? fixed(s->per_step_us, 1) : "");
      rows.back().insert(rows.back().begin() + 2, s != nullptr && s->config_row == static_cast<int>(index) ? "*" : "");
    }
  }
  flush();
  if (step != nullptr) {
    const std::string words = step::stepText(step->profile, step::StepRun{&step->rows, step->input});
    out << "\nµs/step: the kernel's in-step device time per step in " << step->profile.trace_path
        << "; ran: * on the config its launcher used. " << words.substr(0, words.find('\n')) << "\n";
  }
  const std::vector<std::string> problems = everyProblem(run);
  if (!problems.empty()) {
    out << "\n"
        << problems.size() << (problems.size() == 1 ? " problem" : " problems")
        << " reading the run (files that could not be read or matched):\n";
    for (std::size_t i = 0; i < problems.size() && i < 10; ++i) out << "  " << problems[i] << "\n";
    if (problems.size() > 10) out << "  … and " << problems.size() - 10 << " more (--json lists them all)\n";
  }
  out << "\nPer-config benchmark times are not on disk (Inductor logs them only at DEBUG level).\n";
}

int runScan(Context& ctx, const InductorOpts& o) {
  auto run = scan(ctx, o);
  if (!run) return fail(ctx, "occx inductor scan", run.error(), kExitRuntime);
  auto join = joinTrace(ctx, o, *run);
  if (!join) return fail(ctx, "occx inductor scan", join.error(), kExitRuntime);
  const StepJoin* step = join->has_value() ? &**join : nullptr;
  if (o.output.json) {
    nlohmann::json doc = runToJson(*run);
    if (step != nullptr) addInStepJson(doc, *step);
    printJson(ctx.out, doc);
  } else if (o.output.text()) {
    printScanText(ctx.out, *run, step);
  }
  if (!o.output.csv.empty()) {
    CsvTable table = scanToCsv(*run);
    if (step != nullptr) {
      addInStepColumns(table, *step,
                       [&](std::size_t i, const step::StepKernel& k) { return k.config_row == static_cast<int>(i); });
    }
    return writeCsv(ctx, o.output.csv, table);
  }
  return kExitOk;
}

int runShow(Context& ctx, const InductorOpts& o) {
  auto run = scan(ctx, o);
  if (!run) return fail(ctx, "occx inductor show", run.error(), kExitRuntime);
  const auto found = run->findKernels(o.kernel);
  if (found.empty()) {
    return fail(ctx, "occx inductor show",
                "no kernel named or containing '" + o.kernel + "' in " + run->input + " (" +
                    std::to_string(run->kernels.size()) + (run->kernels.size() == 1 ? " kernel" : " kernels") +
                    "; `occx inductor scan` lists them)");
  }
  InductorRun only;  // the run with the kernels asked for only (not a copy of every kernel)
  only.input = run->input;
  only.triton_caches = run->triton_caches;
  only.problems = run->problems;
  only.files_read = run->files_read;
  only.summary = run->summary;
  for (const RunKernel* k : found) only.kernels.push_back(*k);
  auto join = joinTrace(ctx, o, *run);
  if (!join) return fail(ctx, "occx inductor show", join.error(), kExitRuntime);
  const StepJoin* step = join->has_value() ? &**join : nullptr;
  if (o.output.json) {
    nlohmann::json doc = runToJson(only);
    if (step != nullptr) addInStepJson(doc, *step);
    printJson(ctx.out, doc);
  } else if (o.output.text()) {
    for (std::size_t i = 0; i < found.size(); ++i) {
      ctx.out << (i ? "\n" : "") << kernelReport(*found[i]);
      if (step == nullptr) continue;
      const auto* s = inStepOf(*step, found[i]->module.name, found[i]->module.module_hash);
      if (s == nullptr) {
        ctx.out << "  in the step:   not launched in " << step->profile.trace_path
                << " (or not told apart from a same-named kernel: `occx inductor step` says which)\n";
        continue;
      }
      ctx.out << "  in the step:   " << fixed(s->per_step_us, 1) << " µs per step (" << fixed(100.0 * s->share, 1)
              << " % of its GPU time), " << fixed(s->launches_per_step, 1) << " launches per step, median "
              << fixed(s->median_us, 1) << " µs per launch";
      if (const ScanRow* c = step::configRowOf(*s, step::StepRun{&step->rows, step->input})) {
        ctx.out << "; ran " << step::shortConfigLabel(*c, found[i]->analysed());
      }
      ctx.out << " (" << step->profile.trace_path << ")\n";
    }
    // The run's own problems (files skipped or unmatched) may be why a kernel lacks a config or its winner.
    if (!run->problems.empty()) {
      ctx.out << "\n"
              << run->problems.size() << (run->problems.size() == 1 ? " problem" : " problems")
              << " reading the run (files that could not be read or matched):\n";
      for (const auto& p : run->problems) ctx.out << "  " << p << "\n";
    }
  }
  if (!o.output.csv.empty()) {
    CsvTable table = scanToCsv(only);
    if (step != nullptr) {
      const std::vector<ScanRow> only_rows = scanRows(only);
      addInStepColumns(table, *step, [&](std::size_t i, const step::StepKernel& k) {
        const ScanRow* c = step::configRowOf(k, step::StepRun{&step->rows, step->input});
        return c != nullptr && i < only_rows.size() && c->module == only_rows[i].module &&
               c->triton_cache_hash == only_rows[i].triton_cache_hash;
      });
    }
    return writeCsv(ctx, o.output.csv, table);
  }
  return kExitOk;
}

// `occx inductor run` and `sweep`: KERNEL|DIR [DIR] — a path is the run (every kernel, `key`
// empty), else a kernel's name in DIR.
Expected<InductorRun> scanForKernel(Context& ctx, const InductorOpts& o, std::string& key) {
  InductorOpts scan_opts = o;
  std::error_code ec;
  if (std::filesystem::exists(o.kernel, ec)) {
    if (!o.input.empty())
      return Error{"give a kernel and a folder, or a folder alone: '" + o.input + "' is one too many"};
    scan_opts.input = o.kernel;
  } else {
    key = o.kernel;
  }
  return scan(ctx, scan_opts);
}

std::string noKernelText(const InductorRun& run, const std::string& key) {
  return "no kernel named or containing '" + key + "' in " + run.input + " (`occx inductor scan` lists them)";
}

// `occx inductor run`: the configs Inductor compiled, run on the local GPU.
[[maybe_unused]] void printRunsText(std::ostream& out, const KernelMeasurements& r) {
  TextRows rows = {{"kernel", "config", "origin", "regs", "spills", "occupancy", "status", "cold µs", "warm µs",
                    "spread %", "DRAM GB/s", "achieved occ.", "policies with it", "reason"}};
  for (const auto& row : r.rows) {
    const std::string policies_with_it = row.in_set.keys();
    rows.push_back({shortName(row.kernel), row.configText() + (row.winner ? " *" : ""), row.origin,
                    row.n_regs >= 0 ? std::to_string(row.n_regs) : "",
                    row.n_spills >= 0 ? std::to_string(row.n_spills) : "",
                    row.occupancy_pct >= 0 ? fixed(row.occupancy_pct, 1) + " %" : "",
                    std::string(runStatusName(row.measured.status)), row.ok() ? fixed(row.measured.timeUs(), 1) : "",
                    row.ok() && row.measured.warmTimeUs() ? fixed(*row.measured.warmTimeUs(), 1) : "",
                    row.ok() ? fixed(row.measured.timeStats().spread_pct, 1) : "", bandwidthCell(row.measured),
                    row.ok() && row.measured.achieved_occupancy_pct.value
                        ? fixed(*row.measured.achieved_occupancy_pct.value, 1) + " %"
                        : "",
                    policies_with_it, row.measured.reason.substr(0, 90)});
  }
  printTable(out, rows);
  out << "\n* = Inductor's winner (.best_config). " << figureLegend("µs")
      << " Each policy's pick: the fastest config of its set (Inductor's candidates plus the halved configs the "
         "policy adds), spill filter applied; regret = pick time / best time.\n\n";
  printTable(out, picksTable(r));
  for (const auto& n : r.notes) out << "note: " << n << "\n";
}

// Whether a measured row is the config of a scan row (kernel, module and launch config).
[[maybe_unused]] bool sameConfig(const MeasuredConfig& m, const ScanRow& r) {
  auto eq = [](const std::optional<std::int64_t>& v, int x) { return v.value_or(0) == x; };
  return m.kernel == r.kernel && m.module == r.module && eq(r.xblock, m.xblock) && eq(r.r0_block, m.r0_block) &&
         eq(r.r1_block, m.r1_block) && eq(r.num_warps, m.num_warps) && eq(r.num_stages, m.num_stages);
}

// Per kernel of the step: the config its launcher used, timed here cold and warm, against its in-step time.
[[maybe_unused]] void printInStepComparison(std::ostream& out, const KernelMeasurements& result, const StepJoin& join) {
  TextRows rows = {{"kernel", "ran in the step", "in-step µs", "cold µs", "warm µs", "events µs", "DRAM GB/s",
                    "in-step against cold and warm"}};
  int agree = 0;
  for (const auto& k : join.profile.kernels) {
    if (k.match != step::RunMatch::kMatched) continue;
    const ScanRow* c = step::configRowOf(k, step::StepRun{&join.rows, join.input});
    if (c == nullptr) continue;
    for (const auto& m : result.rows) {
      if (!sameConfig(m, *c) || !m.ok()) continue;
      const Measurement& x = m.measured;
      const auto warm = x.warmTimeUs();
      const StepAgreement a = stepAgreement(x, k.median_us);
      if (a.agrees) ++agree;
      rows.push_back({shortName(k.name), m.configText(), fixed(k.median_us, 1), fixed(x.timeUs(), 1),
                      warm ? fixed(*warm, 1) : "", fixed(x.time.median_us, 1), bandwidthCell(x), a.text});
    }
  }
  if (rows.size() == 1) {
    out << "\nNo measured config is one that ran in the step (" << join.profile.trace_path << ").\n";
    return;
  }
  out << "\nThe configs that ran in the step (" << join.profile.trace_path
      << "), measured here against their in-step time (torch.profiler). cold and warm: device time per launch "
         "(CUPTI), L2 flushed before each launch / the inputs just written; events: CUDA events around one "
         "cold launch:\n";
  printTable(out, rows);
  out << agree << " of " << rows.size() - 1
      << " kernels: the in-step time lies between warm and cold, or within 10 % of one of them.\n";
}

// A progress line of `occx inductor run`: the kernel, the configs done, the last one's outcome.
std::string measureProgressLine(const MeasureProgress& p) {
  std::string line = "[" + std::to_string(p.kernel_index) + "/" + std::to_string(p.kernels) + "] " +
                     shortName(p.kernel) + " " + std::to_string(p.done) + "/" + std::to_string(p.total);
  if (p.row != nullptr) {
    line += " " + p.row->configText() + ": " + std::string(runStatusName(p.row->measured.status));
    if (p.row->ok()) line += " " + fixed(p.row->measured.timeUs(), 1) + " µs";
  }
  return line;
}

// `occx inductor run --json`: the measured rows, each policy's pick (the picks table as objects)
// and the notes.
nlohmann::json runsToJson(const KernelMeasurements& result) {
  nlohmann::json j = columnsToJson(measuredConfigColumns(), result.rows, result.meta);
  const auto table = picksTable(result);
  nlohmann::json picks = nlohmann::json::array();
  for (std::size_t i = 1; i < table.size(); ++i) {
    nlohmann::json p = nlohmann::json::object();
    for (std::size_t c = 0; c < table[0].size() && c < table[i].size(); ++c) p[table[0][c]] = table[i][c];
    picks.push_back(std::move(p));
  }
  j["picks"] = std::move(picks);
  j["notes"] = result.notes;
  return j;
}

int runRun(Context& ctx, const InductorOpts& o) {
  constexpr const char* kRunCmd = "occx inductor run";
  if (!(o.timed_ms >= 1.0 && o.timed_ms <= 10000.0))
    return fail(ctx, kRunCmd, "--timed-ms " + fixed(o.timed_ms, 1) + " is out of range: allowed 1 … 10000");
  std::string key;
  auto run = scanForKernel(ctx, o, key);
  if (!run) return fail(ctx, kRunCmd, run.error(), kExitRuntime);
  auto join = joinTrace(ctx, o, *run);
  if (!join) return fail(ctx, kRunCmd, join.error(), kExitRuntime);
  [[maybe_unused]] const StepJoin* step = join->has_value() ? &**join : nullptr;
  std::vector<const RunKernel*> kernels;
  if (key.empty()) {
    for (const auto& k : run->kernels) {
      if (o.reductions_only && !k.analysed()) continue;
      if (!k.configs.empty()) kernels.push_back(&k);
    }
  } else {
    kernels = run->findKernels(key);
    if (kernels.empty()) return fail(ctx, kRunCmd, noKernelText(*run, key));
  }
  if (kernels.empty()) return fail(ctx, kRunCmd, "no kernel with compiled configs in " + run->input, kExitRuntime);
  OpenedGpu gpu = openGpu(ctx, kRunCmd, o.device);
  if (!gpu.no_gpu.empty()) return fail(ctx, kRunCmd, gpu.no_gpu, kExitRuntime);
  if (!gpu.runner) return gpu.exit_code;
  MeasureOptions options;
  options.seed = o.seed;
  options.run.cupti_metrics = !o.no_metrics;
  options.run.timed_ms = o.timed_ms;
  options.run.flush_l2 = !o.no_flush;
  std::size_t configs = 0;
  for (const auto* k : kernels) configs += k->configs.size();
  ctx.err << kRunCmd << ": " << kernels.size() << (kernels.size() == 1 ? " kernel, " : " kernels, ") << configs
          << " compiled configs on " << gpu.runner->device().name << "\n";
  SigintScope sigint;
  ProgressPrinter progress(ctx.err, o.quiet || &ctx.err != &std::cerr);
  auto result = measureKernelConfigs(
      *gpu.runner, kernels, options, [&](const MeasureProgress& p) { progress.step(measureProgressLine(p)); },
      &interrupted());
  progress.finish();
  result.meta.emplace_back("input", run->input);
  if (o.output.json) {
    if (step != nullptr) {
      ctx.err << kRunCmd << ": --trace: the in-step columns are in the text and the --csv file, not in --json\n";
    }
    printJson(ctx.out, runsToJson(result));
  } else if (o.output.text()) {
    printRunsText(ctx.out, result);
    if (step != nullptr) printInStepComparison(ctx.out, result, *step);
  }
  int rc = kExitOk;
  if (!o.output.csv.empty()) {
    CsvTable table = measurementsToCsv(result);
    if (step != nullptr) {
      addInStepColumns(table, *step, [&](std::size_t i, const step::StepKernel& k) {
        const ScanRow* c = step::configRowOf(k, step::StepRun{&step->rows, step->input});
        return c != nullptr && i < result.rows.size() && sameConfig(result.rows[i], *c);
      });
    }
    rc = writeCsv(ctx, o.output.csv, table);
  }
  if (result.cancelled) {
    ctx.err << kRunCmd << ": cancelled: kept the finished rows\n";
    return kExitRuntime;
  }
  return rc;
}

// `occx inductor sweep`: configs Inductor never tried, compiled with the user's Triton.
void printSweepText(std::ostream& out, const KernelSweepResult& r) {
  TextRows rows = {{"config", "origin", "swept for", "compile s", "regs", "spills", "occupancy", "new", "old",
                    "spills rule", "status", "cold µs", "warm µs", "DRAM GB/s", "achieved occ.", "policies with it",
                    "reason"}};
  const auto& policies = inductor::kPolicies;
  auto decisionOf = [&](const MeasuredConfig& row, inductor::Policy p) {
    for (std::size_t i = 0; i < policies.size() && i < row.decisions.size(); ++i) {
      if (policies[i] == p) return row.decisions[i];
    }
    return std::string();
  };
  for (const auto& row : r.runs.rows) {
    const std::string policies_with_it = row.in_set.keys();
    rows.push_back(
        {row.configText() + (row.winner ? " *" : ""), row.origin, row.swept_for,
         row.compile_s >= 0 ? fixed(row.compile_s, 1) : "", row.n_regs >= 0 ? std::to_string(row.n_regs) : "",
         row.n_spills >= 0 ? std::to_string(row.n_spills) : "",
         row.occupancy_pct >= 0 ? fixed(row.occupancy_pct, 1) + " %" : "", decisionOf(row, inductor::Policy::kNew),
         decisionOf(row, inductor::Policy::kOld), decisionOf(row, inductor::Policy::kSpills),
         std::string(runStatusName(row.measured.status)), row.ok() ? fixed(row.measured.timeUs(), 1) : "",
         row.ok() && row.measured.warmTimeUs() ? fixed(*row.measured.warmTimeUs(), 1) : "", bandwidthCell(row.measured),
         row.ok() && row.measured.achieved_occupancy_pct.value
             ? fixed(*row.measured.achieved_occupancy_pct.value, 1) + " %"
             : "",
         policies_with_it, row.ok() ? std::string() : row.measured.reason.substr(0, 90)});
  }
  printTable(out, rows);
  out << "\n* = Inductor's winner (.best_config). new/old/spills rule: each policy's decision for the config as a "
         "candidate. "
      << figureLegend("µs")
      << " Each policy's pick: the fastest config of its set (Inductor's candidates plus the halved configs the "
         "policy adds), spill filter applied.\n";
  if (r.measured) {
    out << "\n";
    printTable(out, picksTable(r.runs));
  }
  out << "\n";
  for (const auto& line : r.explanation) out << line << "\n";
  for (const auto& n : r.runs.notes) out << "note: " << n << "\n";
}

// The one kernel `occx inductor sweep` sweeps: the one named by `key`, else the one looped or
// persistent reduction of the run. Error: none, or several (the first eight named).
Expected<const RunKernel*> kernelToSweep(const InductorRun& run, const std::string& key) {
  std::vector<const RunKernel*> found;
  if (key.empty()) {
    for (const auto& k : run.kernels) {
      if (k.analysed()) found.push_back(&k);
    }
  } else {
    found = run.findKernels(key);
    if (found.empty()) return Error{noKernelText(run, key)};
  }
  if (found.size() != 1) {
    std::string names;
    for (std::size_t i = 0; i < found.size() && i < 8; ++i)
      names += (i ? ", " : "") + found[i]->module.name + " (" + found[i]->module.module_hash + ")";
    return Error{found.empty()
                     ? "no looped or persistent reduction in " + run.input
                     : std::to_string(found.size()) + " kernels match; name one (its name or module hash): " + names};
  }
  return found.front();
}

// How a sweep compiles and runs, from the command line (one kernel's sweep and the step's).
void setCompileAndRun(const InductorOpts& o, KernelSweepOptions& options) {
  options.compile.python = o.python;
  options.compile.cache_dir = o.cache;
  options.compile.jobs = o.jobs;
  options.run.seed = o.seed;
  options.run.run.cupti_metrics = !o.no_metrics;
  options.run.run.timed_ms = o.timed_ms;
  options.run.run.flush_l2 = !o.no_flush;
}

// The sweep's options from the command line: the grid given (else the default grid, unless only
// --policies), the policies' configs unless only a grid is given, how to compile and to run.
Expected<KernelSweepOptions> sweepOptionsOf(const InductorOpts& o, const RunKernel& kernel) {
  KernelSweepOptions options;
  const bool grid_given = !o.grid.empty();
  options.policies = o.policies || !grid_given;
  if (grid_given) {
    auto g = parseConfigGrid(o.grid, kernel);
    if (!g) return Error{g.error()};
    options.grid = *g;
  } else if (!o.policies) {
    if (!kernel.analysed())
      return Error{kernel.module.name + " is not a reduction: sweeps are for looped and persistent reductions"};
    options.grid = defaultConfigGrid(kernel);
  }
  setCompileAndRun(o, options);
  return options;
}

// What the sweep will compile: the kernel, the configs to compile and those Inductor compiled, the
// grid, and the configs left out and why.
void printSweepPlan(std::ostream& err, const char* cmd, const RunKernel& kernel, const SweepPlan& plan) {
  err << cmd << ": " << kernel.module.name << " (" << kernel.module.sizeHintsText() << "): " << plan.configs.size()
      << " configs to compile, " << plan.compiled.size() << " compiled by Inductor"
      << (plan.grid.empty() ? "" : "; grid " + plan.grid) << "\n";
  for (const auto& l : plan.left_out) err << "  left out: " << l << "\n";
}

// One line on the compile: configs compiled, with which Python, PyTorch and Triton, how long (in
// all, per config) and into which folder.
void printCompileSummary(std::ostream& err, const char* cmd, const TritonCompileReport& c) {
  int ok = 0;
  std::vector<double> secs;
  for (const auto& r : c.configs) {
    if (r.ok) {
      ++ok;
      secs.push_back(r.seconds);
    }
  }
  std::sort(secs.begin(), secs.end());
  err << cmd << ": compiled " << ok << " of " << c.configs.size() << " configs with " << c.python << " (Python "
      << c.python_version << ", PyTorch " << c.torch_version << ", Triton " << c.triton_version << ", target "
      << c.target << ") in " << fixed(c.seconds, 1) << " s, " << c.jobs << (c.jobs == 1 ? " process" : " processes");
  if (!secs.empty()) {
    err << "; per config median " << fixed(secs[secs.size() / 2], 2) << " s, max " << fixed(secs.back(), 2) << " s";
  }
  err << "; into " << c.cache_dir << "\n";
}

int runInductorSweep(Context& ctx, const InductorOpts& o) {
  constexpr const char* kCmd = "occx inductor sweep";
  if (!(o.timed_ms >= 1.0 && o.timed_ms <= 10000.0))
    return fail(ctx, kCmd, "--timed-ms " + fixed(o.timed_ms, 1) + " is out of range: allowed 1 … 10000");
  if (o.jobs < 0 || o.jobs > 64)
    return fail(ctx, kCmd, outOfRange("--jobs", o.jobs, "0 (as many as cores, at most 8) … 64"));
  std::string key;
  auto run = scanForKernel(ctx, o, key);
  if (!run) return fail(ctx, kCmd, run.error(), kExitRuntime);
  auto found = kernelToSweep(*run, key);
  if (!found) return fail(ctx, kCmd, found.error());
  const RunKernel& kernel = **found;
  auto text = readFile(kernel.module.path);
  if (!text) {
    return fail(ctx, kCmd,
                kernel.module.name + ": its kernel module " + kernel.module.path + " cannot be read (" + text.error() +
                    "); a sweep compiles the module file",
                kExitRuntime);
  }
  auto swept = sweepOptionsOf(o, kernel);
  if (!swept) return fail(ctx, kCmd, swept.error());
  const KernelSweepOptions& options = *swept;
  auto plan = planSweep(kernel, options.grid, options.policies);
  if (!plan) return fail(ctx, kCmd, plan.error());
  printSweepPlan(ctx.err, kCmd, kernel, *plan);

  std::unique_ptr<GpuRunner> runner;
  std::string no_run_reason = o.no_run ? "--no-run" : "";
  if (!o.no_run) {
    OpenedGpu gpu = openGpu(ctx, kCmd, o.device);
    if (!gpu.runner && gpu.no_gpu.empty()) return gpu.exit_code;
    no_run_reason = gpu.no_gpu;
    runner = std::move(gpu.runner);
  }
  SigintScope sigint;
  ProgressPrinter progress(ctx.err, o.quiet || &ctx.err != &std::cerr);
  auto result = sweepKernel(
      kernel, *text, options, runner.get(),
      [&](const KernelSweepProgress& p) {
        progress.step(p.phase + " [" + std::to_string(p.done) + "/" + std::to_string(p.total) + "] " + p.text);
      },
      &interrupted());
  progress.finish();
  if (!result) {
    if (result.cancelled()) {
      ctx.err << kCmd << ": cancelled\n";
      return kExitRuntime;
    }
    return fail(ctx, kCmd, result.error(), kExitRuntime);
  }
  if (!result->measured && !no_run_reason.empty()) {
    result->not_measured = no_run_reason;
    for (auto& r : result->runs.rows) {
      if (r.measured.status == RunStatus::kSkipped) r.measured.reason = "not run: " + no_run_reason;
    }
  }
  const auto& c = result->compile;
  if (!c.python.empty()) printCompileSummary(ctx.err, kCmd, c);
  if (!result->measured) ctx.err << kCmd << ": not timed: " << result->not_measured << "\n";
  result->runs.meta.emplace_back("input", run->input);
  result->runs.meta.emplace_back("kernel", kernel.module.name);
  if (o.output.json) {
    nlohmann::json j = columnsToJson(measuredConfigColumns(), result->runs.rows, result->runs.meta);
    j["explanation"] = result->explanation;
    j["left_out"] = result->plan.left_out;
    printJson(ctx.out, j);
  } else if (o.output.text()) {
    printSweepText(ctx.out, *result);
  }
  int rc = kExitOk;
  if (!o.output.csv.empty()) rc = writeCsv(ctx, o.output.csv, measurementsToCsv(result->runs));
  if (result->runs.cancelled || c.cancelled) {
    ctx.err << kCmd << ": cancelled: kept the finished rows\n";
    return kExitRuntime;
  }
  return rc;
}

// `occx inductor sweep --all`: the step's looped reductions, swept in order of in-step time.
// --budget "5m", "300s" or "300" in seconds; an error names the value and the form.
Expected<double> parseBudget(const std::string& text) {
  if (text.empty()) return 0.0;
  double scale = 1.0;
  std::string number = text;
  if (number.back() == 'm' || number.back() == 's') {
    scale = number.back() == 'm' ? 60.0 : 1.0;
    number.pop_back();
  }
  double v = 0.0;
  if (readNumber(number, v, -1.0).empty() && v > 0 && v * scale <= 7.0 * 24 * 3600) return v * scale;
  return Error{"--budget '" + text + "' is not a time: allowed e.g. 5m, 300s or 300 (seconds), up to 7 days"};
}

void printModelSweepTable(std::ostream& out, const step::ModelSweepResult& r) {
  const bool coordesc = r.gain.hasCoordesc();
  TextRows rows = {{"#", "kernel", "µs/step", "share", "ran", "ran µs", "best", "best µs", "gain µs/step", "new pick",
                    "old pick", "configs", "screened out", "from cache", "s"}};
  if (coordesc) rows.front().insert(rows.front().begin() + 10, "coordesc");
  for (std::size_t i = 0; i < r.kernels.size(); ++i) {
    const auto& k = r.kernels[i];
    const step::KernelGain& g = r.gain.kernels[i];
    const auto* res = k.result ? &*k.result : nullptr;
    std::vector<std::string> row = {
        std::to_string(i + 1),
        shortName(g.kernel),
        fixed(g.per_step_us, 1),
        fixed(100.0 * k.target.share, 1) + " %",
        g.ran_config,
        g.ran_us > 0 ? fixed(g.ran_us, 1) : "",
        g.best_config,
        g.best_us > 0 ? fixed(g.best_us, 1) : "",
        g.ran_us > 0
            ? fixed(g.gain_us, 1) + (g.gain_us > 0 && g.gain_config != g.best_config ? " (" + g.gain_config + ")" : "")
            : (k.error.empty() ? "unknown" : "failed: " + k.error.substr(0, 60)),
        g.policy_config[inductor::policyIndex(inductor::Policy::kNew)],
        g.policy_config[inductor::policyIndex(inductor::Policy::kOld)],
        res != nullptr ? std::to_string(res->runs.rows.size()) : "",
        res != nullptr ? std::to_string(res->screened_out) : "",
        res != nullptr ? std::to_string(res->from_cache) : "",
        fixed(k.seconds, 0)};
    if (coordesc) {
      row.insert(row.begin() + 10, g.coordesc_config.empty()
                                       ? ""
                                       : g.coordesc_config + " (" + fixed(g.coordesc_us / g.best_us, 2) + "×)");
    }
    rows.push_back(std::move(row));
  }
  printTable(out, rows);
}

void printModelSweepText(std::ostream& out, const step::ModelSweepResult& r) {
  printModelSweepTable(out, r);
  out << "\n";
  for (const auto& line : step::modelSweepNotes(r)) out << line << "\n";
}

// The pins of a model sweep: per kernel the config to pin (the fastest that would hold, as the step sees
// it) and the best's verdict as a pin, then each kernel's reason in words.
void printPinsText(std::ostream& out, const std::vector<step::KernelPin>& pins) {
  TextRows rows = {{"#", "kernel", "ran", "best", "best as a pin", "pin", "pin µs", "µs/step now", "µs/step pinned"}};
  int holding = 0;
  for (std::size_t i = 0; i < pins.size(); ++i) {
    const step::KernelPin& p = pins[i];
    holding += p.pin ? 1 : 0;
    rows.push_back({std::to_string(i + 1), shortName(p.kernel), p.ran_config, p.best_config,
                    p.best_config.empty() ? "" : std::string(step::pinHoldName(p.best_check.hold)),
                    p.pin ? p.pinConfig() : "none", p.pin ? fixed(p.pin_us, 1) : "", fixed(p.per_step_us, 1),
                    p.pin ? fixed(p.predicted_per_step_us, 1) : ""});
  }
  out << "\nPins: a kernel's .best_config rewritten to name a config, so the next compile runs it. A pin holds when "
         "Inductor uses the file (coordinate descent on, or the config is a candidate) and its RBLOCK scaling adds no "
         "halved copy to time against it. pin µs: the pin's cold device time per launch in the sweep; µs/step "
         "pinned: µs/step now × the pin's time / ran's, each as the step sees it (cold and warm weighed by where the "
         "config that ran lies between them inside the step; its words say how).\n";
  printTable(out, rows);
  for (std::size_t i = 0; i < pins.size(); ++i) out << (i + 1) << ". " << pins[i].words << "\n";
  out << holding << " of " << pins.size() << " kernels have a pin that holds and is faster than the config that ran.\n";
}

nlohmann::json pinsToJson(const std::vector<step::KernelPin>& pins) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& p : pins) {
    a.push_back({{"kernel", p.kernel},
                 {"module", p.module},
                 {"file", p.file},
                 {"per_step_us", p.per_step_us},
                 {"ran_config", p.ran_config},
                 {"ran_us", p.ran_us},
                 {"best_config", p.best_config},
                 {"best_us", p.best_us},
                 {"best_as_pin", p.best_config.empty() ? std::string_view() : step::pinHoldName(p.best_check.hold)},
                 {"best_as_pin_reason", p.best_check.reason},
                 {"pin_config", p.pinConfig()},
                 {"pin_us", p.pin_us},
                 {"in_step_cold_share", p.mix.cold_share},
                 {"ran_warm_us", p.mix.ran_warm_us},
                 {"ran_in_step_us_per_launch", p.mix.ran_step_us},
                 {"pin_in_step_us_per_launch", p.pin_step_us},
                 {"spread_pct", p.spread_pct},
                 {"predicted_per_step_us", p.predicted_per_step_us},
                 {"words", p.words}});
  }
  return a;
}

// Writes the pins that hold (none with --dry-run); a file that cannot be written is an error line and
// the rest are still written. Returns the exit code.
int writePins(Context& ctx, const InductorOpts& o, const std::vector<step::KernelPin>& pins) {
  constexpr const char* kCmd = "occx inductor pin";
  int rc = kExitOk;
  int written = 0;
  for (const auto& p : pins) {
    if (!p.pin) continue;
    if (o.dry_run) {
      ctx.err << kCmd << ": would pin " << p.pinConfig() << " in " << p.file << "\n";
      continue;
    }
    auto w = step::writePin(p);
    if (!w) {
      ctx.err << kCmd << ": " << w.error() << "\n";
      rc = kExitRuntime;
      continue;
    }
    ++written;
    ctx.err << kCmd << ": pinned " << p.pinConfig() << " in " << w->file
            << (w->backup_made ? " (Inductor's file kept as " + w->backup + ")" : " (the earlier backup is kept)")
            << "\n";
  }
  if (!o.dry_run && written > 0) {
    ctx.err << kCmd << ": " << written << (written == 1 ? " pin" : " pins")
            << " written. The next compile of the step, with the settings of this run and once with "
               "TORCHINDUCTOR_FX_GRAPH_CACHE=0 TORCHINDUCTOR_AUTOGRAD_CACHE=0 (a cached graph keeps the configs it was "
               "compiled with), runs them; occx inductor pin --restore DIR puts Inductor's files back\n";
  } else if (!o.dry_run) {
    ctx.err << kCmd << ": no pin written (no kernel has a config that would hold and beats the one that ran)\n";
  }
  return rc;
}

// The rows of every swept kernel, one kernel-runs table (the meta of the first kernel that ran).
KernelMeasurements allModelRows(const step::ModelSweepResult& r) {
  KernelMeasurements all;
  for (const auto& k : r.kernels) {
    if (!k.result) continue;
    if (all.meta.empty()) all.meta = k.result->runs.meta;
    all.rows.insert(all.rows.end(), k.result->runs.rows.begin(), k.result->runs.rows.end());
    all.notes.insert(all.notes.end(), k.result->runs.notes.begin(), k.result->runs.notes.end());
  }
  all.picks = summarizeMeasurements(all.rows);
  return all;
}

// The model sweep's options from the command line: the per-kernel sweep's (default grid, the
// policies), the screen pass unless --full, the cache unless 'none', the budget.
Expected<step::ModelSweepOptions> modelSweepOptionsOf(const InductorOpts& o, std::unique_ptr<SweepCache>& cache) {
  step::ModelSweepOptions options;
  auto budget = parseBudget(o.budget);
  if (!budget) return Error{budget.error()};
  options.budget_s = *budget;
  options.sweep.policies = true;  // each kernel's grid is its default one (sweepModel sets it)
  setCompileAndRun(o, options.sweep);
  if (!o.full) options.sweep.screen = ScreenPass{briefScreenOptions(options.sweep.run.run), 8.0};
  const std::string dir = o.sweep_cache.empty() ? SweepCache::defaultDir() : o.sweep_cache;
  if (o.sweep_cache != "none" && !dir.empty()) {
    cache = std::make_unique<SweepCache>(dir);
    options.sweep.cache = cache.get();
  }
  return options;
}

int runInductorModelSweep(Context& ctx, const InductorOpts& o) {
  const char* kCmd = o.pin ? "occx inductor pin" : "occx inductor sweep --all";
  if (o.trace.empty()) return fail(ctx, kCmd, "needs --trace TRACE: the step's kernels are ranked by their time in it");
  if (o.sweep_top < 0 || o.sweep_top > 10000)
    return fail(ctx, kCmd, outOfRange("--top", o.sweep_top, "0 (all) … 10000"));
  std::unique_ptr<SweepCache> cache;
  auto options = modelSweepOptionsOf(o, cache);
  if (!options) return fail(ctx, kCmd, options.error());
  InductorOpts scan_opts = o;
  if (scan_opts.input.empty()) scan_opts.input = o.kernel;
  auto run = scan(ctx, scan_opts);
  if (!run) return fail(ctx, kCmd, run.error(), kExitRuntime);
  auto join = joinTrace(ctx, o, *run);
  if (!join) return fail(ctx, kCmd, join.error(), kExitRuntime);
  const step::ModelSweepPlan plan = step::planModelSweep((*join)->profile, *run, (*join)->rows, o.sweep_top);
  ctx.err << kCmd << ": " << plan.targets.size() << " looped reductions to sweep, " << fixed(plan.looped_per_step_us, 1)
          << " µs/step of a " << fixed(plan.step_us / 1000.0, 2) << " ms step; " << plan.left_out.size()
          << " left out\n";
  std::unique_ptr<GpuRunner> runner;
  if (!o.no_run) {
    OpenedGpu gpu = openGpu(ctx, kCmd, o.device);
    if (!gpu.runner && gpu.no_gpu.empty()) return gpu.exit_code;
    if (!gpu.no_gpu.empty()) ctx.err << kCmd << ": not timed: " << gpu.no_gpu << "\n";
    runner = std::move(gpu.runner);
  }
  SigintScope sigint;
  ProgressPrinter progress(ctx.err, o.quiet || &ctx.err != &std::cerr);
  const step::ModelSweepResult result = step::sweepModel(
      plan, *options, runner.get(),
      [&](const step::ModelSweepProgress& p) {
        progress.step("kernel " + std::to_string(p.kernel_index) + "/" + std::to_string(p.kernels) + " " +
                      shortName(p.kernel) + " · " + p.inner.phase + " [" + std::to_string(p.inner.done) + "/" +
                      std::to_string(p.inner.total) + "] · " + fixed(p.elapsed_s, 0) + " s");
      },
      &interrupted());
  progress.finish();
  const KernelMeasurements all = allModelRows(result);
  const std::vector<step::KernelPin> pins = step::planPins(result);
  if (o.output.json) {
    nlohmann::json j = columnsToJson(measuredConfigColumns(), all.rows, all.meta);
    j["gain"] = result.gain.text;
    j["left_out"] = result.plan.left_out;
    j["not_swept"] = result.not_swept;
    j["pins"] = pinsToJson(pins);
    printJson(ctx.out, j);
  } else if (o.output.text()) {
    printModelSweepText(ctx.out, result);
    printPinsText(ctx.out, pins);
    if (!o.pin)
      ctx.out << "occx inductor pin (same arguments) writes the pins that hold, with a backup of each file.\n";
  }
  int rc = kExitOk;
  if (!o.output.csv.empty()) rc = writeCsv(ctx, o.output.csv, measurementsToCsv(all));
  if (result.cancelled) {
    ctx.err << kCmd << ": cancelled: kept the finished kernels" << (o.pin ? ", pinned nothing" : "") << "\n";
    return kExitRuntime;
  }
  if (o.pin) {
    const int pin_rc = writePins(ctx, o, pins);
    if (rc == kExitOk) rc = pin_rc;
  }
  return rc;
}

// `occx inductor pin --restore [DIR]`: Inductor's own .best_config files back from their backups.
int runRestorePins(Context& ctx, const InductorOpts& o) {
  constexpr const char* kCmd = "occx inductor pin --restore";
  if (o.dry_run) {
    return fail(ctx, kCmd, "--dry-run is for writing pins; --restore puts the backups back (run it without --dry-run)");
  }
  const std::string dir = o.input.empty() ? defaultInductorCacheDir() : o.input;
  auto restored = step::restorePins(dir);
  if (!restored) return fail(ctx, kCmd, restored.error(), kExitRuntime);
  if (o.output.json) {
    printJson(ctx.out, nlohmann::json{{"folder", dir}, {"restored", *restored}});
    return kExitOk;
  }
  for (const auto& f : *restored) ctx.out << "restored " << f << "\n";
  ctx.out << restored->size() << " .best_config files restored under " << dir << "\n";
  return kExitOk;
}

// `occx inductor step`: the step of a torch.profiler trace, joined to the run.
void printStepText(std::ostream& out, const step::StepProfile& p, const step::StepRun& run, int top) {
  using step::StepKernel;
  out << "Profiler trace: " << p.trace_path << (p.device_name.empty() ? "" : " (" + p.device_name + ")") << "\n";
  if (run.rows != nullptr) out << "Inductor run: " << run.input << "\n";
  out << "\n" << step::stepText(p, run) << "\n";
  TextRows rows = {{"#", "kernel", "kind", "launches/step", "median µs", "µs/step", "share", "cumulative", "config",
                    "old", "new", "run"}};
  double cumulative = 0.0;
  int rank = 0;
  for (const StepKernel& k : p.kernels) {
    cumulative += k.share;
    if (++rank > top) continue;
    std::string config;
    std::string old_word;
    std::string new_word;
    if (const ScanRow* c = step::configRowOf(k, run)) {
      config = step::shortConfigLabel(*c, step::isReduction(k.category));
      old_word = step::decisionOf(*c, inductor::Policy::kOld);
      new_word = step::decisionOf(*c, inductor::Policy::kNew);
    }
    rows.push_back({std::to_string(rank), shortName(k.name), std::string(step::kernelCategoryKey(k.category)),
                    fixed(k.launches_per_step, k.launches_per_step == static_cast<int>(k.launches_per_step) ? 0 : 1),
                    fixed(k.median_us, 1), fixed(k.per_step_us, 1), fixed(100.0 * k.share, 1) + " %",
                    fixed(100.0 * cumulative, 1) + " %", config, old_word, new_word,
                    step::isTriton(k.category) ? std::string(step::runMatchName(k.match)) : std::string()});
  }
  printTable(out, rows);
  if (static_cast<int>(p.kernels.size()) > top) {
    out << "… and " << p.kernels.size() - static_cast<std::size_t>(top)
        << " more kernels (--top sets how many; --csv and --json list them all)\n";
  }
  out << "\nkind: triton_red = Triton looped reduction, triton_per = persistent reduction, triton_poi = pointwise, "
         "library = matmul/attention libraries, aten = PyTorch's own kernels. Times are in-step device time as "
         "torch.profiler recorded it.\n";
  for (const StepKernel& k : p.kernels) {
    if (k.match == step::RunMatch::kAmbiguous) out << "ambiguous: " << k.name << ": " << k.match_note << "\n";
  }
  if (run.rows != nullptr) {
    std::map<std::string, int> not_in_run;
    for (const StepKernel& k : p.kernels) {
      if (k.match == step::RunMatch::kNotInRun && k.category != step::KernelCategory::kMemory) {
        ++not_in_run[step::isTriton(k.category) ? std::string("Triton kernels of another run")
                                                : std::string(step::kernelCategoryName(k.category))];
      }
    }
    if (!not_in_run.empty()) {
      out << "not kernels of the run:";
      bool first = true;
      for (const auto& [kind, n] : not_in_run) {
        out << (first ? " " : ", ") << n << " " << kind;
        first = false;
      }
      out << "\n";
    }
  }
  for (const auto& problem : p.problems) out << "problem: " << problem << "\n";
}

nlohmann::json stepToJson(const step::StepProfile& p, const step::StepRun& run) {
  nlohmann::json doc;
  doc["trace"] = p.trace_path;
  doc["run"] = p.run_input;
  doc["device"] = p.device_name;
  doc["steps"] = p.step_count;
  doc["annotated_steps"] = p.annotated_steps;
  doc["step_names"] = p.step_names;
  doc["gpu_time_per_step_us"] = p.gpu_time_per_step_us;
  doc["mean_step_span_us"] = p.mean_step_span_us;
  doc["outside_steps"] = p.outside_steps;
  doc["categories"] = nlohmann::json::array();
  for (const auto& c : p.categories) {
    doc["categories"].push_back({{"category", step::kernelCategoryKey(c.category)},
                                 {"name", step::kernelCategoryName(c.category)},
                                 {"per_step_us", c.per_step_us},
                                 {"share_pct", 100.0 * c.share},
                                 {"kernels", c.kernels}});
  }
  doc["triton"] = {{"kernels", p.triton_kernels},
                   {"matched", p.triton_matched},
                   {"ambiguous", p.triton_ambiguous},
                   {"not_in_run", p.triton_not_in_run}};
  doc["kernels"] = rowsToJson(step::stepToCsv(p, run), numberCell);
  doc["text"] = step::stepText(p, run);
  doc["problems"] = p.problems;
  return doc;
}

int runStep(Context& ctx, const InductorOpts& o) {
  constexpr const char* kCmd = "occx inductor step";
  if (o.top < 1 || o.top > 100000)
    return fail(ctx, kCmd, "--top " + std::to_string(o.top) + " is out of range: allowed 1 … 100000");
  auto trace = readTrace(ctx, o);
  if (!trace) return fail(ctx, kCmd, trace.error(), kExitRuntime);
  std::vector<ScanRow> rows;
  step::StepRun r;
  if (!o.input.empty()) {
    auto scanned = scan(ctx, o);
    if (!scanned) return fail(ctx, kCmd, scanned.error(), kExitRuntime);
    rows = scanRows(*scanned);
    r = {&rows, scanned->input};
  }
  const step::StepProfile profile = step::profileStep(*trace, r);
  if (o.output.json) {
    printJson(ctx.out, stepToJson(profile, r));
  } else if (o.output.text()) {
    printStepText(ctx.out, profile, r, o.top);
  }
  if (!o.output.csv.empty()) return writeCsv(ctx, o.output.csv, step::stepToCsv(profile, r));
  return kExitOk;
}

// `occx inductor scan`: one row per (kernel, compiled config) of a run.
void addInductorScan(CLI::App& cmd, Context& ctx) {
  auto s = std::make_shared<InductorOpts>();
  auto* scan_cmd = cmd.add_subcommand("scan",
                                      "one row per (kernel, compiled config) of an Inductor cache, a "
                                      "torch_compile_debug folder or one kernel module");
  scan_cmd->add_option("DIR", s->input,
                       "an Inductor cache folder, a torch_compile_debug folder or one kernel module (default: "
                       "$TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>)");
  addInputOptions(*scan_cmd, *s);
  addTraceOptions(*scan_cmd, *s);
  s->output.add(*scan_cmd, "print JSON: a kernel list, each with its configs",
                "also write one row per (kernel, config) to this CSV file");
  setAction(*scan_cmd, ctx, s, &runScan);
}

// `occx inductor show`: one kernel with every policy's reasoning.
void addInductorShow(CLI::App& cmd, Context& ctx) {
  auto w = std::make_shared<InductorOpts>();
  auto* show_cmd = cmd.add_subcommand("show", "one kernel with every policy's reasoning in words");
  show_cmd->add_option("KERNEL", w->kernel, "the kernel's name, its module hash, or part of its name")->required();
  show_cmd->add_option("DIR", w->input,
                       "as for scan (default: $TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>)");
  addInputOptions(*show_cmd, *w);
  addTraceOptions(*show_cmd, *w);
  w->output.add(*show_cmd, "print JSON", "also write the kernel's configs to this CSV file");
  setAction(*show_cmd, ctx, w, &runShow);
}

// `occx inductor run`: every compiled config run on the local GPU.
void addInductorRun(CLI::App& cmd, Context& ctx) {
  auto r = std::make_shared<InductorOpts>();
  auto* run_cmd =
      cmd.add_subcommand("run",
                         "run every config Inductor compiled on the local GPU: outputs checked across configs, "
                         "timed (L2 flushed, median), and each policy's pick with its regret");
  run_cmd
      ->add_option("KERNEL|DIR", r->kernel,
                   "a kernel (its name, module hash or part of its name) in DIR, or a folder (a run, an Inductor "
                   "cache) or one kernel "
                   "module: then every kernel with compiled configs")
      ->required();
  run_cmd->add_option(
      "DIR", r->input,
      "with a KERNEL: the run to look in (default: $TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>)");
  addInputOptions(*run_cmd, *r);
  addTraceOptions(*run_cmd, *r);
  run_cmd->add_flag("--reductions", r->reductions_only,
                    "only looped and persistent reductions (not pointwise kernels)");
  run_cmd->add_option("--device", r->device, "CUDA device ordinal");
  run_cmd->add_option("--seed", r->seed, "seed of the random inputs");
  run_cmd->add_flag("--no-metrics", r->no_metrics,
                    "no CUPTI profiled pass per config (achieved occupancy, DRAM bytes: bandwidths become the buffers' "
                    "estimate, shown only under the copy bandwidth)");
  run_cmd->add_option("--timed-ms", r->timed_ms, "kernel time to aim at per config, ms (1 … 10000)");
  run_cmd->add_flag("--no-l2-flush", r->no_flush, "do not flush L2 before each timed launch");
  r->output.add(
      *run_cmd, "print JSON rows",
      "also write one row per (kernel, config) to this CSV file (atomically; Ctrl-C keeps the finished rows)");
  setAction(*run_cmd, ctx, r, &runRun);
}

// Options of a sweep's compile and runs (`occx inductor sweep`, `occx inductor pin`).
void addCompileRunOptions(CLI::App& cmd, InductorOpts& o) {
  cmd.add_option("--python", o.python,
                 "the Python with PyTorch and Triton to compile with (default: $OCCX_PYTHON, else python3)");
  cmd.add_option("--cache", o.cache,
                 "the Triton cache folder to compile into (default: ~/.cache/occupancy-explorer/triton)")
      ->check(CLI::Validator(outputFolderProblem, ""));  // before the scan and the plan, not at the compile
  cmd.add_option("--jobs", o.jobs, "compile processes at once (0 = as many as cores, at most 8)");
  cmd.add_flag("--no-run", o.no_run, "compile and analyse only, even with a GPU");
  cmd.add_option("--device", o.device, "CUDA device ordinal");
  cmd.add_option("--seed", o.seed, "seed of the random inputs");
  cmd.add_flag("--no-metrics", o.no_metrics,
               "no CUPTI profiled pass per config (achieved occupancy, DRAM bytes: bandwidths become the "
               "buffers' estimate, shown only under the copy bandwidth)");
  cmd.add_option("--timed-ms", o.timed_ms, "kernel time to aim at per config, ms (1 … 10000)");
  cmd.add_flag("--no-l2-flush", o.no_flush, "do not flush L2 before each timed launch");
}

// Options of a model sweep (`sweep --all`, `pin`); `when` starts each help line ("with --all: " or "").
void addModelSweepOptions(CLI::App& cmd, InductorOpts& o, const std::string& when) {
  cmd.add_option("--budget", o.budget,
                 when + "start no kernel after this much wall time, e.g. 5m, 300s (default: none)");
  cmd.add_option("--top", o.sweep_top, when + "at most this many kernels (0 = all)");
  cmd.add_flag("--full", o.full,
               when + "time every config with the full method (no brief first pass; the exhaustive baseline)");
  cmd.add_option("--sweep-cache", o.sweep_cache,
                 when +
                     "keep measured rows in this folder, so a second run resumes (default: "
                     "~/.cache/occupancy-explorer/sweeps; 'none': no cache)");
}

// `occx inductor sweep`: configs Inductor never tried, compiled with the user's Triton.
void addInductorSweep(CLI::App& cmd, Context& ctx) {
  auto v = std::make_shared<InductorOpts>();
  auto* sweep_cmd = cmd.add_subcommand(
      "sweep",
      "compile one reduction kernel at configs Inductor never tried, with your own Python's PyTorch and "
      "Triton (no GPU needed): registers, spills, occupancy and every policy's decision per config; with a "
      "GPU, times, each policy's pick and the best config");
  sweep_cmd->add_option(
      "KERNEL", v->kernel,
      "the kernel (its name, module hash or part of its name) in DIR, or its kernel module file; with "
      "--all, the run's folder");
  sweep_cmd->add_option("DIR", v->input,
                        "the run to look in (default: $TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>)");
  addInputOptions(*sweep_cmd, *v);
  sweep_cmd->add_option(
      "--grid", v->grid,
      "configs to compile: NAME=VALUES items (XBLOCK, R0_BLOCK, num_warps, num_stages; \"1,2,4\" or \"256..4096\"), "
      "e.g. --grid \"XBLOCK=1,2 R0_BLOCK=512..4096 num_warps=4,8,16\"; axes left out take the default grid's values. "
      "Default (no --grid, no --policies): XBLOCK 1…8 × R0_BLOCK 256…r0_ hint × num_warps 4…32, 1…64 elements per "
      "thread, "
      "and what the policies add");
  sweep_cmd->add_flag("--policies", v->policies,
                      "compile what each policy (old, new, review_min, exact, spills) would add: the halved copies of "
                      "Inductor's candidates");
  addCompileRunOptions(*sweep_cmd, *v);
  sweep_cmd->add_flag("--all", v->all,
                      "sweep the step's looped reductions (needs --trace): longest in-step time first, each on its "
                      "default grid, until --budget or --top; then what the step would gain");
  addTraceOptions(*sweep_cmd, *v);
  addModelSweepOptions(*sweep_cmd, *v, "with --all: ");
  v->output.add(*sweep_cmd, "print JSON rows",
                "also write one row per config to this CSV file (a kernel-runs CSV; the GUI opens it)");
  setAction(*sweep_cmd, ctx, v, [](Context& c, const InductorOpts& o) {
    return o.all ? runInductorModelSweep(c, o) : runInductorSweep(c, o);
  });
}

// `occx inductor pin`: the step swept whole (resumed from the sweep cache), then each kernel's fastest
// config that would hold written to its .best_config.
void addInductorPin(CLI::App& cmd, Context& ctx) {
  auto v = std::make_shared<InductorOpts>();
  v->all = true;
  v->pin = true;
  auto* pin_cmd = cmd.add_subcommand(
      "pin",
      "hand the model sweep's picks back to Inductor: sweep the step's looped reductions as `sweep --all` does "
      "(resuming from the sweep cache), then rewrite each kernel's .best_config to the fastest config that "
      "would hold (Inductor uses the file and its RBLOCK scaling adds no halved copy), keeping Inductor's file "
      "as <file>.occx-backup");
  pin_cmd->add_option("DIR", v->input,
                      "the run (an Inductor cache; default: $TORCHINDUCTOR_CACHE_DIR, else /tmp/torchinductor_<user>)");
  addInputOptions(*pin_cmd, *v);
  addTraceOptions(*pin_cmd, *v);
  addCompileRunOptions(*pin_cmd, *v);
  addModelSweepOptions(*pin_cmd, *v, "");
  pin_cmd->add_flag("--dry-run", v->dry_run, "say what would be pinned; write nothing");
  pin_cmd->add_flag("--restore", v->restore,
                    "put back Inductor's own .best_config files under DIR from their backups (no sweep)");
  v->output.add(*pin_cmd, "print JSON rows and the pins", "also write one row per config to this CSV file");
  setAction(*pin_cmd, ctx, v, [](Context& c, const InductorOpts& o) {
    return o.restore ? runRestorePins(c, o) : runInductorModelSweep(c, o);
  });
}

// `occx inductor step`: where a step's GPU time goes, from a torch.profiler trace.
void addInductorStep(CLI::App& cmd, Context& ctx) {
  auto t = std::make_shared<InductorOpts>();
  auto* step_cmd = cmd.add_subcommand(
      "step",
      "where a step's GPU time goes, from a torch.profiler trace (export_chrome_trace or tensorboard_trace_handler; "
      "plain or gzipped): time by kind, every kernel ranked by in-step time, and each Triton kernel joined to the "
      "Inductor run in DIR with its config and every policy's decision");
  step_cmd->add_option("TRACE", t->trace, "the trace file (*.json, *.pt.trace.json, *.json.gz)")->required();
  step_cmd->add_option(
      "DIR", t->input,
      "the Inductor run the trace's Triton kernels came from (an Inductor cache, a torch_compile_debug "
      "folder); without it kernels are classed by name only");
  addInputOptions(*step_cmd, *t);
  step_cmd->add_option("--steps", t->steps,
                       "steps in the trace when it has no ProfilerStep annotations (1 … 1000000; default 1; "
                       "ignored when it has them)");
  step_cmd->add_option("--top", t->top, "kernels listed in the text table (1 … 100000; default 25)");
  t->output.add(*step_cmd, "print JSON: the step, its categories and one object per kernel",
                "also write one row per kernel to this CSV file");
  setAction(*step_cmd, ctx, t, &runStep);
}

void addInductorCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand(
      "inductor",
      "read what torch.compile left on disk: kernels, compiled configs, registers, "
      "spills, occupancy and every RBLOCK policy's decision (no Python, no GPU); run them on the GPU");
  cmd->require_subcommand(1);
  addInductorScan(*cmd, ctx);
  addInductorShow(*cmd, ctx);
  addInductorRun(*cmd, ctx);
  addInductorSweep(*cmd, ctx);
  addInductorPin(*cmd, ctx);
  addInductorStep(*cmd, ctx);
}

const CommandRegistrar kInductor{{"inductor", 30, &addInductorCommand}};

}  // namespace
}  // namespace occx::cli
