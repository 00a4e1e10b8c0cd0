// Reading an Inductor cache: scanInductorRun over one cache holding all twelve recorded runs of
// tests/data/inductor (12 runs, 4 models, 313 kernel modules, 249 Triton folders), and over
// copies of it made 10× larger (each copy's modules and Triton folders renamed, so every kernel
// counts once): the figure behind "a cache of thousands of kernels".
// Run: build/release/bench/inductor_scan_bench   (figures recorded in docs/benchmarks.md)
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/triton/inductor_run.h"

namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Copies one recorded run into `cache`, with every module and Triton folder renamed by `tag`.
void copyRun(const fs::path& run, const fs::path& cache, const std::string& tag) {
  for (const auto& e : fs::recursive_directory_iterator(run)) {
    if (!e.is_regular_file()) continue;
    const fs::path rel = fs::relative(e.path(), run);
    std::string target = rel.string();
    std::string data = slurp(e.path());
    if (!tag.empty()) {
      if (rel.extension() == ".py") target = (rel.parent_path() / (rel.stem().string() + tag + ".py")).string();
      if (*rel.begin() == "triton") {  // triton/0/<HASH>/file → triton/0/<HASH><TAG>/file
        auto it = rel.begin();
        fs::path t = *it++;
        t /= *it++;
        t /= it->string() + tag;
        for (++it; it != rel.end(); ++it) t /= *it;
        target = t.string();
      }
      // Module paths in the IR's #loc lines and wrappers' "# kernel path:" comments, and the Triton
      // folder a .best_config names.
      if (rel.extension() != ".cubin") {
        for (const std::string end : {".py\"", ".py\n"}) {
          for (auto p = data.find(end); p != std::string::npos; p = data.find(end, p + end.size() + tag.size()))
            data.insert(p, tag);
        }
      }
      const std::string key = "\"triton_cache_hash\": \"";
      if (auto k = data.find(key); rel.extension() == ".best_config" && k != std::string::npos) {
        data.insert(data.find('"', k + key.size()), tag);
      }
    }
    const fs::path dst = cache / target;
    fs::create_directories(dst.parent_path());
    std::ofstream(dst, std::ios::binary) << data;
  }
}

fs::path makeCache(int copies) {
  const fs::path cache = fs::temp_directory_path() / ("occx_scan_bench_" + std::to_string(copies));
  if (fs::exists(cache / ".complete")) return cache;
  fs::remove_all(cache);
  for (int c = 0; c < copies; ++c) {
    for (const auto& run : fs::directory_iterator(OCCX_INDUCTOR_FIXTURES_DIR)) {
      if (run.is_directory()) copyRun(run.path(), cache, c == 0 ? std::string() : "x" + std::to_string(c));
    }
  }
  std::ofstream(cache / ".complete") << "1";
  return cache;
}

void BM_ScanInductorCache(benchmark::State& state) {
  const fs::path cache = makeCache(static_cast<int>(state.range(0)));
  occx::triton::RunScanOptions o;
  o.input = cache.string();
  o.home_triton_cache = false;
  std::size_t kernels = 0;
  std::size_t configs = 0;
  for (auto _ : state) {
    auto run = occx::triton::scanInductorRun(o);
    if (!run) {
      state.SkipWithError(run.error().c_str());
      return;
    }
    kernels = run->kernels.size();
    configs = static_cast<std::size_t>(run->summary.configs);
    benchmark::DoNotOptimize(run);
  }
  state.counters["kernels"] = static_cast<double>(kernels);
  state.counters["configs"] = static_cast<double>(configs);
  state.counters["kernels_per_s"] =
      benchmark::Counter(static_cast<double>(kernels), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ScanInductorCache)->Arg(1)->Arg(10)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
