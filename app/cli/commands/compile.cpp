// occx compile: generate one reduction kernel of the family, compile it with NVRTC for any
// architecture (no GPU needed), and report registers per thread, spills, shared memory and the
// occupancy they allow; with a GPU of that architecture, cross-check with the driver.
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/kernel_options.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/format.h"
#include "app/cli/printers/printer.h"
#include "core/inductor/report.h"
#include "core/kernels/compile_cache.h"
#include "core/kernels/kernel_family.h"
#include "core/occupancy/occupancy.h"
#include "core/occupancy/occupancy_report.h"

namespace occx::cli {
namespace {

constexpr const char* kCompileCmd = "occx compile";

struct CompileOpts {
  ArchOptions arch;
  WorkloadOptions work;
  CacheOptions cache;
  int xblock = 1;
  int rblock = 1024;
  int num_warps = 8;
  std::int64_t xnumel = 0;
  std::int64_t rnumel = 0;
  bool scalar_loads = false;
  bool fp32_outputs = false;
  bool dynamic_shape = false;
  int maxrregcount = 0;
  std::vector<std::string> nvrtc_options;
  bool show_source = false;
  OutputOptions output;  ///< --json, --csv FILE (one row: the config, the compiler's report, occupancy, decisions)
};

/// The kernel to compile: its config, tile layout and source.
struct KernelPlan {
  KernelConfig cfg;
  TileLayout layout;
  GeneratedKernel gen;
  std::string loads_note;  ///< why the loads are scalar, when the shape forced it
};

// The config of the options, checked against the kernel family's limits; errors are usage errors.
Expected<KernelPlan> planKernel(const CompileOpts& o, const ParsedWorkload& work) {
  KernelConfig cfg;
  cfg.workload = work.workload;
  cfg.dtype = work.dtype;
  cfg.k = work.k;
  cfg.xblock = o.xblock;
  cfg.rblock = o.rblock;
  cfg.num_warps = o.num_warps;
  cfg.vector_loads = !o.scalar_loads;
  cfg.fp32_outputs = o.fp32_outputs;
  cfg.max_registers = o.maxrregcount;
  if (o.maxrregcount < 0 || o.maxrregcount > 255)
    return Error{outOfRange("--maxrregcount", o.maxrregcount, "1 … 255 (0 = no cap)")};
  auto layout = tileLayout(cfg);
  if (!layout) return Error{layout.error() + " (--xblock, --rblock, --num-warps, --k)"};
  if ((o.xnumel != 0) != (o.rnumel != 0) && o.xnumel != 0)
    return Error{"--xnumel needs --rnumel (the RBLOCK decisions need both)"};
  std::string loads_note;
  if (o.rnumel != 0) {
    if (cfg.vector_loads && !vectorLoadsAllowed(*layout, o.rnumel)) {
      cfg.vector_loads = false;
      loads_note = "rnumel " + std::to_string(o.rnumel) + " is not a multiple of " + std::to_string(layout->vec) +
                   ": scalar loads";
    }
    if (o.xnumel != 0 && !o.dynamic_shape) {  // the shape baked in, as Inductor's kernels for static shapes
      cfg.static_xnumel = o.xnumel;
      cfg.static_rnumel = o.rnumel;
    }
    auto shape = checkShape(cfg, o.xnumel != 0 ? o.xnumel : 1, o.rnumel);
    if (!shape) return Error{shape.error() + " (--xnumel, --rnumel)"};
  }
  auto gen = generateKernel(cfg);
  if (!gen) return Error{gen.error()};
  return KernelPlan{cfg, *layout, *gen, loads_note};
}

/// What the compile found: the compiler's report, the driver's cross-check, the occupancy it allows
/// and, with --xnumel, each policy's RBLOCK decision.
struct Compiled {
  CompileResult res;
  CrossCheck check;
  OccupancyInput oi;
  OccupancyResult occ;
  std::vector<inductor::Decision> decisions;
};

nlohmann::json layoutJson(const TileLayout& l) {
  return {{"threads_per_block", l.threads_per_block},
          {"vec", l.vec},
          {"vector_bytes", l.vector_bytes},
          {"threads_r", l.threads_r},
          {"threads_x", l.threads_x},
          {"rows_per_thread", l.rows_per_thread},
          {"chunks_per_row", l.chunks_per_row},
          {"elements_per_thread", l.elements_per_thread},
          {"accumulator_tiles", l.accumulator_tiles},
          {"accumulator_values_per_thread", l.accumulator_values_per_thread},
          {"warps_per_row", l.warps_per_row},
          {"replicated_threads", l.replicated_threads}};
}

OccupancyInput occupancyInput(const CompileOpts& o, const KernelPlan& plan, const PtxasReport& rep, const Device& dev) {
  OccupancyInput oi;
  oi.threads_per_block = plan.layout.threads_per_block;
  oi.registers_per_thread = rep.registers;
  oi.static_smem_bytes = rep.static_smem_bytes;
  oi.sm_count = dev.sm_count;
  if (o.xnumel > 0) oi.grid_blocks = (o.xnumel + plan.cfg.xblock - 1) / plan.cfg.xblock;
  return oi;
}

// Each policy's decision for the compiled config (with --xnumel); errors are usage errors.
Expected<std::vector<inductor::Decision>> rblockDecisions(const CompileOpts& o, const KernelPlan& plan,
                                                          const PtxasReport& rep, const Device& dev) {
  std::vector<inductor::Decision> decisions;
  if (o.xnumel <= 0) return decisions;
  auto hints = inductor::sizeHintsFromNumels(o.xnumel, o.rnumel);
  if (!hints) return Error{hints.error()};
  inductor::KernelInfo info;
  info.size_hints = *hints;
  inductor::ReductionConfig rc;
  rc.xblock = plan.cfg.xblock;
  rc.r0_block = plan.cfg.rblock;
  rc.num_warps = plan.cfg.num_warps;
  rc.n_regs = rep.registers;
  rc.n_spills = rep.nSpills();
  rc.shared_bytes = rep.static_smem_bytes;
  for (auto p : inductor::boundPolicies()) {
    auto d = inductor::decide(p, rc, info, dev);
    if (d) decisions.push_back(std::move(d).value());
  }
  return decisions;
}

// Compiles the kernel, then works out the occupancy and the decisions; prints the error and
// returns its exit code when a step fails.
int compileAndJudge(Context& ctx, const CompileOpts& o, const KernelPlan& plan, const Device& dev, CompileCache& cache,
                    std::optional<Compiled>& out) {
  const CompileFunction compile = ctx.backend.compilerWithCache(cache);
  CompileRequest req;
  req.source = plan.gen.source;
  req.kernel_name = plan.gen.name;
  req.arch = dev.arch.cc;
  req.extra_options = o.nvrtc_options;
  auto res = compile(req);
  reportCorruptCacheEntries(ctx.err, kCompileCmd, cache);
  if (!res) return fail(ctx, kCompileCmd, res.error(), kExitRuntime);
  const auto check = ctx.backend.crossCheck(*res);
  const OccupancyInput oi = occupancyInput(o, plan, res->report, dev);
  auto occ = computeOccupancy(dev.arch, oi, false);
  if (!occ) return fail(ctx, kCompileCmd, occ.error(), kExitRuntime);
  auto decisions = rblockDecisions(o, plan, res->report, dev);
  if (!decisions) return fail(ctx, kCompileCmd, decisions.error());
  out = Compiled{*res, check, oi, *occ, *decisions};
  return kExitOk;
}

nlohmann::json compileJson(const CompileOpts& o, const KernelPlan& plan, const Device& dev, const Compiled& c,
                           const CompileCache& cache) {
  const KernelConfig& cfg = plan.cfg;
  const PtxasReport& rep = c.res.report;
  nlohmann::json j;
  j["kernel"] = plan.gen.name;
  j["config"] = {{"workload", workloadName(cfg.workload)},
                 {"dtype", dtypeName(cfg.dtype)},
                 {"k", cfg.k},
                 {"XBLOCK", cfg.xblock},
                 {"RBLOCK", cfg.rblock},
                 {"num_warps", cfg.num_warps},
                 {"vector_loads", cfg.vector_loads},
                 {"output_dtype", dtypeName(outputDType(cfg))}};
  j["layout"] = layoutJson(plan.layout);
  j["arch"] = dev.arch.cc.smName();
  j["device"] = dev.label;
  j["sm_count"] = dev.sm_count;
  j["compiler"] = c.res.compiler;
  j["options"] = c.res.options;
  j["compile_ms"] = c.res.compile_ms;
  j["cache_hit"] = c.res.cache_hit;
  j["cache_dir"] = cache.directory();
  j["report"] = {{"registers_per_thread", rep.registers},
                 {"spill_stores_bytes", rep.spill_stores_bytes},
                 {"spill_loads_bytes", rep.spill_loads_bytes},
                 {"stack_frame_bytes", rep.stack_frame_bytes},
                 {"n_spills", rep.nSpills()},
                 {"smem_bytes", rep.static_smem_bytes},
                 {"constant_bytes", rep.constant_bytes},
                 {"barriers", rep.barriers}};
  j["occupancy"] = occupancyToJson(dev.arch, c.oi, c.occ);
  j["cross_check"] = {{"state", crossCheckStateName(c.check.state)}, {"note", c.check.note}};
  if (!c.decisions.empty()) {
    nlohmann::json d = nlohmann::json::array();
    for (const auto& dec : c.decisions) d.push_back(inductor::decisionToJson(dec));
    j["decisions"] = d;
  }
  if (o.show_source) j["source"] = plan.gen.source;
  j["log"] = c.res.log;
  return j;
}

// One row: the config, what the compiler reported, the occupancy and each policy's decision.
CsvTable compileCsv(const KernelPlan& plan, const Device& dev, const Compiled& c) {
  const KernelConfig& cfg = plan.cfg;
  const PtxasReport& rep = c.res.report;
  CsvTable t;
  t.header = {"kernel",
              "workload",
              "dtype",
              "k",
              "XBLOCK",
              "RBLOCK",
              "num_warps",
              "arch",
              "device",
              "sm_count",
              "registers_per_thread",
              "spill_stores_bytes",
              "spill_loads_bytes",
              "stack_frame_bytes",
              "n_spills",
              "smem_bytes",
              "active_blocks_per_sm",
              "theoretical_occupancy_pct",
              "limiter",
              "compile_ms"};
  std::vector<std::string> row = {plan.gen.name,
                                  std::string(workloadName(cfg.workload)),
                                  std::string(dtypeName(cfg.dtype)),
                                  std::to_string(cfg.k),
                                  std::to_string(cfg.xblock),
                                  std::to_string(cfg.rblock),
                                  std::to_string(cfg.num_warps),
                                  dev.arch.cc.smName(),
                                  dev.label,
                                  std::to_string(dev.sm_count),
                                  std::to_string(rep.registers),
                                  std::to_string(rep.spill_stores_bytes),
                                  std::to_string(rep.spill_loads_bytes),
                                  std::to_string(rep.stack_frame_bytes),
                                  std::to_string(rep.nSpills()),
                                  std::to_string(rep.static_smem_bytes),
                                  std::to_string(c.occ.active_blocks_per_sm),
                                  fixed(100.0 * c.occ.occupancy, 1),
                                  c.occ.can_launch ? limiterNames(c.occ.limiters) : c.occ.cannot_launch_reason,
                                  fixed(c.res.compile_ms, 1)};
  for (const auto& dec : c.decisions) {
    const std::string p(inductor::policyKey(dec.policy));
    t.header.push_back(p + "_decision");
    t.header.push_back(p + "_bound_blocks_per_sm");
    row.push_back(std::string(inductor::outcomeName(dec.outcome)));
    row.push_back(dec.applies ? std::to_string(dec.bound_blocks_per_sm) : std::string());
  }
  t.rows.push_back(std::move(row));
  return t;
}

std::string cacheSummary(const CompileCache& cache) {
  if (cache.directory().empty()) return "off";
  const auto stats = cache.stats();
  return cache.directory() + " (" + std::to_string(stats.hits) + " hit, " + std::to_string(stats.misses) + " miss" +
         (stats.corrupt ? ", " + std::to_string(stats.corrupt) + " corrupt" : "") + ")";
}

TextRows reportRows(const KernelPlan& plan, const Compiled& c, const CompileCache& cache) {
  const auto& rep = c.res.report;
  const auto& l = plan.layout;
  const auto& occ = c.occ;
  TextRows rows = {{"quantity", "value"}};
  rows.push_back({"registers per thread", std::to_string(rep.registers)});
  rows.push_back({"spill stores", std::to_string(rep.spill_stores_bytes) + " B"});
  rows.push_back({"spill loads", std::to_string(rep.spill_loads_bytes) + " B"});
  rows.push_back({"stack frame (local memory)", std::to_string(rep.stack_frame_bytes) + " B per thread"});
  rows.push_back({"n_spills (Triton: local bytes / 4)", std::to_string(rep.nSpills())});
  rows.push_back({"static shared memory", std::to_string(rep.static_smem_bytes) + " B per block"});
  rows.push_back({"accumulator values per thread", std::to_string(l.accumulator_values_per_thread) + " (" +
                                                       std::to_string(l.elements_per_thread) + " per tile × " +
                                                       std::to_string(l.accumulator_tiles) + " tiles)"});
  rows.push_back({"loads", plan.cfg.vector_loads
                               ? std::to_string(l.vector_bytes) + "-byte vectors"
                               : "scalar" + (plan.loads_note.empty() ? "" : " (" + plan.loads_note + ")")});
  rows.push_back({"threads per block", std::to_string(l.threads_per_block)});
  if (occ.can_launch) {
    rows.push_back({"active blocks per SM", std::to_string(occ.active_blocks_per_sm)});
    rows.push_back({"active warps per SM",
                    std::to_string(occ.active_warps_per_sm) + " of " + std::to_string(occ.max_warps_per_sm)});
    rows.push_back({"theoretical occupancy", fixed(100.0 * occ.occupancy, 1) + " %"});
    rows.push_back({"limited by", limiterNames(occ.limiters)});
  } else {
    rows.push_back({"cannot launch", occ.cannot_launch_reason});
  }
  rows.push_back({"driver cross-check", crossCheckStateName(c.check.state) + ": " + c.check.note});
  rows.push_back({"compile cache", cacheSummary(cache)});
  return rows;
}

void printCompileText(Context& ctx, const CompileOpts& o, const KernelPlan& plan, const Device& dev, const Compiled& c,
                      const CompileCache& cache) {
  const auto& res = c.res;
  ctx.out << "Kernel: " << plan.gen.name << " (" << plan.cfg.label() << ")\n";
  ctx.out << "Target: " << dev.arch.cc.smName() << ", " << dev.label << "\n";
  ctx.out << "Compiler: " << res.compiler << " (" << joined(res.options, " ") << "), "
          << (res.cache_hit ? "cache hit (compiled in " + fixed(res.compile_ms, 0) + " ms earlier)"
                            : "compiled in " + fixed(res.compile_ms, 0) + " ms")
          << "\n\n";
  printTable(ctx.out, reportRows(plan, c, cache));
  if (c.decisions.empty()) return;
  ctx.out << "\nRBLOCK scaling for xnumel " << o.xnumel << " × rnumel " << o.rnumel << " on " << dev.label << ":\n";
  TextRows d = {{"policy", "bound (blocks/SM)", "decision", "reason"}};
  for (const auto& dec : c.decisions) {
    d.push_back({std::string(inductor::policyKey(dec.policy)),
                 dec.applies ? std::to_string(dec.bound_blocks_per_sm) : "-",
                 std::string(inductor::outcomeName(dec.outcome)), dec.reason});
  }
  printTable(ctx.out, d);
}

int runCompile(Context& ctx, const CompileOpts& o) {
  auto kernel = resolveKernelTarget(o.arch, o.work, defaultGpuName(ctx.backend));
  if (!kernel) return fail(ctx, kCompileCmd, kernel.error());
  auto plan = planKernel(o, kernel->work);
  if (!plan) return fail(ctx, kCompileCmd, plan.error());
  if (o.show_source && o.output.text()) ctx.out << plan->gen.source << "\n";
  if (const Availability a = ctx.backend.compileAvailability(); !a.available) {
    return fail(ctx, kCompileCmd,
                "cannot compile: " + a.reason +
                    ". Rebuild with the CUDA Toolkit installed to get register and spill counts; 'occx compile "
                    "--show-source' still prints the kernel.",
                kExitRuntime);
  }
  const Device& dev = kernel->device;
  if (std::string msg = uncompilableArchError(ctx.backend, dev.arch.cc); !msg.empty())
    return fail(ctx, kCompileCmd, msg);
  CompileCache cache(o.cache.directory());
  std::optional<Compiled> compiled;
  if (int rc = compileAndJudge(ctx, o, *plan, dev, cache, compiled); rc != kExitOk) return rc;
  if (o.output.json) {
    printJson(ctx.out, compileJson(o, *plan, dev, *compiled, cache));
  } else {
    if (!kernel->note.empty()) ctx.err << "note: " << kernel->note << "\n";
    if (o.output.text()) printCompileText(ctx, o, *plan, dev, *compiled, cache);
  }
  if (!o.output.csv.empty()) return writeCsv(ctx, o.output.csv, compileCsv(*plan, dev, *compiled));
  return kExitOk;
}

void addCompileCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<CompileOpts>();
  auto* cmd = app.add_subcommand(
      "compile", "compile one reduction kernel with NVRTC: registers per thread, spills, shared memory, occupancy");
  o->arch.add(*cmd);
  o->work.add(*cmd);
  cmd->add_option("--xblock", o->xblock, "XBLOCK: rows per block, a power of two 1 … 4096 (default 1)");
  cmd->add_option("--rblock", o->rblock,
                  "RBLOCK: reduction elements per loop step, a power of two 1 … 65536 (default 1024)");
  cmd->add_option("--num-warps", o->num_warps, "warps per block: 1, 2, 4, 8, 16 or 32 (default 8)");
  cmd->add_option("--xnumel", o->xnumel, "rows of the problem: adds the RBLOCK-scaling decisions (needs --rnumel)");
  cmd->add_option("--rnumel", o->rnumel, "reduction length: vector loads only when a multiple of the vector width");
  cmd->add_flag("--scalar-loads", o->scalar_loads, "load one element at a time (any rnumel)");
  cmd->add_flag("--dynamic-shape", o->dynamic_shape,
                "with --xnumel/--rnumel: a kernel that takes the shape at run time (as torch.compile(dynamic=True)); "
                "default: the shape baked in, as Inductor's kernels for static shapes");
  cmd->add_flag("--fp32-outputs", o->fp32_outputs,
                "write outputs in fp32 instead of the input dtype (an upcast graph)");
  cmd->add_option("--maxrregcount", o->maxrregcount, "cap registers per thread (1 … 255), as a capped build would");
  cmd->add_option("--nvrtc-option", o->nvrtc_options, "extra NVRTC option (repeatable)");
  cmd->add_flag("--show-source", o->show_source, "print the generated CUDA C++ source");
  o->output.add(*cmd, "print JSON",
                "also write the result (one row: config, registers, spills, occupancy, decisions) to this CSV file");
  o->cache.add(*cmd);
  setAction(*cmd, ctx, o, &runCompile);
}

const CommandRegistrar kCompile{{"compile", 40, &addCompileCommand}};

}  // namespace
}  // namespace occx::cli
