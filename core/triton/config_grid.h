// Which configs of a reduction kernel to compile in a sweep: a grid (XBLOCK × R0_BLOCK ×
// num_warps × num_stages) and "what each RBLOCK policy would add" (the halved copies of Inductor's
// candidates that a policy's scaling pass would benchmark), minus what is compiled already.
//
// Sources: Inductor's clamping of block sizes to the size hints (a block larger than the padded
// numel is the same kernel), Triton's limit of 2^20 elements per block tensor, the decisions of
// core/inductor. The default grid and its elements-per-thread filter are ours (see defaultConfigGrid).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/inductor/config_grid.h"
#include "core/triton/inductor_run.h"

namespace occx::triton {

/// One config to compile.
struct SweepConfig {
  int xblock = 1;
  int r0_block = 0;  ///< 0 for persistent reductions (no R loop: the kernel's R0_BLOCK is the whole row)
  int num_warps = 4;
  int num_stages = 1;
  /// Why it is compiled: "grid", and the keys of the policies that would add it ("new", "spills").
  std::vector<std::string> requested_by;

  /// "X1 R2048 w16" (" s2" appended when num_stages is not 1; no R for persistent reductions).
  [[nodiscard]] std::string text() const;
  /// Same block sizes, num_warps and num_stages.
  [[nodiscard]] bool sameLaunch(const SweepConfig& other) const;
};

/// The grid type (core/inductor/config_grid.h), one for the family's sweeps and these.
using inductor::ConfigGrid;

/// Parses grid items "NAME=VALUES" (NAME: XBLOCK, R0_BLOCK (also RBLOCK), num_warps, num_stages;
/// VALUES: "1,2,4" or a power-of-two range "256..4096"); several items may share one string
/// separated by spaces or ';'. Axes left out take the default grid's values for `kernel`.
/// Errors name the item and the allowed values: an unknown name, a value that is not a power of two
/// (num_stages excepted), out of range (XBLOCK 1 … 4096, R0_BLOCK 1 … 65536, num_warps 1 … 32,
/// num_stages 1 … 8), R0_BLOCK for a persistent reduction, a kernel that is not a reduction.
Expected<ConfigGrid> parseConfigGrid(const std::vector<std::string>& items, const RunKernel& kernel);

/// The default grid for a kernel: looped reductions XBLOCK {1, 2, 4, 8} × R0_BLOCK 256 … the r0_
/// size hint (at most 32768) × num_warps {4, 8, 16, 32} × num_stages {1}; persistent reductions
/// XBLOCK {1 … 128} × num_warps {1 … 16}; both clamped to the size hints, and configs whose tile
/// gives a thread fewer than 1 or more than 64 elements left out (Inductor makes neither).
ConfigGrid defaultConfigGrid(const RunKernel& kernel);

/// What a sweep compiles.
struct SweepPlan {
  std::vector<SweepConfig> configs;   ///< to compile, grid order then policy additions
  std::vector<SweepConfig> compiled;  ///< asked for but already compiled (Inductor's own configs)
  std::vector<std::string> left_out;  ///< configs not compiled and why ("X8 R32768 w4: 2048 elements per thread")
  std::string grid;                   ///< ConfigGrid::text() of the grid used; empty without one
};

/// The configs to compile for `kernel`: every config of `grid` (when given) and, with `policies`,
/// the halved copy of each Inductor candidate that a decision policy (kPolicies) scales —
/// each once, with every reason in requested_by — minus the configs the kernel has compiled.
/// Blocks above the size hints' padded numels are left out (the same kernel as the clamped one), and
/// for a mix-order reduction XBLOCK values that do not divide its RSPLIT_SIZE (compileWithTriton
/// passes RSPLIT_SIZE and NUM_STAGES with each config, as Inductor does). Errors: the kernel is not
/// a looped or persistent reduction, or is a 2-D (YBLOCK, R1_BLOCK) one.
Expected<SweepPlan> planSweep(const RunKernel& kernel, const std::optional<ConfigGrid>& grid, bool policies);

}  // namespace occx::triton
