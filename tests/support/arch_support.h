// Builders the engine's tests share: the architectures and GPUs of the built-in GPU data, and the
// engine's inputs (occupancy inputs, kernel-family configs, reduction configs and kernel facts,
// live problems) written as one call. A missing architecture or GPU fails the calling test.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string_view>

#include "core/gpu/device.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/config.h"
#include "core/kernels/kernel_family.h"
#include "core/kernels/live_problem.h"
#include "core/occupancy/occupancy.h"

namespace occx::test {

/// The built-in data's limits of compute capability major.minor; a failed expectation when the data
/// has none (the reference is then not to be used: the test has failed).
inline const ArchLimits& builtinArch(int major, int minor) {
  const ArchLimits* a = GpuDatabase::builtin().findArch({major, minor});
  EXPECT_NE(a, nullptr) << "no architecture " << major << "." << minor << " in the built-in GPU data";
  return *a;
}

/// The Device of a GPU of the built-in data (deviceForGpu: name or alias; `sms` > 0 replaces its SM
/// count); a failed expectation and an empty Device when it cannot be made.
inline Device gpu(std::string_view name, int sms = 0) {
  auto d = deviceForGpu(GpuDatabase::builtin(), name, sms);
  EXPECT_TRUE(d.hasValue()) << d.error();
  return d.hasValue() ? d.value() : Device{};
}

/// An occupancy input: block size, registers per thread, static and dynamic shared memory (bytes),
/// carveout (-1: the runtime's choice) and block barriers; no grid, no SM count.
inline OccupancyInput occupancyInput(int threads, int regs, std::int64_t static_smem = 0, std::int64_t dynamic_smem = 0,
                                     int carveout = -1, int barriers = 1) {
  OccupancyInput in;
  in.threads_per_block = threads;
  in.registers_per_thread = regs;
  in.static_smem_bytes = static_smem;
  in.dynamic_smem_bytes = dynamic_smem;
  in.carveout_percent = carveout;
  in.block_barriers = barriers;
  return in;
}

/// A config of the kernel family; everything else (vector loads on, no register cap, outputs in the
/// input dtype) as KernelConfig's defaults.
inline KernelConfig kernelConfig(Workload w, DType d, int xblock, int rblock, int num_warps, int k = 1) {
  KernelConfig c;
  c.workload = w;
  c.dtype = d;
  c.xblock = xblock;
  c.rblock = rblock;
  c.num_warps = num_warps;
  c.k = k;
  return c;
}

/// A reduction config with its compiled register count (none = unknown), one stage, no shared memory.
inline inductor::ReductionConfig reductionConfig(int xblock, int r0_block, int num_warps, std::optional<int> n_regs,
                                                 int r1_block = 0) {
  inductor::ReductionConfig c;
  c.xblock = xblock;
  c.r0_block = r0_block;
  c.r1_block = r1_block;
  c.num_warps = num_warps;
  c.n_regs = n_regs;
  return c;
}

/// Kernel facts with size hint x = `size_hint_x` and r0 = 8192, every gate open.
inline inductor::KernelInfo kernelX(std::int64_t size_hint_x) {
  inductor::KernelInfo k;
  k.size_hints.x = size_hint_x;
  k.size_hints.r0 = 8192;
  return k;
}

/// A live problem of xnumel × rnumel; seed and output dtype as ProblemSpec's defaults.
inline ProblemSpec problemSpec(Workload w, DType d, std::int64_t xnumel, std::int64_t rnumel, int k = 1) {
  ProblemSpec s;
  s.workload = w;
  s.dtype = d;
  s.k = k;
  s.xnumel = xnumel;
  s.rnumel = rnumel;
  return s;
}

}  // namespace occx::test
