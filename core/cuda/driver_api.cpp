#include "core/cuda/driver_api.h"

#include <dlfcn.h>

#include <mutex>

#include "core/cuda/cuda_driver_table.h"

// The symbol name of a driver function as cuda.h maps it (cuDevicePrimaryCtxRelease →
// "cuDevicePrimaryCtxRelease_v2"): stringify after macro expansion.
#define OCCX_STRINGIFY_(x) #x
#define OCCX_STRINGIFY(x) OCCX_STRINGIFY_(x)

namespace occx::cuda {

namespace detail {

namespace {

// Why dlopen("libcuda.so.1") failed, the library named once: callers put "no driver: " in front,
// and dlerror() starts with the library's name.
std::string libcudaLoadError() {
  const char* error = dlerror();
  std::string why = error != nullptr ? error : "unknown reason";
  const std::string name = "libcuda.so.1: ";
  if (why.rfind(name, 0) == 0) why.erase(0, name.size());
  return "libcuda.so.1 cannot be loaded: " + why;
}

DriverTable loadDriver() {
  DriverTable t;
  dlerror();
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr) {
    t.error = libcudaLoadError();
    return t;
  }
  bool ok = true;
  std::string missing;
  auto load = [&](auto& fn, const char* name) {
    void* sym = dlsym(handle, name);
    if (sym == nullptr) {
      ok = false;
      missing += (missing.empty() ? "" : ", ") + std::string(name);
      return;
    }
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(sym);
  };
#define OCCX_LOAD(fn) load(t.fn, OCCX_STRINGIFY(fn))
  OCCX_LOAD(cuInit);
  OCCX_LOAD(cuDriverGetVersion);
  OCCX_LOAD(cuGetErrorString);
  OCCX_LOAD(cuDeviceGetCount);
  OCCX_LOAD(cuDeviceGet);
  OCCX_LOAD(cuDeviceGetName);
  OCCX_LOAD(cuDeviceGetAttribute);
  OCCX_LOAD(cuDevicePrimaryCtxRetain);
  OCCX_LOAD(cuDevicePrimaryCtxRelease);
  OCCX_LOAD(cuCtxGetCurrent);
  OCCX_LOAD(cuCtxSetCurrent);
  OCCX_LOAD(cuModuleLoadData);
  OCCX_LOAD(cuModuleUnload);
  OCCX_LOAD(cuModuleGetFunction);
  OCCX_LOAD(cuFuncGetAttribute);
  OCCX_LOAD(cuFuncSetAttribute);
  OCCX_LOAD(cuGetErrorName);
  OCCX_LOAD(cuDeviceTotalMem);
  OCCX_LOAD(cuDeviceGetUuid);
  OCCX_LOAD(cuDevicePrimaryCtxReset);
  OCCX_LOAD(cuCtxSynchronize);
  OCCX_LOAD(cuOccupancyMaxActiveBlocksPerMultiprocessor);
  OCCX_LOAD(cuLaunchKernel);
  OCCX_LOAD(cuMemGetInfo);
  OCCX_LOAD(cuMemAlloc);
  OCCX_LOAD(cuMemFree);
  OCCX_LOAD(cuMemcpyHtoD);
  OCCX_LOAD(cuMemcpyDtoH);
  OCCX_LOAD(cuMemcpyDtoDAsync);
  OCCX_LOAD(cuMemsetD8);
  OCCX_LOAD(cuMemsetD32Async);
  OCCX_LOAD(cuStreamCreate);
  OCCX_LOAD(cuStreamDestroy);
  OCCX_LOAD(cuStreamSynchronize);
  OCCX_LOAD(cuEventCreate);
  OCCX_LOAD(cuEventDestroy);
  OCCX_LOAD(cuEventRecord);
  OCCX_LOAD(cuEventSynchronize);
  OCCX_LOAD(cuEventElapsedTime);
#undef OCCX_LOAD
  auto loadOptional = [&](auto& fn, const char* name) {
    if (void* sym = dlsym(handle, name)) fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(sym);
  };
  loadOptional(t.cuOccupancyMaxActiveClusters, OCCX_STRINGIFY(cuOccupancyMaxActiveClusters));
  loadOptional(t.cuOccupancyMaxPotentialClusterSize, OCCX_STRINGIFY(cuOccupancyMaxPotentialClusterSize));
  loadOptional(t.cuOccupancyMaxPotentialBlockSize, OCCX_STRINGIFY(cuOccupancyMaxPotentialBlockSize));
  if (!ok) {
    t.error = "libcuda.so.1 lacks driver functions this program needs (driver too old?): " + missing;
    return t;  // the handle stays open: harmless, and the library may be in use elsewhere
  }
  const CUresult r = t.cuInit(0);
  if (r != CUDA_SUCCESS) {
    t.error = "the NVIDIA driver is installed but cuInit failed: " + driverErrorText(t, r);
    return t;
  }
  t.loaded = true;
  return t;
}

}  // namespace

const DriverTable& driverTable() {
  static const DriverTable table = loadDriver();  // thread-safe initialisation
  return table;
}

std::string driverErrorText(const DriverTable& t, CUresult r) {
  std::string s = "CUDA driver error " + std::to_string(static_cast<int>(r));
  if (t.cuGetErrorString != nullptr) {
    const char* text = nullptr;
    if (t.cuGetErrorString(r, &text) == CUDA_SUCCESS && text != nullptr) s += " (" + std::string(text) + ")";
  }
  return s;
}

}  // namespace detail

DriverStatus driverStatus() {
  const auto& t = detail::driverTable();
  DriverStatus s;
  if (!t.loaded) {
    s.reason = t.error;
    return s;
  }
  s.available = true;
  t.cuDriverGetVersion(&s.driver_version);
  if (t.cuDeviceGetCount(&s.device_count) != CUDA_SUCCESS) s.device_count = 0;
  return s;
}

occx::CrossCheck crossCheckWithDriver(const CompileResult& result) {
  CrossCheck c;
  const auto& t = detail::driverTable();
  if (!t.loaded) {
    c.note = "no driver: " + t.error;
    return c;
  }
  int count = 0;
  if (t.cuDeviceGetCount(&count) != CUDA_SUCCESS || count == 0) {
    c.note = "no CUDA device present";
    return c;
  }
  CUdevice dev = 0;
  std::string name;
  for (int i = 0; i < count; ++i) {
    CUdevice d = 0;
    int major = 0, minor = 0;
    if (t.cuDeviceGet(&d, i) != CUDA_SUCCESS) continue;
    t.cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
    t.cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
    if (major == result.arch.major && minor == result.arch.minor) {
      dev = d;
      c.device = i;
      char buf[256] = {};
      t.cuDeviceGetName(buf, sizeof buf, d);
      name = buf;
      break;
    }
  }
  if (c.device < 0) {
    c.note = "no device of compute capability " + result.arch.str() + " present (a " + result.arch.smName() +
             " cubin loads only there)";
    return c;
  }
  auto fail = [&](const std::string& what, CUresult r) {
    c.state = CrossCheck::State::kFailed;
    c.note = what + ": " + detail::driverErrorText(t, r);
  };
  CUcontext previous = nullptr;
  t.cuCtxGetCurrent(&previous);
  CUcontext ctx = nullptr;
  if (CUresult r = t.cuDevicePrimaryCtxRetain(&ctx, dev); r != CUDA_SUCCESS) {
    fail("cuDevicePrimaryCtxRetain", r);
    return c;
  }
  if (CUresult r = t.cuCtxSetCurrent(ctx); r != CUDA_SUCCESS) {
    fail("cuCtxSetCurrent", r);
    t.cuDevicePrimaryCtxRelease(dev);
    return c;
  }
  CUmodule mod = nullptr;
  if (CUresult r = t.cuModuleLoadData(&mod, result.cubin.data()); r != CUDA_SUCCESS) {
    fail("cuModuleLoadData", r);
  } else {
    CUfunction fn = nullptr;
    if (CUresult r2 = t.cuModuleGetFunction(&fn, mod, result.kernel_name.c_str()); r2 != CUDA_SUCCESS) {
      fail("cuModuleGetFunction(" + result.kernel_name + ")", r2);
    } else {
      auto& a = c.attributes;
      t.cuFuncGetAttribute(&a.registers, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
      t.cuFuncGetAttribute(&a.local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);
      t.cuFuncGetAttribute(&a.static_smem_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
      t.cuFuncGetAttribute(&a.max_threads_per_block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
      const auto& rep = result.report;
      const bool same = a.registers == rep.registers && a.local_bytes == rep.stack_frame_bytes &&
                        a.static_smem_bytes == rep.static_smem_bytes;
      c.state = same ? CrossCheck::State::kAgrees : CrossCheck::State::kDisagrees;
      c.note = "device " + std::to_string(c.device) + " (" + name + "): " + std::to_string(a.registers) +
               " registers, " + std::to_string(a.local_bytes) + " B local, " + std::to_string(a.static_smem_bytes) +
               " B static shared memory" +
               (same ? ", as the compiler reported"
                     : "; the compiler reported " + std::to_string(rep.registers) + " registers, " +
                           std::to_string(rep.stack_frame_bytes) + " B stack frame, " +
                           std::to_string(rep.static_smem_bytes) + " B shared memory");
    }
    t.cuModuleUnload(mod);
  }
  t.cuCtxSetCurrent(previous);
  t.cuDevicePrimaryCtxRelease(dev);
  return c;
}

}  // namespace occx::cuda
