#include "core/inductor/rblock_scaling.h"

#include <algorithm>
#include <cctype>

#include "core/occupancy/occupancy.h"

namespace occx::inductor {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

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

// Which kwarg Inductor halves, and its new value.
struct Halving {
  std::string kwarg;
  int from = 0;
  int to = 0;
  bool tie = false;
};

Halving largestRBlock(const ReductionConfig& c, Profile profile) {
  if (profile == Profile::kInductor2023) return {"RBLOCK", c.r0_block, c.r0_block / 2, false};
  // Inductor builds the kwargs from a dict of reduction numels filled from the innermost reduction
  // dimension outwards (r1_ before r0_), so a 2-D reduction's kwargs read XBLOCK, R1_BLOCK,
  // R0_BLOCK. It picks the kwarg with Python's max(), which returns the FIRST maximal item: on a
  // tie R1_BLOCK is halved.
  if (c.r1_block > 0 && c.r1_block >= c.r0_block) {
    return {"R1_BLOCK", c.r1_block, c.r1_block / 2, c.r1_block == c.r0_block};
  }
  return {"R0_BLOCK", c.r0_block, c.r0_block / 2, false};
}

std::string limitText(int v) { return v == kUnlimited ? std::string("unlimited") : num(v); }

}  // namespace

const ProfileInfo& profileInfo(Profile profile) {
  return profile == Profile::kInductor2023 ? kProfiles[0] : kProfiles[1];
}

Expected<Profile> parseProfile(std::string_view text) {
  const std::string t = lower(text);
  if (t == "inductor-2023" || t == "2023") return Profile::kInductor2023;
  if (t == "inductor-current" || t == "current") return Profile::kInductorCurrent;
  return Error{"profile '" + std::string(text) + "' is not known: allowed inductor-2023, inductor-current"};
}

std::string_view policyKey(Policy policy) {
  switch (policy) {
    case Policy::kOld: return "old";
    case Policy::kNew: return "new";
    case Policy::kReviewMin: return "review_min";
    case Policy::kExact: return "exact";
  }
  return "new";
}

std::string_view policyFormula(Policy policy) {
  switch (policy) {
    case Policy::kOld: return "old: max_threads_per_SM // (32 · num_warps)";
    case Policy::kNew: return "new: max(regs_per_SM // (n_regs · warp_size · num_warps), 1)";
    case Policy::kReviewMin: return "review_min: min(regs_per_SM // regs_per_block, max_warps_per_SM // num_warps)";
    case Policy::kExact: return "exact: occupancy calculator's active blocks per SM";
  }
  return "";
}

Expected<Policy> parsePolicy(std::string_view text) {
  const std::string t = lower(text);
  if (t == "old") return Policy::kOld;
  if (t == "new") return Policy::kNew;
  if (t == "review_min" || t == "review-min" || t == "reviewmin") return Policy::kReviewMin;
  if (t == "exact") return Policy::kExact;
  return Error{"policy '" + std::string(text) + "' is not known: allowed old, new, review_min, exact"};
}

const std::vector<Policy>& allPolicies() {
  static const std::vector<Policy> kAll = {Policy::kOld, Policy::kNew, Policy::kReviewMin, Policy::kExact};
  return kAll;
}

std::string_view ccGateName(CcGate gate) {
  switch (gate) {
    case CcGate::kProfileDefault: return "profile default";
    case CcGate::kMajor8Only: return "CC 8.x only";
    case CcGate::kAtLeast80: return "CC >= 8.0 or ROCm";
  }
  return "";
}

Expected<CcGate> parseCcGate(std::string_view text) {
  const std::string t = lower(text);
  if (t == "auto" || t == "profile") return CcGate::kProfileDefault;
  if (t == "8x" || t == "8.x" || t == "major8") return CcGate::kMajor8Only;
  if (t == "ge80" || t == ">=8.0" || t == ">=8") return CcGate::kAtLeast80;
  return Error{"CC gate '" + std::string(text) + "' is not known: allowed auto (the profile's), 8x (CC 8.x only), ge80 (CC >= 8.0 or ROCm)"};
}

CcGate effectiveCcGate(const DecisionOptions& options) {
  return options.cc_gate == CcGate::kProfileDefault ? profileInfo(options.profile).cc_gate : options.cc_gate;
}

Expected<Device> makeDevice(const ArchLimits& arch, int sm_count, std::string label) {
  if (sm_count < 1 || sm_count > 1024) {
    return Error{"SM count " + num(sm_count) + " is out of range: allowed 1 … 1024"};
  }
  if (arch.registers_per_sm <= 0 || arch.max_warps_per_sm <= 0 || arch.warp_size <= 0) {
    return Error{"architecture " + arch.cc.str() + " has no registers per SM / warps per SM / warp size in the GPU data"};
  }
  Device d;
  d.arch = arch;
  d.sm_count = sm_count;
  d.label = label.empty() ? "CC " + arch.cc.str() + ", " + num(sm_count) + " SMs" : std::move(label);
  return d;
}

Expected<Device> deviceForGpu(const GpuDatabase& db, std::string_view gpu_name, int sm_override) {
  const GpuSpec* g = db.findGpu(gpu_name);
  if (!g) {
    std::string msg = "GPU '" + std::string(gpu_name) + "' is not known";
    auto close = db.closestGpuNames(gpu_name);
    for (std::size_t i = 0; i < close.size(); ++i) msg += (i == 0 ? ": closest names are " : ", ") + close[i];
    return Error{msg};
  }
  const ArchLimits* a = db.findArch(g->cc);
  if (!a) return Error{"GPU '" + g->name + "' has compute capability " + g->cc.str() + ", which the GPU data does not describe"};
  const int sms = sm_override > 0 ? sm_override : g->sm_count;
  return makeDevice(*a, sms, g->name + " (CC " + g->cc.str() + ", " + num(sms) + " SMs)");
}

std::int64_t nextPowerOfTwo(std::int64_t n) {
  std::int64_t p = 1;
  while (p < n && p < (std::int64_t{1} << 62)) p <<= 1;
  return p;
}

bool isPowerOfTwo(std::int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

Expected<SizeHints> sizeHintsFromNumels(std::int64_t xnumel, std::int64_t r0numel, std::int64_t r1numel) {
  constexpr std::int64_t kMax = 2147483647;
  if (xnumel < 1 || xnumel > kMax) return Error{"xnumel " + num(xnumel) + " is out of range: allowed 1 … 2147483647"};
  if (r0numel < 1 || r0numel > kMax) return Error{"rnumel " + num(r0numel) + " is out of range: allowed 1 … 2147483647"};
  if (r1numel < 0 || r1numel > kMax) {
    return Error{"r1numel " + num(r1numel) + " is out of range: allowed 0 (one reduction dimension) or 1 … 2147483647"};
  }
  SizeHints h;
  h.x = nextPowerOfTwo(xnumel);
  h.r0 = nextPowerOfTwo(r0numel);
  h.r1 = r1numel > 0 ? nextPowerOfTwo(r1numel) : 0;
  return h;
}

std::int64_t ReductionConfig::rBlockProduct() const {
  return r1_block > 0 ? std::int64_t{r0_block} * r1_block : std::int64_t{r0_block};
}

bool ReductionConfig::sameLaunchConfig(const ReductionConfig& o) const {
  return xblock == o.xblock && r0_block == o.r0_block && r1_block == o.r1_block && num_warps == o.num_warps &&
         num_stages == o.num_stages;
}

std::string ReductionConfig::str(Profile profile) const {
  std::string s = "XBLOCK=" + num(xblock) + ", ";
  if (profile == Profile::kInductor2023) {
    s += "RBLOCK=" + num(r0_block);
  } else {
    if (r1_block > 0) s += "R1_BLOCK=" + num(r1_block) + ", ";
    s += "R0_BLOCK=" + num(r0_block);
  }
  s += ", num_warps=" + num(num_warps);
  if (num_stages != 1) s += ", num_stages=" + num(num_stages);
  return s;
}

std::optional<Error> validateConfig(const ReductionConfig& c, const Device& device, Profile profile) {
  const char* rname = profile == Profile::kInductor2023 ? "RBLOCK" : "R0_BLOCK";
  if (!isPowerOfTwo(c.xblock) || c.xblock > 4096) {
    return Error{"XBLOCK " + num(c.xblock) + " is out of range: allowed a power of two 1 … 4096"};
  }
  if (!isPowerOfTwo(c.r0_block) || c.r0_block > 65536) {
    return Error{std::string(rname) + " " + num(c.r0_block) + " is out of range: allowed a power of two 1 … 65536"};
  }
  if (c.r1_block != 0) {
    if (profile == Profile::kInductor2023) {
      return Error{"R1_BLOCK " + num(c.r1_block) + " is not available in the inductor-2023 profile (one RBLOCK kwarg): allowed 0"};
    }
    if (!isPowerOfTwo(c.r1_block) || c.r1_block > 32768) {
      return Error{"R1_BLOCK " + num(c.r1_block) + " is out of range: allowed 0 (none) or a power of two 1 … 32768"};
    }
  }
  const int max_warps = std::max(1, device.arch.max_threads_per_block / device.warpSize());
  if (!isPowerOfTwo(c.num_warps) || c.num_warps > max_warps) {
    return Error{"num_warps " + num(c.num_warps) + " is out of range: allowed a power of two 1 … " + num(max_warps) + " (" +
                 num(device.arch.max_threads_per_block) + " threads per block)"};
  }
  if (c.num_stages < 1 || c.num_stages > 8) {
    return Error{"num_stages " + num(c.num_stages) + " is out of range: allowed 1 … 8"};
  }
  if (c.n_regs && (*c.n_regs < 1 || *c.n_regs > device.arch.max_registers_per_thread)) {
    return Error{"n_regs " + num(*c.n_regs) + " is out of range: allowed 1 … " + num(device.arch.max_registers_per_thread) +
                 " registers per thread"};
  }
  if (c.n_spills && (*c.n_spills < 0 || *c.n_spills > (1 << 20))) {
    return Error{"n_spills " + num(*c.n_spills) + " is out of range: allowed 0 … 1048576"};
  }
  const std::int64_t smem_max =
      device.arch.shared_memory_per_block_optin > 0 ? device.arch.shared_memory_per_block_optin : device.arch.shared_memory_per_block;
  if (c.shared_bytes < 0 || c.shared_bytes > smem_max) {
    return Error{"shared memory " + num(c.shared_bytes) + " bytes is out of range: allowed 0 … " + num(smem_max) + " bytes per block"};
  }
  return std::nullopt;
}

int registerThreshold(const Device& device) { return device.registersPerSm() / device.maxThreadsPerSm(); }

Bound oldBound(const Device& device, int num_warps) {
  Bound b;
  b.blocks_per_sm = device.maxThreadsPerSm() / (32 * num_warps);
  b.arithmetic = num(device.maxThreadsPerSm()) + " // (32 · " + num(num_warps) + ") = " + num(b.blocks_per_sm);
  return b;
}

Bound newBound(const Device& device, int n_regs, int num_warps, int warp_size) {
  const std::int64_t per_block = std::int64_t{n_regs} * warp_size * num_warps;
  const std::int64_t raw = device.registersPerSm() / per_block;
  Bound b;
  b.blocks_per_sm = static_cast<int>(std::max<std::int64_t>(raw, 1));
  b.arithmetic = "max(" + num(device.registersPerSm()) + " // (" + num(n_regs) + " · " + num(warp_size) + " · " +
                 num(num_warps) + "), 1) = max(" + num(device.registersPerSm()) + " // " + num(per_block) + ", 1) = max(" +
                 num(raw) + ", 1) = " + num(b.blocks_per_sm);
  return b;
}

Bound reviewMinBound(const Device& device, int n_regs, int num_warps, int warp_size) {
  const std::int64_t per_block = std::int64_t{n_regs} * warp_size * num_warps;
  const std::int64_t regs_term = device.registersPerSm() / per_block;
  const std::int64_t warps_term = device.maxWarpsPerSm() / num_warps;
  Bound b;
  b.blocks_per_sm = static_cast<int>(std::min(regs_term, warps_term));
  b.arithmetic = "min(" + num(device.registersPerSm()) + " // " + num(per_block) + ", " + num(device.maxWarpsPerSm()) + " // " +
                 num(num_warps) + ") = min(" + num(regs_term) + ", " + num(warps_term) + ") = " + num(b.blocks_per_sm);
  const int thr = registerThreshold(device);
  if (regs_term == 0) {
    b.arithmetic += "; the register term is 0 (one block needs more than the register file), where the new bound clamps to 1";
  } else if (n_regs > thr) {
    b.arithmetic += "; equal to the new bound: n_regs " + num(n_regs) + " > " + num(thr) +
                    " makes the register term the smaller one (regs_per_SM / (n_regs · warp_size) < max_warps_per_SM)";
  } else {
    b.arithmetic += "; n_regs " + num(n_regs) + " <= " + num(thr) + ": the warp term limits (step 3 skips such configs)";
  }
  return b;
}

Bound exactBound(const Device& device, int n_regs, int num_warps, std::int64_t shared_bytes) {
  OccupancyInput in;
  in.threads_per_block = num_warps * device.warpSize();
  in.registers_per_thread = n_regs;
  in.dynamic_smem_bytes = shared_bytes;
  Bound b;
  auto r = computeOccupancy(device.arch, in, false);
  if (!r) {
    b.blocks_per_sm = 0;
    b.arithmetic = "occupancy calculator: " + r.error();
    return b;
  }
  if (!r->can_launch) {
    b.blocks_per_sm = 0;
    b.arithmetic = "occupancy calculator: cannot launch (" + r->cannot_launch_reason + ") = 0";
    return b;
  }
  b.blocks_per_sm = r->active_blocks_per_sm;
  b.arithmetic = "occupancy calculator, " + num(in.threads_per_block) + " threads × " + num(n_regs) + " registers (" +
                 num(r->registers_per_warp_allocated) + " per warp after rounding to " +
                 num(device.arch.register_allocation_unit) + "), " + num(r->shared_memory_per_block_allocated) +
                 " B shared memory per block: min(warps " + limitText(r->block_limit_warps) + ", registers " +
                 limitText(r->block_limit_registers) + ", shared memory " + limitText(r->block_limit_shared_memory) +
                 ", blocks/SM cap " + limitText(r->block_limit_blocks);
  if (r->block_limit_barriers != kUnlimited) b.arithmetic += ", barriers " + limitText(r->block_limit_barriers);
  b.arithmetic += ") = " + num(b.blocks_per_sm) + " (limited by " + limiterNames(r->limiters) + ")";
  return b;
}

Bound policyBound(Policy policy, const Device& device, int n_regs, int num_warps, std::int64_t shared_bytes, Profile profile) {
  const int warp = profileInfo(profile).warp_size_from_device ? device.warpSize() : 32;
  switch (policy) {
    case Policy::kOld: return oldBound(device, num_warps);
    case Policy::kNew: return newBound(device, n_regs, num_warps, warp);
    case Policy::kReviewMin: return reviewMinBound(device, n_regs, num_warps, warp);
    case Policy::kExact: return exactBound(device, n_regs, num_warps, shared_bytes);
  }
  return {};
}

std::string_view outcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kNotApplicable: return "not applicable";
    case Outcome::kNoScale: return "no scaling";
    case Outcome::kScale: return "scale";
    case Outcome::kDuplicate: return "duplicate";
  }
  return "";
}

Expected<Decision> decide(Policy policy, const ReductionConfig& c, const KernelInfo& kernel, const Device& device,
                          const DecisionOptions& options, const std::vector<ReductionConfig>* existing) {
  if (auto e = validateConfig(c, device, options.profile)) return *e;
  if (kernel.size_hints.x < 1) return Error{"size hint x " + num(kernel.size_hints.x) + " is out of range: allowed 1 … 2^31"};
  if (device.sm_count < 1) return Error{"SM count " + num(device.sm_count) + " is out of range: allowed 1 … 1024"};

  const ProfileInfo& info = profileInfo(options.profile);
  Decision d;
  d.policy = policy;
  d.profile = options.profile;
  d.total_blocks = (kernel.size_hints.x + c.xblock - 1) / c.xblock;
  auto skip = [&](int step, std::string why) -> Decision {
    d.outcome = Outcome::kNotApplicable;
    d.step = step;
    d.reason = "Step " + num(step) + ": skipped — " + std::move(why);
    return d;
  };

  // Step 1: gates.
  if (!kernel.dynamic_scale_rblock) return skip(1, "Inductor's dynamic_scale_rblock switch is off.");
  if (info.honours_deterministic && kernel.deterministic) {
    return skip(1, "deterministic mode is on, and the current version adds no configs then.");
  }
  if (kernel.persistent_reduction) {
    return skip(1, "a persistent reduction keeps the whole row in one block: no R loop, no R block to halve.");
  }
  if (!kernel.is_reduction) return skip(1, "not a looped reduction kernel (heuristic type is not REDUCTION).");
  const CcGate gate = effectiveCcGate(options);
  const ComputeCapability cc = device.arch.cc;
  if (gate == CcGate::kMajor8Only) {
    if (device.rocm) return skip(1, "a ROCm device, and this version ran on CUDA devices of compute capability 8.x only.");
    if (cc.major != 8) {
      return skip(1, "compute capability " + cc.str() + " is not 8.x, and this version ran only on CC 8.x.");
    }
  } else if (!device.rocm && cc.major < 8) {
    return skip(1, "compute capability " + cc.str() + " is below 8.0.");
  }

  // Step 2: n_regs known, R blocks not too small.
  if (!c.n_regs) return skip(2, "n_regs is not known (the kernel has not been loaded).");
  const std::int64_t rprod = c.rBlockProduct();
  if (rprod <= 64) {
    std::string what = c.r1_block > 0 ? "R-block product " + num(c.r1_block) + " · " + num(c.r0_block) + " = " + num(rprod)
                                      : std::string(options.profile == Profile::kInductor2023 ? "RBLOCK " : "R-block product ") +
                                            num(rprod);
    return skip(2, what + " <= 64: the R blocks are already small.");
  }

  // Step 3: registers cannot limit occupancy at or below regs_per_SM // threads_per_SM.
  const int n_regs = *c.n_regs;
  const int thr = registerThreshold(device);
  if (n_regs <= thr) {
    return skip(3, "n_regs " + num(n_regs) + " <= " + num(device.registersPerSm()) + " // " + num(device.maxThreadsPerSm()) +
                       " = " + num(thr) + ": registers do not limit occupancy.");
  }
  d.applies = true;

  // Steps 4-5: total blocks and the bound.
  Bound b = policyBound(policy, device, n_regs, c.num_warps, c.shared_bytes, options.profile);
  d.bound_blocks_per_sm = b.blocks_per_sm;
  d.bound_arithmetic = std::move(b.arithmetic);
  d.capacity_blocks = std::int64_t{d.bound_blocks_per_sm} * device.sm_count;
  const std::string blocks = num(d.total_blocks) + " blocks (ceil(" + num(kernel.size_hints.x) + " / " + num(c.xblock) + "))";
  const std::string cap = num(d.bound_blocks_per_sm) + " × " + num(device.sm_count) + " = " + num(d.capacity_blocks);

  // Step 6.
  if (d.total_blocks <= d.capacity_blocks) {
    d.outcome = Outcome::kNoScale;
    d.step = 6;
    d.reason = "Step 6: no scaling — " + blocks + " <= " + cap + " blocks resident at once: no occupancy to gain.";
    return d;
  }

  // Step 7: halve the largest R block, unless the result is already a candidate.
  const Halving h = largestRBlock(c, options.profile);
  ReductionConfig nc = c;
  if (h.kwarg == "R1_BLOCK") {
    nc.r1_block = h.to;
  } else {
    nc.r0_block = h.to;
  }
  nc.n_regs.reset();
  nc.n_spills.reset();
  nc.origin = "halved " + h.kwarg;
  d.halved_kwarg = h.kwarg;
  d.new_config = nc;
  d.step = 7;
  std::string what = h.kwarg + " " + num(h.from) + " → " + num(h.to);
  if (h.tie) what += " (R1_BLOCK and R0_BLOCK tie; Inductor's max() keeps the first kwarg, R1_BLOCK)";
  if (existing) {
    for (const auto& e : *existing) {
      if (e.sameLaunchConfig(nc)) {
        d.outcome = Outcome::kDuplicate;
        d.reason = "Step 7: nothing added — " + blocks + " > " + cap + " would scale (" + what + "), but " + nc.str(options.profile) +
                   " is already a candidate.";
        return d;
      }
    }
  }
  d.outcome = Outcome::kScale;
  d.reason = "Step 7: scale — " + blocks + " > " + cap + " blocks resident at once: " + what + ".";
  return d;
}

Expected<ScalingPass> runScalingPass(Policy policy, const std::vector<ReductionConfig>& compiled, const KernelInfo& kernel,
                                     const Device& device, const DecisionOptions& options) {
  const ProfileInfo& info = profileInfo(options.profile);
  ScalingPass pass;
  pass.policy = policy;
  pass.profile = options.profile;
  std::vector<ReductionConfig> seen;
  for (const auto& c : compiled) {
    PassEntry e;
    e.config = c;
    pass.entries.push_back(std::move(e));
    seen.push_back(c);
  }
  for (std::size_t i = 0; i < pass.entries.size(); ++i) {
    PassEntry& e = pass.entries[i];
    if (e.added_by_pass) {
      // The decision is still computed (validation, total blocks) with n_regs unknown.
      ReductionConfig unknown = e.config;
      unknown.n_regs.reset();
      auto d = decide(policy, unknown, kernel, device, options, &seen);
      if (!d) return Error{d.error()};
      e.decision = std::move(d).value();
      if (info.visits_added_configs) {
        e.decision.step = 2;
        e.decision.outcome = Outcome::kNotApplicable;
        e.decision.applies = false;
        e.decision.reason =
            "Step 2: skipped — added by this pass; its n_regs is not known until the kernels are loaded after the loop, so it is not "
            "halved again.";
      } else {
        e.decision.step = 0;
        e.decision.outcome = Outcome::kNotApplicable;
        e.decision.applies = false;
        e.decision.reason = "Not examined — the 2023 loop walks the original configs only.";
      }
      continue;
    }
    auto d = decide(policy, e.config, kernel, device, options, &seen);
    if (!d) return Error{"config #" + num(static_cast<std::int64_t>(i) + 1) + ": " + d.error()};
    e.decision = std::move(d).value();
    if (e.decision.scales()) {
      PassEntry added;
      added.config = *e.decision.new_config;
      added.config.origin = "halved from #" + num(static_cast<std::int64_t>(i) + 1);
      added.added_by_pass = true;
      added.parent = static_cast<int>(i);
      seen.push_back(added.config);
      pass.entries.push_back(std::move(added));  // invalidates `e`; not used after this
      ++pass.added;
    }
  }
  pass.note = info.visits_added_configs
                  ? "The loop also visits the configs it adds, but their n_regs is unknown until the kernels are loaded after the loop, "
                    "so each original config is halved at most once."
                  : "The loop walks the original configs only; added configs are never examined.";
  return pass;
}

Expected<std::vector<ChainStep>> keepHalvingChain(Policy policy, const ReductionConfig& start, const KernelInfo& kernel,
                                                  const Device& device, const DecisionOptions& options,
                                                  const std::vector<int>& n_regs_per_step, int max_steps) {
  if (max_steps < 1 || max_steps > 32) return Error{"chain length " + num(max_steps) + " is out of range: allowed 1 … 32"};
  std::vector<ChainStep> chain;
  ReductionConfig cur = start;
  std::optional<int> last = start.n_regs;
  for (int k = 0; k < max_steps; ++k) {
    ChainStep s;
    if (k > 0) {
      const auto idx = static_cast<std::size_t>(k - 1);
      if (idx < n_regs_per_step.size()) {
        cur.n_regs = n_regs_per_step[idx];
      } else {
        cur.n_regs = last;
        s.n_regs_assumed = last.has_value();
      }
    }
    last = cur.n_regs;
    auto d = decide(policy, cur, kernel, device, options, nullptr);
    if (!d) return Error{"link " + num(k) + ": " + d.error()};
    s.config = cur;
    s.decision = std::move(d).value();
    const bool go_on = s.decision.scales();
    chain.push_back(s);
    if (!go_on) break;
    cur = *chain.back().decision.new_config;
    cur.origin = "link " + num(k + 1);
  }
  return chain;
}

Expected<BoundCurves> boundCurves(const ReductionConfig& config, const KernelInfo& kernel, const Device& device,
                                  const DecisionOptions& options) {
  ReductionConfig probe = config;
  probe.n_regs = 1;
  if (auto e = validateConfig(probe, device, options.profile)) return *e;
  BoundCurves out;
  out.num_warps = config.num_warps;
  out.total_blocks = (kernel.size_hints.x + config.xblock - 1) / config.xblock;
  out.blocks_needed_per_sm = static_cast<double>(out.total_blocks) / device.sm_count;
  const int warp = profileInfo(options.profile).warp_size_from_device ? device.warpSize() : 32;
  const int old_b = oldBound(device, config.num_warps).blocks_per_sm;
  for (int n = 1; n <= device.arch.max_registers_per_thread; ++n) {
    BoundCurvePoint p;
    p.n_regs = n;
    p.old_bound = old_b;
    p.new_bound = newBound(device, n, config.num_warps, warp).blocks_per_sm;
    p.review_min_bound = reviewMinBound(device, n, config.num_warps, warp).blocks_per_sm;
    p.exact_bound = exactBound(device, n, config.num_warps, config.shared_bytes).blocks_per_sm;
    probe.n_regs = n;
    auto o = decide(Policy::kOld, probe, kernel, device, options);
    auto w = decide(Policy::kNew, probe, kernel, device, options);
    auto x = decide(Policy::kExact, probe, kernel, device, options);
    if (!o || !w || !x) return Error{!o ? o.error() : !w ? w.error() : x.error()};
    p.old_outcome = o->outcome;
    p.new_outcome = w->outcome;
    p.exact_outcome = x->outcome;
    if (o->scales() != w->scales()) {
      if (!out.old_new_disagree.empty() && out.old_new_disagree.back().last == n - 1) {
        out.old_new_disagree.back().last = n;
      } else {
        out.old_new_disagree.push_back({n, n});
      }
    }
    out.points.push_back(p);
  }
  return out;
}

Expected<GridComparison> compareGrid(const Device& device, const DecisionOptions& options) {
  GridComparison g;
  g.device_label = device.label;
  g.sm_count = device.sm_count;
  const int warps_list[] = {1, 2, 4, 8, 16, 32};
  KernelInfo kernel;
  for (int w : warps_list) {
    GridCounts counts;
    for (int n = 33; n <= 255; ++n) {
      for (std::int64_t blocks = 64; blocks <= 65536; blocks *= 2) {
        kernel.size_hints.x = blocks;
        ReductionConfig c;
        c.xblock = 1;
        c.r0_block = 2048;
        c.num_warps = w;
        c.n_regs = n;
        auto o = decide(Policy::kOld, c, kernel, device, options);
        auto nw = decide(Policy::kNew, c, kernel, device, options);
        auto rm = decide(Policy::kReviewMin, c, kernel, device, options);
        auto ex = decide(Policy::kExact, c, kernel, device, options);
        if (!o || !nw || !rm || !ex) return Error{!o ? o.error() : !nw ? nw.error() : !rm ? rm.error() : ex.error()};
        if (!nw->applies && nw->step == 1) {
          return Error{"the grid cannot be compared on " + device.label + ": " + nw->reason +
                       " Choose another compute-capability gate or profile."};
        }
        ++counts.points;
        const bool unlaunchable = ex->bound_blocks_per_sm == 0;
        counts.unlaunchable += unlaunchable ? 1 : 0;
        counts.old_vs_new += o->scales() != nw->scales() ? 1 : 0;
        counts.new_vs_review_min += nw->scales() != rm->scales() ? 1 : 0;
        if (nw->scales() != ex->scales()) {
          ++counts.new_vs_exact;
          counts.new_vs_exact_launchable += unlaunchable ? 0 : 1;
        }
      }
    }
    g.by_num_warps.emplace_back(w, counts);
    g.total.points += counts.points;
    g.total.old_vs_new += counts.old_vs_new;
    g.total.new_vs_exact += counts.new_vs_exact;
    g.total.new_vs_review_min += counts.new_vs_review_min;
    g.total.unlaunchable += counts.unlaunchable;
    g.total.new_vs_exact_launchable += counts.new_vs_exact_launchable;
  }
  return g;
}

}  // namespace occx::inductor
