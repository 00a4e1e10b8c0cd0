// The Inductor run view's measurements off-screen: the spill case with 16-warp configs scanned from
// its recorded cache and run through a fake backend whose GpuRunner times configs from a table (the
// configs table's new cells, the Measured plot's bars and marks, the picks table); the bundled H200
// measurements of the same run merged on open; a bundled run cannot run and says why; a kernel-runs
// CSV merges into its run and names the run to open otherwise; the Measured tab at 1280 × 720.
#include <gtest/gtest.h>

#include <QApplication>

#include <QFile>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <map>
#include "qcustomplot.h"

#include "core/base/csv.h"
#include "core/triton/kernel_measurements.h"
#include "inductor_view_support.h"
#include "tests/support/table_runner.h"
#include "ui/models/inductor_run_models.h"
#include "ui/plots/measured_times_plot.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/shell/main_window.h"
#include "ui/views/inductor_run_view.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

using testing_support::TableRunner;

QString cellText(const InductorRunView& view, int row, int column) {
  const RunConfigModel& model = configModel(view);
  return model.data(model.index(row, column), Qt::DisplayRole).toString();
}

TEST(InductorRunMeasured, RunsTheSpillCaseThroughTheBackendAndFillsTheTableAndPlot) {
  TableRunner runner({{"R0_BLOCK=2048, num_warps=16", 40.0},
                      {"R0_BLOCK=8192, num_warps=16", 36.0},
                      {"R0_BLOCK=8192, num_warps=32", 35.0},
                      {"R0_BLOCK=16384, num_warps=16", 34.0},
                      {"R0_BLOCK=16384, num_warps=32", 32.0},
                      {"R0_BLOCK=32768, num_warps=16", 48.0},
                      {"R0_BLOCK=32768, num_warps=32", 50.0}});
  auto backend = std::make_shared<FakeBackend>();
  backend->live = {true, {}};
  backend->runner = &runner;
  InductorRunView view{testContext(backend)};
  ASSERT_TRUE(scanAndWait(view, inductorFixture("spill_log_softmax_w16")));
  ASSERT_EQ(view.run().kernels.size(), 1u) << labelText(view, "runStatus").toStdString();
  ASSERT_NE(view.run().scanned, nullptr);
  QPushButton& run_button = childNamed<QPushButton>(view, "runOnGpuButton");
  EXPECT_TRUE(run_button.isEnabled()) << run_button.toolTip().toStdString();
  ASSERT_EQ(configModel(view).numRows(), 7);
  EXPECT_EQ(cellText(view, 0, RunConfigModel::kTime), QString());  // not measured yet

  bool done = false;
  QObject::connect(
      &view, &InductorRunView::measureFinished, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  ASSERT_EQ(view.runSelectedKernel(), QString());
  ASSERT_TRUE(waitFor([&] { return done; }, 20000));
  EXPECT_FALSE(view.isRunningKernels());
  EXPECT_TRUE(run_button.isEnabled());
  EXPECT_TRUE(labelText(view, "runStatus").contains(QStringLiteral("7 ok")))
      << labelText(view, "runStatus").toStdString();
  EXPECT_TRUE(labelText(view, "runTitle").contains(QStringLiteral("measured on Stand-in H200")))
      << labelText(view, "runTitle").toStdString();

  const int best = configRowOf(view, QStringLiteral("X1 R16384 w32"));
  const int winner = configRowOf(view, QStringLiteral("X1 R2048 w16"));
  ASSERT_GE(best, 0);
  ASSERT_GE(winner, 0);
  EXPECT_EQ(cellText(view, best, RunConfigModel::kStatus), QStringLiteral("ok"));
  EXPECT_EQ(cellText(view, best, RunConfigModel::kTime), QStringLiteral("32.0"));
  EXPECT_EQ(cellText(view, best, RunConfigModel::kRegret), QStringLiteral("1.00"));
  // Every rule halves R32768 w32 (it spills 50 registers, over the threshold: never benchmarked) to
  // R16384 w32, the fastest: each rule's pick and the best.
  const QString picked = cellText(view, best, RunConfigModel::kPickedBy);
  for (const char* rule : {"best", "old", "new", "review_min", "exact", "spills"}) {
    EXPECT_TRUE(picked.contains(QLatin1String(rule))) << rule << " in " << picked.toStdString();
  }
  EXPECT_EQ(cellText(view, winner, RunConfigModel::kRegret), QStringLiteral("1.25"));
  EXPECT_TRUE(configModel(view)
                  .data(configModel(view).index(best, RunConfigModel::kStatus), Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("stand-in")));

  // The Measured tab: one bar per config, the best and every rule's pick on R16384 w32.
  const MeasuredTimesPlot* plot = &measuredPlot(view);
  ASSERT_EQ(plot->values().size(), 7u);
  EXPECT_DOUBLE_EQ(plot->values()[static_cast<std::size_t>(best)], 32.0);
  EXPECT_DOUBLE_EQ(plot->values()[static_cast<std::size_t>(winner)], 40.0);
  EXPECT_EQ(plot->bestRow(), best);
  for (int r : plot->pickRows()) EXPECT_EQ(r, best);
  EXPECT_FALSE(plot->title().isEmpty());
  const QTableWidget& picks = childNamed<QTableWidget>(view, "picksTable");
  ASSERT_EQ(picks.rowCount(), 5);
  EXPECT_EQ(picks.item(1, 1)->text(), QStringLiteral("X1 R16384 w32"));
  EXPECT_EQ(picks.item(1, 3)->text(), QStringLiteral("1.00"));

  // The measured rows export as a kernel-runs CSV.
  bool exported = false;
  for (const auto& e : view.csvExports()) {
    if (e.suggested_name != QStringLiteral("inductor-kernel-runs.csv")) continue;
    exported = true;
    auto back = triton::measurementsFromCsv(e.table);
    ASSERT_TRUE(back.hasValue()) << back.error();
    EXPECT_EQ(back->rows.size(), 7u);
  }
  EXPECT_TRUE(exported);
  bool plot_exported = false;
  for (const PlotController* p : view.plotExports()) plot_exported = plot_exported || p == plot;
  EXPECT_TRUE(plot_exported);
}

TEST(InductorRunMeasured, WithoutAGpuTheButtonSaysWhy) {
  auto backend = std::make_shared<FakeBackend>();
  backend->live = {false, "No NVIDIA driver: test"};
  InductorRunView view{testContext(backend)};
  ASSERT_TRUE(scanAndWait(view, inductorFixture("spill_log_softmax_w16")));
  const QPushButton& run_button = childNamed<QPushButton>(view, "runOnGpuButton");
  EXPECT_FALSE(run_button.isEnabled());
  EXPECT_EQ(run_button.toolTip(), QStringLiteral("No NVIDIA driver: test"));
  EXPECT_FALSE(view.runSelectedKernel().isEmpty());
}

TEST(InductorRunMeasured, ABundledRunShowsItsH200MeasurementsAndCannotRun) {
  auto backend = std::make_shared<FakeBackend>();
  backend->live = {true, {}};
  InductorRunView view{testContext(backend)};
  ASSERT_EQ(view.openBundled(QStringLiteral("spill_log_softmax_w16")), QString());
  const QPushButton& run_button = childNamed<QPushButton>(view, "runOnGpuButton");
  EXPECT_FALSE(run_button.isEnabled());
  EXPECT_FALSE(childNamed<QPushButton>(view, "runAllKernelsButton").isEnabled());
  EXPECT_TRUE(run_button.toolTip().contains(QStringLiteral("open the run's folder")))
      << run_button.toolTip().toStdString();
  EXPECT_TRUE(labelText(view, "runTitle").contains(QStringLiteral("measured on NVIDIA H200 (2026-12-03) — bundled")))
      << labelText(view, "runTitle").toStdString();
  // Values of resources/inductor-runs/measured/spill_log_softmax_w16.csv: device time per launch, L2 cold
  // (CUPTI) and warm; DRAM bandwidth.
  const int winner = configRowOf(view, QStringLiteral("X1 R2048 w16"));
  const int halved = configRowOf(view, QStringLiteral("X1 R16384 w32"));
  const int spilling = configRowOf(view, QStringLiteral("X1 R32768 w32"));
  ASSERT_GE(winner, 0);
  ASSERT_GE(halved, 0);
  ASSERT_GE(spilling, 0);
  const int best = configRowOf(view, QStringLiteral("X1 R8192 w16"));  // compiled later by Triton: in no rule's set
  ASSERT_GE(best, 0);
  EXPECT_EQ(cellText(view, winner, RunConfigModel::kTime), QStringLiteral("26.7"));
  EXPECT_EQ(cellText(view, winner, RunConfigModel::kWarmTime), QStringLiteral("23.2"));
  EXPECT_EQ(cellText(view, winner, RunConfigModel::kBandwidth), QStringLiteral("2518"));
  EXPECT_EQ(cellText(view, winner, RunConfigModel::kAchieved), QStringLiteral("42.3"));
  EXPECT_TRUE(cellText(view, best, RunConfigModel::kPickedBy).contains(QStringLiteral("best")));
  EXPECT_TRUE(cellText(view, winner, RunConfigModel::kPickedBy).contains(QStringLiteral("new")));
  EXPECT_EQ(cellText(view, halved, RunConfigModel::kTime), QStringLiteral("28.9"));
  EXPECT_EQ(cellText(view, spilling, RunConfigModel::kTime), QStringLiteral("40.9"));
  EXPECT_EQ(cellText(view, halved, RunConfigModel::kRegret), QString::number(28.880 / 26.208, 'f', 2));
  EXPECT_DOUBLE_EQ(measuredPlot(view).values()[static_cast<std::size_t>(winner)], 26.656);
  EXPECT_EQ(measuredPlot(view).bestRow(), best);
  EXPECT_TRUE(labelText(view, "measuredNote").contains(QStringLiteral("bundled")));
}

TEST(InductorRunMeasured, AKernelRunsCsvMergesIntoItsRunOrNamesTheRunToOpen) {
  InductorRunView view{testContext()};
  ASSERT_EQ(view.openBundled(QStringLiteral("spill_log_softmax_w16")), QString());
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  // Its own measurements, written out and opened again: merged.
  QString path;
  for (const auto& e : view.csvExports()) {
    if (e.suggested_name != QStringLiteral("inductor-kernel-runs.csv")) continue;
    path = dir.filePath(e.suggested_name);
    QFile f(path);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray::fromStdString(toCsv(e.table)));
  }
  ASSERT_FALSE(path.isEmpty());
  EXPECT_EQ(view.openPath(path), QString());
  EXPECT_EQ(cellText(view, configRowOf(view, QStringLiteral("X1 R2048 w16")), RunConfigModel::kTime),
            QStringLiteral("26.7"));
  // Another run's kernels: the message says which run they belong to.
  ASSERT_EQ(view.openBundled(QStringLiteral("ref_sum")), QString());
  const QString message = view.openMeasurementsCsv(path);
  EXPECT_TRUE(message.contains(QStringLiteral("open the run they were measured on first"))) << message.toStdString();
  EXPECT_TRUE(message.contains(QStringLiteral("spill_log_softmax_w16"))) << message.toStdString();
}

TEST(InductorRunMeasured, TheMeasuredAndSweepTabsFit1280x720) {
  QSettings().clear();
  MainWindow window(testContext(offlineBackend(), false));
  auto* view = new InductorRunView(testContext());
  window.addView(view, QStringLiteral("Inductor run"));
  ASSERT_EQ(view->openBundled(QStringLiteral("spill_log_softmax_w16")), QString());
  window.resize(1280, 720);
  window.show();
  window.tabs()->setCurrentWidget(view);
  view->detailTabs()->setCurrentIndex(view->detailTabs()->count() - 3);  // Measured, Sweep, Step
  QApplication::processEvents();
  EXPECT_EQ(view->detailTabs()->tabText(view->detailTabs()->currentIndex()), QStringLiteral("Measured"));
  QWidget* plot = measuredPlot(*view).widget();
  EXPECT_TRUE(plot->isVisible());
  EXPECT_GE(plot->height(), 150);
  EXPECT_GE(plot->width(), 300);
  // The picks' table is as wide as its columns need, and the plot's data area keeps 300 × 180 px.
  measuredPlot(*view).plot()->replot(QCustomPlot::rpImmediateRefresh);
  const QRect area = measuredPlot(*view).plot()->axisRect()->rect();
  EXPECT_GE(area.width(), 300);
  EXPECT_GE(area.height(), 180);
  const QTableWidget& picks = childNamed<QTableWidget>(*view, "picksTable");
  EXPECT_TRUE(picks.isVisible());
  EXPECT_GE(picks.width(), 200);
  // Every column of the policies' picks in the table's viewport, unscrolled, its header whole (the
  // last one read "Not compil").
  const QHeaderView* header = picks.horizontalHeader();
  ASSERT_EQ(picks.columnCount(), 5);
  ASSERT_GT(picks.rowCount(), 0);
  for (int c = 0; c < picks.columnCount(); ++c) {
    SCOPED_TRACE(picks.horizontalHeaderItem(c)->text().toStdString());
    EXPECT_GE(header->sectionSize(c), header->sectionSizeHint(c));
    EXPECT_LE(header->sectionViewportPosition(c) + header->sectionSize(c), picks.viewport()->width());
    EXPECT_FALSE(picks.horizontalHeaderItem(c)->toolTip().isEmpty());
  }
  // The Sweep tab beside it, and the sweep's controls.
  view->detailTabs()->setCurrentIndex(view->detailTabs()->count() - 2);
  QApplication::processEvents();
  EXPECT_EQ(view->detailTabs()->tabText(view->detailTabs()->currentIndex()), QStringLiteral("Sweep"));
  QWidget* sweep = sweepPlot(*view).widget();
  EXPECT_TRUE(sweep->isVisible());
  EXPECT_GE(sweep->height(), 150);
  EXPECT_GE(sweep->width(), 400);
  EXPECT_TRUE(childNamed<QPushButton>(*view, "sweepKernelButton").isVisible());
  EXPECT_TRUE(childNamed<QLineEdit>(*view, "pythonEdit").isVisible());
  EXPECT_LE(window.geometry().width(), 1280);
  EXPECT_LE(window.geometry().height(), 720);
}

}  // namespace
}  // namespace occx::ui
