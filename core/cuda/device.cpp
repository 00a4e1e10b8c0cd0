#include "core/cuda/device.h"

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/cuda/cu_check.h"
#include "core/kernels/compile_cache.h"

namespace occx::cuda {

namespace {

std::string uuidText(const CUuuid& u) {
  static const char* hex = "0123456789abcdef";
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    const auto b = static_cast<unsigned char>(u.bytes[i]);
    s += hex[b >> 4];
    s += hex[b & 15];
    if (i == 3 || i == 5 || i == 7 || i == 9) s += '-';
  }
  return s;
}

}  // namespace

Expected<std::vector<DeviceInfo>> queryDevices(const GpuDatabase& db) {
  auto drv = loadedDriver();
  if (!drv) return Error{drv.error()};
  const detail::DriverTable& d = **drv;
  int count = 0;
  OCCX_CU_TRY(d, cuDeviceGetCount(&count));
  std::vector<DeviceInfo> out;
  for (int i = 0; i < count; ++i) {
    CUdevice dev = 0;
    OCCX_CU_TRY(d, cuDeviceGet(&dev, i));
    DeviceInfo info;
    info.ordinal = i;
    char name[256] = {};
    OCCX_CU_TRY(d, cuDeviceGetName(name, static_cast<int>(sizeof name) - 1, dev));
    info.name = name;
    CUuuid uuid{};
    OCCX_CU_TRY(d, cuDeviceGetUuid(&uuid, dev));
    info.uuid = uuidText(uuid);
    auto attr = [&](CUdevice_attribute a, int fallback = 0) {
      int v = 0;
      return d.cuDeviceGetAttribute(&v, a, dev) == CUDA_SUCCESS ? v : fallback;
    };
    info.cc = {attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), attr(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR)};
    info.sm_count = attr(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
    info.registers_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR);
    info.registers_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
    info.max_threads_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
    info.max_threads_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    info.max_blocks_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR);
    info.warp_size = attr(CU_DEVICE_ATTRIBUTE_WARP_SIZE, 32);
    info.shared_memory_per_sm = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
    info.shared_memory_per_block = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
    info.shared_memory_per_block_optin = attr(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
    info.reserved_shared_memory_per_block = attr(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK);
    info.l2_bytes = attr(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
    info.memory_clock_khz = attr(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
    info.memory_bus_bits = attr(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
    info.sm_clock_khz = attr(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
    std::size_t total = 0;
    OCCX_CU_TRY(d, cuDeviceTotalMem(&total, dev));
    info.total_memory_bytes = static_cast<std::int64_t>(total);
    d.cuDriverGetVersion(&info.driver_version);
    matchToData(info, db);
    out.push_back(std::move(info));
  }
  return out;
}

std::optional<std::string> detectedGpuName(const GpuDatabase& db) {
  static const std::optional<std::string> name = [&db]() -> std::optional<std::string> {
    auto devices = queryDevices(db);
    if (!devices || devices->empty() || (*devices)[0].matched_gpu.empty()) return std::nullopt;
    return (*devices)[0].matched_gpu;
  }();
  return name;
}

}  // namespace occx::cuda
