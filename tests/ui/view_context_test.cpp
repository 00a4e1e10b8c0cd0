// One context for every view: the backend they share, the GPUs found here at the head of every
// device list, and one current device for the window that each list follows where it can.
#include <gtest/gtest.h>

#include <QLabel>

#include "tests/ui/ui_test_support.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/views/view_context.h"

namespace occx::ui {
namespace {

TEST(ViewContext, OneCurrentDeviceForTheWindowFollowedByEveryList) {
  const ViewContext context = testContext();
  CalculatorView calculator(context);
  RblockScalingView rblock(context);
  // The first list set the window's device: the built-in default.
  EXPECT_EQ(context.currentDevice()->key(), QStringLiteral("gpu:H100 SXM5"));
  EXPECT_EQ(rblock.deviceSelector()->currentKey(), QStringLiteral("gpu:H100 SXM5"));
  // A choice in one view is the window's, and the other view follows (and recomputes for it).
  ASSERT_TRUE(calculator.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  EXPECT_EQ(context.currentDevice()->key(), QStringLiteral("gpu:H200"));
  EXPECT_EQ(rblock.deviceSelector()->currentKey(), QStringLiteral("gpu:H200"));
  ASSERT_TRUE(rblock.deviceSelector()->setCurrentKey(QStringLiteral("cc:8.6")));
  EXPECT_EQ(calculator.deviceSelector()->currentKey(), QStringLiteral("cc:8.6"));
  EXPECT_EQ(calculator.arch().cc, (ComputeCapability{8, 6}));
  // A view made later opens on the window's device, not on its own default.
  RblockScalingView later(context);
  EXPECT_EQ(later.deviceSelector()->currentKey(), QStringLiteral("cc:8.6"));
}

TEST(ViewContext, ViewsOfAnotherContextKeepTheirOwnDevice) {
  CalculatorView a(testContext());
  CalculatorView b(testContext());
  ASSERT_TRUE(a.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  EXPECT_EQ(b.deviceSelector()->currentKey(), QStringLiteral("gpu:H100 SXM5"));
}

TEST(ViewContext, ACompileSweepKeepsItsOwnTargetWhereItsCompilerCannotBuild) {
  auto backend = std::make_shared<FakeBackend>();
  backend->archs = {{9, 0}};  // this compiler builds for sm_90 only
  const ViewContext context = testContext(backend);
  CalculatorView calculator(context);
  CompileSweepView compile(context);
  ASSERT_TRUE(calculator.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  EXPECT_EQ(compile.deviceSelector()->currentKey(), QStringLiteral("gpu:H200"));
  // An A100 (sm_80) cannot be compiled for here: the compile sweep visibly keeps the H200.
  ASSERT_TRUE(calculator.deviceSelector()->setCurrentKey(QStringLiteral("gpu:A100 SXM4 80GB")));
  EXPECT_FALSE(compile.deviceSelector()->isSelectable(QStringLiteral("gpu:A100 SXM4 80GB")));
  EXPECT_EQ(compile.deviceSelector()->currentKey(), QStringLiteral("gpu:H200"));
  EXPECT_EQ(context.currentDevice()->key(), QStringLiteral("gpu:A100 SXM4 80GB"));
}

// A list that keeps its own device says so under it, with the window's GPU and the reason; the
// lists that follow say nothing, and the note goes once the list is on the window's GPU again.
TEST(ViewContext, AListThatKeepsItsOwnDeviceSaysSo) {
  auto backend = std::make_shared<FakeBackend>();
  backend->archs = {{9, 0}};  // this compiler builds for sm_90 only
  const ViewContext context = testContext(backend);
  CalculatorView calculator(context);
  RblockScalingView rblock(context);
  CompileSweepView compile(context);
  QLabel* note = compile.deviceSelector()->overrideNote();
  ASSERT_NE(note, nullptr);
  EXPECT_TRUE(note->isHidden());
  ASSERT_TRUE(calculator.deviceSelector()->setCurrentKey(QStringLiteral("gpu:A100 SXM4 80GB")));
  EXPECT_EQ(rblock.deviceSelector()->currentKey(), QStringLiteral("gpu:A100 SXM4 80GB"));
  EXPECT_TRUE(rblock.deviceSelector()->overrideNote()->isHidden());
  EXPECT_TRUE(calculator.deviceSelector()->overrideNote()->isHidden());
  ASSERT_FALSE(note->isHidden());
  EXPECT_TRUE(note->text().startsWith(QStringLiteral("Differs from the window's GPU (A100 SXM4 80GB): ")))
      << note->text().toStdString();
  EXPECT_TRUE(note->text().contains(QStringLiteral("cannot compile for sm_80"))) << note->text().toStdString();
  // A bare compute capability is named as one.
  ASSERT_TRUE(rblock.deviceSelector()->setCurrentKey(QStringLiteral("cc:8.6")));
  EXPECT_TRUE(note->text().startsWith(QStringLiteral("Differs from the window's GPU (CC 8.6): ")))
      << note->text().toStdString();
  // Back on a GPU this compiler builds for: every list on it, no note.
  ASSERT_TRUE(calculator.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  EXPECT_EQ(compile.deviceSelector()->currentKey(), QStringLiteral("gpu:H200"));
  EXPECT_TRUE(note->isHidden());
  // A choice in the compile sweep is the window's too.
  ASSERT_TRUE(compile.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H100 SXM5")));
  EXPECT_EQ(calculator.deviceSelector()->currentKey(), QStringLiteral("gpu:H100 SXM5"));
  EXPECT_EQ(rblock.deviceSelector()->currentKey(), QStringLiteral("gpu:H100 SXM5"));
  EXPECT_TRUE(note->isHidden());
}

TEST(ViewContext, ACompileSweepOnAGpuMachineKeepsItsDisabledTargets) {
  auto backend = std::make_shared<FakeBackend>();
  backend->archs = {{9, 0}};
  backend->live = {true, {}};
  DeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.cc = {9, 0};
  h200.sm_count = 132;
  backend->gpus = {h200};
  const ViewContext context = testContext(backend);
  CompileSweepView compile(context);
  EXPECT_TRUE(compile.deviceSelector()->isSelectable(QStringLiteral("detected:NVIDIA H200")));
  EXPECT_FALSE(compile.deviceSelector()->isSelectable(QStringLiteral("gpu:A100 SXM4 80GB")));
}

TEST(ViewContext, DetectedGpusHeadEveryListAndAreChosenOnTheFirstStart) {
  auto backend = std::make_shared<FakeBackend>();
  backend->live = {true, {}};
  DeviceInfo h200;
  h200.name = "NVIDIA H200";
  h200.cc = {9, 0};
  h200.sm_count = 132;
  backend->gpus = {h200};
  const ViewContext context = testContext(backend);
  ASSERT_EQ(context.detectedGpus().size(), 1U);
  RblockScalingView rblock(context);
  EXPECT_TRUE(rblock.deviceSelector()->targets().front().detected);
  EXPECT_EQ(rblock.deviceSelector()->targets().front().key, QStringLiteral("detected:NVIDIA H200"));
}

}  // namespace
}  // namespace occx::ui
