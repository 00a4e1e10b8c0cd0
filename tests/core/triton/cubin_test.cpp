// Cubins read without a GPU, checked against what the CUDA driver reported for the same files
// (recorded.json's "driver": cuFuncGetAttribute NUM_REGS, LOCAL_SIZE_BYTES, SHARED_SIZE_BYTES), and
// damaged cubins: each an error naming the file, never a crash or a read past the end.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/triton/cubin.h"
#include "tests/support/inductor_scan.h"

using namespace occx::triton;
namespace fs = std::filesystem;

namespace {

using occx::testing_support::kFixtures;
using Bytes = std::vector<unsigned char>;

Bytes readBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return Bytes(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

nlohmann::json readCubinJson(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

// A cache folder's cubin and the kernel name its JSON gives.
struct FolderCubin {
  fs::path cubin;
  std::string kernel;
};

std::optional<FolderCubin> cubinOf(const fs::path& folder) {
  FolderCubin out;
  for (const auto& f : fs::directory_iterator(folder)) {
    const std::string name = f.path().filename().string();
    if (name.starts_with("__grp__")) continue;
    if (f.path().extension() == ".cubin") out.cubin = f.path();
    if (f.path().extension() == ".json") out.kernel = readCubinJson(f.path()).at("name").get<std::string>();
  }
  if (out.cubin.empty() || out.kernel.empty()) return std::nullopt;
  return out;
}

std::vector<fs::path> foldersOf(const std::string& fixture) {
  std::vector<fs::path> out;
  for (const auto& d : fs::directory_iterator(kFixtures / fixture / "triton" / "0")) {
    if (d.is_directory()) out.push_back(d.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Minimal ELF64 section lookup, written independently of the reader under test.
struct RawSection {
  std::uint32_t name = 0;
  std::uint64_t header = 0;  // offset of the section header in the file
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
};

template <class T>
T at(const Bytes& b, std::uint64_t off) {
  T v{};
  std::memcpy(&v, b.data() + off, sizeof v);
  return v;
}

std::optional<RawSection> sectionNamed(const Bytes& b, const std::string& wanted) {
  const auto shoff = at<std::uint64_t>(b, 0x28);
  const auto shentsize = at<std::uint16_t>(b, 0x3a);
  const auto shnum = at<std::uint16_t>(b, 0x3c);
  const auto shstrndx = at<std::uint16_t>(b, 0x3e);
  const std::uint64_t names = at<std::uint64_t>(b, shoff + std::uint64_t{shstrndx} * shentsize + 24);
  for (std::uint16_t i = 0; i < shnum; ++i) {
    RawSection s;
    s.header = shoff + std::uint64_t{i} * shentsize;
    s.name = at<std::uint32_t>(b, s.header);
    s.offset = at<std::uint64_t>(b, s.header + 24);
    s.size = at<std::uint64_t>(b, s.header + 32);
    if (std::strcmp(reinterpret_cast<const char*>(b.data() + names + s.name), wanted.c_str()) == 0) return s;
  }
  return std::nullopt;
}

const char* const kCubinSpillKernel = "triton_red_fused__log_softmax_prepare_softmax_online_sub_0";
const char* const kCubinSpillFolder = "5JJOQ22FO72C763Q5UEXYZKHQBWKX243DH3GUE6IPJJOFGH5BE2Q";

Bytes spillCubin() {
  auto fc = cubinOf(kFixtures / "spill_log_softmax" / "triton" / "0" / kCubinSpillFolder);
  EXPECT_TRUE(fc.has_value());
  return fc ? readBytes(fc->cubin) : Bytes{};
}

std::string cubinErrorOf(const Bytes& b, const std::string& origin = "damaged.cubin") {
  auto info = readCubin(b, origin);
  EXPECT_FALSE(info.hasValue()) << origin << ": read " << b.size() << " bytes as a cubin";
  EXPECT_NE(info.error().find(origin), std::string::npos) << info.error();
  return info.error();
}

}  // namespace

TEST(Cubin, SpillFixtureMatchesTheDriver) {
  const nlohmann::json recorded = readCubinJson(kFixtures / "spill_log_softmax" / "recorded.json");
  const auto& driver = recorded.at("driver");
  const auto folders = foldersOf("spill_log_softmax");
  ASSERT_EQ(folders.size(), 3u);
  int spilling = 0;
  for (const auto& folder : folders) {
    const std::string hash = folder.filename().string();
    SCOPED_TRACE(hash);
    auto fc = cubinOf(folder);
    ASSERT_TRUE(fc.has_value());
    EXPECT_EQ(fc->kernel, kCubinSpillKernel);
    const Bytes bytes = readBytes(fc->cubin);
    auto info = readCubin(bytes, fc->cubin.string());
    ASSERT_TRUE(info.hasValue()) << info.error();
    EXPECT_EQ(info->sm_arch, 90);
    ASSERT_EQ(info->kernels.size(), 1u);
    const CubinKernel* k = info->find(fc->kernel);
    ASSERT_NE(k, nullptr);
    EXPECT_EQ(info->find("no_such_kernel"), nullptr);
    const auto& d = driver.at(hash);
    EXPECT_EQ(k->registers, d.at("num_regs").get<int>());
    EXPECT_EQ(k->localBytes(), d.at("local_size_bytes").get<std::int64_t>());
    EXPECT_EQ(k->static_shared_bytes, d.at("shared_size_bytes").get<std::int64_t>());
    // Six parameters (in_ptr0, out_ptr2, xnumel, r0_numel and two scratch pointers): 8+8+4+4+8+8 bytes.
    EXPECT_EQ(k->param_count, 6);
    EXPECT_EQ(k->param_bytes, 40);
    EXPECT_EQ(k->required_threads, d.at("threads_per_block").get<int>());
    EXPECT_EQ(k->max_stack_bytes, 0);
    if (k->localBytes() > 0) ++spilling;
  }
  EXPECT_EQ(spilling, 1);
}

TEST(Cubin, TheSpillingVariantHas200BytesOfFrame) {
  const Bytes bytes = spillCubin();
  auto info = readCubin(bytes, "spill.cubin");
  ASSERT_TRUE(info.hasValue()) << info.error();
  const CubinKernel* k = info->find(kCubinSpillKernel);
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->registers, 64);
  EXPECT_EQ(k->frame_bytes, 200);
  EXPECT_EQ(k->min_stack_bytes, 200);
  EXPECT_EQ(k->localBytes(), 200);
  EXPECT_EQ(k->tritonSpills(), 50);  // recorded.json's launcher n_spills for this variant
  EXPECT_EQ(k->required_threads, 1024);
}

TEST(Cubin, EveryRecordedCubinMatchesTheDriver) {
  int compared = 0;
  for (const auto& fixture : fs::directory_iterator(kFixtures)) {
    if (!fixture.is_directory() || !fs::exists(fixture.path() / "recorded.json"))
      continue;  // a sweep's recording has none
    const nlohmann::json recorded = readCubinJson(fixture.path() / "recorded.json");
    if (!recorded.contains("driver")) continue;
    const auto& driver = recorded["driver"];
    for (const auto& folder : foldersOf(fixture.path().filename().string())) {
      const std::string hash = folder.filename().string();
      auto fc = cubinOf(folder);
      if (!fc || !driver.contains(hash)) continue;
      SCOPED_TRACE(fc->cubin.string());
      auto info = readCubin(readBytes(fc->cubin), fc->cubin.string());
      ASSERT_TRUE(info.hasValue()) << info.error();
      const CubinKernel* k = info->find(fc->kernel);
      ASSERT_NE(k, nullptr);
      EXPECT_EQ(k->registers, driver[hash].at("num_regs").get<int>());
      EXPECT_EQ(k->localBytes(), driver[hash].at("local_size_bytes").get<std::int64_t>());
      EXPECT_EQ(k->static_shared_bytes, driver[hash].at("shared_size_bytes").get<std::int64_t>());
      ++compared;
    }
  }
  EXPECT_GT(compared, 100);
}

TEST(Cubin, TooShortOrNotAnElfIsAnError) {
  EXPECT_NE(cubinErrorOf({}).find("0 bytes is shorter than an ELF header (64)"), std::string::npos);
  const Bytes real = spillCubin();
  ASSERT_GT(real.size(), 1000u);
  const Bytes b63(real.begin(), real.begin() + 63);
  EXPECT_NE(cubinErrorOf(b63).find("63 bytes is shorter than an ELF header"), std::string::npos);
  EXPECT_NE(cubinErrorOf(Bytes(64, 0)).find("does not start with the ELF magic"), std::string::npos);

  Bytes magic = real;
  magic[1] = 'X';
  EXPECT_NE(cubinErrorOf(magic).find("does not start with the ELF magic"), std::string::npos);
  Bytes elf32 = real;
  elf32[4] = 1;  // ELFCLASS32
  EXPECT_NE(cubinErrorOf(elf32).find("only 64-bit little-endian ELF files are read"), std::string::npos);
  Bytes big_endian = real;
  big_endian[5] = 2;  // ELFDATA2MSB
  EXPECT_NE(cubinErrorOf(big_endian).find("only 64-bit little-endian"), std::string::npos);
  // The default origin names it "cubin".
  auto info = readCubin({});
  ASSERT_FALSE(info.hasValue());
  EXPECT_EQ(info.error().rfind("cubin: ", 0), 0u) << info.error();
}

TEST(Cubin, TruncatedCubinIsAnErrorNamingTheFile) {
  const Bytes real = spillCubin();
  ASSERT_FALSE(real.empty());
  for (std::size_t length : {std::size_t{64}, std::size_t{200}, real.size() / 2, real.size() - 2000}) {
    SCOPED_TRACE(length);
    const Bytes cut(real.begin(), real.begin() + static_cast<std::ptrdiff_t>(length));
    EXPECT_NE(cubinErrorOf(cut, "cut.cubin").find("run past the end of the file"), std::string::npos);
  }
  // Every length: an error or a result, never a crash; an error names the file.
  for (std::size_t length = 0; length < real.size(); length += 97) {
    const Bytes cut(real.begin(), real.begin() + static_cast<std::ptrdiff_t>(length));
    auto r = readCubin(cut, "cut.cubin");
    if (!r.hasValue()) {
      EXPECT_NE(r.error().find("cut.cubin"), std::string::npos) << length << ": " << r.error();
    }
  }
}

TEST(Cubin, SectionRunningPastTheEndIsAnError) {
  Bytes b = spillCubin();
  auto info_section = sectionNamed(b, ".nv.info");
  ASSERT_TRUE(info_section.has_value());
  const std::uint64_t huge = b.size();  // size = file size, from a nonzero offset
  std::memcpy(b.data() + info_section->header + 32, &huge, sizeof huge);
  const std::string e = cubinErrorOf(b);
  EXPECT_NE(e.find("section 10 runs past the end of the file: offset " + std::to_string(info_section->offset) +
                   " + size " + std::to_string(huge) + " > " + std::to_string(b.size()) + " bytes"),
            std::string::npos)
      << e;
}

TEST(Cubin, UnknownRecordFormatIsAnError) {
  Bytes b = spillCubin();
  auto info_section = sectionNamed(b, ".nv.info");
  ASSERT_TRUE(info_section.has_value());
  ASSERT_EQ(b[info_section->offset], 4);  // the first record: format 4 (REGCOUNT)
  b[info_section->offset] = 7;
  const std::string e = cubinErrorOf(b);
  EXPECT_NE(e.find("'.nv.info' holds a record of unknown format 7 at offset " + std::to_string(info_section->offset)),
            std::string::npos)
      << e;
}

TEST(Cubin, RecordRunningPastItsSectionIsAnError) {
  Bytes b = spillCubin();
  auto info_section = sectionNamed(b, ".nv.info");
  ASSERT_TRUE(info_section.has_value());
  const std::uint16_t too_long = 0x400;  // the first record's payload size: past the 36-byte section
  std::memcpy(b.data() + info_section->offset + 2, &too_long, sizeof too_long);
  EXPECT_NE(cubinErrorOf(b).find("runs past the section's end (attribute 47, 1024 bytes)"), std::string::npos);
}

TEST(Cubin, InfoSectionWithoutFileContentsIsAnErrorNotARead) {
  // .nv.info marked SHT_NOBITS (no bytes in the file) with an offset far outside the file.
  Bytes b = spillCubin();
  auto info_section = sectionNamed(b, ".nv.info");
  ASSERT_TRUE(info_section.has_value());
  const std::uint32_t nobits = 8;
  const std::uint64_t far = std::uint64_t{1} << 40;
  std::memcpy(b.data() + info_section->header + 4, &nobits, sizeof nobits);
  std::memcpy(b.data() + info_section->header + 24, &far, sizeof far);
  EXPECT_NE(cubinErrorOf(b).find("'.nv.info'"), std::string::npos);
  // The same for a kernel's .nv.info.<kernel>.
  Bytes k = spillCubin();
  auto kernel_info = sectionNamed(k, std::string(".nv.info.") + kCubinSpillKernel);
  ASSERT_TRUE(kernel_info.has_value());
  std::memcpy(k.data() + kernel_info->header + 4, &nobits, sizeof nobits);
  std::memcpy(k.data() + kernel_info->header + 24, &far, sizeof far);
  EXPECT_NE(cubinErrorOf(k).find(std::string("'.nv.info.") + kCubinSpillKernel + "'"), std::string::npos);
}

TEST(Cubin, NoKernelSectionIsAnError) {
  Bytes b = spillCubin();
  auto text = sectionNamed(b, std::string(".text.") + kCubinSpillKernel);
  ASSERT_TRUE(text.has_value());
  auto names = sectionNamed(b, ".shstrtab");
  ASSERT_TRUE(names.has_value());
  b[names->offset + text->name + 1] = 'x';  // ".text.<kernel>" → ".xext.<kernel>"
  EXPECT_NE(cubinErrorOf(b).find("holds no kernel (no .text.<name> section)"), std::string::npos);
}

TEST(Cubin, BadSectionTableIsAnError) {
  const Bytes real = spillCubin();
  Bytes small_entries = real;
  const std::uint16_t entsize = 40;
  std::memcpy(small_entries.data() + 0x3a, &entsize, sizeof entsize);
  EXPECT_NE(cubinErrorOf(small_entries).find("section header size 40 is below 64 bytes"), std::string::npos);
  Bytes bad_index = real;
  const std::uint16_t index = 999;
  std::memcpy(bad_index.data() + 0x3e, &index, sizeof index);
  EXPECT_NE(cubinErrorOf(bad_index).find("no section name table"), std::string::npos);
  Bytes far_headers = real;
  const std::uint64_t shoff = ~std::uint64_t{0} - 8;
  std::memcpy(far_headers.data() + 0x28, &shoff, sizeof shoff);
  EXPECT_NE(cubinErrorOf(far_headers).find("the section headers run past the end of the file"), std::string::npos);
}
