// Occupancy calculator speed: ours against the CUDA Toolkit's cuda_occupancy.h, side by side in one
// run: one calculation and a full three-curve sweep (block size 32…1024, registers 1…255, shared
// memory in unit steps) — the explained path (computeOccupancy, every detail and the reason) and
// the lean path the sweeps use (activeBlocksPerSm, sweep*Into: no strings, no allocations).
// Run: build/release/bench/occupancy_bench   (figures recorded in docs/benchmarks.md)
#include <benchmark/benchmark.h>

#include <vector>

#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"

#if defined(OCCX_HAVE_CUDA_OCCUPANCY_HEADER)
#include <cuda_occupancy.h>
#endif

namespace {

const occx::ArchLimits& hopper() { return *occx::GpuDatabase::builtin().findArch({9, 0}); }

occx::OccupancyInput defaultInput() {
  occx::OccupancyInput in;
  in.threads_per_block = 256;
  in.registers_per_thread = 40;
  in.static_smem_bytes = 4096;
  return in;
}

void BM_Ours_OneCalculation(benchmark::State& state) {
  const auto& a = hopper();
  auto in = defaultInput();
  for (auto _ : state) {
    auto r = occx::computeOccupancy(a, in, false);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Ours_OneCalculation);

void BM_Ours_OneCalculationWithDerivation(benchmark::State& state) {
  const auto& a = hopper();
  auto in = defaultInput();
  for (auto _ : state) {
    auto r = occx::computeOccupancy(a, in, true);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Ours_OneCalculationWithDerivation);

void BM_Ours_ThreeCurveSweep(benchmark::State& state) {
  const auto& a = hopper();
  auto in = defaultInput();
  std::size_t points = 0;
  for (auto _ : state) {
    auto b = occx::sweepBlockSize(a, in);
    auto r = occx::sweepRegisters(a, in);
    auto s = occx::sweepSharedMemory(a, in);
    points = b.size() + r.size() + s.size();
    benchmark::DoNotOptimize(b.data());
    benchmark::DoNotOptimize(r.data());
    benchmark::DoNotOptimize(s.data());
  }
  state.counters["points"] = static_cast<double>(points);
}
BENCHMARK(BM_Ours_ThreeCurveSweep)->Unit(benchmark::kMicrosecond);

void BM_Lean_OneCalculation(benchmark::State& state) {
  const auto& a = hopper();
  auto in = defaultInput();
  benchmark::DoNotOptimize(&in);
  benchmark::ClobberMemory();
  for (auto _ : state) {
    auto r = occx::activeBlocksPerSm(a, in);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();  // as BM_Header_OneCalculationRuntimeProps: inputs reloaded each call
  }
}
BENCHMARK(BM_Lean_OneCalculation);

void BM_Lean_ThreeCurveSweep(benchmark::State& state) {
  const auto& a = hopper();
  auto in = defaultInput();
  std::vector<occx::CurvePoint> b, r, s;  // kept across iterations, as the view keeps its curves
  for (auto _ : state) {
    occx::sweepBlockSizeInto(a, in, b);
    occx::sweepRegistersInto(a, in, r);
    occx::sweepSharedMemoryInto(a, in, s);
    benchmark::DoNotOptimize(b.data());
    benchmark::DoNotOptimize(r.data());
    benchmark::DoNotOptimize(s.data());
  }
  state.counters["points"] = static_cast<double>(b.size() + r.size() + s.size());
}
BENCHMARK(BM_Lean_ThreeCurveSweep)->Unit(benchmark::kMicrosecond);

void BM_Lean_BestBlockSize(benchmark::State& state) {
  const auto& a = hopper();
  auto in = defaultInput();
  in.sm_count = 132;
  for (auto _ : state) {
    auto r = occx::bestBlockSize(a, in);
    benchmark::DoNotOptimize(r);
  }
}
BENCHMARK(BM_Lean_BestBlockSize);

#if defined(OCCX_HAVE_CUDA_OCCUPANCY_HEADER)
struct HeaderSetup {
  cudaOccDeviceProp props;
  cudaOccFuncAttributes attr;
  cudaOccDeviceState state;
  HeaderSetup() {
    const auto& a = hopper();
    props.computeMajor = 9;
    props.computeMinor = 0;
    props.maxThreadsPerBlock = 1024;
    props.maxThreadsPerMultiprocessor = a.maxThreadsPerSm();
    props.regsPerBlock = a.max_registers_per_block;
    props.regsPerMultiprocessor = a.registers_per_sm;
    props.warpSize = 32;
    props.sharedMemPerBlock = static_cast<size_t>(a.shared_memory_per_block);
    props.sharedMemPerMultiprocessor = static_cast<size_t>(a.shared_memory_per_sm);
    props.numSms = 132;
    props.sharedMemPerBlockOptin = static_cast<size_t>(a.shared_memory_per_block_optin);
    props.reservedSharedMemPerBlock = static_cast<size_t>(a.reserved_shared_memory_per_block);
    attr.maxThreadsPerBlock = 1024;
    attr.numRegs = 40;
    attr.sharedSizeBytes = 4096;
    attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
    attr.maxDynamicSharedSizeBytes = static_cast<size_t>(a.shared_memory_per_block_optin);
    attr.numBlockBarriers = 1;
  }
  int blocks(int threads, size_t dynamic) {
    cudaOccResult r{};
    cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props, &attr, &state, threads, dynamic);
    return r.activeBlocksPerMultiprocessor;
  }
};

void BM_Header_OneCalculation(benchmark::State& state) {
  HeaderSetup h;
  for (auto _ : state) benchmark::DoNotOptimize(h.blocks(256, 0));
}
BENCHMARK(BM_Header_OneCalculation);

// The header as a program uses it: the device's properties and the kernel's attributes are run-time
// values (a device query, the GPU data), so the compiler cannot fold the header's arithmetic into
// constants as it can above, where every property is a literal in this file. Ours always works on
// run-time values (the GPU data is parsed at start-up).
void BM_Header_OneCalculationRuntimeProps(benchmark::State& state) {
  HeaderSetup h;
  int threads = 256;
  benchmark::DoNotOptimize(&h);
  benchmark::DoNotOptimize(&threads);
  benchmark::ClobberMemory();
  for (auto _ : state) {
    benchmark::DoNotOptimize(h.blocks(threads, 0));
    benchmark::ClobberMemory();  // h and threads may have changed: reload them, as for run-time values
  }
}
BENCHMARK(BM_Header_OneCalculationRuntimeProps);

void BM_Header_ThreeCurveSweep(benchmark::State& state) {
  HeaderSetup h;
  const auto& a = hopper();
  std::vector<int> out;
  out.reserve(4096);
  for (auto _ : state) {
    out.clear();
    for (int t = 32; t <= 1024; t += 32) out.push_back(h.blocks(t, 0));
    for (int r = 1; r <= 255; ++r) {
      h.attr.numRegs = r;
      out.push_back(h.blocks(256, 0));
    }
    h.attr.numRegs = 40;
    for (std::int64_t s = 4096; s <= a.shared_memory_per_block_optin; s += a.shared_memory_allocation_unit) {
      out.push_back(h.blocks(256, static_cast<size_t>(s - 4096)));
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["points"] = static_cast<double>(out.size());
}
BENCHMARK(BM_Header_ThreeCurveSweep)->Unit(benchmark::kMicrosecond);

// The same sweep with the properties and attributes as run-time values (see
// BM_Header_OneCalculationRuntimeProps): opaque to the compiler at the start of every sweep.
void BM_Header_ThreeCurveSweepRuntimeProps(benchmark::State& state) {
  HeaderSetup h;
  const auto& a = hopper();
  std::vector<int> out;
  out.reserve(4096);
  for (auto _ : state) {
    benchmark::DoNotOptimize(&h);
    benchmark::ClobberMemory();
    out.clear();
    for (int t = 32; t <= 1024; t += 32) out.push_back(h.blocks(t, 0));
    for (int r = 1; r <= 255; ++r) {
      h.attr.numRegs = r;
      out.push_back(h.blocks(256, 0));
    }
    h.attr.numRegs = 40;
    for (std::int64_t s = 4096; s <= a.shared_memory_per_block_optin; s += a.shared_memory_allocation_unit) {
      out.push_back(h.blocks(256, static_cast<size_t>(s - 4096)));
    }
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["points"] = static_cast<double>(out.size());
}
BENCHMARK(BM_Header_ThreeCurveSweepRuntimeProps)->Unit(benchmark::kMicrosecond);

void BM_Header_BestBlockSize(benchmark::State& state) {
  HeaderSetup h;
  for (auto _ : state) {
    int grid = 0, block = 0;
    cudaOccMaxPotentialOccupancyBlockSize(&grid, &block, &h.props, &h.attr, &h.state, 0);
    benchmark::DoNotOptimize(grid);
    benchmark::DoNotOptimize(block);
  }
}
BENCHMARK(BM_Header_BestBlockSize);
#endif

}  // namespace

BENCHMARK_MAIN();
