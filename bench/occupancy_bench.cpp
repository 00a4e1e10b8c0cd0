// Occupancy calculator speed: ours against the CUDA Toolkit's cuda_occupancy.h, side by side in one
// run: one calculation and a full three-curve sweep (block size 32…1024, registers 1…255, shared
// memory in unit steps) — the explained path (computeOccupancy, every detail and the reason) and
// the lean path the sweeps use (LeanLimits, activeBlocksPerSm, sweep*Into: no strings, no
// allocations). Pairs give ours and the header the same information: the device at run time, or
// every device limit a literal (LiteralHopper); the launch inputs reloaded at every call.
// Every lean and header benchmark is [[gnu::flatten]]: GCC inlines the header's static inline
// functions into the loop whatever the number of callers in this file (without it GCC stops
// inlining cudaOccMaxActiveBlocksPerMultiprocessor once several benchmarks call it).
// Run: build/release/bench/occupancy_bench --benchmark_repetitions=10 --benchmark_report_aggregates_only=true
// (figures recorded in docs/benchmarks.md)
#include <benchmark/benchmark.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"
#include "tests/support/literal_hopper.h"

#if defined(OCCX_HAVE_CUDA_OCCUPANCY_HEADER)
#include <cuda_occupancy.h>
#endif

namespace {

const occx::ArchLimits& hopper() {
  return *occx::GpuDatabase::builtin().findArch({9, 0});
}

using occx::testing_support::kLiteralHopper;
using occx::testing_support::kLiteralHopperLean;
using occx::testing_support::LiteralHopper;

bool literalHopperMatchesData() {
  return occx::testing_support::literalHopperMatches(hopper());
}

// False (and the benchmark skipped with an error) when the literals no longer match the data.
bool checkLiteralHopper(benchmark::State& state) {
  if (literalHopperMatchesData()) return true;
  state.SkipWithError("the literal CC 9.0 limits differ from resources/gpu_data.json: update LiteralHopper");
  return false;
}

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
    auto b = occx::blockSizeCurve(a, in);
    auto r = occx::registersCurve(a, in);
    auto s = occx::sharedMemoryCurve(a, in);
    points = b.size() + r.size() + s.size();
    benchmark::DoNotOptimize(b.data());
    benchmark::DoNotOptimize(r.data());
    benchmark::DoNotOptimize(s.data());
  }
  state.counters["points"] = static_cast<double>(points);
}
BENCHMARK(BM_Ours_ThreeCurveSweep)->Unit(benchmark::kMicrosecond);

// The lean path as the sweeps run it: the limits prepared once from the GPU data (run-time values),
// the launch inputs reloaded at every call (they may have changed). Compare with
// BM_Header_OneCalculationRuntimeProps.
[[gnu::flatten]] void BM_Lean_OneCalculation(benchmark::State& state) {
  occx::LeanLimits lean(hopper());
  auto in = defaultInput();
  benchmark::DoNotOptimize(&lean);
  benchmark::DoNotOptimize(&in);
  benchmark::ClobberMemory();
  for (auto _ : state) {
    auto r = occx::activeBlocksPerSm(lean, in);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();  // lean and in may have changed: reload them, as for run-time values
  }
}
BENCHMARK(BM_Lean_OneCalculation);

// The lean path given what BM_Header_OneCalculation knows, set up as it is: the launch inputs
// literal; of the device, literal what the header derives from its literal compute capability (warp
// size, block maximum, allocation units and granularity, blocks per SM, register maximum, carveout
// sizes, barriers) and read from the GPU data what firstMeasuredProps() reads from it (warps,
// registers and shared memory per SM and per block, the opt-in maximum, the reserved bytes), once,
// into a local object before the loop, as HeaderSetup's props.
[[gnu::flatten]] void BM_Lean_OneCalculationAsFirstMeasured(benchmark::State& state) {
  if (!checkLiteralHopper(state)) return;
  const auto& a = hopper();
  LiteralHopper mixed = kLiteralHopper;
  mixed.max_warps_per_sm = a.max_warps_per_sm;
  mixed.registers_per_sm = a.registers_per_sm;
  mixed.max_registers_per_block = a.max_registers_per_block;
  mixed.shared_memory_per_sm = a.shared_memory_per_sm;
  mixed.shared_memory_per_block = a.shared_memory_per_block;
  mixed.shared_memory_per_block_optin = a.shared_memory_per_block_optin;
  mixed.reserved_shared_memory_per_block = a.reserved_shared_memory_per_block;
  const occx::LeanLimits lean(mixed);
  constexpr occx::OccupancyInput in{.threads_per_block = 256, .registers_per_thread = 40, .static_smem_bytes = 4096};
  for (auto _ : state) benchmark::DoNotOptimize(occx::activeBlocksPerSm(lean, in));
}
BENCHMARK(BM_Lean_OneCalculationAsFirstMeasured);

// The same code with CC 9.0's limits known to the compiler (a constexpr LeanLimits from the literals
// above), the launch inputs still reloaded at every call. Compare with
// BM_Header_OneCalculationLiteralProps.
[[gnu::flatten]] void BM_Lean_OneCalculationLiteralLimits(benchmark::State& state) {
  if (!checkLiteralHopper(state)) return;
  auto in = defaultInput();
  benchmark::DoNotOptimize(&in);
  benchmark::ClobberMemory();
  for (auto _ : state) {
    auto r = occx::activeBlocksPerSm(kLiteralHopperLean, in);
    benchmark::DoNotOptimize(r);
    benchmark::ClobberMemory();  // in may have changed: reload it
  }
}
BENCHMARK(BM_Lean_OneCalculationLiteralLimits);

[[gnu::flatten]] void BM_Lean_ThreeCurveSweep(benchmark::State& state) {
  const auto& a = hopper();
  auto in = defaultInput();
  std::vector<occx::CurvePoint> b, r, s;  // kept across iterations, as the view keeps its curves
  for (auto _ : state) {
    occx::blockSizeCurveInto(a, in, b);
    occx::registersCurveInto(a, in, r);
    occx::sharedMemoryCurveInto(a, in, s);
    benchmark::DoNotOptimize(b.data());
    benchmark::DoNotOptimize(r.data());
    benchmark::DoNotOptimize(s.data());
  }
  state.counters["points"] = static_cast<double>(b.size() + r.size() + s.size());
}
BENCHMARK(BM_Lean_ThreeCurveSweep)->Unit(benchmark::kMicrosecond);

// The same sweeps with CC 9.0's limits known to the compiler (the constexpr LeanLimits).
[[gnu::flatten]] void BM_Lean_ThreeCurveSweepLiteralLimits(benchmark::State& state) {
  if (!checkLiteralHopper(state)) return;
  auto in = defaultInput();
  std::vector<occx::CurvePoint> b, r, s;
  for (auto _ : state) {
    occx::blockSizeCurveInto(kLiteralHopperLean, in, b);
    occx::registersCurveInto(kLiteralHopperLean, in, r);
    occx::sharedMemoryCurveInto(kLiteralHopperLean, in, s);
    benchmark::DoNotOptimize(b.data());
    benchmark::DoNotOptimize(r.data());
    benchmark::DoNotOptimize(s.data());
  }
  state.counters["points"] = static_cast<double>(b.size() + r.size() + s.size());
}
BENCHMARK(BM_Lean_ThreeCurveSweepLiteralLimits)->Unit(benchmark::kMicrosecond);

[[gnu::flatten]] void BM_Lean_BestBlockSize(benchmark::State& state) {
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
// The device properties from the literals above (checked against the data), the kernel's
// attributes for defaultInput().
cudaOccDeviceProp literalHopperProps() {
  const auto& l = kLiteralHopper;
  cudaOccDeviceProp props;
  props.computeMajor = l.cc.major;
  props.computeMinor = l.cc.minor;
  props.maxThreadsPerBlock = l.max_threads_per_block;
  props.maxThreadsPerMultiprocessor = l.max_warps_per_sm * l.warp_size;
  props.regsPerBlock = l.max_registers_per_block;
  props.regsPerMultiprocessor = l.registers_per_sm;
  props.warpSize = l.warp_size;
  props.sharedMemPerBlock = static_cast<size_t>(l.shared_memory_per_block);
  props.sharedMemPerMultiprocessor = static_cast<size_t>(l.shared_memory_per_sm);
  props.numSms = 132;
  props.sharedMemPerBlockOptin = static_cast<size_t>(l.shared_memory_per_block_optin);
  props.reservedSharedMemPerBlock = static_cast<size_t>(l.reserved_shared_memory_per_block);
  return props;
}

cudaOccFuncAttributes defaultAttributes() {
  cudaOccFuncAttributes attr;
  attr.maxThreadsPerBlock = 1024;
  attr.numRegs = 40;
  attr.sharedSizeBytes = 4096;
  attr.shmemLimitConfig = FUNC_SHMEM_LIMIT_OPTIN;
  attr.maxDynamicSharedSizeBytes = static_cast<size_t>(kLiteralHopper.shared_memory_per_block_optin);
  attr.numBlockBarriers = 1;
  return attr;
}

// The properties as this benchmark first set them: the compute capability, warp size and block
// maximum literal, the rest read from the GPU data (run-time values).
cudaOccDeviceProp firstMeasuredProps() {
  const auto& a = hopper();
  cudaOccDeviceProp props;
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
  return props;
}

struct HeaderSetup {
  explicit HeaderSetup(const cudaOccDeviceProp& p) : props(p) {}
  cudaOccDeviceProp props;
  cudaOccFuncAttributes attr = defaultAttributes();
  cudaOccDeviceState state;
  int blocks(int threads, size_t dynamic) {
    cudaOccResult r{};
    cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props, &attr, &state, threads, dynamic);
    return r.activeBlocksPerMultiprocessor;
  }
};

// The header as this benchmark first measured it (the first figure): the attributes and the block
// size literal, the properties partly (firstMeasuredProps). Not a like-for-like pair for any of ours:
// with every property literal as well the compiler folds the whole call into a constant.
[[gnu::flatten]] void BM_Header_OneCalculation(benchmark::State& state) {
  HeaderSetup h(firstMeasuredProps());
  for (auto _ : state) benchmark::DoNotOptimize(h.blocks(256, 0));
}
BENCHMARK(BM_Header_OneCalculation);

// Properties literal (the compiler knows the device), the launch inputs — the kernel's attributes,
// block size and dynamic shared memory — reloaded at every call: the header's side of
// BM_Lean_OneCalculationLiteralLimits.
[[gnu::flatten]] void BM_Header_OneCalculationLiteralProps(benchmark::State& state) {
  if (!checkLiteralHopper(state)) return;
  const cudaOccDeviceProp props = literalHopperProps();
  cudaOccFuncAttributes attr = defaultAttributes();
  cudaOccDeviceState devState;
  int threads = 256;
  size_t dynamic = 0;
  benchmark::DoNotOptimize(&attr);
  benchmark::DoNotOptimize(&devState);
  benchmark::DoNotOptimize(&threads);
  benchmark::DoNotOptimize(&dynamic);
  benchmark::ClobberMemory();
  for (auto _ : state) {
    cudaOccResult r{};
    cudaOccMaxActiveBlocksPerMultiprocessor(&r, &props, &attr, &devState, threads, dynamic);
    benchmark::DoNotOptimize(r.activeBlocksPerMultiprocessor);
    benchmark::ClobberMemory();  // attr, devState, threads and dynamic may have changed: reload them
  }
}
BENCHMARK(BM_Header_OneCalculationLiteralProps);

// The header as a program uses it: the device's properties and the kernel's attributes are run-time
// values (a device query, the GPU data), so the compiler cannot fold the header's arithmetic into
// constants as it can above, where every property is a literal in this file. Ours always works on
// run-time values (the GPU data is parsed at start-up).
[[gnu::flatten]] void BM_Header_OneCalculationRuntimeProps(benchmark::State& state) {
  HeaderSetup h(firstMeasuredProps());
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

// The sweep as this benchmark first measured it (the first figure): properties as in
// BM_Header_OneCalculation.
[[gnu::flatten]] void BM_Header_ThreeCurveSweep(benchmark::State& state) {
  HeaderSetup h(firstMeasuredProps());
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

// Every property literal (the compiler knows the device): the header's side of
// BM_Lean_ThreeCurveSweepLiteralLimits.
[[gnu::flatten]] void BM_Header_ThreeCurveSweepLiteralProps(benchmark::State& state) {
  if (!checkLiteralHopper(state)) return;
  HeaderSetup h(literalHopperProps());
  const auto& a = kLiteralHopper;
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
BENCHMARK(BM_Header_ThreeCurveSweepLiteralProps)->Unit(benchmark::kMicrosecond);

// The same sweep with the properties and attributes as run-time values (see
// BM_Header_OneCalculationRuntimeProps): opaque to the compiler at the start of every sweep.
[[gnu::flatten]] void BM_Header_ThreeCurveSweepRuntimeProps(benchmark::State& state) {
  HeaderSetup h(firstMeasuredProps());
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

[[gnu::flatten]] void BM_Header_BestBlockSize(benchmark::State& state) {
  HeaderSetup h(firstMeasuredProps());
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
