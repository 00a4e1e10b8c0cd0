// The occx command line: subcommands register themselves (see CommandRegistrar) and run through
// runCli, which the occx executable and the tests call.
#pragma once

#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

#include "app/cli/options/target_options.h"
#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"
#include "core/sweep/backend.h"

namespace occx::cli {

/// Exit codes: 0 success, 1 runtime failure, 2 bad arguments (the message names the argument and
/// the allowed range).
inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

/// Shared state of one invocation: output streams, the GPU backend main() picked (compiler, GPUs,
/// runs) and the action the chosen subcommand set.
struct Context {
  std::ostream& out;
  std::ostream& err;
  Backend& backend;
  std::function<int()> action;  ///< set by the subcommand's callback; returns the exit code
};

/// One subcommand: `order` sorts the help listing; `add` defines options and sets ctx.action.
struct CommandSpec {
  const char* name;
  int order;
  void (*add)(CLI::App& app, Context& ctx);
};

/// Makes `run(ctx, *opts)` the action of `cmd`, taken when the user picks that command (runCli
/// calls it after parsing, so `opts` holds the parsed options).
template <typename Opts, typename Run>
void setAction(CLI::App& cmd, Context& ctx, std::shared_ptr<Opts> opts, Run run) {
  cmd.callback([&ctx, opts, run] { ctx.action = [&ctx, opts, run]() -> int { return run(ctx, *opts); }; });
}

/// Registers a subcommand at static-initialisation time. Use once per commands/*.cpp:
///   static const CommandRegistrar kReg{{"occupancy", 10, &addOccupancyCommand}};
struct CommandRegistrar {
  explicit CommandRegistrar(CommandSpec spec);
};

/// Parses argv, runs the chosen subcommand on `backend` (app::buildBackend() in the occx program),
/// returns the exit code: 0 success, 2 bad arguments (message names the argument and the allowed
/// range), 1 runtime failure. Never throws.
int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err, Backend& backend);

/// Prints "CMD: MESSAGE" to ctx.err and returns `code`: how every command reports an error.
int fail(Context& ctx, std::string_view cmd, std::string_view message, int code = kExitUsage);

/// "OPTION VALUE is out of range: allowed ALLOWED": the wording of every range check.
std::string outOfRange(std::string_view option, long long value, std::string_view allowed);

// ---- helpers shared by the subcommands -------------------------------------------------------

/// A resolved target: the architecture limits and, when a GPU was named, its spec.
struct Target {
  GpuDatabase db;  ///< owns the data the pointers refer to when a user file was loaded
  ArchLimits arch;
  std::optional<GpuSpec> gpu;
  int sm_count = 0;
  std::string label;  ///< "H100 SXM5 (CC 9.0, 132 SMs)" or "CC 8.6"
};

/// Resolves TargetOptions: an unknown GPU names the closest known ones; an unknown CC lists the
/// known ones; with neither --gpu nor --cc, `default_gpu` is used (the detected GPU when one is
/// present, otherwise H100-SXM). Errors are usage errors (exit 2).
Expected<Target> resolveTarget(const TargetOptions& opts, const std::string& default_gpu = "H100-SXM");

/// The GPU name to use when the user names none: the GPU data's name of the backend's first detected
/// GPU when there is one and the data knows it, else "H100-SXM".
std::string defaultGpuName(const Backend& backend);

/// A backend's reason ("No NVIDIA driver: …", "The NVIDIA driver … sees no GPU.") as a clause inside
/// a sentence: first letter in lower case, no full stop.
std::string reasonClause(std::string reason);

/// The GPU a command runs on (--device), opened through ctx.backend: exactly one field says how it went.
struct OpenedGpu {
  std::unique_ptr<GpuRunner> runner;  ///< the device's runner, when opened
  std::string no_gpu;                 ///< "no GPU to run on (REASON)" when there is none here
  int exit_code = kExitOk;            ///< non-zero (the error printed as `cmd`'s) when --device is out of range
                                      ///< (2) or the device cannot be opened (1)
};
OpenedGpu openGpu(Context& ctx, std::string_view cmd, int device);

}  // namespace occx::cli
