// GPUs found through the driver API (core/cuda/driver_api.h), matched to the GPU data
// (core/gpu/detected_gpu.h holds the plain description and the matching).
//
// Plain C++ interface: no CUDA header is needed to use it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/detected_gpu.h"
#include "core/gpu/device.h"
#include "core/gpu/gpu_data.h"

namespace occx::cuda {

/// Every GPU the driver sees, matched to `db`. Errors: the driver is missing or fails to initialise
/// (the driver's reason, as driverStatus() gives it), or a query fails. An empty list is possible (driver present, no
/// GPU).
Expected<std::vector<DeviceInfo>> queryDevices(const GpuDatabase& db = GpuDatabase::builtin());

/// The GPU-data name of the first detected GPU (for the CLI's and the GUI's default device), or
/// nullopt when there is no driver, no GPU, or the GPU matches no entry of `db`. Queries the driver
/// once per process and caches the answer.
std::optional<std::string> detectedGpuName(const GpuDatabase& db = GpuDatabase::builtin());

}  // namespace occx::cuda
