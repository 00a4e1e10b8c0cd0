// The built-in family beside Inductor's real kernel: each bundled H200 family dataset
// (resources/datasets/) paired with the sweep of Inductor's Triton kernel for the same reduction
// (resources/inductor-runs/measured/). The expected figures are read off the two CSVs:
//   sum X1 R2048 w16: ours 129.472 µs, 21 registers; Triton 128.928 µs, n_regs 21 → ratio 0.99580.
//   mean_var X1 R2048 w16: ours 170.240 µs, 26 registers; Triton 168.352 µs, n_regs 26 → 0.98891.
//   spill log_softmax X1 R32768 w16: ours 29.920 µs, 128 registers, n_spills 5; Triton 44.576 µs,
//   n_regs 128, n_spills 74: both spill.
// Every row of these files ran ok, so the paired counts are the configs the two sweeps share.
#include <gtest/gtest.h>

#include <algorithm>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/triton/family_fidelity.h"

using namespace occx;

namespace {

CsvTable table(const std::string& path) {
  auto text = readFile(std::string(OCCX_SOURCE_DIR) + "/resources/" + path);
  EXPECT_TRUE(text) << text.error();
  auto t = parseCsv(text ? *text : std::string());
  EXPECT_TRUE(t) << t.error();
  return t ? *t : CsvTable{};
}

LiveDataset family(const std::string& name) {
  auto d = liveDatasetFromCsv(table("datasets/" + name + ".csv"));
  EXPECT_TRUE(d) << d.error();
  return d ? *d : LiveDataset{};
}

triton::KernelMeasurements inductorRuns(const std::string& name) {
  auto r = triton::measurementsFromCsv(table("inductor-runs/measured/" + name + ".csv"));
  EXPECT_TRUE(r) << r.error();
  return r ? *r : triton::KernelMeasurements{};
}

const FidelityPair* pairOf(const FamilyFidelity& f, int xblock, int rblock, int num_warps) {
  auto it = std::find_if(f.pairs.begin(), f.pairs.end(), [&](const FidelityPair& p) {
    return p.xblock == xblock && p.rblock == rblock && p.num_warps == num_warps;
  });
  return it == f.pairs.end() ? nullptr : &*it;
}

}  // namespace

TEST(FamilyFidelity, KernelShapesComeFromTheLaunchPlanNotes) {
  const auto shapes = kernelShapes(inductorRuns("ref_sum"));
  ASSERT_EQ(shapes.size(), 1u);
  EXPECT_EQ(shapes[0].kernel, "triton_red_fused__to_copy_sum_0");
  EXPECT_EQ(shapes[0].xnumel, 32768);
  EXPECT_EQ(shapes[0].rnumel, 8192);

  triton::KernelMeasurements hinted;
  hinted.notes = {"k: xnumel = 1000 as launched",
                  "k: r0_numel = 16384 from the size hint (the numel rounded up to a power of two)"};
  EXPECT_TRUE(kernelShapes(hinted).empty());  // a size hint is not the shape
}

TEST(FamilyFidelity, SumPairsWithInductorsSumKernel) {
  auto f = compareWithTriton(family("h200_sum_fp16_32768x8192"), inductorRuns("ref_sum"));
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f->kernel, "triton_red_fused__to_copy_sum_0");
  EXPECT_EQ(f->xnumel, 32768);
  EXPECT_EQ(f->rnumel, 8192);
  EXPECT_EQ(f->summary.paired, 32);
  EXPECT_EQ(f->pairs.size(), 32u);
  const FidelityPair* p = pairOf(*f, 1, 2048, 16);
  ASSERT_NE(p, nullptr);
  // Device time per launch, L2 cold (CUPTI), the figure configs are compared by.
  EXPECT_DOUBLE_EQ(p->ours_us, 125.921);
  EXPECT_DOUBLE_EQ(p->triton_us, 125.984);
  EXPECT_DOUBLE_EQ(p->ratio, 125.984 / 125.921);
  EXPECT_NEAR(p->ratio, 1.00050, 1e-5);
  EXPECT_EQ(p->ours_registers, 21);
  EXPECT_EQ(p->triton_registers, 21);
  EXPECT_FALSE(p->ours_spills);
  EXPECT_FALSE(p->triton_spills);
  // 32 of 32 ratios within 0.85 … 1.15, 28 of 32 register counts within ±25 %, one config spills on one side.
  EXPECT_NEAR(f->summary.median_ratio, 1.000433, 1e-6);
  EXPECT_DOUBLE_EQ(f->summary.time_within_pct, 100.0);
  EXPECT_EQ(f->summary.registers_known, 32);
  EXPECT_DOUBLE_EQ(f->summary.registers_within_pct, 100.0 * 28 / 32);
  EXPECT_EQ(f->summary.one_side_spills, 1);
}

TEST(FamilyFidelity, MeanVarPairsWithInductorsWelfordKernel) {
  auto f = compareWithTriton(family("h200_mean_var_fp16_32768x8192"), inductorRuns("ref_mean_var"));
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f->summary.paired, 55);
  const FidelityPair* p = pairOf(*f, 1, 2048, 16);
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->ours_us, 166.832);
  EXPECT_DOUBLE_EQ(p->triton_us, 165.184);
  EXPECT_NEAR(p->ratio, 0.99012, 1e-5);
  EXPECT_EQ(p->ours_registers, 26);
  EXPECT_EQ(p->triton_registers, 26);
  EXPECT_NEAR(f->summary.median_ratio, 1.004174, 1e-6);
  EXPECT_DOUBLE_EQ(f->summary.time_within_pct, 100.0 * 42 / 55);
  EXPECT_DOUBLE_EQ(f->summary.registers_within_pct, 100.0 * 44 / 55);
  EXPECT_EQ(f->summary.one_side_spills, 5);
}

TEST(FamilyFidelity, LogSoftmaxVocabAndSpillingLogSoftmaxPair) {
  auto vocab = compareWithTriton(family("h200_log_softmax_fp16_20736x8008"), inductorRuns("ref_log_softmax_vocab"));
  ASSERT_TRUE(vocab) << vocab.error();
  EXPECT_EQ(vocab->summary.paired, 38);
  EXPECT_DOUBLE_EQ(vocab->summary.time_within_pct, 100.0 * 22 / 38);
  EXPECT_EQ(vocab->summary.one_side_spills, 0);

  auto spill = compareWithTriton(family("h200_spill_log_softmax_fp32_264x30000"), inductorRuns("spill_log_softmax"));
  ASSERT_TRUE(spill) << spill.error();
  EXPECT_EQ(spill->summary.paired, 14);
  EXPECT_DOUBLE_EQ(spill->summary.time_within_pct, 100.0 * 9 / 14);
  EXPECT_DOUBLE_EQ(spill->summary.registers_within_pct, 100.0 * 12 / 14);
  const FidelityPair* p = pairOf(*spill, 1, 32768, 16);
  ASSERT_NE(p, nullptr);
  EXPECT_DOUBLE_EQ(p->ours_us, 44.128);
  EXPECT_DOUBLE_EQ(p->triton_us, 41.568);
  EXPECT_EQ(p->ours_registers, 128);
  EXPECT_EQ(p->triton_registers, 128);
  EXPECT_TRUE(p->ours_spills);
  EXPECT_TRUE(p->triton_spills);
  EXPECT_EQ(spill->summary.one_side_spills, 0);  // both spill at R32768, neither below
}

TEST(FamilyFidelity, OnlyConfigsThatRanOkOnBothSidesPair) {
  LiveDataset ours = family("h200_sum_fp16_32768x8192");
  triton::KernelMeasurements theirs = inductorRuns("ref_sum");
  for (auto& r : theirs.rows) {
    if (r.xblock == 1 && r.r0_block == 2048 && r.num_warps == 16) r.measured.status = RunStatus::kLaunchFailed;
  }
  for (auto& r : ours.rows) {
    if (r.config.xblock == 1 && r.config.rblock == 2048 && r.config.num_warps == 8)
      r.measured.status = RunStatus::kWrongResult;
  }
  auto f = compareWithTriton(ours, theirs);
  ASSERT_TRUE(f) << f.error();
  EXPECT_EQ(f->summary.paired, 30);
  EXPECT_EQ(pairOf(*f, 1, 2048, 16), nullptr);
  EXPECT_EQ(pairOf(*f, 1, 2048, 8), nullptr);
}

TEST(FamilyFidelity, AnotherShapeIsAnErrorNamingBoth) {
  auto f = compareWithTriton(family("h200_sum_fp16_32768x8192"), inductorRuns("spill_log_softmax"));
  ASSERT_FALSE(f);
  EXPECT_NE(f.error().find("264 × 30000"), std::string::npos) << f.error();
  EXPECT_NE(f.error().find("32768 × 8192"), std::string::npos) << f.error();
  EXPECT_NE(f.error().find("triton_red_fused__log_softmax_prepare_softmax_online_sub_0"), std::string::npos)
      << f.error();

  triton::KernelMeasurements no_notes = inductorRuns("ref_sum");
  no_notes.notes.clear();
  auto g = compareWithTriton(family("h200_sum_fp16_32768x8192"), no_notes);
  ASSERT_FALSE(g);
  EXPECT_NE(g.error().find("does not record its kernel's shape"), std::string::npos) << g.error();

  LiveDataset shapeless = family("h200_sum_fp16_32768x8192");
  std::erase_if(shapeless.meta, [](const auto& m) { return m.first == "xnumel"; });
  EXPECT_FALSE(compareWithTriton(shapeless, inductorRuns("ref_sum")));
}

TEST(FamilyFidelity, PairsWriteAsCsv) {
  auto f = compareWithTriton(family("h200_mean_var_fp16_32768x8192"), inductorRuns("ref_mean_var"));
  ASSERT_TRUE(f) << f.error();
  const CsvTable t = fidelityToCsv(*f, {{"triton_source", "ref_mean_var"}});
  EXPECT_EQ(t.metaValue("kernel"), "triton_red_fused__to_copy_var_mean_0");
  EXPECT_EQ(t.metaValue("paired"), "55");
  EXPECT_EQ(t.metaValue("median_ratio"), "1.004");
  EXPECT_EQ(t.metaValue("triton_source"), "ref_mean_var");
  EXPECT_EQ(t.header, (std::vector<std::string>{"xblock", "rblock", "num_warps", "ours_time_us", "triton_time_us",
                                                "triton_over_ours", "ours_registers", "triton_registers", "ours_spills",
                                                "triton_spills", "triton_bandwidth_GBps"}));
  ASSERT_EQ(t.rows.size(), 55u);
  const auto it = std::find_if(t.rows.begin(), t.rows.end(), [](const std::vector<std::string>& r) {
    return r[0] == "1" && r[1] == "2048" && r[2] == "16";
  });
  ASSERT_NE(it, t.rows.end());
  EXPECT_EQ(*it, (std::vector<std::string>{"1", "2048", "16", "166.832", "165.184", "0.990", "26", "26", "0", "0",
                                           "3264.1"}));
}
