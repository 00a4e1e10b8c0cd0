// PyTorch Inductor's dynamic RBLOCK scaling decision (DESIGN.md §2.2), under four upper bounds on
// resident blocks per SM and two versions ("profiles") of Inductor.
//
// Source of the logic: torch/_inductor/runtime/triton_heuristics.py, CachingAutotuner
// ._dynamic_scale_rblock (current) and the precompile() loop of September 2023 (first version, one
// RBLOCK kwarg). This is our own code; every number it uses comes from the device (registers per SM,
// threads per SM, warp size, SM count) or from the compiled kernel (n_regs, shared memory).
//
// The decision, per compiled reduction config, in the steps DESIGN.md §2.2 numbers:
//   1. gates: the dynamic_scale_rblock switch, deterministic mode (current only), persistent
//      reductions and non-reduction kernels, the compute-capability gate (2023: major == 8;
//      current: major >= 8 or ROCm);
//   2. n_regs unknown → skip; product of the R blocks <= 64 → skip;
//   3. n_regs <= registers_per_SM // max_threads_per_SM → skip (registers do not limit occupancy);
//   4. total_blocks = ceil(size_hint_x / XBLOCK);
//   5. bound on resident blocks per SM (the policy);
//   6. total_blocks <= bound × SM count → no new config;
//   7. otherwise a copy with the largest R block halved, unless an identical config exists.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"

namespace occx::inductor {

/// A version of Inductor's decision.
enum class Profile {
  kInductor2023,     ///< first version (Sept 2023): one RBLOCK kwarg, CC 8.x only, originals examined once
  kInductorCurrent,  ///< current (PyTorch 2.11): R0_BLOCK/R1_BLOCK, CC >= 8.0 or ROCm, device warp size
};

/// The upper bound on resident blocks per SM that step 5 uses.
enum class Policy {
  kOld,        ///< max_threads_per_SM // (32 · num_warps): ignores registers
  kNew,        ///< max(registers_per_SM // (n_regs · warp_size · num_warps), 1): current Inductor
  kReviewMin,  ///< min(registers_per_SM // registers_per_block, max_warps_per_SM // num_warps)
  kExact,      ///< our occupancy calculator's active blocks per SM (allocation units, caps, smem)
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

/// "old", "new", "review_min", "exact".
std::string_view policyKey(Policy policy);
/// One line naming the bound, e.g. "new: max(regs_per_SM // (n_regs · warp_size · num_warps), 1)".
std::string_view policyFormula(Policy policy);
/// Parses a policy key (case-insensitive; "review-min" accepted). Error lists the accepted keys.
Expected<Policy> parsePolicy(std::string_view text);
/// old, new, review_min, exact — in that order.
const std::vector<Policy>& allPolicies();

/// The compute-capability gate's printable name: "CC 8.x only" / "CC >= 8.0 or ROCm".
std::string_view ccGateName(CcGate gate);
/// Parses "auto" (profile default), "8x" / "major8", "ge80" / ">=8.0". Error lists the forms.
Expected<CcGate> parseCcGate(std::string_view text);

/// The device as the decision sees it: the architecture's limits (registers per SM, threads per
/// SM, warp size, blocks-per-SM cap, allocation units, from resources/gpu_data.json) and the SM
/// count of the GPU.
struct Device {
  std::string label;  ///< "H200 (CC 9.0, 132 SMs)"
  ArchLimits arch;
  int sm_count = 0;
  bool rocm = false;  ///< an AMD GPU: the current version's gate lets it through regardless of CC

  [[nodiscard]] int registersPerSm() const { return arch.registers_per_sm; }
  [[nodiscard]] int maxThreadsPerSm() const { return arch.maxThreadsPerSm(); }
  [[nodiscard]] int warpSize() const { return arch.warp_size; }
  [[nodiscard]] int maxWarpsPerSm() const { return arch.max_warps_per_sm; }
};

/// A Device from an architecture and an SM count (1 … 1024). Error names the SM count and the
/// range, or an architecture whose registers/threads per SM are not positive.
Expected<Device> makeDevice(const ArchLimits& arch, int sm_count, std::string label = {});
/// A Device for a named GPU of `db` (name or alias); `sm_override` > 0 replaces its SM count.
/// Error names the GPU and the closest known names.
Expected<Device> deviceForGpu(const GpuDatabase& db, std::string_view gpu_name, int sm_override = 0);

/// Size hints: numels rounded up to a power of two (Inductor's size_hints). r1 == 0 means one
/// reduction dimension.
struct SizeHints {
  std::int64_t x = 1;
  std::int64_t r0 = 1;
  std::int64_t r1 = 0;
  /// Product of the reduction size hints (r0 · r1, or r0).
  [[nodiscard]] std::int64_t rTotal() const { return r1 > 0 ? r0 * r1 : r0; }
};

/// Smallest power of two >= n; 1 for n <= 1. n up to 2^62.
std::int64_t nextPowerOfTwo(std::int64_t n);
/// True for 1, 2, 4, …
bool isPowerOfTwo(std::int64_t n);
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
  std::optional<int> n_regs;     ///< registers per thread after compiling (1 … 255); none = unknown
  std::optional<int> n_spills;   ///< spilled registers reported by the compiler; none = unknown
  std::int64_t shared_bytes = 0; ///< shared memory per block the kernel launches with, bytes
  std::string origin;            ///< where it came from: "contiguous", "halved from #1", "input", …

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

/// Options of one decision.
struct DecisionOptions {
  Profile profile = Profile::kInductorCurrent;
  CcGate cc_gate = CcGate::kProfileDefault;  ///< make the first version's CC 8.x gate visible
};

/// The gate a profile + options apply.
CcGate effectiveCcGate(const DecisionOptions& options);

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
/// The bound of `policy`, with the profile's warp size (32 in the 2023 profile).
Bound policyBound(Policy policy, const Device& device, int n_regs, int num_warps, std::int64_t shared_bytes,
                  Profile profile);

/// How a decision ended.
enum class Outcome {
  kNotApplicable,  ///< a gate of steps 1–3 skipped the config
  kNoScale,        ///< step 6: total blocks fit in bound × SMs
  kScale,          ///< step 7: a halved config is added
  kDuplicate,      ///< step 7: the halved config is already a candidate, nothing added
};
/// "not applicable", "no scaling", "scale", "duplicate".
std::string_view outcomeName(Outcome outcome);

/// The decision of one policy for one config.
struct Decision {
  Policy policy = Policy::kNew;
  Profile profile = Profile::kInductorCurrent;
  Outcome outcome = Outcome::kNotApplicable;
  bool applies = false;        ///< passed steps 1–3, so the bound was evaluated
  int step = 0;                ///< the step (1–7) that decided
  int bound_blocks_per_sm = 0; ///< step 5 (0 when not applicable)
  std::int64_t capacity_blocks = 0;  ///< bound × SM count
  std::int64_t total_blocks = 0;     ///< ceil(size_hint_x / XBLOCK), computed for every config
  std::optional<ReductionConfig> new_config;  ///< the halved config (kScale, and kDuplicate for show)
  std::string halved_kwarg;    ///< "R0_BLOCK", "R1_BLOCK" or "RBLOCK"
  std::string bound_arithmetic;
  std::string reason;          ///< one sentence naming the step that decided, with its numbers

  [[nodiscard]] bool scales() const { return outcome == Outcome::kScale; }
};

/// Decides one config. `existing` are the configs already compiled or added (for step 7's duplicate
/// check; may be null). Errors: an invalid config or device (validateConfig's message). Never throws.
Expected<Decision> decide(Policy policy, const ReductionConfig& config, const KernelInfo& kernel, const Device& device,
                          const DecisionOptions& options = {}, const std::vector<ReductionConfig>* existing = nullptr);

/// One config visited by the scaling loop.
struct PassEntry {
  ReductionConfig config;
  bool added_by_pass = false;  ///< appended by this pass (a halved copy)
  int parent = -1;             ///< index of the config it was halved from
  Decision decision;
};

/// The whole loop over a kernel's compiled configs, as Inductor runs it.
struct ScalingPass {
  Policy policy = Policy::kNew;
  Profile profile = Profile::kInductorCurrent;
  std::vector<PassEntry> entries;  ///< originals, then added configs, in loop order
  int added = 0;
  std::string note;  ///< how the profile's loop treats the configs it adds
};

/// Runs the loop over `compiled` (each with n_regs, or without = unknown). The current profile's
/// loop also visits the configs it appends, but their n_regs is not known until the kernels are
/// loaded after the loop, so step 2 skips them: each original is halved at most once. The 2023
/// loop walks the original configs only. Errors: as decide().
Expected<ScalingPass> runScalingPass(Policy policy, const std::vector<ReductionConfig>& compiled, const KernelInfo& kernel,
                                     const Device& device, const DecisionOptions& options = {});

/// Label shown wherever the keep-halving chain appears.
inline constexpr std::string_view kKeepHalvingLabel =
    "Teaching aid, not Inductor: Inductor halves each config at most once. This chain applies the "
    "decision again to each halved config.";

/// One link of the keep-halving chain.
struct ChainStep {
  ReductionConfig config;
  bool n_regs_assumed = false;  ///< n_regs was not supplied for this step: the last known value is reused
  Decision decision;
};

/// The teaching chain: decide `start`; while the decision scales, decide the halved config, up to
/// `max_steps` (1 … 32) links. n_regs of link i is n_regs_per_step[i-1] when given (link 0 uses
/// start.n_regs), else the last known value, flagged as assumed. Errors: as decide(); max_steps
/// outside 1 … 32.
Expected<std::vector<ChainStep>> keepHalvingChain(Policy policy, const ReductionConfig& start, const KernelInfo& kernel,
                                                  const Device& device, const DecisionOptions& options = {},
                                                  const std::vector<int>& n_regs_per_step = {}, int max_steps = 16);

/// Bounds and decisions against registers per thread, for the plot.
struct BoundCurvePoint {
  int n_regs = 0;
  int old_bound = 0;
  int new_bound = 0;
  int review_min_bound = 0;
  int exact_bound = 0;
  Outcome old_outcome = Outcome::kNotApplicable;
  Outcome new_outcome = Outcome::kNotApplicable;
  Outcome exact_outcome = Outcome::kNotApplicable;
};

/// An inclusive n_regs range.
struct RegRange {
  int first = 0;
  int last = 0;
};

/// Curves for n_regs 1 … max registers per thread (255) with the config's other fields fixed.
struct BoundCurves {
  int num_warps = 0;
  std::int64_t total_blocks = 0;
  double blocks_needed_per_sm = 0.0;  ///< total_blocks / SM count: resident blocks one wave needs
  std::vector<BoundCurvePoint> points;
  std::vector<RegRange> old_new_disagree;  ///< n_regs ranges where old and new decide differently
};

/// Computes the curves. Bounds are the raw formulas (old is flat; new a floored hyperbola; exact a
/// staircase); outcomes run the full decision (gates included) with that n_regs. Errors: as decide().
Expected<BoundCurves> boundCurves(const ReductionConfig& config, const KernelInfo& kernel, const Device& device,
                                  const DecisionOptions& options = {});

/// Counts of differing decisions over the grid of the closing note.
struct GridCounts {
  int points = 0;
  int old_vs_new = 0;
  int new_vs_exact = 0;
  int new_vs_review_min = 0;
  int unlaunchable = 0;            ///< points whose block exceeds the register file (exact bound 0)
  int new_vs_exact_launchable = 0; ///< new_vs_exact among launchable points
};

/// The grid comparison: n_regs 33 … 255 × num_warps {1, 2, 4, 8, 16, 32} × total blocks
/// {64, 128, …, 65536}; each point is XBLOCK = 1, size hint x = total blocks, R0_BLOCK = 2048,
/// num_stages 1, no shared memory, decided with `options`. A decision "differs" when one policy
/// scales and the other does not.
struct GridComparison {
  std::string device_label;
  int sm_count = 0;
  GridCounts total;
  std::vector<std::pair<int, GridCounts>> by_num_warps;  ///< (num_warps, counts)
};
/// Runs the grid comparison on `device`. Errors: a profile gate that skips the device entirely.
Expected<GridComparison> compareGrid(const Device& device, const DecisionOptions& options = {});

}  // namespace occx::inductor
