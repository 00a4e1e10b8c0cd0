// A GPU as the driver reported it (name, compute capability, SM count, limits, memory clocks),
// matched to the GPU data, the device the RBLOCK decision sees for it, and its measured copy
// bandwidth (the roofline of every live run) with the per-user cache of that figure.
//
// Plain C++: filled by core/cuda (driver API) on a machine with a GPU, read everywhere else.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/device.h"
#include "core/gpu/gpu_data.h"

namespace occx {

/// One GPU as the driver reports it (cuDeviceGetAttribute). Units: bytes, kHz, bits.
struct DeviceInfo {
  int ordinal = 0;   ///< CUdevice ordinal, 0 … count-1
  std::string name;  ///< cuDeviceGetName, e.g. "NVIDIA H200"
  std::string uuid;  ///< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx"
  ComputeCapability cc;
  int sm_count = 0;
  int registers_per_sm = 0;
  int registers_per_block = 0;
  int max_threads_per_sm = 0;
  int max_threads_per_block = 0;
  int max_blocks_per_sm = 0;
  int warp_size = 0;
  std::int64_t shared_memory_per_sm = 0;
  std::int64_t shared_memory_per_block = 0;
  std::int64_t shared_memory_per_block_optin = 0;
  std::int64_t reserved_shared_memory_per_block = 0;
  std::int64_t l2_bytes = 0;
  std::int64_t total_memory_bytes = 0;
  int memory_clock_khz = 0;  ///< peak memory clock (0 when the driver does not report it)
  int memory_bus_bits = 0;   ///< global memory bus width
  int sm_clock_khz = 0;      ///< peak SM clock (0 when not reported)
  int driver_version = 0;    ///< e.g. 13000 for a driver supporting CUDA 13.0

  /// Name of the matching GpuSpec in the GPU data (empty when none matched), see matchGpu.
  std::string matched_gpu;
  /// Differences between the driver's figures and the GPU data, one line each
  /// ("SMs: device 132, data 114"); empty when everything agrees or nothing matched.
  std::vector<std::string> data_mismatches;

  /// Theoretical DRAM bandwidth in GB/s (10^9 B/s): 2 transfers per clock (DDR) × memory clock ×
  /// bus width / 8. 0 when the driver reports no memory clock or bus width.
  [[nodiscard]] double theoreticalBandwidthGBps() const;
  /// "NVIDIA H200 (CC 9.0, 132 SMs)"
  [[nodiscard]] std::string label() const;
  /// "13.0" from driver_version.
  [[nodiscard]] std::string driverCudaVersion() const;
};

/// Finds the GpuSpec of a device in `db`: the name with a leading "NVIDIA " / "Tesla " removed and
/// with every suffix word dropped in turn ("NVIDIA H100 80GB HBM3" → "H100 80GB HBM3", "H100 80GB",
/// "H100"), accepting a candidate only with the same compute capability; among several, the one
/// whose SM count equals `sm_count` wins. nullptr when none matches. Pure function (no driver).
const GpuSpec* matchGpu(const GpuDatabase& db, std::string_view device_name, ComputeCapability cc, int sm_count);

/// Compares the driver's figures with the matched GPU and its architecture in `db` (SM count, L2,
/// registers per SM and block, threads per SM, blocks per SM, shared memory per SM and per block
/// opt-in, reserved shared memory) and fills info.matched_gpu and info.data_mismatches.
void matchToData(DeviceInfo& info, const GpuDatabase& db);

/// The device for the Inductor decision: the architecture limits of its CC from `db`, with the
/// driver's own registers/threads/blocks per SM, and its SM count. Errors: CC not in the data.
Expected<Device> policyDevice(const DeviceInfo& info, const GpuDatabase& db = GpuDatabase::builtin());

/// The measured device-to-device copy bandwidth of one device.
struct CopyBandwidth {
  double GBps = 0.0;       ///< (bytes read + bytes written) / median time, 10^9 B/s
  double median_us = 0.0;  ///< median time of one copy
  double min_us = 0.0;
  double max_us = 0.0;
  std::int64_t bytes_per_copy = 0;  ///< bytes copied per run (each is read once and written once)
  int runs = 0;
  std::string device_name;
  std::string uuid;
  int driver_version = 0;
  std::string measured_at;  ///< UTC date and time, ISO 8601
  bool from_cache = false;
};

/// The folder for per-user cached data (userCacheDirectory(): $XDG_CACHE_HOME or
/// $HOME/.cache, then occupancy-explorer), created when missing. Error when neither variable is set
/// or the folder cannot be created.
Expected<std::string> userCacheDir();

/// Reads the cached copy bandwidth of a device (by UUID and driver version) from
/// `<cache_dir>/copy_bandwidth.json`. nullopt when absent, unreadable, or measured under another
/// driver version.
std::optional<CopyBandwidth> loadCachedCopyBandwidth(const std::string& cache_dir, const DeviceInfo& device);

/// Stores a measurement in `<cache_dir>/copy_bandwidth.json` (other devices' entries kept), written
/// atomically. Error names the file and the reason.
std::optional<Error> storeCachedCopyBandwidth(const std::string& cache_dir, const CopyBandwidth& bw);

}  // namespace occx
