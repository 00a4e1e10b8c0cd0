#include "core/triton/kernel_module.h"

#include "core/base/text.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>
#include <limits>

namespace occx::triton {
namespace {

constexpr std::string_view kDecorator = "@triton_heuristics.";

int lineOf(std::string_view text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(
                 text.begin(), text.begin() + static_cast<std::ptrdiff_t>(std::min(offset, text.size())), '\n'));
}

std::size_t lineStart(std::string_view text, std::size_t offset) {
  const std::size_t nl = offset == 0 ? std::string_view::npos : text.rfind('\n', offset - 1);
  return nl == std::string_view::npos ? 0 : nl + 1;
}

// The offset of the first decorator "@triton_heuristics." that starts a line (after blanks).
std::size_t findDecorator(std::string_view text) {
  std::size_t pos = 0;
  while ((pos = text.find(kDecorator, pos)) != std::string_view::npos) {
    // Walk back over blanks only: looking back to the line's start for every hit is quadratic on a
    // long line of repeated decorators. The blanks walked over lie between this hit and the last.
    std::size_t before = pos;
    while (before > 0 && (text[before - 1] == ' ' || text[before - 1] == '\t')) --before;
    if (before == 0 || text[before - 1] == '\n') return pos;
    pos += kDecorator.size();
  }
  return std::string_view::npos;
}

bool hasWord(std::string_view line, std::string_view word) {
  std::size_t pos = 0;
  auto isWordChar = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; };
  while ((pos = line.find(word, pos)) != std::string_view::npos) {
    const bool left = pos == 0 || !isWordChar(line[pos - 1]);
    const bool right = pos + word.size() >= line.size() || !isWordChar(line[pos + word.size()]);
    if (left && right) return true;
    pos += word.size();
  }
  return false;
}

KernelKind kindOf(std::string_view decorator) {
  if (decorator == "reduction") return KernelKind::kLoopedReduction;
  if (decorator == "persistent_reduction") return KernelKind::kPersistentReduction;
  if (decorator == "pointwise") return KernelKind::kPointwise;
  return KernelKind::kOther;
}

void readSizeHints(const PyValue& call, KernelModule& m) {
  const PyValue* hints = call.find("size_hints");
  if (hints == nullptr || hints->kind != PyValue::Kind::kDict) {
    m.warnings.push_back("the decorator has no size_hints dict");
    return;
  }
  for (const auto& [key, value] : hints->entries) {
    SizeHint h;
    h.name = key.kind == PyValue::Kind::kString ? key.text : key.repr();
    if (value.kind == PyValue::Kind::kInt) {
      h.value = value.integer;
    } else {
      h.symbolic = value.kind == PyValue::Kind::kString ? value.text : value.repr();
    }
    m.size_hints.push_back(std::move(h));
  }
}

void readTritonMeta(const PyValue& call, KernelModule& m) {
  const PyValue* meta = call.find("triton_meta");
  if (meta == nullptr || meta->kind != PyValue::Kind::kDict) {
    m.warnings.push_back("the decorator has no triton_meta dict");
    return;
  }
  const PyValue* sig = meta->find("signature");
  if (sig != nullptr && sig->kind == PyValue::Kind::kDict) {
    for (const auto& [key, value] : sig->entries) {
      m.signature.push_back({key.text, value.kind == PyValue::Kind::kString ? value.text : value.repr()});
      const std::string& n = m.signature.back().name;
      if (n.size() > 2 && n.rfind("ks", 0) == 0 && std::all_of(n.begin() + 2, n.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) != 0;
          })) {
        ++m.dynamic_symbols;
      }
    }
  } else {
    m.warnings.push_back("triton_meta has no signature");
  }
  const PyValue* dev = meta->find("device");
  if (dev != nullptr && dev->kind == PyValue::Kind::kCall) {
    InductorDevice d;
    d.type = dev->stringAt("type").value_or("");
    // Within 0 … 2^31-1: an SM count of 2^32 + 132 is refused (a warning, the field unknown), never 132.
    auto i = [&](std::string_view key) {
      const auto v = dev->intAt(key);
      if (!v) return 0;
      if (*v < 0 || *v > std::numeric_limits<int>::max()) {
        m.warnings.push_back("DeviceProperties " + std::string(key) + " is " + std::to_string(*v) +
                             ": out of range (allowed 0 … 2147483647), read as unknown");
        return 0;
      }
      return static_cast<int>(*v);
    };
    d.index = i("index");
    d.multi_processor_count = i("multi_processor_count");
    d.cc = i("cc");
    d.major = i("major");
    d.regs_per_multiprocessor = i("regs_per_multiprocessor");
    d.max_threads_per_multi_processor = i("max_threads_per_multi_processor");
    d.max_threads_per_block = i("max_threads_per_block");
    d.warp_size = i("warp_size");
    m.device = d;
  } else {
    m.warnings.push_back("triton_meta has no DeviceProperties(...) device");
  }
}

void readInductorMeta(const PyValue& call, KernelModule& m) {
  const PyValue* meta = call.find("inductor_meta");
  if (meta == nullptr || meta->kind != PyValue::Kind::kDict) {
    m.warnings.push_back("the decorator has no inductor_meta dict");
    return;
  }
  InductorMeta& out = m.meta;
  out.grid_type = meta->stringAt("grid_type").value_or("");
  if (const PyValue* mutated = meta->find("mutated_arg_names"); mutated != nullptr) {
    for (const auto& v : mutated->items) {
      if (v.isString()) out.mutated_arg_names.push_back(v.text);
    }
  }
  // Within int: beyond it a warning and the nearest int (a spill threshold of 2^32 is one no config
  // reaches, as 2^31-1 is), never the low 32 bits (2^32 read as 0).
  auto within = [&](const char* key, std::int64_t v) {
    if (v >= std::numeric_limits<int>::min() && v <= std::numeric_limits<int>::max()) return static_cast<int>(v);
    const int nearest = v < 0 ? std::numeric_limits<int>::min() : std::numeric_limits<int>::max();
    m.warnings.push_back(std::string("inductor_meta ") + key + " is " + std::to_string(v) +
                         ": beyond 32 bits, read as " + std::to_string(nearest));
    return nearest;
  };
  out.num_load = within("num_load", meta->intAt("num_load").value_or(0));
  out.num_store = within("num_store", meta->intAt("num_store").value_or(0));
  out.num_reduction = within("num_reduction", meta->intAt("num_reduction").value_or(0));
  out.dynamic_scale_rblock = meta->boolAt("dynamic_scale_rblock");
  if (auto t = meta->intAt("spill_threshold")) out.spill_threshold = within("spill_threshold", *t);
  out.deterministic = meta->boolAt("deterministic").value_or(false) ||
                      meta->boolAt("are_deterministic_algorithms_enabled").value_or(false);
  out.max_autotune = meta->boolAt("max_autotune").value_or(false);
  out.coordinate_descent_tuning = meta->boolAt("coordinate_descent_tuning").value_or(false);
  out.add_persistent_rblock = meta->boolAt("add_persistent_rblock").value_or(false);
  if (auto rsplit = meta->intAt("RSPLIT_SIZE")) {
    if (*rsplit >= 1 && *rsplit <= (std::int64_t{1} << 30)) {
      out.rsplit_size = static_cast<int>(*rsplit);
    } else {
      m.warnings.push_back("inductor_meta RSPLIT_SIZE is " + std::to_string(*rsplit) +
                           ": not within 1 … 2^30, so the mix-order reduction's grid is unknown");
    }
  }
  out.mix_order_multi_stages = meta->boolAt("mix_order_reduction_allow_multi_stages").value_or(true);
  if (auto name = meta->stringAt("kernel_name")) {
    if (!m.name.empty() && *name != m.name) {
      m.warnings.push_back("inductor_meta names the kernel '" + *name + "' but the function is '" + m.name + "'");
    }
  }
}

// The kernel function after the decorator: its name, parameters and body.
Expected<bool> readFunction(std::string_view text, std::size_t after_decorator, KernelModule& m,
                            std::size_t decorator_line_start) {
  std::size_t pos = after_decorator;
  std::size_t def = std::string_view::npos;
  while (pos < text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string line = trimmed(text.substr(pos, eol - pos));
    if (line.rfind("def ", 0) == 0) {
      def = pos;
      break;
    }
    pos = eol + 1;
  }
  if (def == std::string_view::npos) {
    return Error{m.path + " line " + std::to_string(lineOf(text, after_decorator)) +
                 ": no 'def' follows the decorator"};
  }
  const std::size_t name_start = text.find("def ", def) + 4;
  std::size_t name_end = name_start;
  while (name_end < text.size() &&
         (std::isalnum(static_cast<unsigned char>(text[name_end])) != 0 || text[name_end] == '_'))
    ++name_end;
  m.name = std::string(text.substr(name_start, name_end - name_start));
  if (m.name.empty()) return Error{m.path + " line " + std::to_string(lineOf(text, def)) + ": the 'def' has no name"};

  // Body: the lines after the def that are indented or blank.
  std::size_t body = text.find('\n', def);
  std::size_t end = text.size();
  const int first_body_line = lineOf(text, def) + 1;
  int line_no = first_body_line;
  for (std::size_t p = body == std::string_view::npos ? text.size() : body + 1; p < text.size(); ++line_no) {
    std::size_t eol = text.find('\n', p);
    if (eol == std::string_view::npos) eol = text.size();
    const std::string_view line = text.substr(p, eol - p);
    const std::string t = trimmed(line);
    if (!t.empty() && line[0] != ' ' && line[0] != '\t') {
      end = p;
      break;
    }
    if (hasWord(line, "XBLOCK") || hasWord(line, "YBLOCK") || hasWord(line, "R0_BLOCK") || hasWord(line, "R1_BLOCK")) {
      m.tile_lines.push_back(line_no);
    }
    const std::size_t eq = t.find(" = ");
    if (eq != std::string::npos && t.substr(0, eq).find("numel") != std::string::npos &&
        t.substr(0, eq).find(' ') == std::string::npos) {
      std::int64_t value = 0;
      const std::string rhs = t.substr(eq + 3);
      auto [ptr, ec] = std::from_chars(rhs.data(), rhs.data() + rhs.size(), value);
      if (ec == std::errc{} && ptr == rhs.data() + rhs.size()) m.static_numels.emplace_back(t.substr(0, eq), value);
    }
    p = eol + 1;
  }
  m.source = std::string(text.substr(decorator_line_start, end - decorator_line_start));
  while (!m.source.empty() && (m.source.back() == '\n' || m.source.back() == ' ')) m.source.pop_back();
  return true;
}

}  // namespace

std::string_view kernelKindName(KernelKind kind) {
  switch (kind) {
    case KernelKind::kLoopedReduction:
      return "looped reduction";
    case KernelKind::kPersistentReduction:
      return "persistent reduction";
    case KernelKind::kPointwise:
      return "pointwise";
    case KernelKind::kOther:
      return "other";
  }
  return "other";
}

const SizeHint* KernelModule::sizeHint(std::string_view hint_name) const {
  for (const auto& h : size_hints) {
    if (h.name == hint_name) return &h;
  }
  return nullptr;
}

std::optional<std::int64_t> KernelModule::staticNumel(std::string_view numel_name) const {
  for (const auto& [n, v] : static_numels) {
    if (n == numel_name) return v;
  }
  return std::nullopt;
}

std::string KernelModule::sizeHintsText() const {
  std::string out;
  for (const auto& h : size_hints) {
    if (!out.empty()) out += ", ";
    out += h.name + "=" + (h.value ? std::to_string(*h.value) : h.symbolic);
  }
  return out;
}

bool KernelModule::dynamicShape() const {
  if (dynamic_symbols > 0) return true;
  for (const auto& h : size_hints) {
    if (!h.value) return true;
    const std::string numel = h.name + "numel";  // "x" → "xnumel", "r0_" → "r0_numel"
    if (!staticNumel(numel)) return true;
  }
  return false;
}

bool looksLikeKernelModule(std::string_view text) {
  return findDecorator(text) != std::string_view::npos;
}

Expected<KernelModule> parseKernelModule(std::string_view text, std::string path) {
  KernelModule m;
  m.path = std::move(path);
  m.module_hash = std::filesystem::path(m.path).stem().string();
  const std::size_t at = findDecorator(text);
  if (at == std::string_view::npos)
    return Error{m.path + ": no @triton_heuristics decorator: not an Inductor kernel module"};
  auto parsed = parsePythonExpression(text, at + 1);
  if (!parsed) {
    return Error{m.path + ": the decorator's arguments are not Python literals this reader knows (" + parsed.error() +
                 ")"};
  }
  const PyValue& call = parsed->value;
  if (call.kind != PyValue::Kind::kCall) {
    return Error{m.path + " line " + std::to_string(lineOf(text, at)) + ": the decorator is not a call"};
  }
  m.decorator = call.text.substr(call.text.rfind('.') + 1);
  m.kind = kindOf(m.decorator);
  const std::size_t decorator_line_start = lineStart(text, at);
  m.source_first_line = lineOf(text, at);
  auto fn = readFunction(text, parsed->end, m, decorator_line_start);
  if (!fn) return Error{fn.error()};
  readSizeHints(call, m);
  if (const PyValue* hint = call.find("reduction_hint"); hint != nullptr && hint->kind == PyValue::Kind::kName) {
    m.reduction_hint = hint->text.substr(hint->text.rfind('.') + 1);
  }
  readTritonMeta(call, m);
  readInductorMeta(call, m);
  if (m.kind == KernelKind::kOther) m.warnings.push_back("decorator '" + m.decorator + "' is listed, not analysed");
  return m;
}

}  // namespace occx::triton
