// CUPTI for live runs (internal to core/cuda), optional at run time: libcupti is opened with dlopen
// (it ships with the CUDA Toolkit; nothing links it), and every failure becomes a reason that the
// tables show as "unavailable: <reason>" while the run itself succeeds.
//
// * Activity records: kernel start/end timestamps in ns for the timed launches.
// * Range profiler metrics for one launch, replayed once per pass: achieved occupancy, DRAM bytes
//   read and written, local-memory (spill) load and store bytes. Needs permission to read the GPU's
//   performance counters (root, or the driver's NVreg_RestrictProfilingToAdminUsers=0).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/sweep/live_results.h"

namespace occx::cuda::cupti {

/// Loads libcupti once (the toolkit's library folder is found from NVRTC's location, then
/// CUDA_HOME / CUDA_PATH, /usr/local/cuda, then the loader's path) and registers the activity
/// buffers. Error: why CUPTI cannot be used ("libcupti.so.13 not found: …").
Expected<bool> available();

/// One kernel execution as CUPTI recorded it.
struct KernelSpan {
  std::string name;  ///< as CUPTI names it; can be a previously unloaded kernel's (see endKernelActivity)
  std::uint64_t start_ns = 0;
  std::uint64_t end_ns = 0;
  std::int64_t grid_x = 0, grid_y = 0, grid_z = 0;  ///< blocks
  int block_x = 0;                                  ///< threads per block in x
  /// True when the record is of a launch with this grid and block.
  [[nodiscard]] bool launched(std::int64_t gx, std::int64_t gy, std::int64_t gz, int bx) const {
    return grid_x == gx && grid_y == gy && grid_z == gz && block_x == bx;
  }
  [[nodiscard]] double durationUs() const { return static_cast<double>(end_ns - start_ns) / 1000.0; }
};

/// Turns kernel activity recording on (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), once per process and
/// left on. Call it before the process creates its first CUDA context: enabled on a live context,
/// CUPTI on driver 580 delivered some kernels' records one config late and others never (measured
/// on an H200: 2 of 8 kernels lost all 50 records; none lost when enabled first). Error: CUPTI
/// unavailable or the enable call failed (named with CUPTI's result text).
Expected<bool> startKernelActivity();

/// Starts recording kernel activity (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL; enabled on the first
/// call and left on) and forgets earlier records. Error: CUPTI
/// unavailable or the enable call failed (named with CUPTI's result text).
Expected<bool> beginKernelActivity();

/// Which records endKernelActivity waits for: launches of this grid and block.
struct LaunchShape {
  std::int64_t grid_x = 1, grid_y = 1, grid_z = 1;
  int block_x = 1;
};

/// Flushes (recording stays on); returns the kernels recorded since beginKernelActivity (records
/// of launches that started earlier, by CUPTI's clock, are dropped), in completion order. CUPTI delivers records
/// asynchronously: when `expected` > 0 it flushes again (for up to half a second) until `expected` records of launches
/// shaped `shape` have arrived. Records are matched by launch shape, not name: after a module is unloaded and another
/// loaded, CUPTI (13.0, driver 580) named some kernels' records after the unloaded kernel (measured on an H200). Error
/// as beginKernelActivity.
Expected<std::vector<KernelSpan>> endKernelActivity(const LaunchShape& shape, std::size_t expected);

/// Metrics of one kernel launch.
struct LaunchMetrics {
  Metric achieved_occupancy_pct = Metric::missing("not collected");
  Metric dram_read_bytes = Metric::missing("not collected");
  Metric dram_write_bytes = Metric::missing("not collected");
  Metric local_load_bytes = Metric::missing("not collected");
  Metric local_store_bytes = Metric::missing("not collected");
};

/// Profiles one launch with the range profiler (user replay: `launch` is called once per pass and
/// must launch the kernel and wait for it, returning the driver's result). `ctx` is current on the
/// calling thread; `device_ordinal` names its device. Every failure (not permitted, unsupported
/// device, a CUPTI error) gives metrics that are all missing with the reason; never throws.
LaunchMetrics profileLaunch(CUcontext ctx, int device_ordinal, const std::function<CUresult()>& launch);

}  // namespace occx::cuda::cupti
