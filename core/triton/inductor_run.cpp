#include "core/triton/inductor_run.h"

#include <pwd.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/base/json_value.h"
#include "core/base/text.h"
#include "core/inductor/candidates.h"
#include "core/triton/run_table.h"

namespace occx::triton {
namespace {

namespace fs = std::filesystem;
using inductor::Decision;
using inductor::Outcome;
using inductor::Policy;
using inductor::ReductionConfig;

constexpr std::size_t kMaxModuleBytes = std::size_t{64} << 20;
/// Folder levels scanned below the input. Inductor's caches (<cache>/<2 chars>/<hash>.py) and
/// torch_compile_debug folders (run_*/torchinductor/model__*_inference_*/) are under 10 deep.
constexpr int kMaxFolderDepth = 32;

std::string stemOf(const std::string& path) {
  return fs::path(path).stem().string();
}

// ---- the device ------------------------------------------------------------------------------

// The Device of a module's DeviceProperties: the GPU data's limits for its CC, with the registers
// and threads per SM and the warp size Inductor recorded (the decision reads those).
void resolveDevice(RunKernel& k, const GpuDatabase& db) {
  if (!k.module.device || k.module.device->cc <= 0 || k.module.device->multi_processor_count <= 0) {
    k.device_label = "unknown device";
    k.notes.push_back(
        "the module records no device (DeviceProperties with cc and multi_processor_count): not analysed");
    return;
  }
  const InductorDevice& d = *k.module.device;
  const ComputeCapability cc{d.cc / 10, d.cc % 10};
  const ArchLimits* known = db.findArch(cc);
  if (known == nullptr) {
    k.device_label = "CC " + cc.str() + ", " + std::to_string(d.multi_processor_count) + " SMs";
    k.notes.push_back("CC " + cc.str() + " is not in the GPU data (known: " + db.ccList() + "): not analysed");
    return;
  }
  ArchLimits arch = *known;
  if (d.warp_size > 0) arch.warp_size = d.warp_size;
  if (d.regs_per_multiprocessor > 0) arch.registers_per_sm = d.regs_per_multiprocessor;
  if (d.max_threads_per_multi_processor > 0 && arch.warp_size > 0) {
    arch.max_warps_per_sm = d.max_threads_per_multi_processor / arch.warp_size;
  }
  if (d.max_threads_per_block > 0) arch.max_threads_per_block = d.max_threads_per_block;
  auto dev = makeDevice(arch, d.multi_processor_count);
  if (!dev) {
    k.device_label = "CC " + cc.str();
    k.notes.push_back(dev.error());
    return;
  }
  dev->rocm = d.type == "hip";
  k.device_label = dev->label;
  k.device = std::move(dev.value());
}

// ---- the configs -----------------------------------------------------------------------------

// The kwarg each size hint's tile dimension sets.
std::string blockOf(const std::string& hint) {
  if (hint == "x") return "XBLOCK";
  if (hint == "y") return "YBLOCK";
  if (hint == "z") return "ZBLOCK";
  if (hint == "r0_") return "R0_BLOCK";
  if (hint == "r1_") return "R1_BLOCK";
  return hint;
}

/// Largest tile dimension read from the IR (Inductor's blocks are at most 65536).
constexpr std::int64_t kMaxTileDim = std::int64_t{1} << 30;
/// Size hints the decision accepts (core/inductor/rblock_scaling: 1 … 2^31).
constexpr std::int64_t kMaxSizeHint = std::int64_t{1} << 31;

std::int64_t nextPow2(std::int64_t v) {
  std::int64_t p = 1;
  while (p < v && p < kMaxSizeHint) p *= 2;
  return p;
}

// The size hint `name` as the decision needs it: the integer Inductor wrote; else (a float, an
// expression, a symbol, missing) the kernel body's static numel rounded up to a power of two, as
// Inductor computes hints; else nothing. `problem` says what was wrong and what was used.
std::optional<std::int64_t> resolvedHint(const KernelModule& m, const std::string& name, std::string& problem) {
  const SizeHint* h = m.sizeHint(name);
  const std::string numel_name = name + "numel";  // "x" → "xnumel", "r0_" → "r0_numel"
  const std::optional<std::int64_t> numel = m.staticNumel(numel_name);
  std::string what;
  if (h == nullptr) {
    what = "size_hints has no '" + name + "'";
  } else if (h->value) {
    if (*h->value >= 1 && *h->value <= kMaxSizeHint) return *h->value;
    what = "size hint '" + name + "' is " + std::to_string(*h->value) + ": out of range (allowed 1 … 2^31)";
  } else {
    what = "size hint '" + name + "' is " + h->symbolic + ", not an integer";
  }
  if (numel && *numel >= 1 && *numel <= kMaxSizeHint) {
    const std::int64_t hint = nextPow2(*numel);
    problem = what + "; the kernel body's " + numel_name + " = " + std::to_string(*numel) + " is used (size hint " +
              std::to_string(hint) + ")";
    return hint;
  }
  problem = what + " and the kernel body fixes no " + numel_name + ": the RBLOCK decisions are not made";
  return std::nullopt;
}

RunConfig configOf(const KernelModule& m, const TritonCompiled& c) {
  RunConfig rc;
  rc.triton_cache_hash = c.triton_cache_hash;
  rc.folder = c.folder;
  rc.problems = c.problems;
  rc.warp_size = c.warp_size > 0 ? c.warp_size : 32;
  ReductionConfig& cfg = rc.config;
  cfg.num_warps = c.num_warps;
  cfg.num_stages = c.num_stages;
  cfg.r0_block = 0;
  const int rank = static_cast<int>(m.size_hints.size());
  std::vector<std::int64_t> tile = c.tile(rank);
  if (tile.empty() && rank > 1 && m.kind != KernelKind::kPointwise) {
    tile = c.tile(rank - 1);  // no_x_dim kernels: XBLOCK = 1, tensors without the x dimension
    if (!tile.empty()) tile.insert(tile.begin(), 1);
  }
  const bool reduction = m.kind == KernelKind::kLoopedReduction || m.kind == KernelKind::kPersistentReduction;
  const bool dims_ok = std::all_of(tile.begin(), tile.end(), [](std::int64_t d) { return d >= 1 && d <= kMaxTileDim; });
  if (reduction && m.sizeHint("r0_") == nullptr) {
    rc.problems.push_back(c.folder +
                          ": the module's size_hints name no 'r0_', so which IR dimension is R0_BLOCK "
                          "is unknown: the tile is not read");
  } else if (!tile.empty() && !dims_ok) {
    std::string shape;
    for (auto d : tile) shape += (shape.empty() ? "" : "x") + std::to_string(d);
    rc.problems.push_back(c.folder + ": the IR's tile " + shape +
                          " has a dimension outside 1 … 2^30: the tile is not read");
  } else if (tile.size() == m.size_hints.size()) {
    for (std::size_t i = 0; i < tile.size(); ++i) {
      const std::string block = blockOf(m.size_hints[i].name);
      const int v = static_cast<int>(tile[i]);
      if (block == "XBLOCK") cfg.xblock = v;
      if (block == "YBLOCK") rc.yblock = v;
      if (block == "R0_BLOCK") cfg.r0_block = v;
      if (block == "R1_BLOCK") cfg.r1_block = v;
    }
  } else {
    rc.problems.push_back(c.folder + ": the IR has no tensor of the kernel's " + std::to_string(rank) +
                          " dimensions, so the tile is unknown");
  }
  if (c.cubin && c.cubin->registers >= 0 && c.cubin->registers <= 255) {
    cfg.n_regs = c.cubin->registers;
    cfg.n_spills = c.cubin->tritonSpills();
    rc.local_bytes = c.cubin->localBytes();
    rc.static_shared_bytes = c.cubin->static_shared_bytes;
  } else if (c.cubin) {
    rc.problems.push_back(c.cubin_path + ": " +
                          (c.cubin->registers < 0 ? std::string("no REGCOUNT record for '") + c.name + "'"
                                                  : "REGCOUNT " + std::to_string(c.cubin->registers) + " of '" +
                                                        c.name + "' is beyond 255 registers per thread (damaged?)") +
                          ": registers and spills unknown");
  }
  // The target Triton compiled for, and the cubin's, against the device the module names.
  if (m.device && m.device->cc > 0 && (c.backend.empty() || c.backend == "cuda")) {
    const int cc = m.device->cc;
    if (c.arch > 0 && c.arch != cc) {
      rc.problems.push_back(c.folder + ": the Triton JSON's target arch " + std::to_string(c.arch) +
                            " is not the module's device (cc " + std::to_string(cc) + ")");
    }
    if (c.cubin && c.cubin_arch > 0 && c.cubin_arch != cc) {
      rc.problems.push_back(c.cubin_path + ": built for sm_" + std::to_string(c.cubin_arch) +
                            ", not the module's device (cc " + std::to_string(cc) + ")");
    }
  }
  rc.dynamic_shared_bytes = c.shared_bytes;
  cfg.shared_bytes = rc.static_shared_bytes + rc.dynamic_shared_bytes;
  if (m.meta.rsplit_size > 0) {
    // As torch/_inductor/runtime/triton_heuristics.py's persistent_reduction sets a mix-order config.
    rc.rsplit_size = m.meta.rsplit_size;
    const SizeHint* r0 = m.sizeHint("r0_");
    const std::int64_t r0_hint = r0 != nullptr && r0->value ? *r0->value : 0;
    const int max_stages = !m.meta.mix_order_multi_stages ? 1 : (r0_hint > 8192 ? 2 : 3);
    const int iterations = cfg.xblock > 0 ? rc.rsplit_size / cfg.xblock : 1;
    rc.mix_num_stages = std::min(std::max(iterations / 4, 1), max_stages);
  }
  return rc;
}

// The decision's view of the kernel. Size hints that are not integers Inductor could have written
// come from the kernel body's static numels, or are refused: `problems` gets a line for each, and
// `decidable` is false when a hint the decision needs is unknown (no decision on a guessed number).
inductor::KernelInfo kernelInfoOf(const KernelModule& m, std::vector<std::string>* problems = nullptr,
                                  bool* decidable = nullptr) {
  inductor::KernelInfo info;
  const bool reduction = m.kind == KernelKind::kLoopedReduction || m.kind == KernelKind::kPersistentReduction;
  bool ok = true;
  auto hint = [&](const char* name, std::int64_t fallback, bool needed) {
    if (!needed && m.sizeHint(name) == nullptr) return fallback;
    std::string problem;
    auto v = resolvedHint(m, name, problem);
    if (!problem.empty() && problems != nullptr) problems->push_back(m.path + ": " + problem);
    if (!v) ok = false;
    return v.value_or(fallback);
  };
  info.size_hints.x = hint("x", 1, reduction);
  info.size_hints.r0 = hint("r0_", 1, reduction);
  info.size_hints.r1 = hint("r1_", 0, false);
  if (decidable != nullptr) *decidable = ok;
  info.persistent_reduction = m.kind == KernelKind::kPersistentReduction;
  info.is_reduction = m.kind == KernelKind::kLoopedReduction || m.kind == KernelKind::kPersistentReduction;
  info.deterministic = m.meta.deterministic;
  info.dynamic_scale_rblock = m.meta.dynamic_scale_rblock.value_or(true);
  return info;
}

bool sameTile(const ReductionConfig& a, const ReductionConfig& b) {
  return a.xblock == b.xblock && a.r0_block == b.r0_block && a.r1_block == b.r1_block && a.num_warps == b.num_warps &&
         a.num_stages == b.num_stages;
}

// `child` is `parent` with its largest R block halved (as the scaling makes it).
bool isHalvedCopy(const ReductionConfig& parent, const ReductionConfig& child) {
  if (parent.xblock != child.xblock || parent.num_warps != child.num_warps || parent.num_stages != child.num_stages)
    return false;
  ReductionConfig h = parent;
  if (h.r1_block > h.r0_block) {
    h.r1_block /= 2;
  } else {
    h.r0_block /= 2;
  }
  return sameTile(h, child);
}

// Marks candidates, configs the current bound's scaling added, the coordinate-descent winner.
// Returns the candidates' indices in Inductor's candidate order (the order its loop visits them).
std::vector<int> classifyOrigins(RunKernel& k, const inductor::KernelInfo& info) {
  std::vector<ReductionConfig> candidates;
  if (k.module.kind == KernelKind::kLoopedReduction) {
    auto hint =
        inductor::parseReductionHint(lowerAscii(k.module.reduction_hint.empty() ? "default" : k.module.reduction_hint));
    inductor::CandidateOptions options;
    options.num_load = std::clamp(k.module.meta.num_load, 0, 1000);
    options.num_reduction = std::clamp(k.module.meta.num_reduction, 0, 1000);
    options.num_dynamic = std::clamp(k.module.dynamic_symbols, 0, 100);
    options.max_autotune = k.module.meta.max_autotune;
    options.add_persistent_rblock = k.module.meta.add_persistent_rblock;
    if (hint) {
      if (auto list =
              inductor::reductionCandidates(info.size_hints, *hint, inductor::Profile::kInductorCurrent, options)) {
        candidates = std::move(list.value());
      }
    }
  }
  std::vector<int> originals;
  for (const auto& candidate : candidates) {  // Inductor's order, not the table's
    for (std::size_t i = 0; i < k.configs.size(); ++i) {
      if (k.configs[i].origin != ConfigOrigin::kCandidate && sameTile(candidate, k.configs[i].config)) {
        k.configs[i].origin = ConfigOrigin::kCandidate;
        originals.push_back(static_cast<int>(i));
        break;
      }
    }
  }
  if (originals
          .empty()) {  // the candidate model does not cover this kernel: originals are those not halved from another
    for (std::size_t i = 0; i < k.configs.size(); ++i) {
      const bool halved = std::any_of(k.configs.begin(), k.configs.end(),
                                      [&](const RunConfig& p) { return isHalvedCopy(p.config, k.configs[i].config); });
      if (!halved) {
        k.configs[i].origin = ConfigOrigin::kCandidate;
        originals.push_back(static_cast<int>(i));
      }
    }
  }
  if (k.device && k.module.kind == KernelKind::kLoopedReduction) {
    std::vector<ReductionConfig> compiled;
    for (int i : originals) compiled.push_back(k.configs[static_cast<std::size_t>(i)].config);
    if (auto pass = inductor::runScalingPass(Policy::kNew, compiled, info, *k.device)) {
      for (const auto& e : pass->entries) {
        if (!e.added_by_pass) continue;
        auto it = std::find_if(k.configs.begin(), k.configs.end(),
                               [&](const RunConfig& rc) { return sameTile(rc.config, e.config); });
        if (it == k.configs.end()) {
          k.missing_added.push_back(e.config);
          continue;
        }
        it->origin = ConfigOrigin::kAddedByScaling;
        it->parent = e.parent >= 0 && static_cast<std::size_t>(e.parent) < originals.size()
                         ? originals[static_cast<std::size_t>(e.parent)]
                         : -1;
      }
    }
  }
  if (k.winner >= 0 && k.best && k.best->found_by_coordesc) {
    RunConfig& w = k.configs[static_cast<std::size_t>(k.winner)];
    if (w.origin == ConfigOrigin::kOther) w.origin = ConfigOrigin::kCoordinateDescent;
  }
  if (!k.missing_added.empty()) {
    k.notes.push_back(
        std::to_string(k.missing_added.size()) +
        " config(s) the current bound adds are not in the Triton cache read: " + k.missing_added.front().str());
  }
  return originals;
}

bool wantsHalving(const Decision& d) {
  return d.outcome == Outcome::kScale || d.outcome == Outcome::kDuplicate;
}

// Whether the four occupancy bounds disagree (the spills rule is not a bound and is not counted).
void setBoundsDisagree(RunConfig& rc) {
  if (rc.decisions.size() != inductor::kPolicies.size()) return;
  const bool first = wantsHalving(rc.decisions.front());
  rc.bounds_disagree = std::any_of(rc.decisions.begin(), rc.decisions.end(), [&](const Decision& d) {
    return d.policy != Policy::kSpills && wantsHalving(d) != first;
  });
}

// Occupancy of one config, and the decisions of a config Inductor did not start from (added by
// the scaling, or found in the cache from elsewhere). Candidates get theirs from decideCandidates.
void analyseConfig(RunKernel& k, RunConfig& rc, const inductor::KernelInfo& info,
                   const std::vector<ReductionConfig>& everything, bool decidable) {
  const ReductionConfig& cfg = rc.config;
  rc.over_spill_threshold = cfg.n_spills && *cfg.n_spills > k.spillThreshold();
  if (!k.device || !cfg.n_regs) return;
  if (rc.static_shared_bytes > k.device->arch.shared_memory_per_block) {
    rc.problems.push_back(rc.folder + ": the cubin claims " + std::to_string(rc.static_shared_bytes) +
                          " B of static shared memory, over the " +
                          std::to_string(k.device->arch.shared_memory_per_block) +
                          " B a kernel can hold statically: it cannot launch as read (a damaged cubin?)");
  }
  OccupancyInput in;
  in.threads_per_block = cfg.num_warps * k.device->warpSize();
  in.registers_per_thread = *cfg.n_regs;
  // As the cubin says: more than the 48 KB a kernel may hold statically is refused by the calculator
  // (a problem of this config), never clamped.
  in.static_smem_bytes = rc.static_shared_bytes;
  in.dynamic_smem_bytes = rc.dynamic_shared_bytes;
  in.sm_count = k.device->sm_count;
  const std::int64_t xnumel = k.module.staticNumel("xnumel").value_or(decidable ? info.size_hints.x : 0);
  // Divide first: xnumel + XBLOCK - 1 overflows for a damaged xnumel near 2^63.
  if (cfg.xblock > 0 && xnumel > 0) in.grid_blocks = xnumel / cfg.xblock + (xnumel % cfg.xblock != 0 ? 1 : 0);
  if (auto occ = computeOccupancy(k.device->arch, in, false)) {
    rc.occupancy = std::move(occ.value());
  } else {
    rc.problems.push_back(occ.error());
  }
  if (k.module.kind != KernelKind::kLoopedReduction && k.module.kind != KernelKind::kPersistentReduction) return;
  if (!decidable || cfg.r0_block < 1 || rc.origin == ConfigOrigin::kCandidate) return;
  for (Policy p : inductor::kPolicies) {
    if (rc.origin == ConfigOrigin::kAddedByScaling) {  // as Inductor: the loop skips the configs it appended
      Decision d;
      d.policy = p;
      d.outcome = Outcome::kNotApplicable;
      d.step = 2;
      d.reason =
          "added by the scaling pass: Inductor does not examine the configs it adds (their n_regs is not known until "
          "they are loaded, after the loop)";
      rc.decisions.push_back(std::move(d));
      continue;
    }
    auto d = inductor::decide(p, cfg, info, *k.device, {}, &everything);
    if (d) {
      rc.decisions.push_back(std::move(d.value()));
    } else {
      rc.problems.push_back(std::string(inductor::policyKey(p)) + ": " + d.error());
    }
  }
  setBoundsDisagree(rc);
}

// Each policy's decision on each candidate, from that policy's own scaling pass over the candidates
// in Inductor's order: what a config added earlier in the loop makes a duplicate is as Inductor sees it.
void decideCandidates(RunKernel& k, const inductor::KernelInfo& info, const std::vector<int>& originals) {
  if (!k.device || originals.empty()) return;
  std::vector<ReductionConfig> compiled;
  for (int i : originals) compiled.push_back(k.configs[static_cast<std::size_t>(i)].config);
  for (Policy p : inductor::kPolicies) {
    auto pass = inductor::runScalingPass(p, compiled, info, *k.device);
    if (!pass) {
      for (int i : originals)
        k.configs[static_cast<std::size_t>(i)].problems.push_back(std::string(inductor::policyKey(p)) + ": " +
                                                                  pass.error());
      continue;
    }
    for (std::size_t j = 0, o = 0; j < pass->entries.size() && o < originals.size(); ++j) {
      if (pass->entries[j].added_by_pass) continue;
      k.configs[static_cast<std::size_t>(originals[o++])].decisions.push_back(pass->entries[j].decision);
    }
  }
  for (int i : originals) setBoundsDisagree(k.configs[static_cast<std::size_t>(i)]);
}

int findWinner(const RunKernel& k) {
  if (!k.best) return -1;
  const BestConfig& b = *k.best;
  for (std::size_t i = 0; i < k.configs.size(); ++i) {
    if (!b.triton_cache_hash.empty() && k.configs[i].triton_cache_hash == b.triton_cache_hash)
      return static_cast<int>(i);
  }
  for (std::size_t i = 0; i < k.configs.size(); ++i) {
    const RunConfig& rc = k.configs[i];
    const ReductionConfig& c = rc.config;
    if (c.xblock == b.xblock && c.r0_block == b.r0_block && c.r1_block == b.r1_block && rc.yblock == b.yblock &&
        c.num_warps == b.num_warps && (b.num_stages == 0 || c.num_stages == b.num_stages)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

// ---- files -----------------------------------------------------------------------------------

std::string userName() {
  for (const char* var : {"LOGNAME", "USER", "LNAME", "USERNAME"}) {
    const char* v = std::getenv(var);
    if (v != nullptr && *v != '\0') return v;
  }
  if (const passwd* pw = getpwuid(getuid()); pw != nullptr && pw->pw_name != nullptr) return pw->pw_name;
  return "unknown";
}

struct Found {
  std::vector<KernelModule> modules;
  std::map<std::string, int> modules_in_folder;  ///< kernel modules per folder, for matching .best_config files
  std::set<std::size_t> wrapper_texts;           ///< hashes of the wrappers read (one wrapper, several copies)
  std::vector<WrapperModule> wrappers;
  std::vector<BestConfig> best;
  std::vector<std::string> triton_roots;
  std::vector<std::string> problems;
  int files = 0;
};

// What a non-regular entry is, in words: "a FIFO", "a socket", "a broken symbolic link".
std::string fileTypeOf(const fs::directory_entry& e) {
  std::error_code ec;
  switch (e.status(ec).type()) {
    case fs::file_type::fifo:
      return "a FIFO";
    case fs::file_type::socket:
      return "a socket";
    case fs::file_type::character:
      return "a character device";
    case fs::file_type::block:
      return "a block device";
    case fs::file_type::not_found:
      return e.is_symlink(ec) ? "a broken symbolic link" : "gone";
    default:
      return ec ? ec.message() : "of another kind";
  }
}

void readPython(const fs::path& p, Found& f) {
  auto text = readFile(p.string(), kMaxModuleBytes);
  ++f.files;
  if (!text) {
    f.problems.push_back(text.error());
    return;
  }
  if (looksLikeWrapperModule(*text)) {
    // The cache's copy, <hash>.debug/output_code.py and torch_compile_debug's are one wrapper.
    if (!f.wrapper_texts.insert(std::hash<std::string>{}(*text)).second) return;
    if (auto w = parseWrapperModule(*text, p.string())) {
      for (const auto& warning : w->warnings) f.problems.push_back(p.string() + " " + warning);
      f.wrappers.push_back(std::move(w.value()));
    }
  } else if (looksLikeKernelModule(*text)) {
    auto m = parseKernelModule(*text, p.string());
    ++f.modules_in_folder[p.parent_path().string()];
    if (m) {
      f.modules.push_back(std::move(m.value()));
    } else {
      f.problems.push_back(m.error());
    }
  }
}

void readBest(const fs::path& p, Found& f) {
  ++f.files;
  auto text = readFile(p.string(), 1 << 20);
  if (!text) {
    f.problems.push_back(text.error());
    return;
  }
  auto b = readBestConfig(*text, p.string());
  if (b) {
    f.best.push_back(std::move(b.value()));
  } else {
    f.problems.push_back(b.error());
  }
}

// Device folders of Inductor's Triton cache: <cache>/triton/<index>/.
void addTritonRoots(const fs::path& cache, Found& f) {
  std::error_code ec;
  const fs::path t = cache / "triton";
  if (!fs::is_directory(t, ec)) return;
  for (const std::string& e : listFolder(t.string())) {
    if (fs::is_directory(e, ec)) f.triton_roots.push_back(e);
  }
}

// A lone kernel module or wrapper: it, the .best_config files beside it, and the Triton cache of
// its Inductor cache; the kernel modules beside it are counted.
std::optional<Error> readLoneModule(const fs::path& in, const std::string& input, Found& f) {
  readPython(in, f);
  if (f.modules.empty() && f.wrappers.empty()) {
    return Error{input + ": not an Inductor kernel module or wrapper" +
                 (f.problems.empty() ? std::string() : " (" + f.problems.front() + ")")};
  }
  addTritonRoots(in.parent_path().parent_path(), f);
  for (const std::string& sibling : listFolder(in.parent_path().string())) {
    const fs::path sib(sibling);
    if (sib.extension() == ".best_config") readBest(sib, f);
    // The kernel modules beside it count for matching a .best_config, read or not.
    if (sib.extension() == ".py" && sib != in) {
      if (auto text = readFile(sibling, kMaxModuleBytes);
          text && looksLikeKernelModule(*text) && !looksLikeWrapperModule(*text)) {
        ++f.modules_in_folder[in.parent_path().string()];
      }
    }
  }
  if (!f.modules.empty()) ++f.modules_in_folder[in.parent_path().string()];
  return std::nullopt;
}

// A folder, recursively: its Python files and .best_config files, skipping hidden folders and
// Triton caches (which become Triton roots), at most kMaxFolderDepth levels down.
std::optional<Error> readRunFolder(const fs::path& in, const std::string& input, Found& f,
                                   const std::atomic<bool>* cancel) {
  std::error_code ec;
  fs::recursive_directory_iterator it(in, fs::directory_options::skip_permission_denied, ec);
  if (ec) return Error{input + ": " + ec.message()};
  int too_deep = 0;
  std::string first_too_deep;
  for (; it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (ec) {
      f.problems.push_back(input + ": " + ec.message());
      break;
    }
    if (cancel != nullptr && cancel->load()) return Error::cancellation();
    const fs::path& p = it->path();
    const std::string name = p.filename().string();
    if (it->is_directory(ec)) {
      if (name == "triton" || (name.size() > 1 && name[0] == '.')) {
        it.disable_recursion_pending();
      } else if (it.depth() + 1 >= kMaxFolderDepth) {
        // The iterator keeps one open folder and its path per level: without a limit a folder
        // chain thousands deep costs memory growing with its depth squared.
        it.disable_recursion_pending();
        if (too_deep++ == 0) first_too_deep = p.string();
      }
      if (name == "triton") addTritonRoots(p.parent_path(), f);
      continue;
    }
    const bool python = p.extension() == ".py";
    const bool best = p.extension() == ".best_config";
    if (!python && !best) continue;
    if (!it->is_regular_file(ec)) {
      f.problems.push_back(p.string() + ": skipped: not a regular file (" + fileTypeOf(*it) + ")");
      continue;
    }
    if (python) readPython(p, f);
    if (best) readBest(p, f);
  }
  if (too_deep > 0) {
    f.problems.push_back(first_too_deep + ": not read: folders more than " + std::to_string(kMaxFolderDepth) +
                         " levels below " + input + " are not scanned (Inductor's caches are under 10 deep)" +
                         (too_deep > 1 ? "; " + std::to_string(too_deep - 1) + " more such folders" : std::string()));
  }
  return std::nullopt;
}

// The Triton caches the options name (and ~/.triton/cache), or else the default Inductor cache's;
// sorted, each once.
void addOptionTritonRoots(const RunScanOptions& o, Found& f) {
  std::error_code ec;
  for (const auto& t : o.triton_caches) f.triton_roots.push_back(t);
  if (o.home_triton_cache) {
    if (const char* home = std::getenv("HOME"); home != nullptr && *home != '\0') {
      const fs::path h = fs::path(home) / ".triton" / "cache";
      if (fs::is_directory(h, ec)) f.triton_roots.push_back(h.string());
    }
  }
  // A debug folder or a lone module: the default Inductor cache's Triton folders hold their configs.
  if (f.triton_roots.empty() && o.input != defaultInductorCacheDir()) addTritonRoots(defaultInductorCacheDir(), f);
  std::sort(f.triton_roots.begin(), f.triton_roots.end());
  f.triton_roots.erase(std::unique(f.triton_roots.begin(), f.triton_roots.end()), f.triton_roots.end());
}

Expected<Found> findFiles(const RunScanOptions& o, const std::string& input, const std::atomic<bool>* cancel) {
  Found f;
  std::error_code ec;
  const fs::path in(input);
  if (!fs::exists(in, ec)) {
    return Error{input + " does not exist" +
                 (o.input.empty()
                      ? " (the default Inductor cache; give a folder, e.g. the TORCHINDUCTOR_CACHE_DIR of a run)"
                      : "")};
  }
  if (fs::is_regular_file(in, ec)) {
    if (auto e = readLoneModule(in, input, f)) return *e;
  } else {
    if (auto e = readRunFolder(in, input, f, cancel)) return *e;
  }
  addOptionTritonRoots(o, f);
  return f;
}

// Kernel modules, plus the kernels wrappers embed whose module file was not found; one per hash.
std::vector<KernelModule> uniqueModules(Found& f) {
  std::map<std::string, KernelModule> by_hash;
  for (auto& m : f.modules) by_hash.emplace(m.module_hash, std::move(m));
  for (const auto& w : f.wrappers) {
    for (const auto& e : w.kernels) {
      const std::string hash = e.module_path.empty() ? w.path + "#" + e.name : stemOf(e.module_path);
      if (by_hash.count(hash) != 0) continue;
      auto m = parseKernelModule(e.source, e.module_path.empty() ? w.path + "#" + e.name : e.module_path);
      if (!m) {
        f.problems.push_back(w.path + " line " + std::to_string(e.line) + ": " + m.error());
        continue;
      }
      m->module_hash = hash;
      by_hash.emplace(hash, std::move(m.value()));
    }
  }
  std::vector<KernelModule> out;
  for (auto& [hash, m] : by_hash) out.push_back(std::move(m));
  return out;
}

void attachLaunches(RunKernel& k, const std::vector<WrapperModule>& wrappers, int modules_with_name) {
  for (const auto& w : wrappers) {
    std::string embedded_hash;
    for (const auto& e : w.kernels) {
      if (e.name == k.module.name) embedded_hash = e.module_path.empty() ? std::string() : stemOf(e.module_path);
    }
    const bool ours = embedded_hash.empty() ? modules_with_name == 1 : embedded_hash == k.module.module_hash;
    if (!ours) continue;
    for (const auto& l : w.launches) {
      if (l.kernel != k.module.name) continue;
      KernelLaunchInfo info;
      info.wrapper = w.path;
      info.line = l.line;
      std::size_t a = 0;
      for (const auto& s : k.module.signature) {
        if (s.isConstexpr()) continue;
        LaunchArgumentInfo arg;
        arg.name = s.name;
        arg.type = s.type;
        if (a < l.args.size()) arg.value = l.args[a];
        ++a;
        if (const WrapperBuffer* b = w.buffer(arg.value)) arg.buffer = *b;
        const auto& mutated = k.module.meta.mutated_arg_names;
        arg.mutated = std::find(mutated.begin(), mutated.end(), s.name) != mutated.end();
        info.arguments.push_back(std::move(arg));
      }
      k.launches.push_back(std::move(info));
    }
  }
}

}  // namespace

std::string_view configOriginName(ConfigOrigin origin) {
  switch (origin) {
    case ConfigOrigin::kCandidate:
      return "candidate";
    case ConfigOrigin::kAddedByScaling:
      return "added by scaling";
    case ConfigOrigin::kCoordinateDescent:
      return "coordinate descent";
    case ConfigOrigin::kOther:
      return "other";
  }
  return "other";
}

Expected<BestConfig> readBestConfig(std::string_view json_text, std::string path) {
  const nlohmann::json j = nlohmann::json::parse(json_text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Error{path + ": not a JSON object (a .best_config holds the autotuner's winner)"};
  BestConfig b;
  b.path = std::move(path);
  // Integers within 0 … 2^31-1 (integerValue): a num_warps of 4294967304 is refused, never read as 8.
  std::string bad;
  auto integer = [&](const char* key, int& field) {
    if (!j.contains(key) || j[key].is_null()) return;
    auto v = integerValue<int>(j, key, field);
    if (v && *v >= 0) {
      field = *v;
    } else if (bad.empty()) {
      bad = std::string(key) + " is " + j[key].dump();
    }
  };
  integer("XBLOCK", b.xblock);
  integer("YBLOCK", b.yblock);
  integer("R0_BLOCK", b.r0_block);
  if (b.r0_block == 0) integer("RBLOCK", b.r0_block);
  integer("R1_BLOCK", b.r1_block);
  integer("num_warps", b.num_warps);
  integer("num_stages", b.num_stages);
  if (!bad.empty()) return Error{b.path + ": " + bad + ": not an integer within 0 … 2147483647"};
  if (b.num_warps <= 0) return Error{b.path + ": no num_warps (not a best config of this Inductor version?)"};
  if (j.contains("found_by_coordesc") && j["found_by_coordesc"].is_boolean())
    b.found_by_coordesc = j["found_by_coordesc"].get<bool>();
  if (j.contains("time_taken_ms") && j["time_taken_ms"].is_number_integer())
    b.time_taken_ms = integerValue<std::int64_t>(j, "time_taken_ms", 0);  // beyond 2^63: unknown
  if (j.contains("triton_cache_hash") && j["triton_cache_hash"].is_string())
    b.triton_cache_hash = j["triton_cache_hash"].get<std::string>();
  if (j.contains("configs_hash") && j["configs_hash"].is_string())
    b.configs_hash = j["configs_hash"].get<std::string>();
  return b;
}

const Decision* RunConfig::decision(Policy policy) const {
  for (const auto& d : decisions) {
    if (d.policy == policy) return &d;
  }
  return nullptr;
}

bool RunKernel::analysed() const {
  return module.kind == KernelKind::kLoopedReduction || module.kind == KernelKind::kPersistentReduction;
}

int RunKernel::spillThreshold() const {
  return module.meta.spill_threshold.value_or(inductor::kSpillThreshold);
}

std::string defaultInductorCacheDir() {
  if (const char* dir = std::getenv("TORCHINDUCTOR_CACHE_DIR"); dir != nullptr && *dir != '\0') return dir;
  std::string tmp = "/tmp";
  if (const char* t = std::getenv("TMPDIR"); t != nullptr && *t != '\0') tmp = t;
  std::string user = userName();
  for (char& c : user) {
    if (std::string_view("\\/:*?\"<>|").find(c) != std::string_view::npos) c = '_';
  }
  return (fs::path(tmp) / ("torchinductor_" + user)).string();
}

RunKernel analyseKernel(KernelModule module, const std::vector<const TritonCompiled*>& compiled,
                        std::optional<BestConfig> best, const GpuDatabase& db) {
  RunKernel k;
  k.module = std::move(module);
  k.best = std::move(best);
  resolveDevice(k, db);
  if (!k.analysed()) {
    k.notes.push_back(std::string(kernelKindName(k.module.kind)) + " kernel: listed, not analysed");
    return k;
  }
  std::set<std::string> seen;
  for (const TritonCompiled* c : compiled) {
    if (!seen.insert(c->triton_cache_hash).second) continue;
    k.configs.push_back(configOf(k.module, *c));
  }
  std::sort(k.configs.begin(), k.configs.end(), [](const RunConfig& a, const RunConfig& b) {
    const auto& x = a.config;
    const auto& y = b.config;
    return std::tie(x.xblock, x.r0_block, x.r1_block, x.num_warps, x.num_stages, a.triton_cache_hash) <
           std::tie(y.xblock, y.r0_block, y.r1_block, y.num_warps, y.num_stages, b.triton_cache_hash);
  });
  k.winner = findWinner(k);
  if (k.winner >= 0) k.configs[static_cast<std::size_t>(k.winner)].winner = true;
  if (k.best && k.winner < 0)
    k.notes.push_back("the best config (" + k.best->path + ") matches no compiled config in the cache");
  if (!k.best && k.configs.size() > 1) {
    k.notes.push_back(
        "no .best_config beside the module: the autotuner's choice is not on disk (the kernel did not run, or "
        "the autotune cache was off)");
  }
  if (k.module.meta.rsplit_size > 0) {
    const auto xnumel = k.module.staticNumel("xnumel");
    const std::int64_t rsplit = k.module.meta.rsplit_size;
    k.notes.push_back(
        "mix-order reduction (" +
        (k.module.meta.grid_type.empty() ? std::string("no grid_type") : k.module.meta.grid_type) +
        "): each program reduces RSPLIT_SIZE=" + std::to_string(rsplit) +
        " rows, XBLOCK at a time, and writes its partial column sums to ws_ptr; grid ⌈xnumel / RSPLIT_SIZE⌉" +
        (xnumel ? " = " + std::to_string((*xnumel + rsplit - 1) / rsplit) + " programs" : std::string()) +
        ". A persistent reduction: the RBLOCK scaling does not apply");
  }
  bool decidable = true;
  const inductor::KernelInfo info = kernelInfoOf(k.module, &k.problems, &decidable);
  std::vector<int> originals;
  if (decidable) {
    originals = classifyOrigins(k, info);
    decideCandidates(k, info, originals);
  }
  // Configs found from elsewhere (coordinate descent, other runs) are checked against everything found.
  std::vector<ReductionConfig> everything;
  for (const auto& rc : k.configs) everything.push_back(rc.config);
  for (auto& rc : k.configs) analyseConfig(k, rc, info, everything, decidable);
  if (k.configs.empty()) k.notes.push_back("no compiled config of this kernel is in the Triton caches read");
  return k;
}

std::vector<const RunKernel*> InductorRun::findKernels(std::string_view key) const {
  std::vector<const RunKernel*> exact;
  std::vector<const RunKernel*> partial;
  for (const auto& k : kernels) {
    if (k.module.name == key || k.module.module_hash == key)
      exact.push_back(&k);
    else if (k.module.name.find(key) != std::string::npos)
      partial.push_back(&k);
  }
  return exact.empty() ? partial : exact;
}

namespace {
Expected<InductorRun> scanRun(const RunScanOptions& options, const std::function<void(const ScanProgress&)>& progress,
                              const std::atomic<bool>* cancel);
}  // namespace

Expected<InductorRun> scanInductorRun(const RunScanOptions& options,
                                      const std::function<void(const ScanProgress&)>& progress,
                                      const std::atomic<bool>* cancel) {
  // Files are outside data: whatever a library throws on them (a filesystem error, a JSON value of
  // an unexpected type) is an error of this scan, never an exception out of it.
  try {
    return scanRun(options, progress, cancel);
  } catch (const std::exception& e) {
    return Error{"reading " + (options.input.empty() ? defaultInductorCacheDir() : options.input) +
                 " failed: " + e.what()};
  }
}

namespace {

using ScanProgressFn = std::function<void(const ScanProgress&)>;

// Reports a phase of the scan, when someone listens.
void reportScan(const ScanProgressFn& progress, const char* phase, int done, int total) {
  if (progress) progress({phase, done, total});
}

// The configs Triton compiled of the wanted kernels (by name), from every Triton cache found; the
// caches read and their problems go into the run.
Expected<std::vector<TritonCompiled>> readTritonCaches(const Found& f, const std::vector<KernelModule>& modules,
                                                       InductorRun& run, const ScanProgressFn& progress,
                                                       const std::atomic<bool>* cancel) {
  std::vector<std::string> wanted;
  for (const auto& m : modules) wanted.push_back(m.name);
  std::sort(wanted.begin(), wanted.end());
  wanted.erase(std::unique(wanted.begin(), wanted.end()), wanted.end());
  std::vector<TritonCompiled> compiled;
  for (std::size_t i = 0; i < f.triton_roots.size(); ++i) {
    reportScan(progress, "reading Triton caches", static_cast<int>(i), static_cast<int>(f.triton_roots.size()));
    TritonCacheScan scan = scanTritonCache(f.triton_roots[i], wanted, cancel);
    if (cancel != nullptr && cancel->load()) return Error::cancellation();
    run.triton_caches.push_back(f.triton_roots[i]);
    run.files_read += static_cast<int>(scan.compiled.size());
    run.problems.insert(run.problems.end(), scan.problems.begin(), scan.problems.end());
    for (auto& c : scan.compiled) compiled.push_back(std::move(c));
  }
  return compiled;
}

// The compiled configs by the hash of their kernel module (a config without a module path goes to
// the one module of its kernel's name), and the module hash of each Triton folder.
struct CompiledByModule {
  std::map<std::string, std::vector<const TritonCompiled*>> configs;  // module hash → configs
  std::map<std::string, std::string> module_of_cache_hash;
};

// Groups the compiled configs by module (name_count: kernel modules per kernel name).
CompiledByModule compiledByModule(const std::vector<TritonCompiled>& compiled, const std::vector<KernelModule>& modules,
                                  std::map<std::string, int>& name_count) {
  CompiledByModule out;
  for (const auto& c : compiled) {
    std::string hash = stemOf(c.module_path);
    if (c.module_path.empty() && name_count[c.name] == 1) {
      for (const auto& m : modules) {
        if (m.name == c.name) hash = m.module_hash;
      }
    }
    out.configs[hash].push_back(&c);
    out.module_of_cache_hash[c.triton_cache_hash] = hash;
  }
  return out;
}

// The kernel modules found in `folder`, read or not.
int modulesInFolder(const Found& f, const std::string& folder) {
  return f.modules_in_folder.count(folder) != 0 ? f.modules_in_folder.at(folder) : 0;
}

// Best configs by module hash: by the Triton folder they name, else by the one kernel module beside
// them. Those naming a Triton folder that was not read go to `unread`; the others that match no
// kernel, and second ones, are problems of the run.
std::map<std::string, BestConfig> matchBestConfigs(const Found& f, const std::vector<KernelModule>& modules,
                                                   const std::map<std::string, std::string>& module_of_cache_hash,
                                                   std::vector<const BestConfig*>& unread, InductorRun& run) {
  std::map<std::string, BestConfig> best_of;
  for (const auto& b : f.best) {
    std::string hash;
    const std::string folder = fs::path(b.path).parent_path().string();
    if (auto it = module_of_cache_hash.find(b.triton_cache_hash);
        !b.triton_cache_hash.empty() && it != module_of_cache_hash.end()) {
      hash = it->second;
    } else if (!b.triton_cache_hash.empty()) {
      unread.push_back(&b);  // decided below, once the others are matched
      continue;
    } else {
      std::vector<std::string> beside;
      for (const auto& m : modules) {
        if (fs::path(m.path).parent_path().string() == folder) beside.push_back(m.module_hash);
      }
      const int present = modulesInFolder(f, folder);
      if (beside.size() == 1 && present <= 1) {
        hash = beside.front();
      } else {
        run.problems.push_back(b.path + ": names no Triton folder (coordinate descent) and " +
                               (present == 0 ? std::string("no kernel module is beside it")
                                             : std::to_string(present) + " kernel modules are beside it") +
                               ", so it matches no kernel");
        continue;
      }
    }
    if (!best_of.emplace(hash, b).second) {
      run.problems.push_back(b.path + ": a second best config for kernel module " + hash + " (kept " +
                             best_of.at(hash).path + ")");
    }
  }
  return best_of;
}

// A .best_config naming a Triton folder not read. Beside no analysed kernel it could be the winner
// of that lacks a best config of its own: another kernel's (a pointwise one, whose winner is not
// used, or one not asked for).
// Beside such a kernel: the folder is missing or could not be read; it is a problem, and a kernel
// alone in its folder keeps the .best_config (matched to no compiled config).
void matchUnreadBestConfigs(const Found& f, const std::vector<KernelModule>& modules,
                            const std::vector<const BestConfig*>& unread, std::map<std::string, BestConfig>& best_of,
                            InductorRun& run) {
  for (const BestConfig* b : unread) {
    const std::string folder = fs::path(b->path).parent_path().string();
    std::vector<std::string> waiting;  // analysed kernels beside it without a best config
    for (const auto& m : modules) {
      if (fs::path(m.path).parent_path().string() != folder) continue;
      // A looped reduction's winner has an R block; a persistent reduction's has none.
      const bool could_be = (m.kind == KernelKind::kLoopedReduction && b->r0_block > 0) ||
                            (m.kind == KernelKind::kPersistentReduction && b->r0_block == 0);
      if (could_be && best_of.count(m.module_hash) == 0) waiting.push_back(m.module_hash);
    }
    if (waiting.empty()) continue;
    run.problems.push_back(b->path + ": names Triton folder " + b->triton_cache_hash +
                           ", which was not read (missing, unreadable or not a Triton folder)");
    const int present = modulesInFolder(f, folder);
    if (waiting.size() == 1 && present <= 1) best_of.emplace(waiting.front(), *b);
  }
}

Expected<InductorRun> scanRun(const RunScanOptions& options, const ScanProgressFn& progress,
                              const std::atomic<bool>* cancel) {
  const GpuDatabase& db = options.db != nullptr ? *options.db : GpuDatabase::builtin();
  InductorRun run;
  run.input = options.input.empty() ? defaultInductorCacheDir() : options.input;
  reportScan(progress, "reading modules", 0, 0);
  auto found = findFiles(options, run.input, cancel);
  if (!found) return found.cancelled() ? Error::cancellation() : Error{found.error()};
  Found& f = found.value();
  run.files_read = f.files;
  run.problems = f.problems;
  std::vector<KernelModule> modules = uniqueModules(f);
  run.problems.insert(run.problems.end(), f.problems.begin() + static_cast<std::ptrdiff_t>(run.problems.size()),
                      f.problems.end());
  if (modules.empty()) {
    return Error{"no Inductor kernel modules under " + run.input +
                 " (looked for .py files with @triton_heuristics decorators, and wrappers with async_compile.triton)" +
                 (run.problems.empty() ? std::string()
                                       : "; " + std::to_string(run.problems.size()) +
                                             " files could not be read, the first: " + run.problems.front())};
  }
  auto compiled = readTritonCaches(f, modules, run, progress, cancel);
  if (!compiled) return Error::cancellation();

  std::map<std::string, int> name_count;
  for (const auto& m : modules) ++name_count[m.name];
  CompiledByModule by_module = compiledByModule(*compiled, modules, name_count);
  std::vector<const BestConfig*> unread;  // naming a Triton folder that was not read
  std::map<std::string, BestConfig> best_of = matchBestConfigs(f, modules, by_module.module_of_cache_hash, unread, run);
  matchUnreadBestConfigs(f, modules, unread, best_of, run);

  const int total = static_cast<int>(modules.size());
  for (int i = 0; i < total; ++i) {
    if (cancel != nullptr && cancel->load()) return Error::cancellation();
    if (i % 16 == 0) reportScan(progress, "analysing", i, total);
    KernelModule& m = modules[static_cast<std::size_t>(i)];
    const std::string hash = m.module_hash;
    std::optional<BestConfig> best;
    if (auto it = best_of.find(hash); it != best_of.end()) best = it->second;
    RunKernel k = analyseKernel(std::move(m), by_module.configs[hash], std::move(best), db);
    attachLaunches(k, f.wrappers, name_count[k.module.name]);
    run.kernels.push_back(std::move(k));
  }
  reportScan(progress, "analysing", total, total);
  std::stable_sort(run.kernels.begin(), run.kernels.end(), [](const RunKernel& a, const RunKernel& b) {
    return std::tie(a.device_label, a.module.name, a.module.module_hash) <
           std::tie(b.device_label, b.module.name, b.module.module_hash);
  });

  run.summary = summarizeRows(scanRows(run));
  return run;
}
}  // namespace

}  // namespace occx::triton

namespace occx::triton {
namespace {

std::string counted(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// "3 configs Inductor compiled (1 added by RBLOCK scaling)", then " + 88 a sweep added".
std::string configsClause(const RunSummary& s) {
  std::string t = counted(s.inductorConfigs(), "config", "configs") + " Inductor compiled";
  if (s.added_by_scaling > 0) t += " (" + std::to_string(s.added_by_scaling) + " added by RBLOCK scaling)";
  if (s.added_by_sweep > 0) t += " + " + std::to_string(s.added_by_sweep) + " a sweep added";
  return t;
}

// Whether the old and new bounds agree; with a sweep's configs, Inductor's and the sweep's apart.
std::string boundsClause(const RunSummary& s) {
  std::string t;
  if (s.added_by_sweep > 0) {
    t = "; the old and new bounds disagree on " + std::to_string(s.old_new_disagree - s.old_new_disagree_swept) +
        " of Inductor's configs and " + std::to_string(s.old_new_disagree_swept) + " of the sweep's";
  } else if (s.old_new_disagree == 0) {
    t = s.undecided == 0 ? "; the old and new bounds agree on every one"
                         : "; the old and new bounds agree on every one decided";
  } else {
    t = "; the old and new bounds disagree on " + counted(s.old_new_disagree, "config", "configs");
  }
  if (s.any_disagree > s.old_new_disagree) t += " (some of the four bounds on " + std::to_string(s.any_disagree) + ")";
  if (s.undecided > 0) {
    t += "; " + counted(s.undecided, "config", "configs") +
         " not decided (registers or size hints unknown: see the problems)";
  }
  return t;
}

std::string spillClause(const RunSummary& s) {
  if (s.added_by_sweep > 0 && s.over_spill_threshold > 0) {
    return "; " + std::to_string(s.over_spill_threshold - s.over_spill_threshold_swept) +
           " of Inductor's configs and " + std::to_string(s.over_spill_threshold_swept) +
           " of the sweep's spill over the threshold";
  }
  return s.over_spill_threshold == 0
             ? "; no config spills over the threshold"
             : "; " + counted(s.over_spill_threshold, "config spills", "configs spill") + " over the threshold";
}

// The winners' mean occupancy and what it is over: the looped reductions whose autotuner chose
// among several configs (a kernel with one config is not autotuned and has no winner).
std::string winnersClause(const RunSummary& s) {
  if (s.winners_known == 0) return {};
  std::string t = "; the winners' mean occupancy is " + std::to_string(std::lround(s.winners_mean_occupancy * 100.0)) +
                  " % over the " + counted(s.winners_known, "looped reduction", "looped reductions") +
                  " autotuned among several configs";
  const int none = s.looped - s.winners_known;  // looped reductions without a recorded winner
  if (none > 0 && s.single_config == none) {
    t += " (" + std::to_string(none) + " had one config: nothing to choose)";
  } else if (none > 0) {
    t += " (" + std::to_string(none) + " have no winner";
    if (s.single_config > 0) t += ", " + std::to_string(s.single_config) + " of them one config";
    t += ")";
  }
  return t;
}

}  // namespace

std::string RunSummary::text() const {
  std::string s = counted(looped, "looped reduction", "looped reductions");
  if (persistent > 0) s += ", " + counted(persistent, "persistent reduction", "persistent reductions");
  if (pointwise > 0) s += ", " + counted(pointwise, "pointwise kernel", "pointwise kernels") + " (listed)";
  if (other > 0) s += ", " + counted(other, "other kernel", "other kernels") + " (listed)";
  s += "; " + configsClause(*this);
  if (configs > 0) s += boundsClause(*this);
  s += spillClause(*this) + winnersClause(*this);
  if (!devices.empty()) {
    s += devices.size() == 1 ? "; device " + devices.front() : "; " + std::to_string(devices.size()) + " devices";
  }
  return s;
}

Expected<inductor::Decision> decideAlone(const RunKernel& kernel, const inductor::ReductionConfig& config,
                                         inductor::Policy policy) {
  if (!kernel.device) return Error{kernel.module.name + ": the module names no device, so the decision is unknown"};
  std::vector<std::string> problems;
  bool decidable = true;
  const inductor::KernelInfo info = kernelInfoOf(kernel.module, &problems, &decidable);
  if (!decidable) {
    return Error{kernel.module.name + ": " +
                 (problems.empty() ? std::string("a size hint is unknown") : problems.front())};
  }
  return inductor::decide(policy, config, info, *kernel.device);
}

}  // namespace occx::triton
