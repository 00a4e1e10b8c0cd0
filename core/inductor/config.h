// Inductor's reduction configs and the kernel facts the decision reads: size hints, the kernel's
// meta (persistent, reduction, deterministic, the scaling switch), one config's tile and what its
// compile reported, and the check of a config against a profile and a device.
//
// Source: torch/_inductor/runtime/triton_heuristics.py (size_hints rounded up to powers of two,
// the Config kwargs XBLOCK / R0_BLOCK / R1_BLOCK / RBLOCK, num_warps, num_stages) and Triton's
// compiled kernel (n_regs, n_spills, shared memory); ranges from TRITON_MAX_BLOCK.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "core/base/expected.h"
#include "core/gpu/device.h"
#include "core/inductor/profile.h"

namespace occx::inductor {

/// Size hints: numels rounded up to a power of two (Inductor's size_hints). r1 == 0 means one
/// reduction dimension.
struct SizeHints {
  std::int64_t x = 1;
  std::int64_t r0 = 1;
  std::int64_t r1 = 0;
  /// Product of the reduction size hints (r0 · r1, or r0).
  [[nodiscard]] std::int64_t rTotal() const { return r1 > 0 ? r0 * r1 : r0; }
};

/// Size hints from numels: each rounded up to a power of two. xnumel and r0numel 1 … 2^31-1;
/// r1numel 0 (none) or 1 … 2^31-1. Error names the numel and the range.
Expected<SizeHints> sizeHintsFromNumels(std::int64_t xnumel, std::int64_t r0numel, std::int64_t r1numel = 0);

/// The kernel-level facts the decision's gates read (Inductor's inductor_meta / heuristic type).
struct KernelInfo {
  SizeHints size_hints;
  bool persistent_reduction = false;  ///< no R loop, no R block: never scaled
  bool is_reduction = true;           ///< heuristic type REDUCTION
  bool deterministic = false;         ///< deterministic mode (the current version skips)
  bool dynamic_scale_rblock = true;   ///< Inductor's switch (config.dynamic_scale_rblock)
};

/// One reduction config: a tile of XBLOCK rows × R0_BLOCK (× R1_BLOCK) reduction elements run by
/// num_warps warps, plus what compiling it reported (n_regs per thread, n_spills, shared memory).
struct ReductionConfig {
  int xblock = 1;     ///< XBLOCK, power of two 1 … 4096
  int r0_block = 1;   ///< R0_BLOCK (RBLOCK in the 2023 profile), power of two 1 … 65536
  int r1_block = 0;   ///< R1_BLOCK for 2-D reductions (0 = none), power of two 1 … 32768
  int num_warps = 4;  ///< power of two 1 … 32 (threads = num_warps · warp size <= 1024)
  int num_stages = 1;
  std::optional<int> n_regs;      ///< registers per thread after compiling (1 … 255); none = unknown
  std::optional<int> n_spills;    ///< spilled registers reported by the compiler; none = unknown
  std::int64_t shared_bytes = 0;  ///< shared memory per block the kernel launches with, bytes
  std::string origin;             ///< where it came from: "contiguous", "halved from #1", "input", …

  /// Product of the R blocks (R0_BLOCK · R1_BLOCK, or R0_BLOCK).
  [[nodiscard]] std::int64_t rBlockProduct() const;
  /// Identity as Inductor hashes it: block kwargs, num_warps, num_stages (not n_regs or origin).
  [[nodiscard]] bool sameLaunchConfig(const ReductionConfig& other) const;
  /// "XBLOCK=1, R0_BLOCK=2048, num_warps=16" — kwargs in Inductor's order (R1_BLOCK before
  /// R0_BLOCK), RBLOCK in the 2023 profile; num_stages shown only when it is not 1.
  [[nodiscard]] std::string str(Profile profile = Profile::kInductorCurrent) const;
};

/// Checks a config against the profile and device: power-of-two blocks in range, num_warps ×
/// warp size <= max threads per block, n_regs 1 … 255, n_spills >= 0, shared memory 0 … the
/// opt-in maximum, no R1_BLOCK in the 2023 profile. The Error names the field, the value and the
/// allowed range; std::nullopt when valid.
std::optional<Error> validateConfig(const ReductionConfig& config, const Device& device, Profile profile);

}  // namespace occx::inductor
