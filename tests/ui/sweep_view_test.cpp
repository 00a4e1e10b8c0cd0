// What the two sweep views share (SweepView), checked on both alike: the "Plot XBLOCK" filter, the
// status line for a file that cannot be opened, the idle job controls, the settings group name.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QToolButton>

#include "tests/ui/ui_test_support.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/plots/plot_controller.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/sweep_inputs.h"

namespace occx::ui {
namespace {

TEST(SweepView, BothViewsShareTheXBlockFilterStatusLineAndJobControls) {
  CompileSweepView compile(testContext(compileBackend({})));
  LiveSweepView live(testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("test"), {}})));
  ASSERT_EQ(compile.openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  ASSERT_EQ(live.openCsvFile(testData("live_sweep_fixture.csv")), QString());
  EXPECT_EQ(compile.objectName(), QStringLiteral("compileSweep"));
  EXPECT_EQ(live.objectName(), QStringLiteral("liveSweep"));

  for (SweepView* view : {static_cast<SweepView*>(&compile), static_cast<SweepView*>(&live)}) {
    SCOPED_TRACE(view->objectName().toStdString());
    QComboBox* filter = view->xblockCombo();
    ASSERT_GE(filter->count(), 1);
    EXPECT_FALSE(view->setPlotXBlock(12345));  // no row has it: nothing changes
    const int last = filter->itemData(filter->count() - 1).toInt();
    ASSERT_TRUE(view->setPlotXBlock(last));
    EXPECT_EQ(view->plotXBlock(), last);
    EXPECT_EQ(filter->currentData().toInt(), last);
    // Back to the first XBLOCK (timed or compiled rows in both files): the plots say which they show.
    const int first = filter->itemData(0).toInt();
    ASSERT_TRUE(view->setPlotXBlock(first));
    EXPECT_EQ(filter->currentData().toInt(), first);
    const PlotController* first_plot = view->plotExports().front();
    EXPECT_TRUE(first_plot->title().endsWith(QStringLiteral(" (XBLOCK = %1)").arg(first)))
        << first_plot->title().toStdString();

    // Idle: nothing to cancel.
    EXPECT_FALSE(view->isRunning());
    EXPECT_FALSE(view->cancelButton()->isEnabled());

    // A file that is not there: said in the status line, in the error colour; the data stays.
    const int rows_before = view->tableView()->model()->rowCount();
    const QString error = view->openCsvFile(QStringLiteral("/nonexistent/sweep.csv"));
    EXPECT_FALSE(error.isEmpty());
    EXPECT_EQ(view->statusLabel()->text(), error);
    EXPECT_EQ(view->statusLabel()->styleSheet(), QStringLiteral("color: #8b0000;"));
    EXPECT_EQ(view->tableView()->model()->rowCount(), rows_before);
  }
}

TEST(CompileSweepView, TheDecisionsFollowTheConfigAndItsRegisters) {
  CompileSweepView view(testContext(compileBackend({})));
  ASSERT_EQ(view.openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  QTableView* table = view.tableView();
  QHeaderView* header = table->horizontalHeader();
  // Shown left to right: the config and its registers (what the bounds read), every policy's
  // decision, then the other compiled facts and the candidate sets; the sweep index last.
  const std::vector<int> order = {
      CompileSweepModel::kXBlock,        CompileSweepModel::kRBlock,       CompileSweepModel::kNumWarps,
      CompileSweepModel::kRegisters,     CompileSweepModel::kDecisionOld,  CompileSweepModel::kDecisionNew,
      CompileSweepModel::kDecisionExact, CompileSweepModel::kSpillStores,  CompileSweepModel::kBlocksPerSm,
      CompileSweepModel::kOccupancy,     CompileSweepModel::kCandidateOld, CompileSweepModel::kCandidateNew,
      CompileSweepModel::kCandidateExact};
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(header->visualIndex(order[i]), static_cast<int>(i)) << i;
  EXPECT_EQ(header->visualIndex(CompileSweepModel::kIndex), CompileSweepModel::kColumnCount - 1);
  EXPECT_EQ(table->model()->headerData(CompileSweepModel::kDecisionOld, Qt::Horizontal).toString(),
            QStringLiteral("old bound"));
}

TEST(SweepInputs, AChosenGridValueLooksChosen) {
  SweepInputs inputs;
  inputs.setGridValues(2, {8});
  QToolButton* on = inputs.gridButton(2, 8);
  QToolButton* off = inputs.gridButton(2, 16);
  ASSERT_NE(on, nullptr);
  ASSERT_NE(off, nullptr);
  ASSERT_TRUE(on->isChecked());
  ASSERT_FALSE(off->isChecked());
  inputs.resize(400, 400);
  inputs.show();
  QCoreApplication::processEvents();
  // Bold text on the checked ones (the style sheet's, which QWidget::font() does not report).
  const QString style = on->parentWidget()->styleSheet();
  EXPECT_TRUE(style.contains(QStringLiteral("QToolButton:checked {"))) << style.toStdString();
  EXPECT_TRUE(style.contains(QStringLiteral("font-weight: bold"))) << style.toStdString();
  // Filled: the checked button's middle is the strong blue, the unchecked one's near white.
  auto colourNearMiddle = [](QToolButton* b) {
    const QImage img = b->grab().toImage();
    return img.pixelColor(3, img.height() / 2);
  };
  const QColor on_c = colourNearMiddle(on);
  const QColor off_c = colourNearMiddle(off);
  EXPECT_LT(on_c.lightness(), 140) << on_c.name().toStdString();
  EXPECT_GT(on_c.blue(), on_c.red() + 60) << on_c.name().toStdString();
  EXPECT_GT(off_c.lightness(), 220) << off_c.name().toStdString();
}

}  // namespace
}  // namespace occx::ui
