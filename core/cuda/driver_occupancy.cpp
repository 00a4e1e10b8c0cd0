#include "core/cuda/driver_occupancy.h"

#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda/cuda_driver_table.h"
#include "core/cuda/nvrtc_compiler.h"

namespace occx::cuda {

const char* probeKernelSource() {
  // The kernel tests/cuda/record/cluster_record.cpp recorded the H200 fixtures with: 160 live
  // floats per thread demand more than 255 registers, so --maxrregcount decides the count.
  return R"(
extern "C" __global__ void occx_probe(const float* __restrict__ in, float* __restrict__ out, int n) {
  extern __shared__ float sm[];
  float a[160];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int i = 0; i < 160; ++i) a[i] = in[(t + i * 7919) % n];
#pragma unroll
  for (int k = 0; k < 4; ++k) {
#pragma unroll
    for (int i = 0; i < 160; ++i) a[i] = a[i] * a[(i + 1) % 160] + a[(i + 37) % 160];
  }
  float s = 0.f;
#pragma unroll
  for (int i = 0; i < 160; ++i) s += a[i] * (float)(i + 1);
  if (n < 0) sm[threadIdx.x] = s;
  __syncthreads();
  out[t] = s;
}
)";
}

namespace {

// Fewest registers the probe compiles to (--maxrregcount below it still gives this many).
constexpr int kProbeMinRegisters = 24;

std::mutex& probeMutex() {
  static std::mutex m;
  return m;
}

// Compiled probes, by (architecture, --maxrregcount).
std::map<std::pair<std::string, int>, CompileResult>& probeCache() {
  static std::map<std::pair<std::string, int>, CompileResult> cache;
  return cache;
}

Expected<CompileResult> probeFor(ComputeCapability cc, int maxrreg) {
  std::lock_guard<std::mutex> lock(probeMutex());
  auto key = std::make_pair(cc.str(), maxrreg);
  auto& cache = probeCache();
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  CompileRequest req;
  req.source = probeKernelSource();
  req.kernel_name = "occx_probe";
  req.arch = cc;
  req.maxrregcount = maxrreg;
  auto r = NvrtcCompiler{}.compile(req);
  if (!r) return Error{"compiling the probe kernel for " + cc.smName() + ": " + r.error()};
  cache.emplace(key, *r);
  return *r;
}

}  // namespace

Expected<DriverOccupancy> queryDriverOccupancy(const DriverOccupancyQuery& q) {
  if (q.registers_per_thread < 0 || q.registers_per_thread > 255) {
    return Error{"registers per thread " + std::to_string(q.registers_per_thread) +
                 " is out of range: allowed 0 … 255"};
  }
  if (q.threads_per_block < 1 || q.threads_per_block > 1024) {
    return Error{"threads per block " + std::to_string(q.threads_per_block) + " is out of range: allowed 1 … 1024"};
  }
  if (q.cluster_size < 0 || q.cluster_size > 16) {
    return Error{"cluster size " + std::to_string(q.cluster_size) + " is out of range: allowed 0 (none) … 16"};
  }
  if (q.block_size_limit < 0 || q.shared_memory_bytes < 0) {
    return Error{"block size limit and shared memory must not be negative"};
  }
  const auto& t = detail::driverTable();
  if (!t.loaded) return Error{"no driver: " + t.error};
  int count = 0;
  if (t.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) return Error{"no CUDA device present"};
  if (q.device < 0 || q.device >= count) {
    return Error{"device " + std::to_string(q.device) + " is out of range: allowed 0 … " + std::to_string(count - 1)};
  }
  CUdevice dev = 0;
  if (CUresult r = t.cuDeviceGet(&dev, q.device); r != CUDA_SUCCESS)
    return Error{"cuDeviceGet: " + detail::driverErrorText(t, r)};
  DriverOccupancy out;
  char name[256] = {};
  t.cuDeviceGetName(name, sizeof name, dev);
  out.device_name = name;
  int optin = 0;
  t.cuDeviceGetAttribute(&out.cc.major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev);
  t.cuDeviceGetAttribute(&out.cc.minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev);
  t.cuDeviceGetAttribute(&out.sm_count, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev);
  t.cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev);
  if (q.shared_memory_bytes > optin) {
    return Error{"shared memory per block " + std::to_string(q.shared_memory_bytes) +
                 " B is out of range: allowed 0 … " + std::to_string(optin) + " B on " + out.device_name};
  }

  const int maxrreg = q.registers_per_thread < kProbeMinRegisters ? kProbeMinRegisters : q.registers_per_thread;
  auto probe = probeFor(out.cc, maxrreg);
  if (!probe) return Error{probe.error()};

  CUcontext previous = nullptr;
  t.cuCtxGetCurrent(&previous);
  CUcontext ctx = nullptr;
  if (CUresult r = t.cuDevicePrimaryCtxRetain(&ctx, dev); r != CUDA_SUCCESS) {
    return Error{"cuDevicePrimaryCtxRetain: " + detail::driverErrorText(t, r)};
  }
  struct Restore {
    const detail::DriverTable& t;
    CUdevice dev;
    CUcontext previous;
    ~Restore() {
      t.cuCtxSetCurrent(previous);
      t.cuDevicePrimaryCtxRelease(dev);
    }
  } restore{t, dev, previous};
  if (CUresult r = t.cuCtxSetCurrent(ctx); r != CUDA_SUCCESS)
    return Error{"cuCtxSetCurrent: " + detail::driverErrorText(t, r)};
  CUmodule mod = nullptr;
  if (CUresult r = t.cuModuleLoadData(&mod, probe->cubin.data()); r != CUDA_SUCCESS) {
    return Error{"cuModuleLoadData(probe): " + detail::driverErrorText(t, r)};
  }
  struct Unload {
    const detail::DriverTable& t;
    CUmodule mod;
    ~Unload() { t.cuModuleUnload(mod); }
  } unload{t, mod};
  CUfunction fn = nullptr;
  if (CUresult r = t.cuModuleGetFunction(&fn, mod, "occx_probe"); r != CUDA_SUCCESS) {
    return Error{"cuModuleGetFunction(occx_probe): " + detail::driverErrorText(t, r)};
  }
  t.cuFuncGetAttribute(&out.probe_registers, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
  if (out.probe_registers != q.registers_per_thread) {
    out.note = "the probe kernel has " + std::to_string(out.probe_registers) + " registers per thread, not " +
               std::to_string(q.registers_per_thread) +
               (q.registers_per_thread < kProbeMinRegisters ? " (the fewest it compiles to)" : "") + "; ";
  }
  out.note += "the probe uses 1 block barrier and no static shared memory";
  // As the recording did: the whole opt-in maximum allowed as dynamic shared memory.
  if (CUresult r = t.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, optin);
      r != CUDA_SUCCESS) {
    return Error{"cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES): " + detail::driverErrorText(t, r)};
  }
  const auto smem = static_cast<size_t>(q.shared_memory_bytes);
  if (CUresult r =
          t.cuOccupancyMaxActiveBlocksPerMultiprocessor(&out.active_blocks_per_sm, fn, q.threads_per_block, smem);
      r != CUDA_SUCCESS) {
    return Error{"cuOccupancyMaxActiveBlocksPerMultiprocessor: " + detail::driverErrorText(t, r)};
  }
  if (t.cuOccupancyMaxPotentialBlockSize != nullptr) {
    if (CUresult r = t.cuOccupancyMaxPotentialBlockSize(&out.best_min_grid_size, &out.best_block_size, fn, nullptr,
                                                        smem, q.block_size_limit);
        r != CUDA_SUCCESS) {
      return Error{"cuOccupancyMaxPotentialBlockSize: " + detail::driverErrorText(t, r)};
    }
  }
  if (out.cc.major < 9) return out;  // no clusters
  if (t.cuOccupancyMaxActiveClusters == nullptr || t.cuOccupancyMaxPotentialClusterSize == nullptr) {
    out.note += "; this driver lacks the cluster occupancy calls";
    return out;
  }
  CUlaunchConfig cfg{};
  cfg.gridDimX = 16 * 1024;
  cfg.gridDimY = 1;
  cfg.gridDimZ = 1;
  cfg.blockDimX = static_cast<unsigned>(q.threads_per_block);
  cfg.blockDimY = 1;
  cfg.blockDimZ = 1;
  cfg.sharedMemBytes = static_cast<unsigned>(q.shared_memory_bytes);
  for (int nonPortable = 0; nonPortable < 2; ++nonPortable) {
    if (CUresult r = t.cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, nonPortable);
        r != CUDA_SUCCESS) {
      return Error{"cuFuncSetAttribute(NON_PORTABLE_CLUSTER_SIZE_ALLOWED): " + detail::driverErrorText(t, r)};
    }
    int size = -1;
    if (CUresult r = t.cuOccupancyMaxPotentialClusterSize(&size, fn, &cfg); r != CUDA_SUCCESS) {
      return Error{"cuOccupancyMaxPotentialClusterSize: " + detail::driverErrorText(t, r)};
    }
    (nonPortable != 0 ? out.max_potential_cluster_size_nonportable : out.max_potential_cluster_size_portable) = size;
  }
  // Non-portable sizes allowed (set last above), as in the recording.
  auto clusters = [&](int size) -> Expected<int> {
    CUlaunchAttribute attr{};
    attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
    attr.value.clusterDim.x = static_cast<unsigned>(size);
    attr.value.clusterDim.y = 1;
    attr.value.clusterDim.z = 1;
    CUlaunchConfig c = cfg;
    c.gridDimX = static_cast<unsigned>(size) * 1024;
    c.attrs = &attr;
    c.numAttrs = 1;
    int n = -1;
    if (CUresult r = t.cuOccupancyMaxActiveClusters(&n, fn, &c); r != CUDA_SUCCESS) {
      return Error{"cuOccupancyMaxActiveClusters(cluster size " + std::to_string(size) +
                   "): " + detail::driverErrorText(t, r)};
    }
    return n;
  };
  if (q.cluster_size > 0) {
    auto n = clusters(q.cluster_size);
    if (!n) return Error{n.error()};
    out.max_active_clusters = *n;
  }
  if (q.every_cluster_size) {
    // Up to the largest size that can launch (8 when none can: the portable sizes, all 0).
    const int most = out.max_potential_cluster_size_nonportable > 0 ? out.max_potential_cluster_size_nonportable : 8;
    for (int size = 1; size <= most && size <= 16; ++size) {
      auto n = clusters(size);
      if (!n) return Error{n.error()};
      out.max_active_clusters_by_size.push_back(*n);
    }
  }
  return out;
}

}  // namespace occx::cuda
