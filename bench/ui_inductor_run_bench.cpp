// The Inductor run view's time to show a run (Google Benchmark, offscreen Qt): opening the largest
// bundled run (T5's training step: 78 kernels, its CSV and 78 kernel modules), and showing a scanned
// cache of 2160 kernels (the ten-copy cache of bench/inductor_scan_bench.cpp, scanned once outside
// the timing) — the kernel list, the first kernel's configs, plots and source.
// Run: QT_QPA_PLATFORM=offscreen build/release/bench/ui_inductor_run_bench
#include <benchmark/benchmark.h>

#include <QApplication>
#include <filesystem>

#include "core/triton/inductor_run.h"
#include "ui/models/inductor_run_data.h"
#include "ui/views/inductor_run_view.h"

namespace {

void BM_InductorRunView_OpenBundledT5(benchmark::State& state) {
  occx::ui::InductorRunView view{occx::ui::ViewContext(occx::offlineBackend())};
  view.resize(1560, 900);
  view.show();
  QCoreApplication::processEvents();
  for (auto _ : state) {
    view.openBundled(QStringLiteral("t5"));
    QCoreApplication::processEvents();
  }
  state.counters["kernels"] = static_cast<double>(view.run().kernels.size());
}
BENCHMARK(BM_InductorRunView_OpenBundledT5)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_InductorRunView_ShowLargeScan(benchmark::State& state) {
  const std::filesystem::path cache = std::filesystem::temp_directory_path() / "occx_scan_bench_10";
  if (!std::filesystem::exists(cache / ".complete")) {
    state.SkipWithError("run bench/inductor_scan_bench first: it writes the ten-copy cache");
    return;
  }
  occx::triton::RunScanOptions o;
  o.input = cache.string();
  o.home_triton_cache = false;
  auto run = occx::triton::scanInductorRun(o);
  if (!run) {
    state.SkipWithError(run.error().c_str());
    return;
  }
  const occx::ui::InductorRunData data = occx::ui::runDataFromScan(*run);
  occx::ui::InductorRunView view{occx::ui::ViewContext(occx::offlineBackend())};
  view.resize(1560, 900);
  view.show();
  QCoreApplication::processEvents();
  for (auto _ : state) {
    view.showRun(data);
    QCoreApplication::processEvents();
  }
  state.counters["kernels"] = static_cast<double>(view.run().kernels.size());
}
BENCHMARK(BM_InductorRunView_ShowLargeScan)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
