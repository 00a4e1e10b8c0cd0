// The Inductor run view off-screen: a recorded Inductor cache scanned off the UI thread, the kernel
// list, a config row, the bounds plot's current point and the hand-over to the RBLOCK-scaling view
// (device included); a scan CSV and the bundled runs open without the cache; bad paths say why.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>

#include "core/base/csv.h"
#include "core/triton/inductor_run.h"
#include "inductor_view_support.h"
#include "ui/models/inductor_run_models.h"
#include "ui/plots/config_occupancy_plot.h"
#include "ui/plots/rblock_bounds_plot.h"
#include "ui/views/app_view.h"
#include "ui/views/calculator_view.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/widgets/device_selector.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

// Filtering the kernel list never shows a kernel the table does not: while the filter hides the
// kernel the user chose, no kernel is selected and the details are empty, saying what hides it (not
// the kernel, nor another the table's current row slid to); once the filter lets it through, it is
// selected again with its details and the config that was selected.
TEST(InductorRunView, FilterHidingTheChosenKernelEmptiesTheDetails) {
  InductorRunView view{testContext()};  // the bundled Blenderbot run
  ASSERT_GE(kernelModel(view).numRows(), 10);
  auto* filter = view.findChild<QLineEdit*>(QStringLiteral("kernelFilter"));
  auto* table = view.findChild<QTableView*>(QStringLiteral("kernelTable"));
  ASSERT_NE(filter, nullptr);
  ASSERT_NE(table, nullptr);
  auto* proxy = qobject_cast<QSortFilterProxyModel*>(table->model());
  ASSERT_NE(proxy, nullptr);
  int chosen_index = -1;  // the first kernel with more than one config
  for (int i = 0; i < kernelModel(view).numRows() && chosen_index < 0; ++i) {
    ASSERT_TRUE(view.selectKernel(i));
    if (configModel(view).numRows() > 1) chosen_index = i;
  }
  ASSERT_GE(chosen_index, 0);
  const int config_row = view.selectedConfig() == configModel(view).row(0) ? 1 : 0;  // not the one shown first
  ASSERT_TRUE(view.selectConfig(config_row));
  const QString chosen = QString::fromStdString(kernelModel(view).row(chosen_index)->kernel);
  const QString chosen_html = QString(chosen).replace(QLatin1Char('_'), QStringLiteral("_&#8203;"));  // breakable
  const QString title = labelText(view, "kernelTitle");
  const QString source = childNamed<QPlainTextEdit>(view, "kernelSource").toPlainText();
  const int configs = configModel(view).numRows();
  ASSERT_TRUE(title.contains(chosen_html)) << title.toStdString();
  ASSERT_FALSE(source.isEmpty());

  filter->setText(QStringLiteral("pointwise"));  // the looped reduction is hidden
  ASSERT_FALSE(proxy->mapFromSource(kernelModel(view).index(chosen_index, 0)).isValid());
  EXPECT_GT(proxy->rowCount(), 0);
  EXPECT_FALSE(table->selectionModel()->hasSelection());
  EXPECT_EQ(view.selectedKernel(), -1);
  EXPECT_EQ(view.selectedConfig(), nullptr);
  EXPECT_EQ(configModel(view).numRows(), 0);
  EXPECT_TRUE(childNamed<QPlainTextEdit>(view, "kernelSource").toPlainText().isEmpty());
  EXPECT_TRUE(
      labelText(view, "kernelTitle").startsWith(QStringLiteral("<b>No kernel selected</b> — the filter hides ")))
      << labelText(view, "kernelTitle").toStdString();
  EXPECT_TRUE(labelText(view, "kernelTitle").contains(chosen_html));
  filter->setText(QStringLiteral("no kernel has this name"));
  EXPECT_EQ(proxy->rowCount(), 0);
  EXPECT_EQ(view.selectedKernel(), -1);
  EXPECT_EQ(configModel(view).numRows(), 0);
  EXPECT_TRUE(labelText(view, "kernelTitle").contains(chosen_html));

  filter->clear();
  EXPECT_EQ(view.selectedKernel(), chosen_index);
  ASSERT_TRUE(table->selectionModel()->currentIndex().isValid());
  EXPECT_EQ(proxy->mapToSource(table->selectionModel()->currentIndex()).row(), chosen_index);
  EXPECT_EQ(labelText(view, "kernelTitle"), title);
  EXPECT_EQ(childNamed<QPlainTextEdit>(view, "kernelSource").toPlainText(), source);
  EXPECT_EQ(configModel(view).numRows(), configs);
  ASSERT_NE(view.selectedConfig(), nullptr);
  EXPECT_EQ(view.selectedConfig(), configModel(view).row(config_row));
  // A filter that lets the chosen kernel through keeps it selected, its details shown.
  filter->setText(chosen);
  EXPECT_EQ(proxy->mapToSource(table->selectionModel()->currentIndex()).row(), chosen_index);
  EXPECT_EQ(view.selectedKernel(), chosen_index);
  EXPECT_EQ(labelText(view, "kernelTitle"), title);
  // Choosing a kernel the filter hides (from the Step page) clears the filter and shows it.
  filter->setText(QStringLiteral("pointwise"));
  ASSERT_TRUE(view.selectKernel(chosen_index));
  EXPECT_TRUE(filter->text().isEmpty());
  EXPECT_EQ(view.selectedKernel(), chosen_index);
  EXPECT_EQ(labelText(view, "kernelTitle"), title);
}

TEST(InductorRunView, OpensABundledRunOnStart) {
  InductorRunView view{testContext()};
  ASSERT_FALSE(view.run().kernels.empty());
  EXPECT_EQ(view.run().title, QStringLiteral("BlenderbotForCausalLM training step, H200"));
  EXPECT_TRUE(labelText(view, "runSummary")
                  .startsWith(QStringLiteral("12 looped reductions, 1 persistent reduction, 23 pointwise kernels")))
      << labelText(view, "runSummary").toStdString();
  EXPECT_EQ(kernelModel(view).numRows(), 36);
  // The source pane shows the bundled module, with the tile lines marked.
  ASSERT_GE(view.selectedKernel(), 0);
  EXPECT_TRUE(childNamed<QPlainTextEdit>(view, "kernelSource")
                  .toPlainText()
                  .contains(QStringLiteral("@triton_heuristics.reduction(")));
  EXPECT_FALSE(childNamed<QPlainTextEdit>(view, "kernelSource").extraSelections().isEmpty());
}

TEST(InductorRunView, ScansACacheAndHandsAConfigOver) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(scanAndWait(view, inductorFixture("spill_log_softmax")));
  ASSERT_EQ(view.run().kernels.size(), 1u) << labelText(view, "runStatus").toStdString();
  EXPECT_EQ(kernelModel(view).numRows(), 1);
  EXPECT_EQ(kernelModel(view).data(kernelModel(view).index(0, KernelListModel::kConfigs), Qt::DisplayRole).toInt(), 3);
  EXPECT_EQ(labelText(view, "runSummary"),
            QStringLiteral("1 looped reduction; 3 configs Inductor compiled (1 added by RBLOCK scaling); the old and "
                           "new bounds agree on every one; 1 config spills over the threshold; the winners' mean "
                           "occupancy is 100 % over the 1 looped reduction autotuned among several "
                           "configs; device CC 9.0, 132 SMs"));
  // Configs in tile order: R2048 w16 (the winner, selected first), R16384 w32 (added), R32768 w32 (50 spills).
  ASSERT_EQ(configModel(view).numRows(), 3);
  const triton::ScanRow* winner = view.selectedConfig();
  ASSERT_NE(winner, nullptr);
  EXPECT_TRUE(winner->winner);
  EXPECT_EQ(*winner->r0_block, 2048);
  ASSERT_TRUE(view.selectConfig(2));
  const triton::ScanRow* spilling = view.selectedConfig();
  EXPECT_EQ(*spilling->r0_block, 32768);
  EXPECT_EQ(*spilling->n_regs, 64);
  EXPECT_EQ(*spilling->n_spills, 50);
  EXPECT_EQ(configModel(view).data(configModel(view).index(2, RunConfigModel::kNew), Qt::DisplayRole).toString(),
            QStringLiteral("scale"));
  EXPECT_TRUE(configModel(view)
                  .data(configModel(view).index(2, RunConfigModel::kNew), Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("512 blocks")));
  EXPECT_EQ(configModel(view).data(configModel(view).index(1, RunConfigModel::kOrigin), Qt::DisplayRole).toString(),
            QStringLiteral("added by scaling"));
  // The bounds plot's current point: 64 registers → new bound max(65536 // (64 · 32 · 32), 1) = 1.
  const auto current = boundsPlot(view).graphPoints(RblockBoundsPlot::kCurrentGraph);
  ASSERT_EQ(current.size(), 1);
  EXPECT_DOUBLE_EQ(current.front().x(), 64.0);
  EXPECT_DOUBLE_EQ(current.front().y(), 1.0);
  // Occupancy bars: 100 %, 50 %, 50 %, the selected one third.
  EXPECT_EQ(occupancyPlot(view).values(), (std::vector<double>{100.0, 50.0, 50.0}));
  EXPECT_EQ(occupancyPlot(view).selected(), 2);
  // The source pane shows the module with the tile lines highlighted.
  EXPECT_TRUE(childNamed<QPlainTextEdit>(view, "kernelSource").toPlainText().contains(QStringLiteral("R0_BLOCK")));
  EXPECT_FALSE(childNamed<QPlainTextEdit>(view, "kernelSource").extraSelections().isEmpty());

  // Hand-over to the RBLOCK view: the config, its n_regs and its device (CC 9.0, 132 SMs).
  RblockScalingView rblock{testContext()};
  rblock.deviceSelector()->setCurrentKey(QStringLiteral("gpu:A100 SXM4 80GB"));  // another GPU than the run's
  QObject::connect(&view, &InductorRunView::openInRblock, &rblock, &RblockScalingView::showHandOver);
  QPushButton& to_rblock = childNamed<QPushButton>(view, "toRblockButton");
  ASSERT_TRUE(to_rblock.isEnabled());
  to_rblock.click();
  const RblockInputs in = rblock.inputs();
  EXPECT_EQ(in.xblock, 1);
  EXPECT_EQ(in.rblock, 32768);
  EXPECT_EQ(in.num_warps, 32);
  EXPECT_EQ(in.n_regs, 64);
  EXPECT_TRUE(in.n_regs_known);
  EXPECT_EQ(in.n_spills, 50);
  EXPECT_EQ(in.xnumel, 264);
  EXPECT_EQ(in.rnumel, 30000);
  EXPECT_EQ(rblock.deviceSelector()->currentKey(),
            QStringLiteral("cc:9.0"));  // not a named GPU: H100 SXM5 and H200 share CC and SMs
  EXPECT_EQ(rblock.device().arch.cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(rblock.device().sm_count, 132);
  ASSERT_FALSE(rblock.decisions().empty());
  EXPECT_EQ(rblock.decisions()[1].outcome, inductor::Outcome::kScale);

  // And to the calculator: 1024 threads, 64 registers, 1152 B shared memory on a CC 9.0 GPU.
  CalculatorView calc{testContext()};
  QObject::connect(&view, &InductorRunView::openInCalculator, &calc, &CalculatorView::showHandOver);
  childNamed<QPushButton>(view, "toCalculatorButton").click();
  EXPECT_EQ(calc.input().threads_per_block, 1024);
  EXPECT_EQ(calc.input().registers_per_thread, 64);
  EXPECT_EQ(calc.input().dynamic_smem_bytes, 128);
  EXPECT_EQ(calc.arch().cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(calc.result().active_blocks_per_sm, 1);
  EXPECT_EQ(calc.input().sm_count, 132);  // the bare CC entry has none: the config's is kept
  EXPECT_EQ(calc.input().grid_blocks, 264);
}

TEST(InductorRunView, KernelListFiltersAndSorts) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(scanAndWait(view, inductorFixture("t5")));
  QTableView& table = childNamed<QTableView>(view, "kernelTable");
  QLineEdit& filter = childNamed<QLineEdit>(view, "kernelFilter");
  const QAbstractItemModel& list = *table.model();
  const int all = list.rowCount();
  EXPECT_EQ(all, static_cast<int>(view.run().kernels.size()));
  filter.setText(QStringLiteral("looped"));
  EXPECT_EQ(list.rowCount(), 15);
  filter.setText(QStringLiteral("pointwise"));
  EXPECT_EQ(list.rowCount(), 44);
  filter.clear();
  // Sorted by configs, most first.
  table.sortByColumn(KernelListModel::kConfigs, Qt::DescendingOrder);
  const int top = list.data(list.index(0, KernelListModel::kConfigs), KernelListModel::kSortRole).toInt();
  for (int r = 1; r < list.rowCount(); ++r) {
    EXPECT_LE(list.data(list.index(r, KernelListModel::kConfigs), KernelListModel::kSortRole).toInt(), top);
  }
  EXPECT_EQ(top, 4);
}

TEST(InductorRunView, ScanCsvOpensWithoutTheCache) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(scanAndWait(view, inductorFixture("ref_log_softmax")));
  const auto exports = view.csvExports();
  ASSERT_EQ(exports.size(), 2u);
  QTemporaryDir dir;
  const QString path = dir.filePath(QStringLiteral("scan.csv"));
  ASSERT_TRUE(writeCsvFile(exports.front().table, path).hasValue());
  InductorRunView other{testContext()};
  EXPECT_TRUE(other.openPath(path).isEmpty());
  ASSERT_EQ(other.run().kernels.size(), 1u);
  EXPECT_EQ(other.run().rows.size(), 3u);
  EXPECT_EQ(labelText(other, "runSummary"), labelText(view, "runSummary"));
  EXPECT_TRUE(childNamed<QPlainTextEdit>(other, "kernelSource").toPlainText().isEmpty());
  EXPECT_TRUE(labelText(other, "sourceLabel").contains(QStringLiteral("not in the CSV")))
      << labelText(other, "sourceLabel").toStdString();
  ASSERT_TRUE(other.selectConfig(1));
  EXPECT_EQ(boundsPlot(other).graphPoints(RblockBoundsPlot::kCurrentGraph).size(), 1);
}

TEST(InductorRunView, EveryBundledRunOpens) {
  InductorRunView view{testContext()};
  const auto runs = bundledInductorRuns();
  ASSERT_EQ(runs.size(), 13u);  // with the spill case's 16-warp configs
  EXPECT_EQ(runs.front().key, QStringLiteral("blenderbot"));
  for (const auto& r : runs) {
    EXPECT_TRUE(view.openBundled(r.key).isEmpty()) << r.key.toStdString();
    // The runs measured on the H200 carry their measurements.
    const bool measured = QFile::exists(QStringLiteral(":/inductor-runs/measured/") + r.key + QStringLiteral(".csv"));
    EXPECT_EQ(!view.run().measured.rows.empty(), measured) << r.key.toStdString();
    EXPECT_EQ(view.run().title, r.title);
    EXPECT_FALSE(view.run().kernels.empty()) << r.key.toStdString();
    EXPECT_FALSE(view.run().sources.empty()) << r.key.toStdString();
  }
  EXPECT_FALSE(view.openBundled(QStringLiteral("no_such_run")).isEmpty());
}

TEST(InductorRunView, BadPathsSayWhy) {
  InductorRunView view{testContext()};
  const QString missing = view.openPath(QStringLiteral("/nonexistent/inductor-cache"));
  EXPECT_TRUE(missing.contains(QStringLiteral("does not exist"))) << missing.toStdString();
  QTemporaryDir dir;
  ASSERT_TRUE(scanAndWait(view, dir.path()));
  EXPECT_TRUE(labelText(view, "runStatus").contains(QStringLiteral("no Inductor kernel modules")))
      << labelText(view, "runStatus").toStdString();
  EXPECT_FALSE(view.run().kernels.empty());  // the run shown before stays
  const QString not_scan = dir.filePath(QStringLiteral("x.csv"));
  ASSERT_TRUE(writeCsvFile(CsvTable{{}, {"a"}, {{"1"}}}, not_scan).hasValue());
  EXPECT_TRUE(view.openPath(not_scan).contains(QStringLiteral("not an Inductor run scan")));
}

}  // namespace
}  // namespace occx::ui
