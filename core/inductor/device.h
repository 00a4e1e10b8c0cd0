// The device as the RBLOCK-scaling decision sees it: an architecture's limits and an SM count.
//
// Source: the architecture limits of resources/gpu_data.json (core/gpu/gpu_data.h) and the SM
// count of a named GPU of that data, or of the driver's device.
#pragma once

#include <string>
#include <string_view>

#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"

namespace occx::inductor {

/// The device as the decision sees it: the architecture's limits (registers per SM, threads per
/// SM, warp size, blocks-per-SM cap, allocation units, from resources/gpu_data.json) and the SM
/// count of the GPU.
struct Device {
  std::string label;  ///< "H200 (CC 9.0, 132 SMs)"
  ArchLimits arch;
  int sm_count = 0;
  bool rocm = false;  ///< an AMD GPU: the current version's gate lets it through regardless of CC

  [[nodiscard]] int registersPerSm() const { return arch.registers_per_sm; }
  [[nodiscard]] int maxThreadsPerSm() const { return arch.maxThreadsPerSm(); }
  [[nodiscard]] int warpSize() const { return arch.warp_size; }
  [[nodiscard]] int maxWarpsPerSm() const { return arch.max_warps_per_sm; }
};

/// A Device from an architecture and an SM count (1 … 1024). Error names the SM count and the
/// range, or an architecture whose registers/threads per SM are not positive.
Expected<Device> makeDevice(const ArchLimits& arch, int sm_count, std::string label = {});
/// A Device for a named GPU of `db` (name or alias); `sm_override` > 0 replaces its SM count.
/// Error names the GPU and the closest known names.
Expected<Device> deviceForGpu(const GpuDatabase& db, std::string_view gpu_name, int sm_override = 0);

}  // namespace occx::inductor
