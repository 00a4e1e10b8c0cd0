// Regression tests for the faults the fuzzers (tests/fuzz) and the sanitizer build found. Each test
// names the target that found it and asserts the corrected behaviour with exact values. Faults found
// through the invalid-input matrix live in invalid_input_test.cpp (marked "Found by").
#include <gtest/gtest.h>
#include <stdlib.h>

#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/kernels/compile_cache.h"
#include "core/occupancy/occupancy.h"
#include "core/triton/cubin.h"
#include "core/triton/kernel_module.h"

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

// fuzz_csv, a kernel-runs CSV whose "# device:" value began with carriage returns: toCsv turned them
// into spaces, which parseCsv skips at the start of a value, so writing what was read back gave
// different text ("kernel runs survive write → read → write"). A value's leading spaces are now left
// out when writing, and its line breaks stay spaces.
TEST(FuzzRegressionCsv, MetadataWrittenAsItReadsBack) {
  auto parsed = parseCsv("# device: \r\r\rNVIDIA\r\rH200\r\n#  sm_count:   132  \nkernel\nk\n");
  ASSERT_TRUE(parsed) << parsed.error();
  ASSERT_EQ(parsed->meta.size(), 2U);
  EXPECT_EQ(parsed->meta[0].second, "\r\r\rNVIDIA\r\rH200");
  EXPECT_EQ(parsed->meta[1].first, "sm_count");
  EXPECT_EQ(parsed->meta[1].second, "132  ");
  const std::string written = toCsv(*parsed);
  EXPECT_EQ(written, "# device: NVIDIA  H200\n# sm_count: 132  \nkernel\nk\n");
  EXPECT_EQ(toCsv(roundTrip(*parsed)), written);

  CsvTable t;
  t.meta = {{"note", "\n  two\nlines"}};
  t.header = {"a"};
  EXPECT_EQ(toCsv(t), "# note: two lines\na\n");
  EXPECT_EQ(roundTrip(t).meta, (std::vector<std::pair<std::string, std::string>>{{"note", "two lines"}}));
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
  EXPECT_TRUE(sharedMemoryCurve(h, in).empty());  // static over the opt-in maximum: nothing to sweep
  auto regs = registersCurve(h, in);              // threads still INT_MAX: no point can launch
  ASSERT_EQ(regs.size(), 255u);
  for (const auto& p : regs) EXPECT_EQ(p.active_blocks_per_sm, 0) << p.x;
  in.static_smem_bytes = 0;
  auto blocks = blockSizeCurve(h, in);  // registers INT_MAX: over 255, no block launches
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

// One section of a cubin made by cubinOf: its bytes are written in order after the ELF header;
// `offset` and `size` replace what the section header then says.
struct ElfSection {
  std::string name;
  std::uint32_t type = 1;  // SHT_PROGBITS; 2 SHT_SYMTAB, 3 SHT_STRTAB, 8 SHT_NOBITS, 0x70000000 .nv.info
  std::vector<unsigned char> bytes;
  std::uint32_t link = 0;
  std::optional<std::uint64_t> offset = std::nullopt;
  std::optional<std::uint64_t> size = std::nullopt;
};

template <class T>
void put(std::vector<unsigned char>& out, std::size_t at, T value) {
  std::memcpy(out.data() + at, &value, sizeof value);
}

// An ELF64 little-endian file for sm_90 holding the null section, `sections` (indices 1, 2, …) and
// the section name table last: the parts of a cubin that readCubin reads.
std::vector<unsigned char> cubinOf(std::vector<ElfSection> sections) {
  sections.push_back({".shstrtab", 3, {}});
  std::string names(1, '\0');
  std::vector<std::uint32_t> name_at;
  for (const auto& s : sections) {
    name_at.push_back(static_cast<std::uint32_t>(names.size()));
    names += s.name + '\0';
  }
  sections.back().bytes.assign(names.begin(), names.end());
  std::vector<unsigned char> out(64, 0);
  std::vector<std::uint64_t> offsets;
  for (const auto& s : sections) {
    offsets.push_back(out.size());
    out.insert(out.end(), s.bytes.begin(), s.bytes.end());
  }
  out.resize((out.size() + 7) / 8 * 8, 0);
  const std::size_t shoff = out.size();
  const std::size_t count = sections.size() + 1;
  out.resize(shoff + 64 * count, 0);
  for (std::size_t i = 0; i < sections.size(); ++i) {
    const std::size_t h = shoff + 64 * (i + 1);
    put(out, h, name_at[i]);
    put(out, h + 4, sections[i].type);
    put<std::uint64_t>(out, h + 24, sections[i].offset.value_or(offsets[i]));
    put<std::uint64_t>(out, h + 32, sections[i].size.value_or(sections[i].bytes.size()));
    put(out, h + 40, sections[i].link);
  }
  // CUDA's ELF ABI version 8 (EI_OSABI 0x41, EI_ABIVERSION 8): the SM one byte up in e_flags.
  const unsigned char ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x41, 8};
  std::memcpy(out.data(), ident, sizeof ident);
  put<std::uint64_t>(out, 0x28, shoff);
  put<std::uint32_t>(out, 0x30, 90u << 8);  // sm_90
  put<std::uint16_t>(out, 0x3a, 64);
  put<std::uint16_t>(out, 0x3c, static_cast<std::uint16_t>(count));
  put<std::uint16_t>(out, 0x3e, static_cast<std::uint16_t>(count - 1));
  return out;
}

// A symbol table of one function, name at offset 1 of its string table, in section `section`.
std::vector<unsigned char> oneFunctionSymbol(std::uint16_t section) {
  std::vector<unsigned char> symtab(48, 0);
  put<std::uint32_t>(symtab, 24, 1);
  symtab[28] = 0x12;  // STB_GLOBAL, STT_FUNC
  put(symtab, 30, section);
  return symtab;
}

// An .nv.info record "REGCOUNT of symbol 1 = 42".
const std::vector<unsigned char> kRegisterCount42 = {0x04, 0x2f, 0x08, 0x00, 1, 0, 0, 0, 42, 0, 0, 0};

triton::CubinInfo readOk(const std::vector<unsigned char>& cubin) {
  auto info = triton::readCubin(cubin);
  EXPECT_TRUE(info) << info.error();
  return info ? *info : triton::CubinInfo{};
}

// fuzz_cubin (first 60-second run): a section named just ".text." (or a function symbol with an
// empty name in it) made a kernel with an empty name. It is not a kernel now.
TEST(FuzzRegressionCubin, TextSectionWithoutANameIsNoKernel) {
  auto alone = triton::readCubin(cubinOf({{".text.", 1, std::vector<unsigned char>(16, 0)}}));
  ASSERT_FALSE(alone);
  EXPECT_EQ(alone.error(), "cubin: holds no kernel (no .text.<name> section)");

  const std::string strtab("\0\0", 2);  // the symbol's name at offset 1: ""
  auto info = readOk(cubinOf({{".strtab", 3, {strtab.begin(), strtab.end()}},
                              {".symtab", 2, oneFunctionSymbol(3), 1},
                              {".text.", 1, std::vector<unsigned char>(16, 0)},
                              {".text.k", 1, std::vector<unsigned char>(16, 0)}}));
  ASSERT_EQ(info.kernels.size(), 1u);
  EXPECT_EQ(info.kernels[0].name, "k");
  EXPECT_EQ(info.find(""), nullptr);
  EXPECT_EQ(info.sm_arch, 90);
}

// The older layout (EI_OSABI 0x33, ABI version 7, what Triton's bundled ptxas writes): the SM in the
// low byte of e_flags, 0x5a0d5a for sm_90 as seen in a Triton cache.
TEST(CubinArch, AbiVersion7KeepsTheSmInTheLowByte) {
  auto cubin = cubinOf({{".text.k", 1, std::vector<unsigned char>(16, 0)}});
  cubin[7] = 0x33;
  cubin[8] = 7;
  put<std::uint32_t>(cubin, 0x30, 0x5a0d5au);
  EXPECT_EQ(readOk(cubin).sm_arch, 90);
}

// Found while writing fuzz_cubin (which, with cubin.dict, then also reached it in 1.7 million
// executions): an .nv.info section of type SHT_NOBITS is not bounds-checked with the others (it has
// no bytes in the file), and its records were read at whatever offset it named: an out-of-bounds
// read (ASan: SEGV in forEachRecord) for .nv.info and .nv.info.<kernel> alike. Such a section is
// an error now, as any other section past the end of the file.
TEST(FuzzRegressionCubin, NvInfoOutsideTheFileIsAnError) {
  const std::string strtab("\0k\0", 3);
  const std::vector<ElfSection> good = {{".strtab", 3, {strtab.begin(), strtab.end()}},
                                        {".symtab", 2, oneFunctionSymbol(4), 1},
                                        {".nv.info", 0x70000000, kRegisterCount42, 2},
                                        {".text.k", 1, std::vector<unsigned char>(16, 0)}};
  auto info = readOk(cubinOf(good));
  ASSERT_EQ(info.kernels.size(), 1u);
  EXPECT_EQ(info.kernels[0].name, "k");
  EXPECT_EQ(info.kernels[0].registers, 42);

  std::vector<ElfSection> nobits = good;
  nobits[2].type = 8;  // SHT_NOBITS
  nobits[2].offset = std::uint64_t{1} << 40;
  const auto bytes = cubinOf(nobits);
  auto bad = triton::readCubin(bytes);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error(), "cubin: '.nv.info' runs past the end of the file: offset 1099511627776 + size 12 > " +
                             std::to_string(bytes.size()) + " bytes");

  std::vector<ElfSection> per_kernel = good;
  per_kernel.push_back({".nv.info.k", 8, kRegisterCount42, 2, std::uint64_t{1} << 40});
  auto bad_kernel = triton::readCubin(cubinOf(per_kernel), "k.cubin");
  ASSERT_FALSE(bad_kernel);
  EXPECT_EQ(bad_kernel.error().rfind(
                "k.cubin: '.nv.info.k' runs past the end of the file: offset 1099511627776 + size 12 > ", 0),
            0u)
      << bad_kernel.error();
}

// Found while writing fuzz_kernel_module (ASan does not see it: the byte read lies inside the
// std::string; with -D_GLIBCXX_ASSERTIONS the fuzzer stops on it): a size hint with an empty name,
// size_hints={'': 4}, made KernelModule::dynamicShape call back() on an empty string (undefined
// behaviour). The hint's numel is its name followed by "numel", here "numel".
TEST(FuzzRegressionKernelModule, SizeHintWithAnEmptyName) {
  const std::string text = "@triton_heuristics.reduction(size_hints={'': 4})\ndef k():\n    numel = 4\n";
  auto m = triton::parseKernelModule(text, "empty_hint.py");
  ASSERT_TRUE(m) << m.error();
  ASSERT_EQ(m->size_hints.size(), 1u);
  EXPECT_EQ(m->size_hints[0].name, "");
  EXPECT_EQ(m->sizeHintsText(), "=4");
  EXPECT_FALSE(m->dynamicShape());  // its numel is fixed in the body
  auto dynamic =
      triton::parseKernelModule("@triton_heuristics.reduction(size_hints={'': 4})\ndef k():\n    pass\n", "d.py");
  ASSERT_TRUE(dynamic) << dynamic.error();
  EXPECT_TRUE(dynamic->dynamicShape());
}

}  // namespace
