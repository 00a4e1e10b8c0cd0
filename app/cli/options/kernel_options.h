// The kernel options shared by `occx compile` and `occx sweep`: the target architecture (--arch /
// --gpu / --sms), the kernel (--workload / --dtype / --k) and the compile cache (--cache-dir /
// --no-cache); lists of integers (--xblocks 1,2,4 or 256-8192).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/base/expected.h"
#include "core/gpu/device.h"
#include "core/kernels/kernel_family.h"
#include "core/sweep/backend.h"

namespace occx {
class CompileCache;
}

namespace occx::cli {

/// --arch sm_90 | --gpu NAME, with --sms to override the SM count the RBLOCK decisions use.
struct ArchOptions {
  std::string arch;
  std::string gpu;
  int sms = 0;
  void add(CLI::App& app);
};

/// The device the kernel is compiled and judged for. With --gpu: that GPU (its CC and SM count);
/// with --arch only: that architecture's limits and the SM count of the first GPU of the data with
/// that CC (`note` says which), or --sms; with neither: `default_gpu` (defaultGpuName). Errors
/// (usage, exit 2) name the option and the allowed values.
Expected<Device> resolveArch(const ArchOptions& o, const std::string& default_gpu, std::string& note);

/// --workload, --dtype, --k.
struct WorkloadOptions {
  std::string workload = "sum";
  std::string dtype = "fp32";
  int k = 1;
  void add(CLI::App& app);
};

/// The parsed workload and dtype; errors name the option and the allowed values.
struct ParsedWorkload {
  Workload workload = Workload::kSum;
  DType dtype = DType::kF32;
  int k = 1;
};
Expected<ParsedWorkload> parseWorkloadOptions(const WorkloadOptions& o);

/// The device and the kernel a compiling command works on: resolveArch, then parseWorkloadOptions.
struct KernelTarget {
  Device device;
  ParsedWorkload work;
  std::string note;  ///< resolveArch's note ("" when there is nothing to say)
};
Expected<KernelTarget> resolveKernelTarget(const ArchOptions& arch, const WorkloadOptions& work,
                                           const std::string& default_gpu);

/// Empty when `backend`'s compiler compiles for `cc`; else the usage error naming --arch, the
/// compiler's version and the architectures it offers. Call only when the backend can compile.
std::string uncompilableArchError(const Backend& backend, const ComputeCapability& cc);

/// --cache-dir DIR | --no-cache (default: the user's cache folder).
struct CacheOptions {
  std::string dir;
  bool disabled = false;
  void add(CLI::App& app);
  /// The folder to use; empty when caching is off (or no home folder is known).
  [[nodiscard]] std::string directory() const;
};

/// Prints one line per damaged compile-cache entry met so far (CompileCache::corruptEntries), to
/// `err`: "<cmd>: compile cache: damaged entry PATH (REASON): recompiled and replaced" (or why it
/// was not replaced).
void reportCorruptCacheEntries(std::ostream& err, const std::string& cmd, const CompileCache& cache);

/// Parses a comma-separated list of integers ("1,2,4" or "256-8192" for the powers of two between).
/// Error names the option and the offending text.
Expected<std::vector<int>> parseIntList(const std::string& option, const std::string& text);

}  // namespace occx::cli
