// The axes of a grid of reduction configs — XBLOCK × R0_BLOCK × num_warps × num_stages — the one
// grid type of the product: the family's compile and live sweeps (core/sweep/compile_sweep.h)
// and the sweeps of Inductor's own kernels (core/triton/config_grid.h, which parses `--grid` and
// picks a kernel's default grid) both take it.
#pragma once

#include <string>
#include <vector>

namespace occx::inductor {

/// The axes of a grid. Every value is a power of two except num_stages.
struct ConfigGrid {
  std::vector<int> xblock;
  std::vector<int> r0_block;  ///< RBLOCK; empty for persistent reductions (no R loop)
  std::vector<int> num_warps;
  std::vector<int> num_stages = {1};
  bool filtered = false;  ///< a kernel's default grid: configs outside 1 … 64 elements per thread are left out

  /// "XBLOCK=1,2,4 R0_BLOCK=256..4096 num_warps=4,8,16 num_stages=1" (a run of three or more
  /// consecutive powers of two as "lo..hi").
  [[nodiscard]] std::string text() const;
  /// Number of configs: the product of the axes' sizes (an empty R0_BLOCK axis counts as one).
  [[nodiscard]] std::size_t size() const;
};

/// The powers of two from `from` to `to` inclusive (from > 0): powersOfTwo(256, 4096) = {256, …, 4096}.
std::vector<int> powersOfTwo(int from, int to);

}  // namespace occx::inductor
