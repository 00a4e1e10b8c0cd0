// The CLI's printers (app/cli/printers) on their own: what each writes to a stream is read back —
// the text table's alignment, CSV through the engine's reader, JSON through the JSON parser — and
// the progress printer off a terminal. Also the live branch of `occx sweep` refusing bad live
// options before it asks the driver for a GPU.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "app/cli/commands/live_sweep.h"
#include "app/cli/printers/format.h"
#include "app/cli/printers/printer.h"
#include "app/cli/printers/progress_printer.h"
#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "occx_config.h"

using namespace occx;
using namespace occx::cli;

namespace {

CsvTable sampleTable() {
  CsvTable t;
  t.meta = {{"device", "H200 (CC 9.0, 132 SMs)"}, {"note", "a, b"}};
  t.header = {"name", "time_us", "status"};
  t.rows = {{"x1_r1024", "12.5", "ok"}, {"x1_r2048 …", "", "fails, \"badly\""}, {"x2", "1e3", "7abc"}};
  return t;
}

TEST(CliTextPrinter, AlignsColumnsByCharactersWithARuleUnderTheHeader) {
  std::ostringstream out;
  TextTablePrinter(out).print(sampleTable());
  EXPECT_EQ(out.str(),
            "name        time_us  status\n"
            "----------  -------  --------------\n"
            "x1_r1024    12.5     ok\n"
            "x1_r2048 …           fails, \"badly\"\n"
            "x2          1e3      7abc\n");
}

TEST(CliTextPrinter, AHeaderAloneHasNoRule) {
  std::ostringstream out;
  printTable(out, {{"quantity", "value"}});
  EXPECT_EQ(out.str(), "quantity  value\n");
}

TEST(CliCsvPrinter, WritesWhatTheCsvReaderReadsBack) {
  std::ostringstream out;
  CsvTablePrinter(out).print(sampleTable());
  auto back = parseCsv(out.str());
  ASSERT_TRUE(back) << back.error();
  const CsvTable t = sampleTable();
  EXPECT_EQ(back->meta, t.meta);
  EXPECT_EQ(back->header, t.header);
  EXPECT_EQ(back->rows, t.rows);
}

TEST(CliJsonPrinter, GivesMetaAndRowsWithNumbersWhereACellIsOne) {
  std::ostringstream out;
  JsonTablePrinter(out).print(sampleTable());
  ASSERT_FALSE(out.str().empty());
  EXPECT_EQ(out.str().back(), '\n');
  const auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["meta"]["device"], "H200 (CC 9.0, 132 SMs)");
  ASSERT_EQ(j["rows"].size(), 3U);
  EXPECT_EQ(j["rows"][0]["time_us"], 12.5);
  EXPECT_TRUE(j["rows"][1]["time_us"].is_null());
  EXPECT_EQ(j["rows"][2]["time_us"], 1000.0);
  EXPECT_EQ(j["rows"][2]["status"], "7abc");  // a number followed by text stays text
  EXPECT_EQ(j["rows"][1]["name"], "x1_r2048 …");
}

TEST(CliJsonPrinter, RowsKeepTextCellsAsTextAndTakeACellConversion) {
  const auto rows = rowsToJson(sampleTable());
  ASSERT_EQ(rows.size(), 3U);
  EXPECT_EQ(rows[0]["time_us"], "12.5");
  EXPECT_EQ(rows[1]["time_us"], "");
  auto firstColumnOnly = [](const std::string& cell, std::size_t column) -> nlohmann::json {
    return column == 0 ? nlohmann::json(cell) : nlohmann::json(nullptr);
  };
  const auto converted = rowsToJson(sampleTable(), firstColumnOnly);
  EXPECT_EQ(converted[2]["name"], "x2");
  EXPECT_TRUE(converted[2]["status"].is_null());
}

TEST(CliProgressPrinter, OffATerminalEveryStepIsALine) {
  std::ostringstream err;
  ProgressPrinter p(err, false);
  p.step("compiling [1/2]");
  p.keep("[1/2] XBLOCK=1: ok");
  p.step("compiling [2/2]");
  p.finish();
  EXPECT_EQ(err.str(), "compiling [1/2]\n[1/2] XBLOCK=1: ok\ncompiling [2/2]\n");
}

TEST(CliProgressPrinter, QuietPrintsNothing) {
  std::ostringstream err;
  ProgressPrinter p(err, true);
  p.step("a");
  p.keep("b");
  p.finish();
  EXPECT_EQ(err.str(), "");
}

TEST(CliFormat, FixedAndJoined) {
  EXPECT_EQ(fixed(2.0 / 3.0, 2), "0.67");
  EXPECT_EQ(fixed(1234.5, 0), "1234");  // round half to even, as printf does
  EXPECT_EQ(joined(std::vector<std::string>{"a", "b", "c"}, ", "), "a, b, c");
  EXPECT_EQ(joined(std::vector<std::string>{}, ","), "");
  EXPECT_EQ(joined(std::vector<int>{64, 100}, ",", [](int v) { return std::to_string(v); }), "64,100");
}

TEST(CliWriteCsv, WritesTheFileAndSaysSoOrReportsTheFailure) {
  std::string dir = (std::filesystem::temp_directory_path() / "occx-printers-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  std::ostringstream out;
  std::ostringstream err;
  Context ctx{out, err, *offlineBackend(), {}};
  const std::string path = dir + "/t.csv";
  EXPECT_EQ(writeCsv(ctx, path, sampleTable()), kExitOk);
  EXPECT_EQ(err.str(), "wrote " + path + " (3 rows)\n");
  auto text = readFile(path);
  ASSERT_TRUE(text);
  EXPECT_EQ(*text, toCsv(sampleTable()));
  err.str("");
  EXPECT_EQ(writeCsv(ctx, dir + "/missing/t.csv", sampleTable()), kExitRuntime);
  EXPECT_EQ(err.str().rfind("occx: ", 0), 0U) << err.str();
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
}

TEST(CliLiveSweep, BadLiveOptionsStopTheSweepBeforeAnyGpuIsAskedInEveryBuild) {
  std::ostringstream out;
  std::ostringstream err;
  Context ctx{out, err, *offlineBackend(), {}};
  LiveSweepOptions live;
  live.repeat = 200;
  const auto outcome = runLiveSweepIfGpu(ctx, CompileSweepSpec{}, live, SweepOutput{}, nullptr);
  EXPECT_EQ(outcome.kind, LiveSweepOutcome::Kind::kStopped);
  EXPECT_EQ(outcome.exit_code, kExitUsage);
  EXPECT_EQ(err.str(), "occx sweep: --repeat 200 is out of range: allowed 0 … 100\n");
  live.repeat = 0;
  live.timed_ms = 0.5;
  err.str("");
  const auto timed = runLiveSweepIfGpu(ctx, CompileSweepSpec{}, live, SweepOutput{}, nullptr);
  EXPECT_EQ(timed.kind, LiveSweepOutcome::Kind::kStopped);
  EXPECT_EQ(err.str(), "occx sweep: --timed-ms 0.5 is out of range: allowed 1 … 10000\n");
  // Good options on a backend without GPUs: the sweep falls back to compile-only, and says why.
  live.timed_ms = 40.0;
  err.str("");
  const auto offline = runLiveSweepIfGpu(ctx, CompileSweepSpec{}, live, SweepOutput{}, nullptr);
  EXPECT_EQ(offline.kind, LiveSweepOutcome::Kind::kFallBack);
  EXPECT_EQ(offline.reason,
            "no GPU to run on (this build has no CUDA Toolkit: live runs need it (and an NVIDIA GPU with its driver))");
  EXPECT_EQ(err.str(), "");
  EXPECT_EQ(out.str(), "");
}

}  // namespace
