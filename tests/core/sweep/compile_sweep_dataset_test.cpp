// The compile-sweep dataset: reading the CSV `occx sweep --csv` wrote on an H200 machine (fixture),
// writing it back byte for byte through the same column list, JSON from the columns, and bad files.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/gpu/device.h"
#include "core/inductor/report.h"
#include "core/sweep/compile_sweep_dataset.h"

namespace occx {
namespace {

using inductor::Outcome;
using inductor::Policy;

CsvTable fixture() {
  auto text = readFile(std::string(OCCX_TEST_DATA_DIR) + "/compile_sweep_mean_var_sm90.csv");
  EXPECT_TRUE(text) << text.error();
  auto t = parseCsv(text ? *text : std::string());
  EXPECT_TRUE(t) << t.error();
  return t ? *t : CsvTable{};
}

TEST(CompileSweepDataset, ReadsTheRecordedSweepRowByRow) {
  auto d = compileSweepFromCsv(fixture());
  ASSERT_TRUE(d) << d.error();
  EXPECT_EQ(d->rows.size(), 48u);
  EXPECT_EQ(d->total_configs, 48u);
  EXPECT_EQ(d->arch, (ComputeCapability{9, 0}));
  EXPECT_EQ(d->sm_count, 132);
  EXPECT_EQ(d->xnumel, 512);
  EXPECT_EQ(d->rnumel, 8192);
  EXPECT_EQ(d->workload, Workload::kMeanVar);
  EXPECT_EQ(d->full_occupancy_registers, 32);
  EXPECT_EQ(d->device_label, "H200 (CC 9.0, 132 SMs)");
  // Row 20: mean_var fp32 XBLOCK 1 RBLOCK 8192 4 warps, 234 registers, 2 blocks/SM (12.5 %); the old
  // bound (16/SM) keeps it, new and exact (2/SM) halve it.
  const CompileSweepRecord& r = d->rows[20];
  EXPECT_EQ(r.index, 20);
  EXPECT_EQ(r.config.xblock, 1);
  EXPECT_EQ(r.config.rblock, 8192);
  EXPECT_EQ(r.config.num_warps, 4);
  EXPECT_TRUE(r.ok);
  EXPECT_EQ(r.registers, 234);
  EXPECT_EQ(r.active_blocks_per_sm, 2);
  EXPECT_DOUBLE_EQ(r.occupancy_pct, 12.5);
  EXPECT_EQ(r.limiter, "registers");
  ASSERT_NE(r.decision(Policy::kOld), nullptr);
  EXPECT_EQ(r.decision(Policy::kOld)->bound, 16);
  EXPECT_EQ(r.decision(Policy::kOld)->outcome, Outcome::kNoScale);
  EXPECT_EQ(r.decision(Policy::kNew)->bound, 2);
  EXPECT_EQ(r.decision(Policy::kNew)->outcome, Outcome::kScale);
  EXPECT_EQ(r.decision(Policy::kExact)->outcome, Outcome::kScale);
  EXPECT_EQ(r.candidate(Policy::kNew), CandidateState::kNotCandidate);
  EXPECT_EQ(r.candidate(Policy::kReviewMin), CandidateState::kNotCandidate);  // no candidate set of its own
  ASSERT_EQ(r.decisions.size(), 4u);
  EXPECT_EQ(r.decisions[0].policy, Policy::kOld);
  EXPECT_EQ(r.decisions[3].policy, Policy::kExact);
  // Row 0: a gate skipped every policy (24 registers <= 32): not applicable, no bound.
  EXPECT_EQ(d->rows[0].decision(Policy::kNew)->outcome, Outcome::kNotApplicable);
  EXPECT_EQ(d->rows[0].decision(Policy::kNew)->bound, -1);
}

// The fixture predates static shapes (no "shape" key): its configs take the shape at run time. With
// "shape: static" every row's config is built for the file's 512 × 8192; another word is refused.
TEST(CompileSweepDataset, TheShapeKindComesBackIntoEveryConfig) {
  auto old = compileSweepFromCsv(fixture());
  ASSERT_TRUE(old) << old.error();
  EXPECT_FALSE(old->rows[20].config.staticShape());
  EXPECT_EQ(kernelName(old->rows[20].config), "occx_mean_var_fp32_x1_r8192_w4");
  EXPECT_TRUE(old->rows[20].config.vector_loads);  // 8192 is a multiple of the vector width

  CsvTable t = fixture();
  t.meta.emplace_back("shape", "static");
  auto d = compileSweepFromCsv(t);
  ASSERT_TRUE(d) << d.error();
  for (const auto& r : d->rows) {
    EXPECT_EQ(r.config.static_xnumel, 512);
    EXPECT_EQ(r.config.static_rnumel, 8192);
  }
  EXPECT_EQ(kernelName(d->rows[20].config), "occx_mean_var_fp32_x1_r8192_w4_s512x8192");

  t.meta.back().second = "fixed";
  EXPECT_EQ(compileSweepFromCsv(t).error(),
            "compile-sweep CSV: metadata 'shape': 'fixed' is not known: allowed static, run-time");
}

TEST(CompileSweepDataset, WritesBackTheSameCsvThroughTheSameColumns) {
  // The fixture was recorded before one key per concept: its occupancy_percent column reads as
  // theoretical_occupancy_pct (columnAliases) and is written back under that key, nothing else changes.
  const CsvTable in = fixture();
  ASSERT_GE(in.column("occupancy_percent"), 0);
  auto d = compileSweepFromCsv(in);
  ASSERT_TRUE(d) << d.error();
  CsvTable renamed = in;
  renamed.header[static_cast<std::size_t>(in.column("occupancy_percent"))] = "theoretical_occupancy_pct";
  EXPECT_EQ(toCsv(d->toCsv()), toCsv(renamed));
}

TEST(CompileSweepDataset, JsonHasNumbersAsNumbersAndTextAsText) {
  auto d = compileSweepFromCsv(fixture());
  ASSERT_TRUE(d) << d.error();
  const auto j = compileSweepDatasetToJson(*d);
  ASSERT_EQ(j["rows"].size(), 48u);
  const auto& row = j["rows"][20];
  EXPECT_EQ(row["registers_per_thread"], 234);
  EXPECT_EQ(row["theoretical_occupancy_pct"], 12.5);
  EXPECT_EQ(row["new_decision"], "scale");
  EXPECT_EQ(row["error"], "");
  EXPECT_EQ(j["meta"]["arch"], "sm_90");
}

TEST(CompileSweepDataset, BadFilesSayWhatIsWrongWhere) {
  CsvTable live;
  live.meta = {{"format", "occupancy-explorer-live-sweep 1"}};
  EXPECT_EQ(compileSweepFromCsv(live).error(),
            "this is a live-sweep dataset (measured times), not a compile sweep: open it in the Live sweep tab");

  CsvTable t = fixture();
  t.rows[3][t.column("RBLOCK")] = "lots";
  EXPECT_EQ(compileSweepFromCsv(t).error(), "compile-sweep CSV: row 4, column RBLOCK: 'lots' is not an integer");

  t = fixture();
  t.rows[0][t.column("status")] = "fine";
  EXPECT_EQ(compileSweepFromCsv(t).error(), "compile-sweep CSV: row 1, column status: 'fine' is not one of ok, error");

  t = fixture();
  t.rows[0][t.column("new_decision")] = "maybe";
  EXPECT_EQ(compileSweepFromCsv(t).error(),
            "compile-sweep CSV: row 1, column new_decision: 'maybe' is not one of not applicable, no scaling, scale, "
            "duplicate");

  t = fixture();
  t.rows[1][t.column("candidate_exact")] = "perhaps";
  EXPECT_EQ(
      compileSweepFromCsv(t).error(),
      "compile-sweep CSV: row 2, column candidate_exact: 'perhaps' is not one of no, benchmarked, excluded (spills), "
      "not compiled");

  t = fixture();
  const int c = t.column("num_warps");
  t.header.erase(t.header.begin() + c);
  for (auto& row : t.rows) row.erase(row.begin() + c);
  EXPECT_EQ(compileSweepFromCsv(t).error(), "compile-sweep CSV: required column 'num_warps' is missing");

  t = fixture();
  for (auto& [k, v] : t.meta) {
    if (k == "arch") v = "sm_42";
  }
  EXPECT_NE(compileSweepFromCsv(t).error().find("architecture sm_42 is not in the GPU data"), std::string::npos);
}

// `occx rblock --input` on a sweep CSV: each record becomes a batch row with the sweep's xnumel and
// rnumel and the compiled facts; a config that did not compile has no register count, and its
// decision says so instead of failing the batch.
TEST(CompileSweepDataset, BecomesTheInputOfTheBatchDecision) {
  ASSERT_TRUE(isCompileSweepCsv(fixture()));
  auto d = compileSweepFromCsv(fixture());
  ASSERT_TRUE(d) << d.error();
  EXPECT_FALSE(isCompileSweepCsv(compileSweepBatchInput(*d)));
  d->rows[1].ok = false;
  d->rows[1].error = "ptxas failed";
  const CsvTable in = compileSweepBatchInput(*d);
  ASSERT_EQ(in.rows.size(), 48u);
  EXPECT_EQ(in.metaValue("sweep_arch"), "sm_90");
  EXPECT_EQ(in.metaValue("xnumel"), "512");
  const auto cell = [&](std::size_t row, const char* column) {
    return in.rows[row][static_cast<std::size_t>(in.column(column))];
  };
  // Row 20: XBLOCK 1, RBLOCK 8192, 4 warps, 234 registers.
  EXPECT_EQ(cell(20, "xnumel"), "512");
  EXPECT_EQ(cell(20, "rnumel"), "8192");
  EXPECT_EQ(cell(20, "xblock"), "1");
  EXPECT_EQ(cell(20, "rblock"), "8192");
  EXPECT_EQ(cell(20, "num_warps"), "4");
  EXPECT_EQ(cell(20, "registers_per_thread"), "234");
  EXPECT_EQ(cell(1, "status"), "error");
  EXPECT_EQ(cell(1, "registers_per_thread"), "");
  EXPECT_EQ(cell(1, "n_spills"), "");

  inductor::BatchOptions b;
  b.db = &GpuDatabase::builtin();
  auto dev = makeDevice(*GpuDatabase::builtin().findArch(d->arch), d->sm_count, d->device_label);
  ASSERT_TRUE(dev) << dev.error();
  b.device = *dev;
  b.policies = {Policy::kNew};
  auto out = inductor::decideCsvBatch(in, b);
  ASSERT_TRUE(out) << out.error();
  ASSERT_EQ(out->rows.size(), 48u);
  EXPECT_EQ(out->metaValue("device"), "H200 (CC 9.0, 132 SMs)");
  const std::size_t decision = static_cast<std::size_t>(out->column("new_decision"));
  // The sweep recorded the same decisions for the same device and profile.
  EXPECT_EQ(out->rows[20][decision], "scale");
  EXPECT_EQ(out->rows[0][decision], "not applicable");
}

}  // namespace
}  // namespace occx
