#include "core/base/columns.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace occx {

const std::vector<std::string>& columnAliases(const std::string& key) {
  static const std::vector<std::pair<std::string, std::vector<std::string>>> kAliases = {
      {"registers_per_thread", {"registers", "n_regs", "nregs"}},
      {"theoretical_occupancy_pct", {"occupancy_percent", "occupancy_pct"}},
      {"smem_bytes", {"static_smem_bytes", "shared_bytes"}},
      {"active_blocks_per_sm", {"blocks_per_sm"}},
      {"driver_active_blocks_per_sm", {"driver_blocks_per_sm"}},
  };
  static const std::vector<std::string> kNone;
  for (const auto& [k, aliases] : kAliases) {
    if (k == key) return aliases;
  }
  return kNone;
}

int findColumn(const CsvTable& table, const std::string& key) {
  if (int c = table.column(key); c >= 0) return c;
  for (const std::string& alias : columnAliases(key)) {
    if (int c = table.column(alias); c >= 0) return c;
  }
  return -1;
}

std::optional<std::string> duplicateColumn(const CsvTable& table, const std::string& key) {
  const auto& aliases = columnAliases(key);
  std::vector<std::size_t> at;
  for (std::size_t j = 0; j < table.header.size(); ++j) {
    const std::string& h = table.header[j];
    if (h == key || std::find(aliases.begin(), aliases.end(), h) != aliases.end()) at.push_back(j);
  }
  if (at.size() < 2) return std::nullopt;
  const std::string& a = table.header[at[0]];
  const std::string& b = table.header[at[1]];
  const bool named = a != key || b != key;
  return "column '" + key + "' appears twice in the header (columns " + std::to_string(at[0] + 1) +
         (named ? " '" + a + "'" : "") + " and " + std::to_string(at[1] + 1) + (named ? " '" + b + "'" : "") + ")";
}

nlohmann::json cellJson(CellKind kind, const std::string& text) {
  if (kind == CellKind::kText) return text;
  if (text.empty()) return nullptr;
  if (text.find_first_of(".eE") == std::string::npos) {
    std::int64_t v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec == std::errc() && r.ptr == text.data() + text.size()) return v;
  }
  double d = 0.0;
  if (readNumber(text, d, 0.0).empty()) return d;
  return text;
}

std::string readInteger(const std::string& text, std::int64_t& out, bool optional) {
  if (text.empty() && optional) return {};
  std::int64_t v = 0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (text.empty() || r.ec != std::errc() || r.ptr != text.data() + text.size()) return "an integer";
  out = v;
  return {};
}

std::string readInteger(const std::string& text, int& out, bool optional) {
  std::int64_t v = out;
  if (auto e = readInteger(text, v, optional); !e.empty()) return e;
  if (v < -2147483647 - 1 || v > 2147483647) return "a 32-bit integer";
  out = static_cast<int>(v);
  return {};
}

std::string readNumber(const std::string& text, double& out, double empty_value) {
  if (text.empty()) {
    out = empty_value;
    return {};
  }
  // std::from_chars, not std::stod: the decimal point is '.' whatever the locale the GUI runs in.
  double v = 0.0;
  const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
  if (r.ec != std::errc() || r.ptr != text.data() + text.size()) return "a number";
  // "inf" and "nan" parse, but no measured or computed figure is one (an inf time made "regret nan").
  if (!std::isfinite(v)) return "a finite number";
  out = v;
  return {};
}

std::string readOptionalNumber(const std::string& text, std::optional<double>& out) {
  out.reset();
  if (text.empty()) return {};
  double v = 0.0;
  if (auto e = readNumber(text, v, 0.0); !e.empty()) return e;
  out = v;
  return {};
}

std::string readFlag(const std::string& text, bool& out, bool empty_value) {
  std::int64_t v = empty_value ? 1 : 0;
  if (auto e = readInteger(text, v, /*optional=*/true); !e.empty()) return e;
  out = v != 0;
  return {};
}

}  // namespace occx
