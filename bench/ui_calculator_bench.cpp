// The calculator window's cost per input change and per redraw (Google Benchmark, offscreen Qt).
// Run: QT_QPA_PLATFORM=offscreen build/release/bench/ui_calculator_bench
#include <benchmark/benchmark.h>

#include <qcustomplot.h>
#include <QApplication>
#include <QSpinBox>

#include "ui/plots/plot_controller.h"
#include "ui/views/calculator_view.h"

namespace {

// One input change: the calculation, the three impact sweeps, the panels and the plot data.
void BM_CalculatorView_InputChange(benchmark::State& state) {
  occx::ui::CalculatorView view{occx::ui::ViewContext(occx::offlineBackend())};
  int i = 0;
  for (auto _ : state) {
    view.registersSpin()->setValue(++i % 2 == 0 ? 64 : 32);
    QCoreApplication::processEvents();
  }
}
BENCHMARK(BM_CalculatorView_InputChange)->Unit(benchmark::kMillisecond);

// Redrawing all four plots at the window's default size.
void BM_CalculatorView_ReplotAll(benchmark::State& state) {
  occx::ui::CalculatorView view{occx::ui::ViewContext(occx::offlineBackend())};
  view.resize(1560, 940);
  view.show();
  QCoreApplication::processEvents();
  const auto plots = view.plotExports();
  for (auto _ : state) {
    for (auto* p : plots) p->plot()->replot(QCustomPlot::rpImmediateRefresh);
  }
}
BENCHMARK(BM_CalculatorView_ReplotAll)->Unit(benchmark::kMillisecond);

}  // namespace

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM",
          qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
