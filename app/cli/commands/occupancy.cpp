// occx occupancy: the theoretical occupancy of one launch configuration, with its derivation step
// by step; text, JSON (--json) or a CSV file (--csv).
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/format.h"
#include "app/cli/printers/printer.h"
#include "core/occupancy/occupancy.h"
#include "core/occupancy/occupancy_report.h"

namespace occx::cli {
namespace {

constexpr const char* kCmd = "occx occupancy";

struct OccupancyOpts {
  TargetOptions target;
  OccupancyInput in;
  OutputOptions output;
};

// Range checks name the option and the allowed range; empty when all pass. Values in range that
// still cannot launch (e.g. more warps than the register file holds) are reported as "cannot launch".
std::string launchRangeError(const OccupancyInput& in, const ArchLimits& a) {
  if (in.threads_per_block < 1 || in.threads_per_block > a.max_threads_per_block) {
    return outOfRange("--threads", in.threads_per_block, "1 … " + std::to_string(a.max_threads_per_block));
  }
  if (in.registers_per_thread < 0 || in.registers_per_thread > a.max_registers_per_thread) {
    return outOfRange("--regs", in.registers_per_thread, "0 … " + std::to_string(a.max_registers_per_thread));
  }
  if (in.static_smem_bytes < 0 || in.static_smem_bytes > a.shared_memory_per_block) {
    return outOfRange("--smem", in.static_smem_bytes,
                      "0 … " + std::to_string(a.shared_memory_per_block) +
                          " bytes of static shared memory (use --dynamic-smem for more)");
  }
  // Static + dynamic over the opt-in maximum per block can never launch: a usage error here (the
  // calculator view shows the same input as "cannot launch" with the same numbers).
  const std::int64_t dynamic_max = a.shared_memory_per_block_optin - in.static_smem_bytes;
  if (in.dynamic_smem_bytes < 0 || in.dynamic_smem_bytes > dynamic_max) {
    return outOfRange("--dynamic-smem", in.dynamic_smem_bytes,
                      "0 … " + std::to_string(dynamic_max) +
                          " bytes (static + dynamic shared memory per block is at most the opt-in maximum of " +
                          std::to_string(a.shared_memory_per_block_optin) + " B on CC " + a.cc.str() + ")");
  }
  if (in.carveout_percent < -1 || in.carveout_percent > 100) {
    return outOfRange("--carveout", in.carveout_percent, "-1 (default) or 0 … 100");
  }
  if (in.block_barriers < 0 || in.block_barriers > 16) return outOfRange("--barriers", in.block_barriers, "0 … 16");
  // CUDA's largest grid: gridDim.x ≤ 2^31 - 1, gridDim.y and gridDim.z ≤ 65535.
  constexpr std::int64_t kMaxGridBlocks = std::int64_t{2147483647} * 65535 * 65535;
  if (in.grid_blocks < 0 || in.grid_blocks > kMaxGridBlocks) {
    return outOfRange("--grid", in.grid_blocks,
                      "0 (none) … " + std::to_string(kMaxGridBlocks) +
                          " blocks (2147483647 × 65535 × 65535, CUDA's largest grid)");
  }
  return {};
}

TextRows resultRows(const OccupancyInput& in, const OccupancyResult& r) {
  auto lim = [](int v) { return v == kUnlimited ? std::string("unlimited") : std::to_string(v); };
  TextRows rows = {{"quantity", "value"}};
  if (!r.can_launch) rows.push_back({"cannot launch", r.cannot_launch_reason});
  rows.push_back({"active blocks per SM", std::to_string(r.active_blocks_per_sm)});
  rows.push_back({"active warps per SM", std::to_string(r.active_warps_per_sm) + " of " + std::to_string(r.max_warps_per_sm)});
  rows.push_back({"active threads per SM", std::to_string(r.active_threads_per_sm)});
  rows.push_back({"theoretical occupancy", fixed(100.0 * r.occupancy, 1) + " %"});
  rows.push_back({"limited by", limiterNames(r.limiters)});
  rows.push_back({"block limit: warps", lim(r.block_limit_warps)});
  rows.push_back({"block limit: blocks per SM", lim(r.block_limit_blocks)});
  rows.push_back({"block limit: registers", lim(r.block_limit_registers)});
  rows.push_back({"block limit: shared memory", lim(r.block_limit_shared_memory)});
  if (r.block_limit_barriers != kUnlimited) rows.push_back({"block limit: barriers", lim(r.block_limit_barriers)});
  rows.push_back({"registers per block (allocated)", std::to_string(r.registers_per_block_allocated)});
  rows.push_back({"shared memory per block (allocated)", std::to_string(r.shared_memory_per_block_allocated) + " B"});
  rows.push_back({"SM shared memory configuration", std::to_string(r.shared_memory_per_sm_config) + " B"});
  if (r.max_active_blocks_gpu > 0) rows.push_back({"max active blocks on the GPU", std::to_string(r.max_active_blocks_gpu)});
  if (in.grid_blocks > 0 && r.max_active_blocks_gpu > 0) rows.push_back({"waves", fixed(r.waves, 2)});
  return rows;
}

void printText(Context& ctx, const Target& t, const OccupancyInput& in, const OccupancyResult& r) {
  ctx.out << "Target: " << t.label << "\n";
  ctx.out << "Launch: " << in.threads_per_block << " threads/block, " << in.registers_per_thread << " registers/thread, "
          << in.static_smem_bytes << " B static + " << in.dynamic_smem_bytes << " B dynamic shared memory\n\n";
  printTable(ctx.out, resultRows(in, r));
  ctx.out << "\nDerivation:\n";
  int n = 1;
  for (const auto& s : r.derivation) ctx.out << "  " << n++ << ". [" << s.topic << "] " << s.text << "\n";
}

int runOccupancy(Context& ctx, OccupancyOpts& o) {
  auto t = resolveTarget(o.target, defaultGpuName());
  if (!t) return fail(ctx, kCmd, t.error());
  auto& in = o.in;
  if (std::string msg = launchRangeError(in, t->arch); !msg.empty()) return fail(ctx, kCmd, msg);
  in.sm_count = t->sm_count;
  auto r = computeOccupancy(t->arch, in, true);
  if (!r) return fail(ctx, kCmd, r.error());
  if (o.output.json) {
    auto j = occupancyToJson(t->arch, in, *r);
    j["target"] = t->label;
    printJson(ctx.out, j);
  } else if (o.output.text()) {
    printText(ctx, *t, in, *r);
  }
  if (o.output.csv.empty()) return kExitOk;
  auto table = occupancyToCsv(t->arch, in, *r);
  table.meta.insert(table.meta.begin(), {"target", t->label});
  return writeCsv(ctx, o.output.csv, table);
}

void addOccupancyCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<OccupancyOpts>();
  auto* cmd = app.add_subcommand("occupancy", "theoretical occupancy of one launch configuration, step by step");
  o->target.add(*cmd);
  cmd->add_option("--threads", o->in.threads_per_block, "threads per block (1 … 1024)")->required();
  cmd->add_option("--regs", o->in.registers_per_thread, "registers per thread (0 … 255)")->required();
  cmd->add_option("--smem", o->in.static_smem_bytes, "static shared memory per block, bytes (0 … 49152)");
  cmd->add_option("--dynamic-smem", o->in.dynamic_smem_bytes, "dynamic shared memory per block, bytes (0 … the opt-in maximum minus --smem)");
  cmd->add_option("--carveout", o->in.carveout_percent, "shared-memory carveout preference, percent (-1 = default, 0 … 100)");
  cmd->add_option("--barriers", o->in.block_barriers, "block barriers per block (0 … 16; counted from CC 9.0)");
  cmd->add_option("--grid", o->in.grid_blocks, "blocks in the grid, for waves (0 = none … 2147483647 × 65535 × 65535)");
  o->output.add(*cmd, "print JSON instead of text", "also write the result table to this CSV file");
  setAction(*cmd, ctx, o, &runOccupancy);
}

const CommandRegistrar kOccupancy{{"occupancy", 10, &addOccupancyCommand}};

}  // namespace
}  // namespace occx::cli
