#include "core/triton/launch_plan.h"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <limits>
#include <optional>

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
  if (startsWith(s.name, "out_ptr")) return BufferSpec::Role::kOutput;
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

Expected<LaunchPlan> planLaunch(const RunKernel& k, std::uint64_t seed) {
  const KernelModule& m = k.module;
  if (m.kind == KernelKind::kOther) {
    return Error{m.name + ": a @triton_heuristics." + m.decorator +
                 " kernel; only reduction, persistent_reduction and pointwise kernels are launched here"};
  }
  LaunchPlan plan;
  plan.kernel = m.name;
  plan.problem.seed = seed;
  std::string why_not;
  const KernelLaunchInfo* launch = usableLaunch(k, why_not);
  plan.from_wrapper = launch != nullptr;
  if (launch != nullptr) {
    plan.buffers_from = "the wrapper's call() (" + launch->wrapper + " line " + num(launch->line) + ")";
    if (k.launches.size() > 1)
      plan.notes.push_back("the wrapper launches this kernel " + num(static_cast<std::int64_t>(k.launches.size())) +
                           " times; the launch at line " + num(launch->line) + " is used");
  } else {
    plan.buffers_from = "the signature and size hints (" +
                        (k.launches.empty() ? std::string("no wrapper launch of this kernel was found") : why_not) +
                        ")";
  }
  // Scalars come from the launch used, else from the first launch even when its buffers cannot be used.
  const KernelLaunchInfo* scalars = launch != nullptr ? launch : (k.launches.empty() ? nullptr : &k.launches.front());
  auto launched = [&](const std::string& name) -> std::string {
    if (scalars == nullptr) return {};
    for (const auto& a : scalars->arguments) {
      if (a.name == name) return a.value;
    }
    return {};
  };

  const Numel x = numelOf(m, "xnumel", "x", launched("xnumel"));
  const Numel y = numelOf(m, "ynumel", "y", launched("ynumel"));
  const Numel r0 = numelOf(m, "r0_numel", "r0_", launched("r0_numel"));
  if (!x.known)
    return Error{m.name + ": xnumel is not known (no value in the kernel body, the wrapper or the size hints)"};
  plan.xnumel = x.value;
  if (y.known) plan.ynumel = y.value;
  if (m.meta.grid_type == "Grid2D" && !y.known) {
    return Error{
        m.name +
        ": a Grid2D kernel whose ynumel is not known (no value in the kernel body, the wrapper or the size hints)"};
  }
  // Elements a pointer gets when no wrapper says: the whole iteration space.
  std::int64_t fallback = x.value;
  std::string fallback_text = "xnumel";
  if (y.known) {
    fallback *= y.value;
    fallback_text += " × ynumel";
  }
  if (r0.known && m.kind != KernelKind::kPointwise) {
    fallback *= r0.value;
    fallback_text += " × r0_numel";
  }

  for (const SignatureArgument& s : m.signature) {
    if (s.isConstexpr()) continue;
    PlannedArgument a;
    a.name = s.name;
    a.type = s.type;
    const std::string value = launched(s.name);
    if (s.isPointer()) {
      auto type = parseElementType(s.type.substr(1));
      if (!type)
        return Error{m.name + ": argument " + s.name + " of type " + s.type +
                     " cannot be given a buffer: " + type.error()};
      BufferSpec b;
      b.type = *type;
      b.role = roleOf(s, m);
      if (launch != nullptr) {
        const LaunchArgumentInfo* info = nullptr;
        for (const auto& li : launch->arguments) {
          if (li.name == s.name) info = &li;
        }
        if (info == nullptr || !info->buffer)
          return Error{m.name + ": the wrapper's launch gives no tensor for " + s.name};
        b.elements = *storageElements(*info->buffer);
        b.name = s.name + " (" + info->value + ")";
        a.origin = info->value + " " + shapeText(*info->buffer);
        if (!info->buffer->dtype.empty()) {
          auto wt = parseElementType(info->buffer->dtype);
          if (wt && *wt != *type) {
            // The tensor's bytes, in the kernel's elements (a reinterpreting view reads them so).
            const std::int64_t bytes = b.elements * elementBytes(*wt);
            b.elements = (bytes + elementBytes(*type) - 1) / elementBytes(*type);
            plan.notes.push_back(s.name + ": the wrapper's " + info->value + " is " + info->buffer->dtype +
                                 ", the kernel reads it as " + s.type.substr(1) + " (" + num(b.elements) +
                                 " elements)");
          }
        }
      } else {
        b.elements = std::max<std::int64_t>(fallback, 1);
        b.name = s.name;
        a.origin = fallback_text + " = " + num(b.elements) + " elements (assumed)";
      }
      if (b.elements > kMaxElements) {
        return Error{m.name + ": buffer " + b.name + " needs " + num(b.elements) +
                     " elements, over the 2^31 − 1 this launcher allocates"};
      }
      a.kind = PlannedArgument::Kind::kBuffer;
      a.buffer = static_cast<int>(plan.problem.buffers.size());
      plan.problem.buffers.push_back(std::move(b));
    } else if (s.type == "i32" || s.type == "i64") {
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
        const Numel n = numelOf(m, s.name, hint, value);
        if (n.known) {
          v = n.value;
          a.origin = n.origin;
        }
      }
      if (!v) {
        return Error{m.name + ": argument " + s.name + " (" + s.type + ") has no value" +
                     (value.empty() ? std::string(scalars == nullptr ? " (no wrapper launch)"
                                                                     : " (the wrapper's launch gives none)")
                                    : " ('" + value + "' is a symbol of a dynamic shape)")};
      }
      if (a.kind == PlannedArgument::Kind::kInt32 &&
          (*v < std::numeric_limits<std::int32_t>::min() || *v > std::numeric_limits<std::int32_t>::max())) {
        return Error{m.name + ": argument " + s.name + " = " + num(*v) + " is out of range for " + s.type +
                     ": allowed -2147483648 … 2147483647"};
      }
      a.value = *v;
    } else if (s.type == "fp32") {
      double d = 0;
      if (value.empty())
        return Error{m.name + ": argument " + s.name + " (fp32) has no value" +
                     (scalars == nullptr ? " (no wrapper launch)" : "")};
      try {
        std::size_t used = 0;
        d = std::stod(value, &used);
        if (used != value.size()) throw std::invalid_argument(value);
      } catch (...) {
        return Error{m.name + ": argument " + s.name + " (fp32) is launched with '" + value + "', not a number"};
      }
      a.kind = PlannedArgument::Kind::kFloat32;
      a.value = static_cast<std::int64_t>(std::bit_cast<std::uint32_t>(static_cast<float>(d)));
      a.origin = "as launched";
    } else {
      return Error{m.name + ": argument " + s.name + " has type " + s.type +
                   ", which this launcher does not pass (pointers, i32, i64, fp32)"};
    }
    plan.arguments.push_back(std::move(a));
  }
  const bool integer_inputs =
      std::any_of(plan.problem.buffers.begin(), plan.problem.buffers.end(), [](const BufferSpec& b) {
        return b.role != BufferSpec::Role::kOutput && !isFloating(b.type) && b.type != ElementType::kBool;
      });
  if (integer_inputs) {
    plan.notes.push_back(
        "integer inputs are zeros (valid indices): gathers and scatters all hit index 0, so their times are a "
        "worst case of contention");
  }
  if (plan.problem.outputIndices().empty())
    return Error{m.name + ": the kernel has no output buffer (no out_ptr or in_out_ptr argument)"};
  std::int64_t bytes = 0;
  for (const auto& b : plan.problem.buffers) bytes += b.bytes();
  plan.problem.label = m.name + ": " + num(static_cast<std::int64_t>(plan.problem.buffers.size())) + " buffers (" +
                       num(bytes >> 20) + " MiB)";
  if (!x.origin.empty()) plan.notes.push_back(x.origin);
  if (r0.known && m.kind != KernelKind::kPointwise) plan.notes.push_back(r0.origin);
  if (auto e = checkBufferProblemSpec(plan.problem)) return Error{m.name + ": " + e->message};
  return plan;
}

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
  const std::string& grid = k.module.meta.grid_type;
  auto blocks = [](std::int64_t n, int tile) -> std::int64_t { return tile > 0 ? (n + tile - 1) / tile : 0; };
  if (grid == "Grid1D" || grid.empty()) {
    mod.grid_x = blocks(plan.xnumel, rc.config.xblock);
  } else if (grid == "Grid2D") {
    mod.grid_x = blocks(plan.xnumel, rc.config.xblock);
    mod.grid_y = blocks(plan.ynumel, rc.yblock);
  } else {
    return Error{label + ": grid type " + grid + " is not supported (Grid1D, Grid2D are)"};
  }
  if (mod.grid_x < 1 || mod.grid_x > 2147483647 || mod.grid_y < 1 || mod.grid_y > 65535) {
    return Error{label + ": grid " + num(mod.grid_x) + " × " + num(mod.grid_y) +
                 " is out of range: allowed 1 … 2147483647 × 1 … 65535"};
  }
  if (c.num_ctas != 1) {
    return Error{label + ": num_ctas " + num(c.num_ctas) + " (thread-block clusters) is not launched here: allowed 1"};
  }
  const int warp = c.warp_size > 0 ? c.warp_size : 32;
  mod.block_threads = c.num_warps * warp;
  mod.dynamic_smem_bytes = c.shared_bytes;

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
  const std::int64_t ctas = 1;  // num_ctas is 1 (checked above)
  for (const auto& [name, size] : {std::pair<std::string, std::int64_t>{"global_scratch", c.global_scratch_size},
                                   std::pair<std::string, std::int64_t>{"profile_scratch", c.profile_scratch_size}}) {
    LaunchArgument la;
    la.kind = LaunchArgument::Kind::kScratch;
    la.name = name;
    la.scratch_bytes = size * ctas;
    mod.arguments.push_back(std::move(la));
    want.push_back(name + ":8");
  }
  if (c.ptx_params.empty())
    return Error{label + ": the .ptx of " + rc.folder +
                 " is missing or names no parameters, so the argument list cannot be checked"};
  bool match = c.ptx_params.size() == want.size();
  for (std::size_t i = 0; match && i < want.size(); ++i) {
    match = want[i].substr(want[i].rfind(':') + 1) == ptxWidth(c.ptx_params[i]);
  }
  if (!match) {
    return Error{label + ": the .ptx entry's parameters (" + joined(c.ptx_params, ", ") +
                 ") do not match the signature (" + joined(want, ", ") + " bytes): not launched"};
  }
  return mod;
}

}  // namespace occx::triton
