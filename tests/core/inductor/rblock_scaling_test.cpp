// Hand-derived RBLOCK-scaling decisions (Inductor's _dynamic_scale_rblock, core/inductor/rblock_scaling.h).
// Each test's comment carries its arithmetic.
// Device figures: A100 = CC 8.0, 108 SMs; H200 = CC 9.0, 132 SMs; both 65536 registers/SM,
// 2048 threads/SM (64 warps), warp size 32, 32 blocks/SM, 256-register allocation unit, warp
// granularity 4. A10 = CC 8.6, 72 SMs, 1536 threads/SM. T4 = CC 7.5, 40 SMs, 1024 threads/SM.
#include <gtest/gtest.h>

#include "core/base/pow2.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/rblock_scaling.h"
#include "tests/support/arch_support.h"

using namespace occx;
using namespace occx::inductor;
using namespace occx::test;

namespace {

Decision run(Policy p, const ReductionConfig& c, const KernelInfo& k, const Device& d, DecisionOptions o = {},
             const std::vector<ReductionConfig>* existing = nullptr) {
  auto r = decide(p, c, k, d, o, existing);
  EXPECT_TRUE(r.hasValue()) << r.error();
  return r.hasValue() ? r.value() : Decision{};
}

// Expects `d` to scale by halving `kwarg`, leaving R0_BLOCK `r0_block` and R1_BLOCK `r1_block`.
void expectHalved(const Decision& d, const std::string& kwarg, int r0_block, int r1_block) {
  ASSERT_TRUE(d.scales());
  EXPECT_EQ(d.halved_kwarg, kwarg);
  EXPECT_EQ(d.new_config->r0_block, r0_block);
  EXPECT_EQ(d.new_config->r1_block, r1_block);
}

}  // namespace

// The motivating case: a spilling kernel with 255 registers, num_warps 8, 512 blocks on an A100.
// old: 2048 // (32·8) = 8 blocks/SM, 8 × 108 = 864 >= 512 → no scaling.
// new: max(65536 // (255·32·8), 1) = max(65536 // 65280, 1) = 1, 1 × 108 = 108 < 512 → R0_BLOCK 2048 → 1024.
TEST(RblockMotivating, A100_255Regs_8Warps_512Blocks_OldKeeps_NewHalves) {
  const Device a100 = gpu("A100");
  const auto c = reductionConfig(1, 2048, 8, 255);
  const auto k = kernelX(512);
  const Decision old_d = run(Policy::kOld, c, k, a100);
  EXPECT_EQ(old_d.bound_blocks_per_sm, 8);
  EXPECT_EQ(old_d.capacity_blocks, 864);
  EXPECT_EQ(old_d.total_blocks, 512);
  EXPECT_EQ(old_d.outcome, Outcome::kNoScale);
  EXPECT_EQ(old_d.step, 6);
  const Decision new_d = run(Policy::kNew, c, k, a100);
  EXPECT_EQ(new_d.bound_blocks_per_sm, 1);
  EXPECT_EQ(new_d.capacity_blocks, 108);
  EXPECT_EQ(new_d.outcome, Outcome::kScale);
  EXPECT_EQ(new_d.step, 7);
  ASSERT_TRUE(new_d.new_config.has_value());
  EXPECT_EQ(new_d.new_config->r0_block, 1024);
  EXPECT_EQ(new_d.halved_kwarg, "R0_BLOCK");
  EXPECT_EQ(new_d.bound_arithmetic, "max(65536 // (255 · 32 · 8), 1) = max(65536 // 65280, 1) = max(1, 1) = 1");
}

// Exact on the same case: 255 × 32 = 8160 → 8192 registers per warp; 8 warps = 65536 per block:
// 16384 / 8192 = 2 warps per sub-partition → 8 warps per SM → 1 block. 108 < 512 → scale.
TEST(RblockMotivating, A100_255Regs_ExactAgreesOneBlock) {
  const Decision d = run(Policy::kExact, reductionConfig(1, 2048, 8, 255), kernelX(512), gpu("A100"));
  EXPECT_EQ(d.bound_blocks_per_sm, 1);
  EXPECT_TRUE(d.scales());
}

// The recorded H200 decision: x=512, XBLOCK=1, R0_BLOCK=2048, num_warps=16, n_regs=38.
// new: max(65536 // (38·32·16), 1) = max(65536 // 19456, 1) = 3; 3 × 132 = 396 < 512 → R0_BLOCK 1024.
// old: 2048 // (32·16) = 4; 4 × 132 = 528 >= 512 → no scaling.
TEST(RblockH200Anchor, NewBound3_396Below512_ScalesTo1024_OldBound4_528_Keeps) {
  const Device h200 = gpu("H200");
  const auto c = reductionConfig(1, 2048, 16, 38);
  const auto k = kernelX(512);
  const Decision n = run(Policy::kNew, c, k, h200);
  EXPECT_EQ(n.bound_blocks_per_sm, 3);
  EXPECT_EQ(n.capacity_blocks, 396);
  EXPECT_TRUE(n.scales());
  EXPECT_EQ(n.new_config->r0_block, 1024);
  EXPECT_EQ(n.new_config->xblock, 1);
  EXPECT_EQ(n.new_config->num_warps, 16);
  EXPECT_FALSE(n.new_config->n_regs.has_value());  // unknown until the halved kernel is compiled
  EXPECT_EQ(
      n.reason,
      "Step 7: scale — 512 blocks (ceil(512 / 1)) > 3 × 132 = 396 blocks resident at once: R0_BLOCK 2048 → 1024.");
  const Decision o = run(Policy::kOld, c, k, h200);
  EXPECT_EQ(o.bound_blocks_per_sm, 4);
  EXPECT_EQ(o.capacity_blocks, 528);
  EXPECT_EQ(o.outcome, Outcome::kNoScale);
  EXPECT_EQ(o.bound_arithmetic, "2048 // (32 · 16) = 4");
}

// Exact on the H200 anchor: 38 × 32 = 1216 → 1280 per warp; 16384 / 1280 = 12 warps per
// sub-partition, 48 per SM; 16 warps per block → 3 blocks (limited by registers). 396 < 512 → scale.
TEST(RblockH200Anchor, ExactBoundIs3LimitedByRegisters) {
  const Bound b = exactBound(gpu("H200"), 38, 16, 0);
  EXPECT_EQ(b.blocks_per_sm, 3);
  EXPECT_NE(b.arithmetic.find("limited by registers"), std::string::npos) << b.arithmetic;
}

// Equality at the boundary: A100 limits with 128 SMs, n_regs 64, 16 warps:
// new = 65536 // (64·32·16 = 32768) = 2; capacity 2 × 128 = 256. Size hint x 256 → 256 <= 256 → no
// scaling; size hint x 512 → 512 > 256 → scale.
TEST(RblockBoundary, TotalEqualsCapacity_NoScale_OneMoreWave_Scales) {
  const Device d = gpu("A100", 128);
  const auto c = reductionConfig(1, 2048, 16, 64);
  const Decision eq = run(Policy::kNew, c, kernelX(256), d);
  EXPECT_EQ(eq.capacity_blocks, 256);
  EXPECT_EQ(eq.total_blocks, 256);
  EXPECT_EQ(eq.outcome, Outcome::kNoScale);
  const Decision over = run(Policy::kNew, c, kernelX(512), d);
  EXPECT_EQ(over.outcome, Outcome::kScale);
}

// Old bound at equality: H200 limits with 128 SMs, 16 warps: 2048 // 512 = 4; 4 × 128 = 512 = total 512.
TEST(RblockBoundary, OldBoundEquality_4x128Equals512_NoScale) {
  const Decision d = run(Policy::kOld, reductionConfig(1, 2048, 16, 38), kernelX(512), gpu("H200", 128));
  EXPECT_EQ(d.capacity_blocks, 512);
  EXPECT_EQ(d.outcome, Outcome::kNoScale);
}

// Step 3 threshold: 65536 // 2048 = 32. n_regs 32 → skipped at step 3; n_regs 33 → applies:
// new = 65536 // (33·32·16 = 16896) = 3 → 396 < 512 → scale.
TEST(RblockThreshold, NRegs32Skipped_NRegs33Applies) {
  const Device h200 = gpu("H200");
  EXPECT_EQ(registerThreshold(h200), 32);
  const Decision at = run(Policy::kNew, reductionConfig(1, 2048, 16, 32), kernelX(512), h200);
  EXPECT_EQ(at.outcome, Outcome::kNotApplicable);
  EXPECT_EQ(at.step, 3);
  EXPECT_FALSE(at.applies);
  EXPECT_EQ(at.reason, "Step 3: skipped — n_regs 32 <= 65536 // 2048 = 32: registers do not limit occupancy.");
  const Decision above = run(Policy::kNew, reductionConfig(1, 2048, 16, 33), kernelX(512), h200);
  EXPECT_TRUE(above.applies);
  EXPECT_EQ(above.bound_blocks_per_sm, 3);
  EXPECT_TRUE(above.scales());
}

// On CC 8.6 (A10: 1536 threads/SM) the threshold is 65536 // 1536 = 42: n_regs 42 skipped, 43 applies.
TEST(RblockThreshold, Cc86ThresholdIs42) {
  const Device a10 = gpu("A10");
  EXPECT_EQ(registerThreshold(a10), 42);
  EXPECT_EQ(run(Policy::kNew, reductionConfig(1, 2048, 8, 42), kernelX(4096), a10).step, 3);
  // 43: new = 65536 // (43·32·8 = 11008) = 5 → 5 × 72 = 360 < 4096 → scale.
  const Decision d = run(Policy::kNew, reductionConfig(1, 2048, 8, 43), kernelX(4096), a10);
  EXPECT_EQ(d.bound_blocks_per_sm, 5);
  EXPECT_TRUE(d.scales());
  // old on 8.6: 1536 // (32·8) = 6.
  EXPECT_EQ(oldBound(a10, 8).blocks_per_sm, 6);
}

// Step 2: R-block product exactly 64 → skipped; 128 → passes (and scales on the H200 anchor numbers).
TEST(RblockProduct, Exactly64Skipped_128Passes) {
  const Device h200 = gpu("H200");
  const Decision at = run(Policy::kNew, reductionConfig(1, 64, 16, 38), kernelX(512), h200);
  EXPECT_EQ(at.step, 2);
  EXPECT_EQ(at.reason, "Step 2: skipped — R-block product 64 <= 64: the R blocks are already small.");
  const Decision above = run(Policy::kNew, reductionConfig(1, 128, 16, 38), kernelX(512), h200);
  EXPECT_TRUE(above.scales());
  EXPECT_EQ(above.new_config->r0_block, 64);
}

// 2-D reduction: R1_BLOCK 8 × R0_BLOCK 8 = 64 → skipped at step 2.
TEST(RblockProduct, TwoDimensional8x8Is64Skipped) {
  const Decision d = run(Policy::kNew, reductionConfig(1, 8, 16, 38, 8), kernelX(512), gpu("H200"));
  EXPECT_EQ(d.step, 2);
  EXPECT_EQ(d.reason, "Step 2: skipped — R-block product 8 · 8 = 64 <= 64: the R blocks are already small.");
}

// R0/R1: the largest R block is halved. R1_BLOCK 64, R0_BLOCK 2 (product 128) → R1_BLOCK 32.
TEST(RblockR0R1, LargestR1Halved) {
  const Decision d = run(Policy::kNew, reductionConfig(1, 2, 16, 38, 64), kernelX(512), gpu("H200"));
  expectHalved(d, "R1_BLOCK", 2, 32);
}

// R0_BLOCK 32 > R1_BLOCK 8 → R0_BLOCK 32 → 16.
TEST(RblockR0R1, LargestR0Halved) {
  const Decision d = run(Policy::kNew, reductionConfig(1, 32, 16, 38, 8), kernelX(512), gpu("H200"));
  expectHalved(d, "R0_BLOCK", 16, 8);
}

// Tie R1_BLOCK 16 = R0_BLOCK 16 (product 256): Inductor's kwargs read XBLOCK, R1_BLOCK, R0_BLOCK and
// max() returns the first maximal one → R1_BLOCK 16 → 8, R0_BLOCK stays 16.
TEST(RblockR0R1, TieHalvesR1FirstInKwargOrder) {
  const Decision d = run(Policy::kNew, reductionConfig(1, 16, 16, 38, 16), kernelX(512), gpu("H200"));
  ASSERT_NO_FATAL_FAILURE(expectHalved(d, "R1_BLOCK", 16, 8));
  EXPECT_NE(d.reason.find("tie"), std::string::npos);
  EXPECT_EQ(d.new_config->str(), "XBLOCK=1, R1_BLOCK=8, R0_BLOCK=16, num_warps=16");
}

// Persistent reductions have no R block: step 1, not applicable, for every policy.
TEST(RblockGates, PersistentReductionNotApplicable) {
  KernelInfo k = kernelX(512);
  k.persistent_reduction = true;
  for (Policy p : boundPolicies()) {
    const Decision d = run(p, reductionConfig(1, 2048, 16, 38), k, gpu("H200"));
    EXPECT_EQ(d.outcome, Outcome::kNotApplicable);
    EXPECT_EQ(d.step, 1);
    EXPECT_FALSE(d.new_config.has_value());
  }
}

// CC 7.5 (T4): the current gate needs CC >= 8.0 → step 1, even with 255 registers.
TEST(RblockGates, Cc75SkippedByCurrentGate) {
  const Decision d = run(Policy::kNew, reductionConfig(1, 2048, 8, 255), kernelX(65536), gpu("T4"));
  EXPECT_EQ(d.step, 1);
  EXPECT_EQ(d.reason, "Step 1: skipped — compute capability 7.5 is below 8.0.");
}

// CC 9.0: the current gate lets it through; the 2023 profile (CC 8.x only) skips it; forcing the
// CC >= 8.0 gate on the 2023 profile lets the old bound decide (4 × 132 = 528 >= 512 → no scaling).
TEST(RblockGates, Cc90PassesCurrentGate_SkippedBy2023Gate_UnlessGateOverridden) {
  const Device h200 = gpu("H200");
  const auto c = reductionConfig(1, 2048, 16, 38);
  EXPECT_TRUE(run(Policy::kNew, c, kernelX(512), h200).applies);
  DecisionOptions o2023{Profile::kInductor2023, CcGate::kProfileDefault};
  const Decision d = run(Policy::kOld, c, kernelX(512), h200, o2023);
  EXPECT_EQ(d.step, 1);
  EXPECT_EQ(d.reason, "Step 1: skipped — compute capability 9.0 is not 8.x, and this version ran only on CC 8.x.");
  o2023.cc_gate = CcGate::kAtLeast80;
  const Decision forced = run(Policy::kOld, c, kernelX(512), h200, o2023);
  EXPECT_TRUE(forced.applies);
  EXPECT_EQ(forced.outcome, Outcome::kNoScale);
}

// The 2023 profile on an A100 (CC 8.0) with its own old bound, the motivating case: 8 × 108 = 864 >= 512.
TEST(RblockGates, Profile2023OnA100UsesRblockKwarg) {
  DecisionOptions o{Profile::kInductor2023, CcGate::kProfileDefault};
  const Decision old_d = run(Policy::kOld, reductionConfig(1, 2048, 8, 255), kernelX(512), gpu("A100"), o);
  EXPECT_EQ(old_d.outcome, Outcome::kNoScale);
  const Decision new_d = run(Policy::kNew, reductionConfig(1, 2048, 8, 255), kernelX(512), gpu("A100"), o);
  EXPECT_EQ(new_d.halved_kwarg, "RBLOCK");
  EXPECT_EQ(new_d.new_config->str(Profile::kInductor2023), "XBLOCK=1, RBLOCK=1024, num_warps=8");
}

// The 2023 profile has one RBLOCK kwarg: an R1_BLOCK is a validation error naming the range.
TEST(RblockGates, Profile2023RejectsR1Block) {
  DecisionOptions o{Profile::kInductor2023, CcGate::kProfileDefault};
  auto d = decide(Policy::kNew, reductionConfig(1, 16, 8, 40, 16), kernelX(512), gpu("A100"), o);
  ASSERT_FALSE(d.hasValue());
  EXPECT_EQ(d.error(), "R1_BLOCK 16 is not available in the inductor-2023 profile (one RBLOCK kwarg): allowed 0");
}

// Deterministic mode: the current version skips (step 1); the 2023 version had no such gate.
TEST(RblockGates, DeterministicSkipsCurrentOnly) {
  KernelInfo k = kernelX(512);
  k.deterministic = true;
  EXPECT_EQ(run(Policy::kNew, reductionConfig(1, 2048, 8, 255), k, gpu("A100")).step, 1);
  DecisionOptions o{Profile::kInductor2023, CcGate::kProfileDefault};
  EXPECT_TRUE(run(Policy::kNew, reductionConfig(1, 2048, 8, 255), k, gpu("A100"), o).scales());
}

// n_regs unknown (kernel not loaded) → step 2. The switch off → step 1. A pointwise kernel → step 1.
TEST(RblockGates, UnknownNRegsSwitchOffAndNonReduction) {
  const Device h200 = gpu("H200");
  EXPECT_EQ(run(Policy::kNew, reductionConfig(1, 2048, 16, std::nullopt), kernelX(512), h200).reason,
            "Step 2: skipped — n_regs is not known (the kernel has not been loaded).");
  KernelInfo off = kernelX(512);
  off.dynamic_scale_rblock = false;
  EXPECT_EQ(run(Policy::kNew, reductionConfig(1, 2048, 16, 38), off, h200).step, 1);
  KernelInfo pw = kernelX(512);
  pw.is_reduction = false;
  EXPECT_EQ(run(Policy::kNew, reductionConfig(1, 2048, 16, 38), pw, h200).step, 1);
}

// A 1-register kernel: 1 <= 32 → step 3. Raw bounds with 1 warp: new = 65536 // 32 = 2048;
// exact: 32 registers per warp → 256 after rounding → 64 warps by registers, 64 by warps, capped at
// 32 blocks per SM → 32; review_min = min(2048, 64) = 64.
TEST(RblockExtremes, OneRegister) {
  const Device h200 = gpu("H200");
  EXPECT_EQ(run(Policy::kNew, reductionConfig(1, 2048, 1, 1), kernelX(65536), h200).step, 3);
  EXPECT_EQ(newBound(h200, 1, 1, 32).blocks_per_sm, 2048);
  EXPECT_EQ(exactBound(h200, 1, 1, 0).blocks_per_sm, 32);
  EXPECT_EQ(reviewMinBound(h200, 1, 1, 32).blocks_per_sm, 64);
}

// num_warps 32 (1024 threads): old = 2048 // 1024 = 2. n_regs 64: new = 65536 // (64·32·32) = 1,
// exact = 64·32 = 2048 per warp × 32 warps = 65536 → 1 block. n_regs 65: 65·32 = 2080 → 2304 per
// warp × 32 = 73728 > 65536 → cannot launch: exact 0; new = max(0, 1) = 1; review_min = min(0, 2) = 0.
TEST(RblockExtremes, ThirtyTwoWarps) {
  const Device h200 = gpu("H200");
  EXPECT_EQ(oldBound(h200, 32).blocks_per_sm, 2);
  EXPECT_EQ(newBound(h200, 64, 32, 32).blocks_per_sm, 1);
  EXPECT_EQ(exactBound(h200, 64, 32, 0).blocks_per_sm, 1);
  EXPECT_EQ(newBound(h200, 65, 32, 32).blocks_per_sm, 1);
  const Bound ex = exactBound(h200, 65, 32, 0);
  EXPECT_EQ(ex.blocks_per_sm, 0);
  EXPECT_NE(ex.arithmetic.find("cannot launch"), std::string::npos);
  EXPECT_EQ(reviewMinBound(h200, 65, 32, 32).blocks_per_sm, 0);
  // The decision with exact 0: capacity 0 < 64 blocks → scale; new: 1 × 132 = 132 >= 64 → no.
  EXPECT_TRUE(run(Policy::kExact, reductionConfig(1, 2048, 32, 65), kernelX(64), h200).scales());
  EXPECT_FALSE(run(Policy::kNew, reductionConfig(1, 2048, 32, 65), kernelX(64), h200).scales());
}

// review_min equals new when n_regs > 32: H200 38 regs, 16 warps → min(65536 // 19456, 64 // 16) =
// min(3, 4) = 3 = new. With 200 regs, 16 warps: 65536 // 102400 = 0 → review_min 0, new clamps to 1.
TEST(RblockReviewMin, EqualsNewAboveThreshold_ZeroWhenBlockExceedsRegisterFile) {
  const Device h200 = gpu("H200");
  const Bound r = reviewMinBound(h200, 38, 16, 32);
  EXPECT_EQ(r.blocks_per_sm, 3);
  EXPECT_NE(r.arithmetic.find("equal to the new bound"), std::string::npos) << r.arithmetic;
  EXPECT_EQ(reviewMinBound(h200, 200, 16, 32).blocks_per_sm, 0);
  EXPECT_EQ(newBound(h200, 200, 16, 32).blocks_per_sm, 1);
}

// Exact limited by shared memory: A100, 40 registers, 4 warps, 48 KB dynamic shared memory:
// 49152 + 1024 reserved = 50176 B per block; SM configured to 164 KB = 167936 B → 3 blocks.
// Registers: 40·32 = 1280 per warp → 12 warps per sub-partition → 48 warps → 12 blocks.
// new = 65536 // (40·32·4 = 5120) = 12 → 1296 >= 512 → no scaling; exact 3 → 324 < 512 → scale.
TEST(RblockExact, SharedMemoryLimitsExactButNotNew) {
  const Device a100 = gpu("A100");
  auto c = reductionConfig(1, 2048, 4, 40);
  c.shared_bytes = 49152;
  const Decision ex = run(Policy::kExact, c, kernelX(512), a100);
  EXPECT_EQ(ex.bound_blocks_per_sm, 3);
  EXPECT_TRUE(ex.scales());
  EXPECT_NE(ex.bound_arithmetic.find("shared memory"), std::string::npos);
  const Decision nw = run(Policy::kNew, c, kernelX(512), a100);
  EXPECT_EQ(nw.bound_blocks_per_sm, 12);
  EXPECT_EQ(nw.outcome, Outcome::kNoScale);
}

// Step 7 duplicate: the halved config XBLOCK=1, R0_BLOCK=1024, num_warps=16 already exists → nothing added.
TEST(RblockDuplicate, HalvedConfigAlreadyACandidate) {
  std::vector<ReductionConfig> existing = {reductionConfig(1, 2048, 16, 38), reductionConfig(1, 1024, 16, 32)};
  const Decision d = run(Policy::kNew, existing[0], kernelX(512), gpu("H200"), {}, &existing);
  EXPECT_EQ(d.outcome, Outcome::kDuplicate);
  EXPECT_FALSE(d.scales());
  // A different num_warps is a different config: no duplicate.
  std::vector<ReductionConfig> other = {reductionConfig(1, 2048, 16, 38), reductionConfig(1, 1024, 8, 32)};
  EXPECT_TRUE(run(Policy::kNew, other[0], kernelX(512), gpu("H200"), {}, &other).scales());
}

// Size hints are numels rounded up to a power of two: 1000 → 1024, 5000 → 8192, 264 → 512,
// 30000 → 32768, 1 → 1; 1025 → 2048. 264 rows × XBLOCK 1 → 512 blocks, not 264.
TEST(RblockSizeHints, NonPowerOfTwoNumelsRoundUp) {
  auto h = sizeHintsFromNumels(1000, 5000);
  ASSERT_TRUE(h.hasValue());
  EXPECT_EQ(h->x, 1024);
  EXPECT_EQ(h->r0, 8192);
  EXPECT_EQ(h->r1, 0);
  auto h2 = sizeHintsFromNumels(264, 30000);
  EXPECT_EQ(h2->x, 512);
  EXPECT_EQ(h2->r0, 32768);
  EXPECT_EQ(nextPowerOfTwo(1), 1);
  EXPECT_EQ(nextPowerOfTwo(1025), 2048);
  KernelInfo k;
  k.size_hints = *h2;
  const Decision d = run(Policy::kNew, reductionConfig(1, 2048, 16, 38), k, gpu("H200"));
  EXPECT_EQ(d.total_blocks, 512);
  EXPECT_FALSE(sizeHintsFromNumels(0, 8).hasValue());
  EXPECT_EQ(sizeHintsFromNumels(0, 8).error(), "xnumel 0 is out of range: allowed 1 … 2147483647");
}

// Bad input is an error naming the field and the range, never a crash.
TEST(RblockValidation, ErrorsNameFieldAndRange) {
  const Device h200 = gpu("H200");
  EXPECT_EQ(decide(Policy::kNew, reductionConfig(3, 2048, 16, 38), kernelX(512), h200).error(),
            "XBLOCK 3 is out of range: allowed a power of two 1 … 4096");
  EXPECT_EQ(decide(Policy::kNew, reductionConfig(1, 2048, 64, 38), kernelX(512), h200).error(),
            "num_warps 64 is out of range: allowed a power of two 1 … 32 (1024 threads per block)");
  EXPECT_EQ(decide(Policy::kNew, reductionConfig(1, 2048, 16, 256), kernelX(512), h200).error(),
            "n_regs 256 is out of range: allowed 1 … 255 registers per thread");
  EXPECT_EQ(decide(Policy::kNew, reductionConfig(1, 100, 16, 38), kernelX(512), h200).error(),
            "R0_BLOCK 100 is out of range: allowed a power of two 1 … 65536");
  EXPECT_FALSE(makeDevice(h200.arch, 0).hasValue());
  EXPECT_EQ(parsePolicy("fast").error(), "policy 'fast' is not known: allowed old, new, review_min, exact, spills");
}

// The spills rule (proposed in the new bound's review): halve whenever the config spills, whatever
// occupancy says. The spill case's R32768 w32 (64 registers, 50 spills) and a config that does not
// spill but would scale under the new bound.
TEST(RblockSpillsRule, HalvesASpillingConfigWhateverTheOccupancy) {
  const Device h200 = gpu("H200");
  auto spilling = reductionConfig(1, 32768, 32, 64);
  spilling.n_spills = 50;
  // 8 blocks only: no bound would scale (8 <= 1 × 132), the spills rule does.
  const Decision s = run(Policy::kSpills, spilling, kernelX(8), h200);
  expectHalved(s, "R0_BLOCK", 16384, 0);
  EXPECT_TRUE(s.applies);
  EXPECT_EQ(s.step, 7);
  EXPECT_EQ(s.reason, "Step 7: scale — the config spills (n_spills 50 > 0): R0_BLOCK 32768 → 16384.");
  EXPECT_EQ(s.bound_arithmetic, "no bound; n_spills 50");
  EXPECT_EQ(run(Policy::kNew, spilling, kernelX(8), h200).outcome, Outcome::kNoScale);

  auto clean = reductionConfig(1, 2048, 16, 38);
  clean.n_spills = 0;
  const Decision c = run(Policy::kSpills, clean, kernelX(512), h200);
  EXPECT_EQ(c.outcome, Outcome::kNoScale);
  EXPECT_EQ(c.step, 6);
  EXPECT_TRUE(run(Policy::kNew, clean, kernelX(512), h200).scales());  // 512 > 3 × 132

  auto unknown = reductionConfig(1, 2048, 16, 38);
  unknown.n_spills.reset();
  const Decision u = run(Policy::kSpills, unknown, kernelX(512), h200);
  EXPECT_EQ(u.outcome, Outcome::kNotApplicable);
  EXPECT_EQ(u.step, 2);
  EXPECT_EQ(u.reason, "Step 2: skipped — n_spills is not known (the kernel has not been loaded).");

  // Its halved config may already be a candidate.
  std::vector<ReductionConfig> existing = {reductionConfig(1, 16384, 32, 64)};
  const Decision d = run(Policy::kSpills, spilling, kernelX(8), h200, {}, &existing);
  EXPECT_EQ(d.outcome, Outcome::kDuplicate);
  EXPECT_EQ(d.reason,
            "Step 7: nothing added — the config spills (n_spills 50 > 0), would scale (R0_BLOCK 32768 → 16384), but "
            "XBLOCK=1, R0_BLOCK=16384, num_warps=32 is already a candidate.");
  EXPECT_EQ(parsePolicy("spills").value(), Policy::kSpills);
  EXPECT_EQ(kPolicies.back(), Policy::kSpills);
  EXPECT_EQ(boundPolicies().size(), 4u);  // the bounds only
}
