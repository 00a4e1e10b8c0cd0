// Powers of two: Triton's block sizes (XBLOCK, RBLOCK), num_warps and Inductor's size hints are all
// powers of two. Plain integer arithmetic, no source beyond the definition.
#pragma once

#include <cstdint>

namespace occx {

/// Smallest power of two >= n; 1 for n <= 1. Saturates at 2^62 for n above it.
constexpr std::int64_t nextPowerOfTwo(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n && p < (std::int64_t{1} << 62)) p <<= 1;
  return p;
}

/// True for 1, 2, 4, …; false for 0 and negative n.
constexpr bool isPowerOfTwo(std::int64_t n) {
  return n > 0 && (n & (n - 1)) == 0;
}

}  // namespace occx
