// The output options several commands share: --json (print JSON instead of text) and --csv FILE
// (also write the table to a CSV file, atomically; "-" writes the CSV to standard output instead
// of the text). Each command gives its own help text. The CSV's folder is checked when the options
// are read, before the command's work.
#pragma once

#include <string>

#include <CLI/CLI.hpp>

namespace occx::cli {

/// What --csv's help says about "-", after each command's own text.
inline constexpr const char* kCsvStdoutHelp =
    "; '-' writes the CSV to standard output instead of the text (not with --json)";

/// Why the CSV file `path` cannot be written, checked before a command does its work: a folder, a
/// folder that does not exist or that this user cannot write into; empty when it looks writable
/// (or for "" and "-"). The write itself stays atomic and may still fail (a full disk).
std::string outputPathProblem(const std::string& path);

/// Why the folder `path` (a cache the command writes into, created when missing) cannot be used,
/// checked before a command does its work: a file, a file where a folder above it belongs, a folder
/// (itself or the nearest one above it that exists) this user cannot create files in; empty when
/// it looks usable (or for "").
std::string outputFolderProblem(const std::string& path);

struct OutputOptions {
  bool json = false;
  std::string csv;  ///< empty: no CSV; "-": the CSV goes to standard output
  /// Adds --json and, when `csv_help` is given, --csv FILE (its help followed by kCsvStdoutHelp).
  /// --json with --csv - is a usage error (both would write standard output).
  void add(CLI::App& app, const char* json_help, const char* csv_help = nullptr);

  /// --csv -: the CSV is the command's standard output.
  [[nodiscard]] bool csvToStdout() const { return csv == "-"; }
  /// Whether the command prints its text report: neither --json nor --csv - was given.
  [[nodiscard]] bool text() const { return !json && !csvToStdout(); }
};

}  // namespace occx::cli
