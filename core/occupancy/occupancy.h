// The classic CUDA occupancy calculator, with every step of the arithmetic recorded.
//
// Reference: the CUDA Toolkit's cuda_occupancy.h (cudaOccMaxActiveBlocksPerMultiprocessor), which the
// runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessor agrees with. This is our own code (the
// subject the app teaches) and is tested to agree with that header on every input it accepts
// (tests/core/occupancy_differential_test.cpp).
#pragma once

#include <array>
#include <bit>
#include <climits>
#include <cstdint>
#include <string>
#include <type_traits>
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

  int registers_per_warp_allocated = 0;  ///< rounded up to the register allocation unit
  int registers_per_block_allocated = 0;
  int registers_used_per_sm = 0;                       ///< by the active blocks
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
std::int64_t sharedMemoryConfigForBlock(const ArchLimits& arch, int carveout_percent, std::int64_t allocated_per_block);

/// Active blocks per SM of one launch, from the lean path.
struct ActiveBlocks {
  int active_blocks_per_sm = 0;  ///< 0 when the launch cannot run or the input is malformed
  int warps_per_block = 0;       ///< ceil(threads / warp size)
  unsigned limiters = 0;         ///< Limiter bits, as OccupancyResult::limiters (0 for malformed input)
};

namespace detail {

/// floor(n / d) for 0 ≤ n ≤ n_max by a multiplication and a shift, d and n_max fixed in advance (the
/// warp size, allocation units and granularity of one architecture; the method of libdivide and of
/// compilers for constant divisors, written here for our ranges). A power of two d is a shift alone.
/// Otherwise k = bits(n_max) + bits(d) and m = ceil(2^k / d) = (2^k + r) / d with 0 ≤ r < d, so
/// n · m / 2^k = n / d + n · r / (d · 2^k), and the excess is below 1/d (n · r < n · d < 2^k): it
/// never reaches the next integer, floor(n · m / 2^k) = floor(n / d). n · m < 2^64 for n_max < 2^31.
struct Divisor {
  std::uint64_t magic = 1;  ///< d = 1
  unsigned shift = 0;
  constexpr Divisor() noexcept = default;
  /// `d` ≥ 1 (a d below 1 is taken as 1), `n_max` < 2^31: the largest n to divide.
  constexpr Divisor(std::uint32_t d, std::uint32_t n_max) noexcept {
    if (d < 1) d = 1;
    if ((d & (d - 1)) == 0) {
      shift = static_cast<unsigned>(std::countr_zero(d));
      return;
    }
    shift = static_cast<unsigned>(std::bit_width(n_max) + std::bit_width(d));
    magic = ((std::uint64_t{1} << shift) + d - 1) / d;
  }
  [[nodiscard]] constexpr std::uint32_t divide(std::uint32_t n) const noexcept {
    return static_cast<std::uint32_t>((std::uint64_t{n} * magic) >> shift);
  }
};

}  // namespace detail

/// An architecture's limits prepared for the lean path, once per sweep (or per architecture): the
/// divisions by the warp size, the register and shared-memory allocation units and the warp
/// allocation granularity become multiplications by precomputed reciprocals, and the per-SM register
/// share of one sub-partition and the default shared-memory configuration are worked out here rather
/// than at every point. Built from an ArchLimits in a few divisions and one pass over its carveout
/// sizes. No allocation; trivially copyable.
struct LeanLimits {
  /// From the GPU data's ArchLimits — or, at compile time, from any literal type with ArchLimits'
  /// limit fields (cc … block_barriers_per_sm; the carveout sizes in something with data() and
  /// size()), for a caller that knows its architecture's limits as constants.
  template <class Arch>
  requires(!std::is_same_v<Arch, LeanLimits>) constexpr explicit LeanLimits(const Arch& arch) noexcept;

  // Copies of the ArchLimits fields of the same names (units as there), then what is derived.
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_warps_per_block = 32;  ///< ceil(max_threads_per_block / warp_size)
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;
  int max_registers_per_thread = 255;
  int max_registers_per_block = 0;
  int register_allocation_unit = 256;
  int warp_allocation_granularity = 4;
  /// floor(floor(registers_per_sm / granularity) / unit): a sub-partition's registers in allocation units.
  std::uint32_t register_units_per_granule = 0;
  /// The same for 4 sub-partitions: cuda_occupancy.h re-checks CC 6.0 (2 sub-partitions) with 4.
  std::uint32_t register_units_per_granule_of_4 = 0;
  bool recheck_with_4_partitions = false;  ///< CC 6.0
  std::int64_t shared_memory_per_block = 0;
  std::int64_t shared_memory_per_block_optin = 0;
  int shared_memory_allocation_unit = 256;
  int reserved_shared_memory_per_block = 0;
  int shared_memory_per_sm = 0;
  /// The allowed SM shared-memory sizes (bytes) that can be the first, in the data's order, to hold a
  /// given size: each larger than every size before it (a size not larger than an earlier one never
  /// is the first). Held here, so that LeanLimits is self-contained: at most kInlineCarveouts.
  static constexpr int kInlineCarveouts = 16;
  std::array<int, kInlineCarveouts> carveout_bytes{};
  int carveout_count = 0;  ///< such sizes; 0: fixed size (CC < 7.0); over kInlineCarveouts: see below
  /// The data's whole list (KB) when more than kInlineCarveouts sizes count (no GPU has more than
  /// 10): only then does LeanLimits refer to the ArchLimits, which must outlive it.
  const int* carveout_kb_all = nullptr;
  int carveout_kb_all_count = 0;
  /// The SM shared-memory size the default carveout preference (-1) rounds to; -1 if none holds it.
  int preferred_config_default = 0;
  bool count_barriers = false;  ///< CC 9.0 on
  int block_barriers_per_sm = 0;
  // Reciprocals of the warp size, the allocation units and the granularity (and of 4, for CC 6.0).
  detail::Divisor by_warp_size;
  detail::Divisor by_register_unit;
  detail::Divisor by_granularity;
  detail::Divisor by_4;
  detail::Divisor by_shared_memory_unit;
};

/// The lean path for sweeps (impact curves, best block size, the differential test): the same
/// arithmetic as computeOccupancy — equal active blocks and limiters on every input (tested) —
/// without strings, allocations or the per-resource details, inline so that a sweep compiles to
/// one loop, as cuda_occupancy.h's functions do. Malformed input (computeOccupancy's Error cases)
/// gives 0 blocks and no limiters. Never throws. Defined at the end of this header.
constexpr ActiveBlocks activeBlocksPerSm(const LeanLimits& limits, const OccupancyInput& input) noexcept;

/// The same for one call on an ArchLimits (prepares its LeanLimits first: a handful of divisions more).
/// Repeated calls on one architecture should prepare a LeanLimits once and use the overload above.
inline ActiveBlocks activeBlocksPerSm(const ArchLimits& arch, const OccupancyInput& input) noexcept {
  return activeBlocksPerSm(LeanLimits(arch), input);
}

/// The block size that cudaOccupancyMaxPotentialBlockSize chooses (cuda_occupancy.h's
/// cudaOccMaxPotentialOccupancyBlockSize): of the sizes min(limit, 32·k), tried from the largest down,
/// the first with the most active threads per SM (it stops at full occupancy), and the smallest grid
/// that fills every SM with it.
struct BestBlockSize {
  int block_size = 0;              ///< threads per block; 0 when no block size can launch
  int active_blocks_per_sm = 0;    ///< at block_size
  double occupancy = 0.0;          ///< at block_size, 0 … 1
  std::int64_t min_grid_size = 0;  ///< active_blocks_per_sm × sm_count (0 without an SM count)
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
std::vector<CurvePoint> blockSizeCurve(const ArchLimits& arch, const OccupancyInput& input);
/// Active warps per SM vs registers per thread 1 … max_registers_per_thread (255).
std::vector<CurvePoint> registersCurve(const ArchLimits& arch, const OccupancyInput& input);
/// Active warps per SM vs shared memory per block (static + dynamic, bytes), from the static size
/// up to the opt-in maximum in allocation-unit steps (x = static + dynamic).
std::vector<CurvePoint> sharedMemoryCurve(const ArchLimits& arch, const OccupancyInput& input);
/// Active warps per SM vs block barriers per block 0 … 16 (counted from CC 9.0 on; below, the curve
/// is flat).
std::vector<CurvePoint> blockBarriersCurve(const ArchLimits& arch, const OccupancyInput& input);

/// The same sweeps into a caller's vector (cleared first; no allocation once its capacity suffices):
/// the lean form for repeated sweeps.
void blockSizeCurveInto(const ArchLimits& arch, const OccupancyInput& input, std::vector<CurvePoint>& out);
void registersCurveInto(const ArchLimits& arch, const OccupancyInput& input, std::vector<CurvePoint>& out);
void sharedMemoryCurveInto(const ArchLimits& arch, const OccupancyInput& input, std::vector<CurvePoint>& out);
void blockBarriersCurveInto(const ArchLimits& arch, const OccupancyInput& input, std::vector<CurvePoint>& out);

/// The same sweeps on limits prepared once (LeanLimits): the Into forms above prepare them and call
/// these. Inline, so that limits known at compile time (a constexpr LeanLimits) fold into the loop.
/// Defined at the end of this header.
inline void blockSizeCurveInto(const LeanLimits& limits, const OccupancyInput& input, std::vector<CurvePoint>& out);
inline void registersCurveInto(const LeanLimits& limits, const OccupancyInput& input, std::vector<CurvePoint>& out);
inline void sharedMemoryCurveInto(const LeanLimits& limits, const OccupancyInput& input, std::vector<CurvePoint>& out);
inline void blockBarriersCurveInto(const LeanLimits& limits, const OccupancyInput& input, std::vector<CurvePoint>& out);

// ---- the lean path ------------------------------------------------------------------------------

namespace detail {

/// Reciprocals m = ceil(2^32 / d) of d = 1 … 64, the divisors that vary from call to call (warps per
/// block, a warp's registers in allocation units, barriers per block): floor(n / d) = n · m / 2^32
/// for n · d ≤ 2^32 (Divisor's argument), which holds for n ≤ 2^24 — the dividends here are at most
/// the registers per SM (≤ 2^24, the GPU data's range).
inline constexpr auto kSmallReciprocals = [] {
  std::array<std::uint64_t, 65> t{};
  for (std::uint64_t d = 1; d < t.size(); ++d) t[d] = ((std::uint64_t{1} << 32) + d - 1) / d;
  return t;
}();

/// floor(n / d) for n ≤ 2^24, d ≥ 1: a multiplication for d ≤ 64, else a division.
constexpr std::uint32_t divideSmall(std::uint32_t n, std::uint32_t d) noexcept {
  return d < kSmallReciprocals.size() ? static_cast<std::uint32_t>((std::uint64_t{n} * kSmallReciprocals[d]) >> 32)
                                      : n / d;
}

/// computeOccupancy's Error cases, as a flag.
constexpr bool leanWellFormed(const OccupancyInput& in) noexcept {
  constexpr std::int64_t kMaxSmemBytes = std::int64_t{1} << 40;  // computeOccupancy's bound
  return in.threads_per_block >= 0 && in.registers_per_thread >= 0 && in.static_smem_bytes >= 0 &&
         in.dynamic_smem_bytes >= 0 && in.static_smem_bytes <= kMaxSmemBytes &&
         in.dynamic_smem_bytes <= kMaxSmemBytes && in.carveout_percent >= -1 && in.carveout_percent <= 100 &&
         in.block_barriers >= 0 && in.grid_blocks >= 0 && in.sm_count >= 0;
}

/// Warps per block, ceil(threads / warp size), for threads ≥ 1 (in 64 bits over the per-block maximum).
constexpr int leanWarpsPerBlock(const LeanLimits& l, int threads) noexcept {
  return threads <= l.max_threads_per_block
             ? static_cast<int>(l.by_warp_size.divide(static_cast<std::uint32_t>(threads + l.warp_size - 1)))
             : static_cast<int>((std::int64_t{threads} + l.warp_size - 1) / l.warp_size);
}

/// Blocks per SM allowed by the warps (0 over the per-block maximum of threads).
constexpr int leanWarpLimit(const LeanLimits& l, int threads, int wpb) noexcept {
  return threads <= l.max_threads_per_block
             ? static_cast<int>(
                   divideSmall(static_cast<std::uint32_t>(l.max_warps_per_sm), static_cast<std::uint32_t>(wpb)))
             : 0;
}

/// Blocks per SM allowed by registers (cuda_occupancy.h's cudaOccMaxBlocksPerSMRegsLimit, partitioned
/// global caching off) with `granularity` sub-partitions (`by` divides by it; `units_per_granule` is
/// LeanLimits' share of one). regs ≤ the architecture's maximum, wpb ≥ 1.
constexpr int leanRegisterBlocks(const LeanLimits& l, int regs, int wpb, int granularity, Divisor by,
                                 std::uint32_t units_per_granule) noexcept {
  const std::uint32_t units =
      l.by_register_unit.divide(static_cast<std::uint32_t>(regs * l.warp_size + l.register_allocation_unit - 1));
  const std::int64_t perWarp = std::int64_t{units} * l.register_allocation_unit;
  // Over the per-block maximum of threads (no block launches) in 64 bits: `by` covers the warps of
  // a block that fits.
  const std::int64_t roundedWarps =
      wpb <= l.max_warps_per_block
          ? std::int64_t{by.divide(static_cast<std::uint32_t>(wpb + granularity - 1))} * granularity
          : (std::int64_t{wpb} + granularity - 1) / granularity * granularity;
  if (perWarp * roundedWarps > l.max_registers_per_block || perWarp * wpb > l.max_registers_per_block) return 0;
  if (units == 0) return kUnlimited;
  // floor(floor(per granule / unit) / units) = floor(per granule / (units · unit)): warps per sub-partition.
  const std::uint32_t warpsPerSm = divideSmall(units_per_granule, units) * static_cast<std::uint32_t>(granularity);
  return static_cast<int>(divideSmall(warpsPerSm, static_cast<std::uint32_t>(wpb)));
}

/// Blocks per SM allowed by registers, with CC 6.0's second check; wpb ≥ 1.
constexpr int leanRegisterLimit(const LeanLimits& l, int regs, int wpb) noexcept {
  if (regs > l.max_registers_per_thread) return 0;
  int blocks =
      leanRegisterBlocks(l, regs, wpb, l.warp_allocation_granularity, l.by_granularity, l.register_units_per_granule);
  // CC 6.0 (2 sub-partitions): cuda_occupancy.h also checks the register file as if it had 4.
  if (l.recheck_with_4_partitions && blocks != 0 && blocks != kUnlimited &&
      leanRegisterBlocks(l, regs, wpb, 4, l.by_4, l.register_units_per_granule_of_4) == 0) {
    blocks = 0;
  }
  return blocks;
}

/// The first of the allowed SM shared-memory sizes (bytes, in the data's order) that holds `want`
/// bytes; -1 when none does.
constexpr int leanAlignUpConfig(const LeanLimits& l, std::int64_t want) noexcept {
  if (l.carveout_count > LeanLimits::kInlineCarveouts) {
    for (int i = 0; i < l.carveout_kb_all_count; ++i) {
      const int size = l.carveout_kb_all[i] * 1024;
      if (want <= size) return size;
    }
    return -1;
  }
  for (int i = 0; i < l.carveout_count; ++i) {
    const int size = l.carveout_bytes[static_cast<std::size_t>(i)];
    if (want <= size) return size;
  }
  return -1;
}

/// The SM shared-memory size a carveout preference (-1 … 100) rounds to (sharedMemoryConfigForBlock's
/// first step); -1 if none holds it. Fixed per sweep unless the carveout is what varies.
constexpr int leanPreferredConfig(const LeanLimits& l, int carveout_percent) noexcept {
  if (carveout_percent < 0) return l.preferred_config_default;
  return leanAlignUpConfig(l, std::int64_t{carveout_percent} * l.shared_memory_per_sm / 100);
}

/// Blocks per SM allowed by shared memory (sharedMemoryConfigForBlock, then floor(config / allocated));
/// `preferred` from leanPreferredConfig. Sizes within computeOccupancy's bounds (≤ 1 TiB).
constexpr int leanSharedMemoryLimit(const LeanLimits& l, std::int64_t static_bytes, std::int64_t dynamic_bytes,
                                    int preferred) noexcept {
  const std::int64_t requested = static_bytes + dynamic_bytes;
  if (static_bytes > l.shared_memory_per_block || requested > l.shared_memory_per_block_optin) return 0;
  // ≤ 8 MiB (the GPU data's range): 32 bits hold it.
  const std::uint32_t units = l.by_shared_memory_unit.divide(
      static_cast<std::uint32_t>(requested + l.reserved_shared_memory_per_block + l.shared_memory_allocation_unit - 1));
  if (units == 0) return kUnlimited;
  const auto allocated = units * static_cast<std::uint32_t>(l.shared_memory_allocation_unit);
  int config = l.shared_memory_per_sm;  // fixed (CC < 7.0)
  if (l.carveout_count > 0) {
    if (preferred >= 0 && static_cast<std::uint32_t>(preferred) >= allocated) {
      config = preferred;
    } else {
      const int fit = leanAlignUpConfig(l, allocated);
      if (fit >= 0) config = fit;
    }
  }
  return static_cast<int>(static_cast<std::uint32_t>(config) / allocated);
}

/// Blocks per SM allowed by block barriers (counted from CC 9.0 on).
constexpr int leanBarrierLimit(const LeanLimits& l, int barriers) noexcept {
  return (l.count_barriers && barriers > 0)
             ? static_cast<int>(divideSmall(static_cast<std::uint32_t>(l.block_barriers_per_sm),
                                            static_cast<std::uint32_t>(barriers)))
             : kUnlimited;
}

/// The smallest limit and the resources whose limit equals it.
constexpr ActiveBlocks leanCombine(int wpb, int warps, int blocks, int regs, int smem, int barriers) noexcept {
  int cta = regs < smem ? regs : smem;
  if (warps < cta) cta = warps;
  if (blocks < cta) cta = blocks;
  if (barriers < cta) cta = barriers;
  unsigned limiters = 0;
  if (cta == warps) limiters |= kLimitWarps;
  if (cta == regs) limiters |= kLimitRegisters;
  if (cta == smem) limiters |= kLimitSharedMemory;
  if (cta == blocks) limiters |= kLimitBlocks;
  if (cta == barriers) limiters |= kLimitBarriers;
  return ActiveBlocks{cta, wpb, limiters};
}

/// A sweep's combination: `fixed` is leanCombine of the limits that stay fixed (the varied ones
/// passed as kUnlimited), `varied` the smallest varied limit and `bits` the varied resources at it.
/// Equal to leanCombine of all limits.
constexpr ActiveBlocks leanCombineWithFixed(int wpb, ActiveBlocks fixed, int varied, unsigned bits) noexcept {
  if (varied < fixed.active_blocks_per_sm) return ActiveBlocks{varied, wpb, bits};
  return ActiveBlocks{fixed.active_blocks_per_sm, wpb,
                      fixed.limiters | (varied == fixed.active_blocks_per_sm ? bits : 0U)};
}

}  // namespace detail

template <class Arch>
requires(!std::is_same_v<Arch, LeanLimits>) constexpr LeanLimits::LeanLimits(const Arch& a) noexcept
    : warp_size(a.warp_size),
      max_threads_per_block(a.max_threads_per_block),
      max_warps_per_block((a.max_threads_per_block + a.warp_size - 1) / a.warp_size),
      max_warps_per_sm(a.max_warps_per_sm),
      max_blocks_per_sm(a.max_blocks_per_sm),
      max_registers_per_thread(a.max_registers_per_thread),
      max_registers_per_block(a.max_registers_per_block),
      register_allocation_unit(a.register_allocation_unit),
      warp_allocation_granularity(a.warp_allocation_granularity),
      register_units_per_granule(
          static_cast<std::uint32_t>(a.registers_per_sm / a.warp_allocation_granularity / a.register_allocation_unit)),
      register_units_per_granule_of_4(static_cast<std::uint32_t>(a.registers_per_sm / 4 / a.register_allocation_unit)),
      recheck_with_4_partitions(a.cc == ComputeCapability{6, 0}),
      shared_memory_per_block(a.shared_memory_per_block),
      shared_memory_per_block_optin(a.shared_memory_per_block_optin),
      shared_memory_allocation_unit(a.shared_memory_allocation_unit),
      reserved_shared_memory_per_block(static_cast<int>(a.reserved_shared_memory_per_block)),
      shared_memory_per_sm(static_cast<int>(a.shared_memory_per_sm)),
      count_barriers(a.cc.major >= 9),
      block_barriers_per_sm(a.block_barriers_per_sm),
      // The largest dividend of each (the GPU data's ranges keep them below 2^31).
      by_warp_size(static_cast<std::uint32_t>(a.warp_size),
                   static_cast<std::uint32_t>(a.max_threads_per_block + a.warp_size - 1)),
      by_register_unit(
          static_cast<std::uint32_t>(a.register_allocation_unit),
          static_cast<std::uint32_t>(a.max_registers_per_thread * a.warp_size + a.register_allocation_unit - 1)),
      by_granularity(static_cast<std::uint32_t>(a.warp_allocation_granularity),
                     static_cast<std::uint32_t>(max_warps_per_block + a.warp_allocation_granularity - 1)),
      by_4(4, static_cast<std::uint32_t>(max_warps_per_block + 3)),
      by_shared_memory_unit(
          static_cast<std::uint32_t>(a.shared_memory_allocation_unit),
          static_cast<std::uint32_t>(a.shared_memory_per_block_optin + a.reserved_shared_memory_per_block +
                                     a.shared_memory_allocation_unit - 1)) {
  int last = -1;
  for (int kb : a.shared_memory_carveout_kb) {  // ≤ 4 MiB each (the GPU data's range)
    const int size = kb * 1024;
    if (size <= last) continue;  // never the first to hold a size: an earlier one is as large
    last = size;
    if (carveout_count < kInlineCarveouts) carveout_bytes[static_cast<std::size_t>(carveout_count)] = size;
    ++carveout_count;
  }
  if (carveout_count > kInlineCarveouts) {
    carveout_kb_all = a.shared_memory_carveout_kb.data();
    carveout_kb_all_count = static_cast<int>(a.shared_memory_carveout_kb.size());
  }
  preferred_config_default = detail::leanAlignUpConfig(*this, shared_memory_per_sm);
}

constexpr ActiveBlocks activeBlocksPerSm(const LeanLimits& l, const OccupancyInput& in) noexcept {
  if (!detail::leanWellFormed(in)) return ActiveBlocks{};
  const int threads = in.threads_per_block;
  if (threads == 0) return ActiveBlocks{0, 0, kLimitWarps};
  const int wpb = detail::leanWarpsPerBlock(l, threads);
  return detail::leanCombine(wpb, detail::leanWarpLimit(l, threads, wpb), l.max_blocks_per_sm,
                             detail::leanRegisterLimit(l, in.registers_per_thread, wpb),
                             detail::leanSharedMemoryLimit(l, in.static_smem_bytes, in.dynamic_smem_bytes,
                                                           detail::leanPreferredConfig(l, in.carveout_percent)),
                             detail::leanBarrierLimit(l, in.block_barriers));
}

// ---- the lean sweeps ----------------------------------------------------------------------------

namespace detail {

/// The lean path at one block size of a sweep over block sizes (well-formed input): the warps and
/// register limits vary with it; shared memory and barriers are worked out once.
class LeanBlockSizePoint {
 public:
  constexpr LeanBlockSizePoint(const LeanLimits& l, const OccupancyInput& in) noexcept
      : l_(l),
        regs_(in.registers_per_thread),
        fixed_(leanCombine(0, kUnlimited, l.max_blocks_per_sm, kUnlimited,
                           leanSharedMemoryLimit(l, in.static_smem_bytes, in.dynamic_smem_bytes,
                                                 leanPreferredConfig(l, in.carveout_percent)),
                           leanBarrierLimit(l, in.block_barriers))) {}
  constexpr ActiveBlocks operator()(int threads) const noexcept {  // threads ≥ 1
    const int wpb = leanWarpsPerBlock(l_, threads);
    const int warps = leanWarpLimit(l_, threads, wpb);
    const int regs = leanRegisterLimit(l_, regs_, wpb);
    const int varied = warps < regs ? warps : regs;
    const unsigned bits =
        (varied == warps ? unsigned{kLimitWarps} : 0U) | (varied == regs ? unsigned{kLimitRegisters} : 0U);
    return leanCombineWithFixed(wpb, fixed_, varied, bits);
  }

 private:
  const LeanLimits& l_;
  int regs_;
  ActiveBlocks fixed_;  // blocks, shared memory and barriers
};

/// The lean path with every limit but the varied one worked out once (well-formed input, threads ≥ 1).
struct LeanFixedLimits {
  constexpr LeanFixedLimits(const LeanLimits& l, const OccupancyInput& in) noexcept
      : wpb(leanWarpsPerBlock(l, in.threads_per_block)),
        warps(leanWarpLimit(l, in.threads_per_block, wpb)),
        regs(leanRegisterLimit(l, in.registers_per_thread, wpb)),
        preferred(leanPreferredConfig(l, in.carveout_percent)),
        smem(leanSharedMemoryLimit(l, in.static_smem_bytes, in.dynamic_smem_bytes, preferred)),
        barriers(leanBarrierLimit(l, in.block_barriers)) {}
  int wpb;
  int warps;
  int regs;
  int preferred;
  int smem;
  int barriers;
};

/// One point per x from `from` to `to` in steps of `step`; at(x) gives its active blocks.
template <class At>
void leanSweep(const LeanLimits& l, std::int64_t from, std::int64_t to, std::int64_t step, const At& at,
               std::vector<CurvePoint>& out) {
  if (step <= 0 || to < from) {
    out.clear();
    return;
  }
  // Sized first (a no-op when the vector holds a sweep of this length already), then written in
  // place: no call inside the loop.
  out.resize(static_cast<std::size_t>((to - from) / step + 1));
  const double maxWarps = l.max_warps_per_sm;
  int lastWarps = 0;  // the occupancy changes with the warps only: divided again when they change
  double lastOccupancy = 0.0;
  CurvePoint* p = out.data();
  for (std::int64_t x = from; x <= to; x += step, ++p) {
    const ActiveBlocks r = at(x);
    const int warps = r.active_blocks_per_sm * r.warps_per_block;
    if (warps != lastWarps) {
      lastWarps = warps;
      lastOccupancy = static_cast<double>(warps) / maxWarps;
    }
    p->x = x;
    p->active_blocks_per_sm = r.active_blocks_per_sm;
    p->active_warps_per_sm = warps;
    p->occupancy = lastOccupancy;
    p->limiters = r.limiters;
  }
}

/// Whether a sweep's fixed inputs decide every point alone — malformed input (the varied value is in
/// range at every point) or a block of 0 threads — and if so the answer, in `fixed`.
constexpr bool leanFixedAnswer(const OccupancyInput& first, ActiveBlocks& fixed) noexcept {
  if (!leanWellFormed(first)) {
    fixed = ActiveBlocks{};
    return true;
  }
  if (first.threads_per_block == 0) {
    fixed = ActiveBlocks{0, 0, kLimitWarps};
    return true;
  }
  return false;
}

}  // namespace detail

inline void blockSizeCurveInto(const LeanLimits& l, const OccupancyInput& in, std::vector<CurvePoint>& out) {
  OccupancyInput first = in;
  first.threads_per_block = l.warp_size;
  if (ActiveBlocks fixed; detail::leanFixedAnswer(first, fixed)) {
    detail::leanSweep(
        l, l.warp_size, l.max_threads_per_block, l.warp_size, [&](std::int64_t) { return fixed; }, out);
    return;
  }
  const detail::LeanBlockSizePoint at(l, in);
  detail::leanSweep(
      l, l.warp_size, l.max_threads_per_block, l.warp_size, [&](std::int64_t x) { return at(static_cast<int>(x)); },
      out);
}

inline void registersCurveInto(const LeanLimits& l, const OccupancyInput& in, std::vector<CurvePoint>& out) {
  OccupancyInput first = in;
  first.registers_per_thread = 1;
  if (ActiveBlocks fixed; detail::leanFixedAnswer(first, fixed)) {
    detail::leanSweep(
        l, 1, l.max_registers_per_thread, 1, [&](std::int64_t) { return fixed; }, out);
    return;
  }
  const detail::LeanFixedLimits f(l, first);
  const ActiveBlocks fixed = detail::leanCombine(f.wpb, f.warps, l.max_blocks_per_sm, kUnlimited, f.smem, f.barriers);
  detail::leanSweep(
      l, 1, l.max_registers_per_thread, 1,
      [&](std::int64_t x) {
        return detail::leanCombineWithFixed(f.wpb, fixed, detail::leanRegisterLimit(l, static_cast<int>(x), f.wpb),
                                            kLimitRegisters);
      },
      out);
}

inline void sharedMemoryCurveInto(const LeanLimits& l, const OccupancyInput& in, std::vector<CurvePoint>& out) {
  // Clamped: a static size over the opt-in maximum gives an empty sweep (and cannot overflow below).
  const std::int64_t optin = l.shared_memory_per_block_optin;
  const std::int64_t base =
      in.static_smem_bytes < 0 ? 0 : (in.static_smem_bytes > optin + 1 ? optin + 1 : in.static_smem_bytes);
  const std::int64_t unit = l.shared_memory_allocation_unit;
  const std::int64_t from = (base + unit - 1) / unit * unit;
  OccupancyInput first = in;
  first.dynamic_smem_bytes = from - base;
  if (ActiveBlocks fixed; detail::leanFixedAnswer(first, fixed)) {
    detail::leanSweep(
        l, from, optin, unit, [&](std::int64_t) { return fixed; }, out);
    return;
  }
  const detail::LeanFixedLimits f(l, first);
  const ActiveBlocks fixed = detail::leanCombine(f.wpb, f.warps, l.max_blocks_per_sm, f.regs, kUnlimited, f.barriers);
  const std::int64_t staticBytes = in.static_smem_bytes;
  detail::leanSweep(
      l, from, optin, unit,
      [&](std::int64_t x) {
        return detail::leanCombineWithFixed(
            f.wpb, fixed, detail::leanSharedMemoryLimit(l, staticBytes, x - base, f.preferred), kLimitSharedMemory);
      },
      out);
}

inline void blockBarriersCurveInto(const LeanLimits& l, const OccupancyInput& in, std::vector<CurvePoint>& out) {
  OccupancyInput first = in;
  first.block_barriers = 0;
  if (ActiveBlocks fixed; detail::leanFixedAnswer(first, fixed)) {
    detail::leanSweep(
        l, 0, 16, 1, [&](std::int64_t) { return fixed; }, out);
    return;
  }
  const detail::LeanFixedLimits f(l, first);
  const ActiveBlocks fixed = detail::leanCombine(f.wpb, f.warps, l.max_blocks_per_sm, f.regs, f.smem, kUnlimited);
  detail::leanSweep(
      l, 0, 16, 1,
      [&](std::int64_t x) {
        return detail::leanCombineWithFixed(f.wpb, fixed, detail::leanBarrierLimit(l, static_cast<int>(x)),
                                            kLimitBarriers);
      },
      out);
}

}  // namespace occx
