// The text scanners of Inductor's files on adversarial input of 1, 4 and 64 MB: each must take
// time linear in its input (a quadratic scanner took 20 s at 1 MB and 231 s at 4 MB). Inputs from
// tests/support/hostile_inputs.h, as the regression tests use them:
//   DecoratorLine     one line of "x@triton_heuristics." (looksLikeKernelModule + parseKernelModule)
//   WrapperMarkers    a wrapper of unclosed async_compile.triton('k', ''' calls (parseWrapperModule)
//   WrapperBuffers    a wrapper allocating and reusing buffers, ~110 bytes per pair (parseWrapperModule)
//   HugeDecorator     a decorator of "[1,1,…]" (parseKernelModule: stops at kMaxPythonValues)
//   CubinNameBomb     sections sharing one unterminated name table of the size (readCubin)
// Run: build/release/bench/hostile_scan_bench   (figures in docs/benchmarks.md)
// Also: hostile_scan_bench --make-tree DIR [DEPTH] adds issue 38's hostile entries (a FIFO, a
// DEPTH-deep folder chain, default 100000, and the name-bomb cubin) to the copy of an Inductor run
// at DIR, for measuring `occx inductor scan DIR` with /usr/bin/time -v.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/triton/cubin.h"
#include "core/triton/kernel_module.h"
#include "core/triton/python_literal.h"
#include "core/triton/wrapper_module.h"
#include "tests/support/hostile_inputs.h"

namespace hostile = occx::testing_support::hostile;
namespace t = occx::triton;

namespace {

std::size_t megabytes(const benchmark::State& state) {
  return static_cast<std::size_t>(state.range(0)) << 20;
}

void finish(benchmark::State& state, std::size_t bytes) {
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * static_cast<std::int64_t>(bytes));
  state.counters["MB"] = static_cast<double>(bytes) / (1 << 20);
}

void BM_DecoratorLine(benchmark::State& state) {
  const std::string text = hostile::decoratorLine(megabytes(state));
  for (auto _ : state) {
    benchmark::DoNotOptimize(t::looksLikeKernelModule(text));
    auto m = t::parseKernelModule(text, "line.py");
    benchmark::DoNotOptimize(m);
  }
  finish(state, text.size());
}

void BM_WrapperMarkers(benchmark::State& state) {
  const std::string text = hostile::wrapperMarkers(megabytes(state));
  for (auto _ : state) {
    auto w = t::parseWrapperModule(text, "markers.py");
    benchmark::DoNotOptimize(w);
  }
  finish(state, text.size());
}

void BM_WrapperBuffers(benchmark::State& state) {
  const std::size_t bytes = megabytes(state);
  const std::string text = hostile::wrapperBuffers(static_cast<int>(bytes / 110));
  for (auto _ : state) {
    auto w = t::parseWrapperModule(text, "buffers.py");
    benchmark::DoNotOptimize(w);
  }
  finish(state, text.size());
}

void BM_HugeDecorator(benchmark::State& state) {
  const std::string text = hostile::hugeDecoratorModule(megabytes(state) / 2);
  for (auto _ : state) {
    benchmark::DoNotOptimize(t::looksLikeKernelModule(text));
    auto m = t::parseKernelModule(text, "huge.py");
    benchmark::DoNotOptimize(m);
  }
  finish(state, text.size());
}

void BM_CubinNameBomb(benchmark::State& state) {
  const auto bytes = hostile::sectionNameBombCubin(65535, megabytes(state));
  for (auto _ : state) {
    auto info = t::readCubin(bytes, "bomb.cubin");
    benchmark::DoNotOptimize(info);
  }
  finish(state, bytes.size());
}

}  // namespace

BENCHMARK(BM_DecoratorLine)->Arg(1)->Arg(4)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WrapperMarkers)->Arg(1)->Arg(4)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_WrapperBuffers)->Arg(1)->Arg(4)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_HugeDecorator)->Arg(1)->Arg(4)->Arg(64)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_CubinNameBomb)->Arg(1)->Arg(4)->Arg(64)->Unit(benchmark::kMillisecond);

int main(int argc, char** argv) {
  if (argc >= 3 && std::strcmp(argv[1], "--make-tree") == 0) {
    const int depth = argc >= 4 ? std::atoi(argv[3]) : 100000;
    const std::string error = hostile::makeHostileTree(argv[2], depth);
    if (!error.empty()) {
      std::fprintf(stderr, "hostile_scan_bench: %s\n", error.c_str());
      return 1;
    }
    return 0;
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
