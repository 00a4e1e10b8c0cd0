// Device matching, the copy-bandwidth cache, and `occx devices` / `occx sweep` as a user runs them on
// a machine without a GPU (and, where one is present, what changes).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "core/base/atomic_file.h"
#include "core/cuda/device.h"
#include "core/cuda/driver_api.h"
#include "tests/support/cli_run.h"

using namespace occx;
using namespace occx::cuda;

namespace {
const GpuDatabase& db() {
  return GpuDatabase::builtin();
}
}  // namespace

TEST(MatchGpu, DriverNamesFindTheirDataEntries) {
  const GpuSpec* h200 = matchGpu(db(), "NVIDIA H200", {9, 0}, 132);
  ASSERT_NE(h200, nullptr);
  EXPECT_EQ(h200->name, "H200");
  // Trailing words are dropped until a name matches: "H100 80GB HBM3" → "H100" (alias of the SXM5).
  const GpuSpec* h100 = matchGpu(db(), "NVIDIA H100 80GB HBM3", {9, 0}, 132);
  ASSERT_NE(h100, nullptr);
  EXPECT_EQ(h100->name, "H100 SXM5");
  // The SM count picks the PCIe sibling of the same stem.
  const GpuSpec* pcie = matchGpu(db(), "NVIDIA H100 PCIe", {9, 0}, 114);
  ASSERT_NE(pcie, nullptr);
  EXPECT_EQ(pcie->name, "H100 PCIe");
  // A name with the wrong compute capability does not match.
  EXPECT_EQ(matchGpu(db(), "NVIDIA H200", {8, 0}, 132), nullptr);
  EXPECT_EQ(matchGpu(db(), "Some Future GPU", {9, 0}, 132), nullptr);
}

TEST(DeviceInfo, TheoreticalBandwidthIsDdrClockTimesBusWidth) {
  DeviceInfo d;
  d.memory_clock_khz = 3201000;  // the H200's reported peak memory clock
  d.memory_bus_bits = 6144;
  // 2 × 3.201e9 Hz × 768 B = 4916.7 GB/s.
  EXPECT_NEAR(d.theoreticalBandwidthGBps(), 4916.736, 1e-3);
  d.memory_clock_khz = 0;
  EXPECT_EQ(d.theoreticalBandwidthGBps(), 0.0);
}

TEST(DeviceInfo, MismatchesWithTheDataAreListed) {
  DeviceInfo d;
  d.name = "NVIDIA H200";
  d.cc = {9, 0};
  d.sm_count = 132;
  d.registers_per_sm = 65536;
  d.registers_per_block = 65536;
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  d.shared_memory_per_sm = 233472;
  d.shared_memory_per_block_optin = 232448;
  d.reserved_shared_memory_per_block = 1024;
  d.l2_bytes = 62914560;
  d.memory_bus_bits = 6144;
  matchToData(d, db());
  EXPECT_EQ(d.matched_gpu, "H200");
  EXPECT_TRUE(d.data_mismatches.empty()) << d.data_mismatches.front();
  d.l2_bytes = 52428800;
  matchToData(d, db());
  ASSERT_EQ(d.data_mismatches.size(), 1u);
  EXPECT_EQ(d.data_mismatches[0], "L2 bytes: device 52428800, data 62914560");
}

TEST(CopyBandwidthCache, StoresPerDeviceAndDriverVersion) {
  const auto dir = std::filesystem::temp_directory_path() / "occx_copy_bw_cache_test";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  DeviceInfo dev;
  dev.name = "NVIDIA H200";
  dev.uuid = "GPU-00000000-1111-2222-3333-444444444444";
  dev.driver_version = 13000;
  EXPECT_FALSE(loadCachedCopyBandwidth(dir.string(), dev).has_value());
  CopyBandwidth bw;
  bw.GBps = 4257.5;
  bw.median_us = 1008.75;
  bw.bytes_per_copy = std::int64_t{2} << 30;
  bw.runs = 20;
  bw.device_name = dev.name;
  bw.uuid = dev.uuid;
  bw.driver_version = 13000;
  bw.measured_at = "2026-11-29T22:00:00Z";
  ASSERT_FALSE(storeCachedCopyBandwidth(dir.string(), bw).has_value());
  // A second device's entry is kept beside the first.
  CopyBandwidth other = bw;
  other.uuid = "GPU-ffffffff-1111-2222-3333-444444444444";
  other.GBps = 1000.0;
  ASSERT_FALSE(storeCachedCopyBandwidth(dir.string(), other).has_value());
  auto back = loadCachedCopyBandwidth(dir.string(), dev);
  ASSERT_TRUE(back.has_value());
  EXPECT_DOUBLE_EQ(back->GBps, 4257.5);
  EXPECT_DOUBLE_EQ(back->median_us, 1008.75);
  EXPECT_EQ(back->bytes_per_copy, std::int64_t{2} << 30);
  EXPECT_EQ(back->measured_at, "2026-11-29T22:00:00Z");
  EXPECT_TRUE(back->from_cache);
  // Another driver version: measure again.
  dev.driver_version = 13010;
  EXPECT_FALSE(loadCachedCopyBandwidth(dir.string(), dev).has_value());
  // A damaged file is a miss, not an error.
  ASSERT_TRUE(writeFileAtomically((dir / "copy_bandwidth.json").string(), "{not json"));
  dev.driver_version = 13000;
  EXPECT_FALSE(loadCachedCopyBandwidth(dir.string(), dev).has_value());
  std::filesystem::remove_all(dir);
}

namespace {

using testing_support::CliRun;
using testing_support::runOccx;

}  // namespace

TEST(DevicesCommand, ListsGpusOrSaysThereAreNoneAndExitsZero) {
  auto r = runOccx({"devices", "--no-bandwidth"});
  EXPECT_EQ(r.code, 0) << r.err;
  const auto status = driverStatus();
  if (!status.available || status.device_count == 0) {
    EXPECT_EQ(r.out.rfind("No GPUs detected: ", 0), 0u) << r.out;
    EXPECT_NE(r.out.find("Everything that needs no GPU still works"), std::string::npos);
  } else {
    EXPECT_EQ(r.out.rfind("#  name", 0), 0u) << r.out;
  }
  auto j = runOccx({"devices", "--no-bandwidth", "--json"});
  EXPECT_EQ(j.code, 0);
  auto parsed = nlohmann::json::parse(j.out, nullptr, false);
  ASSERT_TRUE(parsed.is_object()) << j.out;
  ASSERT_TRUE(parsed["devices"].is_array());
  if (!status.available) {
    EXPECT_TRUE(parsed["devices"].empty());
    EXPECT_EQ(parsed["reason"], "no NVIDIA driver: " + status.reason);
  }
}

// Without a driver the reason names the library once and leaves "no driver" to the caller's prefix
// (the GUI's banner read "No NVIDIA driver: libcuda.so.1 cannot be loaded (no NVIDIA driver
// installed?): libcuda.so.1: cannot open shared object file: …").
TEST(DriverStatus, WithoutADriverTheReasonSaysItOnce) {
  const auto status = driverStatus();
  if (status.available) GTEST_SKIP() << "a driver is loaded";
  if (status.reason.rfind("libcuda.so.1 cannot be loaded: ", 0) != 0) GTEST_SKIP() << status.reason;
  std::size_t names = 0;
  for (std::size_t at = status.reason.find("libcuda.so.1"); at != std::string::npos;
       at = status.reason.find("libcuda.so.1", at + 1))
    ++names;
  EXPECT_EQ(names, 1u) << status.reason;
  EXPECT_EQ(status.reason.find("driver"), std::string::npos) << status.reason;
  EXPECT_GT(status.reason.size(), std::string("libcuda.so.1 cannot be loaded: ").size());
}

TEST(SweepCommand, WithoutAGpuItSaysSoAndSweepsCompileOnly) {
  const auto status = driverStatus();
  if (status.available && status.device_count > 0) GTEST_SKIP() << "a GPU is present: the sweep would run live";
  auto r = runOccx({"sweep", "--arch", "sm_90", "--workload", "sum", "--xnumel", "64", "--rnumel", "1024", "--xblocks",
                    "1", "--rblocks", "256", "--num-warps", "4", "--no-inductor", "--no-cache", "--quiet"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.err.find("compile-only sweep: no GPU to run on ("), std::string::npos) << r.err;
  EXPECT_NE(r.out.find("Sweep: sum fp32"), std::string::npos) << r.out;
}

TEST(SweepCommand, LiveOptionsAreCheckedWithTheirRanges) {
  auto r = runOccx({"sweep", "--workload", "sum", "--xnumel", "64", "--rnumel", "1024", "--repeat", "101"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--repeat 101 is out of range: allowed 0 … 100"), std::string::npos) << r.err;
  auto t = runOccx({"sweep", "--workload", "sum", "--xnumel", "64", "--rnumel", "1024", "--timed-ms", "0.5"});
  EXPECT_EQ(t.code, 2);
  EXPECT_NE(t.err.find("--timed-ms 0.5 is out of range: allowed 1 … 10000"), std::string::npos) << t.err;
}
