// Occupancy results as JSON and CSV tables: one format for the CLI, the GUI's exports and tests.
#pragma once

#include <nlohmann/json.hpp>

#include "core/base/csv.h"
#include "core/occupancy/clusters.h"
#include "core/occupancy/driver_answer.h"
#include "core/occupancy/occupancy.h"

namespace occx {

/// {"input": {...}, "result": {...}, "derivation": [{"topic","text"}...]}. Unlimited block limits
/// are written as null. Sizes in bytes, occupancy as a fraction 0 … 1.
nlohmann::json occupancyToJson(const ArchLimits& arch, const OccupancyInput& input, const OccupancyResult& result);

/// Two-column table (quantity, value) of the inputs and results, units in the quantity names
/// (e.g. "shared_memory_per_block_allocated_bytes"); meta records the architecture.
CsvTable occupancyToCsv(const ArchLimits& arch, const OccupancyInput& input, const OccupancyResult& result);

/// The three impact curves in long form: columns curve ("block_size_threads", "registers_per_thread",
/// "shared_memory_per_block_bytes"), x, active_blocks_per_sm, active_warps_per_sm, theoretical_occupancy_pct,
/// limited_by.
CsvTable curvesToCsv(const ArchLimits& arch, const std::vector<CurvePoint>& block_size,
                     const std::vector<CurvePoint>& registers, const std::vector<CurvePoint>& shared_memory);

/// Clusters: {"cluster_size", "non_portable_allowed", "layout_known", "layout_source",
/// "gpc_sm_counts", "blocks_per_sm_in_clusters", "max_active_clusters", "naive_max_active_clusters",
/// "active_blocks_in_clusters", "active_blocks_without_clusters", "cluster_occupancy" (0 … 1),
/// "max_potential_cluster_size", "derivation"}.
nlohmann::json clustersToJson(const ClusterInput& input, const ClusterLayout& layout, const ClusterResult& result);
/// Appends the same figures to a (quantity, value) table as occupancyToCsv writes, cluster_occupancy
/// as cluster_occupancy_pct.
void appendClustersToCsv(CsvTable& table, const ClusterInput& input, const ClusterResult& result);

/// {"block_size", "block_size_limit", "active_blocks_per_sm", "occupancy" (0 … 1), "min_grid_size"}.
nlohmann::json bestBlockSizeToJson(const BestBlockSize& best, int block_size_limit);
/// Appends best_block_size_threads, best_block_size_limit, best_block_size_occupancy_pct and
/// best_block_size_min_grid_size rows.
void appendBestBlockSizeToCsv(CsvTable& table, const BestBlockSize& best, int block_size_limit);

/// The driver's answers as JSON; fields the driver was not asked are null.
nlohmann::json driverOccupancyToJson(const DriverOccupancy& answer);
/// Appends driver_* rows (driver_device, driver_active_blocks_per_sm, …) for the answers given.
void appendDriverOccupancyToCsv(CsvTable& table, const DriverOccupancy& answer);

}  // namespace occx
