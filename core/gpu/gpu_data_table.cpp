#include "core/gpu/gpu_data_table.h"

#include <string>

namespace occx {

namespace {

std::string list(const std::vector<int>& v) {
  std::string out;
  for (int x : v) out += (out.empty() ? "" : " ") + std::to_string(x);
  return out.empty() ? "(none)" : out;
}

std::string number(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

}  // namespace

CsvTable gpuDataTable(const GpuDatabase& db) {
  CsvTable t;
  t.header = {"entry", "kind", "compute_capability", "field", "value", "source"};
  for (const ArchLimits& a : db.architectures()) {
    const std::string entry = "CC " + a.cc.str() + (a.family.empty() ? "" : " (" + a.family + ")");
    auto add = [&](const char* field, const std::string& value) {
      auto it = a.sources.find(field);
      t.rows.push_back({entry, "architecture", a.cc.str(), field, value, it == a.sources.end() ? "—" : it->second});
    };
    add("warp_size", std::to_string(a.warp_size));
    add("max_threads_per_block", std::to_string(a.max_threads_per_block));
    add("max_warps_per_sm", std::to_string(a.max_warps_per_sm));
    add("max_blocks_per_sm", std::to_string(a.max_blocks_per_sm));
    add("registers_per_sm", std::to_string(a.registers_per_sm));
    add("max_registers_per_block", std::to_string(a.max_registers_per_block));
    add("max_registers_per_thread", std::to_string(a.max_registers_per_thread));
    add("register_allocation_unit", std::to_string(a.register_allocation_unit));
    add("warp_allocation_granularity", std::to_string(a.warp_allocation_granularity));
    add("shared_memory_per_sm", std::to_string(a.shared_memory_per_sm));
    add("shared_memory_per_block", std::to_string(a.shared_memory_per_block));
    add("shared_memory_per_block_optin", std::to_string(a.shared_memory_per_block_optin));
    add("shared_memory_allocation_unit", std::to_string(a.shared_memory_allocation_unit));
    add("reserved_shared_memory_per_block", std::to_string(a.reserved_shared_memory_per_block));
    add("shared_memory_carveout_kb", list(a.shared_memory_carveout_kb));
    add("block_barriers_per_sm", std::to_string(a.block_barriers_per_sm));
    add("max_cluster_size", std::to_string(a.max_cluster_size));
  }
  for (const GpuSpec& g : db.gpus()) {
    const std::string source = g.source.empty() ? "—" : g.source;
    auto add = [&](const char* field, const std::string& value, const std::string& src) {
      t.rows.push_back({g.name, "gpu", g.cc.str(), field, value, src});
    };
    add("sm_count", std::to_string(g.sm_count), source);
    if (g.base_clock_mhz > 0) add("base_clock_mhz", std::to_string(g.base_clock_mhz), source);
    if (g.boost_clock_mhz > 0) add("boost_clock_mhz", std::to_string(g.boost_clock_mhz), source);
    if (g.l2_cache_bytes > 0) add("l2_cache_bytes", std::to_string(g.l2_cache_bytes), source);
    if (g.memory_bus_bits > 0) add("memory_bus_bits", std::to_string(g.memory_bus_bits), source);
    if (!g.memory_type.empty()) add("memory_type", g.memory_type, source);
    if (g.memory_gib > 0) add("memory_gib", number(g.memory_gib), source);
    if (g.memory_bandwidth_GBps > 0) add("memory_bandwidth_GBps", number(g.memory_bandwidth_GBps), source);
    if (!g.cluster_gpc_sm_counts.empty()) {
      const std::string src = g.cluster_layout_source.empty() ? "—" : g.cluster_layout_source;
      add("cluster_gpc_sm_counts", list(g.cluster_gpc_sm_counts), src);
      add("cluster_blocks_per_sm_cap", std::to_string(g.cluster_blocks_per_sm_cap), src);
    }
  }
  return t;
}

}  // namespace occx
