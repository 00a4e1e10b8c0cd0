// The options only live runs use (`occx sweep` on a GPU of the target's architecture): --device,
// --seed, --metrics/--no-metrics, --refresh-bandwidth, --repeat, --timed-ms, --no-l2-flush.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

namespace occx::cli {

struct LiveSweepOptions {
  int device = 0;          ///< --device: CUDA device ordinal
  std::uint64_t seed = 1;  ///< --seed: random inputs
  bool metrics = true;  ///< --metrics / --no-metrics: CUPTI metrics per config (achieved occupancy, DRAM, local memory)
  bool refresh_bandwidth = false;  ///< --refresh-bandwidth
  int repeat = 0;                  ///< --repeat N: re-time the best config and each pick N times
  double timed_ms = 40.0;          ///< --timed-ms: kernel time to aim at per config
  bool no_flush = false;           ///< --no-l2-flush

  void add(CLI::App& cmd);
  /// Empty when --repeat and --timed-ms are in range; else the error, naming the option and the
  /// allowed range (--device is checked against the devices the driver sees, when it is asked).
  [[nodiscard]] std::string rangeError() const;
};

}  // namespace occx::cli
