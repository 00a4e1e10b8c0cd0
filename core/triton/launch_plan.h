// How to launch an Inductor kernel's compiled Triton configs from C++: the buffers and scalars of
// one launch (from the wrapper's call() when a wrapper launches the kernel, else from the
// signature and the size hints — the plan says which), and per compiled config the GPU module
// (core/gpu/gpu_module.h) that a GpuRunner loads: the cubin, the grid from inductor_meta's
// grid_type, num_warps × 32 threads, the dynamic shared memory Triton recorded, and the
// parameters in Triton's order — the signature's non-constexpr arguments, then the global- and
// profile-scratch pointers.
//
// Source of the launch contract: Triton 3.6's third_party/nvidia/backend/driver.py and driver.c
// (parameters, scratch buffers of grid × num_ctas × size bytes, the opt-in attribute above
// 48 KiB), Inductor's grid classes in torch/_inductor/runtime/triton_heuristics.py (Grid1D:
// ceil(xnumel / XBLOCK); Grid2D adds ceil(ynumel / YBLOCK); MixOrderReductionGrid: ceil(xnumel /
// RSPLIT_SIZE); Grid3D, Grid2DWithYZOverflow, CooperativeReductionGrid, SplitScanGrid, FixedGrid,
// PrecomputedGrid and the combo-kernel grids are refused, each with why),
// checked on an H200 against Triton's own launches. The argument list is checked against the
// `.ptx` entry's parameters before anything is launched.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/gpu_module.h"
#include "core/sweep/buffer_problem.h"
#include "core/triton/inductor_run.h"

namespace occx::triton {

/// One non-constexpr argument of the kernel's signature, bound for the launch.
struct PlannedArgument {
  enum class Kind { kBuffer, kInt32, kInt64, kFloat32 };
  std::string name;  ///< the signature's name ("in_ptr0", "xnumel")
  std::string type;  ///< the signature's type ("*fp16", "i32", "fp32")
  Kind kind = Kind::kInt32;
  int buffer = -1;         ///< kBuffer: index into LaunchPlan::problem.buffers
  std::int64_t value = 0;  ///< kInt32 / kInt64: the value; kFloat32: its IEEE-754 bit pattern
  std::string origin;      ///< where the value or the buffer's size came from, in words
};

/// Everything one launch of a kernel needs apart from the config.
struct LaunchPlan {
  std::string kernel;
  BufferProblemSpec problem;               ///< one buffer per pointer argument, in signature order
  std::vector<PlannedArgument> arguments;  ///< the signature's non-constexpr arguments, in order
  bool from_wrapper = false;               ///< buffers from a wrapper's call(); else signature + size hints
  std::string buffers_from;  ///< "the wrapper's call() (output_code.py line 95)" or "the signature and size hints (…)"
  std::int64_t xnumel = 1;   ///< what the grid covers in x …
  std::int64_t ynumel = 0;   ///< … in y (Grid2D; 0 = none)
  std::vector<std::string> notes;  ///< what was assumed, in words
};

/// Plans one launch of `kernel`. The first wrapper launch of the kernel whose buffers all have
/// integer sizes and strides gives the buffers (storage elements = 1 + Σ (size − 1) · stride,
/// element type from the signature) and the scalar values; without one, every pointer gets
/// xnumel × r0_numel elements (xnumel × ynumel for 2-D pointwise tiles) with numels from the
/// kernel body, else the size hints (noted: a hint is the numel rounded up to a power of two).
/// Roles: in_out_ptr* and mutated arguments are in-out, out_ptr* and ws_ptr (a mix-order reduction's
/// workspace of partial sums) outputs, the rest inputs.
/// A wrapper tensor whose dtype differs in size from the signature's element type gets the
/// signature's elements that cover its bytes. Errors, naming the argument: a kernel kind that is not
/// a Triton kernel Inductor launches on a grid (other decorators), a signature type this launcher
/// does not pass (scalars other than i32, i64, fp32; fp8 buffers), a dynamic size without a value,
/// Grid2D without a known ynumel, a buffer over 2^31 − 1 elements.
Expected<LaunchPlan> planLaunch(const RunKernel& kernel, std::uint64_t seed = 1);

/// The GPU module of one compiled config: reads the config's Triton cache folder again (cubin,
/// JSON, .ptx), checks the .ptx entry's parameters against the plan (count and widths: pointers
/// .u64/.b64, i32 4 bytes, i64 8 bytes, fp32 .f32/.b32, then two .u64 scratch pointers) and the
/// grid type, and builds the module. Errors, in words a user can act on: no cubin in the folder, an
/// unsupported grid type (Grid1D, Grid2D and MixOrderReductionGrid are supported; the others are named
/// with why), RSPLIT_SIZE not a multiple of XBLOCK, num_ctas other than 1 (clusters are not
/// launched), the .ptx's parameters do not match (both lists named), the grid out of range.
Expected<GpuModule> tritonModule(const RunKernel& kernel, const RunConfig& config, const LaunchPlan& plan);

}  // namespace occx::triton
