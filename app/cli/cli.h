// The occx command line: subcommands register themselves (see CommandRegistrar) and run through
// runCli, which the occx executable and the tests call.
#pragma once

#include <functional>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"

namespace occx::cli {

/// Exit codes: 0 success, 1 runtime failure, 2 bad arguments (the message names the argument and
/// the allowed range).
inline constexpr int kExitOk = 0;
inline constexpr int kExitRuntime = 1;
inline constexpr int kExitUsage = 2;

/// Shared state of one invocation: output streams and the action the chosen subcommand set.
struct Context {
  std::ostream& out;
  std::ostream& err;
  std::function<int()> action;  ///< set by the subcommand's callback; returns the exit code
};

/// One subcommand: `order` sorts the help listing; `add` defines options and sets ctx.action.
struct CommandSpec {
  const char* name;
  int order;
  void (*add)(CLI::App& app, Context& ctx);
};

/// Registers a subcommand at static-initialisation time. Use once per cmd_*.cpp:
///   static const CommandRegistrar kReg{{"occupancy", 10, &addOccupancyCommand}};
struct CommandRegistrar {
  explicit CommandRegistrar(CommandSpec spec);
};

/// Parses argv, runs the chosen subcommand, returns the exit code: 0 success, 2 bad arguments
/// (message names the argument and the allowed range), 1 runtime failure. Never throws.
int runCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

// ---- helpers shared by the subcommands -------------------------------------------------------

/// --gpu NAME | --cc X.Y | --gpu-data FILE, as used by every command that needs a device.
struct TargetOptions {
  std::string gpu;
  std::string cc;
  std::string gpu_data_file;
  int sm_count = 0;  ///< --sms override (0 = from the GPU data)
  void add(CLI::App& app, bool with_sms = true);
};

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

/// The GPU name to use when the user names none: the first detected GPU when CUDA support is
/// built and a GPU is present, else "H100-SXM". Set by the CUDA layer at start-up.
std::string defaultGpuName();
void setDefaultGpuNameProvider(std::function<std::optional<std::string>()> provider);

/// Prints rows as an aligned text table (first row = header).
void printTable(std::ostream& out, const std::vector<std::vector<std::string>>& rows);

/// Writes a CSV table atomically; prints "wrote FILE (N rows)" to ctx.err on success.
/// Returns kExitOk or kExitRuntime (message printed).
int writeCsv(Context& ctx, const std::string& path, const CsvTable& table);

/// Formats a double with `digits` decimals.
std::string fixed(double v, int digits);

}  // namespace occx::cli
