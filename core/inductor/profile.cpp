#include "core/inductor/profile.h"

#include <string>

#include "core/base/text.h"

namespace occx::inductor {

namespace {

const ProfileInfo kProfiles[] = {
    {Profile::kInductor2023, "inductor-2023", "Inductor 2023 (first version)",
     "Inductor as first shipped (September 2023): one RBLOCK kwarg; runs only on compute capability 8.x "
     "CUDA devices; the bound on resident blocks per SM was max_threads_per_SM // (32 · num_warps); the "
     "loop examines each original config once and never the configs it adds.",
     CcGate::kMajor8Only, false, false, false, false},
    {Profile::kInductorCurrent, "inductor-current", "Inductor current (PyTorch 2.11)",
     "Current Inductor (PyTorch 2.11): R0_BLOCK/R1_BLOCK kwargs, the largest halved (a tie halves the first "
     "in kwarg order, R1_BLOCK); runs on compute capability >= 8.0 or ROCm; warp size from the device; "
     "skipped in deterministic mode; bound max(regs_per_SM // (n_regs · warp_size · num_warps), 1). Its "
     "loop also visits the configs it has just added, but their n_regs is not known until the kernels "
     "are loaded after the loop, so it skips them: each original config is halved at most once.",
     CcGate::kAtLeast80, true, true, true, true},
};

}  // namespace

const ProfileInfo& profileInfo(Profile profile) {
  return profile == Profile::kInductor2023 ? kProfiles[0] : kProfiles[1];
}

Expected<Profile> parseProfile(std::string_view text) {
  const std::string t = lowerAscii(text);
  if (t == "inductor-2023" || t == "2023") return Profile::kInductor2023;
  if (t == "inductor-current" || t == "current") return Profile::kInductorCurrent;
  return Error{"profile '" + std::string(text) + "' is not known: allowed inductor-2023, inductor-current"};
}

std::string_view ccGateName(CcGate gate) {
  switch (gate) {
    case CcGate::kProfileDefault:
      return "profile default";
    case CcGate::kMajor8Only:
      return "CC 8.x only";
    case CcGate::kAtLeast80:
      return "CC >= 8.0 or ROCm";
  }
  return "";
}

Expected<CcGate> parseCcGate(std::string_view text) {
  const std::string t = lowerAscii(text);
  if (t == "auto" || t == "profile") return CcGate::kProfileDefault;
  if (t == "8x" || t == "8.x" || t == "major8") return CcGate::kMajor8Only;
  if (t == "ge80" || t == ">=8.0" || t == ">=8") return CcGate::kAtLeast80;
  return Error{"CC gate '" + std::string(text) +
               "' is not known: allowed auto (the profile's), 8x (CC 8.x only), ge80 (CC >= 8.0 or ROCm)"};
}

CcGate effectiveCcGate(const DecisionOptions& options) {
  return options.cc_gate == CcGate::kProfileDefault ? profileInfo(options.profile).cc_gate : options.cc_gate;
}

}  // namespace occx::inductor
