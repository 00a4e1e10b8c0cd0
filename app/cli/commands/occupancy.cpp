// occx occupancy: the calculator with its derivation; occx gpus: the GPU data.
#include <iostream>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "core/occupancy/occupancy.h"
#include "core/occupancy/occupancy_report.h"

namespace occx::cli {
namespace {

void addOccupancyCommand(CLI::App& app, Context& ctx) {
  struct Opts {
    TargetOptions target;
    OccupancyInput in;
    bool json = false;
    std::string csv;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("occupancy", "theoretical occupancy of one launch configuration, step by step");
  o->target.add(*cmd);
  cmd->add_option("--threads", o->in.threads_per_block, "threads per block (1 … 1024)")->required();
  cmd->add_option("--regs", o->in.registers_per_thread, "registers per thread (0 … 255)")->required();
  cmd->add_option("--smem", o->in.static_smem_bytes, "static shared memory per block, bytes (0 … 49152)");
  cmd->add_option("--dynamic-smem", o->in.dynamic_smem_bytes, "dynamic shared memory per block, bytes (0 … the opt-in maximum minus --smem)");
  cmd->add_option("--carveout", o->in.carveout_percent, "shared-memory carveout preference, percent (-1 = default, 0 … 100)");
  cmd->add_option("--barriers", o->in.block_barriers, "block barriers per block (0 … 16; counted from CC 9.0)");
  cmd->add_option("--grid", o->in.grid_blocks, "blocks in the grid, for waves (0 = none … 2147483647 × 65535 × 65535)");
  cmd->add_flag("--json", o->json, "print JSON instead of text");
  cmd->add_option("--csv", o->csv, "also write the result table to this CSV file");
  cmd->callback([&ctx, o] {
    ctx.action = [&ctx, o]() -> int {
      auto t = resolveTarget(o->target, defaultGpuName());
      if (!t) {
        ctx.err << "occx occupancy: " << t.error() << "\n";
        return kExitUsage;
      }
      auto& in = o->in;
      const auto& a = t->arch;
      // Range checks name the option and the allowed range. Values in range that still cannot
      // launch (e.g. more warps than the register file holds) are reported as "cannot launch".
      if (in.threads_per_block < 1 || in.threads_per_block > a.max_threads_per_block) {
        ctx.err << "occx occupancy: --threads " << in.threads_per_block << " is out of range: allowed 1 … "
                << a.max_threads_per_block << "\n";
        return kExitUsage;
      }
      if (in.registers_per_thread < 0 || in.registers_per_thread > a.max_registers_per_thread) {
        ctx.err << "occx occupancy: --regs " << in.registers_per_thread << " is out of range: allowed 0 … "
                << a.max_registers_per_thread << "\n";
        return kExitUsage;
      }
      if (in.static_smem_bytes < 0 || in.static_smem_bytes > a.shared_memory_per_block) {
        ctx.err << "occx occupancy: --smem " << in.static_smem_bytes << " is out of range: allowed 0 … "
                << a.shared_memory_per_block << " bytes of static shared memory (use --dynamic-smem for more)\n";
        return kExitUsage;
      }
      // Static + dynamic over the opt-in maximum per block can never launch: a usage error here (the
      // calculator view shows the same input as "cannot launch" with the same numbers).
      const std::int64_t dynamic_max = a.shared_memory_per_block_optin - in.static_smem_bytes;
      if (in.dynamic_smem_bytes < 0 || in.dynamic_smem_bytes > dynamic_max) {
        ctx.err << "occx occupancy: --dynamic-smem " << in.dynamic_smem_bytes << " is out of range: allowed 0 … "
                << dynamic_max << " bytes (static + dynamic shared memory per block is at most the opt-in maximum of "
                << a.shared_memory_per_block_optin << " B on CC " << a.cc.str() << ")\n";
        return kExitUsage;
      }
      if (in.carveout_percent < -1 || in.carveout_percent > 100) {
        ctx.err << "occx occupancy: --carveout " << in.carveout_percent << " is out of range: allowed -1 (default) or 0 … 100\n";
        return kExitUsage;
      }
      if (in.block_barriers < 0 || in.block_barriers > 16) {
        ctx.err << "occx occupancy: --barriers " << in.block_barriers << " is out of range: allowed 0 … 16\n";
        return kExitUsage;
      }
      // CUDA's largest grid: gridDim.x ≤ 2^31 - 1, gridDim.y and gridDim.z ≤ 65535.
      constexpr std::int64_t kMaxGridBlocks = std::int64_t{2147483647} * 65535 * 65535;
      if (in.grid_blocks < 0 || in.grid_blocks > kMaxGridBlocks) {
        ctx.err << "occx occupancy: --grid " << in.grid_blocks << " is out of range: allowed 0 (none) … " << kMaxGridBlocks
                << " blocks (2147483647 × 65535 × 65535, CUDA's largest grid)\n";
        return kExitUsage;
      }
      in.sm_count = t->sm_count;
      auto r = computeOccupancy(a, in, true);
      if (!r) {
        ctx.err << "occx occupancy: " << r.error() << "\n";
        return kExitUsage;
      }
      if (o->json) {
        auto j = occupancyToJson(a, in, *r);
        j["target"] = t->label;
        ctx.out << j.dump(2) << "\n";
      } else {
        ctx.out << "Target: " << t->label << "\n";
        ctx.out << "Launch: " << in.threads_per_block << " threads/block, " << in.registers_per_thread << " registers/thread, "
                << in.static_smem_bytes << " B static + " << in.dynamic_smem_bytes << " B dynamic shared memory\n\n";
        auto lim = [](int v) { return v == kUnlimited ? std::string("unlimited") : std::to_string(v); };
        std::vector<std::vector<std::string>> rows = {{"quantity", "value"}};
        if (!r->can_launch) rows.push_back({"cannot launch", r->cannot_launch_reason});
        rows.push_back({"active blocks per SM", std::to_string(r->active_blocks_per_sm)});
        rows.push_back({"active warps per SM", std::to_string(r->active_warps_per_sm) + " of " + std::to_string(r->max_warps_per_sm)});
        rows.push_back({"active threads per SM", std::to_string(r->active_threads_per_sm)});
        rows.push_back({"theoretical occupancy", fixed(100.0 * r->occupancy, 1) + " %"});
        rows.push_back({"limited by", limiterNames(r->limiters)});
        rows.push_back({"block limit: warps", lim(r->block_limit_warps)});
        rows.push_back({"block limit: blocks per SM", lim(r->block_limit_blocks)});
        rows.push_back({"block limit: registers", lim(r->block_limit_registers)});
        rows.push_back({"block limit: shared memory", lim(r->block_limit_shared_memory)});
        if (r->block_limit_barriers != kUnlimited) rows.push_back({"block limit: barriers", lim(r->block_limit_barriers)});
        rows.push_back({"registers per block (allocated)", std::to_string(r->registers_per_block_allocated)});
        rows.push_back({"shared memory per block (allocated)", std::to_string(r->shared_memory_per_block_allocated) + " B"});
        rows.push_back({"SM shared memory configuration", std::to_string(r->shared_memory_per_sm_config) + " B"});
        if (r->max_active_blocks_gpu > 0) rows.push_back({"max active blocks on the GPU", std::to_string(r->max_active_blocks_gpu)});
        if (in.grid_blocks > 0 && r->max_active_blocks_gpu > 0) rows.push_back({"waves", fixed(r->waves, 2)});
        printTable(ctx.out, rows);
        ctx.out << "\nDerivation:\n";
        int n = 1;
        for (const auto& s : r->derivation) ctx.out << "  " << n++ << ". [" << s.topic << "] " << s.text << "\n";
      }
      if (!o->csv.empty()) {
        auto table = occupancyToCsv(a, in, *r);
        table.meta.insert(table.meta.begin(), {"target", t->label});
        return writeCsv(ctx, o->csv, table);
      }
      return kExitOk;
    };
  });
}

void addGpusCommand(CLI::App& app, Context& ctx) {
  struct Opts {
    TargetOptions target;
    bool json = false;
    std::string csv;
  };
  auto o = std::make_shared<Opts>();
  auto* cmd = app.add_subcommand("gpus", "list the GPU data: named GPUs and per-compute-capability limits");
  cmd->add_option("--gpu-data", o->target.gpu_data_file, "read GPU data from this JSON file instead of the built-in data");
  cmd->add_flag("--json", o->json, "print JSON");
  cmd->add_option("--csv", o->csv, "also write the GPU table to this CSV file");
  cmd->callback([&ctx, o] {
    ctx.action = [&ctx, o]() -> int {
      GpuDatabase db = GpuDatabase::builtin();
      if (!o->target.gpu_data_file.empty()) {
        auto loaded = GpuDatabase::load(o->target.gpu_data_file);
        if (!loaded) {
          ctx.err << "occx gpus: --gpu-data: " << loaded.error() << "\n";
          return kExitUsage;
        }
        db = std::move(loaded).value();
      }
      CsvTable t;
      t.header = {"name", "aliases", "cc", "sm_count", "boost_clock_MHz", "l2_cache_MiB", "memory_bus_bits", "memory_type",
                  "memory_bandwidth_GBps"};
      for (const auto& g : db.gpus()) {
        std::string aliases;
        for (const auto& a : g.aliases) aliases += (aliases.empty() ? "" : " ") + a;
        t.rows.push_back({g.name, aliases, g.cc.str(), std::to_string(g.sm_count), std::to_string(g.boost_clock_mhz),
                          fixed(static_cast<double>(g.l2_cache_bytes) / (1024.0 * 1024.0), 0), std::to_string(g.memory_bus_bits),
                          g.memory_type, fixed(g.memory_bandwidth_GBps, 0)});
      }
      if (o->json) {
        nlohmann::json j = nlohmann::json::array();
        for (const auto& r : t.rows) {
          nlohmann::json row;
          for (std::size_t i = 0; i < t.header.size(); ++i) row[t.header[i]] = r[i];
          j.push_back(row);
        }
        nlohmann::json archs = nlohmann::json::array();
        for (const auto& a : db.architectures()) {
          archs.push_back({{"cc", a.cc.str()}, {"family", a.family}, {"max_warps_per_sm", a.max_warps_per_sm},
                           {"max_blocks_per_sm", a.max_blocks_per_sm}, {"registers_per_sm", a.registers_per_sm},
                           {"shared_memory_per_sm", a.shared_memory_per_sm},
                           {"shared_memory_per_block_optin", a.shared_memory_per_block_optin}});
        }
        ctx.out << nlohmann::json{{"gpus", j}, {"architectures", archs}}.dump(2) << "\n";
      } else {
        std::vector<std::vector<std::string>> rows = {t.header};
        rows.insert(rows.end(), t.rows.begin(), t.rows.end());
        printTable(ctx.out, rows);
        ctx.out << "\nCompute capabilities:\n";
        std::vector<std::vector<std::string>> arows = {
            {"cc", "family", "warps/SM", "blocks/SM", "regs/SM", "regs/block", "smem/SM (B)", "smem/block opt-in (B)", "smem unit (B)",
             "reserved/block (B)", "carveout sizes (KB)"}};
        for (const auto& a : db.architectures()) {
          std::string carve;
          for (int kb : a.shared_memory_carveout_kb) carve += (carve.empty() ? "" : ",") + std::to_string(kb);
          arows.push_back({a.cc.str(), a.family, std::to_string(a.max_warps_per_sm), std::to_string(a.max_blocks_per_sm),
                           std::to_string(a.registers_per_sm), std::to_string(a.max_registers_per_block),
                           std::to_string(a.shared_memory_per_sm), std::to_string(a.shared_memory_per_block_optin),
                           std::to_string(a.shared_memory_allocation_unit), std::to_string(a.reserved_shared_memory_per_block),
                           carve.empty() ? "fixed" : carve});
        }
        printTable(ctx.out, arows);
      }
      if (!o->csv.empty()) return writeCsv(ctx, o->csv, t);
      return kExitOk;
    };
  });
}

const CommandRegistrar kOccupancy{{"occupancy", 10, &addOccupancyCommand}};
const CommandRegistrar kGpus{{"gpus", 5, &addGpusCommand}};

}  // namespace
}  // namespace occx::cli
