// The classic CUDA occupancy calculator, with every step of the arithmetic recorded.
//
// Reference: the CUDA Toolkit's cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor), which the
// runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor agrees with. This is our own code (the
// subject the app teaches) and is tested to agree with that header on every input it accepts
// (tests/core/occupancy_differential_test.cpp).
#pragma once

#include <bit>
#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"

namespace occx {

/// Resources that can limit active blocks per SM. Bit values equal cuda_occupancy.h's
/// cudaOccLimitingFactor, so a set of limiters compares directly with the header's result.
enum Limiter : unsigned {
  kLimitWarps = 0x01,
  kLimitRegisters = 0x02,
  kLimitSharedMemory = 0x04,
  kLimitBlocks = 0x08,
  kLimitBarriers = 0x10,
};

/// Printable names of a limiter set, e.g. "registers, shared memory".
std::string limiterNames(unsigned limiters);

/// Per-kernel launch parameters. Sizes in bytes.
struct OccupancyInput {
  int threads_per_block = 256;
  int registers_per_thread = 32;        ///< as reported by the compiler (0 … 255)
  std::int64_t static_smem_bytes = 0;   ///< __shared__ arrays (at most 48 KB)
  std::int64_t dynamic_smem_bytes = 0;  ///< launch-time shared memory (opt-in above 48 KB assumed)
  int carveout_percent = -1;            ///< shared-memory carveout preference: -1 default, 0 … 100
  int block_barriers = 1;               ///< named barriers per block (counted from CC 9.0 on)
  std::int64_t grid_blocks = 0;         ///< optional: blocks in the grid, for waves (0 = none)
  int sm_count = 0;                     ///< optional: SMs of the GPU, for GPU-wide figures (0 = none)
};

/// One step of the derivation: which resource, and the arithmetic in plain words.
struct DerivationStep {
  std::string topic;  ///< "Warps", "Registers", "Shared memory", "Blocks", "Barriers", "Result"
  std::string text;   ///< e.g. "40 registers × 32 threads = 1280 per warp, rounded up to …"
};

inline constexpr int kUnlimited = INT_MAX;

/// Output of computeOccupancy. Block limits are blocks per SM, kUnlimited when the resource is not
/// used (e.g. 0 registers, or barriers below CC 9.0).
struct OccupancyResult {
  bool can_launch = false;
  std::string cannot_launch_reason;  ///< empty when can_launch

  int warps_per_block = 0;
  int active_blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  int active_threads_per_sm = 0;
  int max_warps_per_sm = 0;
  double occupancy = 0.0;  ///< theoretical occupancy: active warps / max warps per SM, 0 … 1

  int block_limit_warps = 0;
  int block_limit_blocks = 0;
  int block_limit_registers = 0;
  int block_limit_shared_memory = 0;
  int block_limit_barriers = kUnlimited;
  unsigned limiters = 0;  ///< set of Limiter bits whose limit equals active_blocks_per_sm

  int registers_per_warp_allocated = 0;   ///< rounded up to the register allocation unit
  int registers_per_block_allocated = 0;
  int registers_used_per_sm = 0;          ///< by the active blocks
  std::int64_t shared_memory_per_block_allocated = 0;  ///< incl. reserved, rounded to the unit
  std::int64_t shared_memory_per_sm_config = 0;        ///< SM shared-memory size the runtime picks
  std::int64_t shared_memory_used_per_sm = 0;          ///< by the active blocks

  std::int64_t max_active_blocks_gpu = 0;  ///< active_blocks_per_sm × sm_count (0 if sm_count unknown)
  double waves = 0.0;                      ///< grid_blocks / max_active_blocks_gpu (0 if unknown)

  std::vector<DerivationStep> derivation;  ///< empty unless requested
};

/// Computes theoretical occupancy of one launch configuration on one architecture.
/// Inputs that cannot launch (0 or > max threads per block, registers over the per-thread or
/// per-block limit, shared memory over the opt-in maximum, static shared memory over 48 KB) give a
/// result with can_launch == false and the reason. Malformed inputs (negative sizes, sizes over
/// 1 TiB, carveout outside -1 … 100, negative barriers or registers; registers > 255 is "cannot launch") return an
/// Error naming the value and the allowed range. Never throws.
/// With `with_derivation` false the step texts are skipped (sweeps, benchmarks).
Expected<OccupancyResult> computeOccupancy(const ArchLimits& arch, const OccupancyInput& input,
                                           bool with_derivation = true);

/// Shared memory per SM the runtime configures for a per-block allocation (bytes), following
/// cuda_occupancy.h: the carveout preference (percent of the largest size, -1 = largest) rounded up
/// to the next size the architecture allows; if that holds no block, the smallest size that holds
/// one. CC < 7.0 has a fixed size.
std::int64_t sharedMemoryConfigForBlock(const ArchLimits& arch, int carveout_percent,
                                        std::int64_t allocated_per_block);

/// Active blocks per SM of one launch, from the lean path.
struct ActiveBlocks {
  int active_blocks_per_sm = 0;  ///< 0 when the launch cannot run or the input is malformed
  int warps_per_block = 0;       ///< ceil(threads / warp size)
  unsigned limiters = 0;         ///< Limiter bits, as OccupancyResult::limiters (0 for malformed input)
};

/// The lean path for sweeps (impact curves, best block size, the differential test): the same
/// arithmetic as computeOccupancy — equal active blocks and limiters on every input (tested) —
/// without strings, allocations or the per-resource details, inline so that a sweep compiles to
/// one loop, as cuda_occupancy.h's functions do. Malformed input (computeOccupancy's Error cases)
/// gives 0 blocks and no limiters. Never throws. Defined at the end of this header.
inline ActiveBlocks activeBlocksPerSm(const ArchLimits& arch, const OccupancyInput& input) noexcept;

/// The block size that cudaOccupancyMaxPotentialBlockSize chooses (cuda_occupancy.h's
/// cudaOccMaxPotentialOccupancyBlockSize): of the sizes min(limit, 32·k), tried from the largest down,
/// the first with the most active threads per SM (it stops at full occupancy), and the smallest grid
/// that fills every SM with it.
struct BestBlockSize {
  int block_size = 0;                ///< threads per block; 0 when no block size can launch
  int active_blocks_per_sm = 0;      ///< at block_size
  double occupancy = 0.0;            ///< at block_size, 0 … 1
  std::int64_t min_grid_size = 0;    ///< active_blocks_per_sm × sm_count (0 without an SM count)
};

/// Best block size for `input`'s registers, shared memory, carveout and barriers (its block size is
/// ignored). `block_size_limit` caps the sizes tried (0 = the architecture's maximum threads per
/// block; values above it are treated as it); negative is an Error. `input.sm_count` gives the grid.
Expected<BestBlockSize> bestBlockSize(const ArchLimits& arch, const OccupancyInput& input, int block_size_limit = 0);

/// One point of an impact curve.
struct CurvePoint {
  std::int64_t x = 0;  ///< the varied input: threads, registers, shared memory bytes or barriers per block
  int active_blocks_per_sm = 0;
  int active_warps_per_sm = 0;
  double occupancy = 0.0;
  unsigned limiters = 0;
};

/// Active warps per SM vs block size: threads 32, 64, … max_threads_per_block (warp steps), the
/// other inputs as given. Points that cannot launch have 0 blocks.
std::vector<CurvePoint> sweepBlockSize(const ArchLimits& arch, const OccupancyInput& input);
/// Active warps per SM vs registers per thread 1 … max_registers_per_thread (255).
std::vector<CurvePoint> sweepRegisters(const ArchLimits& arch, const OccupancyInput& input);
/// Active warps per SM vs shared memory per block (static + dynamic, bytes), from the static size
/// up to the opt-in maximum in allocation-unit steps (x = static + dynamic).
std::vector<CurvePoint> sweepSharedMemory(const ArchLimits& arch, const OccupancyInput& input);
/// Active warps per SM vs block barriers per block 0 … 16 (counted from CC 9.0 on; below, the curve
/// is flat).
std::vector<CurvePoint> sweepBlockBarriers(const ArchLimits& arch, const OccupancyInput& input);

/// The same sweeps into a caller's vector (cleared first; no allocation once its capacity suffices):
/// the lean form for repeated sweeps.
void sweepBlockSizeInto(const ArchLimits& arch, const OccupancyInput& input, std::vector<CurvePoint>& out);
void sweepRegistersInto(const ArchLimits& arch, const OccupancyInput& input, std::vector<CurvePoint>& out);
void sweepSharedMemoryInto(const ArchLimits& arch, const OccupancyInput& input, std::vector<CurvePoint>& out);
void sweepBlockBarriersInto(const ArchLimits& arch, const OccupancyInput& input, std::vector<CurvePoint>& out);

// ---- the lean path ------------------------------------------------------------------------------

namespace detail {

// x / d for x ≥ 0, d > 0: a shift when d is a power of two (every allocation unit and granularity in
// the GPU data is), else a division.
inline int leanDiv(int x, int d) noexcept {
  return (d & (d - 1)) == 0 ? x >> std::countr_zero(static_cast<unsigned>(d)) : x / d;
}

// Blocks per SM allowed by registers (cuda_occupancy.h's cudaOccMaxBlocksPerSMRegsLimit, partitioned
// global caching off), with `granularity` sub-partitions. regs ≤ the architecture's maximum.
inline int leanRegisterBlocks(const ArchLimits& a, int regs, int wpb, int granularity) noexcept {
  const int unit = a.register_allocation_unit;
  const int perWarp = leanDiv(regs * a.warp_size + unit - 1, unit) * unit;
  const std::int64_t perBlock = std::int64_t{perWarp} * wpb;
  const std::int64_t assumedPerBlock =
      std::int64_t{perWarp} * (wpb <= INT_MAX - granularity ? leanDiv(wpb + granularity - 1, granularity) * std::int64_t{granularity}
                                                            : (std::int64_t{wpb} + granularity - 1) / granularity * granularity);
  if (assumedPerBlock > a.max_registers_per_block || perBlock > a.max_registers_per_block) return 0;
  if (perWarp == 0) return kUnlimited;
  const int warpsPerGranule = leanDiv(a.registers_per_sm, granularity) / perWarp;
  return warpsPerGranule * granularity / wpb;
}

}  // namespace detail

inline ActiveBlocks activeBlocksPerSm(const ArchLimits& a, const OccupancyInput& in) noexcept {
  ActiveBlocks out;
  constexpr std::int64_t kMaxSmemBytes = std::int64_t{1} << 40;  // computeOccupancy's bound
  const int threads = in.threads_per_block;
  const int regs = in.registers_per_thread;
  if (threads < 0 || regs < 0 || in.static_smem_bytes < 0 || in.dynamic_smem_bytes < 0 || in.static_smem_bytes > kMaxSmemBytes ||
      in.dynamic_smem_bytes > kMaxSmemBytes || in.carveout_percent < -1 || in.carveout_percent > 100 || in.block_barriers < 0 ||
      in.grid_blocks < 0 || in.sm_count < 0) {
    return out;
  }
  if (threads == 0) {
    out.limiters = kLimitWarps;
    return out;
  }
  // 32-bit arithmetic wherever the GPU data's ranges allow it (integer division is the cost).
  const bool threadsFit = threads <= a.max_threads_per_block;
  const int wpb = threadsFit ? detail::leanDiv(threads + a.warp_size - 1, a.warp_size)
                             : static_cast<int>((std::int64_t{threads} + a.warp_size - 1) / a.warp_size);
  out.warps_per_block = wpb;
  const int limWarps = threadsFit ? a.max_warps_per_sm / wpb : 0;
  const int limBlocks = a.max_blocks_per_sm;
  int limRegs = 0;
  if (regs <= a.max_registers_per_thread) {
    limRegs = detail::leanRegisterBlocks(a, regs, wpb, a.warp_allocation_granularity);
    // CC 6.0 (2 sub-partitions): cuda_occupancy.h also checks the register file as if it had 4.
    if (a.cc.major == 6 && a.cc.minor == 0 && limRegs != 0 && limRegs != kUnlimited &&
        detail::leanRegisterBlocks(a, regs, wpb, 4) == 0) {
      limRegs = 0;
    }
  }
  int limSmem = 0;
  const std::int64_t requested = in.static_smem_bytes + in.dynamic_smem_bytes;
  if (in.static_smem_bytes <= a.shared_memory_per_block && requested <= a.shared_memory_per_block_optin) {
    // At most 4 MiB each (the GPU data's range): int holds them.
    const int unit = a.shared_memory_allocation_unit;
    const int allocated = detail::leanDiv(static_cast<int>(requested + a.reserved_shared_memory_per_block) + unit - 1, unit) * unit;
    if (allocated > 0) {
      std::int64_t config = a.shared_memory_per_sm;  // fixed (CC < 7.0)
      if (!a.shared_memory_carveout_kb.empty()) {    // sharedMemoryConfigForBlock
        const std::int64_t preference = in.carveout_percent < 0 ? a.shared_memory_per_sm
                                                                : std::int64_t{in.carveout_percent} * a.shared_memory_per_sm / 100;
        std::int64_t preferred = -1, fit = -1;
        for (int kb : a.shared_memory_carveout_kb) {
          const std::int64_t size = std::int64_t{kb} * 1024;
          if (preferred < 0 && preference <= size) preferred = size;
          if (fit < 0 && allocated <= size) fit = size;
          if (preferred >= 0 && fit >= 0) break;  // the sizes ascend: both found
        }
        config = preferred >= allocated ? preferred : (fit < 0 ? a.shared_memory_per_sm : fit);
      }
      limSmem = static_cast<int>(config) / allocated;
    } else {
      limSmem = kUnlimited;
    }
  }
  const int limBarriers = (a.cc.major >= 9 && in.block_barriers > 0) ? a.block_barriers_per_sm / in.block_barriers : kUnlimited;
  int cta = limRegs < limSmem ? limRegs : limSmem;
  if (limWarps < cta) cta = limWarps;
  if (limBlocks < cta) cta = limBlocks;
  if (limBarriers < cta) cta = limBarriers;
  unsigned limiters = 0;
  if (cta == limWarps) limiters |= kLimitWarps;
  if (cta == limRegs) limiters |= kLimitRegisters;
  if (cta == limSmem) limiters |= kLimitSharedMemory;
  if (cta == limBlocks) limiters |= kLimitBlocks;
  if (cta == limBarriers) limiters |= kLimitBarriers;
  out.active_blocks_per_sm = cta;
  out.limiters = limiters;
  return out;
}

}  // namespace occx
