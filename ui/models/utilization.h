// How each SM resource is split by a launch configuration: used by the active blocks, left unusable
// because another resource limits, and the remainder. Derived from an OccupancyResult; no Qt.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"

namespace occx::ui {

/// What a resource is counted in.
enum class Unit { kWarps, kRegisters, kBytes, kBlocks, kBarriers };
/// "warps", "registers", "bytes", "blocks", "barriers".
std::string_view unitName(Unit unit);

/// One SM resource. All amounts in `unit`s; used + unusable + remainder == capacity.
///  * used: what the active blocks take (active blocks × per-block allocation);
///  * unusable: what more blocks would take if this resource alone decided (its own block limit minus
///    the active blocks) — left idle because another resource limits;
///  * remainder: the rest — less than one block's worth, or not needed at all (e.g. no registers).
struct ResourceUtilization {
  std::string resource;  ///< "Warps", "Registers", "Shared memory", "Block slots", "Barriers"
  Unit unit = Unit::kBlocks;
  std::int64_t capacity = 0;   ///< per SM (shared memory: the configured size)
  std::int64_t per_block = 0;  ///< allocated per block
  std::int64_t used = 0;
  std::int64_t unusable = 0;
  std::int64_t remainder = 0;
  bool limiter = false;  ///< this resource limits active blocks per SM

  /// Share of the capacity in percent (0 when the capacity is 0).
  [[nodiscard]] double percent(std::int64_t amount) const {
    return capacity > 0 ? 100.0 * static_cast<double>(amount) / static_cast<double>(capacity) : 0.0;
  }
};

/// Rows for warps, registers, shared memory and block slots, plus barriers from CC 9.0 on when the
/// block uses any. A configuration that cannot launch has nothing used.
std::vector<ResourceUtilization> computeUtilization(const ArchLimits& arch, const OccupancyInput& input,
                                                    const OccupancyResult& result);

}  // namespace occx::ui
