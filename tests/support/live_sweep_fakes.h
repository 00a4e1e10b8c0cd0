// Stand-ins shared by the live-sweep tests that need no GPU: a compiler that "compiles" every config
// to 40 registers, and the small sweep they run.
#pragma once

#include "core/kernels/compile.h"
#include "core/sweep/live_sweep.h"

namespace occx::testing_support {

/// Compiles every config to 40 registers and a 4-byte stand-in cubin; honours the request's cancel.
inline Expected<CompileResult> fakeCompile(const CompileRequest& req) {
  if (req.cancel != nullptr && req.cancel->load()) return Error::cancellation();
  CompileResult r;
  r.kernel_name = req.kernel_name;
  r.arch = req.arch;
  r.compiler = "stand-in 1.0";
  r.report.function = req.kernel_name;
  r.report.registers = 40;
  r.cubin = {1, 2, 3, 4};
  return r;
}

/// sum fp32 on 256 × 4096, grid XBLOCK {1} × RBLOCK {1024, 2048} × num_warps {4, 8}, no Inductor
/// candidates: four configs, in grid order.
inline LiveSweepSpec smallSumSweep() {
  LiveSweepSpec s;
  s.compile.workload = Workload::kSum;
  s.compile.dtype = DType::kF32;
  s.compile.xnumel = 256;
  s.compile.rnumel = 4096;
  s.compile.grid.xblock = {1};
  s.compile.grid.r0_block = {1024, 2048};
  s.compile.grid.num_warps = {4, 8};
  s.compile.inductor_candidates = false;
  s.compile.threads = 2;
  s.toolkit = "stand-in 1.0";
  return s;
}

}  // namespace occx::testing_support
