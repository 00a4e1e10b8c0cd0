// The calculator view off-screen: inputs drive the result, the plots' data and marker, the utilization
// chart, the derivation and the inline "cannot launch" message. Expected numbers are derived by hand
// from the H100 / T4 / CC 8.6 limits (resources/gpu_data.json), step by step in the comments.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTextDocument>
#include <QTextList>
#include <QToolTip>
#include <cmath>
#include <iostream>
#include <limits>

#include <QCheckBox>
#include <QPushButton>
#include <QTabWidget>
#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "qcustomplot.h"
#include "tests/ui/ui_test_support.h"
#include "ui/plots/cluster_size_plot.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/plots/utilization_chart.h"
#include "ui/views/calculator_view.h"

namespace occx::ui {
namespace {

// The value of a (quantity, value) CSV row, empty when absent.
std::string csvValue(const CsvTable& t, const std::string& quantity) {
  for (const auto& row : t.rows) {
    if (row.size() == 2 && row[0] == quantity) return row[1];
  }
  return {};
}

// The cell `column` of the curves CSV row with this curve name and x, empty when absent.
std::string curveCell(const CsvTable& t, const std::string& curve, const std::string& x, const std::string& column) {
  const int c_curve = t.column("curve");
  const int c_x = t.column("x");
  const int c = t.column(column);
  if (c_curve < 0 || c_x < 0 || c < 0) return {};
  for (const auto& row : t.rows) {
    if (row[static_cast<std::size_t>(c_curve)] == curve && row[static_cast<std::size_t>(c_x)] == x)
      return row[static_cast<std::size_t>(c)];
  }
  return {};
}

TEST(CalculatorView, OpensOnH100WithBuiltInDefaults) {
  CalculatorView view{testContext()};
  EXPECT_EQ(view.deviceSelector()->currentKey(), QStringLiteral("gpu:H100 SXM5"));
  EXPECT_EQ(view.threadsSpin()->value(), 256);
  EXPECT_EQ(view.registersSpin()->value(), 32);
  EXPECT_EQ(view.staticSmemSpin()->value(), 0);
  EXPECT_EQ(view.dynamicSmemSpin()->value(), 0);
  EXPECT_EQ(view.carveoutSpin()->value(), -1);
  // CC 9.0: 256 threads = 8 warps; 64 / 8 = 8 blocks by warps. 32 regs × 32 = 1024 per warp;
  // 16384 per sub-partition / 1024 = 16 warps × 4 = 64 warps / 8 = 8 blocks by registers.
  // Shared memory: 0 + 1024 reserved = 1024 B; 233472 / 1024 = 228 blocks. Blocks cap 32.
  const OccupancyResult& r = view.result();
  ASSERT_TRUE(r.can_launch);
  EXPECT_EQ(r.active_blocks_per_sm, 8);
  EXPECT_EQ(r.active_warps_per_sm, 64);
  EXPECT_DOUBLE_EQ(r.occupancy, 1.0);
  EXPECT_EQ(r.limiters, unsigned{kLimitWarps | kLimitRegisters});
  EXPECT_EQ(r.block_limit_shared_memory, 228);
  EXPECT_EQ(r.max_active_blocks_gpu, 8 * 132);
  EXPECT_EQ(view.occupancyLabel()->text(), QStringLiteral("100.0 %"));
  EXPECT_TRUE(view.validationLabel()->isHidden());
}

TEST(CalculatorView, Registers32To64UpdatesResultAndEveryPlot) {
  CalculatorView view{testContext()};
  view.registersSpin()->setValue(64);

  // 64 × 32 = 2048 registers per warp; 16384 / 2048 = 8 warps per sub-partition × 4 = 32 warps;
  // 32 / 8 warps per block = 4 blocks → 32 active warps of 64 = 50 %, limited by registers only.
  const OccupancyResult& r = view.result();
  ASSERT_TRUE(r.can_launch);
  EXPECT_EQ(r.block_limit_registers, 4);
  EXPECT_EQ(r.active_blocks_per_sm, 4);
  EXPECT_EQ(r.active_warps_per_sm, 32);
  EXPECT_EQ(r.limiters, unsigned{kLimitRegisters});
  EXPECT_EQ(r.registers_per_block_allocated, 16384);
  EXPECT_EQ(view.occupancyLabel()->text(), QStringLiteral("50.0 %"));

  // Block-size curve: 32 … 1024 threads in warp steps = 32 points. With 64 registers the register
  // file holds 32 warps: 96 threads (3 warps) → floor(32 / 3) = 10 blocks = 30 warps;
  // 1024 threads (32 warps, 65536 registers per block: exactly the limit) → 1 block = 32 warps.
  OccupancyCurvePlot* bs = view.blockSizePlot();
  ASSERT_EQ(bs->graphCount(), 2);
  const auto bs_curve = bs->graphPoints(0);
  ASSERT_EQ(bs_curve.size(), 32);
  EXPECT_DOUBLE_EQ(bs_curve.front().x(), 32.0);
  EXPECT_DOUBLE_EQ(bs_curve.back().x(), 1024.0);
  EXPECT_DOUBLE_EQ(yAt(bs_curve, 32), 32.0);
  EXPECT_DOUBLE_EQ(yAt(bs_curve, 96), 30.0);
  EXPECT_DOUBLE_EQ(yAt(bs_curve, 256), 32.0);
  EXPECT_DOUBLE_EQ(yAt(bs_curve, 1024), 32.0);
  EXPECT_EQ(bs->markerPosition(), QPointF(256, 32));
  EXPECT_TRUE(bs->graphName(1).contains(QStringLiteral("256 threads → 32 warps"))) << bs->graphName(1).toStdString();

  // Registers curve: 1 … 255 = 255 points. 32 regs → 64 warps; 64 → 32; 128 regs = 4096 per warp
  // → 4 warps per sub-partition = 16 warps = 2 blocks → 16; 255 regs → 8160, rounded to 8192 →
  // 2 per sub-partition = 8 warps = 1 block → 8.
  OccupancyCurvePlot* rg = view.registersPlot();
  ASSERT_EQ(rg->graphCount(), 2);
  const auto rg_curve = rg->graphPoints(0);
  ASSERT_EQ(rg_curve.size(), 255);
  EXPECT_DOUBLE_EQ(yAt(rg_curve, 32), 64.0);
  EXPECT_DOUBLE_EQ(yAt(rg_curve, 64), 32.0);
  EXPECT_DOUBLE_EQ(yAt(rg_curve, 128), 16.0);
  EXPECT_DOUBLE_EQ(yAt(rg_curve, 255), 8.0);
  EXPECT_EQ(rg->markerPosition(), QPointF(64, 32));

  // Shared-memory curve, plotted in KB: 0 … 232448 B in 128 B steps = 1817 points. 64 KB → 65536 +
  // 1024 reserved = 66560 B per block; 233472 / 66560 = 3 blocks = 24 warps. At 0 B registers
  // limit: 32 warps.
  OccupancyCurvePlot* sm = view.sharedMemoryPlot();
  ASSERT_EQ(sm->graphCount(), 2);
  const auto sm_curve = sm->graphPoints(0);
  ASSERT_EQ(sm_curve.size(), 1817);
  EXPECT_DOUBLE_EQ(sm_curve.back().x(), 232448.0 / 1024.0);
  EXPECT_DOUBLE_EQ(yAt(sm_curve, 0.0), 32.0);
  EXPECT_DOUBLE_EQ(yAt(sm_curve, 64.0), 24.0);
  EXPECT_EQ(sm->markerPosition(), QPointF(0, 32));

  // The shared-memory marker follows the input: 64 KB dynamic → 24 warps, marker at (64 KB, 24).
  view.dynamicSmemSpin()->setValue(65536);
  EXPECT_EQ(view.result().active_warps_per_sm, 24);
  EXPECT_EQ(view.result().limiters, unsigned{kLimitSharedMemory});
  EXPECT_EQ(sm->markerPosition(), QPointF(64, 24));
  EXPECT_EQ(bs->markerPosition(), QPointF(256, 24));
}

TEST(CalculatorView, LimiterRowsAreHighlightedAndDetailsShown) {
  CalculatorView view{testContext()};
  view.registersSpin()->setValue(64);
  view.gridSpin()->setValue(1056);
  QTableWidget* limits = view.limitsTable();
  ASSERT_EQ(limits->rowCount(), 5);  // warps, block slots, registers, shared memory, barriers (CC 9.0)
  EXPECT_TRUE(limits->item(0, 0)->text().startsWith(QStringLiteral("Warps")));
  EXPECT_FALSE(limits->item(0, 0)->font().bold());
  EXPECT_TRUE(limits->item(2, 0)->text().startsWith(QStringLiteral("Registers")));
  EXPECT_TRUE(limits->item(2, 0)->font().bold());
  EXPECT_EQ(limits->item(2, 1)->text(), QStringLiteral("4"));
  EXPECT_EQ(limits->item(3, 1)->text(), QStringLiteral("228"));
  EXPECT_EQ(limits->item(4, 1)->text(), QStringLiteral("64"));  // 64 barriers per SM / 1 per block

  QTableWidget* details = view.detailsTable();
  auto detail = [&](const QString& name) -> QString {
    for (int r = 0; r < details->rowCount(); ++r) {
      if (details->item(r, 0)->text() == name) return details->item(r, 1)->text();
    }
    return {};
  };
  EXPECT_EQ(detail(QStringLiteral("Active warps per SM")), QStringLiteral("32 of 64"));
  EXPECT_EQ(detail(QStringLiteral("Active threads per SM")), QStringLiteral("1024 of 2048"));
  // 4 blocks × 132 SMs = 528 at once; a grid of 1056 blocks = 2.00 waves.
  EXPECT_EQ(detail(QStringLiteral("Max active blocks on the GPU")), QStringLiteral("528 (4 × 132 SMs)"));
  EXPECT_EQ(detail(QStringLiteral("Waves")), QStringLiteral("2.00 (grid of 1056 blocks)"));
}

TEST(CalculatorView, DerivationIsANumberedListOfTheSteps) {
  CalculatorView view{testContext()};
  view.registersSpin()->setValue(64);
  const QTextDocument* doc = view.derivationBrowser()->document();
  const QString text = doc->toPlainText();
  EXPECT_TRUE(text.contains(QStringLiteral("64 registers × 32 threads = 2048 per warp"))) << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("H100 SXM5 (CC 9.0, 132 SMs)")));
  int list_items = 0;
  const QTextList* list = nullptr;
  for (QTextBlock b = doc->begin(); b.isValid(); b = b.next()) {
    if (b.textList() != nullptr) {
      ++list_items;
      list = b.textList();
    }
  }
  ASSERT_NE(list, nullptr);
  EXPECT_EQ(list->format().style(), QTextListFormat::ListDecimal);
  EXPECT_EQ(list_items, static_cast<int>(view.result().derivation.size()));
  EXPECT_GE(list_items, 5);  // warps, blocks, registers, shared memory, barriers, result
}

TEST(CalculatorView, SwitchingTheGpuUpdatesRangesAndResult) {
  CalculatorView view{testContext()};
  EXPECT_EQ(view.dynamicSmemSpin()->maximum(), 232448);  // CC 9.0 opt-in maximum
  EXPECT_TRUE(view.barriersSpin()->isEnabled());

  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:Tesla T4")));
  // CC 7.5: 64 KB opt-in, 48 KB static, 1024 threads per block, barriers not counted.
  EXPECT_EQ(view.dynamicSmemSpin()->maximum(), 65536);
  EXPECT_EQ(view.staticSmemSpin()->maximum(), 49152);
  EXPECT_EQ(view.threadsSpin()->maximum(), 1024);
  EXPECT_EQ(view.registersSpin()->maximum(), 255);
  EXPECT_FALSE(view.barriersSpin()->isEnabled());
  EXPECT_TRUE(view.carveoutSpin()->isEnabled());
  // 32 warps per SM / 8 per block = 4 blocks → 32 warps = 100 %, limited by warps alone
  // (registers allow 8, blocks 16, shared memory unused and no reserved bytes before CC 8.0).
  EXPECT_EQ(view.result().active_blocks_per_sm, 4);
  EXPECT_EQ(view.result().active_warps_per_sm, 32);
  EXPECT_EQ(view.result().limiters, unsigned{kLimitWarps});
  EXPECT_EQ(view.blockSizePlot()->markerPosition(), QPointF(256, 32));
  EXPECT_EQ(view.input().sm_count, 40);

  // CC 5.0 has a fixed shared-memory size: no carveout.
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("cc:5.0")));
  EXPECT_FALSE(view.carveoutSpin()->isEnabled());
  EXPECT_EQ(view.dynamicSmemSpin()->maximum(), 49152);
  EXPECT_EQ(view.input().sm_count, 0);

  // A value over the new range is clamped: 200000 B on H100, then CC 8.6 (opt-in 101376 B).
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H100 SXM5")));
  view.dynamicSmemSpin()->setValue(200000);
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("cc:8.6")));
  EXPECT_EQ(view.dynamicSmemSpin()->maximum(), 101376);
  EXPECT_EQ(view.dynamicSmemSpin()->value(), 101376);
  // 101376 + 1024 reserved = 102400 B per block; the 100 KB configuration holds 1 block = 8 warps
  // of 48 → occupancy 1/6, limited by shared memory.
  EXPECT_EQ(view.result().shared_memory_per_block_allocated, 102400);
  EXPECT_EQ(view.result().shared_memory_per_sm_config, 102400);
  EXPECT_EQ(view.result().active_warps_per_sm, 8);
  EXPECT_EQ(view.result().max_warps_per_sm, 48);
  EXPECT_EQ(view.result().limiters, unsigned{kLimitSharedMemory});
  EXPECT_EQ(view.occupancyLabel()->text(), QStringLiteral("16.7 %"));
}

TEST(CalculatorView, CannotLaunchShowsTheInlineMessage) {
  CalculatorView view{testContext()};
  view.threadsSpin()->setValue(1024);
  view.registersSpin()->setValue(72);
  // 72 × 32 = 2304 registers per warp (a multiple of 256) × 32 warps = 73728 > 65536 per block.
  EXPECT_FALSE(view.result().can_launch);
  EXPECT_EQ(view.result().active_warps_per_sm, 0);
  EXPECT_FALSE(view.validationLabel()->isHidden());
  const QString msg = view.validationLabel()->text();
  EXPECT_TRUE(msg.contains(QStringLiteral("Cannot launch"))) << msg.toStdString();
  EXPECT_TRUE(msg.contains(QStringLiteral("73728 registers per block is over the limit of 65536")))
      << msg.toStdString();
  EXPECT_EQ(view.occupancyLabel()->text(), QStringLiteral("Cannot launch"));
  // The registers row is the one that stops the launch: its block limit is 0, marked in red.
  EXPECT_EQ(view.result().limiters, unsigned{kLimitRegisters});
  EXPECT_EQ(view.limitsTable()->item(2, 1)->text(), QStringLiteral("0"));
  EXPECT_TRUE(view.limitsTable()->item(2, 0)->font().bold());
  EXPECT_EQ(view.limitsTable()->item(2, 0)->background().color(), QColor(248, 200, 200));
  EXPECT_FALSE(view.limitsTable()->item(0, 0)->font().bold());
  // Marker at 0 warps, labelled; the curves themselves are still drawn.
  EXPECT_EQ(view.blockSizePlot()->markerPosition(), QPointF(1024, 0));
  EXPECT_TRUE(view.blockSizePlot()->graphName(1).contains(QStringLiteral("cannot launch")));
  EXPECT_EQ(view.registersPlot()->graphPoints(0).size(), 255);
  // Nothing used in the utilization chart, and no division by zero anywhere.
  for (const auto& u : view.utilizationChart()->rows()) {
    EXPECT_EQ(u.used, 0) << u.resource;
    EXPECT_EQ(u.used + u.unusable + u.remainder, u.capacity) << u.resource;
  }
  for (double v : view.utilizationChart()->seriesPercent(0)) EXPECT_DOUBLE_EQ(v, 0.0);

  // Back to 64 registers: 2048 × 32 = 65536 fits; the message goes away.
  view.registersSpin()->setValue(64);
  EXPECT_TRUE(view.result().can_launch);
  EXPECT_TRUE(view.validationLabel()->isHidden());

  // Static 48 KB + dynamic 227 KB is over the 227 KB opt-in maximum.
  view.staticSmemSpin()->setValue(49152);
  view.dynamicSmemSpin()->setValue(232448);
  EXPECT_FALSE(view.result().can_launch);
  EXPECT_TRUE(view.validationLabel()->text().contains(QStringLiteral("opt-in maximum of 232448 B")))
      << view.validationLabel()->text().toStdString();
}

TEST(CalculatorView, UtilizationSplitsEachResource) {
  CalculatorView view{testContext()};
  view.registersSpin()->setValue(64);
  // 4 active blocks of 8 warps, 16384 registers, 1024 B shared memory, 1 barrier each.
  const auto& rows = view.utilizationChart()->rows();
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[0].resource, "Warps");  // 64 warps: 32 used; warps alone allow 8 blocks → 32 unusable
  EXPECT_EQ(rows[0].used, 32);
  EXPECT_EQ(rows[0].unusable, 32);
  EXPECT_EQ(rows[0].remainder, 0);
  EXPECT_FALSE(rows[0].limiter);
  EXPECT_EQ(rows[1].resource, "Registers");  // 4 × 16384 = 65536: all used
  EXPECT_EQ(rows[1].used, 65536);
  EXPECT_EQ(rows[1].unusable, 0);
  EXPECT_TRUE(rows[1].limiter);
  EXPECT_EQ(rows[2].resource, "Shared memory");  // 233472 B: 4 KB used, 224 more blocks' worth idle
  EXPECT_EQ(rows[2].capacity, 233472);
  EXPECT_EQ(rows[2].used, 4096);
  EXPECT_EQ(rows[2].unusable, 224 * 1024);
  EXPECT_EQ(rows[2].remainder, 0);
  EXPECT_EQ(rows[3].resource, "Block slots");  // 32 slots: 4 used, 28 idle
  EXPECT_EQ(rows[3].used, 4);
  EXPECT_EQ(rows[3].unusable, 28);
  EXPECT_EQ(rows[4].resource, "Barriers");  // 64 per SM: 4 used, 60 idle
  EXPECT_EQ(rows[4].used, 4);
  EXPECT_EQ(rows[4].unusable, 60);

  const QVector<double> used = view.utilizationChart()->seriesPercent(0);
  ASSERT_EQ(used.size(), 5);
  EXPECT_DOUBLE_EQ(used[0], 50.0);
  EXPECT_DOUBLE_EQ(used[1], 100.0);
  EXPECT_DOUBLE_EQ(used[2], 100.0 * 4096.0 / 233472.0);
  EXPECT_DOUBLE_EQ(used[3], 12.5);
  EXPECT_DOUBLE_EQ(used[4], 6.25);
  const QVector<double> unusable = view.utilizationChart()->seriesPercent(1);
  EXPECT_DOUBLE_EQ(unusable[0], 50.0);
  EXPECT_DOUBLE_EQ(unusable[3], 87.5);
  const QStringList labels = view.utilizationChart()->rowLabels();
  ASSERT_EQ(labels.size(), 5);
  EXPECT_TRUE(labels[1].startsWith(QStringLiteral("Registers (limiter)"))) << labels[1].toStdString();
  EXPECT_FALSE(labels[0].contains(QStringLiteral("limiter")));
}

TEST(CalculatorView, TooltipsDescribeThePointUnderTheMouse) {
  CalculatorView view{testContext()};
  const QString tip = view.blockSizePlot()->toolTipAt(250.0, 10.0);  // nearest sample: 256 threads
  EXPECT_TRUE(tip.contains(QStringLiteral("256 threads per block (8 warps)"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("Active warps per SM: 64 of 64 (100.0 %)"))) << tip.toStdString();
  EXPECT_TRUE(tip.contains(QStringLiteral("current configuration")));
  const QString reg_tip = view.registersPlot()->toolTipAt(128.3, 0.0);
  EXPECT_TRUE(reg_tip.contains(QStringLiteral("128 registers per thread"))) << reg_tip.toStdString();
  EXPECT_TRUE(reg_tip.contains(QStringLiteral("16 of 64 (25.0 %)"))) << reg_tip.toStdString();
  EXPECT_TRUE(reg_tip.contains(QStringLiteral("Limited by: registers")));
  const QString smem_tip = view.sharedMemoryPlot()->toolTipAt(64.0, 0.0);
  EXPECT_TRUE(smem_tip.contains(QStringLiteral("64 KB (65536 B) shared memory per block"))) << smem_tip.toStdString();
  // Utilization: row keys count from the bottom; key 4 of 5 is the registers row.
  const QString util_tip = view.utilizationChart()->toolTipAt(50.0, 4.0);
  EXPECT_TRUE(util_tip.startsWith(QStringLiteral("Registers per SM: 65536 registers"))) << util_tip.toStdString();
  EXPECT_TRUE(view.utilizationChart()->toolTipAt(50.0, 4.5).isEmpty());  // between rows
}

TEST(CalculatorView, HoveringAPlotShowsItsTooltip) {
  CalculatorView view{testContext()};
  view.registersSpin()->setValue(64);
  view.resize(1500, 900);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  QCustomPlot* p = view.registersPlot()->plot();
  p->replot();
  // The mouse over (128 registers, 16 warps) on the registers plot.
  const QPoint pos(static_cast<int>(p->xAxis->coordToPixel(128)), static_cast<int>(p->yAxis->coordToPixel(16)));
  QTest::mouseMove(p, pos);
  QApplication::processEvents();
  ASSERT_TRUE(QToolTip::isVisible());
  EXPECT_TRUE(QToolTip::text().startsWith(QStringLiteral("128 registers per thread")))
      << QToolTip::text().toStdString();
  EXPECT_TRUE(QToolTip::text().contains(QStringLiteral("Active warps per SM: 16 of 64 (25.0 %)")));
  // Outside the axes the tooltip goes (Qt hides it after a short delay).
  QTest::mouseMove(p, QPoint(2, 2));
  for (int i = 0; i < 100 && QToolTip::isVisible(); ++i) QTest::qWait(20);
  EXPECT_FALSE(QToolTip::isVisible());
}

TEST(CalculatorView, CsvExportsRoundTripThroughParseCsv) {
  CalculatorView view{testContext()};
  view.registersSpin()->setValue(64);
  const auto exports = view.csvExports();
  ASSERT_EQ(exports.size(), 4u);  // result, curves, block barriers, cluster size
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());

  const QString result_path = dir.filePath(exports[0].suggested_name);
  auto written = writeCsvFile(exports[0].table, result_path);
  ASSERT_TRUE(written) << written.error();
  auto text = readFile(QFile::encodeName(result_path).toStdString());
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(*written, text->size());
  auto table = parseCsv(*text);
  ASSERT_TRUE(table) << table.error();
  EXPECT_EQ(table->metaValue("target"), "H100 SXM5 (CC 9.0, 132 SMs)");
  EXPECT_EQ(table->metaValue("compute_capability"), "9.0");
  EXPECT_EQ(csvValue(*table, "registers_per_thread"), "64");
  EXPECT_EQ(csvValue(*table, "active_blocks_per_sm"), "4");
  EXPECT_EQ(csvValue(*table, "active_warps_per_sm"), "32");
  EXPECT_EQ(csvValue(*table, "theoretical_occupancy_pct"), "50.00");
  EXPECT_EQ(csvValue(*table, "limited_by"), "registers");
  EXPECT_EQ(csvValue(*table, "max_active_blocks_gpu"), "528");

  const QString curves_path = dir.filePath(exports[1].suggested_name);
  written = writeCsvFile(exports[1].table, curves_path);
  ASSERT_TRUE(written) << written.error();
  text = readFile(QFile::encodeName(curves_path).toStdString());
  ASSERT_TRUE(text);
  auto curves = parseCsv(*text);
  ASSERT_TRUE(curves) << curves.error();
  EXPECT_EQ(curves->rows.size(), 32u + 255u + 1817u);
  EXPECT_EQ(curves->metaValue("registers_per_thread"), "64");
  EXPECT_EQ(curveCell(*curves, "block_size_threads", "96", "active_warps_per_sm"), "30");
  EXPECT_EQ(curveCell(*curves, "registers_per_thread", "128", "active_warps_per_sm"), "16");
  EXPECT_EQ(curveCell(*curves, "shared_memory_per_block_bytes", "65536", "active_warps_per_sm"), "24");
  EXPECT_EQ(curveCell(*curves, "shared_memory_per_block_bytes", "65536", "limited_by"), "shared memory");

  // A folder that does not exist: an error naming the path, no crash, no file.
  const QString bad = dir.filePath(QStringLiteral("missing/sub/result.csv"));
  auto failed = writeCsvFile(exports[0].table, bad);
  ASSERT_FALSE(failed);
  EXPECT_NE(failed.error().find("missing/sub/result.csv"), std::string::npos) << failed.error();
  EXPECT_FALSE(QFile::exists(bad));
}

// Exported plots say what they show: the GPU and the launch configuration under the title, and the
// PNG has a size of its own (900 × 560 at 2×, taller by the subtitle), not the size shown.
TEST(CalculatorView, ExportedPlotsNameTheGpuAndTheConfiguration) {
  CalculatorView view{testContext()};
  const auto plots = view.plotExports();
  ASSERT_EQ(plots.size(), 6u);
  for (const PlotController* p : plots) {
    EXPECT_EQ(p->exportSubtitle(),
              QStringLiteral("H100 SXM5 (CC 9.0, 132 SMs) · 256 threads, 32 registers, 0 B shared"))
        << p->title().toStdString();
  }
  view.registersSpin()->setValue(64);
  view.staticSmemSpin()->setValue(4096);
  view.dynamicSmemSpin()->setValue(8192);
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("cc:8.6")));
  for (const PlotController* p : plots) {
    EXPECT_EQ(p->exportSubtitle(), QStringLiteral("CC 8.6 (Ampere) · 256 threads, 64 registers, 12288 B shared"))
        << p->title().toStdString();
  }

  view.resize(1280, 720);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  int exported = 0;
  for (int page = 0; page < view.plotTabs()->count(); ++page) {
    view.plotTabs()->setCurrentIndex(page);
    QApplication::processEvents();
    for (std::size_t i = 0; i < plots.size(); ++i) {
      if (!plots[i]->widget()->isVisible()) continue;  // on the other page
      const QString path = dir.filePath(QStringLiteral("plot%1.png").arg(i));
      ASSERT_TRUE(plots[i]->exportPng(path));
      const QImage image(path);
      EXPECT_EQ(image.width(), 1800) << plots[i]->title().toStdString();
      EXPECT_GT(image.height(), 1120) << plots[i]->title().toStdString();  // the subtitle's line on top
      EXPECT_LT(image.height(), 1220) << plots[i]->title().toStdString();
      ++exported;
    }
  }
  EXPECT_EQ(exported, 6);
}

TEST(CalculatorView, SettingsRoundTrip) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings settings(dir.filePath(QStringLiteral("calc.ini")), QSettings::IniFormat);
  {
    CalculatorView view{testContext()};
    ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:A100 SXM4 80GB")));
    view.threadsSpin()->setValue(128);
    view.registersSpin()->setValue(40);
    view.staticSmemSpin()->setValue(4096);
    view.dynamicSmemSpin()->setValue(8192);
    view.carveoutSpin()->setValue(50);
    view.gridSpin()->setValue(1000);
    view.saveSettings(settings);
  }
  CalculatorView restored{testContext()};
  restored.restoreSettings(settings);
  EXPECT_EQ(restored.deviceSelector()->currentKey(), QStringLiteral("gpu:A100 SXM4 80GB"));
  EXPECT_EQ(restored.threadsSpin()->value(), 128);
  EXPECT_EQ(restored.registersSpin()->value(), 40);
  EXPECT_EQ(restored.staticSmemSpin()->value(), 4096);
  EXPECT_EQ(restored.dynamicSmemSpin()->value(), 8192);
  EXPECT_EQ(restored.carveoutSpin()->value(), 50);
  EXPECT_EQ(restored.gridSpin()->value(), 1000);
  EXPECT_EQ(restored.input().registers_per_thread, 40);
  EXPECT_EQ(restored.input().sm_count, 108);

  // Values out of range (a hand-edited file) are clamped by the spin boxes; nothing crashes.
  settings.setValue(QStringLiteral("threadsPerBlock"), 5000);
  settings.setValue(QStringLiteral("device"), QStringLiteral("gpu:No Such GPU"));
  CalculatorView clamped{testContext()};
  clamped.restoreSettings(settings);
  EXPECT_EQ(clamped.deviceSelector()->currentKey(), QStringLiteral("gpu:H100 SXM5"));
  EXPECT_EQ(clamped.threadsSpin()->value(), 1024);
}

// Clusters on the H200 (the GPU data's GPC layout, fitted to its driver): 256 threads, 32 registers
// → 8 blocks per SM; size 4 → 2 × 36 + 5 × 32 + 16 = 248 clusters (the driver's answer), 992 of
// 1056 blocks. Best block size for 32 registers: 1024 threads already fill the SM (2 blocks).
TEST(CalculatorView, ClustersAndBestBlockSizeOnTheH200) {
  CalculatorView view{testContext()};
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  EXPECT_EQ(view.clusterSizeSpin()->maximum(), 8);
  view.clusterSizeSpin()->setValue(4);
  ASSERT_TRUE(view.clusters().has_value()) << view.clustersUnavailable().toStdString();
  EXPECT_TRUE(view.clusters()->layout_known);
  EXPECT_EQ(view.clusters()->max_active_clusters, 248);
  EXPECT_EQ(view.clusters()->active_blocks_in_clusters, 992);
  EXPECT_EQ(view.clusters()->max_potential_cluster_size, 8);
  EXPECT_EQ(view.clustersTable()->item(0, 1)->text(), QStringLiteral("248"));
  EXPECT_EQ(view.clustersTable()->item(2, 1)->text(), QStringLiteral("93.9 %"));
  EXPECT_EQ(view.bestBlockSize().block_size, 1024);
  EXPECT_EQ(view.bestBlockSize().min_grid_size, 264);
  ASSERT_EQ(view.clusterCurve().size(), 8u);
  EXPECT_EQ(view.clusterCurve()[2].max_active_clusters, 327);
  EXPECT_EQ(view.clusterSizePlot()->points().size(), 8u);
  EXPECT_NE(view.reportText().indexOf(QStringLiteral("GPCs of 2 × 18, 5 × 16, 8, 4 × 2 SMs")), -1);

  view.nonPortableCheck()->setChecked(true);
  EXPECT_EQ(view.clusterSizeSpin()->maximum(), 16);
  view.clusterSizeSpin()->setValue(16);
  EXPECT_EQ(view.clusters()->max_active_clusters, 58);
  EXPECT_EQ(view.clusters()->max_potential_cluster_size, 16);
  ASSERT_EQ(view.clusterCurve().size(), 16u);

  // The result CSV carries the cluster and best-block-size rows.
  const auto exports = view.csvExports();
  ASSERT_EQ(exports.size(), 4u);
  EXPECT_EQ(csvValue(exports[0].table, "max_active_clusters"), "58");
  EXPECT_EQ(csvValue(exports[0].table, "best_block_size_threads"), "1024");
  EXPECT_EQ(exports[3].table.rows.size(), 16u);
  EXPECT_EQ(exports[3].table.rows[15][1], "58");
}

TEST(CalculatorView, ClustersNeedCc90AndAGpu) {
  CalculatorView view{testContext()};
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("cc:8.6")));
  EXPECT_FALSE(view.clusterSizeSpin()->isEnabled());
  EXPECT_FALSE(view.clusters().has_value());
  EXPECT_EQ(view.clustersUnavailable(), QStringLiteral("CC 8.6 has no thread-block clusters (CC 9.0 and later)"));
  EXPECT_TRUE(view.clusterCurve().empty());
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("cc:9.0")));
  view.clusterSizeSpin()->setValue(2);
  EXPECT_FALSE(view.clusters().has_value());
  EXPECT_EQ(view.clustersUnavailable(), QStringLiteral("clusters need a GPU's SM count: pick a GPU"));
  // H100 SXM5: no GPC layout recorded, so the naive upper bound, said so.
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H100 SXM5")));
  view.clusterSizeSpin()->setValue(3);
  ASSERT_TRUE(view.clusters().has_value());
  EXPECT_FALSE(view.clusters()->layout_known);
  EXPECT_EQ(view.clusters()->max_active_clusters, 352);
  EXPECT_NE(view.clustersTable()->item(0, 0)->text().indexOf(QStringLiteral("upper bound")), -1);
}

// The y-axis toggle: every curve in percent of the SM's warps, the cluster plot in cluster occupancy.
TEST(CalculatorView, YAxisTogglesBetweenWarpsAndPercent) {
  CalculatorView view{testContext()};
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  view.clusterSizeSpin()->setValue(3);
  view.registersSpin()->setValue(64);  // 64 × 32 = 2048 per warp → 32 warps → 4 blocks of 8 warps: 50 %
  auto* blockPlot = view.blockSizePlot()->plot();
  EXPECT_EQ(blockPlot->yAxis->label(), QStringLiteral("Active warps per SM"));
  EXPECT_DOUBLE_EQ(view.blockSizePlot()->markerPosition().y(), 32.0);
  view.yMeasureCombo()->setCurrentIndex(1);
  EXPECT_EQ(blockPlot->yAxis->label(), QStringLiteral("Theoretical occupancy (%)"));
  EXPECT_FALSE(blockPlot->yAxis2->visible());
  EXPECT_DOUBLE_EQ(view.blockSizePlot()->markerPosition().y(), 50.0);
  EXPECT_EQ(view.barriersPlot()->plot()->yAxis->label(), QStringLiteral("Theoretical occupancy (%)"));
  EXPECT_EQ(view.clusterSizePlot()->plot()->yAxis->label(), QStringLiteral("Cluster occupancy (%)"));
  // 4 blocks per SM, size 3: 2 × floor(72/3) + 5 × floor(64/3) + floor(32/3) = 48 + 105 + 10 = 163
  // clusters, 489 of 528 blocks = 92.6 %.
  const auto* g = view.clusterSizePlot()->plot()->graph(0);
  ASSERT_GE(g->dataCount(), 3);
  EXPECT_NEAR(g->data()->at(2)->value, 100.0 * 489 / 528, 1e-9);
  view.yMeasureCombo()->setCurrentIndex(0);
  EXPECT_EQ(blockPlot->yAxis->label(), QStringLiteral("Active warps per SM"));
  EXPECT_DOUBLE_EQ(g->data()->at(2)->value, 163.0);
}

// Barriers from CC 9.0: 64 per SM; 8 blocks of 256 threads until 64 / b < 8 (9 barriers → 7).
TEST(CalculatorView, BlockBarriersPlot) {
  CalculatorView view{testContext()};
  const auto& pts = view.barriersCurve();
  ASSERT_EQ(pts.size(), 17u);
  EXPECT_EQ(pts[9].active_blocks_per_sm, 7);
  EXPECT_EQ(view.barriersPlot()->points().size(), 17u);
  EXPECT_EQ(view.barriersPlot()->title(), QStringLiteral("Impact of varying block barriers"));
  EXPECT_DOUBLE_EQ(view.barriersPlot()->markerPosition().x(), 1.0);
}

// The driver's answer stands beside the model's (here handed in as a detected GPU would give it);
// a change of input drops it.
TEST(CalculatorView, DriverAnswerShownBesideTheModel) {
  CalculatorView view{testContext()};
  ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  view.nonPortableCheck()->setChecked(true);
  view.clusterSizeSpin()->setValue(16);
  EXPECT_FALSE(view.askDriverButton()->isEnabled());  // the offline backend: no driver, no detected GPU
  EXPECT_EQ(view.driverStatusLabel()->text(),
            QStringLiteral("No driver here: ") + QString::fromStdString(offlineBackend()->liveAvailability().reason));
  DriverOccupancy d;
  d.device_name = "NVIDIA H200";
  d.cc = {9, 0};
  d.sm_count = 132;
  d.probe_registers = 32;
  d.active_blocks_per_sm = 8;
  d.max_active_clusters = 58;
  d.max_potential_cluster_size_portable = 8;
  d.max_potential_cluster_size_nonportable = 16;
  d.best_block_size = 1024;
  d.best_min_grid_size = 264;
  d.max_active_clusters_by_size = {1056, 528, 327, 248, 193, 163, 139, 124, 102, 88, 81, 74, 67, 65, 58, 58};
  d.note = "the probe uses 1 block barrier and no static shared memory";
  view.showDriverAnswer(d);
  EXPECT_EQ(view.clustersTable()->item(0, 2)->text(), QStringLiteral("58"));
  EXPECT_EQ(view.clustersTable()->item(3, 2)->text(), QStringLiteral("16"));
  EXPECT_EQ(view.clustersTable()->item(4, 2)->text(), QStringLiteral("1024"));
  EXPECT_EQ(view.clusterSizePlot()->plot()->graph(2)->dataCount(), 16);
  EXPECT_NE(view.driverStatusLabel()->text().indexOf(QStringLiteral("NVIDIA H200")), -1);
  view.registersSpin()->setValue(40);
  EXPECT_FALSE(view.driverAnswer().has_value());
  EXPECT_EQ(view.clusterSizePlot()->plot()->graph(2)->dataCount(), 0);
}

TEST(CalculatorView, ClusterSettingsRoundTrip) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  QSettings settings(dir.filePath(QStringLiteral("clusters.ini")), QSettings::IniFormat);
  {
    CalculatorView view{testContext()};
    ASSERT_TRUE(view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
    view.nonPortableCheck()->setChecked(true);
    view.clusterSizeSpin()->setValue(12);
    view.yMeasureCombo()->setCurrentIndex(1);
    view.saveSettings(settings);
  }
  CalculatorView restored{testContext()};
  restored.restoreSettings(settings);
  EXPECT_TRUE(restored.nonPortableCheck()->isChecked());
  EXPECT_EQ(restored.clusterSizeSpin()->value(), 12);
  EXPECT_EQ(restored.yMeasureCombo()->currentIndex(), 1);
  ASSERT_TRUE(restored.clusters().has_value());
  EXPECT_EQ(restored.clusters()->max_active_clusters, 74);  // 2 × floor(144 / 12) + 5 × floor(128 / 12)
}

}  // namespace
}  // namespace occx::ui
