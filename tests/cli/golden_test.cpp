// The CLI's behaviour pinned as golden files: every case of tests/golden/cases.txt runs the real
// occx binary (no GPU visible) and compares its exit code, standard output, standard error and the
// file it wrote (--csv) with tests/golden/<case>.txt, after fields that change from run to run
// (dates, wall and compile times, cache hit counts, scratch paths) are normalised.
//
// A deliberate change of output: run with OCCX_UPDATE_GOLDENS=1 to rewrite the golden files, then
// review the diff and commit it on its own.
#include <gtest/gtest.h>

#include <algorithm>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "occx_config.h"

namespace {

namespace fs = std::filesystem;

struct GoldenCase {
  std::string name;
  std::string needs;  // "-", "cuda", "nocuda", "fakegpu" or "cuda+fakegpu"
  std::vector<std::string> args;

  // Whether `need` ("cuda", "nocuda", "fakegpu") is one of the case's needs.
  [[nodiscard]] bool has(const std::string& need) const {
    std::istringstream parts(needs);
    for (std::string part; std::getline(parts, part, '+');) {
      if (part == need) return true;
    }
    return false;
  }
};

// How a case prints in test names and failure messages: its name, not its bytes.
void PrintTo(const GoldenCase& c, std::ostream* os) {
  *os << c.name;
}

std::string trim(std::string s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return {};
  const auto e = s.find_last_not_of(" \t\r");
  return s.substr(b, e - b + 1);
}

std::vector<GoldenCase> loadCases() {
  std::vector<GoldenCase> cases;
  std::ifstream in(std::string(OCCX_GOLDEN_DIR) + "/cases.txt");
  std::string line;
  while (std::getline(in, line)) {
    if (trim(line).empty() || trim(line)[0] == '#') continue;
    const auto bar1 = line.find('|');
    const auto bar2 = line.find('|', bar1 + 1);
    if (bar1 == std::string::npos || bar2 == std::string::npos) continue;
    GoldenCase c;
    c.name = trim(line.substr(0, bar1));
    c.needs = trim(line.substr(bar1 + 1, bar2 - bar1 - 1));
    std::istringstream words(line.substr(bar2 + 1));
    for (std::string w; words >> w;) c.args.push_back(w);
    cases.push_back(std::move(c));
  }
  return cases;
}

std::string readAll(const fs::path& p) {
  auto text = occx::readFile(p.string());
  return text ? *text : std::string();
}

void replaceAll(std::string& s, const std::string& from, const std::string& to) {
  if (from.empty()) return;
  for (auto p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size())) s.replace(p, from.size(), to);
}

// Columns and metadata keys whose values change from run to run.
const std::set<std::string>& volatileKeys() {
  static const std::set<std::string> keys = {"compile_ms", "cache_hit", "date_utc", "wall_seconds", "cache", "date"};
  return keys;
}

// A CSV's volatile columns and metadata blanked; other text unchanged.
std::string normaliseCsv(const std::string& text) {
  auto table = occx::parseCsv(text);
  if (!table) return text;
  for (auto& [key, value] : table->meta) {
    if (volatileKeys().count(key)) value = "<volatile>";
  }
  for (std::size_t c = 0; c < table->header.size(); ++c) {
    if (!volatileKeys().count(table->header[c])) continue;
    for (auto& row : table->rows) row[c] = "<volatile>";
  }
  return occx::toCsv(*table);
}

std::string normalise(std::string text, const std::string& scratch) {
  replaceAll(text, scratch, "<TMP>");
  replaceAll(text, OCCX_GOLDEN_DIR, "<HERE>");
  replaceAll(text, OCCX_INDUCTOR_FIXTURES_DIR, "<FIXTURES>");
  static const std::vector<std::pair<std::regex, std::string>> rules = {
      {std::regex(R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z)"), "<DATE>"},
      // JSON: "compile_ms": 12.5, "cache_hit": false, "wall_seconds": 0.4
      {std::regex(R"rx("(compile_ms|cache_hit|wall_seconds|cache_hits|cache_misses)": [^,}\]\n]+)rx"),
       "\"$1\": <volatile>"},
      // Text: "in 1.23 s", "1.2 ms" compile times, cache hit counts.
      {std::regex(R"(\b\d+(\.\d+)? s\b)"), "<seconds> s"},
      {std::regex(R"(\b\d+(\.\d+)? ms\b)"), "<ms> ms"},
      {std::regex(R"(\b\d+(\.\d+)? configs/s\b)"), "<rate> configs/s"},
      {std::regex(R"(\b\d+ (cache hits?|hits?)\b)"), "<n> $1"},
      {std::regex(R"(\b(compiled|cache hits?):? \d+\b)"), "$1 <n>"},
  };
  for (const auto& [re, to] : rules) text = std::regex_replace(text, re, to);
  return text;
}

std::string shellQuote(const std::string& s) {
  std::string q = "'";
  for (char c : s) {
    if (c == '\'')
      q += "'\\''";
    else
      q += c;
  }
  return q + "'";
}

struct CaseRun {
  int exit_code = -1;
  std::string text;  // the whole record, normalised
};

CaseRun runCase(const GoldenCase& c, const fs::path& scratch) {
  fs::create_directories(scratch / "cache");
  const fs::path out_file = scratch / "out.csv";
  // A "fakegpu" case runs on the fake GPU worker (tests/support/fake_gpu_worker.cpp): occx's GPU work
  // goes through it alone, as through the real worker on a GPU machine.
  const std::string worker = c.has("fakegpu") ? " OCCX_GPU_WORKER=" + shellQuote(OCCX_FAKE_GPU_WORKER) : "";
  std::string cmd = "cd " + shellQuote(scratch.string()) +
                    " && env CUDA_VISIBLE_DEVICES= XDG_CACHE_HOME=" + shellQuote((scratch / "cache").string()) +
                    worker + " LC_ALL=C.UTF-8 " + shellQuote(OCCX_BINARY);
  std::string shown = "occx";
  for (std::string a : c.args) {
    replaceAll(a, "@OUT@", out_file.string());
    replaceAll(a, "@HERE@", OCCX_GOLDEN_DIR);
    replaceAll(a, "@FIXTURES@", OCCX_INDUCTOR_FIXTURES_DIR);
    cmd += " " + shellQuote(a);
    shown += " " + a;
  }
  cmd += " >" + shellQuote((scratch / "stdout").string()) + " 2>" + shellQuote((scratch / "stderr").string()) +
         " </dev/null";
  const int status = std::system(cmd.c_str());
  CaseRun r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::string record = "$ " + shown + "\nexit: " + std::to_string(r.exit_code) + "\n--- stdout\n" +
                       readAll(scratch / "stdout") + "--- stderr\n" + readAll(scratch / "stderr");
  if (fs::exists(out_file)) record += "--- file out.csv\n" + normaliseCsv(readAll(out_file));
  r.text = normalise(record, scratch.string());
  return r;
}

// The first lines where two texts differ, with line numbers, for the failure message.
std::string firstDifferences(const std::string& want, const std::string& got) {
  std::istringstream a(want), b(got);
  std::string la, lb, report;
  int line = 0, shown = 0;
  while (shown < 8) {
    const bool ea = !std::getline(a, la), eb = !std::getline(b, lb);
    ++line;
    if (ea && eb) break;
    if (ea) la = "<end>";
    if (eb) lb = "<end>";
    if (la != lb) {
      report += "line " + std::to_string(line) + ":\n  golden: " + la + "\n  now:    " + lb + "\n";
      ++shown;
    }
  }
  return report;
}

class CliGolden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(CliGolden, MatchesGoldenFile) {
  const GoldenCase& c = GetParam();
  if (c.has("cuda") && !OCCX_HAVE_CUDA) GTEST_SKIP() << "needs a build with the CUDA Toolkit (NVRTC)";
  if (c.has("nocuda") && OCCX_HAVE_CUDA) GTEST_SKIP() << "pins the message of a build without the CUDA Toolkit";
  const fs::path scratch = fs::temp_directory_path() / ("occx-golden-" + std::to_string(::getpid()) + "-" + c.name);
  fs::remove_all(scratch);
  const CaseRun run = runCase(c, scratch);
  fs::remove_all(scratch);
  const fs::path golden = fs::path(OCCX_GOLDEN_DIR) / (c.name + ".txt");
  if (const char* update = std::getenv("OCCX_UPDATE_GOLDENS"); update && std::string(update) == "1") {
    auto written = occx::writeFileAtomically(golden.string(), run.text);
    ASSERT_TRUE(written) << written.error();
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; record it with OCCX_UPDATE_GOLDENS=1";
  const std::string want = readAll(golden);
  EXPECT_EQ(want, run.text) << "occx output changed for case '" << c.name << "':\n" << firstDifferences(want, run.text);
}

INSTANTIATE_TEST_SUITE_P(Cases, CliGolden, ::testing::ValuesIn(loadCases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& p) { return p.param.name; });

TEST(CliGoldenCases, CoverEverySubcommandAndExitCode) {
  std::set<std::string> commands;
  for (const auto& c : loadCases()) {
    if (!c.args.empty() && c.args[0][0] != '-') commands.insert(c.args[0]);
  }
  for (const char* cmd : {"gpus", "occupancy", "rblock", "compile", "sweep", "devices", "inductor"}) {
    EXPECT_TRUE(commands.count(cmd)) << "no golden case runs 'occx " << cmd << "'";
  }
  EXPECT_GE(loadCases().size(), 30u);
}

// README: "every command takes --json and --csv FILE". Each command's (and each inductor
// subcommand's) help must offer both, and a golden case must write a CSV with it.
TEST(CliGoldenCases, EveryCommandTakesJsonAndCsv) {
  std::set<std::string> with_csv;
  for (const auto& c : loadCases()) {
    const bool csv = std::find(c.args.begin(), c.args.end(), "--csv") != c.args.end();
    if (csv && !c.args.empty())
      with_csv.insert(c.args[0] == "inductor" && c.args.size() > 1 ? "inductor " + c.args[1] : c.args[0]);
  }
  for (const char* cmd :
       {"gpus", "devices", "occupancy", "rblock", "inductor scan", "inductor show", "compile", "sweep"}) {
    const fs::path scratch = fs::temp_directory_path() / "occx_golden_help";
    fs::create_directories(scratch);
    const std::string out = (scratch / "help.txt").string();
    const std::string run = std::string("'") + OCCX_BINARY + "' " + cmd + " --help > '" + out + "' 2>&1";
    ASSERT_EQ(std::system(run.c_str()), 0) << run;
    const std::string help = readAll(out);
    EXPECT_NE(help.find("--json"), std::string::npos) << "occx " << cmd << " has no --json";
    EXPECT_NE(help.find("--csv"), std::string::npos) << "occx " << cmd << " has no --csv";
    if (std::string(cmd) != "inductor show") {
      EXPECT_TRUE(with_csv.count(cmd)) << "no golden case writes a CSV with 'occx " << cmd << " --csv'";
    }
  }
}

}  // namespace
