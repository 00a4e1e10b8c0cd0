// Occupancy calculator speed: ours against the CUDA Toolkit's cuda_occupancy.h, one calculation and
// a full three-curve sweep (block size 32…1024, registers 1…255, shared memory in unit steps).
// Run: build/bench/occupancy_bench   (figures recorded in docs/benchmarks.md)
#include <benchmark/benchmark.h>

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
#endif

}  // namespace

BENCHMARK_MAIN();
