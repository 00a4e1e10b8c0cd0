// The CUDA driver as the rest of the program sees it: whether it is there, and the register
// cross-check of a compiled kernel with cuFuncGetAttribute. CUDA-free header; the driver is loaded
// at run time and everything here degrades to "skipped, because …" without it.
#pragma once

#include <string>

#include "core/gpu/gpu_module.h"
#include "core/kernels/compile.h"

namespace occx::cuda {

/// Whether the driver API can be used here.
struct DriverStatus {
  bool available = false;
  std::string reason;      ///< when unavailable: "libcuda.so.1 cannot be loaded: " + the loader's reason (the
                           ///< library named once; callers add "no driver: "), or the cuInit error
  int driver_version = 0;  ///< e.g. 13000 for 13.0 (cuDriverGetVersion); 0 when unavailable
  int device_count = 0;
};

/// Loads the driver once (dlopen("libcuda.so.1"), cuInit(0)) and reports. Never fails, never throws.
DriverStatus driverStatus();

/// Loads `result.cubin` on the first device whose compute capability equals `result.arch` (a cubin
/// runs only there) and compares registers, local memory (stack frame) and static shared memory
/// with the compiler's report. Skipped, with the reason, when the driver is unavailable or no device
/// of that architecture is present; kFailed when the driver rejects the module. Uses the device's
/// primary context and restores the calling thread's current context afterwards.
occx::CrossCheck crossCheckWithDriver(const CompileResult& result);

}  // namespace occx::cuda
