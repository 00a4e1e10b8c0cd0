// Checked driver calls for the live-run code (internal to core/cuda): every CUresult is checked and
// a failure becomes an Error naming the call, the driver's error name and text, and file:line.
#pragma once

#include <cuda.h>

#include <string>

#include "core/base/expected.h"
#include "core/cuda/cuda_driver_table.h"

namespace occx::cuda {

/// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)": the driver's name and description of a result code.
std::string cuResultText(CUresult result);

/// True for errors after which the context is unusable (a kernel fault, an illegal address, a
/// launch failure, …): it must be reset before the next call works.
bool isStickyError(CUresult result);

/// An Error naming the failing call and where it was made, e.g.
/// "cuMemAlloc(&p, bytes) failed: CUDA_ERROR_OUT_OF_MEMORY (out of memory) [gpu_session.cpp:120]".
Error cuCallError(CUresult result, const char* call, const char* file, int line);

/// The loaded driver table, or the reason it is unavailable.
Expected<const detail::DriverTable*> loadedDriver();

}  // namespace occx::cuda

/// Evaluates `drv.call` (drv is a DriverTable); on failure returns an occx::Error (converts into any
/// Expected<T>) naming the call text, the result and file:line.
#define OCCX_CU_TRY(drv, call)                                                      \
  do {                                                                              \
    const CUresult occx_cu_result_ = (drv).call;                                    \
    if (occx_cu_result_ != CUDA_SUCCESS) {                                          \
      return ::occx::cuda::cuCallError(occx_cu_result_, #call, __FILE__, __LINE__); \
    }                                                                               \
  } while (0)
