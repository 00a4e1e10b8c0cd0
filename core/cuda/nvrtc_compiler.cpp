#include "core/cuda/nvrtc_compiler.h"

#include <algorithm>
#include <chrono>

#include <nvrtc.h>

namespace occx::cuda {

namespace {

/// Destroys an NVRTC program when it goes out of scope.
struct ProgramGuard {
  nvrtcProgram prog = nullptr;
  ~ProgramGuard() {
    if (prog != nullptr) nvrtcDestroyProgram(&prog);
  }
};

/// NVRTC's flow callback: 1 stops the compile. `payload` is the request's cancel flag.
int cancelCallback(void* payload, void* /*reserved*/) {
  const auto* flag = static_cast<const std::atomic<bool>*>(payload);
  return flag != nullptr && flag->load() ? 1 : 0;
}

std::string archList(const std::vector<ComputeCapability>& archs) {
  std::string s;
  for (const auto& a : archs) s += (s.empty() ? "" : ", ") + a.smName();
  return s;
}

}  // namespace

std::string nvrtcVersionString() {
  int major = 0, minor = 0;
  if (nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return "NVRTC (unknown version)";
  return "NVRTC " + std::to_string(major) + "." + std::to_string(minor);
}

std::vector<ComputeCapability> nvrtcSupportedArchitectures() {
  int n = 0;
  if (nvrtcGetNumSupportedArchs(&n) != NVRTC_SUCCESS || n <= 0) return {};
  std::vector<int> codes(static_cast<std::size_t>(n));
  if (nvrtcGetSupportedArchs(codes.data()) != NVRTC_SUCCESS) return {};
  std::vector<ComputeCapability> archs;
  for (int c : codes) archs.push_back({c / 10, c % 10});
  std::sort(archs.begin(), archs.end());
  return archs;
}

std::vector<ComputeCapability> offeredArchitectures(const GpuDatabase& db) {
  std::vector<ComputeCapability> out;
  for (const auto& cc : nvrtcSupportedArchitectures()) {
    if (db.findArch(cc) != nullptr) out.push_back(cc);
  }
  return out;
}

std::vector<std::string> NvrtcCompiler::optionsFor(const CompileRequest& request) {
  // --no-cache: where a driver is installed, NVRTC 13 reuses cubins from the driver's compute cache
  // and then skips ptxas, so the log has no register report; always compile.
  std::vector<std::string> o = {"-arch=" + request.arch.smName(), "--ptxas-options=-v", "-std=c++17", "--no-cache"};
  if (request.maxrregcount > 0) o.push_back("--maxrregcount=" + std::to_string(request.maxrregcount));
  o.insert(o.end(), request.extra_options.begin(), request.extra_options.end());
  return o;
}

Expected<CompileResult> NvrtcCompiler::compile(const CompileRequest& request) const {
  static const std::vector<ComputeCapability> supported = nvrtcSupportedArchitectures();
  static const std::string version = nvrtcVersionString();
  if (std::find(supported.begin(), supported.end(), request.arch) == supported.end()) {
    return Error{"architecture " + request.arch.smName() + " is not supported by " + version + ": supported " +
                 archList(supported)};
  }
  if (request.maxrregcount < 0 || request.maxrregcount > 255) {
    return Error{"maxrregcount " + std::to_string(request.maxrregcount) +
                 " is out of range: allowed 0 (no cap) or 1 … 255 registers per thread"};
  }
  if (request.cancel != nullptr && request.cancel->load()) return Error::cancellation();
  const std::vector<std::string> options = optionsFor(request);
  std::string damage;
  if (cache_ != nullptr) {
    if (auto hit = cache_->lookup(request, options, version, &damage)) return std::move(*hit);
  }

  const auto t0 = std::chrono::steady_clock::now();
  ProgramGuard guard;
  const std::string file = request.kernel_name.empty() ? "kernel.cu" : request.kernel_name + ".cu";
  nvrtcResult rc = nvrtcCreateProgram(&guard.prog, request.source.c_str(), file.c_str(), 0, nullptr, nullptr);
  if (rc != NVRTC_SUCCESS) {
    guard.prog = nullptr;
    return Error{std::string("nvrtcCreateProgram failed: ") + nvrtcGetErrorString(rc)};
  }
  if (request.cancel != nullptr) {
    // The callback only reads the atomic flag, as NVRTC requires (thread-safe, no NVRTC calls).
    nvrtcSetFlowCallback(guard.prog, &cancelCallback, const_cast<void*>(static_cast<const void*>(request.cancel)));
  }
  std::vector<const char*> argv;
  for (const auto& o : options) argv.push_back(o.c_str());
  rc = nvrtcCompileProgram(guard.prog, static_cast<int>(argv.size()), argv.data());
  std::string log;
  std::size_t log_size = 0;
  if (nvrtcGetProgramLogSize(guard.prog, &log_size) == NVRTC_SUCCESS && log_size > 1) {
    log.resize(log_size);
    if (nvrtcGetProgramLog(guard.prog, log.data()) != NVRTC_SUCCESS) log.clear();
    while (!log.empty() && log.back() == '\0') log.pop_back();
  }
  if (rc == NVRTC_ERROR_CANCELLED) return Error::cancellation();
  if (rc != NVRTC_SUCCESS) {
    std::string opts;
    for (const auto& o : options) opts += (opts.empty() ? "" : " ") + o;
    return Error{std::string(nvrtcGetErrorString(rc)) + " compiling " + request.kernel_name + " for " +
                 request.arch.smName() + " (options: " + opts + "); compiler log:\n" +
                 (log.empty() ? std::string("(empty)") : log)};
  }
  CompileResult r;
  r.kernel_name = request.kernel_name;
  r.arch = request.arch;
  r.options = options;
  r.compiler = version;
  std::size_t cubin_size = 0;
  if ((rc = nvrtcGetCUBINSize(guard.prog, &cubin_size)) != NVRTC_SUCCESS || cubin_size == 0) {
    return Error{std::string("nvrtcGetCUBINSize failed: ") + nvrtcGetErrorString(rc)};
  }
  r.cubin.resize(cubin_size);
  if ((rc = nvrtcGetCUBIN(guard.prog, reinterpret_cast<char*>(r.cubin.data()))) != NVRTC_SUCCESS) {
    return Error{std::string("nvrtcGetCUBIN failed: ") + nvrtcGetErrorString(rc)};
  }
  auto report = parsePtxasReport(log, request.kernel_name);
  if (!report) return Error{report.error() + "; compiler log:\n" + log};
  r.report = std::move(report).value();
  r.log = std::move(log);
  r.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  if (cache_ != nullptr) {
    auto stored = cache_->store(request, options, version, r);
    if (!damage.empty()) {
      r.cache_repair = damage + (stored ? ": recompiled and replaced"
                                        : ": recompiled; the new entry could not be written: " + stored.error());
    }
  }
  return r;
}

CompileFunction NvrtcCompiler::function() const {
  return [this](const CompileRequest& request) { return compile(request); };
}

}  // namespace occx::cuda
