// Records the driver's occupancy answers on the local GPU: active blocks per SM, max active clusters
// (cuOccupancyMaxActiveClusters) for cluster sizes 1..16, max potential cluster size (portable and
// non-portable), and cuOccupancyMaxPotentialBlockSize, over registers x block size x dynamic smem.
// The fixtures tests/data/h200_clusters.csv and tests/data/h200_best_block_size.csv were recorded
// with it on an NVIDIA H200 (the clusters file keeps a deterministic subset, one row per launch
// configuration; see its header). Not part of the build. To record again on a GPU machine:
//   CUDA=/usr/local/cuda
//   g++ -O2 -std=c++17 tests/cuda/record/cluster_record.cpp -I$CUDA/include -L$CUDA/lib64 -lcuda -lnvrtc -o
//   cluster_record
//   ./cluster_record clusters.csv best_block_size.csv
// then compare with scripts/fit-cluster-layout.py (which also derives the GPC layout of
// resources/gpu_data.json from the design half of the clusters file).
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                               \
  do {                                                                      \
    CUresult r_ = (x);                                                      \
    if (r_ != CUDA_SUCCESS) {                                               \
      const char* s_ = nullptr;                                             \
      cuGetErrorName(r_, &s_);                                              \
      std::fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #x, s_); \
      std::exit(1);                                                         \
    }                                                                       \
  } while (0)

static const char* kSrc = R"(
extern "C" __global__ void heavy(const float* __restrict__ in, float* __restrict__ out, int n) {
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

static std::vector<char> compile(int arch, int maxreg) {
  nvrtcProgram p;
  nvrtcCreateProgram(&p, kSrc, "heavy.cu", 0, nullptr, nullptr);
  std::string a = "--gpu-architecture=sm_" + std::to_string(arch);
  std::string m = "--maxrregcount=" + std::to_string(maxreg);
  const char* opts[] = {a.c_str(), m.c_str()};
  if (nvrtcCompileProgram(p, 2, opts) != NVRTC_SUCCESS) {
    size_t n;
    nvrtcGetProgramLogSize(p, &n);
    std::string log(n, 0);
    nvrtcGetProgramLog(p, log.data());
    std::fprintf(stderr, "%s\n", log.c_str());
    std::exit(1);
  }
  size_t n;
  nvrtcGetCUBINSize(p, &n);
  std::vector<char> c(n);
  nvrtcGetCUBIN(p, c.data());
  nvrtcDestroyProgram(&p);
  return c;
}

int main(int argc, char** argv) {
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  int maj, min, sms, smem_optin;
  CK(cuDeviceGetAttribute(&maj, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, dev));
  CK(cuDeviceGetAttribute(&min, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, dev));
  CK(cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev));
  CK(cuDeviceGetAttribute(&smem_optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, dev));
  char name[256];
  CK(cuDeviceGetName(name, sizeof name, dev));
  int drv;
  cuDriverGetVersion(&drv);
  FILE* f = argc > 1 ? std::fopen(argv[1], "w") : stdout;
  FILE* g = argc > 2 ? std::fopen(argv[2], "w") : stdout;
  std::fprintf(f, "# device: %s, cc %d.%d, %d SMs, optin smem %d, driver %d\n", name, maj, min, sms, smem_optin, drv);
  std::fprintf(f,
               "registers,block_threads,dynamic_smem_bytes,cluster_size,active_blocks_per_sm,max_active_clusters,"
               "max_potential_cluster_size_portable,max_potential_cluster_size_nonportable,status\n");
  std::fprintf(g, "# device: %s, cc %d.%d, %d SMs, driver %d\n", name, maj, min, sms, drv);
  std::fprintf(g, "registers,dynamic_smem_bytes,block_size_limit,min_grid_size,block_size,status\n");
  const int maxregs[] = {16, 24, 32, 40, 48, 56, 64, 72, 80, 96, 128, 168, 200, 255};
  const int blocks[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};
  const int smems[] = {0, 1024, 4096, 8192, 16384, 24576, 32768, 49152, 65536, 81920, 102400, 135168, 165888, 232448};
  int last_regs = -1;
  for (int mr : maxregs) {
    auto cubin = compile(maj * 10 + min, mr);
    CUmodule mod;
    CK(cuModuleLoadData(&mod, cubin.data()));
    CUfunction fn;
    CK(cuModuleGetFunction(&fn, mod, "heavy"));
    int regs, local;
    CK(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, fn));
    CK(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn));
    std::fprintf(stderr, "maxrreg %d -> %d registers, %d local bytes\n", mr, regs, local);
    if (regs == last_regs) {
      cuModuleUnload(mod);
      continue;
    }
    last_regs = regs;
    CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, smem_optin));
    CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
    for (int smem : smems) {
      if (smem > smem_optin) continue;
      for (int limit : {0, 256, 512}) {
        int min_grid = 0, bs = 0;
        CUresult r = cuOccupancyMaxPotentialBlockSize(&min_grid, &bs, fn, nullptr, smem, limit);
        const char* s = "ok";
        if (r != CUDA_SUCCESS) cuGetErrorName(r, &s);
        std::fprintf(g, "%d,%d,%d,%d,%d,%s\n", regs, smem, limit, min_grid, bs, s);
      }
      for (int b : blocks) {
        int per_sm = 0;
        CUresult r0 = cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, b, smem);
        if (r0 != CUDA_SUCCESS) per_sm = -1;
        int pot[2] = {-1, -1};
        for (int np = 0; np < 2; ++np) {
          CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, np));
          CUlaunchConfig cfg{};
          cfg.gridDimX = 16 * 1024;
          cfg.gridDimY = cfg.gridDimZ = 1;
          cfg.blockDimX = b;
          cfg.blockDimY = cfg.blockDimZ = 1;
          cfg.sharedMemBytes = smem;
          int size = 0;
          if (cuOccupancyMaxPotentialClusterSize(&size, fn, &cfg) == CUDA_SUCCESS) pot[np] = size;
        }
        CK(cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_NON_PORTABLE_CLUSTER_SIZE_ALLOWED, 1));
        for (int c = 1; c <= 16; ++c) {
          CUlaunchAttribute attr{};
          attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
          attr.value.clusterDim.x = c;
          attr.value.clusterDim.y = 1;
          attr.value.clusterDim.z = 1;
          CUlaunchConfig cfg{};
          cfg.gridDimX = c * 1024;
          cfg.gridDimY = cfg.gridDimZ = 1;
          cfg.blockDimX = b;
          cfg.blockDimY = cfg.blockDimZ = 1;
          cfg.sharedMemBytes = smem;
          cfg.attrs = &attr;
          cfg.numAttrs = 1;
          int clusters = -1;
          CUresult r = cuOccupancyMaxActiveClusters(&clusters, fn, &cfg);
          const char* s = "ok";
          if (r != CUDA_SUCCESS) {
            cuGetErrorName(r, &s);
            clusters = -1;
          }
          std::fprintf(f, "%d,%d,%d,%d,%d,%d,%d,%d,%s\n", regs, b, smem, c, per_sm, clusters, pot[0], pot[1], s);
        }
      }
    }
    cuModuleUnload(mod);
  }
  if (f != stdout) std::fclose(f);
  if (g != stdout) std::fclose(g);
  return 0;
}
