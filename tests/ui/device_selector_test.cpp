// The device selector: named GPUs first, then every compute capability; detected GPUs go first.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QSignalSpy>

#include "ui/widgets/device_selector.h"

namespace occx::ui {
namespace {

TEST(DeviceSelector, NamedGpusThenComputeCapabilitiesOpeningOnH100) {
  DeviceSelector sel;
  const auto& db = GpuDatabase::builtin();
  const auto& targets = sel.targets();
  ASSERT_EQ(targets.size(), db.gpus().size() + db.architectures().size());
  EXPECT_EQ(targets.front().key, QStringLiteral("gpu:Tesla T4"));  // file order
  EXPECT_EQ(targets[db.gpus().size()].key, QStringLiteral("cc:5.0"));
  EXPECT_EQ(targets.back().key, QStringLiteral("cc:12.1"));
  EXPECT_EQ(targets[db.gpus().size()].label, QStringLiteral("CC 5.0 (Maxwell)"));

  EXPECT_EQ(sel.currentKey(), QStringLiteral("gpu:H100 SXM5"));
  const DeviceTarget& t = sel.currentTarget();
  ASSERT_NE(t.arch, nullptr);
  ASSERT_NE(t.gpu, nullptr);
  EXPECT_EQ(t.arch->cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(t.sm_count, 132);
  EXPECT_FALSE(t.detected);
  EXPECT_EQ(sel.comboBox()->currentText(), QStringLiteral("H100 SXM5 — CC 9.0 (Hopper), 132 SMs"));
  // Two separators: between named GPUs and compute capabilities only (nothing detected).
  EXPECT_EQ(sel.comboBox()->count(), static_cast<int>(targets.size()) + 1);

  QSignalSpy spy(&sel, &DeviceSelector::targetChanged);
  EXPECT_TRUE(sel.setCurrentKey(QStringLiteral("cc:8.6")));
  EXPECT_EQ(spy.count(), 1);
  EXPECT_EQ(sel.currentTarget().gpu, nullptr);
  EXPECT_EQ(sel.currentTarget().sm_count, 0);
  EXPECT_EQ(sel.currentTarget().arch->max_warps_per_sm, 48);
  EXPECT_FALSE(sel.setCurrentKey(QStringLiteral("gpu:No Such GPU")));
  EXPECT_EQ(sel.currentKey(), QStringLiteral("cc:8.6"));
  EXPECT_EQ(spy.count(), 1);
}

TEST(DeviceSelector, DetectedGpusComeFirstAndBecomeTheDefault) {
  DeviceSelector sel;
  QSignalSpy spy(&sel, &DeviceSelector::targetChanged);
  // Driver names carry a vendor prefix; unknown names are left out.
  sel.setDetectedGpus(QStringList{QStringLiteral("NVIDIA H200"), QStringLiteral("NVIDIA Nonexistent X1")});
  const auto& targets = sel.targets();
  ASSERT_TRUE(targets.front().detected);
  EXPECT_EQ(targets.front().key, QStringLiteral("detected:NVIDIA H200"));
  EXPECT_FALSE(targets[1].detected);
  EXPECT_EQ(targets.front().sm_count, 132);
  ASSERT_NE(targets.front().gpu, nullptr);
  EXPECT_EQ(targets.front().gpu->name, "H200");
  EXPECT_EQ(sel.currentKey(), QStringLiteral("detected:NVIDIA H200"));
  EXPECT_EQ(sel.defaultKey(), QStringLiteral("detected:NVIDIA H200"));
  EXPECT_EQ(spy.count(), 1);
  EXPECT_EQ(sel.comboBox()->currentIndex(), 0);

  // A GPU that the data does not name, with its compute capability and SM count from the driver;
  // keep the user's current choice.
  sel.setCurrentKey(QStringLiteral("cc:7.5"));
  sel.setDetectedGpus(std::vector<DetectedGpu>{{QStringLiteral("NVIDIA Future GPU"), {8, 9}, 60}},
                      /*select_first=*/false);
  EXPECT_EQ(sel.targets().front().key, QStringLiteral("detected:NVIDIA Future GPU"));
  EXPECT_EQ(sel.targets().front().arch->cc, (ComputeCapability{8, 9}));
  EXPECT_EQ(sel.targets().front().sm_count, 60);
  EXPECT_EQ(sel.targets().front().gpu, nullptr);
  EXPECT_EQ(sel.currentKey(), QStringLiteral("cc:7.5"));

  // A compute capability the data does not have is left out.
  sel.setDetectedGpus(std::vector<DetectedGpu>{{QStringLiteral("NVIDIA Odd"), {4, 0}, 10}});
  EXPECT_FALSE(sel.targets().front().detected);
  EXPECT_EQ(sel.defaultKey(), QStringLiteral("gpu:H100 SXM5"));
}

}  // namespace
}  // namespace occx::ui
