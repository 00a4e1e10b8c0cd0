// `occx compile` and `occx sweep` as a user runs them (through runCli): JSON output, usage errors,
// and Ctrl-C during a sweep keeping the finished rows in an atomically written CSV.
#include <gtest/gtest.h>

#include <unistd.h>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "tests/support/cli_run.h"

namespace occx {
namespace {

namespace fs = std::filesystem;

using testing_support::runOccx;
using CliResult = testing_support::CliRun;

TEST(CliCompile, JsonReportsRegistersSpillsAndOccupancy) {
  auto r = runOccx({"compile", "--arch", "sm_90", "--workload", "mean_var", "--dtype", "fp32", "--xblock", "1",
                    "--rblock", "8192", "--num-warps", "2", "--no-cache", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernel"], "occx_mean_var_fp32_x1_r8192_w2");
  EXPECT_EQ(j["arch"], "sm_90");
  EXPECT_EQ(j["report"]["registers_per_thread"], 255);
  EXPECT_GT(j["report"]["spill_stores_bytes"].get<int>(), 0);
  EXPECT_EQ(j["layout"]["accumulator_values_per_thread"], 384);
  EXPECT_EQ(j["cache_hit"], false);
  // 255 registers × 32 threads = 8160 per warp, allocated as 8192: 65536 / 8192 = 8 warps per SM,
  // i.e. 4 blocks of 2 warps; 8 of 64 warps = 12.5 % occupancy.
  EXPECT_EQ(j["occupancy"]["result"]["active_blocks_per_sm"], 4);
  EXPECT_EQ(j["occupancy"]["result"]["active_warps_per_sm"], 8);
  EXPECT_TRUE(j["cross_check"].contains("state"));
}

TEST(CliCompile, TextShowsSourceAndDecisions) {
  auto r = runOccx({"compile", "--gpu", "H100-SXM", "--workload", "sum", "--dtype", "fp16", "--rblock", "2048",
                    "--num-warps", "16", "--xnumel", "512", "--rnumel", "8192", "--show-source", "--no-cache"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(
      r.out.find("extern \"C\" __global__ void __launch_bounds__(NUM_THREADS) occx_sum_fp16_x1_r2048_w16_s512x8192("),
      std::string::npos);
  EXPECT_NE(r.out.find("registers per thread"), std::string::npos);
  EXPECT_NE(r.out.find("RBLOCK scaling for xnumel 512 × rnumel 8192"), std::string::npos);
  EXPECT_NE(r.out.find("driver cross-check"), std::string::npos);
}

// A damaged cache entry is found, recompiled, replaced and reported once; the next run hits.
TEST(CliCompile, ADamagedCacheEntryIsRecompiledAndReportedOnce) {
  const fs::path dir = fs::temp_directory_path() / ("occx-cache-test-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  const std::vector<std::string> args = {"compile", "--arch",      "sm_90",      "--workload", "sum",
                                         "--dtype", "fp16",        "--rblock",   "2048",       "--num-warps",
                                         "8",       "--cache-dir", dir.string(), "--json"};
  auto first = runOccx(args);
  ASSERT_EQ(first.code, 0) << first.err;
  const int registers = nlohmann::json::parse(first.out)["report"]["registers_per_thread"].get<int>();
  EXPECT_EQ(nlohmann::json::parse(first.out)["cache_hit"], false);
  std::vector<fs::path> entries;
  for (const auto& e : fs::directory_iterator(dir / "nvrtc")) entries.push_back(e.path());
  ASSERT_EQ(entries.size(), 1u);
  auto bytes = readFile(entries[0].string());
  ASSERT_TRUE(bytes);
  ASSERT_TRUE(writeFileAtomically(entries[0].string(), bytes->substr(0, bytes->size() / 2)));  // truncated

  auto second = runOccx(args);
  ASSERT_EQ(second.code, 0) << second.err;
  const auto j = nlohmann::json::parse(second.out);
  EXPECT_EQ(j["cache_hit"], false);  // compiled again
  EXPECT_EQ(j["report"]["registers_per_thread"], registers);
  const std::string line =
      "occx compile: compile cache: damaged entry " + entries[0].string() + " (truncated or padded";
  const auto at = second.err.find(line);
  EXPECT_NE(at, std::string::npos) << second.err;
  EXPECT_EQ(second.err.find("damaged entry", at + line.size()), std::string::npos)
      << "reported more than once: " << second.err;

  auto third = runOccx(args);  // the entry was replaced
  ASSERT_EQ(third.code, 0) << third.err;
  EXPECT_EQ(nlohmann::json::parse(third.out)["cache_hit"], true);
  EXPECT_EQ(third.err.find("damaged"), std::string::npos) << third.err;
  fs::remove_all(dir);
}

TEST(CliCompile, UsageErrorsNameTheOptionAndRange) {
  auto r = runOccx({"compile", "--arch", "sm_90", "--rblock", "1000", "--no-cache"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("RBLOCK 1000 is out of range: allowed powers of two 1 … 65536"), std::string::npos) << r.err;
  r = runOccx({"compile", "--arch", "sm_52", "--sms", "16", "--no-cache"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--arch sm_52 cannot be compiled by NVRTC"), std::string::npos) << r.err;
  r = runOccx({"compile", "--arch", "sm_52", "--no-cache"});  // no GPU of CC 5.2 in the data to take SMs from
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("give --sms N"), std::string::npos) << r.err;
  r = runOccx({"compile", "--arch", "sm_90", "--workload", "softmax"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--workload: workload 'softmax' is not known"), std::string::npos) << r.err;
  r = runOccx({"compile", "--arch", "sm_90", "--maxrregcount", "300"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--maxrregcount 300 is out of range"), std::string::npos) << r.err;
  r = runOccx({"compile", "--arch", "sm_90", "--nvrtc-option", "--bogus", "--no-cache"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("unrecognized option --bogus"), std::string::npos) << r.err;
  r = runOccx({"sweep", "--arch", "sm_80", "--xnumel", "64", "--rnumel", "64", "--rblocks", "lots"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--rblocks 'lots' is not a number or a range"), std::string::npos) << r.err;
}

TEST(CliSweep, CsvHasUnitsAndMetadata) {
  const fs::path csv = fs::path(::testing::TempDir()) / "occx_cli_sweep.csv";
  fs::remove(csv);
  auto r =
      runOccx({"sweep", "--arch",   "sm_90",      "--workload", "log_softmax", "--dtype",   "fp16",      "--xnumel",
               "264",   "--rnumel", "30000",      "--xblocks",  "1",           "--rblocks", "2048-4096", "--num-warps",
               "8,16",  "--no-run", "--no-cache", "--quiet",    "--csv",       csv.string()});
  ASSERT_EQ(r.code, 0) << r.err;
  auto text = readFile(csv.string());
  ASSERT_TRUE(text);
  auto t = parseCsv(*text);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->metaValue("arch"), "sm_90");
  EXPECT_EQ(t->metaValue("workload"), "log_softmax");
  EXPECT_EQ(t->metaValue("cancelled"), "false");
  EXPECT_EQ(t->metaValue("compiler").rfind("NVRTC ", 0), 0u);
  EXPECT_GE(t->rows.size(), 4u);  // the grid, plus Inductor's candidate when it is outside it
  EXPECT_GE(t->column("registers_per_thread"), 0);
  EXPECT_GE(t->column("theoretical_occupancy_pct"), 0);
  EXPECT_GE(t->column("candidate_new"), 0);
  EXPECT_NE(r.err.find(std::to_string(t->rows.size()) + " of " + std::to_string(t->rows.size()) +
                       " configs: " + std::to_string(t->rows.size()) + " compiled, 0 failed"),
            std::string::npos)
      << r.err;
  fs::remove(csv);
}

extern "C" void ignoreSigint(int /*signal*/) {}

TEST(CliSweep, CtrlCKeepsTheFinishedRows) {
  // If SIGINT arrived before the sweep installs its handler, this one keeps the test process alive.
  struct sigaction sa {
  }, old{};
  sa.sa_handler = &ignoreSigint;
  sigemptyset(&sa.sa_mask);
  ASSERT_EQ(sigaction(SIGINT, &sa, &old), 0);
  const fs::path csv = fs::path(::testing::TempDir()) / "occx_cli_sweep_cancel.csv";
  fs::remove(csv);
  CliResult r;
  std::thread worker([&] {
    r = runOccx({"sweep", "--arch",    "sm_80", "--workload", "mean_var", "--dtype",   "fp32",      "--xnumel",
                 "1024",  "--rnumel",  "8192",  "--xblocks",  "1,2",      "--rblocks", "1024-8192", "--num-warps",
                 "1,2,4", "--threads", "1",     "--no-cache", "--no-run", "--quiet",   "--csv",     csv.string()});
  });
  std::this_thread::sleep_for(std::chrono::seconds(4));
  std::raise(SIGINT);
  worker.join();
  sigaction(SIGINT, &old, nullptr);
  EXPECT_EQ(r.code, 1) << r.err;
  EXPECT_NE(r.err.find("cancelled: kept the"), std::string::npos) << r.err;
  auto text = readFile(csv.string());
  ASSERT_TRUE(text) << "the CSV with the finished rows was not written";
  auto t = parseCsv(*text);
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->metaValue("cancelled"), "true");
  EXPECT_GE(t->rows.size(), 1u);
  EXPECT_LT(t->rows.size(), 24u);
  for (const auto& row : t->rows) EXPECT_EQ(row[static_cast<std::size_t>(t->column("status"))], "ok");
  fs::remove(csv);
}

}  // namespace
}  // namespace occx
