// A prepared GPU module: a compiled kernel image (cubin) for one architecture plus everything needed
// to launch it — entry point, grid, block, dynamic shared memory and the arguments in parameter
// order. The built-in kernel family's NVRTC output becomes one (core/kernels/family_module.h), and so
// can any other compiled kernel whose parameter list is known (e.g. a Triton cubin). A GpuRunner
// (core/sweep/gpu_runner.h) loads, checks and times it.
//
// Plain C++: no CUDA types.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu/gpu_data.h"

namespace occx {

/// What one kernel parameter is bound to at launch.
struct LaunchArgument {
  enum class Kind {
    kInput,    ///< device pointer to the problem's input buffer `buffer` (8 bytes)
    kOutput,   ///< device pointer to the problem's output buffer `buffer` (8 bytes)
    kInt32,    ///< a 32-bit integer `value`
    kInt64,    ///< a 64-bit integer `value`
    kScratch,  ///< a device pointer to scratch memory of `scratch_bytes` per block; 0 bytes = a null pointer
  };
  Kind kind = Kind::kInt32;
  int buffer = 0;                  ///< kInput / kOutput: index into the problem's inputs / outputs
  std::int64_t value = 0;          ///< kInt32 / kInt64
  std::int64_t scratch_bytes = 0;  ///< kScratch: bytes per block of the grid
  std::string name;                ///< the parameter's name in the kernel ("in0", "xnumel"), for messages
};

/// A compiled kernel and how to launch it. Grid and block sizes in blocks and threads; shared
/// memory in bytes.
struct GpuModule {
  std::string entry;                ///< the entry point (extern "C" name) in `cubin`
  std::string label;                ///< how messages name the config, e.g. "sum fp32 XBLOCK=1 RBLOCK=1024 num_warps=4"
  ComputeCapability arch;           ///< the architecture `cubin` was compiled for
  std::vector<std::uint8_t> cubin;  ///< the module image (cubin, or PTX text with a trailing NUL)
  std::int64_t grid_x = 1;          ///< blocks in x (1 … 2^31-1)
  std::int64_t grid_y = 1;          ///< blocks in y (1 … 65535)
  std::int64_t grid_z = 1;          ///< blocks in z (1 … 65535)
  int block_threads = 32;           ///< threads per block in x (1 … 1024)
  std::int64_t dynamic_smem_bytes = 0;    ///< dynamic shared memory per block; above 48 KiB the runner opts in
  std::vector<LaunchArgument> arguments;  ///< in the entry point's parameter order

  /// Blocks in the whole grid (grid_x · grid_y · grid_z).
  [[nodiscard]] std::int64_t gridBlocks() const { return grid_x * grid_y * grid_z; }
};

/// What the driver says about a loaded kernel (cuFuncGetAttribute); -1 where not asked or not known.
struct FunctionAttributes {
  int registers = -1;              ///< CU_FUNC_ATTRIBUTE_NUM_REGS
  int local_bytes = -1;            ///< CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES (per thread)
  int static_smem_bytes = -1;      ///< CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES
  int max_threads_per_block = -1;  ///< CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK
};

}  // namespace occx
