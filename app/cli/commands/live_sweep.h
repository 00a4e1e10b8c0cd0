// The live branch of `occx sweep`: when a GPU is present (and --no-run is not given), the sweep's
// configs are also run on it, checked and timed. Registers no command of its own: sweep.cpp calls
// runLiveSweepIfGpu and sweeps compile-only when the outcome says to fall back.
#pragma once

#include <atomic>
#include <string>

#include "app/cli/cli.h"
#include "app/cli/options/live_options.h"
#include "app/cli/options/output_options.h"
#include "core/sweep/compile_sweep.h"

namespace occx::cli {

/// Output options shared with the compile-only sweep.
struct SweepOutput {
  OutputOptions format;   ///< --json, --csv FILE
  bool quiet = false;     ///< --quiet: no progress lines
  std::string cache_dir;  ///< compile cache ("" = off)
};

/// What the live branch did.
struct LiveSweepOutcome {
  enum class Kind {
    kRan,       ///< ran live (finished or cancelled): exit_code is the command's
    kStopped,   ///< refused a live option or could not open the GPU: exit_code is the command's
    kFallBack,  ///< no GPU to run on: sweep compile-only; `reason` says why
  };
  Kind kind = Kind::kFallBack;
  int exit_code = kExitOk;  ///< kRan, kStopped: 0 ok, 1 runtime failure or cancelled, 2 bad options
  std::string reason;       ///< kFallBack: e.g. "no GPU to run on (the driver reports no device)"
};

/// Runs the sweep live when the driver sees a GPU whose architecture is the sweep's (spec.device).
/// `cancel` is the Ctrl-C flag: finished rows are kept and written. Prints nothing when it falls
/// back: the caller says why (`reason`) and sweeps compile-only.
LiveSweepOutcome runLiveSweepIfGpu(Context& ctx, const CompileSweepSpec& spec, const LiveSweepOptions& live,
                                   const SweepOutput& output, const std::atomic<bool>* cancel);

}  // namespace occx::cli
