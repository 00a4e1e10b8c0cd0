// The target options of the commands that need a device but compile nothing (occupancy, rblock,
// gpus): --gpu NAME | --cc X.Y | --gpu-data FILE, and --sms N. cli.h's resolveTarget turns them
// into a Target.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace occx::cli {

/// --gpu NAME | --cc X.Y | --gpu-data FILE, as used by every command that needs a device.
struct TargetOptions {
  std::string gpu;
  std::string cc;
  std::string gpu_data_file;
  int sm_count = 0;  ///< --sms override (0 = from the GPU data)
  void add(CLI::App& app, bool with_sms = true);
  /// Adds --gpu-data alone (a command that lists the data rather than picking from it).
  void addGpuData(CLI::App& app);
};

}  // namespace occx::cli
