#include "core/kernels/compile.h"

#include <cctype>
#include <cstdlib>
#include <optional>

namespace occx {

namespace {

std::vector<std::string_view> splitLines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.push_back(line);
    if (end == text.size()) break;
    start = end + 1;
  }
  return lines;
}

std::string_view trimmedText(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

/// The text after "ptxas info    :" / "ptxas         ." prefixes, trimmed.
std::string_view body(std::string_view line) {
  line = trimmedText(line);
  if (line.substr(0, 5) == "ptxas") {
    line.remove_prefix(5);
    line = trimmedText(line);
    if (line.substr(0, 4) == "info") line = trimmedText(line.substr(4));
    if (!line.empty() && (line.front() == ':' || line.front() == '.')) line.remove_prefix(1);
  }
  return trimmedText(line);
}

/// Leading integer of `item` (after trimming); nullopt when there is none.
std::optional<int> leadingInt(std::string_view item) {
  item = trimmedText(item);
  std::size_t n = 0;
  while (n < item.size() && std::isdigit(static_cast<unsigned char>(item[n]))) ++n;
  if (n == 0 || n > 9) return std::nullopt;
  return std::atoi(std::string(item.substr(0, n)).c_str());
}

bool contains(std::string_view s, std::string_view what) {
  return s.find(what) != std::string_view::npos;
}

/// Applies each comma-separated item of a "Used …" or stack/spill line to the report.
void applyItems(std::string_view text, PtxasReport& r) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view item = trimmedText(text.substr(start, end - start));
    if (item.substr(0, 5) == "Used ") {
      if (auto v = leadingInt(item.substr(5)); v && contains(item, "register")) r.registers = *v;
    } else if (item.substr(0, 5) == "used ") {
      if (auto v = leadingInt(item.substr(5)); v && contains(item, "barrier")) r.barriers = *v;
    } else if (auto v = leadingInt(item)) {
      if (contains(item, "bytes stack frame"))
        r.stack_frame_bytes = *v;
      else if (contains(item, "bytes spill stores"))
        r.spill_stores_bytes = *v;
      else if (contains(item, "bytes spill loads"))
        r.spill_loads_bytes = *v;
      else if (contains(item, "bytes smem"))
        r.static_smem_bytes = *v;
      else if (contains(item, "bytes cmem[0]"))
        r.constant_bytes = *v;
    }
    if (end == text.size()) break;
    start = end + 1;
  }
}

/// Parses "Compiling entry function 'NAME' for 'ARCH'"; returns false when the line is not one.
bool entryLine(std::string_view b, std::string& name, std::string& arch) {
  constexpr std::string_view kPrefix = "Compiling entry function '";
  if (b.substr(0, kPrefix.size()) != kPrefix) return false;
  b.remove_prefix(kPrefix.size());
  const std::size_t q = b.find('\'');
  if (q == std::string_view::npos) return false;
  name = std::string(b.substr(0, q));
  arch.clear();
  const std::size_t f = b.find("for '", q);
  if (f != std::string_view::npos) {
    const std::size_t a = f + 5;
    const std::size_t e = b.find('\'', a);
    if (e != std::string_view::npos) arch = std::string(b.substr(a, e - a));
  }
  return true;
}

}  // namespace

Expected<PtxasReport> parsePtxasReport(std::string_view log, std::string_view kernel_name) {
  const auto lines = splitLines(log);
  std::vector<std::string> found;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::string name, arch;
    if (!entryLine(body(lines[i]), name, arch)) continue;
    found.push_back(name);
    if (!kernel_name.empty() && name != kernel_name) continue;
    PtxasReport r;
    r.function = name;
    r.arch = arch;
    // The entry's section runs until the next "Compiling entry function" line.
    // A stack/spill line belongs to the function named by the "Function properties for" line
    // before it (non-inlined device functions get their own); the "Used" line to the entry.
    constexpr std::string_view kProps = "Function properties for ";
    bool have_used = false;
    std::string props_for = name;
    for (std::size_t j = i + 1; j < lines.size(); ++j) {
      const std::string_view b = body(lines[j]);
      std::string n2, a2;
      if (entryLine(b, n2, a2)) break;
      if (b.substr(0, kProps.size()) == kProps) {
        props_for = std::string(trimmedText(b.substr(kProps.size())));
      } else if (b.substr(0, 5) == "Used ") {
        have_used = true;
        applyItems(b, r);
      } else if (contains(b, "bytes stack frame") && props_for == name) {
        applyItems(b, r);
      }
    }
    if (!have_used || r.registers < 0) {
      return Error{"the compiler report has no 'Used N registers' line for entry function '" + name +
                   "' (was --ptxas-options=-v given?)"};
    }
    return r;
  }
  std::string msg = kernel_name.empty()
                        ? std::string("the compiler report names no entry function")
                        : "the compiler report has no entry function '" + std::string(kernel_name) + "'";
  if (!found.empty()) {
    msg += "; found ";
    for (std::size_t i = 0; i < found.size(); ++i) msg += (i ? ", '" : "'") + found[i] + "'";
  } else {
    msg += " (was --ptxas-options=-v given?)";
  }
  return Error{msg};
}

std::string crossCheckStateName(CrossCheck::State state) {
  switch (state) {
    case CrossCheck::State::kAgrees:
      return "agrees";
    case CrossCheck::State::kDisagrees:
      return "DISAGREES";
    case CrossCheck::State::kFailed:
      return "failed";
    default:
      return "skipped";
  }
}

}  // namespace occx
