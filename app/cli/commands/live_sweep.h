// The live branch of `occx sweep`: when a GPU is present (and --no-run is not given), the sweep's
// configs are also run on it, checked and timed (core/sweep/live_sweep.h). Kept apart from
// cmd_sweep.cpp, which calls addLiveSweepOptions and runLiveSweepIfGpu.
#pragma once

#include <atomic>
#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli/cli.h"
#include "core/sweep/compile_sweep.h"

namespace occx::cli {

/// Options only live runs use.
struct LiveSweepOptions {
  int device = 0;              ///< --device: CUDA device ordinal
  std::uint64_t seed = 1;      ///< --seed: random inputs
  bool metrics = false;        ///< --metrics: CUPTI metrics per config (achieved occupancy, DRAM, local memory)
  bool refresh_bandwidth = false;  ///< --refresh-bandwidth
  int repeat = 0;              ///< --repeat N: re-time the best config and each pick N times
  double timed_ms = 40.0;      ///< --timed-ms: kernel time to aim at per config
  bool no_flush = false;       ///< --no-l2-flush
};

/// Adds --device, --seed, --metrics, --refresh-bandwidth, --repeat, --timed-ms, --no-l2-flush.
void addLiveSweepOptions(CLI::App& cmd, LiveSweepOptions& o);

/// Output options shared with the compile-only sweep.
struct SweepOutput {
  std::string csv;
  bool json = false;
  bool quiet = false;
  std::string cache_dir;  ///< compile cache ("" = off)
};

/// Runs the sweep live when the driver sees a GPU whose architecture is the sweep's (spec.device):
/// returns the exit code (0 ok, 1 runtime failure or cancelled, 2 bad options). Returns nullopt
/// when there is no GPU to run on, after printing why to ctx.err, so the caller sweeps compile-only.
/// `cancel` is the Ctrl-C flag: finished rows are kept and written.
std::optional<int> runLiveSweepIfGpu(Context& ctx, const CompileSweepSpec& spec, const LiveSweepOptions& live,
                                     const SweepOutput& output, const std::atomic<bool>* cancel);

}  // namespace occx::cli
