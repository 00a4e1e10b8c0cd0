// What the two sweep views share (SweepView), checked on both alike: the "Plot XBLOCK" filter, the
// status line for a file that cannot be opened, the idle job controls, the settings group name.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QTableView>

#include "tests/ui/ui_test_support.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/plots/plot_controller.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/live_sweep_view.h"

namespace occx::ui {
namespace {

TEST(SweepView, BothViewsShareTheXBlockFilterStatusLineAndJobControls) {
  CompileSweepView compile(nullptr, compileBackend({}));
  LiveSweepView live(nullptr, liveBackend({}, LiveAvailability{false, QStringLiteral("test"), {}}));
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

}  // namespace
}  // namespace occx::ui
