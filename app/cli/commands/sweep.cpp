// occx sweep: the compile sweep over (XBLOCK, RBLOCK, num_warps) for one workload and shape —
// registers, spills, occupancy, each RBLOCK policy's decision and the autotuner's candidate set
// under the old, new and exact bounds — with a progress line, Ctrl-C keeping the finished rows,
// CSV (written atomically) and JSON output.
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/kernel_options.h"
#include "app/cli/commands/live_sweep.h"
#include "core/kernels/compile_cache.h"
#include "core/sweep/compile_sweep.h"
#include "core/base/parallel.h"
#include "occx_config.h"

#if OCCX_HAVE_CUDA
#include "core/cuda/driver_api.h"
#include "core/cuda/nvrtc_compiler.h"
#endif

namespace occx::cli {
namespace {

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
  bool json = false;
  std::string csv;
  LiveSweepOptions live;  ///< live runs (app/cli/live_sweep_cli.h)
};

// Set by SIGINT; lock-free, so setting it is async-signal-safe.
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);

extern "C" void onSigint(int /*signal*/) { g_interrupted.store(true); }

/// Installs the SIGINT handler for the sweep's lifetime (a second Ctrl-C ends the program as usual:
/// SA_RESETHAND restores the default action after the first).
class SigintScope {
 public:
  SigintScope() {
    g_interrupted.store(false);
    struct sigaction sa {};
    sa.sa_handler = &onSigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    installed_ = sigaction(SIGINT, &sa, &old_) == 0;
  }
  ~SigintScope() {
    if (installed_) sigaction(SIGINT, &old_, nullptr);
  }
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;

 private:
  struct sigaction old_ {};
  bool installed_ = false;
};

[[maybe_unused]] std::string shortDecision(const inductor::Decision& d) {
  switch (d.outcome) {
    case inductor::Outcome::kScale:
      return "scale";
    case inductor::Outcome::kNoScale:
      return "keep";
    case inductor::Outcome::kDuplicate:
      return "dup";
    default:
      return "n/a";
  }
}

[[maybe_unused]] std::string shortCandidate(CandidateState s) {
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

int runSweep(Context& ctx, const SweepOpts& o) {
  const char* cmd = "occx sweep";
  std::string note;
  auto dev = resolveArch(o.arch, note);
  if (!dev) {
    ctx.err << cmd << ": " << dev.error() << "\n";
    return kExitUsage;
  }
  auto work = parseWorkloadOptions(o.work);
  if (!work) {
    ctx.err << cmd << ": " << work.error() << "\n";
    return kExitUsage;
  }
  CompileSweepSpec spec;
  spec.workload = work->workload;
  spec.dtype = work->dtype;
  spec.k = work->k;
  spec.fp32_outputs = o.fp32_outputs;
  spec.xnumel = o.xnumel;
  spec.rnumel = o.rnumel;
  spec.device = *dev;
  spec.inductor_candidates = !o.no_inductor;
  spec.maxrregcount = o.maxrregcount;
  spec.threads = o.threads > 0 ? o.threads : defaultWorkerThreads();
  auto xb = parseIntList("--xblocks", o.xblocks);
  auto rb = parseIntList("--rblocks", o.rblocks);
  auto nw = parseIntList("--num-warps", o.num_warps);
  for (const auto* e : {&xb, &rb, &nw}) {
    if (!*e) {
      ctx.err << cmd << ": " << e->error() << "\n";
      return kExitUsage;
    }
  }
  spec.xblocks = *xb;
  spec.rblocks = *rb;
  spec.num_warps = *nw;
  auto hint = inductor::parseReductionHint(o.hint);
  if (!hint) {
    ctx.err << cmd << ": --hint: " << hint.error() << "\n";
    return kExitUsage;
  }
  spec.hint = *hint;
  auto profile = inductor::parseProfile(o.profile);
  if (!profile) {
    ctx.err << cmd << ": --profile: " << profile.error() << "\n";
    return kExitUsage;
  }
  spec.decision_options.profile = *profile;
  if (o.threads < 0 || o.threads > 64) {
    ctx.err << cmd << ": --threads " << o.threads << " is out of range: allowed 1 … 64 (0 = one per core)\n";
    return kExitUsage;
  }

#if !OCCX_HAVE_CUDA
  (void)spec;
  ctx.err << cmd << ": cannot compile: this build of occx has no CUDA Toolkit (NVRTC), so there are no register or spill "
                    "counts to sweep. Rebuild with the CUDA Toolkit installed; 'occx rblock' decides with given n_regs.\n";
  return kExitRuntime;
#else
  const auto offered = cuda::offeredArchitectures(GpuDatabase::builtin());
  if (std::find(offered.begin(), offered.end(), dev->arch.cc) == offered.end()) {
    std::string list;
    for (const auto& a : offered) list += (list.empty() ? "" : ", ") + a.smName();
    ctx.err << cmd << ": --arch " << dev->arch.cc.smName() << " cannot be compiled by " << cuda::nvrtcVersionString()
            << ": allowed " << list << "\n";
    return kExitUsage;
  }
  if (!note.empty()) ctx.err << "note: " << note << "\n";
  SigintScope sigint;
  // ---- live runs: when a GPU of the target's architecture is present (live_sweep_cli.cpp) ----------
  if (!o.no_run) {
    if (auto rc = runLiveSweepIfGpu(ctx, spec, o.live, {o.csv, o.json, o.quiet, o.cache.directory()}, &g_interrupted)) {
      return *rc;
    }  // no GPU (the reason is printed): compile-only below
  }
  CompileCache cache(o.cache.directory());
  cuda::NvrtcCompiler compiler(&cache);
  const bool tty = &ctx.err == &std::cerr && isatty(STDERR_FILENO) == 1;
  auto progress = [&](const CompileSweepProgress& p) {
    if (o.quiet) return;
    const auto& r = *p.row;
    std::string line = "[" + std::to_string(p.done) + "/" + std::to_string(p.total) + "] XBLOCK=" +
                       std::to_string(r.config.xblock) + " RBLOCK=" + std::to_string(r.config.rblock) +
                       " num_warps=" + std::to_string(r.config.num_warps) + ": ";
    if (r.ok) {
      line += std::to_string(r.report.registers) + " registers, " + std::to_string(r.report.spill_stores_bytes) +
              " B spill stores" + (r.cache_hit ? " (cache)" : "");
    } else {
      line += "error: " + r.error.substr(0, r.error.find('\n'));
    }
    if (tty) {
      ctx.err << "\r\033[K" << line << std::flush;
    } else {
      ctx.err << line << "\n";
    }
  };
  auto res = runCompileSweep(spec, compiler.function(), progress, &g_interrupted);
  if (tty && !o.quiet) ctx.err << "\n";
  reportCorruptCacheEntries(ctx.err, cmd, cache);
  if (!res) {
    ctx.err << cmd << ": " << res.error() << "\n";
    return kExitUsage;
  }
  const auto stats = cache.stats();
  const double rate = res->wall_seconds > 0 ? static_cast<double>(res->rows.size()) / res->wall_seconds : 0.0;
  std::vector<std::pair<std::string, std::string>> extra = {
      {"cache", cache.directory().empty() ? std::string("off") : cache.directory()},
      {"cache_hits", std::to_string(stats.hits)},
      {"cache_misses", std::to_string(stats.misses)},
      {"cache_corrupt", std::to_string(stats.corrupt)},
      {"threads", std::to_string(spec.threads)},
      {"wall_seconds", fixed(res->wall_seconds, 2)},
      {"live_runs", "none (compile-only)"},
  };
  if (o.json) {
    ctx.out << compileSweepToJson(*res, extra).dump(2) << "\n";
  } else {
    ctx.out << "Sweep: " << workloadName(spec.workload) << (spec.workload == Workload::kFusedK ? " K=" + std::to_string(spec.k) : "")
            << " " << dtypeName(spec.dtype) << ", xnumel " << spec.xnumel << " × rnumel " << spec.rnumel << " (size hints x "
            << res->size_hints.x << ", r " << res->size_hints.r0 << ") on " << dev->arch.cc.smName() << ", " << dev->label
            << "\n";
    ctx.out << "Compiler: " << (res->compiler.empty() ? std::string("-") : res->compiler) << "; Inductor profile "
            << inductor::profileInfo(spec.decision_options.profile).key << ", hint " << inductor::reductionHintKey(spec.hint)
            << "\n\n";
    std::vector<std::vector<std::string>> rows = {{"#", "XBLOCK", "RBLOCK", "warps", "regs", "spill st/ld B", "stack B", "smem B",
                                                   "blocks/SM", "occ %", "old", "new", "exact", "cand old", "cand new",
                                                   "cand exact", "origin"}};
    for (const auto& r : res->rows) {
      std::vector<std::string> row = {std::to_string(r.index), std::to_string(r.config.xblock), std::to_string(r.config.rblock),
                                      std::to_string(r.config.num_warps)};
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
    printTable(ctx.out, rows);
    ctx.out << "\nold/new/exact: the RBLOCK-scaling decision of each bound for that config (scale = add a copy with RBLOCK "
               "halved; keep = enough blocks resident; n/a = a gate skipped it).\n"
               "cand: in that bound's autotuner candidate set (yes = benchmarked, spills = excluded, n_spills > 16).\n";
  }
  ctx.err << res->rows.size() << " of " << res->total_configs << " configs: " << res->compiled << " compiled, " << res->failed
          << " failed, " << res->cache_hits << " from the cache; " << fixed(res->wall_seconds, 2) << " s ("
          << fixed(rate, 1) << " configs/s) on " << spec.threads << " thread" << (spec.threads == 1 ? "" : "s") << "\n";
  int rc = kExitOk;
  if (!o.csv.empty()) rc = writeCsv(ctx, o.csv, compileSweepToCsv(*res, extra));
  if (res->cancelled) {
    ctx.err << cmd << ": cancelled: kept the " << res->rows.size() << " finished row" << (res->rows.size() == 1 ? "" : "s")
            << (o.csv.empty() ? std::string() : " in " + o.csv) << "\n";
    return kExitRuntime;
  }
  return rc;
#endif
}

void addSweepCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<SweepOpts>();
  auto* cmd = app.add_subcommand("sweep",
                                 "compile a grid of (XBLOCK, RBLOCK, num_warps): registers, spills, occupancy, each RBLOCK "
                                 "policy's decision and Inductor's candidate sets; with a GPU of that architecture each config is also run, "
                                 "checked and timed live (--no-run: compile only)");
  o->arch.add(*cmd);
  o->work.add(*cmd);
  cmd->add_option("--xnumel", o->xnumel, "rows of the problem (1 … 2^31-1)")->required();
  cmd->add_option("--rnumel", o->rnumel, "reduction length (1 … 2^31-1; xnumel × rnumel < 2^31)")->required();
  cmd->add_option("--xblocks", o->xblocks, "XBLOCK values: a list (1,2,4) or a range of powers of two (1-8); default 1,2");
  cmd->add_option("--rblocks", o->rblocks, "RBLOCK values, list or range (default 256-8192)");
  cmd->add_option("--num-warps", o->num_warps, "num_warps values, list or range (default 4,8,16,32)");
  cmd->add_flag("--fp32-outputs", o->fp32_outputs, "write outputs in fp32 instead of the input dtype (an upcast graph)");
  cmd->add_flag("--no-inductor", o->no_inductor, "only the grid: no Inductor candidates and no halved configs");
  cmd->add_option("--hint", o->hint, "Inductor's reduction hint: inner (row reductions, default), outer, outer_tiny, default (all configs)");
  cmd->add_option("--profile", o->profile, "Inductor version: inductor-current (default) or inductor-2023");
  cmd->add_option("--maxrregcount", o->maxrregcount, "cap registers per thread in every compile (1 … 255; 0 = none)");
  cmd->add_option("--threads", o->threads, "parallel compiles (1 … 64; default one per core)");
  cmd->add_flag("--no-run", o->no_run, "compile only, even when a GPU is present");
  cmd->add_flag("--quiet", o->quiet, "no progress line");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->add_option("--csv", o->csv, "write the sweep to this CSV file (atomically; Ctrl-C keeps the finished rows)");
  o->cache.add(*cmd);
  addLiveSweepOptions(*cmd, o->live);
  cmd->callback([&ctx, o] { ctx.action = [&ctx, o]() -> int { return runSweep(ctx, *o); }; });
}

const CommandRegistrar kSweep{{"sweep", 50, &addSweepCommand}};

}  // namespace
}  // namespace occx::cli
