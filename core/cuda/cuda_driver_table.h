// The CUDA driver API loaded at run time (dlopen("libcuda.so.1")), never linked: a program linked
// against libcuda does not start where no NVIDIA driver is installed. Internal to core/cuda (it
// includes <cuda.h> for the types only); other code uses core/cuda/driver_api.h.
#pragma once

#include <string>

#include <cuda.h>

namespace occx::cuda::detail {

/// Entry points, named after the driver's functions (the versioned symbol is resolved, e.g.
/// cuDevicePrimaryCtxRelease_v2). All non-null when `loaded`, except those marked optional.
struct DriverTable {
  bool loaded = false;
  std::string error;  ///< why the driver is unavailable (when !loaded)
  decltype(&::cuInit) cuInit = nullptr;
  decltype(&::cuDriverGetVersion) cuDriverGetVersion = nullptr;
  decltype(&::cuGetErrorString) cuGetErrorString = nullptr;
  decltype(&::cuDeviceGetCount) cuDeviceGetCount = nullptr;
  decltype(&::cuDeviceGet) cuDeviceGet = nullptr;
  decltype(&::cuDeviceGetName) cuDeviceGetName = nullptr;
  decltype(&::cuDeviceGetAttribute) cuDeviceGetAttribute = nullptr;
  decltype(&::cuDevicePrimaryCtxRetain) cuDevicePrimaryCtxRetain = nullptr;
  decltype(&::cuDevicePrimaryCtxRelease) cuDevicePrimaryCtxRelease = nullptr;
  decltype(&::cuCtxGetCurrent) cuCtxGetCurrent = nullptr;
  decltype(&::cuCtxSetCurrent) cuCtxSetCurrent = nullptr;
  decltype(&::cuModuleLoadData) cuModuleLoadData = nullptr;
  decltype(&::cuModuleUnload) cuModuleUnload = nullptr;
  decltype(&::cuModuleGetFunction) cuModuleGetFunction = nullptr;
  decltype(&::cuFuncGetAttribute) cuFuncGetAttribute = nullptr;
  decltype(&::cuFuncSetAttribute) cuFuncSetAttribute = nullptr;
  // Live runs (core/cuda/gpu_session.cpp): device queries, memory, launches, events.
  decltype(&::cuGetErrorName) cuGetErrorName = nullptr;
  decltype(&::cuDeviceTotalMem) cuDeviceTotalMem = nullptr;
  decltype(&::cuDeviceGetUuid) cuDeviceGetUuid = nullptr;
  decltype(&::cuDevicePrimaryCtxReset) cuDevicePrimaryCtxReset = nullptr;
  decltype(&::cuCtxSynchronize) cuCtxSynchronize = nullptr;
  decltype(&::cuOccupancyMaxActiveBlocksPerMultiprocessor) cuOccupancyMaxActiveBlocksPerMultiprocessor = nullptr;
  decltype(&::cuLaunchKernel) cuLaunchKernel = nullptr;
  decltype(&::cuMemGetInfo) cuMemGetInfo = nullptr;
  decltype(&::cuMemAlloc) cuMemAlloc = nullptr;
  decltype(&::cuMemFree) cuMemFree = nullptr;
  decltype(&::cuMemcpyHtoD) cuMemcpyHtoD = nullptr;
  decltype(&::cuMemcpyDtoH) cuMemcpyDtoH = nullptr;
  decltype(&::cuMemcpyDtoDAsync) cuMemcpyDtoDAsync = nullptr;
  decltype(&::cuMemsetD8) cuMemsetD8 = nullptr;
  decltype(&::cuMemsetD32Async) cuMemsetD32Async = nullptr;
  decltype(&::cuStreamCreate) cuStreamCreate = nullptr;
  decltype(&::cuStreamDestroy) cuStreamDestroy = nullptr;
  decltype(&::cuStreamSynchronize) cuStreamSynchronize = nullptr;
  decltype(&::cuEventCreate) cuEventCreate = nullptr;
  decltype(&::cuEventDestroy) cuEventDestroy = nullptr;
  decltype(&::cuEventRecord) cuEventRecord = nullptr;
  decltype(&::cuEventSynchronize) cuEventSynchronize = nullptr;
  decltype(&::cuEventElapsedTime) cuEventElapsedTime = nullptr;
  // Optional (null when the driver lacks them; their users say so): cluster occupancy (CUDA 12.0+).
  decltype(&::cuOccupancyMaxActiveClusters) cuOccupancyMaxActiveClusters = nullptr;
  decltype(&::cuOccupancyMaxPotentialClusterSize) cuOccupancyMaxPotentialClusterSize = nullptr;
  decltype(&::cuOccupancyMaxPotentialBlockSize) cuOccupancyMaxPotentialBlockSize = nullptr;
};

/// The table, loaded once (thread-safe) and then cached. cuInit(0) has been called when loaded;
/// a driver that loads but fails cuInit (e.g. no device, or a driver older than the toolkit) is
/// reported as unavailable with the driver's error text.
const DriverTable& driverTable();

/// "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)" for a driver result.
std::string driverErrorText(const DriverTable& t, CUresult r);

}  // namespace occx::cuda::detail
