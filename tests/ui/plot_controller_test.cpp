// Plot controllers off-screen: styling (title, axis labels, legend), data, and atomic PNG/PDF export.
#include <gtest/gtest.h>

#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>
#include <QWidget>
#include <cmath>

#include "qcustomplot.h"
#include "ui/models/utilization.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/plots/rblock_bounds_plot.h"
#include "ui/plots/sweep_series_plot.h"

namespace occx::ui {
namespace {

TEST(OccupancyCurvePlot, TitleAxisLabelsLegendAndRanges) {
  QWidget parent;
  OccupancyCurvePlot plot(CurveKind::SharedMemory, &parent);
  QCustomPlot* p = plot.plot();
  EXPECT_EQ(plot.title(), QStringLiteral("Impact of varying shared memory per block"));
  EXPECT_EQ(p->xAxis->label(), QStringLiteral("Shared memory per block (KB, static + dynamic)"));
  EXPECT_EQ(p->yAxis->label(), QStringLiteral("Active warps per SM"));
  EXPECT_EQ(p->yAxis2->label(), QStringLiteral("Theoretical occupancy (%)"));
  EXPECT_TRUE(p->legend->visible());
  EXPECT_EQ(p->legend->itemCount(), 2);

  const std::vector<CurvePoint> pts = {
      {0, 8, 64, 1.0, kLimitWarps}, {1024, 4, 32, 0.5, kLimitSharedMemory}, {2048, 0, 0, 0.0, 0}};
  plot.setData(pts, 64, 1024, 32, true);
  EXPECT_EQ(plot.graphPoints(0), (QVector<QPointF>{{0, 64}, {1, 32}, {2, 0}}));  // KB on the axis
  EXPECT_EQ(plot.markerPosition(), QPointF(1, 32));
  EXPECT_DOUBLE_EQ(p->yAxis->range().upper, 64 * 1.1);
  EXPECT_DOUBLE_EQ(p->yAxis2->range().upper, 110.0);  // same scale as occupancy in percent
  EXPECT_EQ(plot.graphName(1), QStringLiteral("Current: 1 KB → 32 warps"));
  EXPECT_TRUE(plot.toolTipAt(2.1, 0).contains(QStringLiteral("Cannot launch")));
  EXPECT_TRUE(plot.graphPoints(7).isEmpty());
}

TEST(PlotController, WarpCountsAreSingularForOne) {
  EXPECT_EQ(warpCountText(1), QStringLiteral("1 warp"));
  EXPECT_EQ(warpCountText(2), QStringLiteral("2 warps"));
  EXPECT_EQ(warpCountText(32), QStringLiteral("32 warps"));
}

TEST(RblockBoundsPlot, BlocksPerSmTickAtWholeNumbers) {
  QWidget parent;
  RblockBoundsPlot plot(&parent);
  QCustomPlot* p = plot.plot();
  p->resize(600, 400);
  for (double hi : {1.2, 3.0, 5.5, 12.0, 33.0}) {
    p->yAxis->setRange(0, hi);
    p->replot(QCustomPlot::rpImmediateRefresh);
    const QVector<double> ticks = p->yAxis->tickVector();
    EXPECT_GE(ticks.size(), 2) << hi;
    for (double t : ticks) EXPECT_EQ(t, std::round(t)) << "range 0 … " << hi;
    for (const QString& label : p->yAxis->tickVectorLabels())
      EXPECT_FALSE(label.contains(QLatin1Char('.'))) << label.toStdString();
  }
}

// SweepSeriesPlot::show draws plain plot data: series, then reference lines, then markers, with the
// title and the notes; showing other data replaces everything.
TEST(SweepSeriesPlot, ShowDrawsPlotDataInOrder) {
  QWidget host;  // owns the plot's widget, as a view does
  SweepSeriesPlot plot(QStringLiteral("Registers"), QStringLiteral("testPlot"), &host);
  SweepPlotData data;
  data.title = QStringLiteral("Registers (XBLOCK = 1)");
  SweepSeriesData w8 = sweepSeries(QStringLiteral("8 warps"), 8);
  w8.x = {1024, 512};
  w8.y = {38, 32};
  w8.rows = {1, 0};
  data.series.push_back(w8);
  SweepSeriesData bars = sweepSeries(QStringLiteral("16 warps"), 16, /*dashed=*/true);
  bars.x = {512};
  bars.y = {29};
  bars.rows = {2};
  bars.minus = {1};
  bars.plus = {2};
  data.series.push_back(bars);
  data.lines.push_back({255, QStringLiteral("255-register cap"), QColor(214, 39, 40), Qt::DashLine});
  data.markers.push_back(
      {QStringLiteral("selected"), {512}, {32}, {0}, MarkerShape::kDiamond, QColor(0, 0, 0), 11, false});
  data.y_hi = 280;
  data.corner_note = QStringLiteral("corner");
  plot.show(data);
  ASSERT_EQ(plot.graphCount(), 4);
  EXPECT_EQ(plot.graphName(0), QStringLiteral("8 warps"));
  EXPECT_EQ(plot.graphPoints(0), (QVector<QPointF>{{512, 32}, {1024, 38}}));  // sorted by x, rows with them
  EXPECT_EQ(plot.graphRows(0), (QVector<int>{0, 1}));
  EXPECT_EQ(plot.graphName(2), QStringLiteral("255-register cap"));
  EXPECT_EQ(plot.graphName(3), QStringLiteral("selected"));
  EXPECT_EQ(plot.errorBarCount(), 1);
  EXPECT_EQ(plot.title(), QStringLiteral("Registers (XBLOCK = 1)"));
  EXPECT_EQ(plot.cornerNote(), QStringLiteral("corner"));
  EXPECT_TRUE(plot.note().isEmpty());

  SweepPlotData empty;
  empty.note = QStringLiteral("No data");
  plot.show(empty);
  EXPECT_EQ(plot.graphCount(), 0);
  EXPECT_EQ(plot.errorBarCount(), 0);
  EXPECT_EQ(plot.title(), QStringLiteral("Registers (XBLOCK = 1)"));  // an empty title keeps the shown one
  EXPECT_EQ(plot.note(), QStringLiteral("No data"));
  EXPECT_TRUE(plot.cornerNote().isEmpty());
}

TEST(PlotController, ExportsPngAndPdfAtomically) {
  QWidget parent;
  OccupancyCurvePlot plot(CurveKind::BlockSize, &parent);
  plot.setData({{32, 32, 32, 0.5, kLimitBlocks}, {64, 32, 64, 1.0, kLimitWarps}}, 64, 64, 64, true);
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());

  const QString png = dir.filePath(QStringLiteral("curve.png"));
  auto written = plot.exportImage(png, 640, 400);
  ASSERT_TRUE(written) << written.error();
  QImage image(png);
  ASSERT_FALSE(image.isNull());
  EXPECT_EQ(image.size(), QSize(640, 400));
  EXPECT_EQ(static_cast<qint64>(*written), QFile(png).size());

  const QString pdf = dir.filePath(QStringLiteral("curve.pdf"));
  written = plot.exportImage(pdf, 640, 400);
  ASSERT_TRUE(written) << written.error();
  QFile f(pdf);
  ASSERT_TRUE(f.open(QIODevice::ReadOnly));
  EXPECT_TRUE(f.read(5) == QByteArray("%PDF-"));
  EXPECT_GT(f.size(), 1000);
  f.close();

  // Overwriting replaces the file whole; no temporary file is left beside it.
  written = plot.exportPng(png, 320, 200);
  ASSERT_TRUE(written);
  EXPECT_EQ(QImage(png).size(), QSize(320, 200));
  EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).size(), 2);

  // Errors are values: an unknown suffix, a folder that does not exist.
  auto bad_suffix = plot.exportImage(dir.filePath(QStringLiteral("curve.svg")));
  ASSERT_FALSE(bad_suffix);
  EXPECT_NE(bad_suffix.error().find(".png or .pdf"), std::string::npos);
  const QString missing = dir.filePath(QStringLiteral("no/such/folder/curve.png"));
  auto bad_dir = plot.exportPng(missing);
  ASSERT_FALSE(bad_dir);
  EXPECT_NE(bad_dir.error().find("no/such/folder/curve.png"), std::string::npos) << bad_dir.error();
  EXPECT_FALSE(QFile::exists(missing));
}

// A PNG export of the shown plot is twice its size (laid out as shown, drawn finer), and carries
// the export subtitle under the title; the plot on screen keeps its layout.
TEST(PlotController, PngExportIsTwiceTheShownSizeWithTheSubtitle) {
  QWidget parent;
  auto* layout = new QVBoxLayout(&parent);
  OccupancyCurvePlot plot(CurveKind::Registers, &parent);
  layout->addWidget(plot.widget());
  plot.setData({{32, 64, 64, 1.0, kLimitWarps}, {64, 32, 32, 0.5, kLimitRegisters}}, 64, 32, 64, true);
  parent.resize(553, 331);
  parent.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&parent));
  const QSize shown = plot.widget()->size();
  ASSERT_GT(shown.width(), 200);
  EXPECT_DOUBLE_EQ(plot.exportScale(), 2.0);
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());

  const QString plain = dir.filePath(QStringLiteral("plain.png"));
  ASSERT_TRUE(plot.exportPng(plain));
  const QImage without(plain);
  EXPECT_EQ(without.size(), shown * 2);
  EXPECT_NEAR(without.dotsPerMeterX(), 96.0 * 2 / 0.0254, 1.0);

  const QString subtitle = QStringLiteral("H100 SXM5 (CC 9.0, 132 SMs) · 256 threads, 32 registers, 0 B shared");
  plot.setExportSubtitle(subtitle);
  EXPECT_EQ(plot.exportSubtitle(), subtitle);
  const QString titled = dir.filePath(QStringLiteral("titled.png"));
  ASSERT_TRUE(plot.exportImage(titled));
  const QImage with(titled);
  EXPECT_EQ(with.size(), shown * 2);
  // The subtitle's row pushes the axes down: the images differ, in the rows under the title.
  EXPECT_NE(with, without);
  // The shown plot is as before: title, axes, legend; no subtitle left behind.
  EXPECT_EQ(plot.plot()->plotLayout()->rowCount(), 3);
  EXPECT_EQ(plot.plot()->findChild<QCPTextElement*>(QStringLiteral("exportSubtitle")), nullptr);
  EXPECT_EQ(plot.title(), QStringLiteral("Impact of varying register count per thread"));

  // A chosen scale; an explicit size is that many pixels.
  plot.setExportScale(3);
  ASSERT_TRUE(plot.exportPng(plain));
  EXPECT_EQ(QImage(plain).size(), shown * 3);
  ASSERT_TRUE(plot.exportPng(plain, 640, 400));
  EXPECT_EQ(QImage(plain).size(), QSize(640, 400));
  // Hidden: laid out at 900 × 560, twice that in pixels.
  parent.hide();
  plot.setExportScale(2);
  ASSERT_TRUE(plot.exportPng(plain));
  EXPECT_EQ(QImage(plain).size(), QSize(1800, 1120));
}

TEST(Utilization, RemainderWhenLessThanABlockFits) {
  const ArchLimits* h100 = GpuDatabase::builtin().findArch({9, 0});
  ASSERT_NE(h100, nullptr);
  OccupancyInput in;
  in.threads_per_block = 256;
  in.registers_per_thread = 40;
  auto r = computeOccupancy(*h100, in, false);
  ASSERT_TRUE(r);
  // 40 × 32 = 1280 per warp; 16384 / 1280 = 12 warps per sub-partition = 48 warps = 6 blocks of
  // 8 warps; 6 × 10240 = 61440 registers used, 4096 left over (less than a block).
  ASSERT_EQ(r->active_blocks_per_sm, 6);
  const auto rows = computeUtilization(*h100, in, *r);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[1].per_block, 10240);
  EXPECT_EQ(rows[1].used, 61440);
  EXPECT_EQ(rows[1].unusable, 0);
  EXPECT_EQ(rows[1].remainder, 4096);
  EXPECT_TRUE(rows[1].limiter);
  // Warps: 48 of 64 used; warps alone allow 8 blocks → 16 unusable.
  EXPECT_EQ(rows[0].used, 48);
  EXPECT_EQ(rows[0].unusable, 16);
  EXPECT_EQ(rows[0].remainder, 0);

  // 0 registers: registers do not limit and are not needed — all left over, nothing divided by 0.
  in.registers_per_thread = 0;
  r = computeOccupancy(*h100, in, false);
  ASSERT_TRUE(r);
  const auto zero = computeUtilization(*h100, in, *r);
  EXPECT_EQ(zero[1].used, 0);
  EXPECT_EQ(zero[1].remainder, 65536);

  // No barriers (or CC < 9.0): no barrier row.
  in.block_barriers = 0;
  r = computeOccupancy(*h100, in, false);
  EXPECT_EQ(computeUtilization(*h100, in, *r).size(), 4u);
}

}  // namespace
}  // namespace occx::ui
