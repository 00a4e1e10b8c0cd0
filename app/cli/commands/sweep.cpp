// occx sweep: the compile sweep over (XBLOCK, RBLOCK, num_warps) for one workload and shape —
// registers, spills, occupancy, each RBLOCK policy's decision and the autotuner's candidate set
// under the old, new and exact bounds — with a progress line, Ctrl-C keeping the finished rows,
// CSV (written atomically) and JSON output.
#include <atomic>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/commands/live_sweep.h"
#include "app/cli/interrupt.h"
#include "app/cli/options/kernel_options.h"
#include "app/cli/options/live_options.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/format.h"
#include "app/cli/printers/printer.h"
#include "app/cli/printers/progress_printer.h"
#include "core/base/parallel.h"
#include "core/kernels/compile_cache.h"
#include "core/sweep/compile_sweep.h"

namespace occx::cli {
namespace {

constexpr const char* kSweepCmd = "occx sweep";

struct SweepOpts {
  ArchOptions arch;
  WorkloadOptions work;
  CacheOptions cache;
  std::int64_t xnumel = 0;
  std::int64_t rnumel = 0;
  std::string xblocks = "1,2";
  std::string rblocks = "256-8192";
  std::string num_warps = "4,8,16,32";
  bool no_inductor = false;
  bool fp32_outputs = false;
  std::string hint = "inner";
  std::string profile = "inductor-current";
  int maxrregcount = 0;
  int threads = 0;
  bool no_run = false;
  bool quiet = false;
  bool dynamic_shape = false;
  OutputOptions output;
  LiveSweepOptions live;  ///< live runs (options/live_options.h, commands/live_sweep.cpp)
};

// The sweep's spec from the options; errors are usage errors naming the option.
Expected<CompileSweepSpec> sweepSpec(const SweepOpts& o, const KernelTarget& kernel) {
  CompileSweepSpec spec;
  spec.workload = kernel.work.workload;
  spec.dtype = kernel.work.dtype;
  spec.k = kernel.work.k;
  spec.fp32_outputs = o.fp32_outputs;
  spec.xnumel = o.xnumel;
  spec.rnumel = o.rnumel;
  spec.device = kernel.device;
  spec.inductor_candidates = !o.no_inductor;
  spec.maxrregcount = o.maxrregcount;
  spec.static_shape = !o.dynamic_shape;
  spec.threads = o.threads > 0 ? o.threads : defaultWorkerThreads();
  auto xb = parseIntList("--xblocks", o.xblocks);
  auto rb = parseIntList("--rblocks", o.rblocks);
  auto nw = parseIntList("--num-warps", o.num_warps);
  for (const auto* e : {&xb, &rb, &nw}) {
    if (!*e) return Error{e->error()};
  }
  spec.grid.xblock = *xb;
  spec.grid.r0_block = *rb;
  spec.grid.num_warps = *nw;
  auto hint = inductor::parseReductionHint(o.hint);
  if (!hint) return Error{"--hint: " + hint.error()};
  spec.hint = *hint;
  auto profile = inductor::parseProfile(o.profile);
  if (!profile) return Error{"--profile: " + profile.error()};
  spec.decision_options.profile = *profile;
  if (o.threads < 0 || o.threads > 64) return Error{outOfRange("--threads", o.threads, "1 … 64 (0 = one per core)")};
  return spec;
}

std::string shortDecision(const inductor::Decision& d) {
  switch (d.outcome) {
    case inductor::Outcome::kScale:
      return "scale";
    case inductor::Outcome::kNoScale:
      return "no scaling";  // the GUI's and occx rblock's word (outcomeName)
    case inductor::Outcome::kDuplicate:
      return "dup";
    default:
      return "n/a";
  }
}

std::string shortCandidate(CandidateState s) {
  switch (s) {
    case CandidateState::kBenchmarked:
      return "yes";
    case CandidateState::kExcludedSpills:
      return "spills";
    case CandidateState::kNotCompiled:
      return "?";
    default:
      return "-";
  }
}

std::string progressLine(const CompileSweepProgress& p) {
  const auto& r = *p.row;
  std::string line = "[" + std::to_string(p.done) + "/" + std::to_string(p.total) +
                     "] XBLOCK=" + std::to_string(r.config.xblock) + " RBLOCK=" + std::to_string(r.config.rblock) +
                     " num_warps=" + std::to_string(r.config.num_warps) + ": ";
  if (r.ok) {
    line += std::to_string(r.report.registers) + " registers, " + std::to_string(r.report.spill_stores_bytes) +
            " B spill stores" + (r.cache_hit ? " (cache)" : "");
  } else {
    line += "error: " + r.error.substr(0, r.error.find('\n'));
  }
  return line;
}

// The metadata the CLI adds to the sweep's own (JSON and CSV alike).
std::vector<std::pair<std::string, std::string>> runMeta(const CompileSweepResult& res, const CompileSweepSpec& spec,
                                                         const CompileCache& cache) {
  const auto stats = cache.stats();
  return {
      {"cache", cache.directory().empty() ? std::string("off") : cache.directory()},
      {"cache_hits", std::to_string(stats.hits)},
      {"cache_misses", std::to_string(stats.misses)},
      {"cache_corrupt", std::to_string(stats.corrupt)},
      {"threads", std::to_string(spec.threads)},
      {"wall_seconds", fixed(res.wall_seconds, 2)},
      {"live_runs", "none (compile-only)"},
  };
}

TextRows sweepRows(const CompileSweepResult& res) {
  TextRows rows = {{"#", "XBLOCK", "RBLOCK", "warps", "regs", "spill st/ld B", "stack B", "smem B", "blocks/SM",
                    "occ %", "old", "new", "exact", "cand old", "cand new", "cand exact", "origin"}};
  for (const auto& r : res.rows) {
    std::vector<std::string> row = {std::to_string(r.index), std::to_string(r.config.xblock),
                                    std::to_string(r.config.rblock), std::to_string(r.config.num_warps)};
    if (r.ok) {
      row.push_back(std::to_string(r.report.registers));
      row.push_back(std::to_string(r.report.spill_stores_bytes) + "/" + std::to_string(r.report.spill_loads_bytes));
      row.push_back(std::to_string(r.report.stack_frame_bytes));
      row.push_back(std::to_string(r.report.static_smem_bytes));
      row.push_back(std::to_string(r.occupancy.active_blocks_per_sm));
      row.push_back(fixed(100.0 * r.occupancy.occupancy, 1));
      for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {  // old, new, exact
        row.push_back(i < r.decisions.size() ? shortDecision(r.decisions[i]) : "");
      }
    } else {
      row.push_back("error: " + r.error.substr(0, r.error.find('\n')));
      for (int i = 0; i < 8; ++i) row.push_back("");
    }
    for (auto s : r.candidate) row.push_back(shortCandidate(s));
    row.push_back(r.origin);
    rows.push_back(std::move(row));
  }
  return rows;
}

void printSweepText(Context& ctx, const CompileSweepSpec& spec, const CompileSweepResult& res) {
  const auto& dev = spec.device;
  ctx.out << "Sweep: " << workloadName(spec.workload)
          << (spec.workload == Workload::kFusedK ? " K=" + std::to_string(spec.k) : "") << " " << dtypeName(spec.dtype)
          << ", xnumel " << spec.xnumel << " × rnumel " << spec.rnumel << " (size hints x " << res.size_hints.x
          << ", r " << res.size_hints.r0 << ") on " << dev.arch.cc.smName() << ", " << dev.label << "\n";
  ctx.out << "Compiler: " << (res.compiler.empty() ? std::string("-") : res.compiler) << "; Inductor profile "
          << inductor::profileInfo(spec.decision_options.profile).key << ", hint "
          << inductor::reductionHintKey(spec.hint) << "\n\n";
  printTable(ctx.out, sweepRows(res));
  ctx.out
      << "\nold/new/exact: the RBLOCK-scaling decision of each bound for that config (scale = add a copy with RBLOCK "
         "halved; no scaling = enough blocks resident; n/a = a gate skipped it).\n"
         "cand: in that bound's autotuner candidate set (yes = benchmarked, spills = excluded, n_spills > 16).\n";
}

void printSweepSummary(Context& ctx, const CompileSweepSpec& spec, const CompileSweepResult& res) {
  const double rate = res.wall_seconds > 0 ? static_cast<double>(res.rows.size()) / res.wall_seconds : 0.0;
  ctx.err << res.rows.size() << " of " << res.total_configs << " configs: " << res.compiled << " compiled, "
          << res.failed << " failed, "
          << (res.not_compiled > 0 ? std::to_string(res.not_compiled) + " not compiled (the config cannot be built), "
                                   : std::string())
          << res.cache_hits << " from the cache; " << fixed(res.wall_seconds, 2) << " s (" << fixed(rate, 1)
          << " configs/s) on " << spec.threads << " thread" << (spec.threads == 1 ? "" : "s") << "\n";
}

// The compile-only sweep: progress on stderr, the table (or JSON) on stdout, --csv written (also
// after Ctrl-C, with the finished rows).
int runCompileOnlySweep(Context& ctx, const SweepOpts& o, const CompileSweepSpec& spec) {
  CompileCache cache(o.cache.directory());
  ProgressPrinter progress(ctx.err, o.quiet);
  auto res = runCompileSweep(
      spec, ctx.backend.compilerWithCache(cache),
      [&](const CompileSweepProgress& p) { progress.step(progressLine(p)); }, &interrupted());
  progress.finish();
  reportCorruptCacheEntries(ctx.err, kSweepCmd, cache);
  if (!res) return fail(ctx, kSweepCmd, res.error());
  const auto meta = runMeta(*res, spec, cache);
  if (o.output.json) {
    printJson(ctx.out, compileSweepToJson(*res, meta));
  } else if (o.output.text()) {
    printSweepText(ctx, spec, *res);
  }
  printSweepSummary(ctx, spec, *res);
  int rc = kExitOk;
  if (!o.output.csv.empty()) rc = writeCsv(ctx, o.output.csv, compileSweepToCsv(*res, meta));
  if (res->cancelled) {
    ctx.err << kSweepCmd << ": cancelled: kept the " << res->rows.size() << " finished row"
            << (res->rows.size() == 1 ? "" : "s")
            << (o.output.csv.empty()     ? std::string()
                : o.output.csvToStdout() ? std::string(" on standard output")
                                         : " in " + o.output.csv)
            << "\n";
    return kExitRuntime;
  }
  return rc;
}

int runSweep(Context& ctx, const SweepOpts& o) {
  auto kernel = resolveKernelTarget(o.arch, o.work, defaultGpuName(ctx.backend));
  if (!kernel) return fail(ctx, kSweepCmd, kernel.error());
  auto spec = sweepSpec(o, *kernel);
  if (!spec) return fail(ctx, kSweepCmd, spec.error());
  if (const Availability a = ctx.backend.compileAvailability(); !a.available) {
    return fail(ctx, kSweepCmd,
                "cannot compile: " + a.reason +
                    "; there are no register or spill counts to sweep. Rebuild with the CUDA Toolkit installed; "
                    "'occx rblock' decides with given n_regs.",
                kExitRuntime);
  }
  if (std::string msg = uncompilableArchError(ctx.backend, kernel->device.arch.cc); !msg.empty())
    return fail(ctx, kSweepCmd, msg);
  if (!kernel->note.empty()) ctx.err << "note: " << kernel->note << "\n";
  SigintScope sigint;
  // Live runs when a GPU of the target's architecture is present (live_sweep.cpp); else compile-only.
  if (!o.no_run) {
    const LiveSweepOutcome live =
        runLiveSweepIfGpu(ctx, *spec, o.live, {o.output, o.quiet, o.cache.directory()}, &interrupted());
    if (live.kind != LiveSweepOutcome::Kind::kFallBack) return live.exit_code;
    ctx.err << "compile-only sweep: " << live.reason << "\n";
  }
  return runCompileOnlySweep(ctx, o, *spec);
}

void addSweepCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<SweepOpts>();
  auto* cmd = app.add_subcommand(
      "sweep",
      "compile a grid of (XBLOCK, RBLOCK, num_warps): registers, spills, occupancy, each RBLOCK "
      "policy's decision and Inductor's candidate sets; with a GPU of that architecture each config is also run, "
      "checked and timed live (--no-run: compile only)");
  o->arch.add(*cmd);
  o->work.add(*cmd);
  cmd->add_option("--xnumel", o->xnumel, "rows of the problem (1 … 2^31-1)")->required();
  cmd->add_option("--rnumel", o->rnumel, "reduction length (1 … 2^31-1; xnumel × rnumel < 2^31)")->required();
  cmd->add_option("--xblocks", o->xblocks,
                  "XBLOCK values: a list (1,2,4) or a range of powers of two (1-8); default 1,2");
  cmd->add_option("--rblocks", o->rblocks, "RBLOCK values, list or range (default 256-8192)");
  cmd->add_option("--num-warps", o->num_warps, "num_warps values, list or range (default 4,8,16,32)");
  cmd->add_flag("--fp32-outputs", o->fp32_outputs,
                "write outputs in fp32 instead of the input dtype (an upcast graph)");
  cmd->add_flag("--no-inductor", o->no_inductor, "only the grid: no Inductor candidates and no halved configs");
  cmd->add_flag(
      "--dynamic-shape", o->dynamic_shape,
      "kernels that take the shape at run time (as torch.compile(dynamic=True)); default: the shape baked in, "
      "as Inductor's kernels for static shapes");
  cmd->add_option(
      "--hint", o->hint,
      "Inductor's reduction hint: inner (row reductions, default), outer, outer_tiny, default (all configs)");
  cmd->add_option("--profile", o->profile, "Inductor version: inductor-current (default) or inductor-2023");
  cmd->add_option("--maxrregcount", o->maxrregcount, "cap registers per thread in every compile (1 … 255; 0 = none)");
  cmd->add_option("--threads", o->threads, "parallel compiles (1 … 64; default one per core)");
  cmd->add_flag("--no-run", o->no_run, "compile only, even when a GPU is present");
  cmd->add_flag("--quiet", o->quiet, "no progress line");
  o->output.add(*cmd, "print JSON", "write the sweep to this CSV file (atomically; Ctrl-C keeps the finished rows)");
  o->cache.add(*cmd);
  o->live.add(*cmd);
  setAction(*cmd, ctx, o, &runSweep);
}

const CommandRegistrar kSweep{{"sweep", 50, &addSweepCommand}};

}  // namespace
}  // namespace occx::cli
