#include "core/triton/triton_cache.h"

#include <algorithm>
#include <charconv>
#include <limits>
#include <new>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/base/json_value.h"

namespace occx::triton {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kMaxIrBytes = std::size_t{64} << 20;
constexpr std::size_t kMaxJsonBytes = std::size_t{4} << 20;

// The JSON file of a cache folder: "<kernel>.json", not "__grp__<kernel>.json". `error` gets why
// the folder could not be listed.
std::optional<fs::path> metadataFile(const fs::path& folder, std::string* error = nullptr) {
  for (const std::string& entry : listFolder(folder.string(), error)) {
    const std::string file = fs::path(entry).filename().string();
    if (file.size() > 5 && file.ends_with(".json") && !file.starts_with("__grp__")) return fs::path(entry);
  }
  return std::nullopt;
}

// "tensor<1x2048xf32>" → {1, 2048}; the largest shape per rank over the whole text.
void readTileShapes(std::string_view ir, std::vector<std::vector<std::int64_t>>& best) {
  std::size_t pos = 0;
  while ((pos = ir.find("tensor<", pos)) != std::string_view::npos) {
    pos += 7;
    std::vector<std::int64_t> shape;
    std::size_t p = pos;
    while (p < ir.size()) {
      std::int64_t dim = 0;
      auto [ptr, ec] = std::from_chars(ir.data() + p, ir.data() + ir.size(), dim);
      if (ec != std::errc{} || ptr >= ir.data() + ir.size() || *ptr != 'x') break;
      shape.push_back(dim);
      p = static_cast<std::size_t>(ptr - ir.data()) + 1;
    }
    if (shape.empty() || shape.size() > 4) continue;
    if (best.size() < shape.size()) best.resize(shape.size());
    // Saturating: a damaged IR's 2^32 × 2^32 must not wrap to a small product (signed overflow).
    auto product = [](const std::vector<std::int64_t>& s) {
      std::int64_t n = 1;
      for (auto d : s) {
        const std::int64_t f = std::max<std::int64_t>(d, 1);
        n = n > std::numeric_limits<std::int64_t>::max() / f ? std::numeric_limits<std::int64_t>::max() : n * f;
      }
      return s.empty() ? 0 : n;
    };
    auto& slot = best[shape.size() - 1];
    if (product(shape) > product(slot)) slot = shape;
  }
}

// The first `#loc = loc("<path>":line:col)` of the IR: the Inductor module it was compiled from.
std::string modulePathOf(std::string_view ir) {
  const std::size_t at = ir.find("#loc = loc(\"");
  if (at == std::string_view::npos) return {};
  const std::size_t start = at + 12;
  const std::size_t end = ir.find('"', start);
  if (end == std::string_view::npos) return {};
  return std::string(ir.substr(start, end - start));
}

// The .ptx entry's parameter types, in order.
std::vector<std::string> ptxParams(std::string_view ptx) {
  std::vector<std::string> out;
  const std::size_t entry = ptx.find(".entry ");
  if (entry == std::string_view::npos) return out;
  const std::size_t open = ptx.find('(', entry);
  const std::size_t close = ptx.find(')', entry);
  if (open == std::string_view::npos || close == std::string_view::npos || close < open) return out;
  std::string_view params = ptx.substr(open + 1, close - open - 1);
  std::size_t pos = 0;
  while ((pos = params.find(".param", pos)) != std::string_view::npos) {
    pos += 6;
    while (pos < params.size() && params[pos] == ' ') ++pos;
    std::size_t end = pos;
    while (end < params.size() && params[end] != ' ' && params[end] != '\t') ++end;
    out.emplace_back(params.substr(pos, end - pos));
  }
  return out;
}

void readMetadata(const nlohmann::json& j, TritonCompiled& c) {
  // Integers within the field's type (integerValue): a num_warps of 4294967304 is a problem, never 8.
  auto integerIn = [&](const nlohmann::json& obj, const char* key, auto& field, const char* where) {
    using T = std::remove_reference_t<decltype(field)>;
    if (!obj.is_object() || !obj.contains(key)) return;
    if (auto v = integerValue<T>(obj, key, field)) {
      field = *v;
    } else {
      c.problems.push_back(c.folder + ": the JSON's " + where + "'" + key + "' is " + obj[key].dump() +
                           ": not an integer within " + std::to_string(std::numeric_limits<T>::min()) + " … " +
                           std::to_string(std::numeric_limits<T>::max()) + "; left unknown");
    }
  };
  auto integer = [&](const char* key, auto& field) { integerIn(j, key, field, ""); };
  if (j.contains("name") && j["name"].is_string()) c.name = j["name"].get<std::string>();
  integer("num_warps", c.num_warps);
  integer("num_stages", c.num_stages);
  integer("num_ctas", c.num_ctas);
  integer("shared", c.shared_bytes);
  integer("warp_size", c.warp_size);
  integer("global_scratch_size", c.global_scratch_size);
  integer("global_scratch_align", c.global_scratch_align);
  integer("profile_scratch_size", c.profile_scratch_size);
  integer("profile_scratch_align", c.profile_scratch_align);
  if (j.contains("triton_version") && j["triton_version"].is_string())
    c.triton_version = j["triton_version"].get<std::string>();
  if (j.contains("target") && j["target"].is_object()) {
    const auto& t = j["target"];
    if (t.contains("backend") && t["backend"].is_string()) c.backend = t["backend"].get<std::string>();
    if (t.contains("arch") && !t["arch"].is_string()) integerIn(t, "arch", c.arch, "target ");
    integerIn(t, "warp_size", c.warp_size, "target ");
  }
  for (const char* key : {"num_warps", "shared", "target"}) {
    if (!j.contains(key))
      c.problems.push_back(c.folder + ": the JSON has no '" + key + "' (a Triton layout this reader does not know?)");
  }
}

// `base` is the folder's files without their extension: Triton names them by the kernel, cut
// short when the name is long (the JSON's "name" holds it whole).
void readCompiledFiles(const fs::path& base, TritonCompiled& c) {
  std::error_code ec;
  bool have_ir = false;
  // symlink_status: a link that loops or dangles is there, and reading it says why it cannot be read.
  auto present = [&](const fs::path& p) { return fs::exists(fs::symlink_status(p, ec)); };
  for (const char* ext : {".ttir", ".source"}) {
    const fs::path p = base.string() + ext;
    if (!present(p)) continue;
    auto text = readFile(p.string(), kMaxIrBytes);
    if (!text) {
      c.problems.push_back(text.error());
      continue;
    }
    if (c.module_path.empty()) c.module_path = modulePathOf(*text);
    if (!have_ir) readTileShapes(*text, c.tile_shapes);
    have_ir = true;
  }
  if (!have_ir) c.problems.push_back(c.folder + ": no .ttir or .source, so the tile (XBLOCK, R0_BLOCK) is unknown");
  const fs::path cubin_path = base.string() + ".cubin";
  if (present(cubin_path)) {
    c.cubin_path = cubin_path.string();
    auto bytes = readFile(cubin_path.string(), kMaxIrBytes);
    if (!bytes) {
      c.problems.push_back(bytes.error());
    } else {
      const auto* data = reinterpret_cast<const unsigned char*>(bytes->data());
      auto info = readCubin({data, bytes->size()}, cubin_path.string());
      if (!info) {
        c.problems.push_back(info.error());
      } else if (const CubinKernel* k = info->find(c.name)) {
        c.cubin = *k;
        c.cubin_arch = info->sm_arch;
      } else {
        c.problems.push_back(cubin_path.string() + ": holds no kernel named '" + c.name + "'");
      }
    }
  } else if (c.backend.empty() || c.backend == "cuda") {
    c.problems.push_back(c.folder + ": no .cubin, so registers and spills are unknown");
  }
  const fs::path ptx_path = base.string() + ".ptx";
  if (present(ptx_path)) {
    if (auto ptx = readFile(ptx_path.string(), kMaxIrBytes)) {
      c.ptx_params = ptxParams(*ptx);
    } else {
      c.problems.push_back(ptx.error());
    }
  }
}

}  // namespace

std::vector<std::int64_t> TritonCompiled::tile(int rank) const {
  if (rank < 1 || static_cast<std::size_t>(rank) > tile_shapes.size()) return {};
  return tile_shapes[static_cast<std::size_t>(rank) - 1];
}

Expected<TritonCompiled> readTritonCacheFolder(const fs::path& folder) {
  std::string list_error;
  auto meta_path = metadataFile(folder, &list_error);
  std::error_code ec;
  if (!list_error.empty() && fs::exists(folder, ec))
    return Error{list_error + " (a Triton cache folder that could not be listed)"};
  if (!meta_path) return Error{folder.string() + ": no <kernel>.json: not a Triton cache folder"};
  auto text = readFile(meta_path->string(), kMaxJsonBytes);
  if (!text) return Error{text.error()};
  TritonCompiled c;
  c.folder = folder.string();
  c.triton_cache_hash = folder.filename().string();
  if (c.triton_cache_hash.empty()) c.triton_cache_hash = folder.parent_path().filename().string();
  const nlohmann::json j = nlohmann::json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return Error{meta_path->string() + ": not a JSON object"};
  readMetadata(j, c);
  if (c.name.empty()) return Error{meta_path->string() + ": the JSON names no kernel ('name' is missing)"};
  fs::path base = *meta_path;
  base.replace_extension();
  readCompiledFiles(base, c);
  return c;
}

TritonCacheScan scanTritonCache(const fs::path& root, const std::vector<std::string>& kernel_names,
                                const std::atomic<bool>* cancel) {
  std::vector<std::string> names = kernel_names;
  std::sort(names.begin(), names.end());
  // A folder's files are named by its kernel, cut short for long names: read it when some wanted
  // name starts with that file name.
  auto wanted = [&](const std::string& stem) {
    auto it = std::lower_bound(names.begin(), names.end(), stem);
    return it != names.end() && it->starts_with(stem);
  };
  TritonCacheScan scan;
  std::string error;
  std::vector<fs::path> folders;
  for (const std::string& entry : listFolder(root.string(), &error)) {
    std::error_code ec;
    if (fs::is_directory(entry, ec)) folders.push_back(entry);
  }
  if (!error.empty()) scan.problems.push_back(error);
  std::sort(folders.begin(), folders.end());
  for (const auto& folder : folders) {
    if (cancel != nullptr && cancel->load()) break;
    ++scan.folders;
    if (!names.empty()) {
      std::string list_error;
      auto meta = metadataFile(folder, &list_error);
      if (!list_error.empty()) {
        scan.problems.push_back(list_error + " (a Triton cache folder that could not be listed)");
        continue;
      }
      if (!meta || !wanted(meta->stem().string())) continue;
    }
    // One folder's failure (even running out of memory on it) is that folder's problem, not the scan's.
    try {
      auto c = readTritonCacheFolder(folder);
      if (c) {
        scan.compiled.push_back(std::move(c.value()));
      } else {
        scan.problems.push_back(c.error());
      }
    } catch (const std::bad_alloc&) {
      scan.problems.push_back(folder.string() + ": not read: out of memory reading it");
    } catch (const std::exception& e) {
      scan.problems.push_back(folder.string() + ": not read: " + e.what());
    }
  }
  return scan;
}

}  // namespace occx::triton
