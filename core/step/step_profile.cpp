#include "core/step/step_profile.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>

#include "core/base/format.h"

namespace occx::step {
namespace {

using triton::ScanRow;

bool contains(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c); });
  return out;
}

// The category of a matched kernel from its scan row's kind (kernelKindName's words).
KernelCategory categoryOfKind(const std::string& kind) {
  if (kind == "looped reduction") return KernelCategory::kTritonLoopedReduction;
  if (kind == "persistent reduction") return KernelCategory::kTritonPersistentReduction;
  if (kind == "pointwise") return KernelCategory::kTritonPointwise;
  return KernelCategory::kTritonOther;
}

// What the profiler saw of one launch: grid, block, registers.
struct LaunchShape {
  std::array<std::int64_t, 3> grid{};
  std::array<std::int64_t, 3> block{};
  int registers = -1;
};

// One kernel (name, module) of the run: the indices of its rows.
struct RunKernelRows {
  std::string module;
  std::string kind;
  std::vector<std::size_t> rows;
};

bool compiled(const ScanRow& r) {
  return r.num_warps.has_value();
}

bool configFits(const ScanRow& r, const LaunchShape& s) {
  if (!compiled(r)) return false;
  if (s.block[0] > 0 && s.block[0] != 32 * *r.num_warps) return false;
  if (s.registers > 0 && r.n_regs && *r.n_regs != s.registers) return false;
  return true;
}

// The row of the config the kernel's launcher ran: the autotuner's winner; else the only compiled
// config; else the one config whose block and registers are the launch's (the trace records both).
int launcherRow(const std::vector<ScanRow>& rows, const RunKernelRows& k, const LaunchShape& s) {
  std::vector<std::size_t> configs;
  for (std::size_t i : k.rows) {
    if (rows[i].winner) return static_cast<int>(i);
    if (compiled(rows[i])) configs.push_back(i);
  }
  if (configs.size() == 1) return static_cast<int>(configs.front());
  int found = -1;
  for (std::size_t i : configs) {
    if (!configFits(rows[i], s)) continue;
    if (found >= 0) return -1;
    found = static_cast<int>(i);
  }
  return found;
}

std::optional<std::int64_t> numberIn(const std::string& text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Whether a run kernel could have been launched with this shape: one of its configs (the winner when
// known) has the block (32 × num_warps) and registers, and grid x = ⌈xnumel / XBLOCK⌉ when xnumel
// is fixed in the kernel's body.
bool shapeFits(const std::vector<ScanRow>& rows, const RunKernelRows& k, const LaunchShape& s) {
  std::vector<std::size_t> configs;
  for (std::size_t i : k.rows) {
    if (rows[i].winner) configs = {i};
  }
  if (configs.empty()) {
    for (std::size_t i : k.rows) {
      if (compiled(rows[i])) configs.push_back(i);
    }
  }
  if (configs.empty()) return true;  // nothing compiled is known: cannot rule it out
  for (std::size_t i : configs) {
    const ScanRow& r = rows[i];
    if (!configFits(r, s)) continue;
    // Grid x: ⌈xnumel / XBLOCK⌉, or ⌈xnumel / RSPLIT_SIZE⌉ for a mix-order reduction.
    const auto x = numberIn(r.xnumel);
    const std::int64_t per_program = r.rsplit_size ? *r.rsplit_size : r.xblock.value_or(0);
    if (x && s.grid[0] > 0 && per_program > 0 && (*x + per_program - 1) / per_program != s.grid[0]) continue;
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
  const RunKernelRows* kernel = nullptr;
  std::vector<std::string> candidates;
  std::string note;
};

using KernelsByName = std::unordered_map<std::string, std::vector<RunKernelRows>>;

KernelsByName kernelsByName(const std::vector<ScanRow>& rows) {
  KernelsByName by_name;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& kernels = by_name[rows[i].kernel];
    auto it = std::find_if(kernels.begin(), kernels.end(),
                           [&](const RunKernelRows& k) { return k.module == rows[i].module; });
    if (it == kernels.end()) {
      kernels.push_back({rows[i].module, rows[i].kind, {}});
      it = kernels.end() - 1;
    }
    it->rows.push_back(i);
  }
  return by_name;
}

Join joinToRun(const std::string& name, const LaunchShape& shape, const std::vector<ScanRow>& rows,
               const KernelsByName& by_name) {
  Join j;
  auto found = by_name.find(name);
  if (found == by_name.end()) {
    j.match = RunMatch::kNotInRun;
    j.note = "no kernel of the run has this name";
    return j;
  }
  const std::vector<RunKernelRows>& named = found->second;
  if (named.size() == 1) {
    j.match = RunMatch::kMatched;
    j.kernel = &named.front();
    j.note = "matched by name";
    return j;
  }
  std::vector<const RunKernelRows*> fitting;
  for (const auto& k : named) {
    if (shapeFits(rows, k, shape)) fitting.push_back(&k);
  }
  if (fitting.size() == 1) {
    j.match = RunMatch::kMatched;
    j.kernel = fitting.front();
    j.note = std::to_string(named.size()) + " kernels of the run have this name; told apart by " + shapeText(shape);
    return j;
  }
  j.match = RunMatch::kAmbiguous;
  if (fitting.empty()) {
    for (const auto& k : named) j.candidates.push_back(k.module);
  } else {
    for (const auto* k : fitting) j.candidates.push_back(k->module);
  }
  j.note = std::to_string(j.candidates.size()) + " kernels of the run have this name" +
           (fitting.empty() ? std::string(" and none fits ") : std::string(" and fit ")) + shapeText(shape) +
           ": modules ";
  for (std::size_t i = 0; i < j.candidates.size(); ++i) j.note += (i ? ", " : "") + j.candidates[i];
  return j;
}

double median(std::vector<double>& v) {
  if (v.empty()) return 0.0;
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 == 1 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string ms(double us) {
  return us >= 1000.0 ? fixed(us / 1000.0, 2) + " ms" : fixed(us, 1) + " µs";
}
std::string pct(double share) {
  return fixed(100.0 * share, share < 0.1 ? 1 : 0) + " %";
}

// A launch shape as the first pass groups launches: the activity's kind, name (a view into the
// trace, which outlives the pass), grid, block and registers.
struct ShapeKey {
  GpuActivityKind kind;
  std::string_view name;
  std::array<std::int64_t, 3> grid;
  std::array<std::int64_t, 3> block;
  int registers;
  bool operator==(const ShapeKey& o) const {
    return kind == o.kind && name == o.name && grid == o.grid && block == o.block && registers == o.registers;
  }
};

struct ShapeKeyHash {
  std::size_t operator()(const ShapeKey& k) const {
    std::size_t h = std::hash<std::string_view>{}(k.name);
    auto mix = [&h](std::int64_t v) {
      h ^= std::hash<std::int64_t>{}(v) + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    };
    for (auto v : k.grid) mix(v);
    for (auto v : k.block) mix(v);
    mix(k.registers);
    mix(static_cast<std::int64_t>(k.kind));
    return h;
  }
};

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
  for (std::string_view pattern : {"gemm", "cutlass", "cublas", "nvjet", "xmma", "flash", "fmha", "attention", "cudnn",
                                   "splitkreduce", "sm90_", "sm80_", "ampere_", "hopper_", "_mma"}) {
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

namespace {

// The launches of one distinct (kind, name, grid, block, registers): the first, and every
// launch's duration.
struct TraceShape {
  const GpuActivity* first = nullptr;
  std::vector<double> durations;
};

// First pass, linear and cheap: the launches inside steps grouped by shape, in the order their
// shapes first appear; `total` receives their summed duration.
std::vector<TraceShape> launchesByShape(const ProfilerTrace& trace, double& total) {
  std::unordered_map<ShapeKey, std::size_t, ShapeKeyHash> shape_of;
  std::vector<TraceShape> shapes;
  for (const GpuActivity& a : trace.activities) {
    if (a.step < 0) continue;
    total += a.duration_us;
    const ShapeKey key{a.kind, a.name, a.grid, a.block, a.registers_per_thread};
    auto [it, added] = shape_of.try_emplace(key, shapes.size());
    if (added) shapes.push_back({&a, {}});
    shapes[it->second].durations.push_back(a.duration_us);
  }
  return shapes;
}

// A kernel row of the profile being gathered, with the durations of all its launches.
struct KernelGroup {
  StepKernel row;
  std::vector<double> durations;
};

// The first launch's row of a group: its name, category and shape, and what it joins to in the run.
KernelGroup newKernelGroup(const GpuActivity& a, const Join& join, const LaunchShape& shape, const StepRun& run) {
  KernelGroup g;
  g.row.name = a.name;
  g.row.category = categorizeKernel(a.name, a.kind);
  g.row.grid = a.grid;
  g.row.block = a.block;
  g.row.match = join.match;
  g.row.candidates = join.candidates;
  g.row.match_note = join.note;
  if (join.match == RunMatch::kMatched) {
    g.row.module = join.kernel->module;
    g.row.category = categoryOfKind(join.kernel->kind);
    g.row.config_row = launcherRow(*run.rows, *join.kernel, shape);
  }
  return g;
}

// Second pass: each distinct shape joined to the run once, the shapes grouped by (name, kind, what
// they join to), in the order the groups first appear.
std::vector<KernelGroup> groupShapesByJoin(const std::vector<TraceShape>& shapes, const StepRun& run) {
  const KernelsByName by_name = run.rows != nullptr ? kernelsByName(*run.rows) : KernelsByName{};
  std::map<std::string, std::size_t> group_of;
  std::vector<KernelGroup> groups;
  for (const TraceShape& sh : shapes) {
    const GpuActivity& a = *sh.first;
    Join join;
    std::string key = a.name + '\x1f' + std::string(gpuActivityKindName(a.kind));
    const LaunchShape shape{a.grid, a.block, a.registers_per_thread};
    if (a.kind == GpuActivityKind::kKernel && run.rows != nullptr) {
      join = joinToRun(a.name, shape, *run.rows, by_name);
      key += '\x1f' + std::string(runMatchName(join.match)) + ":" + (join.kernel != nullptr ? join.kernel->module : "");
      for (const auto& c : join.candidates) key += "," + c;
    }
    auto found = group_of.find(key);
    if (found == group_of.end()) {
      found = group_of.emplace(key, groups.size()).first;
      groups.push_back(newKernelGroup(a, join, shape, run));
    }
    KernelGroup& g = groups[found->second];
    if (a.grid != g.row.grid || a.block != g.row.block) g.row.shapes_vary = true;
    g.row.launches += static_cast<int>(sh.durations.size());
    for (double d : sh.durations) g.row.total_us += d;
    g.durations.insert(g.durations.end(), sh.durations.begin(), sh.durations.end());
  }
  return groups;
}

// The kernel rows with their statistics per step, largest time per step first.
void addKernelRows(std::vector<KernelGroup>& groups, StepProfile& p) {
  const double steps = static_cast<double>(p.step_count);
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
}

// The time per step of each kernel category, and how many Triton kernels the run matched.
void addCategoriesAndMatches(StepProfile& p) {
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
}

}  // namespace

StepProfile profileStep(const ProfilerTrace& trace, const StepRun& run) {
  StepProfile p;
  p.trace_path = trace.path;
  p.run_input = run.rows != nullptr ? run.input : std::string();
  p.device_name = trace.device_name;
  p.step_count = std::max(1, trace.step_count);
  p.annotated_steps = trace.annotated_steps;
  p.steps_on_gpu = trace.steps_on_gpu;
  p.outside_steps = trace.outside_steps;
  p.problems = trace.problems;
  double spans = 0.0;
  for (const auto& s : trace.steps) {
    p.step_names.push_back(s.name);
    spans += s.end_us - s.begin_us;
  }
  if (trace.annotated_steps && !trace.steps.empty())
    p.mean_step_span_us = spans / static_cast<double>(trace.steps.size());

  // The launches of each distinct (kind, name, grid, block, registers); then each distinct shape
  // is joined once and the shapes are grouped by (name, what they join to).
  double total = 0.0;
  const std::vector<TraceShape> shapes = launchesByShape(trace, total);
  std::vector<KernelGroup> groups = groupShapesByJoin(shapes, run);
  p.gpu_time_per_step_us = total / static_cast<double>(p.step_count);
  addKernelRows(groups, p);
  addCategoriesAndMatches(p);
  return p;
}

const ScanRow* configRowOf(const StepKernel& kernel, const StepRun& run) {
  if (run.rows == nullptr || kernel.config_row < 0 || static_cast<std::size_t>(kernel.config_row) >= run.rows->size()) {
    return nullptr;
  }
  return &(*run.rows)[static_cast<std::size_t>(kernel.config_row)];
}

std::string shortConfigLabel(const ScanRow& row, bool reduction) {
  auto n = [](const std::optional<std::int64_t>& v) { return v ? num(*v) : std::string("?"); };
  std::string s = "X" + n(row.xblock);
  if (reduction && row.r1_block && *row.r1_block > 0) s += " R1_" + num(*row.r1_block);
  if (reduction) s += " R" + n(row.r0_block);
  s += " w" + n(row.num_warps);
  if (row.num_stages && *row.num_stages > 1) s += " s" + num(*row.num_stages);
  return s;
}

const std::string& decisionOf(const ScanRow& row, inductor::Policy policy) {
  switch (policy) {
    case inductor::Policy::kOld:
      return row.old_decision;
    case inductor::Policy::kNew:
      return row.new_decision;
    case inductor::Policy::kReviewMin:
      return row.review_min_decision;
    case inductor::Policy::kExact:
      return row.exact_decision;
    case inductor::Policy::kSpills:
      return row.spills_decision;
  }
  return row.new_decision;
}

std::string stepText(const StepProfile& p, const StepRun& run) {
  std::string s;
  const std::string steps_text =
      p.annotated_steps ? num(p.step_count) + (p.step_count == 1 ? " step" : " steps") + " (ProfilerStep annotations)"
                        : "the whole trace as " + num(p.step_count) + (p.step_count == 1 ? " step" : " steps") +
                              " (no ProfilerStep annotations: the whole trace divided by the step count given)";
  std::int64_t launches = 0;
  for (const auto& k : p.kernels) launches += k.launches;
  const double per_step = static_cast<double>(launches) / p.step_count;
  s += "GPU time per step: " + ms(p.gpu_time_per_step_us) + " (summed device time of " + fixed(per_step, 0) +
       (per_step == 1.0 ? " launch" : " launches") + " per step: kernels, memcpys and memsets; " + steps_text +
       (p.mean_step_span_us > 0.0
            ? "; each step spans " + ms(p.mean_step_span_us) + (p.steps_on_gpu ? " on the GPU" : " on the CPU")
            : "") +
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
  s += "Triton kernels: " + ms(triton) + " (" + pct(triton_share) + ") — " +
       part(KernelCategory::kTritonLoopedReduction) + ", " + part(KernelCategory::kTritonPersistentReduction) + ", " +
       part(KernelCategory::kTritonPointwise) + ", " + part(KernelCategory::kTritonOther) + ".\n";
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
    s += (shown == 1 ? "Largest reduction" + std::string(reduction_count > 1 ? "s: " : ": ") : "; ") + k.name + " " +
         ms(k.per_step_us) + " per step (" + pct(k.share) + ", " +
         fixed(k.launches_per_step, k.launches_per_step == static_cast<int>(k.launches_per_step) ? 0 : 1) +
         (k.launches_per_step == 1.0 ? " launch" : " launches") + ")";
    if (const ScanRow* c = configRowOf(k, run)) {
      s += ", config " + shortConfigLabel(*c, true);
      const std::string& old_word = decisionOf(*c, inductor::Policy::kOld);
      const std::string& new_word = decisionOf(*c, inductor::Policy::kNew);
      if (!old_word.empty()) s += ", old bound: " + old_word + ", new bound: " + new_word;
    }
  }
  if (shown > 0) s += ".\n";
  if (run.rows != nullptr) {
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

CsvTable stepToCsv(const StepProfile& p, const StepRun& run) {
  CsvTable t;
  t.meta = {{"format", "step-profile"},
            {"trace", p.trace_path},
            {"run", p.run_input},
            {"device", p.device_name},
            {"steps", num(p.step_count)},
            {"steps_from",
             p.annotated_steps ? "ProfilerStep annotations" : "the whole trace divided by the step count given"},
            {"gpu_time_per_step_us", fixed(p.gpu_time_per_step_us, 3)},
            {"time", "in-step device time as torch.profiler recorded it (CUPTI kernel duration)"}};
  t.header = {"rank",
              "kernel",
              "category",
              "launches_per_step",
              "in_step_median_us",
              "in_step_per_step_us",
              "share_pct",
              "grid",
              "block",
              "match",
              "module",
              "config",
              "registers_per_thread",
              "n_spills",
              "theoretical_occupancy_pct"};
  for (inductor::Policy policy : inductor::kPolicies)
    t.header.push_back(std::string(inductor::policyKey(policy)) + "_decision");
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
                                    k.module};
    const ScanRow* c = configRowOf(k, run);
    row.push_back(c != nullptr ? shortConfigLabel(*c, isReduction(k.category)) : "");
    row.push_back(c != nullptr && c->n_regs ? num(*c->n_regs) : "");
    row.push_back(c != nullptr && c->n_spills ? num(*c->n_spills) : "");
    row.push_back(c != nullptr && c->occupancy_pct ? fixed(*c->occupancy_pct, 1) : "");
    for (inductor::Policy policy : inductor::kPolicies) row.push_back(c != nullptr ? decisionOf(*c, policy) : "");
    row.push_back(k.match_note);
    t.rows.push_back(std::move(row));
  }
  return t;
}

}  // namespace occx::step
