// CC 9.0's limits as literals, for the lean calculator's compile-time path: the benchmark's
// "limits literal" variants (ours and cuda_occupancy.h alike) and the test that a constexpr
// LeanLimits gives the GPU data's answers. The same numbers as resources/gpu_data.json;
// literalHopperMatches() compares them with an ArchLimits.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "core/occupancy/occupancy.h"

namespace occx::testing_support {

struct LiteralHopper {
  ComputeCapability cc{9, 0};
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_warps_per_sm = 64;
  int max_blocks_per_sm = 32;
  int registers_per_sm = 65536;
  int max_registers_per_block = 65536;
  int max_registers_per_thread = 255;
  int register_allocation_unit = 256;
  int warp_allocation_granularity = 4;
  std::int64_t shared_memory_per_sm = 233472;
  std::int64_t shared_memory_per_block = 49152;
  std::int64_t shared_memory_per_block_optin = 232448;
  int shared_memory_allocation_unit = 128;
  std::int64_t reserved_shared_memory_per_block = 1024;
  std::array<int, 10> shared_memory_carveout_kb{0, 8, 16, 32, 64, 100, 132, 164, 196, 228};
  int block_barriers_per_sm = 64;
};
inline constexpr LiteralHopper kLiteralHopper{};
inline constexpr LeanLimits kLiteralHopperLean(kLiteralHopper);

/// True when every literal equals `a`'s (the GPU data's CC 9.0 entry).
inline bool literalHopperMatches(const ArchLimits& a) {
  const auto& l = kLiteralHopper;
  return a.cc == l.cc && a.warp_size == l.warp_size && a.max_threads_per_block == l.max_threads_per_block &&
         a.max_warps_per_sm == l.max_warps_per_sm && a.max_blocks_per_sm == l.max_blocks_per_sm &&
         a.registers_per_sm == l.registers_per_sm && a.max_registers_per_block == l.max_registers_per_block &&
         a.max_registers_per_thread == l.max_registers_per_thread &&
         a.register_allocation_unit == l.register_allocation_unit &&
         a.warp_allocation_granularity == l.warp_allocation_granularity &&
         a.shared_memory_per_sm == l.shared_memory_per_sm && a.shared_memory_per_block == l.shared_memory_per_block &&
         a.shared_memory_per_block_optin == l.shared_memory_per_block_optin &&
         a.shared_memory_allocation_unit == l.shared_memory_allocation_unit &&
         a.reserved_shared_memory_per_block == l.reserved_shared_memory_per_block &&
         std::equal(a.shared_memory_carveout_kb.begin(), a.shared_memory_carveout_kb.end(),
                    l.shared_memory_carveout_kb.begin(), l.shared_memory_carveout_kb.end()) &&
         a.block_barriers_per_sm == l.block_barriers_per_sm;
}

}  // namespace occx::testing_support
