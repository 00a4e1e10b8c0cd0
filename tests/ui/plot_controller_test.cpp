// Plot controllers off-screen: styling (title, axis labels, legend), data, and atomic PNG/PDF export.
#include <gtest/gtest.h>

#include <QApplication>
#include <QFile>
#include <QFontMetricsF>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "qcustomplot.h"
#include "ui/models/utilization.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/plots/rblock_bounds_plot.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/plots/utilization_chart.h"

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

// A PNG export has a size of its own: 900 × 560 laid out, drawn at 2×, whatever the widget's size
// on screen; the export subtitle's lines make the image taller and leave the axes as they are; the
// plot on screen keeps its layout.
TEST(PlotController, PngExportHasItsOwnSizeAndTheSubtitleAddsToIt) {
  QWidget parent;
  auto* layout = new QVBoxLayout(&parent);
  OccupancyCurvePlot plot(CurveKind::Registers, &parent);
  layout->addWidget(plot.widget());
  plot.setData({{32, 64, 64, 1.0, kLimitWarps}, {64, 32, 32, 0.5, kLimitRegisters}}, 64, 32, 64, true);
  parent.resize(553, 331);
  parent.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&parent));
  ASSERT_GT(plot.widget()->width(), 200);
  EXPECT_DOUBLE_EQ(plot.exportScale(), 2.0);
  EXPECT_EQ(plot.exportSize(), QSize(900, 560));
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());

  // The axes' height as each export lays them out (QCustomPlot says so before it draws).
  int axes_height = 0;
  QObject::connect(plot.plot(), &QCustomPlot::afterLayout, &parent,
                   [&] { axes_height = plot.plot()->axisRect()->height(); });
  const QString plain = dir.filePath(QStringLiteral("plain.png"));
  ASSERT_TRUE(plot.exportPng(plain));
  const QImage without(plain);
  EXPECT_EQ(without.size(), QSize(1800, 1120));
  EXPECT_NEAR(without.dotsPerMeterX(), 96.0 * 2 / 0.0254, 1.0);
  const int plain_axes_height = axes_height;
  ASSERT_GT(plain_axes_height, 300);
  // Another window size: the same export.
  parent.resize(1000, 250);
  QApplication::processEvents();
  ASSERT_TRUE(plot.exportPng(plain));
  EXPECT_EQ(QImage(plain), without);

  const QString subtitle = QStringLiteral("H100 SXM5 (CC 9.0, 132 SMs) · 256 threads, 32 registers, 0 B shared");
  plot.setExportSubtitle(subtitle);
  EXPECT_EQ(plot.exportSubtitle(), subtitle);
  const QString titled = dir.filePath(QStringLiteral("titled.png"));
  ASSERT_TRUE(plot.exportImage(titled));
  const QImage with(titled);
  EXPECT_EQ(with.width(), 1800);
  EXPECT_GT(with.height(), 1120);  // one subtitle line more
  EXPECT_LT(with.height(), 1120 + 2 * 40);
  EXPECT_EQ(axes_height, plain_axes_height);  // the axes as without the subtitle
  // The shown plot is as before: title, axes, legend; no subtitle left behind.
  EXPECT_EQ(plot.plot()->plotLayout()->rowCount(), 3);
  EXPECT_EQ(plot.plot()->findChild<QCPTextElement*>(QStringLiteral("exportSubtitle")), nullptr);
  EXPECT_EQ(plot.title(), QStringLiteral("Impact of varying register count per thread"));

  // A chosen scale and size; an explicit size is laid out at that size, 1 pixel each.
  plot.setExportSubtitle(QString());
  plot.setExportScale(3);
  ASSERT_TRUE(plot.exportPng(plain));
  EXPECT_EQ(QImage(plain).size(), QSize(2700, 1680));
  plot.setExportSize(QSize(600, 400));
  ASSERT_TRUE(plot.exportPng(plain));
  EXPECT_EQ(QImage(plain).size(), QSize(1800, 1200));
  ASSERT_TRUE(plot.exportPng(plain, 640, 400));
  EXPECT_EQ(QImage(plain).size(), QSize(640, 400));
  // Hidden: the same.
  parent.hide();
  plot.setExportScale(2);
  plot.setExportSize(QSize(900, 560));
  ASSERT_TRUE(plot.exportPng(plain));
  EXPECT_EQ(QImage(plain).size(), QSize(1800, 1120));
}

/// The rectangles (layout pixels, along the axis) of `axis`'s tick labels as last laid out, in
/// tick order; multi-line labels as tall as their lines.
std::vector<std::pair<double, double>> tickLabelSpans(const QCPAxis* axis) {
  const QFontMetricsF metrics(axis->tickLabelFont());
  const QVector<double> ticks = axis->tickVector();
  const QVector<QString> labels = axis->tickVectorLabels();
  std::vector<std::pair<double, double>> spans;
  for (int i = 0; i < ticks.size() && i < labels.size(); ++i) {
    if (!axis->range().contains(ticks[i]) || labels[i].isEmpty()) continue;
    const QRectF box = metrics.boundingRect(QRectF(0, 0, 1e5, 1e5), Qt::AlignLeft | Qt::AlignTop, labels[i]);
    const double at = axis->coordToPixel(ticks[i]);
    const double half = (axis->orientation() == Qt::Vertical ? box.height() : box.width()) / 2;
    spans.emplace_back(at - half, at + half);
  }
  std::sort(spans.begin(), spans.end());
  return spans;
}

/// "axis: label spans a and b overlap" for each pair of neighbouring tick labels of `axis` that
/// overlap; empty when none do.
std::string exportedTickLabelClashes(const QCPAxis* axis, const char* name) {
  std::string out;
  const auto spans = tickLabelSpans(axis);
  for (std::size_t i = 1; i < spans.size(); ++i) {
    if (spans[i].first < spans[i - 1].second) {
      out += std::string(name) + ": tick labels at " + std::to_string(spans[i - 1].first) + "…" +
             std::to_string(spans[i - 1].second) + " and " + std::to_string(spans[i].first) + "…" +
             std::to_string(spans[i].second) + " overlap\n";
    }
  }
  return out;
}

// The tick labels of an exported PNG do not overlap, whatever the window's size: the subtitle's
// three lines do not squeeze the axes, and the utilization chart's row labels (two lines each
// where the axes are tall enough) are chosen for the export's size, not the window's.
TEST(PlotController, ExportedTickLabelsDoNotOverlap) {
  const ArchLimits* h100 = GpuDatabase::builtin().findArch({9, 0});
  ASSERT_NE(h100, nullptr);
  OccupancyInput in;
  in.threads_per_block = 256;
  in.registers_per_thread = 40;
  in.block_barriers = 1;
  auto result = computeOccupancy(*h100, in, false);
  ASSERT_TRUE(result);
  QWidget parent;
  auto* layout = new QVBoxLayout(&parent);
  UtilizationChart chart(&parent);
  OccupancyCurvePlot curve(CurveKind::BlockSize, &parent);
  layout->addWidget(chart.widget());
  layout->addWidget(curve.widget());
  chart.setRows(computeUtilization(*h100, in, *result));
  curve.setData({{32, 8, 8, 0.125, kLimitBlocks}, {256, 64, 64, 1.0, kLimitWarps}, {1024, 64, 64, 1.0, kLimitWarps}},
                64, 256, 64, true);
  const QString subtitle = QStringLiteral(
      "H100 SXM5 (CC 9.0, 132 SMs) · 256 threads, 40 registers, 0 B shared · a third part long enough to take a "
      "line of its own in a narrow export");
  // A tall window: the chart's rows have two-line labels on screen.
  parent.resize(420, 1400);
  parent.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&parent));
  chart.plot()->replot(QCustomPlot::rpImmediateRefresh);
  for (PlotController* p : std::vector<PlotController*>{&chart, &curve}) {
    SCOPED_TRACE(p->title().toStdString());
    p->setExportSubtitle(subtitle);
    for (const QSize size : {QSize(0, 0), QSize(640, 300), QSize(420, 260)}) {
      SCOPED_TRACE(std::to_string(size.width()) + " x " + std::to_string(size.height()));
      // The tick labels as the export lays them out, just before it draws them.
      std::string overlaps = "not laid out";
      const auto seen = QObject::connect(p->plot(), &QCustomPlot::afterLayout, &parent, [&] {
        overlaps = exportedTickLabelClashes(p->plot()->yAxis, "y") + exportedTickLabelClashes(p->plot()->xAxis, "x");
      });
      const QImage image = p->renderImage(size.width(), size.height());
      QObject::disconnect(seen);
      ASSERT_FALSE(image.isNull());
      EXPECT_EQ(overlaps, "");
      if (size.width() > 0) {
        EXPECT_GT(image.height(), size.height());  // the subtitle's lines on top
      }
    }
  }
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
