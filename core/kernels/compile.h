// What compiling a kernel asks and reports, independent of the compiler (NVRTC lives in core/cuda),
// and the parser of the compiler's verbose report (ptxas -v), so the engine and its tests stay
// CUDA-free.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"
#include "core/gpu/gpu_module.h"

namespace occx {

/// One compile: CUDA C++ source with an extern "C" entry point, for one architecture.
struct CompileRequest {
  std::string source;
  std::string kernel_name;                    ///< the entry point whose report is read
  ComputeCapability arch;                     ///< compiled to a cubin for sm_<major><minor>
  int maxrregcount = 0;                       ///< register cap per thread (--maxrregcount); 0 = none
  std::vector<std::string> extra_options;     ///< appended to the compiler options as given
  const std::atomic<bool>* cancel = nullptr;  ///< when set to true, a running compile stops early
};

/// The compiler's verbose report for one entry function (ptxas -v). Sizes in bytes per thread
/// (stack, spills) or per block (shared memory); -1 where the report has no figure.
struct PtxasReport {
  std::string function;        ///< entry function name as reported
  std::string arch;            ///< "sm_90"
  int registers = -1;          ///< registers per thread ("Used N registers")
  int spill_stores_bytes = 0;  ///< "N bytes spill stores"
  int spill_loads_bytes = 0;   ///< "N bytes spill loads"
  int stack_frame_bytes = 0;   ///< "N bytes stack frame": local memory per thread
  int static_smem_bytes = 0;   ///< "N bytes smem": static shared memory per block
  int constant_bytes = 0;      ///< "N bytes cmem[0]": kernel parameters and constants bank 0
  int barriers = 0;            ///< "used N barriers"

  /// Triton's n_spills for the same kernel: local memory bytes per thread / 4 (Triton reads
  /// CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES and divides by 4); what Inductor's spill filter compares.
  [[nodiscard]] int nSpills() const { return stack_frame_bytes / 4; }
  [[nodiscard]] bool spills() const { return spill_stores_bytes > 0 || spill_loads_bytes > 0; }
};

/// Parses the report of entry function `kernel_name` (empty: the first entry function) out of a
/// compiler log. Accepts the formats of CUDA 11 … 13 ptxas ("Used 40 registers, used 1 barriers,
/// 8 bytes cumulative stack size, 384 bytes smem, 400 bytes cmem[0]"; the stack/spill line with or
/// without the "ptxas ." prefix). Errors: no "Compiling entry function" line for the name (the
/// message lists the functions found), or no "Used N registers" line (was -v given?).
Expected<PtxasReport> parsePtxasReport(std::string_view log, std::string_view kernel_name = {});

/// A successful compile: the report, the cubin and how it was obtained.
struct CompileResult {
  std::string kernel_name;
  ComputeCapability arch;
  PtxasReport report;
  std::string log;                   ///< the compiler's full log (report, warnings)
  std::vector<std::uint8_t> cubin;   ///< the compiled module, loadable with cuModuleLoadData
  std::vector<std::string> options;  ///< the options the compiler was given
  std::string compiler;              ///< "NVRTC 13.0"
  double compile_ms = 0.0;           ///< wall time of the compile that produced it (not of a cache read)
  bool cache_hit = false;            ///< read from the disk cache
  /// Set when the cache held a damaged entry for this request (first report only): "PATH (REASON):
  /// recompiled and replaced", or why the new entry could not be written.
  std::string cache_repair;
};

/// A compiler as the engine sees it: returns the result, or an Error whose message holds the
/// compiler's log (compile errors are values, never exceptions); a compile stopped by the request's
/// cancel flag returns Error::cancellation(). Must be callable from several threads at once.
using CompileFunction = std::function<Expected<CompileResult>(const CompileRequest&)>;

/// The driver's view of a compiled kernel beside the compiler's report: the module loaded on a GPU
/// of its architecture, its registers, local memory (stack frame) and static shared memory read
/// with cuFuncGetAttribute (Backend::crossCheck).
struct CrossCheck {
  enum class State { kSkipped, kAgrees, kDisagrees, kFailed };
  State state = State::kSkipped;
  std::string note;  ///< why skipped/failed, or "device 0 (NVIDIA H200): 40 registers, as reported"
  int device = -1;   ///< the device used
  FunctionAttributes attributes;
};

/// "skipped", "agrees", "DISAGREES", "failed".
std::string crossCheckStateName(CrossCheck::State state);

}  // namespace occx
