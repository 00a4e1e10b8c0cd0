// Shared by the GPU tests (tests/cuda/gpu_*_test.cpp, ctest label "gpu"): one GpuSession per test
// process, the skip reason when there is no driver or GPU, and compiling a config for the GPU.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "core/cuda/gpu_session.h"
#include "core/cuda/nvrtc_compiler.h"
#include "core/kernels/family_module.h"
#include "core/kernels/kernel_family.h"
#include "core/sweep/live_sweep.h"
#include "tests/support/arch_support.h"

namespace occx::test {

/// The session on device 0, opened once; nullptr when there is none (then gpuSkipReason() says why).
inline cuda::GpuSession* gpuSession() {
  static std::string reason;
  static std::unique_ptr<cuda::GpuSession> session = [] {
    auto s = cuda::GpuSession::open(0);
    if (!s) {
      reason = s.error();
      return std::unique_ptr<cuda::GpuSession>();
    }
    return std::move(s).value();
  }();
  (void)reason;
  return session.get();
}

inline std::string gpuSkipReason() {
  auto s = cuda::driverStatus();
  if (!s.available) return "no GPU: " + s.reason;
  if (s.device_count == 0) return "no GPU: the driver reports no device";
  return "the GPU session could not be opened";
}

/// Compiles a config for the session's GPU (no disk cache: tests compile fresh).
inline Expected<CompileResult> compileFor(const cuda::GpuSession& session, const GeneratedKernel& kernel) {
  static const cuda::NvrtcCompiler compiler(nullptr);
  CompileRequest req;
  req.source = kernel.source;
  req.kernel_name = kernel.name;
  req.arch = session.device().cc;
  return compiler.compile(req);
}

/// A config of the family, with vector loads when the shape allows them.
inline KernelConfig config(Workload w, DType d, int xblock, int rblock, int warps, std::int64_t rnumel, int k = 1,
                           bool fp32_outputs = false) {
  KernelConfig c = kernelConfig(w, d, xblock, rblock, warps, k);
  c.fp32_outputs = fp32_outputs;
  if (auto l = tileLayout(c)) c.vector_loads = vectorLoadsAllowed(*l, rnumel);
  return c;
}

/// The GPU module of a family kernel on an xnumel × rnumel problem of the kernel's own workload
/// (the module a live sweep would launch). A kernel that does not fit gives an empty module, which
/// the runner refuses with a reason.
inline GpuModule moduleOf(const cuda::GpuSession& session, const GeneratedKernel& kernel,
                          const std::vector<std::uint8_t>& cubin, std::int64_t xnumel, std::int64_t rnumel) {
  ProblemSpec ps;
  ps.workload = kernel.config.workload;
  ps.dtype = kernel.config.dtype;
  ps.k = kernel.config.k;
  ps.fp32_outputs = kernel.config.fp32_outputs;
  ps.xnumel = xnumel;
  ps.rnumel = rnumel;
  auto m = familyModule(kernel, cubin, session.device().cc, ps);
  EXPECT_TRUE(m) << m.error();
  return m ? std::move(m).value() : GpuModule{};
}

/// Fast timing options for tests.
inline RunOptions quickRun() {
  RunOptions o;
  o.min_warmup_runs = 1;
  o.warmup_ms = 1.0;
  o.min_timed_runs = 5;
  o.max_timed_runs = 20;
  o.timed_ms = 2.0;
  return o;
}

}  // namespace occx::test

/// Declares `session` (GpuSession*) or skips the test with the reason.
#define OCCX_REQUIRE_GPU(session)                                 \
  ::occx::cuda::GpuSession* session = ::occx::test::gpuSession(); \
  if (session == nullptr) GTEST_SKIP() << ::occx::test::gpuSkipReason()
