// Measured rows kept between sweeps, so that a second sweep of the same kernels resumes where the
// first stopped and a changed method measures again: one kernel-runs CSV per (device, driver,
// kernel module hash, seed, measurement method) in a folder of the user's (default
// ~/.cache/occupancy-explorer/sweeps), each row one config. Written atomically after each kernel; a
// damaged or foreign file is ignored (and replaced on the next store).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/sweep/gpu_runner.h"
#include "core/triton/kernel_measurements.h"

namespace occx::triton {

/// What a cached measurement depends on.
struct SweepCacheKey {
  std::string device;  ///< "NVIDIA H200"
  std::string driver;  ///< "580.159.04"
  std::string module;  ///< the kernel module's hash
  std::uint64_t seed = 1;
  std::string method;  ///< sweepMethodKey of the run options
};

/// The measurement method in words, as the cache keys it: every RunOptions field that changes a
/// time, e.g. "warm-up 3 runs/10 ms; timed 25-400 runs/40 ms; L2 flushed; warm; checked; CUPTI".
std::string sweepMethodKey(const RunOptions& options);

class SweepCache {
 public:
  /// A cache in `dir` (created on the first store).
  explicit SweepCache(std::string dir);

  /// ~/.cache/occupancy-explorer/sweeps ($XDG_CACHE_HOME/occupancy-explorer/sweeps when set).
  static std::string defaultDir();

  /// The rows stored for `key` (any kernel of the module), each with its measurement; empty when
  /// none, or when the file is damaged or holds another key.
  [[nodiscard]] std::vector<MeasuredConfig> load(const SweepCacheKey& key) const;
  /// Adds `rows` that ran (status ok or a failure of the config itself, not skipped or cancelled)
  /// to the file of `key`, replacing rows of the same config. Errors: the folder or file cannot
  /// be written (the old file stays whole).
  Expected<int> store(const SweepCacheKey& key, const std::vector<MeasuredConfig>& rows) const;
  /// The file of `key`.
  [[nodiscard]] std::string pathOf(const SweepCacheKey& key) const;

  [[nodiscard]] const std::string& dir() const { return dir_; }

 private:
  std::string dir_;
};

}  // namespace occx::triton
