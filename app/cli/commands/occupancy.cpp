// occx occupancy: the theoretical occupancy of one launch configuration, with its derivation step
// by step; text, JSON (--json) or a CSV file (--csv).
#include <memory>
#include <optional>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/format.h"
#include "app/cli/printers/printer.h"
#include "core/occupancy/clusters.h"
#include "core/occupancy/occupancy.h"
#include "core/occupancy/occupancy_report.h"

namespace occx::cli {
namespace {

constexpr const char* kOccupancyCmd = "occx occupancy";

struct OccupancyOpts {
  TargetOptions target;
  OccupancyInput in;
  OutputOptions output;
  int cluster_size = 0;  ///< 0: no clusters
  bool non_portable = false;
  bool best_block_size = false;
  int block_size_limit = 0;
  bool driver = false;
};

// What occx occupancy computes beside the occupancy itself.
struct Extras {
  std::optional<ClusterResult> clusters;
  ClusterLayout layout;
  ClusterInput cluster_input;
  std::optional<BestBlockSize> best;
  std::optional<DriverOccupancy> driver;
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
    return outOfRange(
        "--grid", in.grid_blocks,
        "0 (none) … " + std::to_string(kMaxGridBlocks) + " blocks (2147483647 × 65535 × 65535, CUDA's largest grid)");
  }
  return {};
}

TextRows resultRows(const OccupancyInput& in, const OccupancyResult& r) {
  auto lim = [](int v) { return v == kUnlimited ? std::string("unlimited") : std::to_string(v); };
  TextRows rows = {{"quantity", "value"}};
  if (!r.can_launch) rows.push_back({"cannot launch", r.cannot_launch_reason});
  rows.push_back({"active blocks per SM", std::to_string(r.active_blocks_per_sm)});
  rows.push_back(
      {"active warps per SM", std::to_string(r.active_warps_per_sm) + " of " + std::to_string(r.max_warps_per_sm)});
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
  if (r.max_active_blocks_gpu > 0)
    rows.push_back({"max active blocks on the GPU", std::to_string(r.max_active_blocks_gpu)});
  if (in.grid_blocks > 0 && r.max_active_blocks_gpu > 0) rows.push_back({"waves", fixed(r.waves, 2)});
  return rows;
}

void addExtraRows(TextRows& rows, const Extras& x) {
  if (x.clusters) {
    const ClusterResult& c = *x.clusters;
    rows.push_back({"cluster size", std::to_string(c.cluster_size) +
                                        (x.cluster_input.non_portable ? " (non-portable allowed)" : " (portable)")});
    rows.push_back(
        {"max active clusters", std::to_string(c.max_active_clusters) +
                                    (c.layout_known ? " (GPC model)" : " (upper bound: GPC layout unknown)")});
    rows.push_back({"naive floor(blocks on GPU / cluster size)", std::to_string(c.naive_max_active_clusters)});
    rows.push_back({"active blocks in clusters", std::to_string(c.active_blocks_in_clusters) + " of " +
                                                     std::to_string(c.active_blocks_without_clusters) +
                                                     " without clusters"});
    rows.push_back({"cluster occupancy", fixed(100.0 * c.cluster_occupancy, 1) + " %"});
    rows.push_back({"max potential cluster size", std::to_string(c.max_potential_cluster_size)});
  }
  if (x.best) {
    const BestBlockSize& b = *x.best;
    rows.push_back({"best block size",
                    b.block_size > 0 ? std::to_string(b.block_size) + " threads" : std::string("none can launch")});
    if (b.block_size > 0) {
      rows.push_back({"best block size: occupancy", fixed(100.0 * b.occupancy, 1) + " % (" +
                                                        std::to_string(b.active_blocks_per_sm) + " blocks per SM)"});
      if (b.min_grid_size > 0)
        rows.push_back({"best block size: min grid for full GPU", std::to_string(b.min_grid_size) + " blocks"});
    }
  }
  if (x.driver) {
    const DriverOccupancy& d = *x.driver;
    rows.push_back({"driver (" + d.device_name + "): active blocks per SM", std::to_string(d.active_blocks_per_sm)});
    if (d.max_active_clusters >= 0)
      rows.push_back({"driver: max active clusters", std::to_string(d.max_active_clusters)});
    if (d.max_potential_cluster_size_portable >= 0) {
      rows.push_back({"driver: max potential cluster size",
                      std::to_string(d.max_potential_cluster_size_portable) + " portable, " +
                          std::to_string(d.max_potential_cluster_size_nonportable) + " non-portable"});
    }
    if (d.best_block_size >= 0) {
      rows.push_back({"driver: best block size",
                      std::to_string(d.best_block_size) + " (min grid " + std::to_string(d.best_min_grid_size) + ")"});
    }
    rows.push_back({"driver: probe", d.note});
  }
}

void printText(Context& ctx, const Target& t, const OccupancyInput& in, const OccupancyResult& r, const Extras& x) {
  ctx.out << "Target: " << t.label << "\n";
  ctx.out << "Launch: " << in.threads_per_block << " threads/block, " << in.registers_per_thread
          << " registers/thread, " << in.static_smem_bytes << " B static + " << in.dynamic_smem_bytes
          << " B dynamic shared memory\n\n";
  TextRows rows = resultRows(in, r);
  addExtraRows(rows, x);
  printTable(ctx.out, rows);
  ctx.out << "\nDerivation:\n";
  int n = 1;
  for (const auto& s : r.derivation) ctx.out << "  " << n++ << ". [" << s.topic << "] " << s.text << "\n";
  if (x.clusters) {
    for (const auto& s : x.clusters->derivation) ctx.out << "  " << n++ << ". [" << s.topic << "] " << s.text << "\n";
  }
}

int runOccupancy(Context& ctx, OccupancyOpts& o) {
  auto t = resolveTarget(o.target, defaultGpuName(ctx.backend));
  if (!t) return fail(ctx, kOccupancyCmd, t.error());
  auto& in = o.in;
  if (std::string msg = launchRangeError(in, t->arch); !msg.empty()) return fail(ctx, kOccupancyCmd, msg);
  in.sm_count = t->sm_count;
  Extras x;
  x.cluster_input = {o.cluster_size, o.non_portable};
  if (o.cluster_size != 0) {
    if (std::string msg = clusterSizeError(t->arch, x.cluster_input); !msg.empty()) {
      return fail(ctx, kOccupancyCmd, "--cluster-size: " + msg);
    }
    if (t->sm_count <= 0)
      return fail(ctx, kOccupancyCmd, "--cluster-size needs a GPU's SM count: give --gpu NAME or --sms N with --cc");
  } else if (o.non_portable) {
    return fail(ctx, kOccupancyCmd, "--non-portable-clusters needs --cluster-size");
  }
  if (o.block_size_limit < 0 || o.block_size_limit > t->arch.max_threads_per_block) {
    return fail(ctx, kOccupancyCmd,
                outOfRange("--block-size-limit", o.block_size_limit,
                           "0 (none) … " + std::to_string(t->arch.max_threads_per_block)));
  }
  auto r = computeOccupancy(t->arch, in, true);
  if (!r) return fail(ctx, kOccupancyCmd, r.error());
  if (o.cluster_size != 0) {
    // The recorded layout applies to the GPU's own SM count only (not to an --sms override).
    if (t->gpu && t->gpu->sm_count == t->sm_count) x.layout = clusterLayoutOf(*t->gpu);
    auto c = computeClusters(t->arch, x.layout, t->sm_count, *r, x.cluster_input, true);
    if (!c) return fail(ctx, kOccupancyCmd, c.error());
    x.clusters = std::move(c).value();
  }
  if (o.best_block_size) {
    auto b = bestBlockSize(t->arch, in, o.block_size_limit);
    if (!b) return fail(ctx, kOccupancyCmd, b.error());
    x.best = *b;
  }
  if (o.driver) {
    DriverOccupancyQuery q;
    q.registers_per_thread = in.registers_per_thread;
    q.threads_per_block = in.threads_per_block;
    q.shared_memory_bytes = in.static_smem_bytes + in.dynamic_smem_bytes;
    q.cluster_size = o.cluster_size;
    q.block_size_limit = o.block_size_limit;
    auto d = ctx.backend.driverOccupancy(q);
    if (!d) return fail(ctx, kOccupancyCmd, "--driver: " + d.error(), kExitRuntime);
    if (d->cc != t->arch.cc) {
      return fail(
          ctx, kOccupancyCmd,
          "--driver: device 0 (" + d->device_name + ") is CC " + d->cc.str() + ", the target CC " + t->arch.cc.str(),
          kExitRuntime);
    }
    x.driver = *d;
  }
  if (o.output.json) {
    auto j = occupancyToJson(t->arch, in, *r);
    j["target"] = t->label;
    if (x.clusters) j["clusters"] = clustersToJson(x.cluster_input, x.layout, *x.clusters);
    if (x.best) j["best_block_size"] = bestBlockSizeToJson(*x.best, o.block_size_limit);
    if (x.driver) j["driver"] = driverOccupancyToJson(*x.driver);
    printJson(ctx.out, j);
  } else if (o.output.text()) {
    printText(ctx, *t, in, *r, x);
  }
  if (o.output.csv.empty()) return kExitOk;
  auto table = occupancyToCsv(t->arch, in, *r);
  table.meta.insert(table.meta.begin(), {"target", t->label});
  if (x.clusters) appendClustersToCsv(table, x.cluster_input, *x.clusters);
  if (x.best) appendBestBlockSizeToCsv(table, *x.best, o.block_size_limit);
  if (x.driver) appendDriverOccupancyToCsv(table, *x.driver);
  return writeCsv(ctx, o.output.csv, table);
}

void addOccupancyCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<OccupancyOpts>();
  auto* cmd = app.add_subcommand("occupancy", "theoretical occupancy of one launch configuration, step by step");
  o->target.add(*cmd);
  cmd->add_option("--threads", o->in.threads_per_block, "threads per block (1 … 1024)")->required();
  cmd->add_option("--regs", o->in.registers_per_thread, "registers per thread (0 … 255)")->required();
  cmd->add_option("--smem", o->in.static_smem_bytes, "static shared memory per block, bytes (0 … 49152)");
  cmd->add_option("--dynamic-smem", o->in.dynamic_smem_bytes,
                  "dynamic shared memory per block, bytes (0 … the opt-in maximum minus --smem)");
  cmd->add_option("--carveout", o->in.carveout_percent,
                  "shared-memory carveout preference, percent (-1 = default, 0 … 100)");
  cmd->add_option("--barriers", o->in.block_barriers, "block barriers per block (0 … 16; counted from CC 9.0)");
  cmd->add_option("--grid", o->in.grid_blocks, "blocks in the grid, for waves (0 = none … 2147483647 × 65535 × 65535)");
  cmd->add_option("--cluster-size", o->cluster_size,
                  "thread-block cluster size, blocks (CC 9.0+: 1 … 8 portable, up to 16 with --non-portable-clusters, "
                  "the non-portable cluster sizes)");
  cmd->add_flag("--non-portable-clusters", o->non_portable,
                "allow cluster sizes above the portable 8 (CC 9.0: up to 16)");
  cmd->add_flag("--best-block-size", o->best_block_size,
                "also give the block size cudaOccupancyMaxPotentialBlockSize would choose, and its smallest full grid");
  cmd->add_option("--block-size-limit", o->block_size_limit,
                  "largest block size --best-block-size may choose (0 = none … 1024)");
  cmd->add_flag("--driver", o->driver, "also ask device 0's driver (needs a GPU of the target's compute capability)");
  o->output.add(*cmd, "print JSON instead of text", "also write the result table to this CSV file");
  setAction(*cmd, ctx, o, &runOccupancy);
}

const CommandRegistrar kOccupancy{{"occupancy", 10, &addOccupancyCommand}};

}  // namespace
}  // namespace occx::cli
