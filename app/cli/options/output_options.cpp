#include "app/cli/options/output_options.h"

#include <unistd.h>

#include <cstdlib>

#include <filesystem>
#include <system_error>

namespace occx::cli {

namespace {

// Whether a file can be created in `folder` (an existing folder): a scratch file made and removed.
// access(W_OK) alone says yes to root in a read-only or virtual folder such as /proc.
bool canCreateIn(const std::filesystem::path& folder) {
  if (::access(folder.c_str(), W_OK | X_OK) != 0) return false;
  std::string probe = (folder / ".occx-write-check-XXXXXX").string();
  const int fd = ::mkstemp(probe.data());
  if (fd < 0) return false;
  ::close(fd);
  ::unlink(probe.c_str());
  return true;
}

}  // namespace

std::string outputPathProblem(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty() || path == "-") return {};
  std::error_code ec;
  const fs::path p(path);
  if (fs::is_directory(p, ec)) return "'" + path + "' is a folder: give a file name in it";
  const fs::path folder = p.has_parent_path() ? p.parent_path() : fs::path(".");
  if (!fs::is_directory(folder, ec)) {
    if (fs::exists(folder, ec)) return "cannot write '" + path + "': '" + folder.string() + "' is a file, not a folder";
    return "cannot write '" + path + "': the folder '" + folder.string() + "' does not exist";
  }
  if (!canCreateIn(folder)) {
    return "cannot write '" + path + "': the folder '" + folder.string() + "' is not writable";
  }
  return {};
}

std::string outputFolderProblem(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) return {};
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  if (fs::exists(p, ec) && !fs::is_directory(p, ec)) return "'" + path + "' is a file, not a folder";
  // The folder itself, or the nearest folder above it that exists (the rest is created).
  fs::path existing = p;
  while (!fs::exists(existing, ec) && existing.has_parent_path() && existing.parent_path() != existing)
    existing = existing.parent_path();
  if (!fs::is_directory(existing, ec)) {
    return "cannot create the folder '" + path + "': '" + existing.string() + "' is a file, not a folder";
  }
  if (!canCreateIn(existing)) {
    return existing == p ? "cannot write into the folder '" + path + "': it is not writable"
                         : "cannot create the folder '" + path + "': '" + existing.string() + "' is not writable";
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
