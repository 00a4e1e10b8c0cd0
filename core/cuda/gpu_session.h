// The GpuRunner of core/cuda (core/sweep/gpu_runner.h): a live session on one GPU. The CUDA
// context lives on one worker thread that this object owns, and every call below is carried out there
// while the caller waits, so any thread (the CLI's main thread, a UI job) may call it. Runs GPU
// modules (core/gpu/gpu_module.h) on a problem's inputs, checks the outputs against the CPU
// reference (a family problem) or against the first config's outputs (a buffer problem,
// core/sweep/buffer_problem.h), and times them: warm-up, L2 flushed before each timed launch, CUDA events around each
// launch (and CUPTI kernel records where available), median/min/max/spread, bandwidth = the
// problem's minimum bytes moved / median time.
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

#include "core/base/expected.h"
#include "core/cuda/device.h"
#include "core/cuda/driver_api.h"
#include "core/kernels/live_problem.h"
#include "core/sweep/buffer_problem.h"
#include "core/sweep/gpu_runner.h"

namespace occx::cuda {

class GpuSession final : public GpuRunner {
 public:
  /// Opens device `ordinal`: turns CUPTI's kernel records on (before any context exists in the
  /// process: records enabled on a live context arrive late or not at all, seen on driver 580),
  /// starts the worker thread, retains the device's primary context on it,
  /// creates a stream, timing events and the L2-flush buffer. Errors: no driver (the driver's
  /// reason), ordinal out of range (named with the device count), or a failing driver call.
  static Expected<std::unique_ptr<GpuSession>> open(int ordinal = 0);
  ~GpuSession();
  GpuSession(const GpuSession&) = delete;
  GpuSession& operator=(const GpuSession&) = delete;

  [[nodiscard]] const DeviceInfo& device() const override;

  /// Measures the device-to-device copy bandwidth: a copy of `bytes` (rounded down to 4 bytes,
  /// 1 MiB … 16 GiB) between two buffers, 3 warm-up copies, then `runs` timed copies with events;
  /// GB/s = 2 × bytes (read + written) / median time. Errors: out of range, out of memory, driver.
  Expected<CopyBandwidth> measureCopyBandwidth(std::int64_t bytes = std::int64_t{2} << 30, int runs = 20);

  /// The copy bandwidth from the per-user cache (by device UUID and driver version), or measured
  /// now and stored there (a cache that cannot be written is not an error). `refresh` measures
  /// again whatever the cache holds.
  Expected<CopyBandwidth> copyBandwidth(bool refresh = false) override;

  /// Uploads a problem's inputs and allocates its outputs; replaces the previous problem (its
  /// memory is freed first); null frees it. Errors: out of device memory ("out of memory: …" naming
  /// the bytes) or a driver failure; the session stays usable.
  std::optional<Error> setProblem(std::shared_ptr<const HostProblem> problem);
  /// Builds the problem (makeHostProblem, on the calling thread) and uploads it as above. Errors:
  /// makeHostProblem's, then as above.
  std::optional<Error> setProblem(const ProblemSpec& spec) override;
  /// Uploads a buffer problem (inputs and in-outs copied from their initial contents, outputs
  /// allocated) in place of the previous problem of either kind (its memory freed first, its
  /// reference dropped); null frees it. Device inputs and outputs are then numbered as
  /// BufferProblemSpec::inputIndices() / outputIndices() for launch arguments kInput i / kOutput i.
  /// Errors: out of device memory ("out of memory: …" naming the buffer and the bytes) or a driver
  /// failure; the session stays usable.
  std::optional<Error> setBufferProblem(std::shared_ptr<const HostBuffers> buffers);
  /// Builds the initial contents (makeHostBuffers, on the calling thread) and uploads them as above.
  /// Errors: checkBufferProblemSpec's, then as above.
  std::optional<Error> setBufferProblem(const BufferProblemSpec& spec) override;
  /// Frees the problem's device memory. Error: the context was lost.
  std::optional<Error> clearProblem() override;

  /// Runs one module on the current problem: module load, launch with poisoned outputs (and, for a
  /// buffer problem, in-out buffers restored to their initial contents), check, warm-up, timed
  /// launches. A family problem's outputs are checked against the CPU reference; a buffer
  /// problem's against the outputs of the first run whose outputs were written (kept on the host;
  /// that run's check.compared_with says "nothing: these outputs are the reference"). Bandwidth:
  /// the problem's minimum bytes moved (BufferProblemSpec::bytesMoved()) / median time. The module's arguments must
  /// name existing input/output buffers of the problem. `cancel` (may be null) is read between phases: a cancelled run
  /// returns kCancelled and records nothing half. Never throws.
  RunOutcome run(const GpuModule& module, const RunOptions& options,
                 const std::atomic<bool>* cancel = nullptr) override;

  /// Device allocations beyond this many bytes in total fail as out of memory (0 = no limit); keeps
  /// headroom on a shared GPU, and lets tests exercise the out-of-memory path.
  void setDeviceMemoryLimit(std::int64_t bytes);

  /// How many times the context was reset after a sticky error.
  [[nodiscard]] int contextResets() const;

  /// Empty while the GPU is usable. After an error that CUDA makes fatal to the process (an illegal
  /// address, say: the driver keeps returning it even after the primary context is reset), the
  /// reason; every later run and setProblem then fail with it at once, and only a new process can
  /// use the GPU again.
  [[nodiscard]] std::string contextLost() const override;

  /// The driver's version string from /proc/driver/nvidia/version ("580.159.04"), or the CUDA
  /// version the driver supports ("CUDA 13.0") when that file is absent.
  [[nodiscard]] std::string driverVersionText() const override;

 private:
  GpuSession();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace occx::cuda
