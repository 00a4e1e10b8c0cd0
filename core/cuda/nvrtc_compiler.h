// NVRTC: compile CUDA C++ source to a cubin for any architecture NVRTC supports (no GPU and no
// driver needed), read registers/spills/shared memory from ptxas's verbose report, with an optional
// content-addressed disk cache. CUDA-free header.
#pragma once

#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"
#include "core/kernels/compile.h"
#include "core/kernels/compile_cache.h"

namespace occx::cuda {

/// "NVRTC 13.0" (nvrtcVersion). Part of every cache key.
std::string nvrtcVersionString();

/// Real architectures NVRTC can compile a cubin for (nvrtcGetSupportedArchs), ascending, e.g.
/// 7.5, 8.0, 8.6, 8.7, 8.8, 8.9, 9.0, 10.0, 10.3, 11.0, 12.0, 12.1 for NVRTC 13.0.
std::vector<ComputeCapability> nvrtcSupportedArchitectures();

/// The architectures the CLI and the GUI offer: those NVRTC supports that the GPU data also knows
/// (occupancy needs the data's limits). Ascending.
std::vector<ComputeCapability> offeredArchitectures(const GpuDatabase& db);

/// Compiles with NVRTC. Thread-safe: each compile is its own NVRTC program; several may run at once.
class NvrtcCompiler {
 public:
  /// `cache` may be null (no caching); it must outlive the compiler.
  explicit NvrtcCompiler(CompileCache* cache = nullptr) : cache_(cache) {}

  /// The options a request compiles with: -arch=sm_XY (a cubin), --ptxas-options=-v (the report),
  /// -std=c++17, --no-cache (NVRTC must not take a cubin from the driver's cache: that skips ptxas and
  /// its report), then --maxrregcount=N when set, then the request's extra options.
  static std::vector<std::string> optionsFor(const CompileRequest& request);

  /// Compiles (or reads the cache). Errors, as values: an architecture NVRTC does not support (the
  /// message lists the supported ones), maxrregcount outside 0 … 255, an NVRTC failure (the message
  /// names the NVRTC result and holds the compiler's full log, e.g. an unknown option or a syntax
  /// error), a report without the kernel's register line, or "cancelled".
  [[nodiscard]] Expected<CompileResult> compile(const CompileRequest& request) const;

  /// compile() as a CompileFunction (for the sweeps in core). The compiler must outlive it.
  [[nodiscard]] CompileFunction function() const;

  [[nodiscard]] CompileCache* cache() const { return cache_; }

 private:
  CompileCache* cache_;
};

}  // namespace occx::cuda
