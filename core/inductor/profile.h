// The versions ("profiles") of Inductor's dynamic RBLOCK scaling that the decision can follow, and
// the compute-capability gate each applies (step 1 of the decision, core/inductor/rblock_scaling.h).
//
// Source: torch/_inductor/runtime/triton_heuristics.py — the precompile() loop of September 2023
// (first version) and CachingAutotuner._dynamic_scale_rblock of PyTorch 2.11 (current).
#pragma once

#include <string_view>

#include "core/base/expected.h"

namespace occx::inductor {

/// A version of Inductor's decision.
enum class Profile {
  kInductor2023,     ///< first version (Sept 2023): one RBLOCK kwarg, CC 8.x only, originals examined once
  kInductorCurrent,  ///< current (PyTorch 2.11): R0_BLOCK/R1_BLOCK, CC >= 8.0 or ROCm, device warp size
};

/// Which compute capabilities step 1 lets through.
enum class CcGate {
  kProfileDefault,  ///< the profile's own gate
  kMajor8Only,      ///< the first version: compute capability 8.x only
  kAtLeast80,       ///< current: compute capability >= 8.0, or any ROCm device
};

/// What a profile is, as the app states it.
struct ProfileInfo {
  Profile profile;
  std::string_view key;        ///< "inductor-2023" / "inductor-current"
  std::string_view title;      ///< short name for menus
  std::string_view statement;  ///< one paragraph stating the version's behaviour
  CcGate cc_gate;              ///< kMajor8Only or kAtLeast80
  bool r0_r1_kwargs;           ///< false: one RBLOCK kwarg
  bool warp_size_from_device;  ///< false: 32 hard-coded in the register bound
  bool honours_deterministic;  ///< skipped in deterministic mode
  bool visits_added_configs;   ///< the loop also walks configs it appended (and skips them)
};

/// The fixed description of a profile. Never fails.
const ProfileInfo& profileInfo(Profile profile);
/// Parses "inductor-2023" / "2023" / "inductor-current" / "current". Error lists the accepted names.
Expected<Profile> parseProfile(std::string_view text);

/// The compute-capability gate's printable name: "CC 8.x only" / "CC >= 8.0 or ROCm".
std::string_view ccGateName(CcGate gate);
/// Parses "auto" (profile default), "8x" / "major8", "ge80" / ">=8.0". Error lists the forms.
Expected<CcGate> parseCcGate(std::string_view text);

/// Options of one decision.
struct DecisionOptions {
  Profile profile = Profile::kInductorCurrent;
  CcGate cc_gate = CcGate::kProfileDefault;  ///< make the first version's CC 8.x gate visible
};

/// The gate a profile + options apply.
CcGate effectiveCcGate(const DecisionOptions& options);

}  // namespace occx::inductor
