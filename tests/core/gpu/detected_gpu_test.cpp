// The measured copy-bandwidth cache (core/gpu/detected_gpu.h) against damaged files: a field of the
// wrong type, a non-object, another format — each is a cache miss, never an exception, and storing
// over it writes a good file.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "core/base/atomic_file.h"
#include "core/gpu/detected_gpu.h"

namespace occx {
namespace {

DeviceInfo testDevice() {
  DeviceInfo d;
  d.name = "Test GPU";
  d.uuid = "GPU-0000";
  d.driver_version = 13000;
  return d;
}

class CopyBandwidthCache : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = (std::filesystem::temp_directory_path() / ("occx-bw-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& text) { ASSERT_TRUE(writeFileAtomically(dir_ + "/copy_bandwidth.json", text)); }
  std::string dir_;
};

TEST_F(CopyBandwidthCache, DamagedFilesAreMissesNotExceptions) {
  for (
      const char* text : {
          R"({"format": "occupancy-explorer-copy-bandwidth", "devices": {"GPU-0000": {"driver_version": 13000, "GBps": "fast"}}})",
          R"({"format": 7, "devices": {}})",
          R"({"format": "occupancy-explorer-copy-bandwidth", "devices": {"GPU-0000": {"driver_version": "13000"}}})",
          R"([1, 2, 3])",
          "not json at all",
      }) {
    SCOPED_TRACE(text);
    write(text);
    EXPECT_FALSE(loadCachedCopyBandwidth(dir_, testDevice()).has_value());
  }
}

// Found by fuzz_cache (CI's smoke run): "bytes_per_copy" beyond 2^64 is a JSON float, and
// value<int64_t>() converted it with undefined behaviour (UBSan: "1.07374e+29 is outside the range
// of representable values of type 'long'"). An integer that is not one within range is now a miss.
TEST_F(CopyBandwidthCache, IntegersBeyondTheirRangeOrFractionalAreMisses) {
  const std::string head =
      R"({"format": "occupancy-explorer-copy-bandwidth", "devices": {"GPU-0000": {"GBps": 4257.8, )";
  for (const char* fields : {
           R"("driver_version": 13000, "bytes_per_copy": 107374118446744073709551615824, "runs": 21)",
           R"("driver_version": 13000, "bytes_per_copy": 1073741824, "runs": 1e30)",
           R"("driver_version": 13000, "bytes_per_copy": 1073741824, "runs": 4294967317)",
           R"("driver_version": 13000.5, "bytes_per_copy": 1073741824, "runs": 21)",
           R"("driver_version": 1e300, "bytes_per_copy": 1073741824, "runs": 21)",
       }) {
    SCOPED_TRACE(fields);
    write(head + fields + "}}}");
    EXPECT_FALSE(loadCachedCopyBandwidth(dir_, testDevice()).has_value());
  }
  write(head + R"("driver_version": 13000, "bytes_per_copy": 1073741824, "runs": 21}}})");
  auto good = loadCachedCopyBandwidth(dir_, testDevice());
  ASSERT_TRUE(good.has_value());
  EXPECT_EQ(good->bytes_per_copy, 1073741824);
  EXPECT_EQ(good->runs, 21);
}

TEST_F(CopyBandwidthCache, StoringOverADamagedFileWritesOneThatReadsBack) {
  write(R"({"format": 7})");
  CopyBandwidth bw;
  bw.GBps = 4257.8;
  bw.runs = 20;
  bw.uuid = "GPU-0000";
  bw.driver_version = 13000;
  ASSERT_FALSE(storeCachedCopyBandwidth(dir_, bw).has_value());
  auto back = loadCachedCopyBandwidth(dir_, testDevice());
  ASSERT_TRUE(back.has_value());
  EXPECT_DOUBLE_EQ(back->GBps, 4257.8);
  EXPECT_EQ(back->runs, 20);
  EXPECT_TRUE(back->from_cache);
}

}  // namespace
}  // namespace occx
