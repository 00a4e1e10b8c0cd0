// occx inductor: what torch.compile left on disk, read without Python or a GPU.
//   occx inductor scan [DIR] [--triton-cache DIR] [--json | --csv FILE]: one row per (kernel, config)
//   occx inductor show KERNEL [DIR]: one kernel with every policy's reasoning in words
#include <iostream>
#include <memory>

#include "app/cli/cli.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/printer.h"
#include "app/cli/printers/progress_printer.h"
#include "core/triton/inductor_run.h"
#include "core/triton/run_table.h"

namespace occx::cli {
namespace {

using namespace occx::triton;

struct InductorOpts {
  std::string input;
  std::vector<std::string> triton_caches;
  bool no_home_cache = false;
  bool quiet = false;
  OutputOptions output;
  std::string kernel;  ///< show only
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

void addInductorCommand(CLI::App& app, Context& ctx) {
  auto* cmd = app.add_subcommand("inductor", "read what torch.compile left on disk: kernels, compiled configs, registers, "
                                             "spills, occupancy and every RBLOCK policy's decision (no Python, no GPU)");
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
}

const CommandRegistrar kInductor{{"inductor", 30, &addInductorCommand}};

}  // namespace
}  // namespace occx::cli
