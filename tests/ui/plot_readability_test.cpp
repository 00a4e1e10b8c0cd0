// Plots that stay readable with many configs, off-screen, in the main window at 1280 × 720 and
// 1920 × 1080: no two tick labels of an axis overlap on any plot of any tab or page (the
// calculator, the RBLOCK bounds, the compile sweep, the live sweep with each bundled dataset, the
// Inductor run's plots with the 91 measured configs of the spill case and a model run's step); the
// Measured plot's policy markers sit on the row of the bar they pick; axis titles have their final
// font from their first draw; the Measured plot's bars as plain data (measuredBars); the kernel
// list's names stay distinct when elided, with the whole name in the tooltip.
#include <gtest/gtest.h>

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <cmath>
#include <functional>
#include <map>
#include <set>

#include "inductor_view_support.h"
#include "qcustomplot.h"
#include "ui/models/inductor_plot_data.h"
#include "ui/plots/tick_labels.h"
#include "ui/shell/main_window.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/inductor_kernel_list_pane.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/views/step_pane.h"
#include "ui_test_support.h"

namespace occx::ui {
namespace {

QString axisName(const QCPAxis* axis) {
  switch (axis->axisType()) {
    case QCPAxis::atLeft:
      return QStringLiteral("left");
    case QCPAxis::atRight:
      return QStringLiteral("right");
    case QCPAxis::atTop:
      return QStringLiteral("top");
    case QCPAxis::atBottom:
      return QStringLiteral("bottom");
  }
  return {};
}

/// The overlapping tick labels of every plot shown under `root`, as drawn last, as text.
QStringList tickLabelClashes(const QWidget* root, const QString& where) {
  QStringList out;
  for (const QCustomPlot* plot : root->findChildren<QCustomPlot*>()) {
    if (!plot->isVisible()) continue;
    for (const QCPAxis* axis : plot->axisRect()->axes()) {
      for (const QString& clash : overlappingTickLabels(axis)) {
        out << QStringLiteral("%1: %2 (%3 × %4, data area %5 × %6), %7 axis: %8")
                   .arg(where, plot->objectName())
                   .arg(plot->width())
                   .arg(plot->height())
                   .arg(plot->axisRect()->width())
                   .arg(plot->axisRect()->height())
                   .arg(axisName(axis), clash);
      }
    }
  }
  return out;
}

/// Calls `check(where)` on tab `tab` of `window` with each page of each of its inner tab widgets
/// shown in turn (a plot on a page is shown only there).
void onEveryPage(MainWindow& window, int tab, const std::function<void(const QString&)>& check) {
  QTabWidget* tabs = window.tabs();
  tabs->setCurrentIndex(tab);
  QApplication::processEvents();
  const QString name = tabs->tabText(tab);
  check(name);
  for (QTabWidget* inner : tabs->widget(tab)->findChildren<QTabWidget*>()) {
    const int was = inner->currentIndex();
    for (int i = 0; i < inner->count(); ++i) {
      inner->setCurrentIndex(i);
      QApplication::processEvents();
      check(name + QStringLiteral(" → ") + inner->tabText(i));
    }
    inner->setCurrentIndex(was);
    QApplication::processEvents();
  }
}

/// The main window with every view, data in each: the bundled spill case (91 measured configs) in
/// the Inductor run view, the compile-sweep fixture, the first bundled live dataset.
struct AllViews {
  MainWindow window{testContext(offlineBackend(), false)};
  InductorRunView* inductor = new InductorRunView(testContext());
  CompileSweepView* compile = new CompileSweepView(testContext(compileBackend({})));
  LiveSweepView* live =
      new LiveSweepView(testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("test"), {}})));

  AllViews() {
    QSettings().clear();
    window.addView(new RblockScalingView(testContext()), QStringLiteral("RBLOCK scaling"));
    window.addView(inductor, QStringLiteral("Inductor run"));
    window.addView(compile, QStringLiteral("Compile sweep (NVRTC)"));
    window.addView(live, QStringLiteral("Live sweep"));
    EXPECT_EQ(inductor->openBundled(QStringLiteral("spill_log_softmax")), QString());
    EXPECT_EQ(compile->openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  }
};

QStringList bundledDatasets() {
  return QDir(QStringLiteral(":/datasets")).entryList({QStringLiteral("*.csv")}, QDir::Files, QDir::Name);
}

void expectNoTickLabelsOverlap(int width, int height) {
  AllViews all;
  all.window.resize(width, height);
  all.window.show();
  QApplication::processEvents();
  QStringList clashes;
  auto check = [&](const QString& where) { clashes << tickLabelClashes(all.window.tabs()->currentWidget(), where); };
  for (int t = 0; t < all.window.tabs()->count(); ++t) {
    if (all.window.tabs()->widget(t) == all.live) continue;  // below, with each dataset
    onEveryPage(all.window, t, check);
  }
  const QStringList datasets = bundledDatasets();
  EXPECT_GE(datasets.size(), 6);
  const int live_tab = all.window.tabs()->indexOf(all.live);
  for (const QString& d : datasets) {
    ASSERT_EQ(all.live->openCsvFile(QStringLiteral(":/datasets/") + d), QString()) << d.toStdString();
    onEveryPage(all.window, live_tab, [&](const QString& where) { check(where + QStringLiteral(" [") + d + "]"); });
  }
  // A model run's step (its profiler trace) for the Step page's Pareto plot.
  ASSERT_EQ(all.inductor->openBundled(QStringLiteral("gpt2")), QString());
  bool read = false;
  QObject::connect(
      all.inductor->stepPane(), &StepPane::profileChanged, all.inductor, [&read] { read = true; },
      Qt::SingleShotConnection);
  ASSERT_EQ(all.inductor->openTrace(QStringLiteral(":/inductor-runs/gpt2.pt.trace.json.gz")), QString());
  ASSERT_TRUE(waitFor([&] { return read; }, 20000));
  onEveryPage(all.window, all.window.tabs()->indexOf(all.inductor), check);
  EXPECT_TRUE(clashes.isEmpty()) << clashes.join(QLatin1Char('\n')).toStdString();
}

TEST(PlotReadability, NoTickLabelsOverlapOnAnyPlotAt1280x720) {
  expectNoTickLabelsOverlap(1280, 720);
}

TEST(PlotReadability, NoTickLabelsOverlapOnAnyPlotAt1920x1080) {
  expectNoTickLabelsOverlap(1920, 1080);
}

/// The Measured tab of the spill case (91 configs) at `width` × `height`: each policy's marker on
/// its pick's bar, every shown bar labelled, the rest summed up.
void expectMarkersOnTheirBars(int width, int height) {
  AllViews all;
  all.window.resize(width, height);
  all.window.show();
  all.window.tabs()->setCurrentWidget(all.inductor);
  QTabWidget* details = all.inductor->detailTabs();
  for (int i = 0; i < details->count(); ++i) {
    if (details->tabText(i) == QStringLiteral("Measured")) details->setCurrentIndex(i);
  }
  QApplication::processEvents();
  const MeasuredTimesPlot& plot = measuredPlot(*all.inductor);
  ASSERT_TRUE(plot.widget()->isVisible());
  ASSERT_EQ(plot.values().size(), 91u);
  const MeasuredBars& bars = plot.bars();
  // As many rows as the plot has room for; the slower configs summed up in the last.
  EXPECT_LE(static_cast<int>(bars.bars.size()) + (bars.rest > 0 ? 1 : 0), plot.barRoom());
  EXPECT_GE(bars.bars.size(), 8u);
  EXPECT_GT(bars.rest, 0);
  EXPECT_EQ(static_cast<int>(bars.bars.size()) + bars.rest + bars.without_time, 91);
  const auto plotted = plot.plottedBars();
  ASSERT_EQ(plotted.size(), bars.bars.size());
  for (std::size_t p = 0; p < inductor::kPolicies.size(); ++p) {
    SCOPED_TRACE(std::string(inductor::policyKey(inductor::kPolicies[p])));
    const int row = plot.pickRows()[p];
    ASSERT_GE(row, 0);
    const double key = plot.barKey(row);
    ASSERT_FALSE(std::isnan(key));
    // The bar at that position is the pick's: its time.
    const auto bar = std::find_if(plotted.begin(), plotted.end(), [key](const auto& b) { return b.first == key; });
    ASSERT_NE(bar, plotted.end());
    EXPECT_DOUBLE_EQ(bar->second, plot.values()[static_cast<std::size_t>(row)]);
    // One marker, on that bar's row.
    EXPECT_EQ(plot.markerKeys(static_cast<int>(p)), std::vector<double>{key});
  }
  // The fastest is a bar, and every bar's label is drawn (the rows were sized for the labels).
  EXPECT_FALSE(std::isnan(plot.barKey(plot.bestRow())));
  const QCPAxis* configs = plot.plot()->yAxis;
  int labelled = 0;
  for (const QString& label : configs->tickVectorLabels()) labelled += label.isEmpty() ? 0 : 1;
  EXPECT_EQ(labelled, static_cast<int>(bars.bars.size()) + (bars.rest > 0 ? 1 : 0));
  EXPECT_TRUE(overlappingTickLabels(configs).isEmpty());
}

TEST(PlotReadability, MeasuredMarkersSitOnTheBarTheyPickAt1280x720) {
  expectMarkersOnTheirBars(1280, 720);
}

TEST(PlotReadability, MeasuredMarkersSitOnTheBarTheyPickAt1920x1080) {
  expectMarkersOnTheirBars(1920, 1080);
}

/// Records, per plot, the x axis label's font of its last replot and, at its first paint (which
/// shows the buffer of the last replot), that font: what the plot's first draw showed.
class FirstDrawFonts : public QObject {
 public:
  explicit FirstDrawFonts(const QWidget& root) {
    for (QCustomPlot* plot : root.findChildren<QCustomPlot*>()) {
      plot->installEventFilter(this);
      QObject::connect(plot, &QCustomPlot::afterReplot, this, [this, plot] { last_[plot] = plot->xAxis->labelFont(); });
    }
  }
  std::map<const QCustomPlot*, QFont> first;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    const auto* plot = qobject_cast<const QCustomPlot*>(watched);
    if (plot != nullptr && event->type() == QEvent::Paint && first.count(plot) == 0 && last_.count(plot) > 0)
      first[plot] = last_[plot];
    return false;
  }

 private:
  std::map<const QCustomPlot*, QFont> last_;
};

// The x axis label ("Cluster size (blocks)", "Registers per thread (n_regs)", "RBLOCK (…, log2
// scale)") is fitted to the axis rect's width before each replot: from the first draw at the
// window's size, not from the last layout's (the plot's size before it was shown).
TEST(PlotReadability, AxisTitlesHaveTheirFinalFontAtTheirFirstDraw) {
  AllViews all;
  FirstDrawFonts fonts(all.window);
  all.window.resize(1280, 720);
  all.window.show();
  for (int t = 0; t < all.window.tabs()->count(); ++t) onEveryPage(all.window, t, [](const QString&) {});
  EXPECT_GE(fonts.first.size(), 15u);
  QStringList changed;
  for (const auto& [plot, font] : fonts.first) {
    const_cast<QCustomPlot*>(plot)->replot(QCustomPlot::rpImmediateRefresh);
    if (plot->xAxis->labelFont().pointSizeF() != font.pointSizeF()) {
      changed << QStringLiteral("%1 \"%2\": %3 pt first, %4 pt after")
                     .arg(plot->objectName(), plot->xAxis->label())
                     .arg(font.pointSizeF())
                     .arg(plot->xAxis->labelFont().pointSizeF());
    }
  }
  EXPECT_TRUE(changed.isEmpty()) << changed.join(QLatin1Char('\n')).toStdString();
}

/// Synthetic configs: `inductors` of Inductor's (origin "candidate"), then `swept` of a sweep; row
/// i takes 100 − i µs (so the last rows are the fastest); the policies pick row `pick`.
void syntheticRun(int inductors, int swept, int pick, std::vector<triton::ScanRow>& rows,
                  std::vector<std::optional<RunConfigModel::Measured>>& measured) {
  for (int i = 0; i < inductors + swept; ++i) {
    triton::ScanRow r;
    r.xblock = 1;
    r.r0_block = 256 << (i % 8);
    r.num_warps = 4 << (i / 8 % 4);
    r.origin = i < inductors ? "candidate" : "swept";
    rows.push_back(r);
    RunConfigModel::Measured m;
    m.row.origin = r.origin;
    m.row.measured.status = RunStatus::kOk;
    m.row.measured.time.median_us = 100.0 - i;
    if (i == pick) m.picked_by = {QStringLiteral("old"), QStringLiteral("new"), QStringLiteral("spills")};
    if (i == inductors + swept - 1) m.picked_by << QStringLiteral("best");
    measured.emplace_back(m);
  }
}

TEST(MeasuredBars, InductorsConfigsFirstThenTheFastestAndTheRestSummedUp) {
  std::vector<triton::ScanRow> rows;
  std::vector<std::optional<RunConfigModel::Measured>> measured;
  syntheticRun(3, 40, 5, rows, measured);  // row 5 (95 µs, swept) is the policies' pick; row 42 the fastest
  measured.emplace_back();                 // a row not measured
  rows.push_back(rows.front());
  const MeasuredBars b = measuredBars(rows, measured, 10);
  ASSERT_EQ(b.bars.size(), 9u);  // 10 rows, the summary one of them
  // Inductor's three, fastest first.
  EXPECT_EQ(b.bars[0].row, 2);
  EXPECT_EQ(b.bars[1].row, 1);
  EXPECT_EQ(b.bars[2].row, 0);
  EXPECT_TRUE(b.bars[0].inductors);
  // Then the fastest swept ones (42, 41, …), the pick kept although slow, the best first.
  EXPECT_EQ(b.bars[3].row, 42);
  EXPECT_TRUE(b.bars[3].best);
  EXPECT_FALSE(b.bars[3].inductors);
  EXPECT_EQ(b.bars[8].row, 5);
  EXPECT_EQ(b.bars[8].policies, (std::vector<int>{0, 1, 4}));  // old, new, spills
  EXPECT_DOUBLE_EQ(b.bars[8].time_us, 95.0);
  EXPECT_EQ(b.rest, 38 - 4);  // the swept rows but the best, the pick and the four shown
  EXPECT_DOUBLE_EQ(b.rest_lo_us, 100.0 - 37);
  EXPECT_DOUBLE_EQ(b.rest_hi_us, 100.0 - 3);  // rows 3, 4, 6 … 37
  EXPECT_EQ(b.without_time, 1);
  EXPECT_DOUBLE_EQ(b.top_us, 100.0);
  // Room for all: no summary.
  const MeasuredBars all = measuredBars(rows, measured, 100);
  EXPECT_EQ(all.bars.size(), 43u);
  EXPECT_EQ(all.rest, 0);
  // Less room than the bars that must be there: they are there all the same.
  const MeasuredBars tight = measuredBars(rows, measured, 2);
  EXPECT_EQ(tight.bars.size(), 5u);  // Inductor's three, the best, the pick
  EXPECT_EQ(tight.rest, 38);
}

TEST(KernelNames, ElidedNamesKeepWhatTellsThemApart) {
  const QStringList names = {QStringLiteral("triton_poi_fused__to_copy_1 [cll56ay]"),
                             QStringLiteral("triton_poi_fused__to_copy_1 [cln4g4s]"),
                             QStringLiteral("triton_poi_fused__to_copy__unsafe_view_clone_transpose_view_10"),
                             QStringLiteral("triton_poi_fused__to_copy_clone_transpose_view_10"),
                             QStringLiteral("triton_per_fused__to_copy_add_native_dropout_backward_view_12"),
                             QStringLiteral("triton_per_fused__to_copy_add_native_layer_norm_backward_view_12"),
                             QStringLiteral("triton_red_fused_sum_0")};
  const QFontMetrics metrics(QApplication::font());
  for (const char* fits : {"triton_per_fused__to_copy_add_native", "triton_per_fused__to_copy"}) {
    const int width = metrics.horizontalAdvance(QLatin1String(fits));
    SCOPED_TRACE(width);
    std::set<QString> shown;
    for (const QString& name : names) {
      const QString s = elideKernelName(name, names, metrics, width);
      EXPECT_LE(metrics.horizontalAdvance(s), width) << s.toStdString();
      EXPECT_TRUE(s == name || s.contains(QStringLiteral("…"))) << s.toStdString();
      shown.insert(s);
    }
    EXPECT_EQ(shown.size(), static_cast<std::size_t>(names.size()));
  }
  // Short enough: whole. The module tag and the number stay in sight.
  const int width = metrics.horizontalAdvance(QStringLiteral("triton_per_fused__to_copy_add"));
  EXPECT_EQ(elideKernelName(names[6], names, metrics, width), names[6]);
  EXPECT_TRUE(elideKernelName(names[0], names, metrics, width).endsWith(QStringLiteral("_1 [cll56ay]")));
  EXPECT_TRUE(elideKernelName(names[4], names, metrics, width).endsWith(QStringLiteral("_12")));
}

// The bundled model runs (blenderbot has three triton_poi_fused__to_copy_1, one per graph): every
// row of the kernel list reads differently at the list's width and narrower, and its tooltip has
// the whole name.
TEST(KernelNames, TheKernelListsNamesStayDistinctWhenElided) {
  for (const char* run : {"blenderbot", "bert", "t5", "gpt2"}) {
    SCOPED_TRACE(run);
    InductorRunView view{testContext()};
    ASSERT_EQ(view.openBundled(QLatin1String(run)), QString());
    const auto& table = childNamed<QTableView>(view, "kernelTable");
    const auto* delegate =
        dynamic_cast<const KernelNameDelegate*>(table.itemDelegateForColumn(KernelListModel::kKernel));
    ASSERT_NE(delegate, nullptr);
    const QAbstractItemModel* model = table.model();
    const KernelListModel& kernels = kernelModel(view);
    ASSERT_GE(model->rowCount(), 30);
    for (int width : {table.columnWidth(KernelListModel::kKernel), 200, 160}) {
      std::set<QString> shown;
      for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex index = model->index(r, KernelListModel::kKernel);
        const QString text = delegate->shownText(index, width, &table);
        EXPECT_LE(table.fontMetrics().horizontalAdvance(text), width) << text.toStdString();
        shown.insert(text);
      }
      EXPECT_EQ(shown.size(), static_cast<std::size_t>(model->rowCount())) << "at " << width << " px";
    }
    const auto* proxy = qobject_cast<const QSortFilterProxyModel*>(model);
    ASSERT_NE(proxy, nullptr);
    for (int r = 0; r < model->rowCount(); ++r) {
      const QModelIndex index = model->index(r, KernelListModel::kKernel);
      const RunKernelEntry* k = kernels.row(proxy->mapToSource(index).row());
      ASSERT_NE(k, nullptr);
      EXPECT_TRUE(index.data(Qt::ToolTipRole).toString().contains(QString::fromStdString(k->kernel)));
    }
  }
}

}  // namespace
}  // namespace occx::ui
