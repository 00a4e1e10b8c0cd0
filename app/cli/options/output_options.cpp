#include "app/cli/options/output_options.h"

#include <unistd.h>

#include <filesystem>
#include <system_error>

namespace occx::cli {

std::string outputPathProblem(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty() || path == "-") return {};
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return "'" + path + "' is a folder: give a file name in it";
  const fs::path folder = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec)) {
    return "cannot write '" + path + "': the folder '" + folder.string() + "' does not exist";
  }
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return "cannot write '" + path + "': the folder '" + folder.string() + "' is not writable";
  }
  return {};
}

void OutputOptions::add(CLI::App& app, const char* json_help, const char* csv_help) {
  app.add_flag("--json", json, json_help);
  if (csv_help == nullptr) return;
  app.add_option("--csv", csv, std::string(csv_help) + kCsvStdoutHelp);
  // Checked once every option is read, whatever their order on the command line.
  app.parse_complete_callback([this] {
    if (json && csvToStdout()) {
      throw CLI::ValidationError(
          "--csv", "'-' writes the CSV to standard output, where --json writes too: give one of them, or --csv FILE");
    }
    // Before any work: a scan or a sweep is not run only to fail at its last step.
    if (std::string why = outputPathProblem(csv); !why.empty()) throw CLI::ValidationError("--csv", why);
  });
}

}  // namespace occx::cli
