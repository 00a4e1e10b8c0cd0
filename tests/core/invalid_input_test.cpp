// The invalid-input matrix: bad values typed on the command line or handed to the core API. Every
// case must end in a clean refusal — exit code 2 from the CLI, an Error value (or a "cannot launch"
// result with its reason) from the core — whose message names the value and what is allowed. None
// may crash; the sanitizer build (scripts/sanitize.sh) runs this file under ASan + UBSan.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <climits>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"
#include "tests/support/cli_run.h"

using namespace occx;

namespace {

// A folder for the files that the CLI cases read; made once per test program, removed at its exit.
struct ScratchDir {
  std::string path;
  ScratchDir() {
    std::string templ = (std::filesystem::temp_directory_path() / "occx-invalid-XXXXXX").string();
    if (::mkdtemp(templ.data()) != nullptr) path = templ;
  }
  ~ScratchDir() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};
const std::string& scratchDir() {
  static const ScratchDir dir;
  return dir.path;
}

// A small, valid GPU data file. Line numbers matter: the cases below name them.
//   line 6: "cc", line 10: max_warps_per_sm, line 28: the gpu entry.
const char* const kGpuData =
    "{\n"                                                                                  // 1
    "  \"format\": \"occupancy-explorer-gpu-data\",\n"                                     // 2
    "  \"version\": 1,\n"                                                                  // 3
    "  \"architectures\": [\n"                                                             // 4
    "    {\n"                                                                              // 5
    "      \"cc\": \"9.0\",\n"                                                             // 6
    "      \"family\": \"Hopper\",\n"                                                      // 7
    "      \"warp_size\": 32,\n"                                                           // 8
    "      \"max_threads_per_block\": 1024,\n"                                             // 9
    "      \"max_warps_per_sm\": 64,\n"                                                    // 10
    "      \"max_blocks_per_sm\": 32,\n"                                                   // 11
    "      \"registers_per_sm\": 65536,\n"                                                 // 12
    "      \"max_registers_per_block\": 65536,\n"                                          // 13
    "      \"max_registers_per_thread\": 255,\n"                                           // 14
    "      \"register_allocation_unit\": 256,\n"                                           // 15
    "      \"warp_allocation_granularity\": 4,\n"                                          // 16
    "      \"shared_memory_per_sm\": 233472,\n"                                            // 17
    "      \"shared_memory_per_block\": 49152,\n"                                          // 18
    "      \"shared_memory_per_block_optin\": 232448,\n"                                   // 19
    "      \"shared_memory_allocation_unit\": 128,\n"                                      // 20
    "      \"reserved_shared_memory_per_block\": 1024,\n"                                  // 21
    "      \"shared_memory_carveout_kb\": [0, 8, 16, 32, 64, 100, 132, 164, 196, 228],\n"  // 22
    "      \"block_barriers_per_sm\": 64,\n"                                               // 23
    "      \"max_cluster_size\": 16\n"                                                     // 24
    "    }\n"                                                                              // 25
    "  ],\n"                                                                               // 26
    "  \"gpus\": [\n"                                                                      // 27
    "    {\"name\": \"Test GPU\", \"aliases\": [\"TG\"], \"cc\": \"9.0\", \"sm_count\": 132, "
    "\"memory_bandwidth_GBps\": 4800}\n"  // 28
    "  ]\n"                               // 29
    "}\n";                                // 30

// kGpuData with the first occurrence of `from` replaced by `to` (the case fails loudly when the
// text to replace is not there, so an edit of kGpuData cannot silently weaken a case).
std::string gpuDataWith(const std::string& from, const std::string& to) {
  std::string s = kGpuData;
  const auto p = s.find(from);
  if (p == std::string::npos) return "replacement target not found: " + from;
  return s.replace(p, from.size(), to);
}

// Writes `content` to a file in scratchDir() and returns its path.
std::string scratchFile(const std::string& name, const std::string& content) {
  std::string path = scratchDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

using testing_support::CliRun;
using testing_support::runOccx;

// ---- the CLI cases ------------------------------------------------------------------------------

struct CliCase {
  const char* name;
  std::function<std::vector<std::string>()> args;  // a function: some cases first write a file
  std::vector<std::string> needles;                // every one must appear in stderr
  int exit_code = cli::kExitUsage;
};
// Test names carry the case name; without this gtest prints the struct's bytes.
void PrintTo(const CliCase& c, std::ostream* os) {
  *os << c.name;
}

std::vector<std::string> occ(std::vector<std::string> extra) {
  std::vector<std::string> a{"occupancy", "--gpu", "H100-SXM"};
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}
std::vector<std::string> occWithData(const std::string& file, const std::string& content) {
  return {"occupancy", "--gpu-data", scratchFile(file, content), "--cc", "9.0", "--threads", "256", "--regs", "32"};
}

// occx rblock with the H200 anchor config (xnumel 512, rnumel 8192, XBLOCK 1, R0_BLOCK 2048, 16 warps,
// 38 registers: a decision recorded from Inductor on an H200) and one option changed or added.
std::vector<std::string> rblock(const std::vector<std::string>& change) {
  std::vector<std::pair<std::string, std::string>> opts = {{"--xnumel", "512"},   {"--rnumel", "8192"},
                                                           {"--xblock", "1"},     {"--rblock", "2048"},
                                                           {"--num-warps", "16"}, {"--nregs", "38"}};
  bool replaced = false;
  for (auto& [k, v] : opts) {
    if (k == change[0]) v = change[1], replaced = true;
  }
  if (!replaced) opts.emplace_back(change[0], change[1]);  // an option the anchor does not set
  std::vector<std::string> a{"rblock", "--gpu", "H200"};
  for (const auto& [k, v] : opts) a.insert(a.end(), {k, v});
  return a;
}
const std::string kBatchHeader = "xnumel,xblock,num_warps,rblock,nregs\n";
// occx rblock --input FILE, the file written first (nullopt: not written).
std::vector<std::string> batch(const std::string& name, const std::optional<std::string>& content) {
  const std::string path = content ? scratchFile(name, *content) : scratchDir() + "/" + name;
  return {"rblock", "--gpu", "H200", "--input", path};
}

const std::vector<CliCase>& cliCases() {
  static const std::vector<CliCase> cases = {
      // threads per block: zero, negative, one over, huge, beyond int, not a number, a fraction, empty.
      {"ThreadsZero",
       [] {
         return occ({"--threads", "0", "--regs", "32"});
       },
       {"--threads 0", "allowed 1 … 1024"}},
      {"ThreadsNegative",
       [] {
         return occ({"--threads", "-32", "--regs", "32"});
       },
       {"--threads -32", "allowed 1 … 1024"}},
      {"ThreadsOneOver",
       [] {
         return occ({"--threads", "1025", "--regs", "32"});
       },
       {"--threads 1025", "allowed 1 … 1024"}},
      {"ThreadsIntMax",
       [] {
         return occ({"--threads", "2147483647", "--regs", "32"});
       },
       {"--threads 2147483647", "allowed 1 … 1024"}},
      {"ThreadsBeyondInt",
       [] {
         return occ({"--threads", "99999999999", "--regs", "32"});
       },
       {"99999999999", "--threads", "1 … 1024"}},
      {"ThreadsNotANumber",
       [] {
         return occ({"--threads", "abc", "--regs", "32"});
       },
       {"abc", "--threads", "1 … 1024"}},
      {"ThreadsFraction",
       [] {
         return occ({"--threads", "12.5", "--regs", "32"});
       },
       {"12.5", "--threads", "1 … 1024"}},
      {"ThreadsEmpty",
       [] {
         return occ({"--threads=", "--regs", "32"});
       },
       {"--threads", "1 … 1024"}},
      {"ThreadsMissing",
       [] {
         return occ({"--regs", "32"});
       },
       {"--threads", "1 … 1024"}},
      // registers per thread: 256 (one over 255), negative, not a number.
      {"Registers256",
       [] {
         return occ({"--threads", "256", "--regs", "256"});
       },
       {"--regs 256", "allowed 0 … 255"}},
      {"RegistersNegative",
       [] {
         return occ({"--threads", "256", "--regs", "-1"});
       },
       {"--regs -1", "allowed 0 … 255"}},
      {"RegistersNotANumber",
       [] {
         return occ({"--threads", "256", "--regs", "many"});
       },
       {"many", "--regs", "0 … 255"}},
      // shared memory: static one byte over 48 KB, negative; dynamic negative and absurd.
      {"StaticSmemOneByteOver",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--smem", "49153"});
       },
       {"--smem 49153", "allowed 0 … 49152"}},
      {"StaticSmemNegative",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--smem", "-1"});
       },
       {"--smem -1", "allowed 0 … 49152"}},
      {"DynamicSmemNegative",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--dynamic-smem", "-4096"});
       },
       {"--dynamic-smem -4096", "allowed 0 … 232448"}},
      {"DynamicSmemHuge",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--dynamic-smem", "4000000000"});
       },
       {"--dynamic-smem 4000000000", "allowed 0 … 232448"}},
      {"DynamicSmemBeyondInt64",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--dynamic-smem", "99999999999999999999"});
       },
       {"--dynamic-smem", "99999999999999999999", "beyond 9223372036854775807", "opt-in maximum"}},
      // Static + dynamic one byte over the opt-in maximum per block (CC 9.0: 232448 B) never launches.
      {"DynamicSmemOneByteOver",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--dynamic-smem", "232449"});
       },
       {"--dynamic-smem 232449", "allowed 0 … 232448", "opt-in maximum of 232448 B on CC 9.0"}},
      {"DynamicSmemOneByteOverWithStatic",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--smem", "48", "--dynamic-smem", "232401"});
       },
       {"--dynamic-smem 232401", "allowed 0 … 232400"}},
      // carveout, barriers, grid, SM count.
      {"CarveoutOver100",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--carveout", "101"});
       },
       {"--carveout 101", "0 … 100"}},
      {"CarveoutBelowMinus1",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--carveout", "-2"});
       },
       {"--carveout -2", "0 … 100"}},
      {"BarriersNegative",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--barriers", "-1"});
       },
       {"--barriers -1", "allowed 0 … 16"}},
      {"Barriers17",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--barriers", "17"});
       },
       {"--barriers 17", "allowed 0 … 16"}},
      {"GridNegative",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--grid", "-1"});
       },
       {"--grid -1", "allowed 0 (none) … 9223090559730712575"}},
      {"GridOverCudaMaximum",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--grid", "9223372036854775807"});
       },
       {"--grid 9223372036854775807", "2147483647 × 65535 × 65535"}},
      {"GridBeyondInt64Hex",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--grid", "0x10000000000000000"});
       },
       {"--grid", "0x10000000000000000", "beyond 9223372036854775807"}},
      {"GridBeyondInt64",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--grid", "-99999999999999999999"});
       },
       {"--grid", "-99999999999999999999", "beyond -9223372036854775808"}},
      {"SmsNegative",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--sms", "-1"});
       },
       {"--sms -1", "allowed 1 … 1024"}},
      {"SmsHuge",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--sms", "100000"});
       },
       {"--sms 100000", "allowed 1 … 1024"}},
      // targets: unknown GPU, unknown and malformed compute capabilities, both given.
      {"UnknownGpu",
       [] { return std::vector<std::string>{"occupancy", "--gpu", "H1OO", "--threads", "256", "--regs", "32"}; },
       {"'H1OO' is not a known GPU", "H100-SXM"}},
      {"UnknownCc",
       [] { return std::vector<std::string>{"occupancy", "--cc", "4.0", "--threads", "256", "--regs", "32"}; },
       {"--cc 4.0", "5.0, 5.2"}},
      {"MalformedCc",
       [] { return std::vector<std::string>{"occupancy", "--cc", "abc", "--threads", "256", "--regs", "32"}; },
       {"'abc'", "MAJOR.MINOR"}},
      {"EmptyGpu",
       [] { return std::vector<std::string>{"occupancy", "--gpu", "", "--threads", "256", "--regs", "32"}; },
       {"--gpu", "empty", "a GPU name"}},
      {"EmptyCc",
       [] { return std::vector<std::string>{"occupancy", "--cc", "", "--threads", "256", "--regs", "32"}; },
       {"--cc", "empty", "9.0 or sm_90"}},
      {"GpuAndCc",
       [] {
         return std::vector<std::string>{"occupancy", "--gpu", "H100",   "--cc", "9.0",
                                         "--threads", "256",   "--regs", "32"};
       },
       {"--gpu and --cc", "one of them"}},
      // commands and options that do not exist.
      {"UnknownCommand", [] { return std::vector<std::string>{"frobnicate"}; }, {"frobnicate", "occupancy"}},
      {"NoCommand", [] { return std::vector<std::string>{}; }, {"occupancy"}},
      {"UnknownOption",
       [] {
         return occ({"--threads", "256", "--regs", "32", "--warps", "8"});
       },
       {"--warps"}},
      // GPU data files: unreadable, empty, not JSON, truncated, a missing field, a wrong type.
      {"GpuDataMissingFile",
       [] {
         return std::vector<std::string>{"occupancy", "--gpu-data", scratchDir() + "/no-such.json", "--threads", "256",
                                         "--regs",    "32"};
       },
       {"--gpu-data", "no-such.json"}},
      {"GpuDataEndlessDevice",
       [] {
         return std::vector<std::string>{"occupancy", "--gpu-data", "/dev/zero", "--cc", "9.0",
                                         "--threads", "256",        "--regs",    "32"};
       },
       {"--gpu-data", "'/dev/zero' is more than 16777216 bytes"}},
      {"GpuDataEmpty", [] { return occWithData("empty.json", ""); }, {"empty.json line 1", "not valid JSON"}},
      {"GpuDataTruncated",
       [] { return occWithData("truncated.json", std::string(kGpuData).substr(0, 400)); },
       {"truncated.json line", "not valid JSON"}},
      {"GpuDataMissingField",
       [] { return occWithData("missing.json", gpuDataWith("      \"max_warps_per_sm\": 64,\n", "")); },
       {"missing.json line 6", "architecture 9.0", "'max_warps_per_sm' is missing"}},
      {"GpuDataWrongType",
       [] {
         return occWithData("wrongtype.json", gpuDataWith("\"max_warps_per_sm\": 64", "\"max_warps_per_sm\": \"64\""));
       },
       {"wrongtype.json line 10", "'max_warps_per_sm'", "wrong type (string)"}},
      // occx rblock: XBLOCK and RBLOCK not powers of two, num_warps 0 and 64, xnumel 0, registers 256.
      {"RblockXblockNotPowerOfTwo",
       [] {
         return rblock({"--xblock", "3"});
       },
       {"--xblock 3", "a power of two 1 … 4096"}},
      {"RblockRblockNotPowerOfTwo",
       [] {
         return rblock({"--rblock", "1000"});
       },
       {"--rblock 1000", "a power of two 1 … 65536"}},
      {"RblockNumWarps0",
       [] {
         return rblock({"--num-warps", "0"});
       },
       {"--num-warps 0", "a power of two 1 … 32"}},
      {"RblockNumWarps64",
       [] {
         return rblock({"--num-warps", "64"});
       },
       {"--num-warps 64", "a power of two 1 … 32"}},
      {"RblockXnumel0",
       [] {
         return rblock({"--xnumel", "0"});
       },
       {"--xnumel 0", "allowed 1 … 2147483647"}},
      {"RblockXnumelBeyondInt",
       [] {
         return rblock({"--xnumel", "99999999999"});
       },
       {"--xnumel 99999999999", "allowed 1 … 2147483647"}},
      {"RblockRegisters256",
       [] {
         return rblock({"--nregs", "256"});
       },
       {"--nregs 256", "allowed 1 … 255"}},
      {"RblockRegistersMinus1",
       [] {
         return rblock({"--nregs", "-1"});
       },
       {"--nregs -1", "allowed 1 … 255"}},
      {"RblockSpillsNegative",
       [] {
         return rblock({"--nspills", "-1"});
       },
       {"--nspills -1", "allowed 0 … 1048576"}},
      {"RblockSharedOneByteOver",
       [] {
         return rblock({"--shared-bytes", "232449"});
       },
       {"--shared-bytes 232449", "allowed 0 … 232448"}},
      {"RblockRnumelBeyondInt64",
       [] {
         return rblock({"--rnumel", "18446744073709551616"});
       },
       {"--rnumel", "18446744073709551616", "beyond 9223372036854775807"}},
      {"RblockRegistersNotANumber",
       [] {
         return rblock({"--nregs", "lots"});
       },
       {"lots", "--nregs", "1 … 255"}},
      // occx rblock --input: the batch CSV missing, empty, truncated, wrongly encoded, too big, with a
      // missing column, an extra cell, a bad value.
      {"RblockInputMissingFile",
       [] { return batch("absent.csv", std::nullopt); },
       {"--input", "absent.csv", "No such file"}},
      {"RblockInputEmpty", [] { return batch("empty.csv", ""); }, {"empty.csv", "CSV is empty"}},
      {"RblockInputTruncated",
       [] { return batch("truncated.csv", kBatchHeader + "512,1,16,20"); },
       {"truncated.csv", "CSV line 2", "4 cells", "header has 5 columns"}},
      {"RblockInputLatin1",
       [] { return batch("latin1.csv", "xnumel,xblock,num_warps,rblock,nregs,gpu\n512,1,16,2048,38,H\xe9\n"); },
       {"latin1.csv", "CSV line 2", "not UTF-8"}},
      {"RblockInputMissingColumn",
       [] { return batch("nowarps.csv", "xnumel,xblock,rblock,nregs\n512,1,2048,38\n"); },
       {"nowarps.csv", "lacks the column(s) num_warps", "required xnumel"}},
      {"RblockInputExtraCell",
       [] { return batch("extra.csv", kBatchHeader + "512,1,16,2048,38,7\n"); },
       {"extra.csv", "CSV line 2", "6 cells", "header has 5 columns"}},
      {"RblockInputBadXblock",
       [] { return batch("xblock3.csv", kBatchHeader + "512,3,16,2048,38\n"); },
       {"xblock3.csv", "row 1", "XBLOCK 3", "a power of two 1 … 4096"}},
      {"RblockInputEndlessDevice",
       [] {
         return std::vector<std::string>{"rblock", "--gpu", "H200", "--input", "/dev/zero"};
       },
       {"--input", "'/dev/zero' is more than 16777216 bytes"}},
      {"RblockInput100MB",
       [] {
         const std::string path = scratchDir() + "/big.csv";
         std::string block;
         while (block.size() < std::size_t{1} << 20) block += "512,1,16,2048,38\n";
         std::ofstream f(path, std::ios::binary);
         f << kBatchHeader;
         for (int i = 0; i < 100; ++i) f << block;
         f.close();
         return std::vector<std::string>{"rblock", "--gpu", "H200", "--input", path};
       },
       {"big.csv", "bytes: larger than the 16777216-byte limit"}},
  };
  return cases;
}

class InvalidCli : public ::testing::TestWithParam<CliCase> {};

TEST_P(InvalidCli, ExitsWithUsageErrorNamingValueAndRange) {
  const CliCase& c = GetParam();
  const CliRun r = runOccx(c.args());
  EXPECT_EQ(r.code, c.exit_code) << "stderr: " << r.err;
  for (const auto& n : c.needles) EXPECT_NE(r.err.find(n), std::string::npos) << "missing '" << n << "' in: " << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << "nothing belongs on stdout after a refused command: " << r.out;
}

INSTANTIATE_TEST_SUITE_P(Matrix, InvalidCli, ::testing::ValuesIn(cliCases()),
                         [](const ::testing::TestParamInfo<CliCase>& i) { return std::string(i.param.name); });

// ---- the core API cases -------------------------------------------------------------------------

// What a core call gave back: an Error, a "cannot launch" result, or (a defect) plain success.
struct ApiOutcome {
  enum Kind { kError, kCannotLaunch, kAccepted } kind = kAccepted;
  std::string message;
};

struct ApiCase {
  const char* name;
  std::function<ApiOutcome()> run;
  ApiOutcome::Kind expected = ApiOutcome::kError;
  std::vector<std::string> needles;  // every one must appear in the message
};
void PrintTo(const ApiCase& c, std::ostream* os) {
  *os << c.name;
}

const ArchLimits& hopper() {
  return *GpuDatabase::builtin().findArch({9, 0});
}

// computeOccupancy on CC 9.0 with one field of the default input (256 threads, 32 registers) changed.
template <class Edit>
std::function<ApiOutcome()> occupancyWith(Edit edit) {
  return [edit] {
    OccupancyInput in;
    edit(in);
    auto r = computeOccupancy(hopper(), in, true);
    if (!r) return ApiOutcome{ApiOutcome::kError, r.error()};
    if (!r->can_launch) return ApiOutcome{ApiOutcome::kCannotLaunch, r->cannot_launch_reason};
    return ApiOutcome{ApiOutcome::kAccepted, {}};
  };
}

template <class T>
ApiOutcome outcomeOf(const Expected<T>& e) {
  return e ? ApiOutcome{ApiOutcome::kAccepted, {}} : ApiOutcome{ApiOutcome::kError, e.error()};
}

std::function<ApiOutcome()> csv(std::string text) {
  return [text = std::move(text)] { return outcomeOf(parseCsv(text)); };
}
std::function<ApiOutcome()> gpuData(std::string text) {
  return [text = std::move(text)] { return outcomeOf(GpuDatabase::parse(text, "gpus.json")); };
}
std::function<ApiOutcome()> cc(std::string text) {
  return [text = std::move(text)] { return outcomeOf(ComputeCapability::parse(text)); };
}

constexpr auto kCannot = ApiOutcome::kCannotLaunch;
constexpr std::int64_t kInt64Max = INT64_MAX;

const std::vector<ApiCase>& apiCases() {
  static const std::vector<ApiCase> cases = {
      // computeOccupancy: malformed values are Errors.
      {"OccThreadsNegative",
       occupancyWith([](OccupancyInput& i) { i.threads_per_block = -1; }),
       ApiOutcome::kError,
       {"threads per block -1", "allowed 1 … 1024"}},
      {"OccRegistersNegative",
       occupancyWith([](OccupancyInput& i) { i.registers_per_thread = -7; }),
       ApiOutcome::kError,
       {"registers per thread -7", "allowed 0 … 255"}},
      {"OccStaticSmemNegative",
       occupancyWith([](OccupancyInput& i) { i.static_smem_bytes = -1; }),
       ApiOutcome::kError,
       {"-1 bytes", "allowed 0 … 232448"}},
      {"OccDynamicSmemNegative",
       occupancyWith([](OccupancyInput& i) { i.dynamic_smem_bytes = INT64_MIN; }),
       ApiOutcome::kError,
       {"-9223372036854775808", "allowed 0 … 232448"}},
      {"OccCarveout101",
       occupancyWith([](OccupancyInput& i) { i.carveout_percent = 101; }),
       ApiOutcome::kError,
       {"carveout preference 101", "0 … 100"}},
      {"OccCarveoutMinus2",
       occupancyWith([](OccupancyInput& i) { i.carveout_percent = -2; }),
       ApiOutcome::kError,
       {"carveout preference -2", "0 … 100"}},
      {"OccBarriersNegative",
       occupancyWith([](OccupancyInput& i) { i.block_barriers = -1; }),
       ApiOutcome::kError,
       {"block barriers -1", "allowed 0 … 16"}},
      {"OccGridNegative",
       occupancyWith([](OccupancyInput& i) { i.grid_blocks = -1; }),
       ApiOutcome::kError,
       {"-1", "must not be negative"}},
      {"OccSmCountNegative",
       occupancyWith([](OccupancyInput& i) { i.sm_count = INT_MIN; }),
       ApiOutcome::kError,
       {"-2147483648", "must not be negative"}},
      // computeOccupancy: values in the type's range that no GPU can launch give a reason.
      {"OccThreadsZero",
       occupancyWith([](OccupancyInput& i) { i.threads_per_block = 0; }),
       kCannot,
       {"0 threads", "allowed 1 … 1024"}},
      {"OccThreadsOneOver",
       occupancyWith([](OccupancyInput& i) { i.threads_per_block = 1025; }),
       kCannot,
       {"1025 threads", "limit of 1024"}},
      {"OccThreadsIntMax",
       occupancyWith([](OccupancyInput& i) { i.threads_per_block = INT_MAX; }),
       kCannot,
       {"2147483647 threads", "limit of 1024"}},
      {"OccThreadsAndRegistersHuge",
       occupancyWith([](OccupancyInput& i) {
         i.threads_per_block = INT_MAX;
         i.registers_per_thread = INT_MAX;
       }),
       kCannot,
       {"2147483647 threads", "limit of 1024"}},
      {"OccRegisters256",
       occupancyWith([](OccupancyInput& i) { i.registers_per_thread = 256; }),
       kCannot,
       {"256 registers per thread", "limit of 255"}},
      {"OccRegistersIntMax",
       occupancyWith([](OccupancyInput& i) { i.registers_per_thread = INT_MAX; }),
       kCannot,
       {"2147483647 registers per thread", "limit of 255"}},
      {"OccStaticSmemOneByteOver",
       occupancyWith([](OccupancyInput& i) { i.static_smem_bytes = 49153; }),
       kCannot,
       {"49153 B", "49152 B static limit"}},
      {"OccDynamicSmemOneByteOver",
       occupancyWith([](OccupancyInput& i) { i.dynamic_smem_bytes = 232449; }),
       kCannot,
       {"232449 B", "opt-in maximum of 232448 B"}},
      // Sizes beyond 1 TiB are malformed (their sums would overflow); just under is "cannot launch".
      {"OccDynamicSmemInt64Max",
       occupancyWith([](OccupancyInput& i) { i.dynamic_smem_bytes = kInt64Max; }),
       ApiOutcome::kError,
       {"9223372036854775807 bytes", "allowed 0 … 232448"}},
      {"OccStaticAndDynamicSmemInt64Max",
       occupancyWith([](OccupancyInput& i) {
         i.static_smem_bytes = kInt64Max;
         i.dynamic_smem_bytes = kInt64Max;
       }),
       ApiOutcome::kError,
       {"9223372036854775807 bytes", "allowed 0 … 232448"}},
      {"OccDynamicSmemOneTiB",
       occupancyWith([](OccupancyInput& i) { i.dynamic_smem_bytes = std::int64_t{1} << 40; }),
       kCannot,
       {"1099511627776 B", "opt-in maximum of 232448 B"}},
      // ComputeCapability::parse.
      {"CcEmpty", cc(""), ApiOutcome::kError, {"''", "MAJOR.MINOR"}},
      {"CcLetters", cc("abc"), ApiOutcome::kError, {"'abc'", "MAJOR.MINOR"}},
      {"CcTwoDigitMinor", cc("9.10"), ApiOutcome::kError, {"'9.10'", "MAJOR.MINOR"}},
      {"CcNegative", cc("-9.0"), ApiOutcome::kError, {"'-9.0'", "MAJOR.MINOR"}},
      {"CcThreeParts", cc("9.0.1"), ApiOutcome::kError, {"'9.0.1'", "MAJOR.MINOR"}},
      {"CcSmPrefixOnly", cc("sm_"), ApiOutcome::kError, {"'sm_'", "sm_90"}},
      // parseCsv: empty, malformed, truncated, wrongly encoded, too big; extra and missing cells.
      {"CsvEmpty", csv(""), ApiOutcome::kError, {"CSV is empty", "header line"}},
      {"CsvOnlyByteOrderMark", csv("\xEF\xBB\xBF"), ApiOutcome::kError, {"CSV is empty"}},
      {"CsvOnlyMetadata", csv("# device: H200\n# toolkit: 13.0\n"), ApiOutcome::kError, {"CSV is empty"}},
      {"CsvOnlyBlankLines", csv("\n\r\n\n"), ApiOutcome::kError, {"CSV is empty"}},
      {"CsvUnclosedQuote",
       csv("config,time_us\n\"XBLOCK=1,2.5\n3,4\n"),
       ApiOutcome::kError,
       {"CSV line 2", "never closed"}},
      {"CsvQuoteInsideUnquotedCell",
       csv("config,time_us\nXBLOCK\"1,2.5\n"),
       ApiOutcome::kError,
       {"CSV line 2", "quote inside an unquoted cell"}},
      {"CsvTruncatedLastRow",
       csv("xblock,rblock,time_us\n1,2048,3.5\n1,10"),
       ApiOutcome::kError,
       {"CSV line 3", "2 cells", "header has 3 columns"}},
      {"CsvExtraColumn",
       csv("# device: H200\nxblock,rblock\n1,2048\n1,1024,7\n"),
       ApiOutcome::kError,
       {"CSV line 4", "3 cells", "header has 2 columns"}},
      {"CsvMissingColumn",
       csv("xblock,rblock,time_us\r\n1,2048\r\n"),
       ApiOutcome::kError,
       {"CSV line 2", "2 cells", "header has 3 columns"}},
      {"CsvNulByte", csv(std::string("a,b\n1,\0\n", 8)), ApiOutcome::kError, {"CSV line 2", "NUL byte"}},
      {"CsvUtf16",
       csv(std::string("\xFF\xFE"
                       "a\0,\0b\0",
                       8)),
       ApiOutcome::kError,
       {"CSV line 1", "NUL byte"}},
      {"CsvLatin1",
       csv("gpu,time_us\nGeForce caf\xE9,3\n"),
       ApiOutcome::kError,
       {"CSV line 2", "not UTF-8", "byte 23"}},
      {"CsvTruncatedUtf8", csv("gpu,time_us\n1,\xC3"), ApiOutcome::kError, {"CSV line 2", "not UTF-8"}},
      {"CsvOverlongUtf8", csv("gpu\n\xC0\xAF\n"), ApiOutcome::kError, {"CSV line 2", "not UTF-8"}},
      {"CsvUtf8Surrogate", csv("gpu\n\xED\xA0\x80\n"), ApiOutcome::kError, {"CSV line 2", "not UTF-8"}},
      {"CsvBeyondUnicode", csv("gpu\n\xF4\x90\x80\x80\n"), ApiOutcome::kError, {"CSV line 2", "not UTF-8"}},
      {"Csv100MB",
       [] {
         std::string block;  // 1 MiB of rows, appended 100 times
         while (block.size() < std::size_t{1} << 20) block += "1,2048,3.25\n";
         std::string big = "xblock,rblock,time_us\n";
         for (int i = 0; i < 100; ++i) big += block;
         return outcomeOf(parseCsv(big));
       },
       ApiOutcome::kError,
       {"CSV is 104858422 bytes", "16777216-byte limit"}},
      {"CsvTooManyCells",
       [] { return outcomeOf(parseCsv("a,b,c\n1,2,3\n4,5,6\n7,8,9\n", kMaxCsvBytes, 10)); },
       ApiOutcome::kError,
       {"CSV line 4", "more than 10 cells"}},
      // GpuDatabase::parse: each error names the file, the line, the entry and the field.
      {"GpuDataEmpty", gpuData(""), ApiOutcome::kError, {"gpus.json line 1", "not valid JSON"}},
      {"GpuDataNotJson", gpuData("name,cc\nH100,9.0\n"), ApiOutcome::kError, {"gpus.json line 1", "not valid JSON"}},
      {"GpuDataTruncated",
       gpuData(std::string(kGpuData).substr(0, 300)),
       ApiOutcome::kError,
       {"gpus.json line", "not valid JSON"}},
      {"GpuDataWrongFormat",
       gpuData(gpuDataWith("occupancy-explorer-gpu-data", "something-else")),
       ApiOutcome::kError,
       {"'format'", "occupancy-explorer-gpu-data"}},
      {"GpuDataVersion2",
       gpuData(gpuDataWith("\"version\": 1", "\"version\": 2")),
       ApiOutcome::kError,
       {"'version'", "must be 1"}},
      {"GpuDataMissingField",
       gpuData(gpuDataWith("      \"registers_per_sm\": 65536,\n", "")),
       ApiOutcome::kError,
       {"gpus.json line 6", "architecture 9.0", "'registers_per_sm' is missing"}},
      {"GpuDataWrongType",
       gpuData(gpuDataWith("\"max_blocks_per_sm\": 32", "\"max_blocks_per_sm\": true")),
       ApiOutcome::kError,
       {"gpus.json line 11", "'max_blocks_per_sm'", "wrong type (boolean)"}},
      {"GpuDataFractionForInteger",
       gpuData(gpuDataWith("\"max_warps_per_sm\": 64", "\"max_warps_per_sm\": 64.5")),
       ApiOutcome::kError,
       {"gpus.json line 10", "'max_warps_per_sm'", "64.5", "an integer"}},
      {"GpuDataHugeFloatForInteger",
       gpuData(gpuDataWith("\"max_warps_per_sm\": 64", "\"max_warps_per_sm\": 1e300")),
       ApiOutcome::kError,
       {"gpus.json line 10", "'max_warps_per_sm'", "1e+300", "an integer"}},
      {"GpuDataIntegerBeyondInt",
       gpuData(gpuDataWith("\"max_warps_per_sm\": 64", "\"max_warps_per_sm\": 4294967360")),
       ApiOutcome::kError,
       {"gpus.json line 10", "'max_warps_per_sm'", "4294967360", "allowed"}},
      // Found by fuzz_gpu_data: a number too big for a double made the JSON library throw
      // out_of_range (not parse_error), which escaped GpuDatabase::parse.
      {"GpuDataNumberOverflow",
       gpuData(gpuDataWith("\"max_warps_per_sm\": 64", "\"max_warps_per_sm\": 1e300256")),
       ApiOutcome::kError,
       {"gpus.json line 10", "not valid JSON", "1e300256"}},
      {"GpuDataNegative",
       gpuData(gpuDataWith("\"max_blocks_per_sm\": 32", "\"max_blocks_per_sm\": -32")),
       ApiOutcome::kError,
       {"gpus.json line 11", "'max_blocks_per_sm'", "-32", "allowed"}},
      {"GpuDataZeroWarpSize",
       gpuData(gpuDataWith("\"warp_size\": 32", "\"warp_size\": 0")),
       ApiOutcome::kError,
       {"gpus.json line 8", "'warp_size'", "got 0 (allowed 1 … 1024)"}},
      // Found by fuzz_gpu_data: limits that parse but no GPU has made the calculator overflow (warp
      // size, shared memory near INT64_MAX) or a shared-memory sweep allocate terabytes (unit 1 B).
      {"GpuDataHugeWarpSize",
       gpuData(gpuDataWith("\"warp_size\": 32", "\"warp_size\": 2147483647")),
       ApiOutcome::kError,
       {"gpus.json line 8", "'warp_size'", "got 2147483647 (allowed 1 … 1024)"}},
      {"GpuDataHugeSharedMemory",
       gpuData(gpuDataWith("\"shared_memory_per_sm\": 233472", "\"shared_memory_per_sm\": 9223372036854775807")),
       ApiOutcome::kError,
       {"gpus.json line 17", "'shared_memory_per_sm'", "9223372036854775807", "allowed 1 … 4194304"}},
      {"GpuDataOneByteAllocationUnit",
       gpuData(gpuDataWith("\"shared_memory_allocation_unit\": 128", "\"shared_memory_allocation_unit\": 1")),
       ApiOutcome::kError,
       {"gpus.json line 20", "'shared_memory_allocation_unit'", "got 1 (allowed 8 … 65536)"}},
      {"GpuDataHugeCarveout",
       gpuData(gpuDataWith("[0, 8, 16,", "[0, 2147483647, 16,")),
       ApiOutcome::kError,
       {"gpus.json line 22", "'shared_memory_carveout_kb'", "2147483647 KB", "allowed 0 … 4096 KB"}},
      {"GpuDataRegistersPerThreadHuge",
       gpuData(gpuDataWith("\"max_registers_per_thread\": 255", "\"max_registers_per_thread\": 2147483647")),
       ApiOutcome::kError,
       {"gpus.json line 14", "'max_registers_per_thread'", "allowed 0 … 65536"}},
      {"GpuDataUnknownCcInGpu",
       gpuData(gpuDataWith("\"cc\": \"9.0\", \"sm_count\"", "\"cc\": \"8.0\", \"sm_count\"")),
       ApiOutcome::kError,
       {"gpus.json line 28", "gpu 'Test GPU'", "8.0", "defined: 9.0"}},
      {"GpuDataZeroSms",
       gpuData(gpuDataWith("\"sm_count\": 132", "\"sm_count\": 0")),
       ApiOutcome::kError,
       {"gpus.json line 28", "'sm_count'", "got 0 (allowed 1 … 65536)"}},
      {"GpuDataNotUtf8",
       gpuData(gpuDataWith("\"family\": \"Hopper\"", "\"family\": \"Hopp\xE9r\"")),
       ApiOutcome::kError,
       {"gpus.json line 7", "not valid JSON"}},
  };
  return cases;
}

class InvalidApi : public ::testing::TestWithParam<ApiCase> {};

TEST_P(InvalidApi, RefusedWithMessageNamingValueAndRange) {
  const ApiCase& c = GetParam();
  const ApiOutcome o = c.run();
  EXPECT_EQ(o.kind, c.expected) << "message: " << o.message;
  for (const auto& n : c.needles)
    EXPECT_NE(o.message.find(n), std::string::npos) << "missing '" << n << "' in: " << o.message;
}

INSTANTIATE_TEST_SUITE_P(Matrix, InvalidApi, ::testing::ValuesIn(apiCases()),
                         [](const ::testing::TestParamInfo<ApiCase>& i) { return std::string(i.param.name); });

TEST(InvalidInputMatrix, HasAtLeastFortyCases) {
  EXPECT_GE(cliCases().size() + apiCases().size(), 40u);
}

// Threads that are not a multiple of the warp size are legal for a CUDA launch: the block is padded
// to whole warps. 33 threads = 2 warps; 64 / 2 = 32 blocks by warps, capped at 32 resident blocks.
TEST(InvalidInputControls, ThreadsNotAMultipleOfTheWarpSizeRoundUpToWholeWarps) {
  OccupancyInput in;
  in.threads_per_block = 33;
  in.registers_per_thread = 32;
  auto r = computeOccupancy(hopper(), in, false);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->warps_per_block, 2);
  EXPECT_EQ(r->active_blocks_per_sm, 32);
  EXPECT_EQ(r->active_warps_per_sm, 64);
  const CliRun cli = runOccx({"occupancy", "--gpu", "H100-SXM", "--threads", "33", "--regs", "32"});
  EXPECT_EQ(cli.code, 0) << cli.err;
}

// The valid GPU data file that the failing cases edit really is valid (else they prove nothing).
TEST(InvalidInputControls, TheBaseGpuDataFileParses) {
  auto db = GpuDatabase::parse(kGpuData, "gpus.json");
  ASSERT_TRUE(db) << db.error();
  ASSERT_NE(db->findGpu("TG"), nullptr);
  EXPECT_EQ(db->findGpu("TG")->sm_count, 132);
  const CliRun cli = runOccx(occWithData("valid.json", kGpuData));
  EXPECT_EQ(cli.code, 0) << cli.err;
}

// The rblock cases change one option of an accepted command; unchanged, it runs.
TEST(InvalidInputControls, TheRblockAnchorAndBatchAreAccepted) {
  const CliRun one = runOccx(rblock({"--xnumel", "512"}));
  EXPECT_EQ(one.code, 0) << one.err;
  const CliRun many = runOccx(batch("ok.csv", kBatchHeader + "512,1,16,2048,38\n"));
  EXPECT_EQ(many.code, 0) << many.err;
}

// A well-formed CSV with every feature the failing cases break (BOM, metadata, CRLF, quoted commas
// and quotes) parses, so the failures above come from the damage alone.
TEST(InvalidInputControls, ValidCsvWithQuotesAndCrlfParses) {
  auto t = parseCsv(
      "\xEF\xBB\xBF# device: H200\r\nconfig,time_us\r\n\"XBLOCK=1, R0_BLOCK=2048\",3.5\r\n\"say \"\"hi\"\"\",4\r\n");
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->metaValue("device"), "H200");
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[0][0], "XBLOCK=1, R0_BLOCK=2048");
  EXPECT_EQ(t->rows[1][0], "say \"hi\"");
}

}  // namespace
