// The main window with every view of the application at 1280 × 720 (a laptop screen), off-screen:
// on every tab each plot keeps a readable height and no two widgets of one layout overlap.
#include <gtest/gtest.h>

#include <QApplication>
#include <QLayout>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QWidget>
#include <vector>

#include "tests/ui/ui_test_support.h"
#include "ui/plots/plot_controller.h"
#include "ui/shell/main_window.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"

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
                     .arg(a.x()).arg(a.y()).arg(a.width()).arg(a.height())
                     .arg(nameOf(siblings[j]))
                     .arg(b.x()).arg(b.y()).arg(b.width()).arg(b.height());
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

TEST(WindowLayout, EveryTabFits1280x720) {
  QSettings().clear();
  MainWindow window(/*use_settings=*/false);
  auto* compile = new CompileSweepView(nullptr, compileBackend({}));
  auto* live = new LiveSweepView(nullptr, liveBackend({}, LiveAvailability{false, QStringLiteral("test"), {}}));
  window.addView(new RblockScalingView, QStringLiteral("RBLOCK scaling"));
  window.addView(new InductorRunView, QStringLiteral("Inductor run"));
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
    const QStringList bad = overlaps(page);
    EXPECT_TRUE(bad.isEmpty()) << bad.join(QLatin1Char('\n')).toStdString();
  }
}

}  // namespace
}  // namespace occx::ui
