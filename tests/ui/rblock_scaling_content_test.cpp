// What the RBLOCK-scaling view shows, computed without widgets (ui/models/rblock_scaling_content):
// the decision of every bound policy for the H200 record, the pipeline and chain rows, the texts,
// why invalid inputs give no decision, the CSV tables, and the inputs kept as settings. Numbers as in
// rblock_scaling_view_test: x = 512, r = 8192, XBLOCK 1, R0_BLOCK 2048, 16 warps, 38 registers.
#include <gtest/gtest.h>

#include <QDir>
#include <QSettings>
#include <QTemporaryDir>

#include "core/gpu/gpu_data.h"
#include "ui/models/rblock_scaling_content.h"
#include "ui/models/table_model.h"

namespace occx::ui {
namespace {

RblockResult decideOnH200(const RblockInputs& in, int sm_count = 132) {
  const ArchLimits* a = GpuDatabase::builtin().findArch({9, 0});
  EXPECT_NE(a, nullptr);
  return decideRblockScaling(in, *a, "H200", sm_count);
}

TEST(RblockScalingContent, TheH200RecordScalesUnderTheNewBound) {
  const RblockResult r = decideOnH200(RblockInputs{});
  ASSERT_TRUE(r.error.isEmpty()) << r.error.toStdString();
  ASSERT_TRUE(r.device.has_value());
  EXPECT_EQ(r.device->sm_count, 132);
  EXPECT_TRUE(r.device_info.endsWith(QStringLiteral("register threshold 65536 // 2048 = 32")))
      << r.device_info.toStdString();
  EXPECT_EQ(
      r.size_hints,
      QStringLiteral("Size hints: x = 512, r = 8192 — the decision counts blocks as ceil(x / XBLOCK) on the hint."));
  ASSERT_EQ(r.decisions.size(), 4u);  // old, new, review_min, exact

  const auto rows = rblockDecisionRows(r.decisions);
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].cells.mid(0, 6),
            (QStringList{QStringLiteral("old"), QStringLiteral("4"), QStringLiteral("528"), QStringLiteral("512"),
                         QStringLiteral("no scaling"), QStringLiteral("–")}));
  EXPECT_FALSE(rows[0].background.isValid());
  EXPECT_EQ(rows[1].cells[5], QStringLiteral("R0_BLOCK 2048 → 1024"));
  EXPECT_EQ(rows[1].background, kScaleColor);
  EXPECT_EQ(rblockNewBlockText(r.decisions[1]), QStringLiteral("R0_BLOCK 2048 → 1024"));

  EXPECT_EQ(rblockCurrentBound(r), 3);  // the new bound at 38 registers
  EXPECT_EQ(rblockPlotTitle(r),
            QStringLiteral("Resident blocks per SM against registers per thread — num_warps 16 (512 threads), 512 "
                           "blocks on 132 SMs"));
  EXPECT_TRUE(rblockExportSubtitle(r).endsWith(QStringLiteral(", n_regs 38")));
  const QString summary = rblockSummary(r);
  EXPECT_TRUE(summary.contains(QStringLiteral("old: no scaling")));
  EXPECT_TRUE(summary.contains(QStringLiteral("new: scale (R0_BLOCK 2048 → 1024)")));
  EXPECT_FALSE(summary.contains(QStringLiteral("exact:")));  // the status line names old and new only
  const QString html = rblockArithmeticHtml(r);
  EXPECT_TRUE(
      html.startsWith(QStringLiteral("<p><b>Total blocks</b> = ceil(size hint x / XBLOCK) = ceil(512 / 1) = 512")));
}

TEST(RblockScalingContent, PipelineAndChainRows) {
  const RblockResult r = decideOnH200(RblockInputs{});
  const auto pipeline = rblockPipelineRows(r.pipeline, inductor::Profile::kInductorCurrent);
  ASSERT_EQ(pipeline.size(), 2u);
  EXPECT_EQ(pipeline[0].cells[2], QStringLiteral("contiguous"));
  EXPECT_EQ(pipeline[0].cells[4], QStringLiteral("38"));
  EXPECT_EQ(pipeline[1].cells[1], QStringLiteral("added by scaling"));
  EXPECT_EQ(pipeline[1].cells[3], QStringLiteral("XBLOCK=1, R0_BLOCK=1024, num_warps=16"));
  EXPECT_TRUE(r.pipeline_note.contains(QStringLiteral("one of the candidates")));
  EXPECT_TRUE(r.loop_note.contains(QStringLiteral("halved at most once")));
  const auto chain = rblockChainRows(r.chain, inductor::Profile::kInductorCurrent);
  ASSERT_EQ(chain.size(), 6u);  // 2048 → … → 64
  EXPECT_EQ(chain[5].cells[1], QStringLiteral("XBLOCK=1, R0_BLOCK=64, num_warps=16"));
  EXPECT_EQ(chain[1].cells[2], QStringLiteral("38 (assumed)"));

  RblockInputs old = RblockInputs{};
  old.profile = inductor::Profile::kInductor2023;
  EXPECT_TRUE(decideOnH200(old).loop_note.contains(QStringLiteral("2023")));
}

TEST(RblockScalingContent, InvalidInputsSayWhyAndGiveNoDecision) {
  RblockInputs in;
  in.xnumel = 0;  // no size hint for an empty kernel
  RblockResult r = decideOnH200(in);
  EXPECT_FALSE(r.error.isEmpty());
  EXPECT_TRUE(r.decisions.empty());
  EXPECT_TRUE(r.device.has_value());    // the device was fine
  EXPECT_TRUE(r.size_hints.isEmpty());  // the step that failed says nothing
  EXPECT_EQ(rblockSummary(r), r.error);
  EXPECT_TRUE(rblockExportSubtitle(r).isEmpty());

  r = decideOnH200(RblockInputs{}, 0);  // a device needs SMs
  EXPECT_FALSE(r.error.isEmpty());
  EXPECT_FALSE(r.device.has_value());
  EXPECT_TRUE(r.profile_statement.isEmpty());
}

TEST(RblockScalingContent, CsvTablesNameTheTargetAndTheConfig) {
  const RblockResult r = decideOnH200(RblockInputs{});
  const RblockCsv csv = rblockCsv(r);
  for (const CsvTable* t : {&csv.decisions, &csv.curves, &csv.pipeline}) {
    ASSERT_FALSE(t->meta.empty());
    EXPECT_EQ(t->meta.front().first, "target");
    EXPECT_EQ(t->meta.front().second, r.device->label);
  }
  EXPECT_EQ(csv.decisions.rows.size(), 4u);
  bool has_regs = false;
  for (const auto& [key, value] : csv.decisions.meta) has_regs |= key == "registers_per_thread" && value == "38";
  EXPECT_TRUE(has_regs);
  EXPECT_EQ(csv.pipeline.rows.size(), 2u);
}

TEST(RblockScalingContent, InputsRoundTripThroughSettings) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings s(dir.filePath(QStringLiteral("rblock.ini")), QSettings::IniFormat);
  RblockInputs in;
  in.xnumel = 65536;
  in.rnumel = 768;
  in.xblock = 2;
  in.rblock = 1024;
  in.num_warps = 8;
  in.n_regs = 48;
  in.n_regs_known = false;
  in.n_spills = 3;
  in.shared_bytes = 4096;
  in.profile = inductor::Profile::kInductor2023;
  in.cc_gate = inductor::CcGate::kAtLeast80;
  in.pipeline_policy = inductor::Policy::kExact;
  in.hint = inductor::ReductionHint::kOuter;
  in.persistent = true;
  in.deterministic = true;
  in.sm_override = 114;
  saveRblockInputs(s, in);
  const RblockInputs back = readRblockInputs(s, RblockInputs{});
  EXPECT_EQ(back.xnumel, 65536);
  EXPECT_EQ(back.rnumel, 768);
  EXPECT_EQ(back.xblock, 2);
  EXPECT_EQ(back.rblock, 1024);
  EXPECT_EQ(back.num_warps, 8);
  EXPECT_EQ(back.n_regs, 48);
  EXPECT_FALSE(back.n_regs_known);
  EXPECT_EQ(back.n_spills, 3);
  EXPECT_EQ(back.shared_bytes, 4096);
  EXPECT_EQ(back.profile, inductor::Profile::kInductor2023);
  EXPECT_EQ(back.cc_gate, inductor::CcGate::kAtLeast80);
  EXPECT_EQ(back.pipeline_policy, inductor::Policy::kExact);
  EXPECT_EQ(back.hint, inductor::ReductionHint::kOuter);
  EXPECT_TRUE(back.persistent);
  EXPECT_TRUE(back.deterministic);
  EXPECT_EQ(back.sm_override, 114);

  // Unknown words and gates keep the base's.
  s.setValue(QStringLiteral("profile"), QStringLiteral("inductor-1999"));
  s.setValue(QStringLiteral("cc_gate"), 7);
  s.setValue(QStringLiteral("hint"), QStringLiteral("sideways"));
  const RblockInputs kept = readRblockInputs(s, RblockInputs{});
  EXPECT_EQ(kept.profile, RblockInputs{}.profile);
  EXPECT_EQ(kept.cc_gate, RblockInputs{}.cc_gate);
  EXPECT_EQ(kept.hint, RblockInputs{}.hint);
}

}  // namespace
}  // namespace occx::ui
