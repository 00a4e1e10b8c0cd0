// A live session on one GPU: the CUDA context lives on one worker thread that this object owns
// (DESIGN.md §3), and every call below is carried out there while the caller waits, so any thread
// (the CLI's main thread, a UI job) may call it. Runs compiled configs of the kernel family on a
// problem's inputs, checks the outputs against the CPU reference, and times them as DESIGN.md §2.4
// says: warm-up, L2 flushed before each timed launch, CUDA events around each launch (and CUPTI
// kernel records where available), median/min/max/spread, bandwidth = minimum bytes / median time.
//
// Failures are values: a launch that fails, a wrong result, or memory that cannot be allocated
// marks that run with the reason. After an error that leaves the context unusable the primary
// context is reset and the problem re-uploaded; where CUDA makes the error fatal to the process
// (an illegal address on current drivers) the session says so (contextLost) instead of crashing.
//
// Plain C++ interface (no CUDA header).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/cuda/device.h"
#include "core/cuda/driver_api.h"
#include "core/base/expected.h"
#include "core/kernels/kernel_family.h"
#include "core/kernels/live_problem.h"
#include "core/sweep/live_results.h"

namespace occx::cuda {

/// How one config is run and timed.
struct RunOptions {
  int min_warmup_runs = 3;     ///< warm-up launches, at least this many …
  double warmup_ms = 10.0;     ///< … and at least this much kernel time
  int min_timed_runs = 25;     ///< timed launches: at least this many …
  int max_timed_runs = 400;    ///< … at most this many …
  double timed_ms = 40.0;      ///< … aiming at this much kernel time in all
  bool flush_l2 = true;        ///< clear L2 (memset of 2 × L2 bytes) before every timed launch
  bool check = true;           ///< poison outputs, run once, compare with the CPU reference
  bool cupti_activity = true;  ///< also collect CUPTI kernel records (duration in ns)
  bool cupti_metrics = false;  ///< also replay once under the CUPTI range profiler for metrics
  int check_threads = 0;       ///< host threads for the check (0 = hardware)
};

/// Outcome of running one config.
struct RunOutcome {
  RunStatus status = RunStatus::kSkipped;
  std::string reason;                    ///< why not ok; notes for ok runs
  FunctionAttributes attributes;         ///< cuFuncGetAttribute of the loaded kernel
  int driver_active_blocks_per_sm = -1;  ///< cuOccupancyMaxActiveBlocksPerMultiprocessor
  std::int64_t grid_blocks = 0;
  bool checked = false;
  OutputCheck check;
  TimingStats time;                      ///< CUDA events, microseconds
  std::optional<TimingStats> kernel_time;///< CUPTI kernel records, microseconds
  int warmup_runs = 0;
  double bandwidth_GBps = 0.0;           ///< problem bytes / time.median_us
  Metric achieved_occupancy_pct = Metric::missing("not collected");
  Metric dram_read_bytes = Metric::missing("not collected");
  Metric dram_write_bytes = Metric::missing("not collected");
  Metric local_load_bytes = Metric::missing("not collected");
  Metric local_store_bytes = Metric::missing("not collected");
  bool context_reset = false;            ///< the context was reset after this run's error
};

class GpuSession {
 public:
  /// Opens device `ordinal`: starts the worker thread, retains the device's primary context on it,
  /// creates a stream, timing events and the L2-flush buffer. Errors: no driver (the driver's
  /// reason), ordinal out of range (named with the device count), or a failing driver call.
  static Expected<std::unique_ptr<GpuSession>> open(int ordinal = 0);
  ~GpuSession();
  GpuSession(const GpuSession&) = delete;
  GpuSession& operator=(const GpuSession&) = delete;

  [[nodiscard]] const DeviceInfo& device() const;

  /// Measures the device-to-device copy bandwidth: a copy of `bytes` (rounded down to 4 bytes,
  /// 1 MiB … 16 GiB) between two buffers, 3 warm-up copies, then `runs` timed copies with events;
  /// GB/s = 2 × bytes (read + written) / median time. Errors: out of range, out of memory, driver.
  Expected<CopyBandwidth> measureCopyBandwidth(std::int64_t bytes = std::int64_t{2} << 30, int runs = 20);

  /// The copy bandwidth from the per-user cache (by device UUID and driver version), or measured
  /// now and stored there (a cache that cannot be written is not an error). `refresh` measures
  /// again whatever the cache holds.
  Expected<CopyBandwidth> copyBandwidth(bool refresh = false);

  /// Uploads a problem's inputs and allocates its outputs; replaces the previous problem (its
  /// memory is freed first). Errors: out of device memory ("out of memory: …" naming the bytes) or a
  /// driver failure; the session stays usable.
  std::optional<Error> setProblem(std::shared_ptr<const HostProblem> problem);

  /// Runs one compiled config of the kernel family on the current problem: checkShape, module load,
  /// launch with poisoned outputs, check, warm-up, timed launches. `cubin` is the module for this
  /// device's architecture; `kernel` gives the entry point and parameter list (its launch contract).
  /// `cancel` (may be null) is read between phases: a cancelled run returns kCancelled and records
  /// nothing half. Never throws.
  RunOutcome run(const GeneratedKernel& kernel, const std::vector<std::uint8_t>& cubin, const RunOptions& options,
                 const std::atomic<bool>* cancel = nullptr);

  /// Device allocations beyond this many bytes in total fail as out of memory (0 = no limit); keeps
  /// headroom on a shared GPU, and lets tests exercise the out-of-memory path.
  void setDeviceMemoryLimit(std::int64_t bytes);

  /// How many times the context was reset after a sticky error.
  [[nodiscard]] int contextResets() const;

  /// Empty while the GPU is usable. After an error that CUDA makes fatal to the process (an illegal
  /// address, say: the driver keeps returning it even after the primary context is reset), the
  /// reason; every later run and setProblem then fail with it at once, and only a new process can
  /// use the GPU again.
  [[nodiscard]] std::string contextLost() const;

  /// The driver's version string from /proc/driver/nvidia/version ("580.159.04"), or the CUDA
  /// version the driver supports ("CUDA 13.0") when that file is absent.
  [[nodiscard]] std::string driverVersionText() const;

 private:
  GpuSession();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace occx::cuda
