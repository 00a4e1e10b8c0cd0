#include "core/occupancy/occupancy_report.h"

#include "core/base/format.h"

namespace occx {

namespace {
nlohmann::json limitJson(int v) {
  return v == kUnlimited ? nlohmann::json(nullptr) : nlohmann::json(v);
}
std::string limitText(int v) {
  return v == kUnlimited ? std::string("unlimited") : num(v);
}
std::string percent(double f) {
  return fixed(100.0 * f, 2);
}
}  // namespace

nlohmann::json occupancyToJson(const ArchLimits& a, const OccupancyInput& in, const OccupancyResult& r) {
  nlohmann::json j;
  j["compute_capability"] = a.cc.str();
  j["input"] = {{"threads_per_block", in.threads_per_block},
                {"registers_per_thread", in.registers_per_thread},
                {"static_smem_bytes", in.static_smem_bytes},
                {"dynamic_smem_bytes", in.dynamic_smem_bytes},
                {"carveout_percent", in.carveout_percent},
                {"block_barriers", in.block_barriers},
                {"grid_blocks", in.grid_blocks},
                {"sm_count", in.sm_count}};
  nlohmann::json limiters = nlohmann::json::array();
  for (unsigned bit : {kLimitWarps, kLimitRegisters, kLimitSharedMemory, kLimitBlocks, kLimitBarriers}) {
    if (r.limiters & bit) limiters.push_back(limiterNames(bit));
  }
  j["result"] = {{"can_launch", r.can_launch},
                 {"cannot_launch_reason", r.cannot_launch_reason},
                 {"active_blocks_per_sm", r.active_blocks_per_sm},
                 {"active_warps_per_sm", r.active_warps_per_sm},
                 {"active_threads_per_sm", r.active_threads_per_sm},
                 {"max_warps_per_sm", r.max_warps_per_sm},
                 {"warps_per_block", r.warps_per_block},
                 {"occupancy", r.occupancy},
                 {"block_limit_warps", limitJson(r.block_limit_warps)},
                 {"block_limit_blocks", limitJson(r.block_limit_blocks)},
                 {"block_limit_registers", limitJson(r.block_limit_registers)},
                 {"block_limit_shared_memory", limitJson(r.block_limit_shared_memory)},
                 {"block_limit_barriers", limitJson(r.block_limit_barriers)},
                 {"limited_by", limiters},
                 {"registers_per_warp_allocated", r.registers_per_warp_allocated},
                 {"registers_per_block_allocated", r.registers_per_block_allocated},
                 {"shared_memory_per_block_allocated_bytes", r.shared_memory_per_block_allocated},
                 {"shared_memory_per_sm_config_bytes", r.shared_memory_per_sm_config},
                 {"max_active_blocks_gpu", r.max_active_blocks_gpu},
                 {"waves", r.waves}};
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& s : r.derivation) steps.push_back({{"topic", s.topic}, {"text", s.text}});
  j["derivation"] = steps;
  return j;
}

CsvTable occupancyToCsv(const ArchLimits& a, const OccupancyInput& in, const OccupancyResult& r) {
  CsvTable t;
  t.meta = {{"compute_capability", a.cc.str()}, {"family", a.family}};
  t.header = {"quantity", "value"};
  auto add = [&](const char* k, const std::string& v) { t.rows.push_back({k, v}); };
  add("threads_per_block", std::to_string(in.threads_per_block));
  add("registers_per_thread", std::to_string(in.registers_per_thread));
  add("static_smem_bytes", std::to_string(in.static_smem_bytes));
  add("dynamic_smem_bytes", std::to_string(in.dynamic_smem_bytes));
  add("carveout_percent", std::to_string(in.carveout_percent));
  add("block_barriers", std::to_string(in.block_barriers));
  add("can_launch", r.can_launch ? "yes" : "no");
  add("cannot_launch_reason", r.cannot_launch_reason);
  add("active_blocks_per_sm", std::to_string(r.active_blocks_per_sm));
  add("active_warps_per_sm", std::to_string(r.active_warps_per_sm));
  add("active_threads_per_sm", std::to_string(r.active_threads_per_sm));
  add("max_warps_per_sm", std::to_string(r.max_warps_per_sm));
  add("theoretical_occupancy_pct", percent(r.occupancy));
  add("block_limit_warps", limitText(r.block_limit_warps));
  add("block_limit_blocks", limitText(r.block_limit_blocks));
  add("block_limit_registers", limitText(r.block_limit_registers));
  add("block_limit_shared_memory", limitText(r.block_limit_shared_memory));
  add("block_limit_barriers", limitText(r.block_limit_barriers));
  add("limited_by", limiterNames(r.limiters));
  add("registers_per_block_allocated", std::to_string(r.registers_per_block_allocated));
  add("shared_memory_per_block_allocated_bytes", std::to_string(r.shared_memory_per_block_allocated));
  add("shared_memory_per_sm_config_bytes", std::to_string(r.shared_memory_per_sm_config));
  if (in.sm_count > 0) add("max_active_blocks_gpu", std::to_string(r.max_active_blocks_gpu));
  if (in.grid_blocks > 0) add("waves", std::to_string(r.waves));
  return t;
}

CsvTable curvesToCsv(const ArchLimits& a, const std::vector<CurvePoint>& bs, const std::vector<CurvePoint>& rg,
                     const std::vector<CurvePoint>& sm) {
  CsvTable t;
  t.meta = {{"compute_capability", a.cc.str()}};
  t.header = {"curve", "x", "active_blocks_per_sm", "active_warps_per_sm", "theoretical_occupancy_pct", "limited_by"};
  auto add = [&](const char* name, const std::vector<CurvePoint>& pts) {
    for (const auto& p : pts) {
      t.rows.push_back({name, std::to_string(p.x), std::to_string(p.active_blocks_per_sm),
                        std::to_string(p.active_warps_per_sm), percent(p.occupancy), limiterNames(p.limiters)});
    }
  };
  add("block_size_threads", bs);
  add("registers_per_thread", rg);
  add("shared_memory_per_block_bytes", sm);
  return t;
}

nlohmann::json clustersToJson(const ClusterInput& in, const ClusterLayout& l, const ClusterResult& r) {
  nlohmann::json steps = nlohmann::json::array();
  for (const auto& st : r.derivation) steps.push_back({{"topic", st.topic}, {"text", st.text}});
  return {{"cluster_size", r.cluster_size},
          {"non_portable_allowed", in.non_portable},
          {"layout_known", r.layout_known},
          {"layout_source", r.layout_source},
          {"gpc_sm_counts", l.gpc_sm_counts},
          {"blocks_per_sm_in_clusters", r.blocks_per_sm_in_clusters},
          {"max_active_clusters", r.max_active_clusters},
          {"naive_max_active_clusters", r.naive_max_active_clusters},
          {"active_blocks_in_clusters", r.active_blocks_in_clusters},
          {"active_blocks_without_clusters", r.active_blocks_without_clusters},
          {"cluster_occupancy", r.cluster_occupancy},
          {"max_potential_cluster_size", r.max_potential_cluster_size},
          {"derivation", steps}};
}

void appendClustersToCsv(CsvTable& t, const ClusterInput& in, const ClusterResult& r) {
  auto add = [&](const char* k, const std::string& v) { t.rows.push_back({k, v}); };
  add("cluster_size", std::to_string(r.cluster_size));
  add("non_portable_cluster_size_allowed", in.non_portable ? "yes" : "no");
  add("cluster_layout", r.layout_known ? "known" : "unknown (naive bound)");
  add("blocks_per_sm_in_clusters", std::to_string(r.blocks_per_sm_in_clusters));
  add("max_active_clusters", std::to_string(r.max_active_clusters));
  add("naive_max_active_clusters", std::to_string(r.naive_max_active_clusters));
  add("active_blocks_in_clusters", std::to_string(r.active_blocks_in_clusters));
  add("active_blocks_without_clusters", std::to_string(r.active_blocks_without_clusters));
  add("cluster_occupancy_pct", percent(r.cluster_occupancy));
  add("max_potential_cluster_size", std::to_string(r.max_potential_cluster_size));
}

nlohmann::json bestBlockSizeToJson(const BestBlockSize& b, int limit) {
  return {{"block_size", b.block_size},
          {"block_size_limit", limit},
          {"active_blocks_per_sm", b.active_blocks_per_sm},
          {"occupancy", b.occupancy},
          {"min_grid_size", b.min_grid_size}};
}

void appendBestBlockSizeToCsv(CsvTable& t, const BestBlockSize& b, int limit) {
  t.rows.push_back({"best_block_size_threads", std::to_string(b.block_size)});
  t.rows.push_back({"best_block_size_limit", std::to_string(limit)});
  t.rows.push_back({"best_block_size_active_blocks_per_sm", std::to_string(b.active_blocks_per_sm)});
  t.rows.push_back({"best_block_size_occupancy_pct", percent(b.occupancy)});
  t.rows.push_back({"best_block_size_min_grid_size", std::to_string(b.min_grid_size)});
}

namespace {
nlohmann::json answerJson(int v) {
  return v < 0 ? nlohmann::json(nullptr) : nlohmann::json(v);
}
}  // namespace

nlohmann::json driverOccupancyToJson(const DriverOccupancy& d) {
  return {{"device", d.device_name},
          {"compute_capability", d.cc.str()},
          {"sm_count", d.sm_count},
          {"probe_registers", answerJson(d.probe_registers)},
          {"active_blocks_per_sm", answerJson(d.active_blocks_per_sm)},
          {"max_active_clusters", answerJson(d.max_active_clusters)},
          {"max_potential_cluster_size_portable", answerJson(d.max_potential_cluster_size_portable)},
          {"max_potential_cluster_size_nonportable", answerJson(d.max_potential_cluster_size_nonportable)},
          {"best_block_size", answerJson(d.best_block_size)},
          {"best_min_grid_size", answerJson(d.best_min_grid_size)},
          {"note", d.note}};
}

void appendDriverOccupancyToCsv(CsvTable& t, const DriverOccupancy& d) {
  auto add = [&](const char* k, int v) {
    if (v >= 0) t.rows.push_back({k, std::to_string(v)});
  };
  t.rows.push_back({"driver_device", d.device_name});
  add("driver_probe_registers", d.probe_registers);
  add("driver_active_blocks_per_sm", d.active_blocks_per_sm);
  add("driver_max_active_clusters", d.max_active_clusters);
  add("driver_max_potential_cluster_size_portable", d.max_potential_cluster_size_portable);
  add("driver_max_potential_cluster_size_nonportable", d.max_potential_cluster_size_nonportable);
  add("driver_best_block_size", d.best_block_size);
  add("driver_best_min_grid_size", d.best_min_grid_size);
}

}  // namespace occx
