#include "ui/models/utilization.h"

#include <algorithm>

namespace occx::ui {

namespace {

ResourceUtilization makeRow(std::string name, Unit unit, std::int64_t capacity, std::int64_t per_block, int block_limit,
                            int active_blocks, bool limiter) {
  ResourceUtilization u;
  u.resource = std::move(name);
  u.unit = unit;
  u.capacity = std::max<std::int64_t>(0, capacity);
  u.per_block = per_block;
  u.limiter = limiter;
  if (per_block <= 0 || u.capacity == 0) {
    u.remainder = u.capacity;
    return u;
  }
  // Blocks this resource alone would admit (kUnlimited never occurs with a per-block amount > 0,
  // but clamp to what fits in any case).
  const std::int64_t fit = std::min<std::int64_t>(std::max(block_limit, 0), u.capacity / per_block);
  const std::int64_t active = std::min<std::int64_t>(std::max(active_blocks, 0), fit);
  u.used = active * per_block;
  u.unusable = (fit - active) * per_block;
  u.remainder = u.capacity - u.used - u.unusable;
  return u;
}

}  // namespace

std::string_view unitName(Unit unit) {
  switch (unit) {
    case Unit::kWarps:
      return "warps";
    case Unit::kRegisters:
      return "registers";
    case Unit::kBytes:
      return "bytes";
    case Unit::kBlocks:
      return "blocks";
    case Unit::kBarriers:
      return "barriers";
  }
  return "";
}

std::vector<ResourceUtilization> computeUtilization(const ArchLimits& a, const OccupancyInput& in,
                                                    const OccupancyResult& r) {
  const int active = r.can_launch ? r.active_blocks_per_sm : 0;
  std::vector<ResourceUtilization> rows;
  rows.push_back(makeRow("Warps", Unit::kWarps, a.max_warps_per_sm, r.warps_per_block, r.block_limit_warps, active,
                         (r.limiters & kLimitWarps) != 0));
  rows.push_back(makeRow("Registers", Unit::kRegisters, a.registers_per_sm,
                         r.block_limit_registers == kUnlimited ? 0 : r.registers_per_block_allocated,
                         r.block_limit_registers, active, (r.limiters & kLimitRegisters) != 0));
  rows.push_back(makeRow("Shared memory", Unit::kBytes, r.shared_memory_per_sm_config,
                         r.block_limit_shared_memory == kUnlimited ? 0 : r.shared_memory_per_block_allocated,
                         r.block_limit_shared_memory, active, (r.limiters & kLimitSharedMemory) != 0));
  rows.push_back(makeRow("Block slots", Unit::kBlocks, a.max_blocks_per_sm, 1, r.block_limit_blocks, active,
                         (r.limiters & kLimitBlocks) != 0));
  if (a.cc.major >= 9 && in.block_barriers > 0) {
    rows.push_back(makeRow("Barriers", Unit::kBarriers, a.block_barriers_per_sm, in.block_barriers,
                           r.block_limit_barriers, active, (r.limiters & kLimitBarriers) != 0));
  }
  return rows;
}

}  // namespace occx::ui
