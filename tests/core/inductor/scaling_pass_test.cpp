// The scaling loop as Inductor runs it, the keep-halving chain (teaching aid), the curves against
// registers per thread and the grid comparison. Arithmetic in each test's comment.
#include <gtest/gtest.h>

#include "core/gpu/gpu_data.h"
#include "core/inductor/rblock_scaling.h"
#include "core/inductor/teaching.h"
#include "tests/support/arch_support.h"

using namespace occx;
using namespace occx::inductor;
using namespace occx::test;

// Current loop on H200, x=512: config 1 (R0 2048, 16 warps, 38 regs) scales (3 × 132 = 396 < 512) →
// R0 1024 appended as #3; config 2 (R0 512, 8 warps, 30 regs) is skipped at step 3 (30 <= 32); the
// loop then visits #3 but its n_regs is unknown → step 2: halved at most once.
TEST(RblockPass, CurrentLoopVisitsAddedConfigButSkipsIt) {
  auto p = runScalingPass(Policy::kNew, {reductionConfig(1, 2048, 16, 38), reductionConfig(1, 512, 8, 30)},
                          kernelX(512), gpu("H200"));
  ASSERT_TRUE(p.hasValue()) << p.error();
  ASSERT_EQ(p->entries.size(), 3u);
  EXPECT_EQ(p->added, 1);
  EXPECT_TRUE(p->entries[0].decision.scales());
  EXPECT_EQ(p->entries[1].decision.step, 3);
  const PassEntry& added = p->entries[2];
  EXPECT_TRUE(added.added_by_pass);
  EXPECT_EQ(added.parent, 0);
  EXPECT_EQ(added.config.r0_block, 1024);
  EXPECT_EQ(added.config.origin, "halved from #1");
  EXPECT_EQ(added.decision.step, 2);
  EXPECT_EQ(added.decision.outcome, Outcome::kNotApplicable);
  EXPECT_NE(added.decision.reason.find("not halved again"), std::string::npos);
}

// The 2023 loop walks the originals only: the added config is "not examined" (step 0).
TEST(RblockPass, Loop2023NeverExaminesAddedConfigs) {
  DecisionOptions o{Profile::kInductor2023, CcGate::kProfileDefault};
  auto p = runScalingPass(Policy::kOld, {reductionConfig(1, 2048, 32, 64)}, kernelX(512), gpu("A100"), o);
  ASSERT_TRUE(p.hasValue()) << p.error();
  // old: 2048 // (32·32) = 2 → 216 < 512 → RBLOCK 1024.
  ASSERT_EQ(p->entries.size(), 2u);
  EXPECT_EQ(p->entries[0].decision.bound_blocks_per_sm, 2);
  EXPECT_EQ(p->entries[1].decision.step, 0);
  EXPECT_EQ(p->entries[1].decision.reason, "Not examined — the 2023 loop walks the original configs only.");
}

// Duplicates across the loop: #1 (R0 2048) halves to R0 1024 = #2 → nothing added; #2 (R0 1024,
// 38 regs: same bound 3) halves to R0 512 → added. One config added in all.
TEST(RblockPass, DuplicateDroppedAcrossTheLoop) {
  auto p = runScalingPass(Policy::kNew, {reductionConfig(1, 2048, 16, 38), reductionConfig(1, 1024, 16, 38)},
                          kernelX(512), gpu("H200"));
  ASSERT_TRUE(p.hasValue());
  EXPECT_EQ(p->entries[0].decision.outcome, Outcome::kDuplicate);
  EXPECT_TRUE(p->entries[1].decision.scales());
  EXPECT_EQ(p->added, 1);
  EXPECT_EQ(p->entries.back().config.r0_block, 512);
}

// Keep-halving chain with n_regs unchanged (38, assumed): the new bound stays 3 → keeps scaling
// 2048 → 1024 → 512 → 256 → 128 → 64, where step 2 stops it (64 <= 64): six links.
TEST(RblockChain, UnchangedNRegsHalvesUntilProduct64) {
  auto ch = keepHalvingChain(Policy::kNew, reductionConfig(1, 2048, 16, 38), kernelX(512), gpu("H200"));
  ASSERT_TRUE(ch.hasValue()) << ch.error();
  ASSERT_EQ(ch->size(), 6u);
  const int r0s[] = {2048, 1024, 512, 256, 128, 64};
  for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ((*ch)[i].config.r0_block, r0s[i]) << i;
  EXPECT_FALSE((*ch)[0].n_regs_assumed);
  EXPECT_TRUE((*ch)[1].n_regs_assumed);
  EXPECT_EQ((*ch)[5].decision.step, 2);
  EXPECT_NE(std::string(kKeepHalvingLabel).find("Teaching aid"), std::string::npos);
}

// With the compiled n_regs supplied (the H200 record: R0 1024 compiled to 32 registers), link 1
// stops at step 3 (32 <= 32): two links.
TEST(RblockChain, SuppliedNRegsStopsAtThreshold) {
  auto ch = keepHalvingChain(Policy::kNew, reductionConfig(1, 2048, 16, 38), kernelX(512), gpu("H200"), {}, {32});
  ASSERT_TRUE(ch.hasValue());
  ASSERT_EQ(ch->size(), 2u);
  EXPECT_EQ((*ch)[1].config.n_regs, 32);
  EXPECT_FALSE((*ch)[1].n_regs_assumed);
  EXPECT_EQ((*ch)[1].decision.step, 3);
  EXPECT_FALSE(keepHalvingChain(Policy::kNew, reductionConfig(1, 2048, 16, 38), kernelX(512), gpu("H200"), {}, {}, 0)
                   .hasValue());
}

// Curves on H200, 16 warps, 512 blocks: old flat at 2048 // 512 = 4 (528 >= 512: never scales);
// new scales from n_regs 33 (65536 // 16896 = 3 → 396 < 512); n_regs <= 32 skipped by both →
// old and new disagree exactly on n_regs 33 … 255. Blocks needed per SM = 512 / 132.
TEST(RblockCurves, H200_16Warps_512Blocks_DisagreeFrom33) {
  auto c = boundCurves(reductionConfig(1, 2048, 16, 38), kernelX(512), gpu("H200"));
  ASSERT_TRUE(c.hasValue()) << c.error();
  ASSERT_EQ(c->points.size(), 255u);
  EXPECT_EQ(c->points[0].n_regs, 1);
  EXPECT_EQ(c->points[0].old_bound, 4);
  EXPECT_EQ(c->points[254].old_bound, 4);
  EXPECT_EQ(c->points[37].n_regs, 38);
  EXPECT_EQ(c->points[37].new_bound, 3);
  EXPECT_EQ(c->points[37].exact_bound, 3);
  // n_regs 129: 129·32 = 4128 → 4352 per warp × 16 = 69632 > 65536: cannot launch → exact 0.
  EXPECT_EQ(c->points[128].exact_bound, 0);
  EXPECT_EQ(c->points[128].new_bound, 1);
  ASSERT_EQ(c->old_new_disagree.size(), 1u);
  EXPECT_EQ(c->old_new_disagree[0].first, 33);
  EXPECT_EQ(c->old_new_disagree[0].last, 255);
  EXPECT_DOUBLE_EQ(c->blocks_needed_per_sm, 512.0 / 132.0);
}

// A100, 8 warps, 512 blocks: old 2048 // 256 = 8 → 864 >= 512 never scales; new scales when
// 65536 // (256·n) <= 4: n = 51 → 65536 // 13056 = 5 (540, keeps); n = 52 → 65536 // 13312 = 4
// (432 < 512, scales). Disagreement: n_regs 52 … 255.
TEST(RblockCurves, A100_8Warps_512Blocks_DisagreeFrom52) {
  auto c = boundCurves(reductionConfig(1, 2048, 8, 255), kernelX(512), gpu("A100"));
  ASSERT_TRUE(c.hasValue());
  EXPECT_EQ(c->points[50].new_outcome, Outcome::kNoScale);
  EXPECT_EQ(c->points[51].new_outcome, Outcome::kScale);
  ASSERT_EQ(c->old_new_disagree.size(), 1u);
  EXPECT_EQ(c->old_new_disagree[0].first, 52);
  EXPECT_EQ(c->old_new_disagree[0].last, 255);
}

// The grid of the closing note: 223 n_regs × 6 num_warps × 11 block counts = 14718 points.
// Unlaunchable: 16 warps with n_regs > 128 (129·32 rounds to 4352 per warp, × 16 > 65536): 127 × 11
// = 1397; 32 warps with n_regs > 64: 191 × 11 = 2101; 3498 in all.
// num_warps 32: old = 2 and new = 1 for every n_regs >= 33 → they differ only where
// 1 × SMs < blocks <= 2 × SMs: A100 (108 < b <= 216) b = 128; H200 (132 < b <= 264) b = 256 → 223 each.
// review_min at 32 warps is 0 for n_regs 65 … 255 (191 values): it scales where new (1 × SMs) does
// not: A100 b = 64 → 191; H200 b = 64, 128 → 382.
TEST(RblockGrid, CountsOnA100AndH200) {
  auto a = compareGrid(gpu("A100"));
  ASSERT_TRUE(a.hasValue()) << a.error();
  EXPECT_EQ(a->total.points, 14718);
  EXPECT_EQ(a->total.unlaunchable, 3498);
  ASSERT_EQ(a->by_num_warps.size(), 6u);
  EXPECT_EQ(a->by_num_warps[5].first, 32);
  EXPECT_EQ(a->by_num_warps[5].second.old_vs_new, 223);
  EXPECT_EQ(a->by_num_warps[5].second.new_vs_review_min, 191);
  EXPECT_EQ(a->by_num_warps[4].second.unlaunchable, 1397);
  auto h = compareGrid(gpu("H200"));
  ASSERT_TRUE(h.hasValue());
  EXPECT_EQ(h->by_num_warps[5].second.old_vs_new, 223);
  EXPECT_EQ(h->by_num_warps[5].second.new_vs_review_min, 382);
  // Totals, cross-checked by an independent script of the same formulas.
  EXPECT_EQ(a->total.old_vs_new, 2377);
  EXPECT_EQ(a->total.new_vs_exact, 454);
  EXPECT_EQ(a->total.new_vs_exact_launchable, 136);
  EXPECT_EQ(h->total.old_vs_new, 2801);
  EXPECT_EQ(h->total.new_vs_exact, 636);
  EXPECT_EQ(h->total.new_vs_exact_launchable, 0);
}

// num_warps 1, n_regs 33 on both GPUs: new = 65536 // 1056 = 62; exact: 1056 → 1280 per warp →
// 48 warps → 48 blocks, capped at 32. A100: 32 × 108 = 3456 < 4096 <= 62 × 108 = 6696 → new keeps,
// exact scales (they differ). H200: 32 × 132 = 4224 >= 4096 → both keep at 4096; 8192 > 6696 both scale.
TEST(RblockGrid, WhyA100DiffersAndH200Not_OneWarp33Regs) {
  const auto c = reductionConfig(1, 2048, 1, 33);
  EXPECT_FALSE(decide(Policy::kNew, c, kernelX(4096), gpu("A100"))->scales());
  EXPECT_TRUE(decide(Policy::kExact, c, kernelX(4096), gpu("A100"))->scales());
  EXPECT_FALSE(decide(Policy::kNew, c, kernelX(4096), gpu("H200"))->scales());
  EXPECT_FALSE(decide(Policy::kExact, c, kernelX(4096), gpu("H200"))->scales());
  EXPECT_EQ(exactBound(gpu("H200"), 33, 1, 0).blocks_per_sm, 32);
}

// The 2023 profile's gate skips an H200 entirely: the grid says so instead of counting nothing.
TEST(RblockGrid, Profile2023OnH200IsAnError) {
  auto g = compareGrid(gpu("H200"), DecisionOptions{Profile::kInductor2023, CcGate::kProfileDefault});
  ASSERT_FALSE(g.hasValue());
  EXPECT_NE(g.error().find("not 8.x"), std::string::npos) << g.error();
}
