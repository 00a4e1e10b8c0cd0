#include "core/triton/launch_plan.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "core/base/atomic_file.h"
#include "core/base/format.h"
#include "core/base/text.h"

namespace occx::triton {

namespace {

constexpr std::int64_t kMaxElements = 2147483647;

std::optional<std::int64_t> integerText(const std::string& t) {
  std::int64_t v = 0;
  const char* end = t.data() + t.size();
  auto [p, ec] = std::from_chars(t.data(), end, v);
  if (ec != std::errc() || p != end) return std::nullopt;
  return v;
}

bool startsWith(const std::string& s, std::string_view prefix) {
  return s.rfind(prefix, 0) == 0;
}

BufferSpec::Role roleOf(const SignatureArgument& s, const KernelModule& m) {
  const auto& mutated = m.meta.mutated_arg_names;
  if (startsWith(s.name, "in_out_ptr") || std::find(mutated.begin(), mutated.end(), s.name) != mutated.end()) {
    return BufferSpec::Role::kInOut;
  }
  // ws_ptr: a mix-order reduction's workspace, where each program writes its partial sums.
  if (startsWith(s.name, "out_ptr") || s.name == "ws_ptr") return BufferSpec::Role::kOutput;
  return BufferSpec::Role::kInput;
}

// Storage elements of a strided tensor: 1 + Σ (size − 1) · stride (1 for an empty tensor).
std::optional<std::int64_t> storageElements(const WrapperBuffer& b) {
  if (b.sizes.size() != b.strides.size()) return std::nullopt;
  std::int64_t last = 0;
  for (std::size_t i = 0; i < b.sizes.size(); ++i) {
    auto size = integerText(b.sizes[i]);
    auto stride = integerText(b.strides[i]);
    if (!size || !stride || *size < 0 || *stride < 0) return std::nullopt;
    if (*size == 0) return 1;
    if (*size - 1 > 0 && *stride > (std::numeric_limits<std::int64_t>::max() - last) / (*size - 1)) return std::nullopt;
    last += (*size - 1) * *stride;
  }
  return last + 1;
}

std::string shapeText(const WrapperBuffer& b) {
  return "(" + joined(b.sizes, ", ") + ") strides (" + joined(b.strides, ", ") + ")";
}

// A numel: fixed in the kernel body, else the launch's value, else the size hint.
struct Numel {
  std::int64_t value = 0;
  std::string origin;
  bool known = false;
};

Numel numelOf(const KernelModule& m, const std::string& name, const std::string& hint, const std::string& launched) {
  if (auto v = m.staticNumel(name)) return {*v, name + " = " + num(*v) + " in the kernel body", true};
  if (auto v = integerText(launched)) return {*v, name + " = " + num(*v) + " as launched", true};
  if (const SizeHint* h = m.sizeHint(hint); h != nullptr && h->value) {
    return {*h->value, name + " = " + num(*h->value) + " from the size hint (the numel rounded up to a power of two)",
            true};
  }
  return {};
}

// The wrapper launch to plan from: the first whose pointer arguments all name buffers of integer shape.
const KernelLaunchInfo* usableLaunch(const RunKernel& k, std::string& why_not) {
  for (const auto& l : k.launches) {
    bool ok = true;
    for (const auto& a : l.arguments) {
      if (!a.type.empty() && a.type[0] == '*') {
        if (!a.buffer) {
          why_not = "the wrapper launches " + a.name + " with '" + a.value + "', which it does not define";
          ok = false;
          break;
        }
        if (!storageElements(*a.buffer)) {
          why_not =
              "the wrapper's " + a.value + " has sizes or strides that are not numbers (" + shapeText(*a.buffer) + ")";
          ok = false;
          break;
        }
      }
    }
    if (ok) return &l;
  }
  return nullptr;
}

std::string ptxWidthOf(const PlannedArgument& a) {
  switch (a.kind) {
    case PlannedArgument::Kind::kBuffer:
    case PlannedArgument::Kind::kInt64:
      return "8";
    case PlannedArgument::Kind::kInt32:
    case PlannedArgument::Kind::kFloat32:
      return "4";
  }
  return "?";
}

std::string ptxWidth(const std::string& ptx_type) {
  if (ptx_type == ".u64" || ptx_type == ".b64" || ptx_type == ".s64" || ptx_type == ".f64") return "8";
  if (ptx_type == ".u32" || ptx_type == ".b32" || ptx_type == ".s32" || ptx_type == ".f32") return "4";
  if (ptx_type == ".u16" || ptx_type == ".b16" || ptx_type == ".s16" || ptx_type == ".f16") return "2";
  if (ptx_type == ".u8" || ptx_type == ".b8" || ptx_type == ".s8") return "1";
  return "?";
}

}  // namespace

namespace {

// ---- The values an integer input holds, as the kernel itself says -------------------------------
// Inductor's kernels read indices with tl.load(in_ptrK + …) into tmpN and check them with
// tl.device_assert((0 <= tmpM) & (tmpM < N)) after wrapping negatives (tmpM = tl.where(tmpN < 0,
// tmpN + N, tmpN)); nll_loss compares labels with the ignore index (tmpN != -100) and with the r0_
// index (tmpN == r0_1). Lines are scanned once; a variable is traced back through where, to(),
// broadcast_to and + to the load it came from.
struct KernelLines {
  mutable std::map<std::string, std::string> loaded;  ///< loadedFrom's answers, so each variable is traced once
  std::map<std::string, std::string> defs;            ///< tmpN → its expression (first definition)
  std::vector<std::string> asserts;                   ///< the condition text of each tl.device_assert
  std::vector<std::string> exprs;                     ///< every right-hand side, in order
  std::map<std::string, std::int64_t> fulls;          ///< tmpN = tl.full([…], V, …) → V
  std::set<std::string> r0_vars;                      ///< variables that are the r0_ index (r0_1 = r0_index)
};

std::string trimmedText(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return std::string(s);
}

bool isIdentifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front())) != 0) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_'; });
}

KernelLines kernelLines(std::string_view source) {
  KernelLines k;
  std::size_t pos = 0;
  while (pos < source.size()) {
    std::size_t eol = source.find('\n', pos);
    if (eol == std::string_view::npos) eol = source.size();
    const std::string line = trimmedText(source.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.rfind("tl.device_assert(", 0) == 0) {
      k.asserts.push_back(line.substr(17));
      continue;
    }
    const std::size_t eq = line.find(" = ");
    if (eq == std::string::npos) continue;
    const std::string lhs = line.substr(0, eq);
    const std::string rhs = line.substr(eq + 3);
    if (!isIdentifier(lhs)) continue;
    k.exprs.push_back(rhs);
    k.defs.try_emplace(lhs, rhs);
    if (rhs == "r0_index" || rhs == "rindex") k.r0_vars.insert(lhs);
    if (k.r0_vars.count(rhs) != 0) k.r0_vars.insert(lhs);
    if (rhs.rfind("tl.full(", 0) == 0) {
      // tl.full([1, 1], -100, tl.int64): the value after the shape.
      const std::size_t close = rhs.find("], ");
      if (close != std::string::npos) {
        const std::string value = rhs.substr(close + 3, rhs.find(',', close + 3) - (close + 3));
        if (auto v = integerText(value)) k.fulls[lhs] = *v;
      }
    }
  }
  return k;
}

// The tmp variables an expression names, in order.
std::vector<std::string> variablesIn(const std::string& expr) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < expr.size();) {
    if (expr.compare(i, 3, "tmp") == 0 &&
        (i == 0 || (std::isalnum(static_cast<unsigned char>(expr[i - 1])) == 0 && expr[i - 1] != '_'))) {
      std::size_t j = i + 3;
      while (j < expr.size() && std::isdigit(static_cast<unsigned char>(expr[j])) != 0) ++j;
      if (j > i + 3) out.push_back(expr.substr(i, j - i));
      i = j;
    } else {
      ++i;
    }
  }
  return out;
}

// The pointer whose load `var` comes from ("in_ptr0"), following where (its values), to(),
// broadcast_to and + (the wrap-around of a negative index); empty when it is something else.
std::string loadedFrom(const KernelLines& k, const std::string& var, int depth = 0);

std::string traceLoad(const KernelLines& k, const std::string& var, int depth) {
  if (depth > 16) return {};
  auto it = k.defs.find(var);
  if (it == k.defs.end()) return {};
  const std::string& e = it->second;
  if (e.rfind("tl.load(", 0) == 0) {
    const std::size_t end = e.find_first_of(" +,)", 8);
    return e.substr(8, end - 8);
  }
  const std::vector<std::string> vars = variablesIn(e);
  if (e.rfind("tl.where(", 0) == 0) {
    // where(cond, a, b): the values come from a or b, not from the condition.
    for (std::size_t i = 1; i < vars.size(); ++i) {
      if (auto p = loadedFrom(k, vars[i], depth + 1); !p.empty()) return p;
    }
    return {};
  }
  const bool passes = e.rfind("tl.broadcast_to(", 0) == 0 || (!vars.empty() && e.rfind(vars[0] + ".to(", 0) == 0) ||
                      e == (vars.empty() ? std::string("?") : vars[0]) ||
                      (vars.size() == 2 && e == vars[0] + " + " + vars[1]);
  return passes && !vars.empty() ? loadedFrom(k, vars[0], depth + 1) : std::string();
}

std::string loadedFrom(const KernelLines& k, const std::string& var, int depth) {
  auto known = k.loaded.find(var);
  if (known != k.loaded.end()) return known->second;
  k.loaded[var] = {};  // a cycle (a name defined twice) ends here
  std::string found = traceLoad(k, var, depth);
  k.loaded[var] = found;
  return found;
}

// What the kernel says of the values behind `pointer`: a range and an ignore value, with where
// they came from; nullopt when it says nothing.
std::optional<IntegerValues> integerValuesOf(const KernelLines& k, const std::string& pointer,
                                             std::optional<std::int64_t> r0_numel) {
  std::optional<IntegerValues> out;
  // 1. tl.device_assert((0 <= tmpA) & (tmpA < N)), also with "| ~(xmask)", or one bound alone.
  for (const std::string& a : k.asserts) {
    const std::vector<std::string> vars = variablesIn(a.substr(0, a.find("\",")));
    if (vars.empty() || loadedFrom(k, vars[0]) != pointer) continue;
    const std::string lt = vars[0] + " < ";
    const std::size_t at = a.find(lt);
    if (at == std::string::npos) continue;
    const std::size_t start = at + lt.size();
    std::size_t end = start;
    while (end < a.size() && std::isdigit(static_cast<unsigned char>(a[end])) != 0) ++end;
    const auto n = integerText(a.substr(start, end - start));
    if (!n || *n < 1) continue;
    out = IntegerValues{0, *n, std::nullopt, 0.0,
                        "uniform in [0, " + num(*n) + "): the kernel's tl.device_assert(0 <= v < " + num(*n) + ")"};
    break;
  }
  // 2. Compared with the r0_ index (nll_loss's label == column): a column of the row.
  if (!out && r0_numel && *r0_numel >= 1) {
    for (const std::string& e : k.exprs) {
      const std::vector<std::string> vars = variablesIn(e);
      const std::size_t op = e.find(" == ");
      if (op == std::string::npos || vars.empty()) continue;
      const std::string left = e.substr(0, op);
      const std::string right = e.substr(op + 4);
      const bool compares = (k.r0_vars.count(right) != 0 && loadedFrom(k, left) == pointer) ||
                            (k.r0_vars.count(left) != 0 && loadedFrom(k, right) == pointer);
      if (!compares) continue;
      out = IntegerValues{0, *r0_numel, std::nullopt, 0.0,
                          "uniform in [0, " + num(*r0_numel) +
                              "): the kernel compares it with the r0_ index (r0_numel " + num(*r0_numel) + ")"};
      break;
    }
  }
  if (!out) return std::nullopt;
  // 3. An ignore index it compares against (tmpA != -100): kept at 2 % of the elements.
  for (const std::string& e : k.exprs) {
    const std::size_t op = e.find(" != ");
    if (op == std::string::npos) continue;
    const std::string left = e.substr(0, op);
    const std::string right = e.substr(op + 4);
    auto constant = k.fulls.find(right);
    if (constant == k.fulls.end() || constant->second >= 0 || loadedFrom(k, left) != pointer) continue;
    out->ignore = constant->second;
    out->ignore_fraction = 0.02;
    out->origin += "; " + num(constant->second) + " (the ignore index it compares against) in 2 % of the elements";
    break;
  }
  return out;
}

// Plans one launch of a kernel (planLaunch): where its buffers and scalars come from, its numels,
// then each argument of its signature in order.
class LaunchPlanner {
 public:
  LaunchPlanner(const RunKernel& k, std::uint64_t seed) : k_(k), m_(k.module) {
    plan_.kernel = m_.name;
    plan_.problem.seed = seed;
    std::string why_not;
    launch_ = usableLaunch(k_, why_not);
    plan_.from_wrapper = launch_ != nullptr;
    if (launch_ != nullptr) {
      plan_.buffers_from = "the wrapper's call() (" + launch_->wrapper + " line " + num(launch_->line) + ")";
      if (k_.launches.size() > 1)
        plan_.notes.push_back("the wrapper launches this kernel " + num(static_cast<std::int64_t>(k_.launches.size())) +
                              " times; the launch at line " + num(launch_->line) + " is used");
    } else {
      plan_.buffers_from = "the signature and size hints (" +
                           (k_.launches.empty() ? std::string("no wrapper launch of this kernel was found") : why_not) +
                           ")";
    }
    // Scalars come from the launch used, else from the first launch even when its buffers cannot be used.
    scalars_ = launch_ != nullptr ? launch_ : (k_.launches.empty() ? nullptr : &k_.launches.front());
  }

  // xnumel (required), ynumel (required for Grid2D) and r0_numel, and the elements a pointer gets
  // when no wrapper says: the whole iteration space.
  std::optional<Error> planNumels() {
    x_ = numelOf(m_, "xnumel", "x", launched("xnumel"));
    const Numel y = numelOf(m_, "ynumel", "y", launched("ynumel"));
    r0_ = numelOf(m_, "r0_numel", "r0_", launched("r0_numel"));
    if (!x_.known)
      return Error{m_.name + ": xnumel is not known (no value in the kernel body, the wrapper or the size hints)"};
    plan_.xnumel = x_.value;
    if (y.known) plan_.ynumel = y.value;
    if (m_.meta.grid_type == "Grid2D" && !y.known) {
      return Error{
          m_.name +
          ": a Grid2D kernel whose ynumel is not known (no value in the kernel body, the wrapper or the size hints)"};
    }
    fallback_ = x_.value;
    fallback_text_ = "xnumel";
    if (y.known) {
      fallback_ *= y.value;
      fallback_text_ += " × ynumel";
    }
    if (r0_.known && m_.kind != KernelKind::kPointwise) {
      fallback_ *= r0_.value;
      fallback_text_ += " × r0_numel";
    }
    return std::nullopt;
  }

  // Each non-constexpr argument of the signature: a buffer for a pointer, a value for a scalar.
  std::optional<Error> planArguments() {
    for (const SignatureArgument& s : m_.signature) {
      if (s.isConstexpr()) continue;
      PlannedArgument a;
      a.name = s.name;
      a.type = s.type;
      const std::string value = launched(s.name);
      std::optional<Error> error;
      if (s.isPointer()) {
        error = planBuffer(s, a);
      } else if (s.type == "i32" || s.type == "i64") {
        error = planInteger(s, value, a);
      } else if (s.type == "fp32") {
        error = planFloat(s, value, a);
      } else {
        error = Error{m_.name + ": argument " + s.name + " has type " + s.type +
                      ", which this launcher does not pass (pointers, i32, i64, fp32)"};
      }
      if (error) return error;
      plan_.arguments.push_back(std::move(a));
    }
    return std::nullopt;
  }

  // The plan's last notes (integer inputs left zero, the numels' origins) and label, once it has an
  // output buffer and its buffers pass checkBufferProblemSpec.
  std::optional<Error> finish() {
    std::vector<std::string> zeros;
    for (const BufferSpec& b : plan_.problem.buffers) {
      if (b.role != BufferSpec::Role::kOutput && !isFloating(b.type) && b.type != ElementType::kBool && !b.values) {
        zeros.push_back(b.name);
      }
    }
    if (!zeros.empty()) {
      std::string names;
      for (const auto& z : zeros) names += (names.empty() ? "" : ", ") + z;
      plan_.notes.push_back(
          "integer inputs the kernel says no range for are zeros (valid indices): " + names +
          "; gathers and scatters through them all hit index 0, so their times are a worst case of contention");
    }
    if (plan_.problem.outputIndices().empty())
      return Error{m_.name + ": the kernel has no output buffer (no out_ptr or in_out_ptr argument)"};
    std::int64_t bytes = 0;
    for (const auto& b : plan_.problem.buffers) bytes += b.bytes();
    plan_.problem.label = m_.name + ": " + num(static_cast<std::int64_t>(plan_.problem.buffers.size())) + " buffers (" +
                          num(bytes >> 20) + " MiB)";
    if (!x_.origin.empty()) plan_.notes.push_back(x_.origin);
    if (r0_.known && m_.kind != KernelKind::kPointwise) plan_.notes.push_back(r0_.origin);
    if (auto e = checkBufferProblemSpec(plan_.problem)) return Error{m_.name + ": " + e->message};
    return std::nullopt;
  }

  LaunchPlan take() { return std::move(plan_); }

 private:
  // The value the launch used for scalars gives argument `name`; empty when none.
  [[nodiscard]] std::string launched(const std::string& name) const {
    if (scalars_ == nullptr) return {};
    for (const auto& a : scalars_->arguments) {
      if (a.name == name) return a.value;
    }
    return {};
  }

  // The buffer of pointer argument s: its element type from the signature, its size from the
  // wrapper's tensor (else the whole iteration space), the values of an integer input from the kernel.
  std::optional<Error> planBuffer(const SignatureArgument& s, PlannedArgument& a) {
    auto type = parseElementType(s.type.substr(1));
    if (!type)
      return Error{m_.name + ": argument " + s.name + " of type " + s.type +
                   " cannot be given a buffer: " + type.error()};
    BufferSpec b;
    b.type = *type;
    b.role = roleOf(s, m_);
    if (launch_ != nullptr) {
      if (auto e = sizeFromWrapper(s, b, a)) return e;
    } else {
      b.elements = std::max<std::int64_t>(fallback_, 1);
      b.name = s.name;
      a.origin = fallback_text_ + " = " + num(b.elements) + " elements (assumed)";
    }
    if (b.elements > kMaxElements) {
      return Error{m_.name + ": buffer " + b.name + " needs " + num(b.elements) +
                   " elements, over the 2^31 − 1 this launcher allocates"};
    }
    if (b.role == BufferSpec::Role::kInput && !isFloating(b.type) && b.type != ElementType::kBool) {
      planIntegerValues(s, b);
    }
    a.kind = PlannedArgument::Kind::kBuffer;
    a.buffer = static_cast<int>(plan_.problem.buffers.size());
    plan_.problem.buffers.push_back(std::move(b));
    return std::nullopt;
  }

  // The elements of pointer argument s from the wrapper launch's tensor: its storage, in the
  // kernel's elements where the tensor's dtype differs.
  std::optional<Error> sizeFromWrapper(const SignatureArgument& s, BufferSpec& b, PlannedArgument& a) {
    const LaunchArgumentInfo* info = nullptr;
    for (const auto& li : launch_->arguments) {
      if (li.name == s.name) info = &li;
    }
    if (info == nullptr || !info->buffer)
      return Error{m_.name + ": the wrapper's launch gives no tensor for " + s.name};
    b.elements = *storageElements(*info->buffer);
    b.name = s.name + " (" + info->value + ")";
    a.origin = info->value + " " + shapeText(*info->buffer);
    if (!info->buffer->dtype.empty()) {
      auto wt = parseElementType(info->buffer->dtype);
      if (wt && *wt != b.type) {
        // The tensor's bytes, in the kernel's elements (a reinterpreting view reads them so).
        const std::int64_t bytes = b.elements * elementBytes(*wt);
        b.elements = (bytes + elementBytes(b.type) - 1) / elementBytes(b.type);
        plan_.notes.push_back(s.name + ": the wrapper's " + info->value + " is " + info->buffer->dtype +
                              ", the kernel reads it as " + s.type.substr(1) + " (" + num(b.elements) + " elements)");
      }
    }
    return std::nullopt;
  }

  // The values of an integer input, as the kernel's body says (scanned once for all of them), cut
  // to what the element type holds.
  void planIntegerValues(const SignatureArgument& s, BufferSpec& b) {
    if (!lines_) lines_ = kernelLines(m_.source);  // the kernel's body, scanned once for every integer input
    b.values = integerValuesOf(*lines_, s.name, r0_.known ? std::optional<std::int64_t>(r0_.value) : std::nullopt);
    if (!b.values) return;
    // A range wider than the element type holds is cut to the type (its values stay valid).
    const int bits = 8 * elementBytes(b.type);
    const std::int64_t type_max = b.type == ElementType::kU8 ? 255
                                  : bits >= 64               ? std::numeric_limits<std::int64_t>::max()
                                                             : (std::int64_t{1} << (bits - 1)) - 1;
    if (b.values->high - 1 > type_max) {
      b.values->high = type_max + (type_max < std::numeric_limits<std::int64_t>::max() ? 1 : 0);
      b.values->origin += "; cut to " + num(type_max) + ", the largest " + s.type.substr(1);
    }
    if (b.values->ignore && b.type == ElementType::kU8) b.values->ignore.reset();
    plan_.notes.push_back(s.name + " (" + s.type.substr(1) + "): " + b.values->origin);
  }

  // An i32 or i64 argument: as launched, else (a numel) from the kernel body or the size hints.
  std::optional<Error> planInteger(const SignatureArgument& s, const std::string& value, PlannedArgument& a) const {
    a.kind = s.type == "i64" ? PlannedArgument::Kind::kInt64 : PlannedArgument::Kind::kInt32;
    std::optional<std::int64_t> v = integerText(value);
    if (v) {
      a.origin = "as launched";
    } else if (s.name == "xnumel" || s.name == "ynumel" || s.name == "r0_numel" || s.name == "r1_numel" ||
               s.name == "znumel") {
      const std::string hint = s.name == "xnumel"     ? "x"
                               : s.name == "ynumel"   ? "y"
                               : s.name == "znumel"   ? "z"
                               : s.name == "r0_numel" ? "r0_"
                                                      : "r1_";
      const Numel n = numelOf(m_, s.name, hint, value);
      if (n.known) {
        v = n.value;
        a.origin = n.origin;
      }
    }
    if (!v) {
      return Error{m_.name + ": argument " + s.name + " (" + s.type + ") has no value" +
                   (value.empty() ? std::string(scalars_ == nullptr ? " (no wrapper launch)"
                                                                    : " (the wrapper's launch gives none)")
                                  : " ('" + value + "' is a symbol of a dynamic shape)")};
    }
    if (a.kind == PlannedArgument::Kind::kInt32 &&
        (*v < std::numeric_limits<std::int32_t>::min() || *v > std::numeric_limits<std::int32_t>::max())) {
      return Error{m_.name + ": argument " + s.name + " = " + num(*v) + " is out of range for " + s.type +
                   ": allowed -2147483648 … 2147483647"};
    }
    a.value = *v;
    return std::nullopt;
  }

  // An fp32 argument: as launched, passed as its IEEE-754 bit pattern.
  std::optional<Error> planFloat(const SignatureArgument& s, const std::string& value, PlannedArgument& a) const {
    double d = 0;
    if (value.empty())
      return Error{m_.name + ": argument " + s.name + " (fp32) has no value" +
                   (scalars_ == nullptr ? " (no wrapper launch)" : "")};
    try {
      std::size_t used = 0;
      d = std::stod(value, &used);
      if (used != value.size()) throw std::invalid_argument(value);
    } catch (...) {
      return Error{m_.name + ": argument " + s.name + " (fp32) is launched with '" + value + "', not a number"};
    }
    a.kind = PlannedArgument::Kind::kFloat32;
    a.value = static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(static_cast<float>(d)));
    a.origin = "as launched";
    return std::nullopt;
  }

  const RunKernel& k_;
  const KernelModule& m_;
  LaunchPlan plan_;
  const KernelLaunchInfo* launch_ = nullptr;   // the wrapper launch whose buffers are used
  const KernelLaunchInfo* scalars_ = nullptr;  // the wrapper launch whose scalar values are used
  Numel x_;
  Numel r0_;
  std::int64_t fallback_ = 0;  // elements of a pointer no wrapper sizes
  std::string fallback_text_;
  std::optional<KernelLines> lines_;
};

}  // namespace

Expected<LaunchPlan> planLaunch(const RunKernel& k, std::uint64_t seed) {
  const KernelModule& m = k.module;
  if (m.kind == KernelKind::kOther) {
    return Error{m.name + ": a @triton_heuristics." + m.decorator +
                 " kernel; only reduction, persistent_reduction and pointwise kernels are launched here"};
  }
  LaunchPlanner planner(k, seed);
  if (auto e = planner.planNumels()) return *e;
  if (auto e = planner.planArguments()) return *e;
  if (auto e = planner.finish()) return *e;
  return planner.take();
}

namespace {

// Why a grid type of torch/_inductor/runtime/triton_heuristics.py (PyTorch 2.11) is not launched.
std::string unsupportedGridWhy(const std::string& grid) {
  if (grid == "Grid3D" || grid == "BatchMatmulGrid3D") return "its z dimension (znumel, ZBLOCK) is not planned";
  if (grid == "Grid2DWithYZOverflow") return "it folds an overflowing y grid into z";
  if (grid == "CooperativeReductionGrid") return "a cooperative reduction needs its RSPLIT programs co-resident";
  if (grid == "SplitScanGrid") return "a split scan needs its workspace and the scan's carry";
  if (grid == "FixedGrid" || grid == "PrecomputedGrid") return "its grid is passed by the caller, not computed";
  if (grid.find("ComboKernel") != std::string::npos) return "a combo kernel launches several kernels' programs";
  return "a grid type this launcher does not know";
}

// The module's grid for the kernel's grid type: Grid1D and MixOrderReductionGrid cover xnumel in
// x (by XBLOCK, by RSPLIT_SIZE), Grid2D also ynumel in y; other grid types are refused.
std::optional<Error> setModuleGrid(const RunKernel& k, const RunConfig& rc, const LaunchPlan& plan,
                                   const std::string& label, GpuModule& mod) {
  const std::string& grid = k.module.meta.grid_type;
  auto blocks = [](std::int64_t n, int tile) -> std::int64_t { return tile > 0 ? (n + tile - 1) / tile : 0; };
  if (grid == "Grid1D" || grid.empty()) {
    mod.grid_x = blocks(plan.xnumel, rc.config.xblock);
  } else if (grid == "Grid2D") {
    mod.grid_x = blocks(plan.xnumel, rc.config.xblock);
    mod.grid_y = blocks(plan.ynumel, rc.yblock);
  } else if (grid == "MixOrderReductionGrid") {
    if (rc.rsplit_size < 1) {
      return Error{label + ": a MixOrderReductionGrid kernel whose inductor_meta names no RSPLIT_SIZE"};
    }
    if (rc.config.xblock < 1 || rc.rsplit_size % rc.config.xblock != 0) {
      return Error{label + ": RSPLIT_SIZE " + num(rc.rsplit_size) + " is not a multiple of XBLOCK " +
                   num(rc.config.xblock) + " (Inductor asserts it is)"};
    }
    mod.grid_x = blocks(plan.xnumel, rc.rsplit_size);
  } else {
    return Error{label + ": grid type " + grid + " is not launched here: " + unsupportedGridWhy(grid) +
                 " (Grid1D, Grid2D and MixOrderReductionGrid are)"};
  }
  if (mod.grid_x < 1 || mod.grid_x > 2147483647 || mod.grid_y < 1 || mod.grid_y > 65535) {
    return Error{label + ": grid " + num(mod.grid_x) + " × " + num(mod.grid_y) +
                 " is out of range: allowed 1 … 2147483647 × 1 … 65535"};
  }
  return std::nullopt;
}

// The module's arguments: the plan's (buffers by their index among the inputs or the outputs),
// then Triton 3.x's two scratch pointers. Returns each as "name:bytes", for the .ptx check.
std::vector<std::string> addModuleArguments(const LaunchPlan& plan, const TritonCompiled& c, GpuModule& mod) {
  const std::vector<int> inputs = plan.problem.inputIndices();
  const std::vector<int> outputs = plan.problem.outputIndices();
  auto indexIn = [](const std::vector<int>& v, int b) {
    return static_cast<int>(std::find(v.begin(), v.end(), b) - v.begin());
  };
  std::vector<std::string> want;
  for (const PlannedArgument& a : plan.arguments) {
    LaunchArgument la;
    la.name = a.name;
    switch (a.kind) {
      case PlannedArgument::Kind::kBuffer: {
        const bool out = plan.problem.buffers[static_cast<std::size_t>(a.buffer)].role != BufferSpec::Role::kInput;
        la.kind = out ? LaunchArgument::Kind::kOutput : LaunchArgument::Kind::kInput;
        la.buffer = indexIn(out ? outputs : inputs, a.buffer);
        break;
      }
      case PlannedArgument::Kind::kInt32:
      case PlannedArgument::Kind::kFloat32:
        la.kind = LaunchArgument::Kind::kInt32;
        la.value = a.kind == PlannedArgument::Kind::kFloat32
                       ? static_cast<std::int64_t>(static_cast<std::int32_t>(static_cast<std::uint32_t>(a.value)))
                       : a.value;
        break;
      case PlannedArgument::Kind::kInt64:
        la.kind = LaunchArgument::Kind::kInt64;
        la.value = a.value;
        break;
    }
    want.push_back(a.name + ":" + ptxWidthOf(a));
    mod.arguments.push_back(std::move(la));
  }
  // Triton 3.x passes two more pointers: global scratch, then profile scratch (null when size 0).
  const std::int64_t ctas = 1;  // num_ctas is 1 (checked before)
  for (const auto& [name, size] : {std::pair<std::string, std::int64_t>{"global_scratch", c.global_scratch_size},
                                   std::pair<std::string, std::int64_t>{"profile_scratch", c.profile_scratch_size}}) {
    LaunchArgument la;
    la.kind = LaunchArgument::Kind::kScratch;
    la.name = name;
    la.scratch_bytes = size * ctas;
    mod.arguments.push_back(std::move(la));
    want.push_back(name + ":8");
  }
  return want;
}

// The .ptx entry's parameters must match the arguments: as many, each of the same width.
std::optional<Error> checkPtxParameters(const TritonCompiled& c, const std::vector<std::string>& want,
                                        const std::string& label, const std::string& folder) {
  if (c.ptx_params.empty())
    return Error{label + ": the .ptx of " + folder +
                 " is missing or names no parameters, so the argument list cannot be checked"};
  bool match = c.ptx_params.size() == want.size();
  for (std::size_t i = 0; match && i < want.size(); ++i) {
    match = want[i].substr(want[i].rfind(':') + 1) == ptxWidth(c.ptx_params[i]);
  }
  if (!match) {
    return Error{label + ": the .ptx entry's parameters (" + joined(c.ptx_params, ", ") +
                 ") do not match the signature (" + joined(want, ", ") + " bytes): not launched"};
  }
  return std::nullopt;
}

}  // namespace

Expected<GpuModule> tritonModule(const RunKernel& k, const RunConfig& rc, const LaunchPlan& plan) {
  auto folder = readTritonCacheFolder(rc.folder);
  if (!folder) return Error{folder.error()};
  const TritonCompiled& c = *folder;
  const std::string label = k.module.name + " " + rc.config.str();
  if (c.cubin_path.empty()) return Error{label + ": " + rc.folder + " holds no .cubin"};
  auto bytes = readFile(c.cubin_path);
  if (!bytes) return Error{bytes.error()};

  GpuModule mod;
  mod.entry = c.name;
  mod.label = label;
  const int arch = c.cubin_arch > 0 ? c.cubin_arch : c.arch;
  mod.arch = ComputeCapability{arch / 10, arch % 10};
  mod.cubin.assign(bytes->begin(), bytes->end());
  if (auto e = setModuleGrid(k, rc, plan, label, mod)) return *e;
  if (c.num_ctas != 1) {
    return Error{label + ": num_ctas " + num(c.num_ctas) + " (thread-block clusters) is not launched here: allowed 1"};
  }
  const int warp = c.warp_size > 0 ? c.warp_size : 32;
  mod.block_threads = c.num_warps * warp;
  mod.dynamic_smem_bytes = c.shared_bytes;
  const std::vector<std::string> want = addModuleArguments(plan, c, mod);
  if (auto e = checkPtxParameters(c, want, label, rc.folder)) return *e;
  return mod;
}

}  // namespace occx::triton
