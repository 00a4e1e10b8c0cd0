// Inductor's reduction candidates and the pipeline, checked against hand arithmetic and against the
// configs and decisions recorded on an H200 with PyTorch 2.11 (../shared/reference/h200-anchors.md).
#include <gtest/gtest.h>

#include "core/gpu/gpu_data.h"
#include "core/inductor/candidates.h"
#include "tests/support/arch_support.h"

using namespace occx;
using namespace occx::inductor;

namespace {

Device h200() {
  return test::gpu("H200");
}

SizeHints hints(std::int64_t xnumel, std::int64_t rnumel, std::int64_t r1 = 0) {
  auto h = sizeHintsFromNumels(xnumel, rnumel, r1);
  EXPECT_TRUE(h.hasValue());
  return h.value();
}

std::vector<ReductionConfig> cands(const SizeHints& h, ReductionHint hint, Profile p = Profile::kInductorCurrent,
                                   CandidateOptions o = {}) {
  auto c = reductionCandidates(h, hint, p, o);
  EXPECT_TRUE(c.hasValue()) << c.error();
  return c.hasValue() ? c.value() : std::vector<ReductionConfig>{};
}

void expectConfig(const ReductionConfig& c, int xblock, int r0, int warps, int r1 = 0) {
  EXPECT_EQ(c.xblock, xblock) << c.str();
  EXPECT_EQ(c.r0_block, r0) << c.str();
  EXPECT_EQ(c.r1_block, r1) << c.str();
  EXPECT_EQ(c.num_warps, warps) << c.str();
}

}  // namespace

// H200 anchor, inner reduction x=512, r=8192: contiguous XBLOCK = 1 (8192 > 2048), R0_BLOCK =
// min(8192, 2048) = 2048, num_warps = 2048 // 128 = 16 (max 16 for r <= 8192) — the recorded config.
TEST(RblockCandidates, InnerH200Anchor_1x2048_16Warps) {
  auto c = cands(hints(512, 8192), ReductionHint::kInner);
  ASSERT_EQ(c.size(), 1u);
  expectConfig(c[0], 1, 2048, 16);
  EXPECT_EQ(c[0].origin, "contiguous");
}

// log_softmax 65536 × 768 (recorded: XBLOCK 2, R0_BLOCK 1024, 8 warps): size hint r = 1024 <= 2048
// → XBLOCK 2; R0_BLOCK = min(1024, 2048) = 1024; num_warps = 1024 // 128 = 8.
TEST(RblockCandidates, Inner65536x768_2x1024_8Warps) {
  auto c = cands(hints(65536, 768), ReductionHint::kInner);
  ASSERT_EQ(c.size(), 1u);
  expectConfig(c[0], 2, 1024, 8);
}

// log_softmax 264 × 30000 with the persistent-R0_BLOCK candidate (recorded: R0_BLOCK 32768 at 32
// warps, and 2048 at 16): r = 32768; XBLOCK = max(4096 // 32768, 1) = 1; R0 = min(32768, 32768);
// num_warps = 32768 // 128 = 256 → max 32 (r > 8192) → 32. Then contiguous (1, 2048, 16).
TEST(RblockCandidates, PersistentRblock264x30000_32768At32Warps_Then2048At16) {
  CandidateOptions o;
  o.add_persistent_rblock = true;
  auto c = cands(hints(264, 30000), ReductionHint::kInner, Profile::kInductorCurrent, o);
  ASSERT_EQ(c.size(), 2u);
  expectConfig(c[0], 1, 32768, 32);
  EXPECT_EQ(c[0].origin, "persistent R0_BLOCK");
  expectConfig(c[1], 1, 2048, 16);
}

// log_softmax 8192 × 5000 (recorded: R0_BLOCK 8192 at 16 warps): r hint 8192; persistent R0 =
// min(8192, 32768) = 8192, num_warps 8192 // 128 = 64 → max 16 (r <= 8192) → 16.
TEST(RblockCandidates, PersistentRblock8192x5000_8192At16Warps) {
  CandidateOptions o;
  o.add_persistent_rblock = true;
  auto c = cands(hints(8192, 5000), ReductionHint::kInner, Profile::kInductorCurrent, o);
  ASSERT_EQ(c.size(), 2u);
  expectConfig(c[0], 1, 8192, 16);
  // More than 8 loads + reductions: no persistent candidate.
  o.num_load = 6;
  o.num_reduction = 3;
  EXPECT_EQ(cands(hints(8192, 5000), ReductionHint::kInner, Profile::kInductorCurrent, o).size(), 1u);
}

// Default hint, x=512, r=8192 (num_warps = tile // 128, clamped 2 … 16):
// contiguous (1, 2048): 2048 // 128 = 16; outer: x <= 1024 → XBLOCK max(min(512 // 128, 8), 2) = 4,
// R0 min(8192, 64) = 64 → 256 // 128 = 2; tiny = (1, 2048, 16), a duplicate of contiguous, dropped;
// 64×64 → 4096 // 128 = 32 → 16; 8×512 → 16; 64×4 with num_warps 8.
TEST(RblockCandidates, DefaultHintFiveUniqueConfigs) {
  auto c = cands(hints(512, 8192), ReductionHint::kDefault);
  ASSERT_EQ(c.size(), 5u);
  expectConfig(c[0], 1, 2048, 16);
  expectConfig(c[1], 4, 64, 2);
  EXPECT_EQ(c[1].origin, "outer");
  expectConfig(c[2], 64, 64, 16);
  expectConfig(c[3], 8, 512, 16);
  expectConfig(c[4], 64, 4, 8);
}

// Outer hint, many rows: x hint 65536 (> 1024, 65536 // 4096 = 16 > 8), no dynamic shapes, few loads:
// XBLOCK = max(min(256, next_pow2(16)), 64) = 64; R0 = 512 // 64 = 8 → tile 512 → 4 warps.
TEST(RblockCandidates, OuterManyRows_64x8_4Warps) {
  auto c = cands(hints(65536, 128), ReductionHint::kOuter);
  ASSERT_EQ(c.size(), 1u);
  expectConfig(c[0], 64, 8, 4);
  // Outer-tiny: r = 128 <= 256 → XBLOCK 2 × (256 // 128) = 4, R0 = min(128, 2048) = 128, 512 // 128 = 4.
  auto t = cands(hints(65536, 128), ReductionHint::kOuterTiny);
  expectConfig(t[0], 4, 128, 4);
}

// Register-intensive kernel: x hint >= 1024 and num_load + num_reduction = 8 + 2 = 10 → max R0_BLOCK
// 1024 and max num_warps halved: contiguous (1, 1024), 1024 // 128 = 8, max 16 // 2 = 8 → 8.
TEST(RblockCandidates, RegisterIntensiveCapsR0At1024) {
  CandidateOptions o;
  o.num_load = 8;
  o.num_reduction = 2;
  auto c = cands(hints(1024, 8192), ReductionHint::kInner, Profile::kInductorCurrent, o);
  ASSERT_EQ(c.size(), 1u);
  expectConfig(c[0], 1, 1024, 8);
}

// 2-D reduction, hints x=64, r0=64, r1=64 (4096 in all), inner: contiguous XBLOCK 1, r = 2048 unravelled
// innermost first: R1 = min(64, 2048) = 64, remaining 32 → R0 = 32; num_warps 2048 // 128 = 16.
TEST(RblockCandidates, TwoDimensionalUnravelsInnermostFirst) {
  auto c = cands(hints(64, 64, 64), ReductionHint::kInner);
  ASSERT_EQ(c.size(), 1u);
  expectConfig(c[0], 1, 32, 16, 64);
  EXPECT_EQ(c[0].str(), "XBLOCK=1, R1_BLOCK=64, R0_BLOCK=32, num_warps=16");
}

// The 2023 generator: target = x·r before clamping. Hints x=1024, r=16, inner: contiguous asks
// (1, 2048) → target 2048; r clamps to 16; XBLOCK doubles while x·16 < 2048 → 128; num_warps
// 2048 // 128 = 16 → clamped to 8.
TEST(RblockCandidates, Profile2023GrowsXBlockToTarget) {
  auto c = cands(hints(1024, 16), ReductionHint::kInner, Profile::kInductor2023);
  ASSERT_EQ(c.size(), 1u);
  expectConfig(c[0], 128, 16, 8);
  EXPECT_EQ(c[0].str(Profile::kInductor2023), "XBLOCK=128, RBLOCK=16, num_warps=8");
  EXPECT_FALSE(reductionCandidates(hints(64, 64, 64), ReductionHint::kInner, Profile::kInductor2023).hasValue());
}

// Pipeline, H200 anchor: the contiguous candidate compiled to 38 registers, 0 spills → scaled to
// R0_BLOCK 1024 (added, visited and skipped: n_regs unknown). The added config compiled to 32
// registers (recorded) → both benchmarked.
TEST(RblockPipeline, H200AnchorAddsHalvedConfig) {
  PipelineInput in;
  in.kernel.size_hints = hints(512, 8192);
  in.hint = ReductionHint::kInner;
  in.compiled = {CompiledFacts{38, 0, 0}};
  auto p = runPipeline(in, h200());
  ASSERT_TRUE(p.hasValue()) << p.error();
  ASSERT_EQ(p->entries.size(), 2u);
  EXPECT_TRUE(p->entries[0].decision.scales());
  EXPECT_EQ(p->entries[0].spill, CandidateState::kBenchmarked);
  EXPECT_TRUE(p->entries[1].added_by_scaling);
  EXPECT_EQ(p->entries[1].config.r0_block, 1024);
  EXPECT_EQ(p->entries[1].spill, CandidateState::kNotCompiled);
  EXPECT_EQ(p->benchmarked, 1);
  in.compiled_added = {CompiledFacts{32, 0, 0}};
  auto p2 = runPipeline(in, h200());
  EXPECT_EQ(p2->benchmarked, 2);
  EXPECT_EQ(p2->entries[1].config.n_regs, 32);
}

// Pipeline with a spilling config (264 × 30000 fp32, recorded: R0 32768 / 32 warps, 64 registers,
// 50 spills): scaling runs before the spill filter, so it is still halved — new bound
// max(65536 // (64·32·32), 1) = 1 → 132 < 512 → R0 16384 — and then excluded from autotuning
// (50 > 16). The 2048 candidate (32 registers) is skipped at step 3 and benchmarked.
TEST(RblockPipeline, SpillingConfigStillHalvedThenExcluded) {
  PipelineInput in;
  in.kernel.size_hints = hints(264, 30000);
  in.hint = ReductionHint::kInner;
  in.candidate_options.add_persistent_rblock = true;
  in.compiled = {CompiledFacts{64, 50, 0}, CompiledFacts{32, 0, 0}};
  in.compiled_added = {CompiledFacts{64, 0, 0}};
  auto p = runPipeline(in, h200());
  ASSERT_TRUE(p.hasValue()) << p.error();
  ASSERT_EQ(p->entries.size(), 3u);
  EXPECT_TRUE(p->entries[0].decision.scales());
  EXPECT_EQ(p->entries[0].spill, CandidateState::kExcludedSpills);
  EXPECT_EQ(p->entries[0].spill_reason, "50 spilled registers > 16: timed as infinitely slow, never chosen");
  EXPECT_EQ(p->entries[1].decision.step, 3);
  EXPECT_EQ(p->entries[2].config.r0_block, 16384);
  EXPECT_EQ(p->entries[2].spill, CandidateState::kBenchmarked);
  EXPECT_EQ(p->benchmarked, 2);
}

// Recorded H200 decisions (same day): 2048 × 16384 fp16, R0 16384 at 32 warps, 61 registers:
// max(65536 // (61·32·32 = 62464), 1) = 1 → 132 < 2048 → R0 8192. 8192 × 5000 fp32, R0 8192 at 16
// warps, 50 registers: 65536 // 25600 = 2 → 264 < 8192 → R0 4096. 65536 × 768, XBLOCK 2, R0 1024,
// 8 warps, 48 registers: 32768 blocks; 65536 // 12288 = 5 → 660 < 32768 → R0 512.
TEST(RblockPipeline, RecordedH200HalvingsReproduced) {
  struct Case {
    std::int64_t x, r;
    int xblock, r0, warps, nregs, expect_r0;
  };
  const Case cases[] = {
      {2048, 16384, 1, 16384, 32, 61, 8192}, {8192, 5000, 1, 8192, 16, 50, 4096}, {65536, 768, 2, 1024, 8, 48, 512}};
  for (const auto& k : cases) {
    KernelInfo kernel;
    kernel.size_hints = hints(k.x, k.r);
    ReductionConfig c;
    c.xblock = k.xblock;
    c.r0_block = k.r0;
    c.num_warps = k.warps;
    c.n_regs = k.nregs;
    auto d = decide(Policy::kNew, c, kernel, h200());
    ASSERT_TRUE(d.hasValue());
    ASSERT_TRUE(d->scales()) << d->reason;
    EXPECT_EQ(d->new_config->r0_block, k.expect_r0);
  }
}

// A persistent reduction: no candidates here, the note says why.
TEST(RblockPipeline, PersistentReductionHasNoLoopedCandidates) {
  PipelineInput in;
  in.kernel.size_hints = hints(512, 512);
  in.kernel.persistent_reduction = true;
  auto p = runPipeline(in, h200());
  ASSERT_TRUE(p.hasValue());
  EXPECT_TRUE(p->candidates.empty());
  EXPECT_NE(p->order_note.find("persistent"), std::string::npos);
}
