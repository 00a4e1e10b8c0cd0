// The Inductor run view's sweeps off-screen: "Sweep this kernel" on the spill case scanned from its
// recorded cache, compiled by a stand-in Python that replays the helper's output recorded on the
// H200 and timed by a fake backend (the new configs join the table, the Sweep tab plots them, the
// best and the picks are said in words); a bundled H200 sweep opens with every config; a Python
// without torch says what to install. (The Sweep tab at 1280 × 720: inductor_run_measured_test.cpp.)
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTabWidget>
#include <cstdlib>
#include <iostream>

#include "inductor_view_support.h"
#include "tests/support/table_runner.h"
#include "ui/models/inductor_run_models.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/inductor_run_view.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

using testing_support::TableRunner;

bool sweep(InductorRunView& view) {
  bool done = false;
  QObject::connect(
      &view, &InductorRunView::kernelSweepFinished, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  const QString why = view.sweepSelectedKernel();
  EXPECT_TRUE(why.isEmpty()) << why.toStdString();
  return why.isEmpty() && waitFor([&] { return done; }, 60000);
}

/// The stand-in Python replays the recording of tests/data/inductor/sweep_spill_log_softmax.
struct FakePython {
  explicit FakePython(const char* mode = "") {
    qputenv("OCCX_FAKE_PYTHON_RECORDING", inductorFixture("sweep_spill_log_softmax").toUtf8());
    qputenv("OCCX_FAKE_PYTHON_MODE", mode);
    qputenv("XDG_CACHE_HOME", (QDir::tempPath() + QStringLiteral("/occx-ui-sweep-cache")).toUtf8());
  }
  ~FakePython() {
    qunsetenv("OCCX_FAKE_PYTHON_RECORDING");
    qunsetenv("OCCX_FAKE_PYTHON_MODE");
    qunsetenv("XDG_CACHE_HOME");
  }
  FakePython(const FakePython&) = delete;
  FakePython& operator=(const FakePython&) = delete;
};

TEST(InductorRunSweep, SweepThisKernelAddsItsConfigsTimesThemAndSaysWhyTheBestWins) {
  FakePython fake;
  TableRunner runner({{"R0_BLOCK=2048, num_warps=16", 29.6},
                      {"R0_BLOCK=8192, num_warps=16", 29.2},
                      {"R0_BLOCK=16384, num_warps=16", 30.0},
                      {"R0_BLOCK=16384, num_warps=32", 32.6},
                      {"R0_BLOCK=32768, num_warps=16", 44.8},
                      {"R0_BLOCK=32768, num_warps=32", 44.0},
                      {"XBLOCK=2, R0_BLOCK=4096, num_warps=8", 31.0}});
  auto backend = std::make_shared<FakeBackend>();
  backend->live = {true, {}};
  backend->runner = &runner;
  InductorRunView view{testContext(backend)};
  ASSERT_TRUE(scanAndWait(view, inductorFixture("spill_log_softmax")));
  ASSERT_EQ(configModel(view).numRows(), 3);
  const QPushButton& sweep_button = childNamed<QPushButton>(view, "sweepKernelButton");
  EXPECT_TRUE(sweep_button.isEnabled()) << sweep_button.toolTip().toStdString();
  childNamed<QLineEdit>(view, "pythonEdit").setText(QStringLiteral(OCCX_FAKE_PYTHON));
  ASSERT_TRUE(sweep(view));
  // Inductor's three and the four the recording has; the 84 others of the grid's 88 did not compile
  // (the recording has them not): measured rows that say why, not configs of the table.
  EXPECT_EQ(configModel(view).numRows(), 7) << labelText(view, "runStatus").toStdString();
  int failed = 0;
  for (const auto& m : view.run().measured.rows) {
    if (m.measured.status == RunStatus::kCompileFailed) {
      ++failed;
      EXPECT_EQ(m.measured.reason, "not recorded");
    }
  }
  EXPECT_EQ(failed, 84);
  EXPECT_TRUE(labelText(view, "runStatus").contains(QStringLiteral("4 of 88 configs compiled")))
      << labelText(view, "runStatus").toStdString();
  const int spill = configRowOf(view, QStringLiteral("X1 R32768 w16"));
  ASSERT_GE(spill, 0);
  EXPECT_EQ(configModel(view).row(spill)->n_regs, 128);
  EXPECT_EQ(configModel(view).row(spill)->n_spills, 74);
  ASSERT_NE(configModel(view).measured(spill), nullptr);
  EXPECT_DOUBLE_EQ(configModel(view).measured(spill)->row.measured.time.median_us, 44.8);
  // The Sweep tab: one series per num_warps of XBLOCK 1, the best marked, the reasons in words.
  EXPECT_EQ(view.detailTabs()->tabText(view.detailTabs()->currentIndex()), QStringLiteral("Sweep"));
  EXPECT_EQ(childNamed<QComboBox>(view, "sweepXblock").count(), 2);  // XBLOCK 1 and 2
  EXPECT_GE(sweepPlot(view).graphIndex(QStringLiteral("16 warps")), 0);
  EXPECT_GE(sweepPlot(view).graphIndex(QStringLiteral("32 warps")), 0);
  EXPECT_GE(sweepPlot(view).graphIndex(QStringLiteral("best: X1 R8192 w16")), 0);
  EXPECT_TRUE(labelText(view, "sweepNote").startsWith(QStringLiteral("Best: X1 R8192 w16, 29.2 µs")))
      << labelText(view, "sweepNote").toStdString();
  EXPECT_TRUE(labelText(view, "sweepNote")
                  .contains(QStringLiteral("Inductor's pick (.best_config) X1 R2048 w16: 29.6 µs, 1.01× the best")))
      << labelText(view, "sweepNote").toStdString();
  // Registers instead of times.
  QComboBox& metric = childNamed<QComboBox>(view, "sweepMetric");
  metric.setCurrentIndex(2);
  emit metric.activated(2);
  EXPECT_EQ(sweepPlot(view).yAxisLabel(), QStringLiteral("Registers per thread"));
}

TEST(InductorRunSweep, TheGridFieldChoosesTheConfigsAndABadOneIsRefusedWithTheAllowedValues) {
  FakePython fake;
  InductorRunView view{testContext()};
  ASSERT_TRUE(scanAndWait(view, inductorFixture("spill_log_softmax")));
  childNamed<QLineEdit>(view, "pythonEdit").setText(QStringLiteral(OCCX_FAKE_PYTHON));
  QLineEdit& grid = childNamed<QLineEdit>(view, "sweepGridEdit");
  grid.setText(QStringLiteral("XBLOCK=3"));
  EXPECT_EQ(
      view.sweepSelectedKernel(),
      QStringLiteral(
          "Grid: XBLOCK=3: 3 is not a power of two (allowed: powers of two 1 … 4096, as \"1,2,4\" or \"256..4096\")"));
  grid.setText(QStringLiteral("XBLOCK=1 R0_BLOCK=8192..32768 num_warps=16"));
  ASSERT_TRUE(sweep(view));
  // Three configs asked for, all recorded: Inductor's three and these.
  EXPECT_TRUE(labelText(view, "runStatus").contains(QStringLiteral("3 of 3 configs compiled")))
      << labelText(view, "runStatus").toStdString();
  EXPECT_EQ(configModel(view).numRows(), 6);
  EXPECT_GE(configRowOf(view, QStringLiteral("X1 R8192 w16")), 0);
  // Not timed (no GPU): the Sweep tab says so; registers can be plotted.
  EXPECT_TRUE(labelText(view, "runStatus").contains(QStringLiteral("not timed")))
      << labelText(view, "runStatus").toStdString();
}

TEST(InductorRunSweep, WithoutTorchTheViewSaysWhatToInstall) {
  FakePython fake("no-torch");
  InductorRunView view{testContext()};
  ASSERT_TRUE(scanAndWait(view, inductorFixture("spill_log_softmax")));
  childNamed<QLineEdit>(view, "pythonEdit").setText(QStringLiteral(OCCX_FAKE_PYTHON));
  ASSERT_TRUE(sweep(view));
  const QString text = labelText(view, "runStatus");
  EXPECT_TRUE(text.startsWith(QStringLiteral("Could not sweep: "))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("cannot import torch"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("pip install torch"))) << text.toStdString();
  // In the GUI's words: its Python box, not the command line's --python.
  EXPECT_TRUE(text.contains(QStringLiteral("choose another Python in the Python box"))) << text.toStdString();
  EXPECT_FALSE(text.contains(QStringLiteral("--python"))) << text.toStdString();
  EXPECT_EQ(configModel(view).numRows(), 3);  // the run is as it was
}

TEST(InductorRunSweep, ABundledH200SweepOpensWithEveryConfigAndItsReasons) {
  InductorRunView view{testContext()};
  ASSERT_EQ(view.openBundled(QStringLiteral("ref_mean_var")), QString());
  ASSERT_TRUE(view.selectKernel(0));
  // Inductor's one config and the 81 the sweep compiled, each measured on the H200.
  EXPECT_EQ(configModel(view).numRows(), 82);
  const int best = configRowOf(view, QStringLiteral("X4 R2048 w32"));
  ASSERT_GE(best, 0);
  ASSERT_NE(configModel(view).measured(best), nullptr);
  EXPECT_NEAR(configModel(view).measured(best)->row.measured.timeUs(), 129.7, 0.05);  // device time, L2 cold
  EXPECT_TRUE(
      labelText(view, "sweepNote").startsWith(QStringLiteral("Best: X4 R2048 w32, 129.7 µs (4195 GB/s of DRAM)")))
      << labelText(view, "sweepNote").toStdString();
  // The run has one config and no .best_config: every rule has that one config, 1.27× the best.
  EXPECT_TRUE(
      labelText(view, "sweepNote")
          .contains(QStringLiteral(
              "old, new, review_min, exact, spills policies: each picks X1 R2048 w16 of 1, 165.2 µs, regret 1.27")))
      << labelText(view, "sweepNote").toStdString();
  // A bundled run has its module: it can be swept again with a local Triton.
  EXPECT_TRUE(view.sweepUnavailableReason().isEmpty()) << view.sweepUnavailableReason().toStdString();
}

}  // namespace
}  // namespace occx::ui
