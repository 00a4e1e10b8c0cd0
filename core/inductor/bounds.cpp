#include "core/inductor/bounds.h"

#include <algorithm>

#include "core/base/format.h"
#include "core/base/text.h"
#include "core/occupancy/occupancy.h"

namespace occx::inductor {

namespace {

std::string limitText(int v) {
  return v == kUnlimited ? std::string("unlimited") : num(v);
}

}  // namespace

std::string_view policyKey(Policy policy) {
  switch (policy) {
    case Policy::kOld:
      return "old";
    case Policy::kNew:
      return "new";
    case Policy::kReviewMin:
      return "review_min";
    case Policy::kExact:
      return "exact";
    case Policy::kSpills:
      return "spills";
  }
  return "new";
}

std::string_view policyFormula(Policy policy) {
  switch (policy) {
    case Policy::kOld:
      return "old: max_threads_per_SM // (32 · num_warps)";
    case Policy::kNew:
      return "new: max(regs_per_SM // (n_regs · warp_size · num_warps), 1)";
    case Policy::kReviewMin:
      return "review_min: min(regs_per_SM // regs_per_block, max_warps_per_SM // num_warps)";
    case Policy::kExact:
      return "exact: occupancy calculator's active blocks per SM";
    case Policy::kSpills:
      return "spills: halve whenever n_spills > 0, whatever occupancy says (proposed in the new bound's review)";
  }
  return "";
}

Expected<Policy> parsePolicy(std::string_view text) {
  const std::string t = lowerAscii(text);
  if (t == "old") return Policy::kOld;
  if (t == "new") return Policy::kNew;
  if (t == "review_min" || t == "review-min" || t == "reviewmin") return Policy::kReviewMin;
  if (t == "exact") return Policy::kExact;
  if (t == "spills") return Policy::kSpills;
  return Error{"policy '" + std::string(text) + "' is not known: allowed old, new, review_min, exact, spills"};
}

const std::vector<Policy>& boundPolicies() {
  static const std::vector<Policy> kBounds = [] {
    std::vector<Policy> b;
    for (Policy p : kPolicies) {
      if (isBound(p)) b.push_back(p);
    }
    return b;
  }();
  return kBounds;
}

std::vector<Policy> PolicySet::members() const {
  std::vector<Policy> out;
  for (Policy p : kPolicies) {
    if (contains(p)) out.push_back(p);
  }
  return out;
}

std::string PolicySet::keys() const {
  std::string out;
  for (Policy p : members()) out += (out.empty() ? "" : ",") + std::string(policyKey(p));
  return out;
}

int registerThreshold(const Device& device) {
  return device.registersPerSm() / device.maxThreadsPerSm();
}

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
                 num(num_warps) + "), 1) = max(" + num(device.registersPerSm()) + " // " + num(per_block) +
                 ", 1) = max(" + num(raw) + ", 1) = " + num(b.blocks_per_sm);
  return b;
}

Bound reviewMinBound(const Device& device, int n_regs, int num_warps, int warp_size) {
  const std::int64_t per_block = std::int64_t{n_regs} * warp_size * num_warps;
  const std::int64_t regs_term = device.registersPerSm() / per_block;
  const std::int64_t warps_term = device.maxWarpsPerSm() / num_warps;
  Bound b;
  b.blocks_per_sm = static_cast<int>(std::min(regs_term, warps_term));
  b.arithmetic = "min(" + num(device.registersPerSm()) + " // " + num(per_block) + ", " + num(device.maxWarpsPerSm()) +
                 " // " + num(num_warps) + ") = min(" + num(regs_term) + ", " + num(warps_term) +
                 ") = " + num(b.blocks_per_sm);
  const int thr = registerThreshold(device);
  if (regs_term == 0) {
    b.arithmetic +=
        "; the register term is 0 (one block needs more than the register file), where the new bound clamps to 1";
  } else if (n_regs > thr) {
    b.arithmetic += "; equal to the new bound: n_regs " + num(n_regs) + " > " + num(thr) +
                    " makes the register term the smaller one (regs_per_SM / (n_regs · warp_size) < max_warps_per_SM)";
  } else {
    b.arithmetic +=
        "; n_regs " + num(n_regs) + " <= " + num(thr) + ": the warp term limits (step 3 skips such configs)";
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

Bound policyBound(Policy policy, const Device& device, int n_regs, int num_warps, std::int64_t shared_bytes,
                  Profile profile) {
  const int warp = profileInfo(profile).warp_size_from_device ? device.warpSize() : 32;
  switch (policy) {
    case Policy::kOld:
      return oldBound(device, num_warps);
    case Policy::kNew:
      return newBound(device, n_regs, num_warps, warp);
    case Policy::kReviewMin:
      return reviewMinBound(device, n_regs, num_warps, warp);
    case Policy::kExact:
      return exactBound(device, n_regs, num_warps, shared_bytes);
    case Policy::kSpills:
      return Bound{0, "no bound: the spills policy halves whenever n_spills > 0"};
  }
  return {};
}

}  // namespace occx::inductor
