// The RBLOCK policies: four upper bounds on resident blocks per SM (step 5 of the decision,
// core/inductor/rblock_scaling.h), each with its arithmetic in words, the register threshold of
// step 3, and the fifth policy, spills, which is a rule and not a bound. One list of policies
// (kPolicies) and one set type (PolicySet) serve the whole product.
//
// Source: old and new bounds as written in torch/_inductor/runtime/triton_heuristics.py
// (_dynamic_scale_rblock, September 2023 and PyTorch 2.11); the review_min variant as proposed in
// that change's review; the exact bound from our occupancy calculator (core/occupancy), which
// follows cuda_occupancy.h. Every number comes from the device or the compiled kernel.
#pragma once

#include <array>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/device.h"
#include "core/inductor/profile.h"

namespace occx::inductor {

/// The upper bound on resident blocks per SM that step 5 uses.
enum class Policy {
  kOld,        ///< max_threads_per_SM // (32 · num_warps): ignores registers
  kNew,        ///< max(registers_per_SM // (n_regs · warp_size · num_warps), 1): current Inductor
  kReviewMin,  ///< min(registers_per_SM // registers_per_block, max_warps_per_SM // num_warps)
  kExact,      ///< our occupancy calculator's active blocks per SM (allocation units, caps, smem)
  /// Not a bound: halve whenever the config spills (n_spills > 0), whatever occupancy says — the
  /// rule proposed when the new bound was reviewed upstream, never measured there. Steps 3–6 of the
  /// decision do not apply to it (core/inductor/rblock_scaling.h).
  kSpills,
};

/// "old", "new", "review_min", "exact", "spills".
std::string_view policyKey(Policy policy);
/// One line naming the bound, e.g. "new: max(regs_per_SM // (n_regs · warp_size · num_warps), 1)".
std::string_view policyFormula(Policy policy);
/// Parses a policy key (case-insensitive; "review-min" accepted). Error lists the accepted keys.
Expected<Policy> parsePolicy(std::string_view text);
/// Every policy, in table order: the four bounds (old, new, review_min, exact), then spills — what
/// an Inductor run's configs are decided by and what the picks of measured configs compare.
inline constexpr std::array<Policy, 5> kPolicies = {Policy::kOld, Policy::kNew, Policy::kReviewMin, Policy::kExact,
                                                    Policy::kSpills};
/// Whether `policy` is an upper bound on resident blocks per SM (every policy but spills).
constexpr bool isBound(Policy policy) {
  return policy != Policy::kSpills;
}
/// The policies of kPolicies that are bounds, in order: old, new, review_min, exact (what the bound
/// plots and the bound tables show).
const std::vector<Policy>& boundPolicies();
/// Position of `policy` in kPolicies (0 … 4).
constexpr std::size_t policyIndex(Policy policy) {
  return static_cast<std::size_t>(policy);
}
static_assert(kPolicies[0] == Policy::kOld && kPolicies[1] == Policy::kNew && kPolicies[2] == Policy::kReviewMin &&
                  kPolicies[3] == Policy::kExact && kPolicies[4] == Policy::kSpills,
              "kPolicies lists the policies in enum order: policyIndex and PolicySet depend on it");

/// A set of policies, e.g. the policies whose autotuner candidate set holds a config, or the
/// policies whose scaling added it. Keyed by the enum, never by position in a list or by text.
class PolicySet {
 public:
  constexpr PolicySet() = default;
  constexpr PolicySet(std::initializer_list<Policy> policies) {
    for (Policy p : policies) insert(p);
  }
  /// Every policy of kPolicies.
  static constexpr PolicySet all() { return PolicySet(kPolicies.begin(), kPolicies.end()); }
  [[nodiscard]] constexpr bool contains(Policy p) const { return (bits_ & bit(p)) != 0; }
  constexpr void insert(Policy p) { bits_ = static_cast<unsigned>(bits_ | bit(p)); }
  constexpr void set(Policy p, bool member) {
    if (member) {
      insert(p);
    } else {
      bits_ = static_cast<unsigned>(bits_ & ~bit(p));
    }
  }
  [[nodiscard]] constexpr bool empty() const { return bits_ == 0; }
  /// The members, in kPolicies order.
  [[nodiscard]] std::vector<Policy> members() const;
  /// The members' keys joined by ",": "old,new"; empty for the empty set.
  [[nodiscard]] std::string keys() const;
  constexpr bool operator==(const PolicySet&) const = default;

 private:
  template <class It>
  constexpr PolicySet(It first, It last) {
    for (; first != last; ++first) insert(*first);
  }
  static constexpr unsigned bit(Policy p) { return 1U << policyIndex(p); }
  unsigned bits_ = 0;
};

/// A bound on resident blocks per SM with its arithmetic in words.
struct Bound {
  int blocks_per_sm = 0;
  std::string arithmetic;  ///< e.g. "max(65536 // (38 · 32 · 16), 1) = max(3, 1) = 3"
};

/// registers_per_SM // max_threads_per_SM: the per-thread register count at or below which
/// registers cannot limit occupancy (65536 // 2048 = 32 on CC 8.0/9.0; 42 on 8.6). Step 3.
int registerThreshold(const Device& device);
/// Old bound: max_threads_per_SM // (32 · num_warps). 32 is Inductor's constant, as written.
Bound oldBound(const Device& device, int num_warps);
/// New bound: max(registers_per_SM // (n_regs · warp_size · num_warps), 1).
Bound newBound(const Device& device, int n_regs, int num_warps, int warp_size);
/// Review variant: min(registers_per_SM // (n_regs · warp_size · num_warps), max_warps_per_SM //
/// num_warps). Equals the new bound whenever n_regs > registerThreshold and the register term is
/// >= 1 (the arithmetic says why); 0 when one block's registers exceed the register file.
Bound reviewMinBound(const Device& device, int n_regs, int num_warps, int warp_size);
/// Exact bound: computeOccupancy's active blocks per SM for a block of num_warps · warp_size
/// threads, n_regs registers per thread (256-register allocation unit per warp, warp allocation
/// granularity), `shared_bytes` of dynamic shared memory (plus the runtime's reserved KB) and the
/// blocks-per-SM cap. 0 when the block cannot launch (the arithmetic says why).
Bound exactBound(const Device& device, int n_regs, int num_warps, std::int64_t shared_bytes);
/// The bound of `policy`, with the profile's warp size (32 in the 2023 profile). kSpills has none:
/// 0 blocks, and the arithmetic says why.
Bound policyBound(Policy policy, const Device& device, int n_regs, int num_warps, std::int64_t shared_bytes,
                  Profile profile);

}  // namespace occx::inductor
