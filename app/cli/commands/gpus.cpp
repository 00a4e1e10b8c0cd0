// occx gpus: the GPU data: the named GPUs and the limits of each compute capability; text, JSON
// (--json) or a CSV file of the GPUs (--csv).
#include <memory>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/options/output_options.h"
#include "app/cli/printers/format.h"
#include "app/cli/printers/printer.h"

namespace occx::cli {
namespace {

struct GpusOpts {
  TargetOptions target;  ///< only --gpu-data
  OutputOptions output;
};

CsvTable gpuTable(const GpuDatabase& db) {
  CsvTable t;
  t.header = {"name",
              "aliases",
              "cc",
              "sm_count",
              "boost_clock_MHz",
              "l2_cache_MiB",
              "memory_bus_bits",
              "memory_type",
              "memory_bandwidth_GBps"};
  for (const auto& g : db.gpus()) {
    t.rows.push_back({g.name, joined(g.aliases, " "), g.cc.str(), std::to_string(g.sm_count),
                      std::to_string(g.boost_clock_mhz),
                      fixed(static_cast<double>(g.l2_cache_bytes) / (1024.0 * 1024.0), 0),
                      std::to_string(g.memory_bus_bits), g.memory_type, fixed(g.memory_bandwidth_GBps, 0)});
  }
  return t;
}

void printGpusJson(Context& ctx, const GpuDatabase& db, const CsvTable& gpus) {
  nlohmann::json archs = nlohmann::json::array();
  for (const auto& a : db.architectures()) {
    archs.push_back({{"cc", a.cc.str()},
                     {"family", a.family},
                     {"max_warps_per_sm", a.max_warps_per_sm},
                     {"max_blocks_per_sm", a.max_blocks_per_sm},
                     {"registers_per_sm", a.registers_per_sm},
                     {"shared_memory_per_sm", a.shared_memory_per_sm},
                     {"shared_memory_per_block_optin", a.shared_memory_per_block_optin}});
  }
  printJson(ctx.out, nlohmann::json{{"gpus", rowsToJson(gpus)}, {"architectures", archs}});
}

TextRows architectureRows(const GpuDatabase& db) {
  TextRows rows = {{"cc", "family", "warps/SM", "blocks/SM", "regs/SM", "regs/block", "smem/SM (B)",
                    "smem/block opt-in (B)", "smem unit (B)", "reserved/block (B)", "carveout sizes (KB)"}};
  for (const auto& a : db.architectures()) {
    const std::string carve = joined(a.shared_memory_carveout_kb, ",", [](int kb) { return std::to_string(kb); });
    rows.push_back({a.cc.str(), a.family, std::to_string(a.max_warps_per_sm), std::to_string(a.max_blocks_per_sm),
                    std::to_string(a.registers_per_sm), std::to_string(a.max_registers_per_block),
                    std::to_string(a.shared_memory_per_sm), std::to_string(a.shared_memory_per_block_optin),
                    std::to_string(a.shared_memory_allocation_unit), std::to_string(a.reserved_shared_memory_per_block),
                    carve.empty() ? "fixed" : carve});
  }
  return rows;
}

int runGpus(Context& ctx, const GpusOpts& o) {
  GpuDatabase db = GpuDatabase::builtin();
  if (!o.target.gpu_data_file.empty()) {
    auto loaded = GpuDatabase::load(o.target.gpu_data_file);
    if (!loaded) return fail(ctx, "occx gpus", "--gpu-data: " + loaded.error());
    db = std::move(loaded).value();
  }
  const CsvTable gpus = gpuTable(db);
  if (o.output.json) {
    printGpusJson(ctx, db, gpus);
  } else if (o.output.text()) {
    TextTablePrinter(ctx.out).print(gpus);
    ctx.out << "\nCompute capabilities:\n";
    printTable(ctx.out, architectureRows(db));
  }
  if (!o.output.csv.empty()) return writeCsv(ctx, o.output.csv, gpus);
  return kExitOk;
}

void addGpusCommand(CLI::App& app, Context& ctx) {
  auto o = std::make_shared<GpusOpts>();
  auto* cmd = app.add_subcommand("gpus", "list the GPU data: named GPUs and per-compute-capability limits");
  o->target.addGpuData(*cmd);
  o->output.add(*cmd, "print JSON", "also write the GPU table to this CSV file");
  setAction(*cmd, ctx, o, &runGpus);
}

const CommandRegistrar kGpus{{"gpus", 5, &addGpusCommand}};

}  // namespace
}  // namespace occx::cli
