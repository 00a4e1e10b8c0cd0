// The main window with every view of the application at 1280 × 720 (a laptop screen), off-screen,
// with data shown in every view: on every tab (and every page of a tab's own tabs) each plot's data
// area is at least 300 × 180 px, its title, axes and legend lie inside the plot, uncut, and no two
// widgets of one layout overlap; the calculator's derivation shows six lines, the Inductor config
// table ten rows, the RBLOCK pipeline table five and the decision table all four of its rows, one
// line each; the button that starts a sweep is in sight; the
// status bar's texts are whole or cut after a word with the whole text in a tooltip, and do not
// overlap; no splitter collapses a pane.
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLayout>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBrowser>
#include <QWidget>
#include <vector>

#include "qcustomplot.h"

#include "tests/ui/ui_test_support.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/models/live_sweep_model.h"
#include "ui/plots/cluster_size_plot.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/plots/plot_controller.h"
#include "ui/shell/main_window.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/gpu_data_view.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/widgets/elided_label.h"

namespace occx::ui {
namespace {

QString nameOf(const QWidget* w) {
  return QStringLiteral("%1 \"%2\"").arg(QLatin1String(w->metaObject()->className()), w->objectName());
}

/// Visible widgets that share a layout (or a splitter) under `root` and overlap, as text.
QStringList overlaps(QWidget* root) {
  QStringList out;
  auto check = [&out](const std::vector<QWidget*>& siblings) {
    for (std::size_t i = 0; i < siblings.size(); ++i) {
      for (std::size_t j = i + 1; j < siblings.size(); ++j) {
        const QRect a = siblings[i]->geometry();
        const QRect b = siblings[j]->geometry();
        if (a.intersects(b)) {
          out << QStringLiteral("%1 %2,%3 %4×%5 overlaps %6 %7,%8 %9×%10")
                     .arg(nameOf(siblings[i]))
                     .arg(a.x())
                     .arg(a.y())
                     .arg(a.width())
                     .arg(a.height())
                     .arg(nameOf(siblings[j]))
                     .arg(b.x())
                     .arg(b.y())
                     .arg(b.width())
                     .arg(b.height());
        }
      }
    }
  };
  for (QLayout* layout : root->findChildren<QLayout*>()) {
    std::vector<QWidget*> siblings;
    for (int i = 0; i < layout->count(); ++i) {
      QWidget* w = layout->itemAt(i)->widget();
      if (w != nullptr && w->isVisible() && !w->geometry().isEmpty()) siblings.push_back(w);
    }
    check(siblings);
  }
  for (QSplitter* splitter : root->findChildren<QSplitter*>()) {
    std::vector<QWidget*> siblings;
    for (int i = 0; i < splitter->count(); ++i) {
      QWidget* w = splitter->widget(i);
      if (w->isVisible() && !w->geometry().isEmpty()) siblings.push_back(w);
    }
    check(siblings);
  }
  return out;
}

/// The least size of a plot's data area (its axis rect), in pixels: room for five y ticks 36 px
/// apart with their labels and for the points between them, and for ten x ticks.
constexpr int kMinAxisRectHeight = 180;
constexpr int kMinAxisRectWidth = 300;

/// What is wrong with the plots of `view` that are shown: a data area under kMinAxisRectWidth ×
/// kMinAxisRectHeight, or a layout element (title, axis rect with its labels, legend) outside the
/// plot widget or squeezed under the size it needs, as text.
QStringList plotProblems(const AppView& view) {
  QStringList out;
  const int min_height = kMinAxisRectHeight;
  for (const PlotController* controller : view.plotExports()) {
    QCustomPlot* plot = controller->plot();
    if (!plot->isVisible()) continue;               // on a hidden page: checked when its page is shown
    plot->replot(QCustomPlot::rpImmediateRefresh);  // lays the plot out at its shown size
    const QString name = controller->title().simplified();
    const QRect area = plot->axisRect()->rect();
    if (area.height() < min_height || area.width() < kMinAxisRectWidth) {
      out << QStringLiteral("%1: the data area is %2 × %3 px (plot %4 × %5)")
                 .arg(name)
                 .arg(area.width())
                 .arg(area.height())
                 .arg(plot->width())
                 .arg(plot->height());
    }
    const QRect widget_rect(QPoint(0, 0), plot->size());
    for (QCPLayoutElement* e : plot->plotLayout()->elements(/*recursive=*/true)) {
      if (e == nullptr || (e == plot->legend && plot->legend->itemCount() == 0)) continue;
      const QRect r = e->outerRect();
      const QSize need = e->minimumOuterSizeHint();
      if (!widget_rect.contains(r) || r.height() < need.height()) {
        out << QStringLiteral("%1: its %2 lies at %3,%4 %5 × %6 (needs %7 px height) in a plot of %8 × %9")
                   .arg(name, QLatin1String(e->metaObject()->className()))
                   .arg(r.x())
                   .arg(r.y())
                   .arg(r.width())
                   .arg(r.height())
                   .arg(need.height())
                   .arg(plot->width())
                   .arg(plot->height());
      }
    }
  }
  return out;
}

/// The plot problems of `view` on each page of every tab widget inside `page` in turn (a plot on a
/// page of the view's own tabs is shown only there), then with the pages as they were.
QStringList plotProblemsOnEveryPage(QWidget* page, const AppView& view) {
  QStringList out = plotProblems(view);
  for (QTabWidget* inner : page->findChildren<QTabWidget*>()) {
    const int was = inner->currentIndex();
    for (int i = 0; i < inner->count(); ++i) {
      inner->setCurrentIndex(i);
      QApplication::processEvents();
      for (const QString& p : plotProblems(view)) out << QStringLiteral("[page %1] %2").arg(inner->tabText(i), p);
    }
    inner->setCurrentIndex(was);
    QApplication::processEvents();
  }
  return out;
}

/// Rows a table's viewport has room for (whole rows of its default height).
int roomForRows(const QTableView* table) {
  return table->viewport()->height() / table->verticalHeader()->defaultSectionSize();
}

/// The RBLOCK decision table, one row per policy (four, fewer than the five rows the bottom pane
/// is to show): every row one line tall and whole in the viewport, unscrolled; a reason longer than
/// its cell ends in "…" with the whole reason in the cell's tooltip.
void expectEveryRowInSight(const QTableWidget* table, int rows) {
  ASSERT_EQ(table->rowCount(), rows);
  EXPECT_EQ(table->verticalScrollBar()->value(), 0);
  const int line = table->verticalHeader()->defaultSectionSize();
  for (int r = 0; r < rows; ++r) {
    SCOPED_TRACE(r);
    EXPECT_EQ(table->rowHeight(r), line) << "the row wraps to " << table->rowHeight(r) << " px";
    EXPECT_LE(table->rowViewportPosition(r) + table->rowHeight(r), table->viewport()->height())
        << "the row is below the fold of a " << table->viewport()->height() << " px viewport";
    for (int c = 0; c < table->columnCount(); ++c) {
      const QTableWidgetItem* item = table->item(r, c);
      ASSERT_NE(item, nullptr);
      EXPECT_FALSE(item->text().isEmpty());
      EXPECT_EQ(item->toolTip(), item->text());
    }
  }
}

/// What is wrong with `label` of the status bar: text cut other than after a whole word, a cut
/// text without the whole text in its tooltip, or a text wider than the label.
QStringList elidedProblems(const ElidedLabel* label) {
  QStringList out;
  const QString name = label->objectName();
  const QString shown = label->text();
  const QString full = label->fullText();
  if (label->fontMetrics().horizontalAdvance(shown) > label->contentsRect().width())
    out << QStringLiteral("%1: '%2' is wider than the label (%3 px)").arg(name, shown).arg(label->width());
  if (shown == full) return out;
  const QString ellipsis(QChar(0x2026));
  const QString kept = shown.endsWith(ellipsis) ? shown.chopped(1) : QString();
  if (kept.isEmpty() || !full.startsWith(kept)) {
    out << QStringLiteral("%1: '%2' is not the start of '%3' and …").arg(name, shown, full);
    return out;
  }
  const QChar next = full.at(kept.size());
  if (!next.isSpace() && next != QLatin1Char(',') && next != QChar(0x00B7) && next != QLatin1Char(';') &&
      next != QLatin1Char(':'))
    out << QStringLiteral("%1: '%2' cuts a word of '%3'").arg(name, shown, full);
  if (label->toolTip() != full) out << QStringLiteral("%1: cut, and its tooltip is '%2'").arg(name, label->toolTip());
  return out;
}

/// The status bar's texts: each whole or cut after a word (elidedProblems), and no two of its
/// widgets overlapping.
QStringList statusBarProblems(const MainWindow& window) {
  QStringList out;
  const auto* view_status = window.findChild<ElidedLabel*>(QStringLiteral("viewStatus"));
  const auto* backend = window.findChild<ElidedLabel*>(QStringLiteral("backendStatus"));
  if (view_status == nullptr || backend == nullptr) return {QStringLiteral("no viewStatus or backendStatus label")};
  out << elidedProblems(view_status) << elidedProblems(backend);
  const QRect a(view_status->mapTo(&window, QPoint(0, 0)), view_status->size());
  for (const QWidget* w : window.statusBar()->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
    if (w == view_status || !w->isVisible()) continue;
    const QRect b(w->mapTo(&window, QPoint(0, 0)), w->size());
    if (a.intersects(b))
      out << QStringLiteral("the view's status %1 × %2 at %3 overlaps %4")
                 .arg(a.width())
                 .arg(a.height())
                 .arg(a.x())
                 .arg(nameOf(w));
  }
  if (view_status->width() < 300) out << QStringLiteral("the view's status has %1 px").arg(view_status->width());
  return out;
}

/// The parts of each view the newcomer could not see at 1280 × 720, checked on the shown window.
void expectTheViewsFit(MainWindow& window) {
  QTabWidget* tabs = window.tabs();
  // The calculator: six lines of the derivation at least.
  tabs->setCurrentWidget(window.calculatorView());
  QApplication::processEvents();
  const QTextBrowser* derivation = window.calculatorView()->findChild<QTextBrowser*>(QStringLiteral("derivation"));
  ASSERT_NE(derivation, nullptr);
  EXPECT_GE(derivation->viewport()->height() / derivation->fontMetrics().lineSpacing(), 6)
      << "the derivation is " << derivation->viewport()->height() << " px tall";
  // RBLOCK scaling: five rows of the candidate pipeline, and the decision table whole (its four
  // policies, one line each).
  auto* rblock = window.findChild<RblockScalingView*>();
  ASSERT_NE(rblock, nullptr);
  tabs->setCurrentWidget(rblock);
  auto* rblock_tabs = rblock->findChild<QTabWidget*>(QStringLiteral("rblockTabs"));
  auto* pipeline = rblock->findChild<QTableView*>(QStringLiteral("pipelineTable"));
  ASSERT_NE(pipeline, nullptr);
  rblock_tabs->setCurrentIndex(1);
  QApplication::processEvents();
  EXPECT_GE(roomForRows(pipeline), 5) << "the pipeline table's viewport is " << pipeline->viewport()->height() << " px";
  rblock_tabs->setCurrentIndex(0);
  QApplication::processEvents();
  expectEveryRowInSight(rblock->decisionTable(), 4);
  // The Inductor run: ten rows of the config table.
  auto* inductor = window.findChild<InductorRunView*>();
  ASSERT_NE(inductor, nullptr);
  tabs->setCurrentWidget(inductor);
  auto* configs = inductor->findChild<QTableView*>(QStringLiteral("configTable"));
  ASSERT_NE(configs, nullptr);
  inductor->detailTabs()->setCurrentIndex(0);
  QApplication::processEvents();
  ASSERT_TRUE(configs->isVisible());
  EXPECT_GE(roomForRows(configs), 10) << "the config table's viewport is " << configs->viewport()->height() << " px";
  // The compile sweep: its button in sight, unscrolled.
  auto* compile = window.findChild<CompileSweepView*>();
  ASSERT_NE(compile, nullptr);
  tabs->setCurrentWidget(compile);
  QApplication::processEvents();
  auto* button = compile->findChild<QPushButton*>(QStringLiteral("compileButton"));
  ASSERT_NE(button, nullptr);
  EXPECT_TRUE(button->isVisible());
  EXPECT_EQ(button->visibleRegion().boundingRect(), button->rect()) << "the Compile sweep button is cut or hidden";
  // The live sweep: Run in sight too.
  auto* live = window.findChild<LiveSweepView*>();
  ASSERT_NE(live, nullptr);
  tabs->setCurrentWidget(live);
  QApplication::processEvents();
  auto* run = live->findChild<QPushButton*>(QStringLiteral("runButton"));
  ASSERT_NE(run, nullptr);
  EXPECT_TRUE(run->isVisible());
  EXPECT_EQ(run->visibleRegion().boundingRect(), run->rect()) << "the Run button is cut or hidden";
  // The calculator's result table: no label cut ("Best block siz…"): rows wrap instead.
  tabs->setCurrentWidget(window.calculatorView());
  QApplication::processEvents();
  for (const QTableWidget* t : window.calculatorView()->findChildren<QTableWidget*>()) {
    if (!t->isVisibleTo(window.calculatorView())) continue;
    for (int r = 0; r < t->rowCount(); ++r) {
      const QTableWidgetItem* item = t->item(r, 0);
      if (item == nullptr) continue;
      const QRect cell = t->visualRect(t->model()->index(r, 0)).adjusted(3, 0, -3, 0);
      const QRect need = t->fontMetrics().boundingRect(cell, Qt::TextWordWrap, item->text());
      EXPECT_LE(need.height(), t->rowHeight(r) + 1) << item->text().toStdString() << " is cut";
    }
  }
}

TEST(WindowLayout, EveryTabFits1280x720) {
  QSettings().clear();
  MainWindow window(testContext(offlineBackend(), false));
  auto* compile = new CompileSweepView(testContext(compileBackend({})));
  auto* live = new LiveSweepView(testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("test"), {}})));
  window.addView(new RblockScalingView(testContext()), QStringLiteral("RBLOCK scaling"));
  window.addView(new InductorRunView(testContext()), QStringLiteral("Inductor run"));
  window.addView(compile, QStringLiteral("Compile sweep (NVRTC)"));
  window.addView(live, QStringLiteral("Live sweep"));
  ASSERT_EQ(compile->openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  ASSERT_EQ(live->openCsvFile(testData("live_sweep_fixture.csv")), QString());
  window.resize(1280, 720);
  window.show();
  QApplication::processEvents();
  // The window itself fits the screen it was sized for: no view asks for more room than that.
  EXPECT_LE(window.minimumSizeHint().width(), 1280);
  EXPECT_LE(window.minimumSizeHint().height(), 720);
  EXPECT_LE(window.geometry().width(), 1280);
  EXPECT_LE(window.geometry().height(), 720);

  QTabWidget* tabs = window.tabs();
  ASSERT_EQ(tabs->count(), 5);
  for (int t = 0; t < tabs->count(); ++t) {
    tabs->setCurrentIndex(t);
    QApplication::processEvents();
    SCOPED_TRACE(tabs->tabText(t).toStdString());
    QWidget* page = tabs->widget(t);
    auto* view = dynamic_cast<AppView*>(page);
    ASSERT_NE(view, nullptr);
    const auto plots = view->plotExports();
    EXPECT_FALSE(plots.empty());
    for (const PlotController* plot : plots) {
      QWidget* w = plot->widget();
      if (!w->isVisible()) continue;  // e.g. a plot on a hidden page of the view
      EXPECT_GE(w->height(), 150) << plot->title().toStdString() << " is " << w->height() << " px tall";
    }
    const QStringList cut = plotProblemsOnEveryPage(page, *view);
    EXPECT_TRUE(cut.isEmpty()) << cut.join(QLatin1Char('\n')).toStdString();
    const QStringList bad = overlaps(page);
    EXPECT_TRUE(bad.isEmpty()) << bad.join(QLatin1Char('\n')).toStdString();
    const QStringList status = statusBarProblems(window);
    EXPECT_TRUE(status.isEmpty()) << status.join(QLatin1Char('\n')).toStdString();
  }
  expectTheViewsFit(window);
}

// No splitter of any view collapses a pane: dragging a handle to either end stops at the pane's
// minimum size, which is more than nothing (the newcomer dragged the RBLOCK plot away entirely).
TEST(WindowLayout, NoSplitterCollapsesAPane) {
  QSettings().clear();
  MainWindow window(testContext(offlineBackend(), false));
  window.addView(new RblockScalingView(testContext()), QStringLiteral("RBLOCK scaling"));
  window.addView(new InductorRunView(testContext()), QStringLiteral("Inductor run"));
  window.addView(new CompileSweepView(testContext(compileBackend({}))), QStringLiteral("Compile sweep (NVRTC)"));
  window.addView(new LiveSweepView(testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("test"), {}}))),
                 QStringLiteral("Live sweep"));
  window.resize(1280, 720);
  window.show();
  int checked = 0;
  for (int t = 0; t < window.tabs()->count(); ++t) {
    window.tabs()->setCurrentIndex(t);
    QApplication::processEvents();
    for (QSplitter* split : window.tabs()->widget(t)->findChildren<QSplitter*>()) {
      if (!split->isVisible()) continue;
      SCOPED_TRACE(split->objectName().toStdString());
      EXPECT_FALSE(split->childrenCollapsible());
      const QList<int> was = split->sizes();
      for (int i = 0; i + 1 < split->count(); ++i) {
        for (bool to_first : {true, false}) {  // the handle after pane i dragged to one end, then the other
          QList<int> sizes(split->count(), 0);
          sizes[to_first ? i + 1 : i] = 5000;
          split->setSizes(sizes);
          QApplication::processEvents();
          const QWidget* squeezed = split->widget(to_first ? i : i + 1);
          const int size = split->orientation() == Qt::Vertical ? squeezed->height() : squeezed->width();
          EXPECT_GT(size, 40) << nameOf(squeezed).toStdString() << " squeezed to " << size << " px";
          ++checked;
        }
      }
      split->setSizes(was);
    }
  }
  EXPECT_GE(checked, 8);
}

// The RBLOCK tab opened from another tab at 1280 × 720 (as a user does): the Inductor version's
// statement, many lines long, is as tall as its text needs, its first line at the top (it opened
// with half a line cut off above and the last lines below).
TEST(WindowLayout, RblockVersionStatementIsWholeWhenTheTabOpens) {
  QSettings().clear();
  MainWindow window(testContext(offlineBackend(), false));
  auto* rblock = new RblockScalingView(testContext());
  window.addView(rblock, QStringLiteral("RBLOCK scaling"));
  window.resize(1280, 720);
  window.show();
  window.tabs()->setCurrentWidget(window.calculatorView());
  QApplication::processEvents();
  window.tabs()->setCurrentWidget(rblock);
  QApplication::processEvents();
  const QLabel* statement = rblock->profileLabel();
  ASSERT_TRUE(statement->isVisible());
  const int lines = statement->heightForWidth(statement->width()) / statement->fontMetrics().lineSpacing();
  EXPECT_GE(lines, 4) << statement->text().toStdString();
  EXPECT_GE(statement->height(), statement->heightForWidth(statement->width()))
      << "the statement is " << statement->height() << " px tall for " << lines << " lines";
  EXPECT_TRUE(statement->alignment() & Qt::AlignTop);
}

// The live sweep beside Inductor's kernel (the bundled mean_var pair) at 1280 × 720: the summary line,
// the checkbox and the plots whole, nothing overlapping, and the Triton columns next to our time in
// the table's viewport, unscrolled.
TEST(WindowLayout, LiveSweepBesideInductorsKernelFits1280x720) {
  QSettings().clear();
  MainWindow window(testContext(offlineBackend(), false));
  auto* live = new LiveSweepView(testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("test"), {}})));
  window.addView(live, QStringLiteral("Live sweep"));
  ASSERT_EQ(live->openCsvFile(QStringLiteral(":/datasets/h200_mean_var_fp16_32768x8192.csv")), QString());
  ASSERT_NE(live->fidelity(), nullptr);
  window.resize(1280, 720);
  window.show();
  window.tabs()->setCurrentWidget(live);
  QApplication::processEvents();
  EXPECT_LE(window.geometry().height(), 720);
  EXPECT_TRUE(live->fidelityLabel()->isVisible());
  EXPECT_TRUE(live->tritonSeriesCheck()->isVisible());
  const QStringList cut = plotProblemsOnEveryPage(live, *live);
  EXPECT_TRUE(cut.isEmpty()) << cut.join(QLatin1Char('\n')).toStdString();
  const QStringList bad = overlaps(live);
  EXPECT_TRUE(bad.isEmpty()) << bad.join(QLatin1Char('\n')).toStdString();

  QTableView* table = live->tableView();
  QHeaderView* header = table->horizontalHeader();
  const int viewport = table->viewport()->width();
  for (int c : {LiveSweepModel::kTime, LiveSweepModel::kTritonTime, LiveSweepModel::kTritonRegisters,
                LiveSweepModel::kTritonRatio}) {
    SCOPED_TRACE(table->model()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString().toStdString());
    ASSERT_FALSE(header->isSectionHidden(c));
    EXPECT_LE(header->sectionViewportPosition(c) + header->sectionSize(c), viewport);
  }
}

// The compile sweep's decisions are what the tab is for: at 1280 × 720, with a sweep shown, the
// config's columns, its registers and every policy's decision lie inside the table's viewport,
// unscrolled, left to right in that order.
TEST(WindowLayout, CompileSweepDecisionsAreInViewAt1280x720) {
  QSettings().clear();
  MainWindow window(testContext(offlineBackend(), false));
  auto* compile = new CompileSweepView(testContext(compileBackend({})));
  window.addView(compile, QStringLiteral("Compile sweep (NVRTC)"));
  ASSERT_EQ(compile->openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  window.resize(1280, 720);
  window.show();
  window.tabs()->setCurrentWidget(compile);
  QApplication::processEvents();

  QTableView* table = compile->tableView();
  ASSERT_GT(table->model()->rowCount(), 0);
  QHeaderView* header = table->horizontalHeader();
  EXPECT_EQ(table->horizontalScrollBar()->value(), 0);
  const int viewport = table->viewport()->width();
  int right = 0;
  for (int c : {CompileSweepModel::kXBlock, CompileSweepModel::kRBlock, CompileSweepModel::kNumWarps,
                CompileSweepModel::kRegisters, CompileSweepModel::kDecisionOld, CompileSweepModel::kDecisionNew,
                CompileSweepModel::kDecisionExact}) {
    const QString title = table->model()->headerData(c, Qt::Horizontal, Qt::DisplayRole).toString();
    SCOPED_TRACE(title.simplified().toStdString());
    ASSERT_FALSE(header->isSectionHidden(c));
    const int left = header->sectionViewportPosition(c);
    EXPECT_GE(left, right);  // right of the one before
    right = left + header->sectionSize(c);
    EXPECT_LE(right, viewport) << "the column ends at " << right << " px of a " << viewport << " px viewport";
  }
}

// The calculator's second page (cluster size, block barriers) with clusters on the H200, in both
// y measures, and the GPU data table: every plot whole at 1280 × 720 and nothing overlapping.
TEST(WindowLayout, CalculatorClusterPageAndGpuDataFit1280x720) {
  QSettings().clear();
  MainWindow window(testContext(offlineBackend(), false));
  window.addView(new GpuDataView, QStringLiteral("GPU data"));
  window.resize(1280, 720);
  window.show();
  CalculatorView* calc = window.calculatorView();
  ASSERT_TRUE(calc->deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200")));
  calc->nonPortableCheck()->setChecked(true);
  calc->clusterSizeSpin()->setValue(12);
  window.tabs()->setCurrentWidget(calc);
  calc->plotTabs()->setCurrentIndex(2);
  QApplication::processEvents();
  for (int measure : {0, 1}) {
    calc->yMeasureCombo()->setCurrentIndex(measure);
    QApplication::processEvents();
    SCOPED_TRACE(measure == 0 ? "active warps" : "occupancy %");
    for (PlotController* plot :
         {static_cast<PlotController*>(calc->clusterSizePlot()), static_cast<PlotController*>(calc->barriersPlot())}) {
      EXPECT_TRUE(plot->widget()->isVisible()) << plot->title().toStdString();
      EXPECT_GE(plot->widget()->height(), 150) << plot->title().toStdString();
    }
    const QStringList cut = plotProblems(*calc);
    EXPECT_TRUE(cut.isEmpty()) << cut.join(QLatin1Char('\n')).toStdString();
    const QStringList bad = overlaps(calc);
    EXPECT_TRUE(bad.isEmpty()) << bad.join(QLatin1Char('\n')).toStdString();
  }
  window.tabs()->setCurrentIndex(window.tabs()->count() - 1);
  QApplication::processEvents();
  const QStringList bad = overlaps(window.tabs()->currentWidget());
  EXPECT_TRUE(bad.isEmpty()) << bad.join(QLatin1Char('\n')).toStdString();
}

}  // namespace
}  // namespace occx::ui
