// Fuzz target: the occx command line (runCli) with an argv built from the input, one argument per
// line. Every input must end in an exit code of 0, 1 or 2 — never a crash, never an uncaught
// exception ("internal error"). Files the commands write land in a scratch folder: arguments with
// '/' or ".." are skipped so that nothing outside it is touched. Since the working folder changes
// before libFuzzer reads its arguments, give it absolute paths (scripts/fuzz-smoke.sh does).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "app/cli/cli.h"
#include "core/sweep/backend.h"

namespace {
void require(bool ok, const char* what, const std::string& detail) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_cli: property violated: %s\n%s\n", what, detail.c_str());
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string dir = (std::filesystem::temp_directory_path() / "occx-fuzz-cli-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr || ::chdir(dir.c_str()) != 0) {
    std::perror("fuzz_cli: scratch folder");
    std::abort();
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (text.find('/') != std::string_view::npos || text.find("..") != std::string_view::npos) return -1;
  std::vector<std::string> args{"occx"};
  while (!text.empty() && args.size() < 24) {
    const auto nl = text.find('\n');
    args.emplace_back(text.substr(0, nl));
    text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
  }
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  const int code = occx::cli::runCli(static_cast<int>(argv.size()), argv.data(), out, err, *occx::offlineBackend());
  require(code == 0 || code == 1 || code == 2, "exit code is 0, 1 or 2", err.str());
  // runCli reports an escaped exception as a line "occx: internal error: …" (arguments echoed inside
  // other messages may contain the words, never at the start of a line: they hold no newline).
  const std::string e = "\n" + err.str();
  require(e.find("\noccx: internal error:") == std::string::npos, "no exception escapes a command", err.str());
  require(code == 0 || !err.str().empty(), "a failure says why on stderr", out.str());
  return 0;
}
