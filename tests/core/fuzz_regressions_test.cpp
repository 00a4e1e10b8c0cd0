// Regression tests for the faults the fuzzers (tests/fuzz) and the sanitizer build found. Each test
// names the target that found it and asserts the corrected behaviour with exact values. Faults found
// through the invalid-input matrix live in invalid_input_test.cpp (marked "Found by").
#include <gtest/gtest.h>
#include <stdlib.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "core/kernels/compile_cache.h"
#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"

using namespace occx;

namespace {

CsvTable roundTrip(const CsvTable& t) {
  auto back = parseCsv(toCsv(t));
  EXPECT_TRUE(back) << back.error() << "\nwritten:\n" << toCsv(t);
  return back ? *back : CsvTable{};
}

// fuzz_csv, input `""`: a one-column table whose header (or a row) is one empty cell was written as
// an empty line, which the reader skips — the file came back empty (an error) or a row short.
TEST(FuzzRegressionCsv, OneEmptyCellIsWrittenQuoted) {
  auto parsed = parseCsv("\"\"");
  ASSERT_TRUE(parsed) << parsed.error();
  ASSERT_EQ(parsed->header, std::vector<std::string>{""});
  EXPECT_EQ(toCsv(*parsed), "\"\"\n");
  CsvTable t;
  t.header = {"note"};
  t.rows = {{"a"}, {""}, {"b"}};
  EXPECT_EQ(toCsv(t), "note\na\n\"\"\nb\n");
  EXPECT_EQ(roundTrip(t).rows, t.rows);
}

// Found with fuzz_csv's round-trip property: a header cell starting with '#' was written bare and
// read back as a metadata line; one starting with a byte-order mark lost it when first in the file.
TEST(FuzzRegressionCsv, HeaderStartingWithHashOrByteOrderMarkIsQuoted) {
  CsvTable t;
  t.header = {"#config", "time_us"};
  t.rows = {{"XBLOCK=1", "3.5"}};
  EXPECT_EQ(toCsv(t), "\"#config\",time_us\nXBLOCK=1,3.5\n");
  CsvTable back = roundTrip(t);
  EXPECT_TRUE(back.meta.empty());
  EXPECT_EQ(back.header, t.header);
  EXPECT_EQ(back.rows, t.rows);

  t.header = {"#say \"hi\""};
  t.rows = {{"1"}};
  EXPECT_EQ(toCsv(t), "\"#say \"\"hi\"\"\"\n1\n");
  EXPECT_EQ(roundTrip(t).header, t.header);

  t.header = {"\xEF\xBB\xBFid"};
  EXPECT_EQ(roundTrip(t).header, t.header);
}

// The sanitizer build, through the invalid-input matrix: an oversized block (INT_MAX threads)
// overflowed int in the register arithmetic (67108864 warps × 1024 registers). The impact curves
// with such inputs stay empty or all-zero instead of overflowing.
TEST(FuzzRegressionOccupancy, ImpactSweepsWithExtremeInputsAreBounded) {
  const ArchLimits& h = *GpuDatabase::builtin().findArch({9, 0});
  OccupancyInput in;
  in.threads_per_block = INT_MAX;
  in.registers_per_thread = INT_MAX;
  in.static_smem_bytes = INT64_MAX;
  EXPECT_TRUE(sweepSharedMemory(h, in).empty());  // static over the opt-in maximum: nothing to sweep
  auto regs = sweepRegisters(h, in);              // threads still INT_MAX: no point can launch
  ASSERT_EQ(regs.size(), 255u);
  for (const auto& p : regs) EXPECT_EQ(p.active_blocks_per_sm, 0) << p.x;
  in.static_smem_bytes = 0;
  auto blocks = sweepBlockSize(h, in);  // registers INT_MAX: over 255, no block launches
  ASSERT_EQ(blocks.size(), 32u);
  for (const auto& p : blocks) EXPECT_EQ(p.active_blocks_per_sm, 0) << p.x;
}

// Writes `entry` (with `from` replaced by `to`) over the cache's entry for a fixed request and
// looks it up: true when it hits.
struct CacheFixture {
  std::string dir;
  CompileRequest req;
  std::vector<std::string> options{"--gpu-architecture=sm_90", "-O3"};
  std::string path;
  CacheFixture() {
    dir = (std::filesystem::temp_directory_path() / "occx-cache-regression-XXXXXX").string();
    if (::mkdtemp(dir.data()) == nullptr) dir.clear();
    req.source = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n";  // 67 bytes
    req.kernel_name = "k";
    req.arch = {9, 0};
  }
  ~CacheFixture() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

// fuzz_cache (5-minute run): a size written as a number beyond 2^64 ("source_bytes":
// 18744644073709551615) is a JSON float; converting it to uint64 was undefined behaviour (UBSan:
// "outside the range of representable values"). Now a corrupt entry.
TEST(FuzzRegressionCache, SizeBeyondTwoToThe64IsACorruptEntry) {
  CacheFixture f;
  ASSERT_FALSE(f.dir.empty());
  CompileCache cache(f.dir);
  CompileResult r;
  r.kernel_name = "k";
  r.report.function = "k";
  r.report.arch = "sm_90";
  r.report.registers = 8;
  auto path = cache.store(f.req, f.options, "NVRTC 13.0", r);
  ASSERT_TRUE(path) << path.error();
  std::ifstream in(*path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string entry = ss.str();
  const auto p = entry.find("\"source_bytes\":67");
  ASSERT_NE(p, std::string::npos) << entry;
  entry.replace(p, 18, "\"source_bytes\":18744644073709551615");
  std::ofstream(*path, std::ios::binary | std::ios::trunc) << entry;
  EXPECT_FALSE(cache.lookup(f.req, f.options, "NVRTC 13.0").has_value());
  EXPECT_EQ(cache.stats().corrupt, 1);
}

// fuzz_cache: an entry whose size fields add up to the file's size only by wrapping around 2^64
// (log_bytes = 2^64 - 1, cubin_bytes = 41, checksum valid) was read as a hit whose log and cubin were
// the wrong bytes. It is now a corrupt entry (a miss, compiled again).
TEST(FuzzRegressionCache, SizesThatWrapAroundAreACorruptEntry) {
  std::string dir = (std::filesystem::temp_directory_path() / "occx-cache-regression-XXXXXX").string();
  ASSERT_NE(::mkdtemp(dir.data()), nullptr);
  CompileCache cache(dir);
  CompileRequest req;
  req.source = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n";  // 67 bytes
  req.kernel_name = "k";
  req.arch = {9, 0};
  const std::vector<std::string> options{"--gpu-architecture=sm_90", "-O3"};
  CompileResult r;
  r.kernel_name = "k";
  r.report.function = "k";
  r.report.arch = "sm_90";
  r.report.registers = 8;
  r.log = "ptxas info    : Used 8 registers\n";  // 33 bytes
  r.cubin = {0x7f, 'E', 'L', 'F', 2, 1, 1};      // 7 bytes
  auto path = cache.store(req, options, "NVRTC 13.0", r);
  ASSERT_TRUE(path) << path.error();
  ASSERT_TRUE(cache.lookup(req, options, "NVRTC 13.0").has_value());  // the valid entry hits

  std::ifstream in(*path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  std::string entry = ss.str();
  auto replace = [&entry](const std::string& from, const std::string& to) {
    const auto p = entry.find(from);
    ASSERT_NE(p, std::string::npos) << from;
    entry.replace(p, from.size(), to);
  };
  replace("\"log_bytes\":33", "\"log_bytes\":18446744073709551615");  // 67 + (2^64 - 1) + 41 ≡ 107
  replace("\"cubin_bytes\":7", "\"cubin_bytes\":41");
  std::ofstream(*path, std::ios::binary | std::ios::trunc) << entry;  // checksum still matches the payload

  EXPECT_FALSE(cache.lookup(req, options, "NVRTC 13.0").has_value());
  EXPECT_EQ(cache.stats().corrupt, 1);
  EXPECT_EQ(cache.stats().hits, 1);
  std::filesystem::remove_all(dir);
}

}  // namespace
