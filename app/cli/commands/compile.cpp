// occx compile: generate one reduction kernel of the family, compile it with NVRTC for any
// architecture (no GPU needed), and report registers per thread, spills, shared memory and the
// occupancy they allow; with a GPU of that architecture, cross-check with the driver.
#include <iostream>
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/kernel_options.h"
#include "core/kernels/compile_cache.h"
#include "core/inductor/report.h"
#include "core/kernels/kernel_family.h"
#include "core/occupancy/occupancy.h"
#include "core/occupancy/occupancy_report.h"
#include "occx_config.h"

#if OCCX_HAVE_CUDA
#include "core/cuda/driver_api.h"
#include "core/cuda/nvrtc_compiler.h"
#endif

namespace occx::cli {
namespace {

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
  int maxrregcount = 0;
  std::vector<std::string> nvrtc_options;
  bool show_source = false;
  bool json = false;
};

#if OCCX_HAVE_CUDA
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
#endif

int runCompile(Context& ctx, const CompileOpts& o) {
  const char* cmd = "occx compile";
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
  KernelConfig cfg;
  cfg.workload = work->workload;
  cfg.dtype = work->dtype;
  cfg.k = work->k;
  cfg.xblock = o.xblock;
  cfg.rblock = o.rblock;
  cfg.num_warps = o.num_warps;
  cfg.vector_loads = !o.scalar_loads;
  cfg.fp32_outputs = o.fp32_outputs;
  cfg.max_registers = o.maxrregcount;
  if (o.maxrregcount < 0 || o.maxrregcount > 255) {
    ctx.err << cmd << ": --maxrregcount " << o.maxrregcount << " is out of range: allowed 1 … 255 (0 = no cap)\n";
    return kExitUsage;
  }
  auto layout = tileLayout(cfg);
  if (!layout) {
    ctx.err << cmd << ": " << layout.error() << " (--xblock, --rblock, --num-warps, --k)\n";
    return kExitUsage;
  }
  if ((o.xnumel != 0) != (o.rnumel != 0) && o.xnumel != 0) {
    ctx.err << cmd << ": --xnumel needs --rnumel (the RBLOCK decisions need both)\n";
    return kExitUsage;
  }
  std::string loads_note;
  if (o.rnumel != 0) {
    if (cfg.vector_loads && !vectorLoadsAllowed(*layout, o.rnumel)) {
      cfg.vector_loads = false;
      loads_note = "rnumel " + std::to_string(o.rnumel) + " is not a multiple of " + std::to_string(layout->vec) +
                   ": scalar loads";
    }
    const std::int64_t x = o.xnumel != 0 ? o.xnumel : 1;
    auto shape = checkShape(cfg, x, o.rnumel);
    if (!shape) {
      ctx.err << cmd << ": " << shape.error() << " (--xnumel, --rnumel)\n";
      return kExitUsage;
    }
  }
  auto gen = generateKernel(cfg);
  if (!gen) {
    ctx.err << cmd << ": " << gen.error() << "\n";
    return kExitUsage;
  }
  if (o.show_source && !o.json) ctx.out << gen->source << "\n";

#if !OCCX_HAVE_CUDA
  ctx.err << cmd
          << ": cannot compile: this build of occx has no CUDA Toolkit (NVRTC). Rebuild with the CUDA Toolkit "
             "installed to get register and spill counts; 'occx compile --show-source' still prints the kernel.\n";
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
  CompileCache cache(o.cache.directory());
  cuda::NvrtcCompiler compiler(&cache);
  CompileRequest req;
  req.source = gen->source;
  req.kernel_name = gen->name;
  req.arch = dev->arch.cc;
  req.extra_options = o.nvrtc_options;
  auto res = compiler.compile(req);
  reportCorruptCacheEntries(ctx.err, cmd, cache);
  if (!res) {
    ctx.err << cmd << ": " << res.error() << "\n";
    return kExitRuntime;
  }
  const auto& rep = res->report;
  const auto check = cuda::crossCheckWithDriver(*res);

  OccupancyInput oi;
  oi.threads_per_block = layout->threads_per_block;
  oi.registers_per_thread = rep.registers;
  oi.static_smem_bytes = rep.static_smem_bytes;
  oi.sm_count = dev->sm_count;
  if (o.xnumel > 0) oi.grid_blocks = (o.xnumel + cfg.xblock - 1) / cfg.xblock;
  auto occ = computeOccupancy(dev->arch, oi, false);
  if (!occ) {
    ctx.err << cmd << ": " << occ.error() << "\n";
    return kExitRuntime;
  }
  std::vector<inductor::Decision> decisions;
  if (o.xnumel > 0) {
    auto hints = inductor::sizeHintsFromNumels(o.xnumel, o.rnumel);
    if (!hints) {
      ctx.err << cmd << ": " << hints.error() << "\n";
      return kExitUsage;
    }
    inductor::KernelInfo info;
    info.size_hints = *hints;
    inductor::ReductionConfig rc;
    rc.xblock = cfg.xblock;
    rc.r0_block = cfg.rblock;
    rc.num_warps = cfg.num_warps;
    rc.n_regs = rep.registers;
    rc.n_spills = rep.nSpills();
    rc.shared_bytes = rep.static_smem_bytes;
    for (auto p : inductor::allPolicies()) {
      auto d = inductor::decide(p, rc, info, *dev);
      if (d) decisions.push_back(std::move(d).value());
    }
  }
  const auto stats = cache.stats();
  std::string opts;
  for (const auto& s : res->options) opts += (opts.empty() ? "" : " ") + s;

  if (o.json) {
    nlohmann::json j;
    j["kernel"] = gen->name;
    j["config"] = {{"workload", workloadName(cfg.workload)},
                   {"dtype", dtypeName(cfg.dtype)},
                   {"k", cfg.k},
                   {"XBLOCK", cfg.xblock},
                   {"RBLOCK", cfg.rblock},
                   {"num_warps", cfg.num_warps},
                   {"vector_loads", cfg.vector_loads},
                   {"output_dtype", dtypeName(outputDType(cfg))}};
    j["layout"] = layoutJson(*layout);
    j["arch"] = dev->arch.cc.smName();
    j["device"] = dev->label;
    j["sm_count"] = dev->sm_count;
    j["compiler"] = res->compiler;
    j["options"] = res->options;
    j["compile_ms"] = res->compile_ms;
    j["cache_hit"] = res->cache_hit;
    j["cache_dir"] = cache.directory();
    j["report"] = {{"registers_per_thread", rep.registers},
                   {"spill_stores_bytes", rep.spill_stores_bytes},
                   {"spill_loads_bytes", rep.spill_loads_bytes},
                   {"stack_frame_bytes", rep.stack_frame_bytes},
                   {"n_spills", rep.nSpills()},
                   {"smem_bytes", rep.static_smem_bytes},
                   {"constant_bytes", rep.constant_bytes},
                   {"barriers", rep.barriers}};
    j["occupancy"] = occupancyToJson(dev->arch, oi, *occ);
    j["cross_check"] = {{"state", cuda::crossCheckStateName(check.state)}, {"note", check.note}};
    if (!decisions.empty()) {
      nlohmann::json d = nlohmann::json::array();
      for (const auto& dec : decisions) d.push_back(inductor::decisionToJson(dec));
      j["decisions"] = d;
    }
    if (o.show_source) j["source"] = gen->source;
    j["log"] = res->log;
    ctx.out << j.dump(2) << "\n";
    return kExitOk;
  }
  if (!note.empty()) ctx.err << "note: " << note << "\n";
  ctx.out << "Kernel: " << gen->name << " (" << cfg.label() << ")\n";
  ctx.out << "Target: " << dev->arch.cc.smName() << ", " << dev->label << "\n";
  ctx.out << "Compiler: " << res->compiler << " (" << opts << "), "
          << (res->cache_hit ? "cache hit (compiled in " + fixed(res->compile_ms, 0) + " ms earlier)"
                             : "compiled in " + fixed(res->compile_ms, 0) + " ms")
          << "\n\n";
  const auto& l = *layout;
  std::vector<std::vector<std::string> > rows = {{"quantity", "value"}};
  rows.push_back({"registers per thread", std::to_string(rep.registers)});
  rows.push_back({"spill stores", std::to_string(rep.spill_stores_bytes) + " B"});
  rows.push_back({"spill loads", std::to_string(rep.spill_loads_bytes) + " B"});
  rows.push_back({"stack frame (local memory)", std::to_string(rep.stack_frame_bytes) + " B per thread"});
  rows.push_back({"n_spills (Triton: local bytes / 4)", std::to_string(rep.nSpills())});
  rows.push_back({"static shared memory", std::to_string(rep.static_smem_bytes) + " B per block"});
  rows.push_back({"accumulator values per thread", std::to_string(l.accumulator_values_per_thread) + " (" +
                                                       std::to_string(l.elements_per_thread) + " per tile × " +
                                                       std::to_string(l.accumulator_tiles) + " tiles)"});
  rows.push_back({"loads", cfg.vector_loads ? std::to_string(l.vector_bytes) + "-byte vectors"
                                            : "scalar" + (loads_note.empty() ? "" : " (" + loads_note + ")")});
  rows.push_back({"threads per block", std::to_string(l.threads_per_block)});
  if (occ->can_launch) {
    rows.push_back({"active blocks per SM", std::to_string(occ->active_blocks_per_sm)});
    rows.push_back({"active warps per SM",
                    std::to_string(occ->active_warps_per_sm) + " of " + std::to_string(occ->max_warps_per_sm)});
    rows.push_back({"theoretical occupancy", fixed(100.0 * occ->occupancy, 1) + " %"});
    rows.push_back({"limited by", limiterNames(occ->limiters)});
  } else {
    rows.push_back({"cannot launch", occ->cannot_launch_reason});
  }
  rows.push_back({"driver cross-check", cuda::crossCheckStateName(check.state) + ": " + check.note});
  rows.push_back({"compile cache", cache.directory().empty()
                                       ? std::string("off")
                                       : cache.directory() + " (" + std::to_string(stats.hits) + " hit, " +
                                             std::to_string(stats.misses) + " miss" +
                                             (stats.corrupt ? ", " + std::to_string(stats.corrupt) + " corrupt" : "") +
                                             ")"});
  printTable(ctx.out, rows);
  if (!decisions.empty()) {
    ctx.out << "\nRBLOCK scaling for xnumel " << o.xnumel << " × rnumel " << o.rnumel << " on " << dev->label << ":\n";
    std::vector<std::vector<std::string> > d = {{"policy", "bound (blocks/SM)", "decision", "reason"}};
    for (const auto& dec : decisions) {
      d.push_back({std::string(inductor::policyKey(dec.policy)),
                   dec.applies ? std::to_string(dec.bound_blocks_per_sm) : "-",
                   std::string(inductor::outcomeName(dec.outcome)), dec.reason});
    }
    printTable(ctx.out, d);
  }
  return kExitOk;
#endif
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
  cmd->add_flag("--fp32-outputs", o->fp32_outputs,
                "write outputs in fp32 instead of the input dtype (an upcast graph)");
  cmd->add_option("--maxrregcount", o->maxrregcount, "cap registers per thread (1 … 255), as a capped build would");
  cmd->add_option("--nvrtc-option", o->nvrtc_options, "extra NVRTC option (repeatable)");
  cmd->add_flag("--show-source", o->show_source, "print the generated CUDA C++ source");
  cmd->add_flag("--json", o->json, "print JSON");
  o->cache.add(*cmd);
  cmd->callback([&ctx, o] { ctx.action = [&ctx, o]() -> int { return runCompile(ctx, *o); }; });
}

const CommandRegistrar kCompile{{"compile", 40, &addCompileCommand}};

}  // namespace
}  // namespace occx::cli
