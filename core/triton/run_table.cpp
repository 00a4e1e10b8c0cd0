#include "core/triton/run_table.h"

#include <algorithm>
#include <sstream>

#include "core/base/format.h"
#include "core/base/text.h"

namespace occx::triton {
namespace {

using inductor::Decision;
using inductor::Policy;

Column<ScanRow> text(std::string key, std::string title, std::string ScanRow::*field, bool required = false) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kText,
          [field](const ScanRow& r) { return r.*field; },
          [field](ScanRow& r, const std::string& t) {
            r.*field = t;
            return std::string();
          },
          required};
}

Column<ScanRow> integer(std::string key, std::string title, std::string unit,
                        std::optional<std::int64_t> ScanRow::*field) {
  return {std::move(key),
          std::move(title),
          std::move(unit),
          CellKind::kNumber,
          [field](const ScanRow& r) { return (r.*field) ? std::to_string(*(r.*field)) : std::string(); },
          [field](ScanRow& r, const std::string& t) {
            if (t.empty()) {
              r.*field = std::nullopt;
              return std::string();
            }
            std::int64_t v = 0;
            std::string e = readInteger(t, v, false);
            if (e.empty()) r.*field = v;
            return e;
          }};
}

Column<ScanRow> flag(std::string key, std::string title, bool ScanRow::*field) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kNumber,
          [field](const ScanRow& r) { return std::string(r.*field ? "1" : "0"); },
          [field](ScanRow& r, const std::string& t) { return readFlag(t, r.*field, false); }};
}

std::vector<Column<ScanRow>> makeScanColumns() {
  std::vector<Column<ScanRow>> c;
  c.push_back(text("device", "device", &ScanRow::device));
  c.push_back(text("cc", "CC", &ScanRow::cc));
  c.push_back(integer("sm_count", "SMs", "", &ScanRow::sm_count));
  c.push_back(text("kernel", "kernel", &ScanRow::kernel, true));
  c.push_back(text("module", "module", &ScanRow::module));
  c.push_back(text("kind", "kind", &ScanRow::kind, true));
  c.push_back(text("size_hints", "size hints", &ScanRow::size_hints));
  c.push_back(text("reduction_hint", "hint", &ScanRow::reduction_hint));
  c.push_back(text("xnumel", "xnumel", &ScanRow::xnumel));
  c.push_back(text("r0_numel", "r0_numel", &ScanRow::r0_numel));
  c.push_back(integer("XBLOCK", "XBLOCK", "", &ScanRow::xblock));
  c.push_back(integer("R0_BLOCK", "R0_BLOCK", "", &ScanRow::r0_block));
  c.push_back(integer("R1_BLOCK", "R1_BLOCK", "", &ScanRow::r1_block));
  c.push_back(integer("num_warps", "warps", "", &ScanRow::num_warps));
  c.push_back(integer("num_stages", "stages", "", &ScanRow::num_stages));
  c.push_back(integer("RSPLIT_SIZE", "RSPLIT", "", &ScanRow::rsplit_size));
  c.push_back(integer("NUM_STAGES", "NUM_STAGES", "", &ScanRow::mix_num_stages));
  c.push_back(integer("registers_per_thread", "regs", "", &ScanRow::n_regs));
  c.push_back(integer("n_spills", "spills", "", &ScanRow::n_spills));
  c.push_back(integer("local_bytes", "local", "B", &ScanRow::local_bytes));
  c.push_back(integer("smem_bytes", "smem", "B", &ScanRow::shared_bytes));
  c.push_back(text("origin", "origin", &ScanRow::origin));
  c.push_back(text("halved_from", "halved from", &ScanRow::halved_from));
  c.push_back(flag("winner", "winner", &ScanRow::winner));
  c.push_back(integer("active_blocks_per_sm", "blocks/SM", "", &ScanRow::blocks_per_sm));
  c.push_back({"theoretical_occupancy_pct", "occupancy", "%", CellKind::kNumber,
               [](const ScanRow& r) { return r.occupancy_pct ? fixed(*r.occupancy_pct, 1) : std::string(); },
               [](ScanRow& r, const std::string& t) {
                 if (t.empty()) {
                   r.occupancy_pct = std::nullopt;
                   return std::string();
                 }
                 double v = 0;
                 std::string e = readNumber(t, v, 0.0);
                 if (e.empty()) r.occupancy_pct = v;
                 return e;
               }});
  c.push_back(text("limiter", "limiter", &ScanRow::limiter));
  c.push_back(text("old", "old", &ScanRow::old_decision));
  c.push_back(text("new", "new", &ScanRow::new_decision));
  c.push_back(text("review_min", "review_min", &ScanRow::review_min_decision));
  c.push_back(text("exact", "exact", &ScanRow::exact_decision));
  c.push_back(text("spills", "spills", &ScanRow::spills_decision));
  c.push_back(flag("bounds_disagree", "disagree", &ScanRow::bounds_disagree));
  c.push_back(flag("over_spill_threshold", "spills>thr", &ScanRow::over_spill_threshold));
  c.push_back(text("old_reason", "old: why", &ScanRow::old_reason));
  c.push_back(text("new_reason", "new: why", &ScanRow::new_reason));
  c.push_back(text("review_min_reason", "review_min: why", &ScanRow::review_min_reason));
  c.push_back(text("exact_reason", "exact: why", &ScanRow::exact_reason));
  c.push_back(text("spills_reason", "spills: why", &ScanRow::spills_reason));
  c.push_back(text("triton_cache_hash", "Triton folder", &ScanRow::triton_cache_hash));
  c.push_back(text("notes", "notes", &ScanRow::notes));
  return c;
}

ScanRow kernelRow(const RunKernel& k) {
  ScanRow r;
  r.device = k.device_label;
  if (k.module.device && k.module.device->cc > 0) {
    r.cc = std::to_string(k.module.device->cc / 10) + "." + std::to_string(k.module.device->cc % 10);
    r.sm_count = k.module.device->multi_processor_count;
  }
  r.kernel = k.module.name;
  r.module = k.module.module_hash;
  r.kind = std::string(kernelKindName(k.module.kind));
  r.size_hints = k.module.sizeHintsText();
  r.reduction_hint = k.module.reduction_hint;
  auto numel = [&](const char* name, const char* hint) {
    if (auto v = k.module.staticNumel(name)) return std::to_string(*v);
    return k.module.sizeHint(hint) != nullptr ? std::string("dynamic") : std::string();
  };
  r.xnumel = numel("xnumel", "x");
  r.r0_numel = numel("r0_numel", "r0_");
  std::vector<std::string> notes = k.notes;
  notes.insert(notes.end(), k.module.warnings.begin(), k.module.warnings.end());
  notes.insert(notes.end(), k.problems.begin(), k.problems.end());
  r.notes = joined(notes, "; ");
  return r;
}

void setDecision(const Decision* d, std::string& outcome, std::string& reason) {
  if (d == nullptr) return;
  outcome = std::string(inductor::outcomeName(d->outcome));
  reason = d->reason;
}

ScanRow configRow(const RunKernel& k, const RunConfig& rc) {
  ScanRow r = kernelRow(k);
  const auto& c = rc.config;
  r.xblock = c.xblock;
  if (c.r0_block > 0) r.r0_block = c.r0_block;
  if (c.r1_block > 0) r.r1_block = c.r1_block;
  r.num_warps = c.num_warps;
  r.num_stages = c.num_stages;
  if (rc.rsplit_size > 0) {
    r.rsplit_size = rc.rsplit_size;
    r.mix_num_stages = rc.mix_num_stages;
  }
  if (c.n_regs) r.n_regs = *c.n_regs;
  if (c.n_spills) r.n_spills = *c.n_spills;
  if (c.n_regs) r.local_bytes = rc.local_bytes;
  r.shared_bytes = c.shared_bytes;
  r.origin = std::string(configOriginName(rc.origin));
  if (rc.parent >= 0) r.halved_from = k.configs[static_cast<std::size_t>(rc.parent)].config.str();
  r.winner = rc.winner;
  if (rc.occupancy) {
    r.blocks_per_sm = rc.occupancy->active_blocks_per_sm;
    r.occupancy_pct = rc.occupancy->occupancy * 100.0;
    r.limiter = rc.occupancy->can_launch ? limiterNames(rc.occupancy->limiters) : rc.occupancy->cannot_launch_reason;
  }
  setDecision(rc.decision(Policy::kOld), r.old_decision, r.old_reason);
  setDecision(rc.decision(Policy::kNew), r.new_decision, r.new_reason);
  setDecision(rc.decision(Policy::kReviewMin), r.review_min_decision, r.review_min_reason);
  setDecision(rc.decision(Policy::kExact), r.exact_decision, r.exact_reason);
  setDecision(rc.decision(Policy::kSpills), r.spills_decision, r.spills_reason);
  r.bounds_disagree = rc.bounds_disagree;
  r.over_spill_threshold = rc.over_spill_threshold;
  r.triton_cache_hash = rc.triton_cache_hash;
  std::vector<std::string> notes = rc.problems;
  if (!r.notes.empty()) notes.insert(notes.begin(), r.notes);
  r.notes = joined(notes, "; ");
  return r;
}

std::vector<std::pair<std::string, std::string>> scanMeta(const InductorRun& run) {
  std::vector<std::pair<std::string, std::string>> meta;
  meta.emplace_back(std::string(kScanFormatKey), std::string(kScanFormatValue));
  meta.emplace_back("input", run.input);
  meta.emplace_back("triton_caches", joined(run.triton_caches, "; "));
  meta.emplace_back("summary", run.summary.text());
  meta.emplace_back("note", "per-config benchmark times are not on disk (Inductor logs them only at DEBUG level)");
  return meta;
}

nlohmann::json kernelJson(const RunKernel& k) {
  const auto& m = k.module;
  nlohmann::json hints = nlohmann::json::object();
  for (const auto& h : m.size_hints) hints[h.name] = h.value ? nlohmann::json(*h.value) : nlohmann::json(h.symbolic);
  nlohmann::json sig = nlohmann::json::array();
  for (const auto& s : m.signature) sig.push_back({{"name", s.name}, {"type", s.type}});
  nlohmann::json meta = {
      {"grid_type", m.meta.grid_type},
      {"mutated_arg_names", m.meta.mutated_arg_names},
      {"num_load", m.meta.num_load},
      {"num_store", m.meta.num_store},
      {"num_reduction", m.meta.num_reduction},
      {"dynamic_scale_rblock",
       m.meta.dynamic_scale_rblock ? nlohmann::json(*m.meta.dynamic_scale_rblock) : nlohmann::json()},
      {"spill_threshold", m.meta.spill_threshold ? nlohmann::json(*m.meta.spill_threshold) : nlohmann::json()},
      {"deterministic", m.meta.deterministic}};
  nlohmann::json best;
  if (k.best) {
    best = {{"path", k.best->path},
            {"XBLOCK", k.best->xblock},
            {"R0_BLOCK", k.best->r0_block},
            {"R1_BLOCK", k.best->r1_block},
            {"num_warps", k.best->num_warps},
            {"num_stages", k.best->num_stages},
            {"found_by_coordesc", k.best->found_by_coordesc},
            {"triton_cache_hash",
             k.best->triton_cache_hash.empty() ? nlohmann::json() : nlohmann::json(k.best->triton_cache_hash)}};
  }
  nlohmann::json launches = nlohmann::json::array();
  for (const auto& l : k.launches) {
    nlohmann::json args = nlohmann::json::array();
    for (const auto& a : l.arguments) {
      nlohmann::json arg = {{"name", a.name}, {"type", a.type}, {"value", a.value}, {"mutated", a.mutated}};
      if (a.buffer) {
        arg["sizes"] = a.buffer->sizes;
        arg["strides"] = a.buffer->strides;
        arg["dtype"] = a.buffer->dtype;
        arg["origin"] = a.buffer->origin;
      }
      args.push_back(std::move(arg));
    }
    launches.push_back({{"wrapper", l.wrapper}, {"line", l.line}, {"arguments", std::move(args)}});
  }
  nlohmann::json configs = nlohmann::json::array();
  for (const auto& rc : k.configs) {
    const ScanRow row = configRow(k, rc);
    nlohmann::json o = nlohmann::json::object();
    for (const auto& c : scanColumns()) {
      if (c.key == "device" || c.key == "cc" || c.key == "sm_count" || c.key == "kernel" || c.key == "module" ||
          c.key == "kind" || c.key == "size_hints" || c.key == "reduction_hint" || c.key == "xnumel" ||
          c.key == "r0_numel") {
        continue;
      }
      o[c.key] = cellJson(c.kind, c.write(row));
    }
    configs.push_back(std::move(o));
  }
  return {{"name", m.name},
          {"module", m.module_hash},
          {"path", m.path},
          {"kind", kernelKindName(m.kind)},
          {"device", k.device_label},
          {"size_hints", std::move(hints)},
          {"reduction_hint", m.reduction_hint},
          {"dynamic_shape", m.dynamicShape()},
          {"signature", std::move(sig)},
          {"inductor_meta", std::move(meta)},
          {"best_config", std::move(best)},
          {"launches", std::move(launches)},
          {"notes", k.notes},
          {"warnings", m.warnings},
          {"problems", k.problems},
          {"configs", std::move(configs)}};
}

}  // namespace

const std::vector<Column<ScanRow>>& scanColumns() {
  static const std::vector<Column<ScanRow>> columns = makeScanColumns();
  return columns;
}

std::vector<ScanRow> scanRows(const InductorRun& run) {
  std::vector<ScanRow> rows;
  for (const auto& k : run.kernels) {
    if (k.configs.empty()) {
      rows.push_back(kernelRow(k));
      continue;
    }
    for (const auto& rc : k.configs) rows.push_back(configRow(k, rc));
  }
  return rows;
}

namespace {

bool halvesRblock(const std::string& outcome) {
  return outcome == inductor::outcomeName(inductor::Outcome::kScale) ||
         outcome == inductor::outcomeName(inductor::Outcome::kDuplicate);
}

// The first row of a kernel: its kind and device.
void countKernel(RunSummary& s, const ScanRow& r) {
  ++s.kernels;
  if (r.kind == kernelKindName(KernelKind::kLoopedReduction)) {
    ++s.looped;
  } else if (r.kind == kernelKindName(KernelKind::kPersistentReduction)) {
    ++s.persistent;
  } else if (r.kind == kernelKindName(KernelKind::kPointwise)) {
    ++s.pointwise;
  } else {
    ++s.other;
  }
  if (std::find(s.devices.begin(), s.devices.end(), r.device) == s.devices.end()) s.devices.push_back(r.device);
}

// A compiled config: its origin, decisions and spills; a sweep's counted apart.
void countConfig(RunSummary& s, const ScanRow& r) {
  const bool swept = r.origin == kSweptOrigin;
  ++s.configs;
  if (swept) ++s.added_by_sweep;
  if (r.origin == configOriginName(ConfigOrigin::kAddedByScaling)) ++s.added_by_scaling;
  if (r.over_spill_threshold) {
    ++s.over_spill_threshold;
    if (swept) ++s.over_spill_threshold_swept;
  }
  if (r.bounds_disagree) ++s.any_disagree;
  if (!r.old_decision.empty() && !r.new_decision.empty() &&
      halvesRblock(r.old_decision) != halvesRblock(r.new_decision)) {
    ++s.old_new_disagree;
    if (swept) ++s.old_new_disagree_swept;
  }
  if (r.kind == kernelKindName(KernelKind::kLoopedReduction) && r.old_decision.empty()) ++s.undecided;
}

}  // namespace

RunSummary summarizeRows(const std::vector<ScanRow>& rows) {
  RunSummary s;
  std::string last_key;
  double occupancy = 0.0;
  int inductor_configs = 0;  // of the current kernel
  bool looped = false;       // the current kernel is a looped reduction
  auto endKernel = [&] {
    if (looped && inductor_configs == 1) ++s.single_config;
  };
  for (const auto& r : rows) {
    const std::string key = r.device + "|" + r.kernel + "|" + r.module;
    if (key != last_key) {
      endKernel();
      last_key = key;
      inductor_configs = 0;
      looped = r.kind == kernelKindName(KernelKind::kLoopedReduction);
      countKernel(s, r);
    }
    if (!r.num_warps) continue;
    countConfig(s, r);
    if (r.origin != kSweptOrigin) ++inductor_configs;
    if (r.winner && r.occupancy_pct && looped) {
      ++s.winners_known;
      occupancy += *r.occupancy_pct / 100.0;
    }
  }
  endKernel();
  if (s.winners_known > 0) s.winners_mean_occupancy = occupancy / s.winners_known;
  return s;
}

CsvTable scanToCsv(const InductorRun& run) {
  return columnsToCsv(scanColumns(), scanRows(run), scanMeta(run));
}

Expected<std::vector<ScanRow>> scanFromCsv(const CsvTable& table) {
  if (table.metaValue(kScanFormatKey) != kScanFormatValue) {
    return Error{"not an Inductor run scan: the metadata line '# " + std::string(kScanFormatKey) + ": " +
                 std::string(kScanFormatValue) + "' is missing"};
  }
  return columnsFromCsv<ScanRow>(scanColumns(), table, "Inductor run scan", ScanRow{});
}

nlohmann::json runToJson(const InductorRun& run) {
  const RunSummary& s = run.summary;
  nlohmann::json kernels = nlohmann::json::array();
  for (const auto& k : run.kernels) kernels.push_back(kernelJson(k));
  return {{"input", run.input},
          {"triton_caches", run.triton_caches},
          {"summary",
           {{"text", s.text()},
            {"kernels", s.kernels},
            {"looped", s.looped},
            {"persistent", s.persistent},
            {"pointwise", s.pointwise},
            {"other", s.other},
            {"configs", s.configs},
            {"inductor_configs", s.inductorConfigs()},
            {"added_by_scaling", s.added_by_scaling},
            {"added_by_sweep", s.added_by_sweep},
            {"over_spill_threshold", s.over_spill_threshold},
            {"old_new_disagree", s.old_new_disagree},
            {"any_disagree", s.any_disagree},
            {"winners_known", s.winners_known},
            {"winners_mean_occupancy", s.winners_mean_occupancy},
            {"single_config", s.single_config},
            {"devices", s.devices}}},
          {"note", "per-config benchmark times are not on disk (Inductor logs them only at DEBUG level)"},
          {"problems", run.problems},
          {"kernels", std::move(kernels)}};
}

std::vector<std::string> everyProblem(const InductorRun& run) {
  std::vector<std::string> out = run.problems;
  for (const auto& k : run.kernels) {
    const std::string who = k.module.name + ": ";
    for (const auto& p : k.problems) out.push_back(who + p);
    for (const auto& w : k.module.warnings) out.push_back(who + k.module.path + ": " + w);
    for (const auto& rc : k.configs) {
      for (const auto& p : rc.problems) out.push_back(who + p);
    }
  }
  return out;
}

namespace {

// The report's head: the kernel's module, file, device, size hints, signature, meta and launches.
void writeKernelHead(std::ostream& out, const RunKernel& k) {
  const auto& m = k.module;
  out << m.name << "  (" << kernelKindName(m.kind) << ", module " << m.module_hash << ")\n";
  out << "  file:          " << m.path << "\n";
  out << "  device:        " << k.device_label << "\n";
  out << "  size hints:    " << m.sizeHintsText()
      << (m.dynamicShape() ? "  (dynamic shape: the hints of the first compile, each rounded up to a power of two)"
                           : "  (each numel rounded up to a power of two, as Inductor's heuristics see it)")
      << "\n";
  if (!m.reduction_hint.empty()) out << "  hint:          " << m.reduction_hint << "\n";
  out << "  signature:     ";
  for (std::size_t i = 0; i < m.signature.size(); ++i)
    out << (i ? ", " : "") << m.signature[i].name << ": " << m.signature[i].type;
  out << "\n";
  out << "  meta:          dynamic_scale_rblock " << (m.meta.dynamic_scale_rblock.value_or(true) ? "on" : "off")
      << (m.meta.dynamic_scale_rblock ? "" : " (default)") << ", spill_threshold " << k.spillThreshold()
      << ", deterministic " << (m.meta.deterministic ? "on" : "off") << "\n";
  for (const auto& l : k.launches) {
    out << "  launched at " << l.wrapper << ":" << l.line << "\n";
    for (const auto& a : l.arguments) {
      out << "    " << a.name << " = " << a.value;
      if (a.buffer) {
        out << "  (";
        for (std::size_t i = 0; i < a.buffer->sizes.size(); ++i) out << (i ? ", " : "") << a.buffer->sizes[i];
        out << ") " << a.buffer->dtype << ", " << a.buffer->origin;
      }
      if (a.mutated) out << ", mutated";
      out << "\n";
    }
  }
}

// One config of the report: its launch config, origin, registers, spills, occupancy and decisions
// (the four bounds in one line when they say the same; the spills rule, not a bound, on its own).
void writeKernelConfig(std::ostream& out, const RunKernel& k, std::size_t i) {
  const RunConfig& rc = k.configs[i];
  const auto& c = rc.config;
  out << "\n  #" << (i + 1) << " " << c.str();
  if (rc.rsplit_size > 0) out << ", RSPLIT_SIZE=" << rc.rsplit_size << ", NUM_STAGES=" << rc.mix_num_stages;
  out << (rc.winner ? "  ← winner" : "") << "\n";
  out << "     " << configOriginName(rc.origin);
  if (rc.parent >= 0) out << " (halved from #" << (rc.parent + 1) << ")";
  out << "; " << (c.n_regs ? std::to_string(*c.n_regs) : std::string("?")) << " registers, "
      << (c.n_spills ? std::to_string(*c.n_spills) : std::string("?")) << " spills (" << rc.local_bytes
      << " B local per thread), " << c.shared_bytes << " B shared";
  if (k.device && k.device->arch.reserved_shared_memory_per_block > 0) {
    out << " (+ " << k.device->arch.reserved_shared_memory_per_block << " B the runtime reserves per block)";
  }
  if (rc.over_spill_threshold) out << " — over the spill threshold " << k.spillThreshold() << ": never benchmarked";
  out << "\n";
  if (rc.occupancy) {
    const int blocks = rc.occupancy->active_blocks_per_sm;
    out << "     occupancy " << fixed(rc.occupancy->occupancy * 100.0, 1) << " % (" << blocks
        << (blocks == 1 ? " block" : " blocks") << "/SM, limited by " << limiterNames(rc.occupancy->limiters) << ")\n";
  }
  auto line = [&](const inductor::Decision& d) {
    out << "     " << inductor::policyKey(d.policy) << ": " << d.reason;
    if (!d.bound_arithmetic.empty()) out << " [" << d.bound_arithmetic << "]";
    out << "\n";
  };
  std::vector<const inductor::Decision*> bounds;
  for (const auto& d : rc.decisions) {
    if (d.policy != Policy::kSpills) bounds.push_back(&d);
  }
  const bool same_reason = !bounds.empty() && std::all_of(bounds.begin(), bounds.end(), [&](const auto* d) {
    return d->reason == bounds.front()->reason;
  });
  if (same_reason) {
    out << "     every bound: " << bounds.front()->reason << "\n";
  } else {
    for (const auto* d : bounds) line(*d);
  }
  if (const inductor::Decision* d = rc.decision(Policy::kSpills)) line(*d);
  if (rc.bounds_disagree) out << "     the bounds disagree on this config\n";
  for (const auto& p : rc.problems) out << "     problem: " << p << "\n";
}

// "3 Inductor compiled (2 candidates + 1 added by RBLOCK scaling)", with coordinate descent's and
// the other configs in the cache (trials, another run, a sweep's) counted apart.
std::string configOriginsText(const RunKernel& k) {
  int by_origin[4] = {0, 0, 0, 0};
  for (const auto& c : k.configs) ++by_origin[static_cast<int>(c.origin)];
  const int candidates = by_origin[static_cast<int>(ConfigOrigin::kCandidate)];
  const int scaling = by_origin[static_cast<int>(ConfigOrigin::kAddedByScaling)];
  const int coordesc = by_origin[static_cast<int>(ConfigOrigin::kCoordinateDescent)];
  const int other = by_origin[static_cast<int>(ConfigOrigin::kOther)];
  std::string t = std::to_string(candidates + scaling + coordesc) + " Inductor compiled (" +
                  std::to_string(candidates) + (candidates == 1 ? " candidate" : " candidates");
  if (scaling > 0) t += " + " + std::to_string(scaling) + " added by RBLOCK scaling";
  if (coordesc > 0) t += " + " + std::to_string(coordesc) + " found by coordinate descent";
  t += ")";
  if (other > 0) {
    t += " + " + std::to_string(other) +
         " other in the cache (none of Inductor's candidates: coordinate descent's trials, another run, a sweep)";
  }
  return t;
}

}  // namespace

std::string kernelReport(const RunKernel& k) {
  std::ostringstream out;
  const auto& m = k.module;
  writeKernelHead(out, k);
  if (!m.meta.grid_type.empty() && m.meta.grid_type != "Grid1D") out << "  grid:          " << m.meta.grid_type << "\n";
  for (const auto& n : k.notes) out << "  note: " << n << "\n";
  for (const auto& w : m.warnings) out << "  warning: " << w << "\n";
  for (const auto& p : k.problems) out << "  problem: " << p << "\n";
  if (k.best) {
    out << "  winner:        "
        << (k.winner >= 0 ? k.configs[static_cast<std::size_t>(k.winner)].config.str()
                          : std::string("not in the cache"))
        << (k.best->found_by_coordesc ? " (found by coordinate descent)" : "") << "  [" << k.best->path << "]\n";
  } else if (!k.configs.empty()) {
    out << "  winner:        "
        << (k.configs.size() == 1 ? "the only config (nothing to autotune)"
                                  : "not on disk (no .best_config; see the note)")
        << "\n";
  }
  out << "  configs:       " << configOriginsText(k) << "; per-config times are not on disk\n";
  for (std::size_t i = 0; i < k.configs.size(); ++i) writeKernelConfig(out, k, i);
  return out.str();
}

}  // namespace occx::triton
