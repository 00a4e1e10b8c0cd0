#include "core/step/step_profile.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/base/format.h"
#include "core/inductor/bounds.h"

namespace occx::step {
namespace {

using triton::InductorRun;
using triton::KernelKind;
using triton::RunConfig;
using triton::RunKernel;

bool contains(std::string_view s, std::string_view part) { return s.find(part) != std::string_view::npos; }

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
  return out;
}

KernelCategory categoryOfKind(KernelKind kind) {
  switch (kind) {
    case KernelKind::kLoopedReduction:
      return KernelCategory::kTritonLoopedReduction;
    case KernelKind::kPersistentReduction:
      return KernelCategory::kTritonPersistentReduction;
    case KernelKind::kPointwise:
      return KernelCategory::kTritonPointwise;
    case KernelKind::kOther:
      return KernelCategory::kTritonOther;
  }
  return KernelCategory::kTritonOther;
}

// What the profiler saw of one launch: block, registers, shared memory.
struct LaunchShape {
  std::array<std::int64_t, 3> grid{};
  std::array<std::int64_t, 3> block{};
  int registers = -1;
  std::int64_t shared = -1;
};

bool configFits(const RunConfig& c, const LaunchShape& s) {
  if (s.block[0] > 0 && s.block[0] != static_cast<std::int64_t>(c.warp_size) * c.config.num_warps) return false;
  if (s.registers > 0 && c.config.n_regs && *c.config.n_regs != s.registers) return false;
  return true;
}

// The config the kernel's launcher ran: the autotuner's winner; else the only compiled config; else
// the one config whose block and registers are the launch's (the trace records both).
int launcherConfig(const RunKernel& k, const LaunchShape& s) {
  if (k.winner >= 0) return k.winner;
  if (k.configs.size() == 1) return 0;
  int found = -1;
  for (std::size_t i = 0; i < k.configs.size(); ++i) {
    if (!configFits(k.configs[i], s)) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(i);
  }
  return found;
}

// xnumel of the kernel: fixed in its body, else the first wrapper launch's integer argument.
std::optional<std::int64_t> xnumelOf(const RunKernel& k) {
  if (auto v = k.module.staticNumel("xnumel")) return v;
  for (const auto& launch : k.launches) {
    for (const auto& a : launch.arguments) {
      if (a.name != "xnumel") continue;
      try {
        std::size_t used = 0;
        const long long v = std::stoll(a.value, &used);
        if (used == a.value.size() && v > 0) return v;
      } catch (...) {  // NOLINT(bugprone-empty-catch): a symbolic size, not a number
      }
    }
  }
  return std::nullopt;
}

// Whether a run kernel could have been launched with this shape: one of its configs (the winner
// when known) has the block (32 × num_warps) and registers, and grid x = ⌈xnumel / XBLOCK⌉ when
// xnumel is known.
bool shapeFits(const RunKernel& k, const LaunchShape& s) {
  std::vector<const RunConfig*> configs;
  if (k.winner >= 0) {
    configs.push_back(&k.configs[static_cast<std::size_t>(k.winner)]);
  } else {
    for (const auto& c : k.configs) configs.push_back(&c);
  }
  if (configs.empty()) return true;  // nothing compiled is known: cannot rule it out
  const auto x = xnumelOf(k);
  for (const RunConfig* c : configs) {
    if (!configFits(*c, s)) continue;
    if (x && s.grid[0] > 0 && c->config.xblock > 0 && (*x + c->config.xblock - 1) / c->config.xblock != s.grid[0]) {
      continue;
    }
    return true;
  }
  return false;
}

std::string dims(const std::array<std::int64_t, 3>& d) {
  return num(d[0]) + "×" + num(d[1]) + "×" + num(d[2]);
}

std::string shapeText(const LaunchShape& s) {
  std::string t = "grid " + dims(s.grid) + ", block " + dims(s.block);
  if (s.registers > 0) t += ", " + num(s.registers) + " registers";
  return t;
}

struct Join {
  RunMatch match = RunMatch::kNoRun;
  int run_kernel = -1;
  std::vector<int> candidates;
  std::string note;
};

Join joinToRun(const std::string& name, const LaunchShape& shape, const InductorRun* run,
               const std::unordered_multimap<std::string, int>& by_name) {
  Join j;
  if (run == nullptr) return j;
  std::vector<int> named;
  auto range = by_name.equal_range(name);
  for (auto it = range.first; it != range.second; ++it) named.push_back(it->second);
  std::sort(named.begin(), named.end());
  if (named.empty()) {
    j.match = RunMatch::kNotInRun;
    j.note = "no kernel of the run has this name";
    return j;
  }
  if (named.size() == 1) {
    j.match = RunMatch::kMatched;
    j.run_kernel = named.front();
    j.note = "matched by name";
    return j;
  }
  std::vector<int> fitting;
  for (int i : named) {
    if (shapeFits(run->kernels[static_cast<std::size_t>(i)], shape)) fitting.push_back(i);
  }
  if (fitting.size() == 1) {
    j.match = RunMatch::kMatched;
    j.run_kernel = fitting.front();
    j.note = std::to_string(named.size()) + " kernels of the run have this name; told apart by " + shapeText(shape);
    return j;
  }
  j.match = RunMatch::kAmbiguous;
  j.candidates = fitting.empty() ? named : fitting;
  j.note = std::to_string(j.candidates.size()) + " kernels of the run have this name" +
           (fitting.empty() ? std::string(" and none fits ") : std::string(" and fit ")) + shapeText(shape) +
           ": modules ";
  for (std::size_t i = 0; i < j.candidates.size(); ++i) {
    j.note += (i ? ", " : "") + run->kernels[static_cast<std::size_t>(j.candidates[i])].module.module_hash;
  }
  return j;
}

double median(std::vector<double>& v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string ms(double us) { return us >= 1000.0 ? fixed(us / 1000.0, 2) + " ms" : fixed(us, 1) + " µs"; }
std::string pct(double share) { return fixed(100.0 * share, share < 0.1 ? 1 : 0) + " %"; }

const RunConfig* configOf(const StepKernel& k, const InductorRun* run) {
  if (run == nullptr || k.run_kernel < 0 || k.config < 0) return nullptr;
  const RunKernel& rk = run->kernels[static_cast<std::size_t>(k.run_kernel)];
  return &rk.configs[static_cast<std::size_t>(k.config)];
}

std::string decisionWord(const RunConfig& c, inductor::Policy policy) {
  const inductor::Decision* d = c.decision(policy);
  return d == nullptr ? std::string() : std::string(inductor::outcomeName(d->outcome));
}

}  // namespace

std::string_view kernelCategoryName(KernelCategory category) {
  switch (category) {
    case KernelCategory::kTritonLoopedReduction:
      return "Triton reduction (looped)";
    case KernelCategory::kTritonPersistentReduction:
      return "Triton reduction (persistent)";
    case KernelCategory::kTritonPointwise:
      return "Triton pointwise";
    case KernelCategory::kTritonOther:
      return "other Triton";
    case KernelCategory::kLibrary:
      return "matmul/attention library";
    case KernelCategory::kAten:
      return "ATen";
    case KernelCategory::kMemory:
      return "memcpy/memset";
    case KernelCategory::kOther:
      return "other";
  }
  return "other";
}

std::string_view kernelCategoryKey(KernelCategory category) {
  switch (category) {
    case KernelCategory::kTritonLoopedReduction:
      return "triton_red";
    case KernelCategory::kTritonPersistentReduction:
      return "triton_per";
    case KernelCategory::kTritonPointwise:
      return "triton_poi";
    case KernelCategory::kTritonOther:
      return "triton_other";
    case KernelCategory::kLibrary:
      return "library";
    case KernelCategory::kAten:
      return "aten";
    case KernelCategory::kMemory:
      return "memory";
    case KernelCategory::kOther:
      return "other";
  }
  return "other";
}

bool isReduction(KernelCategory category) {
  return category == KernelCategory::kTritonLoopedReduction || category == KernelCategory::kTritonPersistentReduction;
}

bool isTriton(KernelCategory category) {
  return isReduction(category) || category == KernelCategory::kTritonPointwise ||
         category == KernelCategory::kTritonOther;
}

KernelCategory categorizeKernel(std::string_view name, GpuActivityKind kind) {
  if (kind != GpuActivityKind::kKernel) return KernelCategory::kMemory;
  if (name.substr(0, 10) == "triton_red") return KernelCategory::kTritonLoopedReduction;
  if (name.substr(0, 10) == "triton_per") return KernelCategory::kTritonPersistentReduction;
  if (name.substr(0, 10) == "triton_poi") return KernelCategory::kTritonPointwise;
  if (name.substr(0, 7) == "triton_") return KernelCategory::kTritonOther;
  const std::string l = lower(name);
  for (std::string_view pattern : {"gemm", "cutlass", "cublas", "nvjet", "xmma", "flash", "fmha", "attention",
                                   "cudnn", "splitkreduce", "sm90_", "sm80_", "ampere_", "hopper_", "_mma"}) {
    if (contains(l, pattern)) return KernelCategory::kLibrary;
  }
  if (contains(name, "at::native") || contains(name, "at_cuda_detail") || contains(name, "c10::") ||
      contains(name, "at::cuda")) {
    return KernelCategory::kAten;
  }
  return KernelCategory::kOther;
}

std::string_view runMatchName(RunMatch match) {
  switch (match) {
    case RunMatch::kMatched:
      return "matched";
    case RunMatch::kAmbiguous:
      return "ambiguous";
    case RunMatch::kNotInRun:
      return "not in the run";
    case RunMatch::kNoRun:
      return "no run";
  }
  return "no run";
}

const CategoryTime& StepProfile::category(KernelCategory c) const {
  for (const auto& t : categories) {
    if (t.category == c) return t;
  }
  static const CategoryTime kNone;
  return kNone;
}

StepProfile profileStep(const ProfilerTrace& trace, const InductorRun* run) {
  StepProfile p;
  p.trace_path = trace.path;
  p.run_input = run != nullptr ? run->input : std::string();
  p.device_name = trace.device_name;
  p.step_count = std::max(1, trace.step_count);
  p.annotated_steps = trace.annotated_steps;
  p.outside_steps = trace.outside_steps;
  p.problems = trace.problems;
  double spans = 0.0;
  for (const auto& s : trace.steps) {
    p.step_names.push_back(s.name);
    spans += s.end_us - s.begin_us;
  }
  if (trace.annotated_steps && !trace.steps.empty()) p.mean_step_span_us = spans / static_cast<double>(trace.steps.size());

  std::unordered_multimap<std::string, int> by_name;
  if (run != nullptr) {
    for (std::size_t i = 0; i < run->kernels.size(); ++i) by_name.emplace(run->kernels[i].module.name, static_cast<int>(i));
  }

  // Join each distinct (name, grid, block) once, then group launches by (name, what they join to).
  struct Group {
    StepKernel row;
    std::vector<double> durations;
  };
  std::map<std::string, Join> joins;
  std::map<std::string, std::size_t> group_of;
  std::vector<Group> groups;
  double total = 0.0;
  for (const GpuActivity& a : trace.activities) {
    if (a.step < 0) continue;
    total += a.duration_us;
    const KernelCategory by_name_category = categorizeKernel(a.name, a.kind);
    std::string join_key;
    Join join;
    if (a.kind == GpuActivityKind::kKernel && run != nullptr) {
      const LaunchShape shape{a.grid, a.block, a.registers_per_thread, a.shared_bytes};
      const std::string shape_key = a.name + '\x1f' + shapeText(shape);
      auto it = joins.find(shape_key);
      if (it == joins.end()) it = joins.emplace(shape_key, joinToRun(a.name, shape, run, by_name)).first;
      join = it->second;
      join_key = std::string(runMatchName(join.match)) + ":" + num(join.run_kernel);
      for (int c : join.candidates) join_key += "," + num(c);
    }
    const std::string key = a.name + '\x1f' + join_key;
    auto found = group_of.find(key);
    if (found == group_of.end()) {
      found = group_of.emplace(key, groups.size()).first;
      Group g;
      g.row.name = a.name;
      g.row.category = by_name_category;
      g.row.grid = a.grid;
      g.row.block = a.block;
      g.row.match = join.match;
      g.row.run_kernel = join.run_kernel;
      g.row.candidates = join.candidates;
      g.row.match_note = join.note;
      if (join.match == RunMatch::kMatched) {
        const RunKernel& rk = run->kernels[static_cast<std::size_t>(join.run_kernel)];
        g.row.category = categoryOfKind(rk.module.kind);
        g.row.config = launcherConfig(rk, LaunchShape{a.grid, a.block, a.registers_per_thread, a.shared_bytes});
      }
      groups.push_back(std::move(g));
    }
    Group& g = groups[found->second];
    if (a.grid != g.row.grid || a.block != g.row.block) g.row.shapes_vary = true;
    g.row.launches += 1;
    g.row.total_us += a.duration_us;
    g.durations.push_back(a.duration_us);
  }
  const double steps = static_cast<double>(p.step_count);
  p.gpu_time_per_step_us = total / steps;
  for (auto& g : groups) {
    StepKernel& r = g.row;
    r.min_us = *std::min_element(g.durations.begin(), g.durations.end());
    r.max_us = *std::max_element(g.durations.begin(), g.durations.end());
    r.median_us = median(g.durations);
    r.per_step_us = r.total_us / steps;
    r.launches_per_step = r.launches / steps;
    r.share = p.gpu_time_per_step_us > 0.0 ? r.per_step_us / p.gpu_time_per_step_us : 0.0;
    p.kernels.push_back(std::move(r));
  }
  std::stable_sort(p.kernels.begin(), p.kernels.end(),
                   [](const StepKernel& a, const StepKernel& b) { return a.per_step_us > b.per_step_us; });
  for (KernelCategory c : kKernelCategories) {
    CategoryTime t;
    t.category = c;
    for (const auto& k : p.kernels) {
      if (k.category != c) continue;
      t.per_step_us += k.per_step_us;
      ++t.kernels;
    }
    t.share = p.gpu_time_per_step_us > 0.0 ? t.per_step_us / p.gpu_time_per_step_us : 0.0;
    p.categories.push_back(t);
  }
  for (const auto& k : p.kernels) {
    if (!isTriton(k.category)) continue;
    ++p.triton_kernels;
    if (k.match == RunMatch::kMatched) ++p.triton_matched;
    if (k.match == RunMatch::kAmbiguous) ++p.triton_ambiguous;
    if (k.match == RunMatch::kNotInRun) ++p.triton_not_in_run;
  }
  return p;
}

std::string shortConfigLabel(const RunConfig& config, bool reduction) {
  const auto& c = config.config;
  std::string s = "X" + num(c.xblock);
  if (config.yblock > 0) s += " Y" + num(config.yblock);
  if (reduction && c.r1_block > 0) s += " R1_" + num(c.r1_block);
  if (reduction) s += " R" + num(c.r0_block);
  s += " w" + num(c.num_warps);
  if (c.num_stages > 1) s += " s" + num(c.num_stages);
  return s;
}

std::string stepText(const StepProfile& p, const InductorRun* run) {
  std::string s;
  const std::string steps_text =
      p.annotated_steps ? num(p.step_count) + (p.step_count == 1 ? " step" : " steps") + " (ProfilerStep annotations)"
                        : "the whole trace as " + num(p.step_count) + (p.step_count == 1 ? " step" : " steps") +
                              " (no ProfilerStep annotations; --steps sets the count)";
  std::int64_t launches = 0;
  for (const auto& k : p.kernels) launches += k.launches;
  const double per_step = static_cast<double>(launches) / p.step_count;
  s += "GPU time per step: " + ms(p.gpu_time_per_step_us) + " (summed device time of " + fixed(per_step, 0) +
       (per_step == 1.0 ? " launch" : " launches") + " per step: kernels, memcpys and memsets; " +
       steps_text + (p.mean_step_span_us > 0.0 ? "; each step spans " + ms(p.mean_step_span_us) + " on the CPU" : "") +
       ").\n";
  auto part = [&](KernelCategory c) {
    const CategoryTime& t = p.category(c);
    return std::string(kernelCategoryName(c)) + " " + ms(t.per_step_us) + " (" + pct(t.share) + ")";
  };
  const CategoryTime& red = p.category(KernelCategory::kTritonLoopedReduction);
  const CategoryTime& per = p.category(KernelCategory::kTritonPersistentReduction);
  double triton = 0.0;
  for (KernelCategory c : kKernelCategories) {
    if (isTriton(c)) triton += p.category(c).per_step_us;
  }
  const double triton_share = p.gpu_time_per_step_us > 0.0 ? triton / p.gpu_time_per_step_us : 0.0;
  const double reductions = red.per_step_us + per.per_step_us;
  const double reduction_share = red.share + per.share;
  s += "Triton kernels: " + ms(triton) + " (" + pct(triton_share) + ") — " + part(KernelCategory::kTritonLoopedReduction) +
       ", " + part(KernelCategory::kTritonPersistentReduction) + ", " + part(KernelCategory::kTritonPointwise) + ", " +
       part(KernelCategory::kTritonOther) + ".\n";
  s += "Other kernels: " + part(KernelCategory::kLibrary) + ", " + part(KernelCategory::kAten) + ", " +
       part(KernelCategory::kMemory) + ", " + part(KernelCategory::kOther) + ".\n";
  s += "The Triton reductions take " + ms(reductions) + " per step, " + pct(reduction_share) +
       " of its GPU time: no choice of their configs can save more than that.\n";
  int shown = 0;
  const auto reduction_count =
      std::count_if(p.kernels.begin(), p.kernels.end(), [](const StepKernel& k) { return isReduction(k.category); });
  for (const auto& k : p.kernels) {
    if (!isReduction(k.category) || shown >= 3) continue;
    ++shown;
    s += (shown == 1 ? "Largest reduction" + std::string(reduction_count > 1 ? "s: " : ": ") : "; ") + k.name + " " + ms(k.per_step_us) + " per step (" +
         pct(k.share) + ", " + fixed(k.launches_per_step, k.launches_per_step == static_cast<int>(k.launches_per_step) ? 0 : 1) +
         (k.launches_per_step == 1.0 ? " launch" : " launches") + ")";
    if (const RunConfig* c = configOf(k, run)) {
      s += ", config " + shortConfigLabel(*c, true);
      const std::string old_word = decisionWord(*c, inductor::Policy::kOld);
      const std::string new_word = decisionWord(*c, inductor::Policy::kNew);
      if (!old_word.empty()) s += ", old bound: " + old_word + ", new bound: " + new_word;
    }
  }
  if (shown > 0) s += ".\n";
  if (run != nullptr) {
    s += "Of " + num(p.triton_kernels) + (p.triton_kernels == 1 ? " Triton kernel" : " Triton kernels") +
         " in the step, " + num(p.triton_matched) + (p.triton_matched == 1 ? " is a kernel" : " are kernels") +
         " of the run (" + p.run_input + ")";
    if (p.triton_ambiguous > 0) s += ", " + num(p.triton_ambiguous) + " ambiguous (several kernels of the run fit)";
    if (p.triton_not_in_run > 0) s += ", " + num(p.triton_not_in_run) + " from another run";
    s += ".\n";
  } else {
    s += "No Inductor run given: Triton kernels are classed by name only (give the run's folder to see their configs "
         "and decisions).\n";
  }
  if (p.outside_steps > 0) {
    s += num(p.outside_steps) + " GPU activities lie outside every step and are not counted.\n";
  }
  return s;
}

CsvTable stepToCsv(const StepProfile& p, const InductorRun* run) {
  CsvTable t;
  t.meta = {{"format", "step-profile"},
            {"trace", p.trace_path},
            {"run", p.run_input},
            {"device", p.device_name},
            {"steps", num(p.step_count)},
            {"steps_from", p.annotated_steps ? "ProfilerStep annotations" : "whole trace divided by --steps"},
            {"gpu_time_per_step_us", fixed(p.gpu_time_per_step_us, 3)},
            {"time", "in-step device time as torch.profiler recorded it (CUPTI kernel duration)"}};
  t.header = {"rank", "kernel", "category", "launches_per_step", "in_step_median_us", "in_step_per_step_us",
              "share_pct", "grid", "block", "match", "module", "config", "registers_per_thread", "n_spills",
              "theoretical_occupancy_pct"};
  for (inductor::Policy policy : inductor::kPolicies) t.header.push_back(std::string(inductor::policyKey(policy)) + "_decision");
  t.header.push_back("match_note");
  int rank = 0;
  for (const auto& k : p.kernels) {
    std::vector<std::string> row = {num(++rank),
                                    k.name,
                                    std::string(kernelCategoryKey(k.category)),
                                    fixed(k.launches_per_step, 2),
                                    fixed(k.median_us, 3),
                                    fixed(k.per_step_us, 3),
                                    fixed(100.0 * k.share, 3),
                                    k.grid[0] > 0 ? dims(k.grid) + (k.shapes_vary ? " (varies)" : "") : "",
                                    k.block[0] > 0 ? dims(k.block) : "",
                                    std::string(runMatchName(k.match)),
                                    run != nullptr && k.run_kernel >= 0
                                        ? run->kernels[static_cast<std::size_t>(k.run_kernel)].module.module_hash
                                        : ""};
    const RunConfig* c = configOf(k, run);
    row.push_back(c != nullptr ? shortConfigLabel(*c, isReduction(k.category)) : "");
    row.push_back(c != nullptr && c->config.n_regs ? num(*c->config.n_regs) : "");
    row.push_back(c != nullptr && c->config.n_spills ? num(*c->config.n_spills) : "");
    row.push_back(c != nullptr && c->occupancy ? fixed(100.0 * c->occupancy->occupancy, 1) : "");
    for (inductor::Policy policy : inductor::kPolicies) row.push_back(c != nullptr ? decisionWord(*c, policy) : "");
    row.push_back(k.match_note);
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace occx::step
