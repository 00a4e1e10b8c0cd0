#include "core/gpu/detected_gpu.h"

#include "core/base/json_value.h"
#include "core/base/text.h"

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/base/user_cache.h"

namespace occx {

namespace {

std::string trimmedName(std::string_view s) {
  return trimmed(s, " \t");
}

template <class T>
void compareField(std::vector<std::string>& out, const char* what, T device, T data) {
  if (data != 0 && device != data) {
    std::ostringstream s;
    s << what << ": device " << device << ", data " << data;
    out.push_back(s.str());
  }
}

}  // namespace

double DeviceInfo::theoreticalBandwidthGBps() const {
  if (memory_clock_khz <= 0 || memory_bus_bits <= 0) return 0.0;
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_bits / 8.0) / 1e9;
}

std::string DeviceInfo::label() const {
  return deviceLabel(name, cc, sm_count);
}

std::string DeviceInfo::driverCudaVersion() const {
  return std::to_string(driver_version / 1000) + "." + std::to_string((driver_version % 1000) / 10);
}

const GpuSpec* matchGpu(const GpuDatabase& db, std::string_view device_name, ComputeCapability cc, int sm_count) {
  std::string name = trimmedName(device_name);
  for (std::string_view prefix : {"NVIDIA ", "Tesla ", "Quadro "}) {
    if (name.rfind(prefix, 0) == 0) name = trimmedName(std::string_view(name).substr(prefix.size()));
  }
  // Candidate names: the whole name, then with trailing words dropped one at a time.
  std::vector<std::string> tries;
  std::string t = name;
  while (!t.empty()) {
    tries.push_back(t);
    const auto sp = t.rfind(' ');
    if (sp == std::string::npos) break;
    t = trimmedName(std::string_view(t).substr(0, sp));
  }
  const GpuSpec* first = nullptr;
  for (const auto& n : tries) {
    const GpuSpec* g = db.findGpu(n);
    if (g == nullptr || g->cc != cc) continue;
    if (g->sm_count == sm_count) return g;
    if (first == nullptr) first = g;
  }
  // Same CC and name stem but another SM count: look for a sibling entry with the right SM count
  // (e.g. "H100 SXM5" vs "H100 PCIe" when the driver calls both "H100").
  if (first != nullptr) {
    const std::string stem = tries.back();
    for (const auto& g : db.gpus()) {
      if (g.cc == cc && g.sm_count == sm_count && g.name.rfind(stem, 0) == 0) return &g;
    }
  }
  return first;
}

void matchToData(DeviceInfo& info, const GpuDatabase& db) {
  info.data_mismatches.clear();
  const GpuSpec* g = matchGpu(db, info.name, info.cc, info.sm_count);
  info.matched_gpu = g ? g->name : std::string();
  auto& m = info.data_mismatches;
  if (g != nullptr) {
    compareField(m, "SMs", info.sm_count, g->sm_count);
    compareField(m, "L2 bytes", info.l2_bytes, g->l2_cache_bytes);
    compareField(m, "memory bus bits", info.memory_bus_bits, g->memory_bus_bits);
  }
  if (const ArchLimits* a = db.findArch(info.cc)) {
    compareField(m, "registers per SM", info.registers_per_sm, a->registers_per_sm);
    compareField(m, "registers per block", info.registers_per_block, a->max_registers_per_block);
    compareField(m, "threads per SM", info.max_threads_per_sm, a->maxThreadsPerSm());
    compareField(m, "blocks per SM", info.max_blocks_per_sm, a->max_blocks_per_sm);
    compareField(m, "shared memory per SM", info.shared_memory_per_sm, a->shared_memory_per_sm);
    compareField(m, "shared memory per block (opt-in)", info.shared_memory_per_block_optin,
                 a->shared_memory_per_block_optin);
    if (info.reserved_shared_memory_per_block != a->reserved_shared_memory_per_block) {
      m.push_back("reserved shared memory per block: device " + std::to_string(info.reserved_shared_memory_per_block) +
                  ", data " + std::to_string(a->reserved_shared_memory_per_block));
    }
  } else {
    m.push_back("compute capability " + info.cc.str() + " is not in the GPU data");
  }
}

Expected<Device> policyDevice(const DeviceInfo& info, const GpuDatabase& db) {
  const ArchLimits* a = db.findArch(info.cc);
  if (a == nullptr) {
    return Error{"compute capability " + info.cc.str() + " of " + info.name +
                 " is not in the GPU data (known: " + db.ccList() + ")"};
  }
  ArchLimits arch = *a;
  // The driver's own figures win where it reports them.
  if (info.registers_per_sm > 0) arch.registers_per_sm = info.registers_per_sm;
  if (info.max_threads_per_sm > 0 && info.warp_size > 0)
    arch.max_warps_per_sm = info.max_threads_per_sm / info.warp_size;
  if (info.max_blocks_per_sm > 0) arch.max_blocks_per_sm = info.max_blocks_per_sm;
  if (info.warp_size > 0) arch.warp_size = info.warp_size;
  return makeDevice(arch, info.sm_count, info.label());
}

// ---- cache -------------------------------------------------------------------------------------

Expected<std::string> userCacheDir() {
  const std::string dir = userCacheDirectory();
  if (dir.empty()) return Error{"no cache folder: neither XDG_CACHE_HOME nor HOME is set"};
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return Error{"cannot create the cache folder " + dir + ": " + ec.message()};
  return dir;
}

namespace {
constexpr const char* kCacheFile = "/copy_bandwidth.json";
constexpr const char* kCacheFormat = "occupancy-explorer-copy-bandwidth";
}  // namespace

namespace {

std::optional<CopyBandwidth> readCachedCopyBandwidth(const std::string& cache_dir, const DeviceInfo& device) {
  auto text = readFile(cache_dir + kCacheFile, std::size_t{1} << 20);
  if (!text) return std::nullopt;
  const auto j = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_object() || j.value("format", "") != kCacheFormat || !j.contains("devices") || !j["devices"].is_object()) {
    return std::nullopt;
  }
  const auto& devs = j["devices"];
  if (!devs.contains(device.uuid)) return std::nullopt;
  const auto& e = devs[device.uuid];
  if (!e.is_object() || integerValue(e, "driver_version", 0) != device.driver_version) return std::nullopt;
  // Integers that are not integers within range (1e30 runs) make the entry a miss, not a conversion.
  const auto bytes_per_copy = integerValue(e, "bytes_per_copy", std::int64_t{0});
  const auto runs = integerValue(e, "runs", 0);
  if (!bytes_per_copy || !runs) return std::nullopt;
  CopyBandwidth bw;
  bw.GBps = e.value("GBps", 0.0);
  bw.median_us = e.value("median_us", 0.0);
  bw.min_us = e.value("min_us", 0.0);
  bw.max_us = e.value("max_us", 0.0);
  bw.bytes_per_copy = *bytes_per_copy;
  bw.runs = *runs;
  bw.device_name = e.value("device_name", device.name);
  bw.uuid = device.uuid;
  bw.driver_version = device.driver_version;
  bw.measured_at = e.value("measured_at", "");
  bw.from_cache = true;
  if (!(bw.GBps > 0.0)) return std::nullopt;
  return bw;
}

}  // namespace

std::optional<CopyBandwidth> loadCachedCopyBandwidth(const std::string& cache_dir, const DeviceInfo& device) {
  // A damaged file (a field of the wrong type makes nlohmann's value() throw) is a cache miss.
  try {
    return readCachedCopyBandwidth(cache_dir, device);
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::optional<Error> storeCachedCopyBandwidth(const std::string& cache_dir, const CopyBandwidth& bw) {
  const std::string path = cache_dir + kCacheFile;
  nlohmann::json j;
  if (auto text = readFile(path, std::size_t{1} << 20)) {
    j = nlohmann::json::parse(*text, nullptr, false);
  }
  const bool ours = j.is_object() && j.contains("format") && j["format"].is_string() && j["format"] == kCacheFormat;
  if (!ours) j = nlohmann::json::object();
  j["format"] = kCacheFormat;
  j["version"] = 1;
  if (!j.contains("devices") || !j["devices"].is_object()) j["devices"] = nlohmann::json::object();
  j["devices"][bw.uuid] = {{"device_name", bw.device_name},
                           {"driver_version", bw.driver_version},
                           {"GBps", bw.GBps},
                           {"median_us", bw.median_us},
                           {"min_us", bw.min_us},
                           {"max_us", bw.max_us},
                           {"bytes_per_copy", bw.bytes_per_copy},
                           {"runs", bw.runs},
                           {"measured_at", bw.measured_at}};
  auto w = writeFileAtomically(path, j.dump(2) + "\n");
  if (!w) return Error{w.error()};
  return std::nullopt;
}

}  // namespace occx
