// `occx ARGS…` run in-process (cli::runCli, the function app/occx/main.cpp calls): its exit code and
// what it wrote to stdout and stderr.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "app/backend/build_backend.h"
#include "app/cli/cli.h"

namespace occx::testing_support {

struct CliRun {
  int code = -1;    ///< exit status: 0 ok, 1 failure, 2 usage error
  std::string out;  ///< stdout
  std::string err;  ///< stderr
};

/// Runs `occx` with `args` (without the program name) on `backend` (default: the build's, as the occx
/// program's main() picks it).
inline CliRun runOccx(const std::vector<std::string>& args, Backend& backend = *app::buildBackend()) {
  std::vector<const char*> argv{"occx"};
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CliRun r;
  r.code = cli::runCli(static_cast<int>(argv.size()), argv.data(), out, err, backend);
  r.out = out.str();
  r.err = err.str();
  return r;
}

}  // namespace occx::testing_support
