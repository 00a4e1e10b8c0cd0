// The output options several commands share: --json (print JSON instead of text) and --csv FILE
// (also write the table to a CSV file, atomically). Each command gives its own help text.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace occx::cli {

struct OutputOptions {
  bool json = false;
  std::string csv;  ///< empty: no CSV file
  /// Adds --json and, when `csv_help` is given, --csv FILE.
  void add(CLI::App& app, const char* json_help, const char* csv_help = nullptr);
};

}  // namespace occx::cli
