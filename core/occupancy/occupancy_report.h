// Occupancy results as JSON and CSV tables: one format for the CLI, the GUI's exports and tests.
#pragma once

#include <nlohmann/json.hpp>

#include "core/base/csv.h"
#include "core/occupancy/occupancy.h"

namespace occx {

/// {"input": {...}, "result": {...}, "derivation": [{"topic","text"}...]}. Unlimited block limits
/// are written as null. Sizes in bytes, occupancy as a fraction 0 … 1.
nlohmann::json occupancyToJson(const ArchLimits& arch, const OccupancyInput& input, const OccupancyResult& result);

/// Two-column table (quantity, value) of the inputs and results, units in the quantity names
/// (e.g. "shared_memory_per_block_allocated_bytes"); meta records the architecture.
CsvTable occupancyToCsv(const ArchLimits& arch, const OccupancyInput& input, const OccupancyResult& result);

/// The three impact curves in long form: columns curve ("block_size_threads", "registers_per_thread",
/// "shared_memory_per_block_bytes"), x, active_blocks_per_sm, active_warps_per_sm, occupancy_percent,
/// limited_by.
CsvTable curvesToCsv(const ArchLimits& arch, const std::vector<CurvePoint>& block_size,
                     const std::vector<CurvePoint>& registers, const std::vector<CurvePoint>& shared_memory);

}  // namespace occx
