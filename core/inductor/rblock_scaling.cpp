#include "core/inductor/rblock_scaling.h"

#include "core/base/format.h"

namespace occx::inductor {

namespace {

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

// Step 1, the gates: why the rule does not run for this kernel on this device at all, if so.
std::optional<std::string> closedGate(const KernelInfo& kernel, const Device& device, const DecisionOptions& options) {
  const ProfileInfo& info = profileInfo(options.profile);
  if (!kernel.dynamic_scale_rblock) return "Inductor's dynamic_scale_rblock switch is off.";
  if (info.honours_deterministic && kernel.deterministic) {
    return "deterministic mode is on, and the current version adds no configs then.";
  }
  if (kernel.persistent_reduction) {
    return "a persistent reduction keeps the whole row in one block: no R loop, no R block to halve.";
  }
  if (!kernel.is_reduction) return "not a looped reduction kernel (heuristic type is not REDUCTION).";
  const CcGate gate = effectiveCcGate(options);
  const ComputeCapability cc = device.arch.cc;
  if (gate == CcGate::kMajor8Only) {
    if (device.rocm) return "a ROCm device, and this version ran on CUDA devices of compute capability 8.x only.";
    if (cc.major != 8) {
      return "compute capability " + cc.str() + " is not 8.x, and this version ran only on CC 8.x.";
    }
  } else if (!device.rocm && cc.major < 8) {
    return "compute capability " + cc.str() + " is below 8.0.";
  }
  return std::nullopt;
}

// Step 2's words for the R blocks: their product (with its factors for two R blocks), or the
// RBLOCK of the single-RBLOCK profile.
std::string rBlocksText(const ReductionConfig& c, Profile profile) {
  const std::int64_t rprod = c.rBlockProduct();
  return c.r1_block > 0 ? "R-block product " + num(c.r1_block) + " · " + num(c.r0_block) + " = " + num(rprod)
                        : std::string(profile == Profile::kInductor2023 ? "RBLOCK " : "R-block product ") + num(rprod);
}

// Step 7: d with the largest R block of c halved (the new config), unless that config is already
// one of `existing` (nothing added). `why` and `why_duplicate` say what made it scale.
Decision halveLargestRBlock(Decision d, const ReductionConfig& c, Profile profile,
                            const std::vector<ReductionConfig>* existing, const std::string& why,
                            const std::string& why_duplicate) {
  const Halving h = largestRBlock(c, profile);
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
        d.reason = "Step 7: nothing added — " + why_duplicate + " would scale (" + what + "), but " + nc.str(profile) +
                   " is already a candidate.";
        return d;
      }
    }
  }
  d.outcome = Outcome::kScale;
  d.reason = "Step 7: scale — " + why + ": " + what + ".";
  return d;
}

}  // namespace

std::string_view outcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kNotApplicable:
      return "not applicable";
    case Outcome::kNoScale:
      return "no scaling";
    case Outcome::kScale:
      return "scale";
    case Outcome::kDuplicate:
      return "duplicate";
  }
  return "";
}

Expected<Decision> decide(Policy policy, const ReductionConfig& c, const KernelInfo& kernel, const Device& device,
                          const DecisionOptions& options, const std::vector<ReductionConfig>* existing) {
  if (auto e = validateConfig(c, device, options.profile)) return *e;
  if (kernel.size_hints.x < 1 || kernel.size_hints.x > (std::int64_t{1} << 31))
    return Error{"size hint x " + num(kernel.size_hints.x) + " is out of range: allowed 1 … 2^31"};
  if (device.sm_count < 1) return Error{"SM count " + num(device.sm_count) + " is out of range: allowed 1 … 1024"};

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
  if (auto closed = closedGate(kernel, device, options)) return skip(1, std::move(*closed));

  // Step 2: n_regs known, R blocks not too small.
  if (!c.n_regs) return skip(2, "n_regs is not known (the kernel has not been loaded).");
  const std::int64_t rprod = c.rBlockProduct();
  if (rprod <= 64) return skip(2, rBlocksText(c, options.profile) + " <= 64: the R blocks are already small.");

  // Step 7 (used by both rules below): halve the largest R block, unless the result is already a candidate.
  const std::string blocks =
      num(d.total_blocks) + " blocks (ceil(" + num(kernel.size_hints.x) + " / " + num(c.xblock) + "))";
  auto halve = [&](const std::string& why, const std::string& why_duplicate) {
    return halveLargestRBlock(d, c, options.profile, existing, why, why_duplicate);
  };

  // The spills rule: steps 3–6 do not apply; a spilling config is halved, whatever occupancy says.
  if (policy == Policy::kSpills) {
    if (!c.n_spills) return skip(2, "n_spills is not known (the kernel has not been loaded).");
    d.applies = true;
    d.bound_arithmetic = "no bound; n_spills " + num(*c.n_spills);
    if (*c.n_spills == 0) {
      d.outcome = Outcome::kNoScale;
      d.step = 6;
      d.reason =
          "Step 6: no scaling — the config does not spill (n_spills 0), and the spills rule halves only spilling "
          "configs.";
      return d;
    }
    const std::string spills = "the config spills (n_spills " + num(*c.n_spills) + " > 0)";
    return halve(spills, spills + ",");
  }

  // Step 3: registers cannot limit occupancy at or below regs_per_SM // threads_per_SM.
  const int n_regs = *c.n_regs;
  const int thr = registerThreshold(device);
  if (n_regs <= thr) {
    return skip(3, "n_regs " + num(n_regs) + " <= " + num(device.registersPerSm()) + " // " +
                       num(device.maxThreadsPerSm()) + " = " + num(thr) + ": registers do not limit occupancy.");
  }
  d.applies = true;

  // Steps 4-5: total blocks and the bound.
  Bound b = policyBound(policy, device, n_regs, c.num_warps, c.shared_bytes, options.profile);
  d.bound_blocks_per_sm = b.blocks_per_sm;
  d.bound_arithmetic = std::move(b.arithmetic);
  d.capacity_blocks = std::int64_t{d.bound_blocks_per_sm} * device.sm_count;
  const std::string cap = num(d.bound_blocks_per_sm) + " × " + num(device.sm_count) + " = " + num(d.capacity_blocks);

  // Step 6.
  if (d.total_blocks <= d.capacity_blocks) {
    d.outcome = Outcome::kNoScale;
    d.step = 6;
    d.reason = "Step 6: no scaling — " + blocks + " <= " + cap + " blocks resident at once: no occupancy to gain.";
    return d;
  }

  // Step 7.
  return halve(blocks + " > " + cap + " blocks resident at once", blocks + " > " + cap);
}

Expected<ScalingPass> runScalingPass(Policy policy, const std::vector<ReductionConfig>& compiled,
                                     const KernelInfo& kernel, const Device& device, const DecisionOptions& options) {
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
            "Step 2: skipped — added by this pass; its n_regs is not known until the kernels are loaded after the "
            "loop, so it is not "
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
  pass.note = info.visits_added_configs ? "The loop also visits the configs it adds, but their n_regs is unknown until "
                                          "the kernels are loaded after the loop, "
                                          "so each original config is halved at most once."
                                        : "The loop walks the original configs only; added configs are never examined.";
  return pass;
}

}  // namespace occx::inductor
