// The device as the engine's decisions see it: an architecture's limits and an SM count, with the
// one label every face of the program shows for it ("H200 (CC 9.0, 132 SMs)"), and the one
// resolver that turns a GPU of the data into a device.
//
// Source: the architecture limits and named GPUs of resources/gpu_data.json (core/gpu/gpu_data.h);
// core/cuda builds the same type from the driver's own figures (policyDevice).
#pragma once

#include <string>
#include <string_view>

#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"

namespace occx {

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

/// The label of a device: "<name> (CC <major.minor>, <sm_count> SMs)", e.g. "H200 (CC 9.0, 132 SMs)"
/// or, with the driver's name, "NVIDIA H200 (CC 9.0, 132 SMs)". `name` is used as given (a GPU of the
/// data or the driver's name); with no name (a bare compute capability) it is "CC 9.0, 132 SMs", and
/// a name that is only the compute capability ("CC 9.0") is not repeated either. Never fails.
std::string deviceLabel(std::string_view name, ComputeCapability cc, int sm_count);

/// A Device from an architecture and an SM count (1 … 1024). Error names the SM count and the
/// range, or an architecture whose registers/threads per SM are not positive. An empty `label`
/// becomes "CC 9.0, 132 SMs".
Expected<Device> makeDevice(const ArchLimits& arch, int sm_count, std::string label = {});

/// The Device of `gpu`, a GPU of `db`: its architecture's limits, its SM count (`sm_override` > 0
/// replaces it) and deviceLabel(gpu.name, …). Errors: the GPU's compute capability is not in `db`,
/// or makeDevice's (SM count outside 1 … 1024).
Expected<Device> deviceForGpu(const GpuDatabase& db, const GpuSpec& gpu, int sm_override = 0);
/// The Device of the GPU `db` knows as `gpu_name` (name or alias, as GpuDatabase::findGpu matches);
/// otherwise as deviceForGpu(db, gpu, sm_override). Error for an unknown name: "GPU 'X' is not
/// known" followed by closestGpuNamesClause.
Expected<Device> deviceForGpu(const GpuDatabase& db, std::string_view gpu_name, int sm_override = 0);

/// ": closest names are A, B, C" — up to three known names of `db` nearest to `name` (edit
/// distance, GpuDatabase::closestGpuNames) — or "" when `db` has none. For messages about unknown
/// GPU names.
std::string closestGpuNamesClause(const GpuDatabase& db, std::string_view name);

}  // namespace occx
