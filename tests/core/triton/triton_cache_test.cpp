// Triton's cache folders: the recorded spill variants checked against what Inductor's launchers
// reported (recorded.json "kernels"[…]["launchers"]), copies with files removed or damaged, long
// kernel names that Triton cuts short in its file names, and scans of a whole cache.
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/triton/kernel_module.h"
#include "core/triton/triton_cache.h"
#include "tests/support/inductor_scan.h"
#include "tests/support/text_files.h"

using namespace occx::triton;
namespace fs = std::filesystem;

namespace {

using occx::testing_support::anyContains;
using occx::testing_support::kFixtures;
using occx::testing_support::readText;
using occx::testing_support::writeText;

const fs::path kSpillCache = kFixtures / "spill_log_softmax" / "triton" / "0";
const char* const kSpillKernel = "triton_red_fused__log_softmax_prepare_softmax_online_sub_0";
const char* const kSpillFolder = "5JJOQ22FO72C763Q5UEXYZKHQBWKX243DH3GUE6IPJJOFGH5BE2Q";

nlohmann::json readJson(const fs::path& p) {
  return nlohmann::json::parse(readText(p));
}

// The recorded kernel module of the spill fixture (the .py that is not the wrapper).
fs::path spillModule() {
  for (const auto& sub : fs::directory_iterator(kFixtures / "spill_log_softmax")) {
    if (!sub.is_directory() || sub.path().filename() == "triton") continue;
    for (const auto& f : fs::directory_iterator(sub.path())) {
      if (f.path().extension() == ".py" && readText(f.path()).find("def call(") == std::string::npos) return f.path();
    }
  }
  return {};
}

class TritonCacheCopy : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("occx_triton_cache_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // A copy of a spill variant's folder, named as the original.
  fs::path copyOfSpillFolder() {
    const fs::path to = dir_ / kSpillFolder;
    fs::copy(kSpillCache / kSpillFolder, to, fs::copy_options::recursive);
    return to;
  }
  fs::path file(const fs::path& folder, const std::string& ext) const {
    return folder / (std::string(kSpillKernel) + ext);
  }

  fs::path dir_;
};

}  // namespace

TEST(TritonCache, SpillVariantsMatchTheRecordedLaunchers) {
  const nlohmann::json recorded = readJson(kFixtures / "spill_log_softmax" / "recorded.json");
  ASSERT_EQ(recorded.at("kernels").size(), 1u);
  const auto& kernel = recorded["kernels"][0];
  const fs::path module = spillModule();
  ASSERT_FALSE(module.empty());
  EXPECT_EQ(module.filename().string(), kernel.at("filename").get<std::string>());
  auto m = parseKernelModule(readText(module), module.string());
  ASSERT_TRUE(m.hasValue()) << m.error();
  std::size_t runtime_args = 0;
  for (const auto& a : m->signature) runtime_args += a.isConstexpr() ? 0 : 1;
  ASSERT_EQ(runtime_args, 4u);

  ASSERT_EQ(kernel.at("launchers").size(), 3u);
  for (const auto& launcher : kernel["launchers"]) {
    const std::string hash = launcher.at("cache_hash").get<std::string>();
    SCOPED_TRACE(hash);
    auto c = readTritonCacheFolder(kSpillCache / hash);
    ASSERT_TRUE(c.hasValue()) << c.error();
    EXPECT_EQ(c->folder, (kSpillCache / hash).string());
    EXPECT_EQ(c->triton_cache_hash, hash);
    EXPECT_EQ(c->name, kernel.at("kernel_name").get<std::string>());
    EXPECT_EQ(c->name, kSpillKernel);
    EXPECT_EQ(c->backend, "cuda");
    EXPECT_EQ(c->arch, 90);
    EXPECT_EQ(c->warp_size, 32);
    EXPECT_EQ(c->num_ctas, 1);
    EXPECT_EQ(c->triton_version, "3.6.0");
    EXPECT_EQ(c->num_warps, launcher.at("num_warps").get<int>());
    EXPECT_EQ(c->num_stages, launcher.at("num_stages").get<int>());
    EXPECT_EQ(c->shared_bytes, launcher.at("shared").get<std::int64_t>());
    EXPECT_EQ(c->global_scratch_size, 0);
    EXPECT_EQ(c->global_scratch_align, 1);

    const std::int64_t xblock = launcher.at("kwargs").at("XBLOCK").get<std::int64_t>();
    const std::int64_t r0_block = launcher.at("kwargs").at("R0_BLOCK").get<std::int64_t>();
    ASSERT_EQ(xblock, 1);
    EXPECT_EQ(c->tile(2), (std::vector<std::int64_t>{xblock, r0_block}));
    EXPECT_EQ(c->tile(1), (std::vector<std::int64_t>{r0_block}));
    EXPECT_TRUE(c->tile(0).empty());
    EXPECT_TRUE(c->tile(3).empty());

    EXPECT_EQ(c->module_path,
              "<inductor-cache>/" + module.parent_path().filename().string() + "/" + module.filename().string());
    EXPECT_EQ(fs::path(c->module_path).filename().string(), module.filename().string());

    ASSERT_TRUE(c->cubin.has_value());
    EXPECT_EQ(c->cubin->name, kSpillKernel);
    EXPECT_EQ(c->cubin->registers, launcher.at("n_regs").get<int>());
    EXPECT_EQ(c->cubin->tritonSpills(), launcher.at("n_spills").get<int>());
    EXPECT_EQ(c->cubin_arch, 90);

    // in_ptr0, out_ptr2, xnumel, r0_numel, then Triton's global and profile scratch pointers.
    EXPECT_EQ(c->ptx_params, (std::vector<std::string>{".u64", ".u64", ".u32", ".u32", ".u64", ".u64"}));
    EXPECT_EQ(c->ptx_params.size(), runtime_args + 2);
    EXPECT_TRUE(c->problems.empty()) << c->problems.front();
  }
}

TEST(TritonCache, TheSpillingVariant) {
  auto c = readTritonCacheFolder(kSpillCache / kSpillFolder);
  ASSERT_TRUE(c.hasValue()) << c.error();
  EXPECT_EQ(c->num_warps, 32);
  EXPECT_EQ(c->shared_bytes, 128);
  EXPECT_EQ(c->tile(2), (std::vector<std::int64_t>{1, 32768}));
  ASSERT_TRUE(c->cubin.has_value());
  EXPECT_EQ(c->cubin->registers, 64);
  EXPECT_EQ(c->cubin->localBytes(), 200);
  EXPECT_EQ(c->cubin->tritonSpills(), 50);
}

TEST_F(TritonCacheCopy, MissingCubinIsAProblemNotAnError) {
  const fs::path folder = copyOfSpillFolder();
  ASSERT_TRUE(fs::remove(file(folder, ".cubin")));
  auto c = readTritonCacheFolder(folder);
  ASSERT_TRUE(c.hasValue()) << c.error();
  EXPECT_FALSE(c->cubin.has_value());
  EXPECT_TRUE(anyContains(c->problems, "no .cubin")) << c->problems.size();
  EXPECT_TRUE(anyContains(c->problems, folder.string()));
  // The rest is still read.
  EXPECT_EQ(c->name, kSpillKernel);
  EXPECT_EQ(c->triton_cache_hash, kSpillFolder);
  EXPECT_EQ(c->num_warps, 32);
  EXPECT_EQ(c->tile(2), (std::vector<std::int64_t>{1, 32768}));
  EXPECT_EQ(c->ptx_params.size(), 6u);
}

TEST_F(TritonCacheCopy, MissingIrLeavesTheTileUnknown) {
  const fs::path folder = copyOfSpillFolder();
  ASSERT_TRUE(fs::remove(file(folder, ".ttir")));
  auto from_source = readTritonCacheFolder(folder);
  ASSERT_TRUE(from_source.hasValue()) << from_source.error();
  EXPECT_EQ(from_source->tile(2), (std::vector<std::int64_t>{1, 32768}));  // the .source has the same shapes
  EXPECT_TRUE(from_source->problems.empty());
  ASSERT_TRUE(fs::remove(file(folder, ".source")));
  auto c = readTritonCacheFolder(folder);
  ASSERT_TRUE(c.hasValue()) << c.error();
  EXPECT_TRUE(c->tile(2).empty());
  EXPECT_TRUE(c->module_path.empty());
  EXPECT_TRUE(anyContains(c->problems, "no .ttir or .source"));
  EXPECT_TRUE(c->cubin.has_value());
}

TEST_F(TritonCacheCopy, TruncatedCubinIsAProblemNamingIt) {
  const fs::path folder = copyOfSpillFolder();
  const std::string cubin = readText(file(folder, ".cubin"));
  writeText(file(folder, ".cubin"), cubin.substr(0, 100));
  auto c = readTritonCacheFolder(folder);
  ASSERT_TRUE(c.hasValue()) << c.error();
  EXPECT_FALSE(c->cubin.has_value());
  EXPECT_TRUE(anyContains(c->problems, file(folder, ".cubin").string()));
}

TEST_F(TritonCacheCopy, CubinOfAnotherKernelIsAProblem) {
  const fs::path folder = copyOfSpillFolder();
  nlohmann::json j = readJson(file(folder, ".json"));
  j["name"] = "triton_other_kernel";
  writeText(file(folder, ".json"), j.dump());
  auto c = readTritonCacheFolder(folder);
  ASSERT_TRUE(c.hasValue()) << c.error();
  EXPECT_EQ(c->name, "triton_other_kernel");
  EXPECT_FALSE(c->cubin.has_value());
  EXPECT_TRUE(anyContains(c->problems, "holds no kernel named 'triton_other_kernel'"));
}

TEST_F(TritonCacheCopy, CorruptJsonIsAnError) {
  const fs::path folder = copyOfSpillFolder();
  const std::string json = readText(file(folder, ".json"));
  writeText(file(folder, ".json"), json.substr(0, json.size() / 2));
  auto c = readTritonCacheFolder(folder);
  ASSERT_FALSE(c.hasValue());
  EXPECT_NE(c.error().find(file(folder, ".json").string()), std::string::npos) << c.error();
  EXPECT_NE(c.error().find("not a JSON object"), std::string::npos) << c.error();

  writeText(file(folder, ".json"), "[1, 2, 3]");
  auto array = readTritonCacheFolder(folder);
  ASSERT_FALSE(array.hasValue());
  EXPECT_NE(array.error().find("not a JSON object"), std::string::npos) << array.error();

  writeText(file(folder, ".json"), R"({"num_warps": 4, "shared": 0})");
  auto nameless = readTritonCacheFolder(folder);
  ASSERT_FALSE(nameless.hasValue());
  EXPECT_NE(nameless.error().find("the JSON names no kernel"), std::string::npos) << nameless.error();
}

TEST_F(TritonCacheCopy, JsonWithoutExpectedKeysIsAProblem) {
  const fs::path folder = copyOfSpillFolder();
  nlohmann::json j = readJson(file(folder, ".json"));
  j.erase("shared");
  j.erase("num_warps");
  j["num_stages"] = "three";  // not an integer: ignored
  writeText(file(folder, ".json"), j.dump());
  auto c = readTritonCacheFolder(folder);
  ASSERT_TRUE(c.hasValue()) << c.error();
  EXPECT_EQ(c->shared_bytes, 0);
  EXPECT_EQ(c->num_warps, 0);
  EXPECT_EQ(c->num_stages, 0);
  EXPECT_TRUE(anyContains(c->problems, "the JSON has no 'shared'"));
  EXPECT_TRUE(anyContains(c->problems, "the JSON has no 'num_warps'"));
  EXPECT_FALSE(anyContains(c->problems, "'target'"));
  EXPECT_TRUE(c->cubin.has_value());
}

TEST_F(TritonCacheCopy, FolderWithoutJsonIsNotACacheFolder) {
  const fs::path folder = copyOfSpillFolder();
  ASSERT_TRUE(fs::remove(file(folder, ".json")));
  // Only the __grp__ JSON is left: that is not the compile metadata.
  auto c = readTritonCacheFolder(folder);
  ASSERT_FALSE(c.hasValue());
  EXPECT_NE(c.error().find(folder.string()), std::string::npos) << c.error();
  EXPECT_NE(c.error().find("not a Triton cache folder"), std::string::npos) << c.error();
  auto empty = readTritonCacheFolder(dir_);
  ASSERT_FALSE(empty.hasValue());
  EXPECT_NE(empty.error().find("not a Triton cache folder"), std::string::npos);
  auto missing = readTritonCacheFolder(dir_ / "no-such-folder");
  ASSERT_FALSE(missing.hasValue());
  EXPECT_NE(missing.error().find("not a Triton cache folder"), std::string::npos);
}

TEST(TritonCache, LongKernelNamesAreCutShortInFileNames) {
  const fs::path root = kFixtures / "gpt2" / "triton" / "0";
  const nlohmann::json recorded = readJson(kFixtures / "gpt2" / "recorded.json");
  int cut = 0;
  for (const auto& d : fs::directory_iterator(root)) {
    fs::path json;
    for (const auto& f : fs::directory_iterator(d.path())) {
      if (f.path().extension() == ".json" && !f.path().filename().string().starts_with("__grp__")) json = f.path();
    }
    ASSERT_FALSE(json.empty()) << d.path();
    const std::string name = readJson(json).at("name").get<std::string>();
    if (json.stem().string() == name) continue;
    ++cut;
    SCOPED_TRACE(d.path().string());
    EXPECT_EQ(name.rfind(json.stem().string(), 0), 0u);  // the file name is the name's beginning
    auto c = readTritonCacheFolder(d.path());
    ASSERT_TRUE(c.hasValue()) << c.error();
    EXPECT_EQ(c->name, name);
    ASSERT_TRUE(c->cubin.has_value());
    EXPECT_EQ(c->cubin->name, name);
    EXPECT_TRUE(c->problems.empty()) << c->problems.front();
    // The registers are those Inductor's launcher reported for this folder.
    bool found = false;
    for (const auto& k : recorded.at("kernels")) {
      for (const auto& l : k.at("launchers")) {
        if (l.at("cache_hash") != d.path().filename().string()) continue;
        EXPECT_EQ(k.at("kernel_name").get<std::string>(), name);
        EXPECT_EQ(c->cubin->registers, l.at("n_regs").get<int>());
        EXPECT_EQ(c->num_warps, l.at("num_warps").get<int>());
        found = true;
      }
    }
    EXPECT_TRUE(found);
  }
  EXPECT_EQ(cut, 2);
}

TEST(TritonCache, ScanReadsEveryFolder) {
  const TritonCacheScan scan = scanTritonCache(kSpillCache);
  EXPECT_EQ(scan.folders, 3);
  ASSERT_EQ(scan.compiled.size(), 3u);
  EXPECT_TRUE(scan.problems.empty());
  // In folder order.
  EXPECT_EQ(scan.compiled[0].triton_cache_hash, kSpillFolder);
  EXPECT_EQ(scan.compiled[1].triton_cache_hash, "CSACPITYHQZK4W6ZH5P7M5SMQCFXW4L7S4UGHVMSH6MFWLID5UVQ");
  EXPECT_EQ(scan.compiled[2].triton_cache_hash, "NPQ6CW6DQBUBBLKFFB6Z7T6EYAOU2NHJH2CUKSHYGP5X2TJLN2YA");
}

TEST(TritonCache, ScanForNamedKernelsMatchesNamesCutShort) {
  const std::string long_name =
      "triton_red_fused__log_softmax__log_softmax_backward_data__to_copy_arange_clone_eq_expand_nll_loss_backward_"
      "nll_loss_forward_scalar_tensor_slice_view_where_0";
  const TritonCacheScan scan = scanTritonCache(kFixtures / "gpt2" / "triton" / "0", {long_name});
  EXPECT_EQ(scan.folders, 24);
  ASSERT_EQ(scan.compiled.size(), 2u);
  for (const auto& c : scan.compiled) {
    EXPECT_EQ(c.name, long_name);
    EXPECT_TRUE(c.cubin.has_value());
  }
  EXPECT_TRUE(scanTritonCache(kSpillCache, {"triton_no_such_kernel"}).compiled.empty());
}

TEST(TritonCache, ScanStopsWhenCancelledAndReportsAMissingRoot) {
  std::atomic<bool> cancel{true};
  const TritonCacheScan stopped = scanTritonCache(kSpillCache, {}, &cancel);
  EXPECT_EQ(stopped.folders, 0);
  EXPECT_TRUE(stopped.compiled.empty());
  const TritonCacheScan missing = scanTritonCache(kFixtures / "no-such-cache");
  EXPECT_EQ(missing.folders, 0);
  ASSERT_EQ(missing.problems.size(), 1u);
  EXPECT_NE(missing.problems[0].find("no-such-cache"), std::string::npos);
}

TEST_F(TritonCacheCopy, ScanListsAnUnreadableFolderAsAProblem) {
  const fs::path good = copyOfSpillFolder();
  fs::create_directories(dir_ / "EMPTYFOLDER");
  const TritonCacheScan scan = scanTritonCache(dir_);
  EXPECT_EQ(scan.folders, 2);
  ASSERT_EQ(scan.compiled.size(), 1u);
  EXPECT_EQ(scan.compiled[0].folder, good.string());
  ASSERT_EQ(scan.problems.size(), 1u);
  EXPECT_NE(scan.problems[0].find("EMPTYFOLDER"), std::string::npos);
  EXPECT_NE(scan.problems[0].find("not a Triton cache folder"), std::string::npos);
}
