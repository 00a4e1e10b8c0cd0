#include "core/kernels/compile_cache.h"

#include "core/base/user_cache.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"

namespace occx {

namespace {

constexpr std::string_view kMagic = "occx-compile-cache 1\n";
constexpr int kFormatVersion = 1;

std::string hex64(std::uint64_t v) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(v));
  return buf;
}

std::string joinOptions(const std::vector<std::string>& options) {
  std::string s;
  for (const auto& o : options) {
    s += o;
    s += '\n';
  }
  return s;
}

nlohmann::json reportToJson(const PtxasReport& r) {
  return {{"function", r.function},
          {"arch", r.arch},
          {"registers", r.registers},
          {"spill_stores_bytes", r.spill_stores_bytes},
          {"spill_loads_bytes", r.spill_loads_bytes},
          {"stack_frame_bytes", r.stack_frame_bytes},
          {"static_smem_bytes", r.static_smem_bytes},
          {"constant_bytes", r.constant_bytes},
          {"barriers", r.barriers}};
}

/// Reads a report back; false when a field is missing or has the wrong type.
bool reportFromJson(const nlohmann::json& j, PtxasReport& r) {
  if (!j.is_object()) return false;
  auto getInt = [&](const char* key, int& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_number_integer()) return false;
    out = it->get<int>();
    return true;
  };
  auto getStr = [&](const char* key, std::string& out) {
    auto it = j.find(key);
    if (it == j.end() || !it->is_string()) return false;
    out = it->get<std::string>();
    return true;
  };
  return getStr("function", r.function) && getStr("arch", r.arch) && getInt("registers", r.registers) &&
         getInt("spill_stores_bytes", r.spill_stores_bytes) && getInt("spill_loads_bytes", r.spill_loads_bytes) &&
         getInt("stack_frame_bytes", r.stack_frame_bytes) && getInt("static_smem_bytes", r.static_smem_bytes) &&
         getInt("constant_bytes", r.constant_bytes) && getInt("barriers", r.barriers);
}

}  // namespace

std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed) {
  std::uint64_t h = seed;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

CompileCache::CompileCache(std::string directory) : dir_(std::move(directory)) {}

std::string CompileCache::defaultDirectory() {
  return userCacheDirectory();
}

std::string CompileCache::keyHex(const CompileRequest& request, const std::vector<std::string>& options,
                                 std::string_view compiler) {
  std::uint64_t h = fnv1a64(std::to_string(kFormatVersion));
  auto mix = [&h](std::string_view part) {
    h = fnv1a64(part, h);
    h = fnv1a64(std::string_view("\0", 1), h);  // separator: ("ab","c") and ("a","bc") differ
  };
  mix(request.source);
  mix(request.kernel_name);
  mix(request.arch.smName());
  mix(joinOptions(options));
  mix(compiler);
  return hex64(h);
}

std::string CompileCache::entryPath(const std::string& key_hex) const {
  return dir_ + "/nvrtc/" + key_hex + ".occxc";
}

std::optional<CompileResult> CompileCache::lookup(const CompileRequest& request,
                                                  const std::vector<std::string>& options, std::string_view compiler,
                                                  std::string* damage) {
  if (dir_.empty()) {
    ++misses_;
    return std::nullopt;
  }
  const std::string path = entryPath(keyHex(request, options, compiler));
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    ++misses_;
    return std::nullopt;
  }
  auto text = readFile(path, std::size_t{256} << 20);
  auto corrupt = [this, &path, damage](std::string reason) -> std::optional<CompileResult> {
    const std::string what = path + " (" + reason + ")";
    if (noteCorrupt(path, std::move(reason)) && damage != nullptr) *damage = what;
    return std::nullopt;
  };
  if (!text) return corrupt("unreadable: " + text.error());
  const std::string& t = *text;
  if (t.compare(0, kMagic.size(), kMagic) != 0) return corrupt("not a cache entry (no 'occx-compile-cache' header)");
  const std::size_t nl = t.find('\n', kMagic.size());
  if (nl == std::string::npos) return corrupt("truncated in the header");
  const nlohmann::json h = nlohmann::json::parse(t.begin() + static_cast<std::ptrdiff_t>(kMagic.size()),
                                                 t.begin() + static_cast<std::ptrdiff_t>(nl), nullptr, false);
  if (h.is_discarded() || !h.is_object()) return corrupt("the header is not a JSON object");
  CompileResult r;
  std::uint64_t source_bytes = 0, log_bytes = 0, cubin_bytes = 0;
  std::string checksum, arch, comp, kernel;
  try {
    // Sizes must be JSON unsigned integers: get<uint64_t> of a float beyond 2^64 is undefined behaviour.
    for (const char* k : {"source_bytes", "log_bytes", "cubin_bytes"}) {
      if (!h.at(k).is_number_unsigned()) return corrupt(std::string("'") + k + "' is not an unsigned integer");
    }
    source_bytes = h.at("source_bytes").get<std::uint64_t>();
    log_bytes = h.at("log_bytes").get<std::uint64_t>();
    cubin_bytes = h.at("cubin_bytes").get<std::uint64_t>();
    checksum = h.at("payload_fnv1a64").get<std::string>();
    arch = h.at("arch").get<std::string>();
    comp = h.at("compiler").get<std::string>();
    kernel = h.at("kernel").get<std::string>();
    r.options = h.at("options").get<std::vector<std::string>>();
    r.compile_ms = h.at("compile_ms").get<double>();
    if (!reportFromJson(h.at("report"), r.report)) return corrupt("the compiler report in the header is malformed");
  } catch (const nlohmann::json::exception& e) {
    return corrupt(std::string("a header field is missing or of the wrong type (") + e.what() + ")");
  }
  const std::size_t payload = nl + 1;
  // Each size checked on its own first: a sum of huge sizes wraps around to the file's size.
  if (const std::uint64_t n = t.size() - payload;
      source_bytes > n || log_bytes > n || cubin_bytes > n || n != source_bytes + log_bytes + cubin_bytes) {
    return corrupt("truncated or padded: " + std::to_string(n) + " payload bytes, the header says " +
                   std::to_string(source_bytes) + " + " + std::to_string(log_bytes) + " + " +
                   std::to_string(cubin_bytes));
  }
  const std::string_view all(t);
  if (hex64(fnv1a64(all.substr(payload))) != checksum) return corrupt("checksum mismatch (the payload was changed)");
  const std::string_view source = all.substr(payload, source_bytes);
  // A different request with the same hash: a miss (the entry will be overwritten).
  if (source != request.source || kernel != request.kernel_name || arch != request.arch.smName() || comp != compiler ||
      r.options != options) {
    ++misses_;
    return std::nullopt;
  }
  r.kernel_name = kernel;
  r.arch = request.arch;
  r.compiler = comp;
  r.log = std::string(all.substr(payload + source_bytes, log_bytes));
  const std::string_view cubin = all.substr(payload + source_bytes + log_bytes, cubin_bytes);
  r.cubin.assign(cubin.begin(), cubin.end());
  r.cache_hit = true;
  ++hits_;
  return r;
}

Expected<std::string> CompileCache::store(const CompileRequest& request, const std::vector<std::string>& options,
                                          std::string_view compiler, const CompileResult& result) {
  if (dir_.empty()) return Error{"no cache directory"};
  const std::string path = entryPath(keyHex(request, options, compiler));
  std::error_code ec;
  std::filesystem::create_directories(dir_ + "/nvrtc", ec);
  if (ec) {
    ++store_errors_;
    return Error{"cannot create the cache folder " + dir_ + "/nvrtc: " + ec.message()};
  }
  std::string payload = request.source;
  payload += result.log;
  payload.append(reinterpret_cast<const char*>(result.cubin.data()), result.cubin.size());
  const nlohmann::json h = {{"format", kFormatVersion},
                            {"kernel", request.kernel_name},
                            {"arch", request.arch.smName()},
                            {"options", options},
                            {"compiler", std::string(compiler)},
                            {"compile_ms", result.compile_ms},
                            {"report", reportToJson(result.report)},
                            {"source_bytes", request.source.size()},
                            {"log_bytes", result.log.size()},
                            {"cubin_bytes", result.cubin.size()},
                            {"payload_fnv1a64", hex64(fnv1a64(payload))}};
  std::string content(kMagic);
  try {
    content += h.dump();
  } catch (const nlohmann::json::exception& e) {  // an option that is not UTF-8
    ++store_errors_;
    return Error{"cannot store a cache entry for " + request.kernel_name + ": " + e.what()};
  }
  content += '\n';
  content += payload;
  auto w = writeFileAtomically(path, content);
  if (!w) {
    ++store_errors_;
    return Error{w.error()};
  }
  ++stores_;
  {
    const std::lock_guard<std::mutex> lock(corrupt_mutex_);
    if (unrepaired_.erase(path) > 0) {
      for (auto& e : corrupt_entries_) {
        if (e.path == path) e.replaced = true;
      }
    }
  }
  return path;
}

bool CompileCache::noteCorrupt(const std::string& path, std::string reason) {
  const std::lock_guard<std::mutex> lock(corrupt_mutex_);
  // Reported once: until store() replaces the file, looking it up again is not news.
  if (!unrepaired_.insert(path).second) return false;
  corrupt_entries_.push_back({path, std::move(reason), false});
  ++corrupt_;
  return true;
}

std::vector<CorruptCacheEntry> CompileCache::corruptEntries() const {
  const std::lock_guard<std::mutex> lock(corrupt_mutex_);
  return corrupt_entries_;
}

CompileCacheStats CompileCache::stats() const {
  CompileCacheStats s;
  s.hits = hits_.load();
  s.misses = misses_.load();
  s.corrupt = corrupt_.load();
  s.stores = stores_.load();
  s.store_errors = store_errors_.load();
  return s;
}

}  // namespace occx
