// The content-addressed compile cache: hits, misses, corrupt entries (reported once), colliding
// keys, a full disk while replacing an entry, the default folder.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/base/atomic_file.h"
#include "core/kernels/compile_cache.h"
#include "tests/support/in_child.h"

namespace occx {
namespace {

namespace fs = std::filesystem;

class CompileCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::path(::testing::TempDir()) /
           ("occx_cache_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static CompileRequest request(const std::string& source = "extern \"C\" __global__ void k() {}") {
    CompileRequest r;
    r.source = source;
    r.kernel_name = "k";
    r.arch = {9, 0};
    return r;
  }
  static CompileResult result() {
    CompileResult r;
    r.kernel_name = "k";
    r.arch = {9, 0};
    r.report.function = "k";
    r.report.arch = "sm_90";
    r.report.registers = 40;
    r.report.spill_stores_bytes = 8;
    r.report.spill_loads_bytes = 4;
    r.report.stack_frame_bytes = 16;
    r.report.static_smem_bytes = 96;
    r.report.constant_bytes = 360;
    r.report.barriers = 1;
    r.log = "ptxas info    : Used 40 registers\n";
    r.cubin = {0x7f, 'E', 'L', 'F', 0, 1, 2, 255};
    r.compile_ms = 123.5;
    return r;
  }
  const std::vector<std::string> opts_ = {"-arch=sm_90", "--ptxas-options=-v"};
  fs::path dir_;
};

TEST_F(CompileCacheTest, StoreThenHitReturnsEverything) {
  CompileCache cache(dir_.string());
  EXPECT_FALSE(cache.lookup(request(), opts_, "NVRTC 13.0"));
  auto path = cache.store(request(), opts_, "NVRTC 13.0", result());
  ASSERT_TRUE(path) << path.error();
  EXPECT_EQ(*path, cache.entryPath(CompileCache::keyHex(request(), opts_, "NVRTC 13.0")));
  EXPECT_TRUE(fs::exists(*path));
  auto hit = cache.lookup(request(), opts_, "NVRTC 13.0");
  ASSERT_TRUE(hit);
  EXPECT_TRUE(hit->cache_hit);
  EXPECT_EQ(hit->report.registers, 40);
  EXPECT_EQ(hit->report.spill_stores_bytes, 8);
  EXPECT_EQ(hit->report.stack_frame_bytes, 16);
  EXPECT_EQ(hit->report.static_smem_bytes, 96);
  EXPECT_EQ(hit->report.constant_bytes, 360);
  EXPECT_EQ(hit->cubin, result().cubin);
  EXPECT_EQ(hit->log, result().log);
  EXPECT_EQ(hit->options, opts_);
  EXPECT_EQ(hit->compiler, "NVRTC 13.0");
  EXPECT_DOUBLE_EQ(hit->compile_ms, 123.5);
  const auto s = cache.stats();
  EXPECT_EQ(s.hits, 1);
  EXPECT_EQ(s.misses, 1);
  EXPECT_EQ(s.stores, 1);
  EXPECT_EQ(s.corrupt, 0);
}

TEST_F(CompileCacheTest, KeyCoversSourceArchOptionsAndCompiler) {
  const auto base = CompileCache::keyHex(request(), opts_, "NVRTC 13.0");
  EXPECT_EQ(base.size(), 16u);
  EXPECT_EQ(base, CompileCache::keyHex(request(), opts_, "NVRTC 13.0"));
  EXPECT_NE(base, CompileCache::keyHex(request("// other\n"), opts_, "NVRTC 13.0"));
  auto r = request();
  r.arch = {8, 0};
  EXPECT_NE(base, CompileCache::keyHex(r, opts_, "NVRTC 13.0"));
  EXPECT_NE(base, CompileCache::keyHex(request(), {"-arch=sm_90"}, "NVRTC 13.0"));
  EXPECT_NE(base, CompileCache::keyHex(request(), opts_, "NVRTC 12.8"));
  // Separators: moving a character between two options changes the key.
  EXPECT_NE(CompileCache::keyHex(request(), {"ab", "c"}, "x"), CompileCache::keyHex(request(), {"a", "bc"}, "x"));
  // FNV-1a 64 reference values.
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
}

TEST_F(CompileCacheTest, CorruptEntriesAreDetectedAndCounted) {
  CompileCache cache(dir_.string());
  auto path = cache.store(request(), opts_, "NVRTC 13.0", result());
  ASSERT_TRUE(path);
  auto content = readFile(*path);
  ASSERT_TRUE(content);
  std::string flipped = *content;
  flipped.back() = static_cast<char>(flipped.back() ^ 0x01);
  const std::vector<std::pair<std::string, std::string>> damages = {
      // Truncated (a crash mid-write of a non-atomic writer would leave this).
      {content->substr(0, content->size() - 3), "truncated or padded"},
      // One byte of the cubin flipped: the checksum catches it.
      {flipped, "checksum mismatch"},
      // Not an entry at all.
      {"hello", "not a cache entry"},
      // A header that is not JSON.
      {"occx-compile-cache 1\n{not json\n", "the header is not a JSON object"},
  };
  for (const auto& [bytes, reason] : damages) {
    ASSERT_TRUE(writeFileAtomically(*path, bytes));
    EXPECT_FALSE(cache.lookup(request(), opts_, "NVRTC 13.0")) << reason;
    // The caller recompiles and stores: that repairs it.
    ASSERT_TRUE(cache.store(request(), opts_, "NVRTC 13.0", result()));
    EXPECT_TRUE(cache.lookup(request(), opts_, "NVRTC 13.0")) << reason;
  }
  EXPECT_EQ(cache.stats().corrupt, 4);
  EXPECT_EQ(cache.stats().hits, 4);
  const auto found = cache.corruptEntries();
  ASSERT_EQ(found.size(), 4u);
  for (std::size_t i = 0; i < found.size(); ++i) {
    EXPECT_EQ(found[i].path, *path);
    EXPECT_NE(found[i].reason.find(damages[i].second), std::string::npos) << found[i].reason;
  }
  // Three bytes cut off the real entry: the sizes in the header no longer add up, and it says so.
  EXPECT_NE(found[0].reason.find("the header says"), std::string::npos) << found[0].reason;
}

TEST_F(CompileCacheTest, ADamagedEntryIsReportedOnceUntilReplaced) {
  CompileCache cache(dir_.string());
  auto path = cache.store(request(), opts_, "NVRTC 13.0", result());
  ASSERT_TRUE(path);
  ASSERT_TRUE(writeFileAtomically(*path, "occx-compile-cache 1\n"));
  for (int i = 0; i < 3; ++i) {
    std::string damage;
    EXPECT_FALSE(cache.lookup(request(), opts_, "NVRTC 13.0", &damage));
    // The first lookup reports it (for the compiler to pass on); the others do not.
    EXPECT_EQ(damage, i == 0 ? *path + " (truncated in the header)" : std::string()) << i;
  }
  EXPECT_EQ(cache.stats().corrupt, 1);
  ASSERT_EQ(cache.corruptEntries().size(), 1u);
  EXPECT_EQ(cache.corruptEntries()[0].path, *path);
  EXPECT_FALSE(cache.corruptEntries()[0].replaced);
  // Replaced by the recompiled result, it hits again and nothing more is reported.
  ASSERT_TRUE(cache.store(request(), opts_, "NVRTC 13.0", result()));
  EXPECT_TRUE(cache.lookup(request(), opts_, "NVRTC 13.0"));
  EXPECT_EQ(cache.stats().corrupt, 1);
  EXPECT_TRUE(cache.corruptEntries()[0].replaced);
}

TEST_F(CompileCacheTest, AnEntryForAnotherRequestUnderTheSameNameIsAMiss) {
  CompileCache cache(dir_.string());
  auto a = cache.store(request("// A\n"), opts_, "NVRTC 13.0", result());
  ASSERT_TRUE(a);
  // Simulate a hash collision: B's file holds A's (valid) entry.
  const auto b_path = cache.entryPath(CompileCache::keyHex(request("// B\n"), opts_, "NVRTC 13.0"));
  fs::copy_file(*a, b_path);
  EXPECT_FALSE(cache.lookup(request("// B\n"), opts_, "NVRTC 13.0"));
  EXPECT_EQ(cache.stats().corrupt, 0);
  EXPECT_EQ(cache.stats().misses, 1);
}

TEST_F(CompileCacheTest, NoDirectoryMeansNoCache) {
  CompileCache cache("");
  EXPECT_FALSE(cache.store(request(), opts_, "NVRTC 13.0", result()));
  EXPECT_FALSE(cache.lookup(request(), opts_, "NVRTC 13.0"));
  EXPECT_EQ(cache.stats().store_errors, 0);
  // A folder that cannot be created: the store fails with the reason and is counted.
  ASSERT_TRUE(writeFileAtomically((dir_.parent_path() / "occx_cache_plain_file").string(), "x"));
  CompileCache blocked((dir_.parent_path() / "occx_cache_plain_file").string());
  auto e = blocked.store(request(), opts_, "NVRTC 13.0", result());
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().find("cannot create the cache folder"), std::string::npos) << e.error();
  EXPECT_EQ(blocked.stats().store_errors, 1);
  fs::remove(dir_.parent_path() / "occx_cache_plain_file");
}

// A full disk while a bigger result replaces an entry: the store fails with the path and the reason,
// the old entry stays whole and still hits, and no temporary file is left beside it.
TEST_F(CompileCacheTest, AFullDiskKeepsThePreviousEntry) {
  CompileCache cache(dir_.string());
  auto path = cache.store(request(), opts_, "NVRTC 13.0", result());
  ASSERT_TRUE(path);
  const auto previous = readFile(*path);
  ASSERT_TRUE(previous);
  CompileResult bigger = result();
  bigger.cubin.assign(64 * 1024, 0x5a);
  const std::string report = testing_support::inChild([&] {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit lim{4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &lim) != 0) return std::string("SKIP: setrlimit failed");
    auto stored = cache.store(request(), opts_, "NVRTC 13.0", bigger);
    return stored ? std::string("STORED")
                  : stored.error() + " | store_errors " + std::to_string(cache.stats().store_errors);
  });
  if (report.rfind("SKIP", 0) == 0) GTEST_SKIP() << report;
  EXPECT_NE(report.find("cannot write '" + *path + "': File too large (previous file left unchanged)"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find("store_errors 1"), std::string::npos) << report;
  EXPECT_EQ(readFile(*path).value(), *previous);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(fs::path(*path).parent_path()))
    names.push_back(e.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{fs::path(*path).filename().string()});
  auto hit = cache.lookup(request(), opts_, "NVRTC 13.0");
  ASSERT_TRUE(hit);
  EXPECT_EQ(hit->cubin, result().cubin);
}

TEST_F(CompileCacheTest, DefaultDirectoryFollowsXdgThenHome) {
  const char* old_xdg = std::getenv("XDG_CACHE_HOME");
  const char* old_home = std::getenv("HOME");
  const std::string saved_xdg = old_xdg ? old_xdg : "";
  const std::string saved_home = old_home ? old_home : "";
  setenv("XDG_CACHE_HOME", "/var/tmp/xdg", 1);
  EXPECT_EQ(CompileCache::defaultDirectory(), "/var/tmp/xdg/occupancy-explorer");
  setenv("XDG_CACHE_HOME", "relative/path", 1);  // not absolute: ignored, as the XDG spec says
  setenv("HOME", "/home/someone", 1);
  EXPECT_EQ(CompileCache::defaultDirectory(), "/home/someone/.cache/occupancy-explorer");
  unsetenv("XDG_CACHE_HOME");
  EXPECT_EQ(CompileCache::defaultDirectory(), "/home/someone/.cache/occupancy-explorer");
  if (old_xdg) setenv("XDG_CACHE_HOME", saved_xdg.c_str(), 1);
  if (old_home)
    setenv("HOME", saved_home.c_str(), 1);
  else
    unsetenv("HOME");
}

}  // namespace
}  // namespace occx
