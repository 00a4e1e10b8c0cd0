#include "core/gpu/gpu_data.h"

#include <algorithm>
#include <cctype>
#include <limits>
#include <tuple>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/base/text.h"

namespace occx::resources {
std::string_view builtinGpuDataJson();
}

namespace occx {

using nlohmann::json;

std::string ComputeCapability::str() const {
  return std::to_string(major) + "." + std::to_string(minor);
}
std::string ComputeCapability::smName() const {
  return "sm_" + std::to_string(major) + std::to_string(minor);
}

Expected<ComputeCapability> ComputeCapability::parse(std::string_view text) {
  const std::string original(text);
  constexpr const char* kForms =
      "accepted forms are MAJOR.MINOR (9.0), MAJOR (9, for 9.0), MAJORMINOR (90), sm_MAJORMINOR (sm_90) and "
      "compute_MAJORMINOR (compute_90)";
  auto bad = [&] { return Error{"compute capability '" + original + "' is not understood: " + kForms}; };
  auto digits = [](std::string_view s, std::size_t lo, std::size_t hi) {
    return s.size() >= lo && s.size() <= hi &&
           std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  };
  // MAJORMINOR: the last digit is the minor version (90 → 9.0, 100 → 10.0, 121 → 12.1).
  auto fromJoined = [](std::string_view s) {
    return ComputeCapability{std::stoi(std::string(s.substr(0, s.size() - 1))), s.back() - '0'};
  };
  std::string_view t = text;
  const bool prefixed = t.substr(0, 3) == "sm_" || t.substr(0, 8) == "compute_";
  if (prefixed) t.remove_prefix(t.find('_') + 1);
  // sm_90a, sm_100f: architecture-specific and family-specific targets. occx compiles and models
  // the portable target only, so these are refused by name rather than read as sm_90 / sm_100.
  if (!t.empty() && (t.back() == 'a' || t.back() == 'f') && digits(t.substr(0, t.size() - 1), 2, 3)) {
    const std::string_view base = t.substr(0, t.size() - 1);
    const char* kind = t.back() == 'a' ? "an architecture-specific" : "a family-specific";
    return Error{"compute capability '" + original + "' is " + kind + " target (suffix '" + std::string(1, t.back()) +
                 "'), which occx does not compile for or model: give sm_" + std::string(base) +
                 " for the portable target (" + kForms + ")"};
  }
  if (digits(t, 2, 3)) return fromJoined(t);  // 90, sm_90, compute_90, sm_100
  if (prefixed) return bad();                 // sm_9, sm_9.0, sm_
  if (digits(t, 1, 1)) return ComputeCapability{t[0] - '0', 0};
  const auto dot = t.find('.');
  if (dot == std::string_view::npos) return bad();
  const std::string_view major = t.substr(0, dot), minor = t.substr(dot + 1);
  if (!digits(major, 1, 2) || !digits(minor, 1, 1)) return bad();  // 9., .0, 9.0.1, 9.10
  return ComputeCapability{std::stoi(std::string(major)), minor[0] - '0'};
}

namespace {

// 1-based line of byte offset `pos` in `text`.
int lineAt(std::string_view text, std::size_t pos) {
  pos = std::min(pos, text.size());
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
}

// Locates JSON entries in the raw text so that messages can name a line (nlohmann/json 3.11
// keeps no positions for values). Entries are found in order by their identifying key/value.
class LineLocator {
 public:
  explicit LineLocator(std::string_view text) : text_(text) {}
  // Offset of the first occurrence of `"key": "value"` (any spacing) at or after `from`.
  std::size_t find(std::string_view key, std::string_view value, std::size_t from) const {
    std::string quotedKey = "\"" + std::string(key) + "\"";
    std::string quotedValue = "\"" + std::string(value) + "\"";
    for (std::size_t p = text_.find(quotedKey, from); p != std::string_view::npos; p = text_.find(quotedKey, p + 1)) {
      std::size_t q = text_.find_first_not_of(" \t\r\n:", p + quotedKey.size());
      if (q != std::string_view::npos && text_.substr(q, quotedValue.size()) == quotedValue) return p;
    }
    return from;
  }
  // Offset of `"field"` after `from` but before `until`; `from` if absent.
  std::size_t findField(std::string_view field, std::size_t from, std::size_t until) const {
    std::size_t p = text_.find("\"" + std::string(field) + "\"", from);
    return (p == std::string_view::npos || p >= until) ? from : p;
  }
  int line(std::size_t pos) const { return lineAt(text_, pos); }

 private:
  std::string_view text_;
};

struct ParseContext {
  std::string origin;
  const LineLocator* where;
  std::string entry;      // "architecture 9.0"
  std::size_t begin = 0;  // offset where the entry starts
  std::size_t end = 0;    // offset where the next entry starts

  [[nodiscard]] Error fail(std::string_view field, const std::string& what) const {
    int line = where->line(where->findField(field, begin, end));
    return Error{origin + " line " + std::to_string(line) + ": " + entry + ": field '" + std::string(field) + "' " +
                 what};
  }
};

// Converts a JSON value to T, refusing what a silent conversion would corrupt: a boolean or a
// fraction where an integer belongs, an integer beyond T's range (nlohmann's get<int> would wrap it,
// or, for a huge floating-point number, have undefined behaviour). Returns the complaint, if any.
template <class T>
std::optional<std::string> convertValue(const json& v, T& out) {
  auto wrong = [&](const char* allowed) {
    return "has the wrong type (" + std::string(v.type_name()) + "): " + v.dump() + " (allowed: " + allowed + ")";
  };
  if constexpr (std::is_integral_v<T>) {
    if (!v.is_number_integer()) return wrong("an integer");
    const bool fits = v.is_number_unsigned()
                          ? v.get<std::uint64_t>() <= static_cast<std::uint64_t>(std::numeric_limits<T>::max())
                          : v.get<std::int64_t>() >= std::int64_t{std::numeric_limits<T>::min()} &&
                                v.get<std::int64_t>() <= std::int64_t{std::numeric_limits<T>::max()};
    if (!fits)
      return "is out of range: " + v.dump() + " (allowed: 0 … " + std::to_string(std::numeric_limits<T>::max()) + ")";
    out = v.get<T>();
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!v.is_number()) return wrong("a number");
    out = v.get<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string()) return wrong("a string");
    out = v.get<std::string>();
  } else {  // std::vector<int> or std::vector<std::string>
    if (!v.is_array()) return wrong("an array");
    out.clear();
    for (std::size_t i = 0; i < v.size(); ++i) {
      typename T::value_type x{};
      if (auto complaint = convertValue(v[i], x)) return "element " + std::to_string(i + 1) + " " + *complaint;
      out.push_back(std::move(x));
    }
  }
  return std::nullopt;
}

// A limit is a [value, "source"] pair; the loader also accepts a bare value.
template <class T>
std::optional<Error> readLimit(const json& obj, const json& defaults, const char* field, T& out,
                               std::map<std::string, std::string>& sources, const ParseContext& ctx) {
  const json* v = nullptr;
  if (obj.contains(field))
    v = &obj.at(field);
  else if (defaults.contains(field))
    v = &defaults.at(field);
  if (v == nullptr) return ctx.fail(field, "is missing");
  const json* value = v;
  if (v->is_array() && v->size() == 2 && (*v)[1].is_string()) {
    value = &(*v)[0];
    sources[field] = (*v)[1].get<std::string>();
  }
  if (auto complaint = convertValue(*value, out)) return ctx.fail(field, *complaint);
  if constexpr (std::is_arithmetic_v<T>) {
    if (out < 0) return ctx.fail(field, "is negative: " + value->dump() + " (allowed: 0 or more)");
  }
  return std::nullopt;
}

// An optional field: absent leaves `out` as it is; present must have the right type.
template <class T>
std::optional<Error> readOptional(const json& obj, const char* field, T& out, const ParseContext& ctx) {
  if (!obj.contains(field)) return std::nullopt;
  if (auto complaint = convertValue(obj.at(field), out)) return ctx.fail(field, *complaint);
  return std::nullopt;
}

std::string normalizeName(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == ' ' || c == '-' || c == '_') continue;
    out.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  }
  return out;
}

// The JSON document of a GPU data file, once it parses and names its format, version 1 and a
// non-empty list of architectures.
Expected<json> gpuDataDocument(std::string_view text, const std::string& origin) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    int line = lineAt(text, e.byte == 0 ? 0 : e.byte - 1);
    return Error{origin + " line " + std::to_string(line) + ": not valid JSON (" + e.what() + ")"};
  } catch (const json::exception& e) {
    // E.g. out_of_range 406 "number overflow parsing '1e400'": no offset, so find the number.
    const std::string what = e.what();
    const auto q = what.find('\'');
    const auto q2 = q == std::string::npos ? q : what.find('\'', q + 1);
    const auto at = q2 == std::string::npos ? std::string_view::npos : text.find(what.substr(q + 1, q2 - q - 1));
    return Error{origin + " line " + std::to_string(lineAt(text, at == std::string_view::npos ? 0 : at)) +
                 ": not valid JSON (" + what + ")"};
  }
  if (!doc.is_object() || !doc.contains("format") || doc["format"] != "occupancy-explorer-gpu-data") {
    return Error{origin + " line 1: field 'format' must be \"occupancy-explorer-gpu-data\""};
  }
  if (!doc.contains("version") || !doc["version"].is_number_integer() || doc["version"] != 1) {
    return Error{origin + " line 1: field 'version' must be 1 (the only version this program reads)"};
  }
  if (!doc.contains("architectures") || !doc["architectures"].is_array() || doc["architectures"].empty()) {
    return Error{origin + " line 1: field 'architectures' is missing or empty (allowed: a non-empty array)"};
  }
  return doc;
}

// The optional fields and the limits of an architecture entry `a`, a limit it leaves out taken
// from `defaults`.
std::optional<Error> readArchFields(const json& a, const json& defaults, const ParseContext& ctx, ArchLimits& l) {
  std::optional<Error> err = readOptional(a, "family", l.family, ctx);
  if (!err) err = readOptional(a, "note", l.note, ctx);
  auto rd = [&](const char* f, auto& out) {
    if (!err) err = readLimit(a, defaults, f, out, l.sources, ctx);
  };
  rd("warp_size", l.warp_size);
  rd("max_threads_per_block", l.max_threads_per_block);
  rd("max_warps_per_sm", l.max_warps_per_sm);
  rd("max_blocks_per_sm", l.max_blocks_per_sm);
  rd("registers_per_sm", l.registers_per_sm);
  rd("max_registers_per_block", l.max_registers_per_block);
  rd("max_registers_per_thread", l.max_registers_per_thread);
  rd("register_allocation_unit", l.register_allocation_unit);
  rd("warp_allocation_granularity", l.warp_allocation_granularity);
  rd("shared_memory_per_sm", l.shared_memory_per_sm);
  rd("shared_memory_per_block", l.shared_memory_per_block);
  rd("shared_memory_per_block_optin", l.shared_memory_per_block_optin);
  rd("shared_memory_allocation_unit", l.shared_memory_allocation_unit);
  rd("reserved_shared_memory_per_block", l.reserved_shared_memory_per_block);
  rd("shared_memory_carveout_kb", l.shared_memory_carveout_kb);
  rd("block_barriers_per_sm", l.block_barriers_per_sm);
  rd("max_cluster_size", l.max_cluster_size);
  return err;
}

// Plausible ranges: positive where the arithmetic divides by the value, and at most ~16-64×
// what any GPU has, so that a user's file can never make the calculator's products overflow or
// an impact sweep allocate without bound (shared-memory sweep: optin / unit ≤ 2^19 points).
std::optional<Error> checkArchRanges(const ArchLimits& l, const ParseContext& ctx) {
  constexpr std::int64_t kMaxSmem = std::int64_t{4} << 20;  // 4 MiB; the largest real SM has 228 KiB
  const std::tuple<const char*, std::int64_t, std::int64_t, std::int64_t> ranges[] = {
      {"warp_size", l.warp_size, 1, 1024},
      {"max_threads_per_block", l.max_threads_per_block, 1, 65536},
      {"max_warps_per_sm", l.max_warps_per_sm, 1, 4096},
      {"max_blocks_per_sm", l.max_blocks_per_sm, 1, 4096},
      {"registers_per_sm", l.registers_per_sm, 1, 1 << 24},
      {"max_registers_per_block", l.max_registers_per_block, 1, 1 << 24},
      {"max_registers_per_thread", l.max_registers_per_thread, 0, 65536},
      {"register_allocation_unit", l.register_allocation_unit, 1, 65536},
      {"warp_allocation_granularity", l.warp_allocation_granularity, 1, 1024},
      {"shared_memory_per_sm", l.shared_memory_per_sm, 1, kMaxSmem},
      {"shared_memory_per_block", l.shared_memory_per_block, 1, kMaxSmem},
      {"shared_memory_per_block_optin", l.shared_memory_per_block_optin, 0, kMaxSmem},
      {"shared_memory_allocation_unit", l.shared_memory_allocation_unit, 8, 65536},
      {"reserved_shared_memory_per_block", l.reserved_shared_memory_per_block, 0, kMaxSmem},
      {"block_barriers_per_sm", l.block_barriers_per_sm, 0, 65536},
      {"max_cluster_size", l.max_cluster_size, 0, 1024}};
  for (const auto& [field, v, lo, hi] : ranges) {
    if (v < lo || v > hi) {
      return ctx.fail(field, "is out of range: got " + std::to_string(v) + " (allowed " + std::to_string(lo) + " … " +
                                 std::to_string(hi) + ")");
    }
  }
  for (int kb : l.shared_memory_carveout_kb) {
    if (kb < 0 || std::int64_t{kb} * 1024 > kMaxSmem) {
      return ctx.fail("shared_memory_carveout_kb", "is out of range: got " + std::to_string(kb) + " KB (allowed 0 … " +
                                                       std::to_string(kMaxSmem / 1024) + " KB)");
    }
  }
  if (l.shared_memory_per_block_optin < l.shared_memory_per_block) {
    return ctx.fail("shared_memory_per_block_optin",
                    "is smaller than shared_memory_per_block (" + std::to_string(l.shared_memory_per_block) + ")");
  }
  return std::nullopt;
}

// Architecture entry i of `archs`, found in the text at or after `cursor`: ctx is narrowed to it
// (from its "cc" to the next entry's) and names it by its compute capability.
Expected<ArchLimits> readArchEntry(const json& archs, std::size_t i, const json& defaults, std::size_t cursor,
                                   std::size_t text_size, ParseContext& ctx) {
  const json& a = archs[i];
  if (!a.is_object()) return ctx.fail("cc", "entry is not an object");
  if (!a.contains("cc") || !a["cc"].is_string()) return ctx.fail("cc", "is missing (allowed: \"MAJOR.MINOR\")");
  std::string ccText = a["cc"].get<std::string>();
  ctx.begin = ctx.where->find("cc", ccText, cursor);
  std::size_t next = (i + 1 < archs.size() && archs[i + 1].contains("cc") && archs[i + 1]["cc"].is_string())
                         ? ctx.where->find("cc", archs[i + 1]["cc"].get<std::string>(), ctx.begin + 1)
                         : text_size;
  ctx.end = next > ctx.begin ? next : text_size;
  ctx.entry = "architecture " + ccText;
  auto cc = ComputeCapability::parse(ccText);
  if (!cc) return ctx.fail("cc", "is not a compute capability: " + cc.error());
  ArchLimits l;
  l.cc = *cc;
  if (auto err = readArchFields(a, defaults, ctx, l)) return *err;
  if (auto err = checkArchRanges(l, ctx)) return *err;
  return l;
}

// The optional fields of a GPU entry `g`.
std::optional<Error> readGpuOptionals(const json& g, const ParseContext& ctx, GpuSpec& s) {
  std::optional<Error> err;
  auto opt = [&](const char* f, auto& out) {
    if (!err) err = readOptional(g, f, out, ctx);
  };
  opt("aliases", s.aliases);
  opt("base_clock_mhz", s.base_clock_mhz);
  opt("boost_clock_mhz", s.boost_clock_mhz);
  opt("l2_cache_bytes", s.l2_cache_bytes);
  opt("memory_bus_bits", s.memory_bus_bits);
  opt("memory_type", s.memory_type);
  opt("memory_gib", s.memory_gib);
  opt("source", s.source);
  opt("cluster_gpc_sm_counts", s.cluster_gpc_sm_counts);
  opt("cluster_blocks_per_sm_cap", s.cluster_blocks_per_sm_cap);
  opt("cluster_layout_source", s.cluster_layout_source);
  return err;
}

// A GPC layout, when given, must add up to the GPU's SMs and come with a per-SM block cap the
// architecture allows.
std::optional<Error> checkGpcLayout(const GpuSpec& s, const ArchLimits& arch, const ParseContext& ctx) {
  if (s.cluster_gpc_sm_counts.empty()) return std::nullopt;
  std::int64_t total = 0;
  for (int n : s.cluster_gpc_sm_counts) {
    if (n < 1 || n > s.sm_count) {
      return ctx.fail("cluster_gpc_sm_counts", "is out of range: a GPC of " + std::to_string(n) + " SMs (allowed 1 … " +
                                                   std::to_string(s.sm_count) + ")");
    }
    total += n;
  }
  if (total != s.sm_count) {
    return ctx.fail("cluster_gpc_sm_counts",
                    "adds up to " + std::to_string(total) + " SMs, not sm_count " + std::to_string(s.sm_count));
  }
  const int max_blocks = arch.max_blocks_per_sm;
  if (s.cluster_blocks_per_sm_cap < 1 || s.cluster_blocks_per_sm_cap > max_blocks) {
    return ctx.fail("cluster_blocks_per_sm_cap", "is out of range: got " + std::to_string(s.cluster_blocks_per_sm_cap) +
                                                     " (allowed 1 … " + std::to_string(max_blocks) +
                                                     " with a GPC layout)");
  }
  return std::nullopt;
}

// GPU entry `g`, found in `text` at or after `cursor`: ctx is narrowed to it (up to the next
// "name") and names it. Its compute capability must be one of db's architectures.
Expected<GpuSpec> readGpuEntry(const json& g, const GpuDatabase& db, std::string_view text, std::size_t cursor,
                               ParseContext& ctx) {
  if (!g.is_object() || !g.contains("name") || !g["name"].is_string()) return ctx.fail("name", "is missing");
  GpuSpec s;
  s.name = g["name"].get<std::string>();
  ctx.begin = ctx.where->find("name", s.name, cursor);
  std::size_t nextName = text.find("\"name\"", ctx.begin + 1);
  ctx.end = nextName == std::string_view::npos ? text.size() : nextName;
  ctx.entry = "gpu '" + s.name + "'";
  std::map<std::string, std::string> unused;
  const json none = json::object();
  std::string ccText;
  std::optional<Error> err;
  auto rd = [&](const char* f, auto& out) {
    if (!err) err = readLimit(g, none, f, out, unused, ctx);
  };
  rd("cc", ccText);
  rd("sm_count", s.sm_count);
  rd("memory_bandwidth_GBps", s.memory_bandwidth_GBps);
  if (err) return *err;
  auto cc = ComputeCapability::parse(ccText);
  if (!cc) return ctx.fail("cc", cc.error());
  s.cc = *cc;
  if (!db.findArch(s.cc))
    return ctx.fail("cc", "names compute capability " + s.cc.str() +
                              ", which the file does not define (defined: " + db.ccList() + ")");
  if (s.sm_count <= 0 || s.sm_count > 65536) {
    return ctx.fail("sm_count", "is out of range: got " + std::to_string(s.sm_count) + " (allowed 1 … 65536)");
  }
  if (auto e = readGpuOptionals(g, ctx, s)) return *e;
  if (auto e = checkGpcLayout(s, *db.findArch(s.cc), ctx)) return *e;
  return s;
}

}  // namespace

Expected<GpuDatabase> GpuDatabase::parse(std::string_view text, std::string_view origin_view) {
  std::string origin(origin_view);
  auto parsed = gpuDataDocument(text, origin);
  if (!parsed) return Error{parsed.error()};
  json& doc = *parsed;
  const json defaults = doc.value("defaults", json::object());
  LineLocator where(text);
  GpuDatabase db;

  std::size_t cursor = 0;
  const auto& archs = doc["architectures"];
  for (std::size_t i = 0; i < archs.size(); ++i) {
    ParseContext ctx{origin, &where, "architecture #" + std::to_string(i + 1), cursor, text.size()};
    auto arch = readArchEntry(archs, i, defaults, cursor, text.size(), ctx);
    if (!arch) return Error{arch.error()};
    cursor = ctx.begin;
    if (db.findArch(arch->cc)) return ctx.fail("cc", "is listed twice");
    db.archs_.push_back(std::move(*arch));
  }
  std::sort(db.archs_.begin(), db.archs_.end(), [](const ArchLimits& x, const ArchLimits& y) { return x.cc < y.cc; });

  if (doc.contains("gpus")) {
    const auto& gpus = doc["gpus"];
    if (!gpus.is_array()) return Error{origin + ": field 'gpus' must be an array"};
    std::size_t gcursor = 0;
    for (std::size_t i = 0; i < gpus.size(); ++i) {
      ParseContext ctx{origin, &where, "gpu #" + std::to_string(i + 1), gcursor, text.size()};
      auto gpu = readGpuEntry(gpus[i], db, text, gcursor, ctx);
      if (!gpu) return Error{gpu.error()};
      gcursor = ctx.begin;
      db.gpus_.push_back(std::move(*gpu));
    }
  }
  return db;
}

Expected<GpuDatabase> GpuDatabase::load(const std::string& path) {
  // The built-in file is 25 KB; 16 MiB stops a wrong file (or a device such as /dev/zero) early.
  auto text = readFile(path, std::size_t{16} << 20);
  if (!text) return Error{"GPU data file: " + text.error()};
  return parse(*text, path);
}

const GpuDatabase& GpuDatabase::builtin() {
  static const GpuDatabase db = [] {
    auto parsed = parse(resources::builtinGpuDataJson(), "built-in gpu_data.json");
    return parsed ? std::move(parsed).value() : GpuDatabase{};
  }();
  return db;
}

const ArchLimits* GpuDatabase::findArch(ComputeCapability cc) const {
  for (const auto& a : archs_) {
    if (a.cc == cc) return &a;
  }
  return nullptr;
}

const GpuSpec* GpuDatabase::findGpu(std::string_view name) const {
  std::string key = normalizeName(name);
  if (key.empty()) return nullptr;
  for (const auto& g : gpus_) {
    if (normalizeName(g.name) == key) return &g;
    for (const auto& a : g.aliases) {
      if (normalizeName(a) == key) return &g;
    }
  }
  return nullptr;
}

std::vector<std::string> GpuDatabase::closestGpuNames(std::string_view name, int count) const {
  std::string key = normalizeName(name);
  std::vector<std::pair<int, std::string>> scored;
  for (const auto& g : gpus_) {
    int best = editDistance(key, normalizeName(g.name));
    std::string shown = g.aliases.empty() ? g.name : g.aliases.front();
    for (const auto& a : g.aliases) best = std::min(best, editDistance(key, normalizeName(a)));
    scored.emplace_back(best, shown);
  }
  std::stable_sort(scored.begin(), scored.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
  std::vector<std::string> out;
  for (const auto& [d, n] : scored) {
    if (static_cast<int>(out.size()) >= count) break;
    out.push_back(n);
  }
  return out;
}

std::string GpuDatabase::ccList() const {
  std::string out;
  for (const auto& a : archs_) {
    if (!out.empty()) out += ", ";
    out += a.cc.str();
  }
  return out;
}

}  // namespace occx
