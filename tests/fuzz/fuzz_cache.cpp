// Fuzz target: the readers of files a previous run — or a crash, a full disk, another program
// version — left in the user's cache folder: the compile cache's entry reader (CompileCache::lookup)
// and the measured copy-bandwidth cache (loadCachedCopyBandwidth; the input is also written as
// copy_bandwidth.json: a damaged file must be a miss, never an exception, and a hit must be positive). The
// input is written as the entry of a fixed request, then looked up: a damaged entry must be a miss
// (counted as corrupt or as a miss), never a crash, and a hit must be the request's own result.
// To get past the checksum, the text "@FNV@" in the input is replaced by the FNV-1a of the payload
// (the bytes after the first newline that follows the header), as the writer computes it.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/gpu/detected_gpu.h"
#include "core/kernels/compile_cache.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_cache: property violated: %s\n", what);
    std::abort();
  }
}

struct Fixture {
  std::string dir;
  occx::CompileCache cache;
  occx::CompileRequest request;
  std::vector<std::string> options{"--gpu-architecture=sm_90", "-O3"};
  std::string compiler = "NVRTC 13.0";
  std::string path;
  explicit Fixture(const std::string& folder) : dir(folder), cache(folder) {
    request.source = "extern \"C\" __global__ void k(float* x) { x[threadIdx.x] += 1.0f; }\n";
    request.kernel_name = "k";
    request.arch = {9, 0};
    occx::CompileResult r;
    r.kernel_name = "k";
    r.arch = request.arch;
    r.report.function = "k";
    r.report.arch = "sm_90";
    r.report.registers = 8;
    r.log = "ptxas info    : Used 8 registers\n";
    r.cubin = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    r.options = options;
    auto stored = cache.store(request, options, compiler, r);
    require(stored.hasValue(), "the fixture's entry is stored");
    path = *stored;
    // OCCX_FUZZ_CACHE_SEED=FILE: copy the valid entry there (how the seed corpus was made).
    if (const char* seed = std::getenv("OCCX_FUZZ_CACHE_SEED")) std::filesystem::copy_file(path, seed);
  }
};

Fixture* fixture = nullptr;
}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  std::string dir = (std::filesystem::temp_directory_path() / "occx-fuzz-cache-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr) {
    std::perror("fuzz_cache: scratch folder");
    std::abort();
  }
  fixture = new Fixture(dir);
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string entry(reinterpret_cast<const char*>(data), size);
  const auto marker = entry.find("@FNV@");
  const auto magic_end = entry.find('\n');
  const auto header_end = magic_end == std::string::npos ? magic_end : entry.find('\n', magic_end + 1);
  const std::string payload = header_end == std::string::npos ? std::string() : entry.substr(header_end + 1);
  if (marker != std::string::npos) {
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(occx::fnv1a64(payload)));
    entry.replace(marker, 5, hex);
  }
  std::ofstream(fixture->path, std::ios::binary | std::ios::trunc) << entry;
  {
    std::ofstream(fixture->dir + "/copy_bandwidth.json", std::ios::binary | std::ios::trunc)
        .write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
    occx::DeviceInfo device;
    device.uuid = "GPU-0000";
    device.driver_version = 13000;
    const auto bw = occx::loadCachedCopyBandwidth(fixture->dir, device);
    require(!bw || bw->GBps > 0.0, "a cached copy bandwidth is positive");
  }
  auto hit = fixture->cache.lookup(fixture->request, fixture->options, fixture->compiler);
  if (hit) {
    require(hit->cache_hit, "a hit says so");
    require(hit->kernel_name == fixture->request.kernel_name, "a hit is for the entry point asked for");
    require(hit->options == fixture->options, "a hit is for the options asked for");
    const std::string cubin(hit->cubin.begin(), hit->cubin.end());
    require(fixture->request.source + hit->log + cubin == payload, "a hit's source, log and cubin are its payload");
  }
  return 0;
}
