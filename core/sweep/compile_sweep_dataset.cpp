#include "core/sweep/compile_sweep_dataset.h"

#include <algorithm>
#include <charconv>

#include <nlohmann/json.hpp>

#include "core/base/format.h"
#include "core/inductor/rblock_scaling.h"
#include "core/occupancy/occupancy.h"
#include "core/sweep/live_results.h"

namespace occx {

namespace {

using inductor::Outcome;
using inductor::Policy;
using RecordColumn = Column<CompileSweepRecord>;

int fullOccupancyRegisters(const ArchLimits& arch) {
  const int threads = arch.maxThreadsPerSm();
  return threads > 0 ? arch.registers_per_sm / threads : 0;
}

std::string ifKnown(std::int64_t v) {
  return v >= 0 ? std::to_string(v) : std::string();
}
std::string yesNo(bool b) {
  return b ? "yes" : "no";
}

std::optional<Outcome> parseOutcome(const std::string& text) {
  for (Outcome o : {Outcome::kNotApplicable, Outcome::kNoScale, Outcome::kScale, Outcome::kDuplicate}) {
    if (text == inductor::outcomeName(o)) return o;
  }
  return std::nullopt;
}

std::optional<CandidateState> parseCandidateState(const std::string& text) {
  for (CandidateState s : {CandidateState::kNotCandidate, CandidateState::kBenchmarked, CandidateState::kExcludedSpills,
                           CandidateState::kNotCompiled}) {
    if (text == candidateStateName(s)) return s;
  }
  return std::nullopt;
}

std::size_t indexOf(const std::vector<Policy>& policies, Policy p) {
  return static_cast<std::size_t>(std::find(policies.begin(), policies.end(), p) - policies.begin());
}

/// An integer column of an ok row (empty for rows that did not compile).
RecordColumn compiledInt(std::string key, std::string title, std::string unit, int CompileSweepRecord::*field) {
  return {std::move(key),
          std::move(title),
          std::move(unit),
          CellKind::kNumber,
          [field](const CompileSweepRecord& r) { return r.ok ? ifKnown(r.*field) : std::string(); },
          [field](CompileSweepRecord& r, const std::string& t) {
            if (std::string e = readInteger(t, r.*field, true); !e.empty()) return e;
            // Unknown is an empty cell: a negative count (of spills, registers, bytes) is damage.
            return !t.empty() && r.*field < 0 ? std::string("a count of 0 or more") : std::string();
          },
          false};
}

RecordColumn configInt(std::string key, std::string title, int KernelConfig::*field, bool required) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kNumber,
          [field](const CompileSweepRecord& r) { return std::to_string(r.config.*field); },
          [field, required](CompileSweepRecord& r, const std::string& t) {
            return readInteger(t, r.config.*field, !required);
          },
          required};
}

RecordColumn textColumn(std::string key, std::string title, std::string CompileSweepRecord::*field) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kText,
          [field](const CompileSweepRecord& r) { return r.*field; },
          [field](CompileSweepRecord& r, const std::string& t) {
            r.*field = t;
            return std::string();
          },
          false};
}

void addDecisionColumns(std::vector<RecordColumn>& c) {
  for (Policy p : sweepDecisionPolicies()) {
    const std::string k(inductor::policyKey(p));
    c.push_back({k + "_bound_blocks_per_sm", k + " bound", "blocks/SM", CellKind::kNumber,
                 [p](const CompileSweepRecord& r) {
                   const DecisionRecord* d = r.decision(p);
                   return r.ok && d != nullptr ? ifKnown(d->bound) : std::string();
                 },
                 [p](CompileSweepRecord& r, const std::string& t) {
                   int bound = -1;
                   if (auto e = readInteger(t, bound, true); !e.empty()) return e;
                   r.decisions[indexOf(sweepDecisionPolicies(), p)].bound = bound;
                   return std::string();
                 },
                 false});
    c.push_back({k + "_decision", k, "", CellKind::kText,
                 [p](const CompileSweepRecord& r) {
                   const DecisionRecord* d = r.decision(p);
                   return r.ok && d != nullptr && d->outcome ? std::string(inductor::outcomeName(*d->outcome))
                                                             : std::string();
                 },
                 [p](CompileSweepRecord& r, const std::string& t) -> std::string {
                   auto& d = r.decisions[indexOf(sweepDecisionPolicies(), p)];
                   if (t.empty()) return {};
                   d.outcome = parseOutcome(t);
                   return d.outcome ? std::string() : "one of not applicable, no scaling, scale, duplicate";
                 },
                 false});
  }
}

void addCandidateColumns(std::vector<RecordColumn>& c) {
  c.push_back({"inductor_candidate", "Inductor", "", CellKind::kText,
               [](const CompileSweepRecord& r) { return yesNo(r.inductor_candidate); },
               [](CompileSweepRecord& r, const std::string& t) {
                 r.inductor_candidate = t == "yes";
                 return std::string();
               },
               false});
  for (Policy p : sweepCandidatePolicies()) {
    c.push_back({"candidate_" + std::string(inductor::policyKey(p)), "cand " + std::string(inductor::policyKey(p)), "",
                 CellKind::kText, [p](const CompileSweepRecord& r) { return candidateStateName(r.candidate(p)); },
                 [p](CompileSweepRecord& r, const std::string& t) -> std::string {
                   auto s = t.empty() ? std::optional<CandidateState>(CandidateState::kNotCandidate)
                                      : parseCandidateState(t);
                   if (!s) return "one of no, benchmarked, excluded (spills), not compiled";
                   r.candidates[indexOf(sweepCandidatePolicies(), p)] = *s;
                   return {};
                 },
                 false});
  }
}

// The config's columns: index, workload, dtype, K, the tile, and what the tile gives each thread.
void addConfigColumns(std::vector<RecordColumn>& c) {
  c.push_back({"index", "#", "", CellKind::kNumber, [](const CompileSweepRecord& r) { return std::to_string(r.index); },
               [](CompileSweepRecord& r, const std::string& t) { return readInteger(t, r.index, false); }, true});
  c.push_back({"workload", "workload", "", CellKind::kText,
               [](const CompileSweepRecord& r) { return std::string(workloadName(r.config.workload)); },
               [](CompileSweepRecord& r, const std::string& t) -> std::string {
                 auto w = parseWorkload(t);
                 if (!w) return "one of sum, sum_sq, amax, mean_var, log_softmax, fused_k";
                 r.config.workload = *w;
                 return {};
               },
               true});
  c.push_back({"dtype", "dtype", "", CellKind::kText,
               [](const CompileSweepRecord& r) { return std::string(dtypeName(r.config.dtype)); },
               [](CompileSweepRecord& r, const std::string& t) -> std::string {
                 auto d = parseDType(t);
                 if (!d) return "one of fp32, fp16, bf16";
                 r.config.dtype = *d;
                 return {};
               },
               true});
  c.push_back(configInt("k", "K", &KernelConfig::k, false));
  c.push_back(configInt("XBLOCK", "XBLOCK", &KernelConfig::xblock, true));
  c.push_back(configInt("RBLOCK", "RBLOCK", &KernelConfig::rblock, true));
  c.push_back(configInt("num_warps", "warps", &KernelConfig::num_warps, true));
  c.push_back({"threads_per_block",
               "threads",
               "",
               CellKind::kNumber,
               [](const CompileSweepRecord& r) { return std::to_string(r.config.num_warps * 32); },
               {},
               false});
  c.push_back({"vector_bytes", "vector B", "B", CellKind::kNumber,
               [](const CompileSweepRecord& r) { return ifKnown(r.vector_bytes); },
               [](CompileSweepRecord& r, const std::string& t) { return readInteger(t, r.vector_bytes, true); },
               false});
  c.push_back({"accumulator_values_per_thread", "acc/thread", "", CellKind::kNumber,
               [](const CompileSweepRecord& r) { return ifKnown(r.accumulator_values_per_thread); },
               [](CompileSweepRecord& r, const std::string& t) {
                 return readInteger(t, r.accumulator_values_per_thread, true);
               },
               false});
}

// The compile's columns: where the config came from, how its compile went, what the compiler
// reported and the occupancy that gives.
void addCompiledColumns(std::vector<RecordColumn>& c) {
  c.push_back(textColumn("origin", "origin", &CompileSweepRecord::origin));
  c.push_back({"status", "status", "", CellKind::kText,
               [](const CompileSweepRecord& r) { return std::string(r.ok ? "ok" : "error"); },
               [](CompileSweepRecord& r, const std::string& t) -> std::string {
                 if (t != "ok" && t != "error") return "one of ok, error";
                 r.ok = t == "ok";
                 return {};
               },
               true});
  c.push_back(textColumn("error", "error", &CompileSweepRecord::error));
  c.push_back(textColumn("kernel", "kernel", &CompileSweepRecord::kernel_name));
  c.push_back(compiledInt("registers_per_thread", "regs", "", &CompileSweepRecord::registers));
  c.push_back(compiledInt("spill_stores_bytes", "spill st", "B", &CompileSweepRecord::spill_stores_bytes));
  c.push_back(compiledInt("spill_loads_bytes", "spill ld", "B", &CompileSweepRecord::spill_loads_bytes));
  c.push_back(compiledInt("stack_frame_bytes", "stack", "B", &CompileSweepRecord::stack_frame_bytes));
  c.push_back(compiledInt("n_spills", "n_spills", "", &CompileSweepRecord::n_spills));
  c.push_back(compiledInt("smem_bytes", "smem", "B", &CompileSweepRecord::smem_bytes));
  c.push_back({"cache_hit", "cached", "", CellKind::kText,
               [](const CompileSweepRecord& r) { return r.ok ? yesNo(r.cache_hit) : std::string(); },
               [](CompileSweepRecord& r, const std::string& t) {
                 r.cache_hit = t == "yes";
                 return std::string();
               },
               false});
  c.push_back({"compile_ms", "compile", "ms", CellKind::kNumber,
               [](const CompileSweepRecord& r) { return r.ok ? fixed(r.compile_ms, 1) : std::string(); },
               [](CompileSweepRecord& r, const std::string& t) { return readNumber(t, r.compile_ms, -1.0); }, false});
  c.push_back({"grid_blocks", "blocks", "", CellKind::kNumber,
               [](const CompileSweepRecord& r) { return std::to_string(r.grid_blocks); },
               [](CompileSweepRecord& r, const std::string& t) { return readInteger(t, r.grid_blocks, true); }, false});
  c.push_back(compiledInt("active_blocks_per_sm", "blocks/SM", "", &CompileSweepRecord::active_blocks_per_sm));
  c.push_back(compiledInt("active_warps_per_sm", "warps/SM", "", &CompileSweepRecord::active_warps_per_sm));
  c.push_back({"theoretical_occupancy_pct", "occ", "%", CellKind::kNumber,
               [](const CompileSweepRecord& r) {
                 return r.ok && r.occupancy_pct >= 0 ? fixed(r.occupancy_pct, 1) : std::string();
               },
               [](CompileSweepRecord& r, const std::string& t) { return readNumber(t, r.occupancy_pct, -1.0); },
               false});
  c.push_back({"occupancy_limiter", "limiter", "", CellKind::kText,
               [](const CompileSweepRecord& r) { return r.ok ? r.limiter : std::string(); },
               [](CompileSweepRecord& r, const std::string& t) {
                 r.limiter = t;
                 return std::string();
               },
               false});
}

std::vector<RecordColumn> makeRecordColumns() {
  std::vector<RecordColumn> c;
  addConfigColumns(c);
  addCompiledColumns(c);
  addDecisionColumns(c);
  addCandidateColumns(c);
  return c;
}

std::vector<std::pair<std::string, std::string>> sweepMeta(
    const CompileSweepResult& res, const std::vector<std::pair<std::string, std::string>>& extra) {
  const auto& s = res.spec;
  auto n = [](std::int64_t v) { return std::to_string(v); };
  std::vector<std::pair<std::string, std::string>> m = {
      {"format", std::string(kCompileSweepFormat)},
      {"arch", s.device.arch.cc.smName()},
      {"device", s.device.label},
      {"sm_count", n(s.device.sm_count)},
      {"workload", std::string(workloadName(s.workload))},
      {"dtype", std::string(dtypeName(s.dtype))},
      {"output_dtype", std::string(dtypeName(s.fp32_outputs ? DType::kF32 : s.dtype))},
      {"k", n(s.k)},
      {"xnumel", n(s.xnumel)},
      {"rnumel", n(s.rnumel)},
      {"shape", shapeKindName(s.static_shape)},
      {"size_hint_x", n(res.size_hints.x)},
      {"size_hint_r", n(res.size_hints.r0)},
      {"bytes_read", n(res.bytes.bytes_read)},
      {"bytes_written", n(res.bytes.bytes_written)},
      {"compiler", res.compiler.empty() ? std::string("unknown") : res.compiler},
      {"date_utc", res.date_utc},
      {"profile", std::string(inductor::profileInfo(s.decision_options.profile).key)},
      {"hint", std::string(inductor::reductionHintKey(s.hint))},
      {"maxrregcount", n(s.maxrregcount)},
      {"configs",
       n(static_cast<std::int64_t>(res.rows.size())) + " of " + n(static_cast<std::int64_t>(res.total_configs))},
      {"cancelled", res.cancelled ? "true" : "false"},
  };
  m.insert(m.end(), extra.begin(), extra.end());
  return m;
}

/// Reads an integer metadata value (absent: `out` unchanged). Error names the key and the text.
std::optional<Error> metaInteger(const CsvTable& table, const char* key, std::int64_t& out) {
  const std::string s = table.metaValue(key);
  if (s.empty()) return std::nullopt;
  std::int64_t v = 0;
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size() || v < 0 || v > 2147483647) {
    return Error{"compile-sweep CSV: metadata '" + std::string(key) + "': '" + s +
                 "' is not an integer 0 … 2147483647"};
  }
  out = v;
  return std::nullopt;
}

/// The dataset-level facts of a compile-sweep CSV's metadata.
std::optional<Error> readMeta(const CsvTable& table, const GpuDatabase& db, CompileSweepDataset& d,
                              std::int64_t& maxrregcount) {
  auto arch = ComputeCapability::parse(table.metaValue("arch"));
  if (!arch) return Error{"compile-sweep CSV: metadata 'arch': " + arch.error()};
  const ArchLimits* limits = db.findArch(*arch);
  if (limits == nullptr) {
    return Error{"compile-sweep CSV: architecture " + arch->smName() + " is not in the GPU data: known " + db.ccList()};
  }
  d.meta = table.meta;
  d.arch = *arch;
  d.device_label = table.metaValue("device");
  d.max_registers_per_thread = limits->max_registers_per_thread;
  d.full_occupancy_registers = fullOccupancyRegisters(*limits);
  d.compiler = table.metaValue("compiler");
  d.date_utc = table.metaValue("date_utc");
  d.cancelled = table.metaValue("cancelled") == "true";
  std::int64_t sm = 0;
  std::int64_t k = 1;
  for (const auto& [key, out] : std::vector<std::pair<const char*, std::int64_t*>>{{"sm_count", &sm},
                                                                                   {"xnumel", &d.xnumel},
                                                                                   {"rnumel", &d.rnumel},
                                                                                   {"k", &k},
                                                                                   {"maxrregcount", &maxrregcount}}) {
    if (auto e = metaInteger(table, key, *out)) return e;
  }
  d.k = static_cast<int>(k);
  d.sm_count = static_cast<int>(sm);
  if (auto w = parseWorkload(table.metaValue("workload"))) d.workload = *w;
  if (auto t = parseDType(table.metaValue("dtype"))) d.dtype = *t;
  return std::nullopt;
}

}  // namespace

const DecisionRecord* CompileSweepRecord::decision(Policy policy) const {
  for (const auto& d : decisions) {
    if (d.policy == policy) return &d;
  }
  return nullptr;
}

CandidateState CompileSweepRecord::candidate(Policy policy) const {
  const std::size_t i = indexOf(sweepCandidatePolicies(), policy);
  return i < candidates.size() ? candidates[i] : CandidateState::kNotCandidate;
}

std::string CompileSweepDataset::metaValue(const std::string& key) const {
  for (const auto& [name, value] : meta) {
    if (name == key) return value;
  }
  return {};
}

CsvTable CompileSweepDataset::toCsv() const {
  return columnsToCsv(compileSweepColumns(), rows, meta);
}

const std::vector<Column<CompileSweepRecord>>& compileSweepColumns() {
  static const std::vector<RecordColumn> columns = makeRecordColumns();
  return columns;
}

CompileSweepRecord recordFromRow(const CompileSweepRow& row) {
  CompileSweepRecord e;
  e.index = row.index;
  e.config = row.config;
  e.origin = row.origin;
  e.ok = row.ok;
  e.error = row.error;
  e.kernel_name = row.kernel_name;
  e.grid_blocks = row.grid_blocks;
  e.inductor_candidate = row.inductor_candidate;
  e.candidates = row.candidate;
  if (row.layout) {
    e.vector_bytes = row.config.vector_loads ? row.layout->vector_bytes : dtypeBytes(row.config.dtype);
    e.accumulator_values_per_thread = row.layout->accumulator_values_per_thread;
  }
  if (!row.ok) return e;
  e.registers = row.report.registers;
  e.spill_stores_bytes = row.report.spill_stores_bytes;
  e.spill_loads_bytes = row.report.spill_loads_bytes;
  e.stack_frame_bytes = row.report.stack_frame_bytes;
  e.n_spills = row.report.nSpills();
  e.smem_bytes = row.report.static_smem_bytes;
  e.cache_hit = row.cache_hit;
  e.compile_ms = row.compile_ms;
  if (row.decisions.empty()) {
    e.pending = true;
    return e;
  }
  e.active_blocks_per_sm = row.occupancy.active_blocks_per_sm;
  e.active_warps_per_sm = row.occupancy.active_warps_per_sm;
  e.occupancy_pct = 100.0 * row.occupancy.occupancy;
  e.limiter = row.occupancy.can_launch ? limiterNames(row.occupancy.limiters) : "cannot launch";
  for (const auto& d : row.decisions) {
    e.decisions.push_back({d.policy, d.applies ? d.bound_blocks_per_sm : -1, d.outcome, d.reason});
  }
  return e;
}

CompileSweepDataset datasetFromSpec(const CompileSweepSpec& s) {
  CompileSweepDataset d;
  d.arch = s.device.arch.cc;
  d.device_label = s.device.label;
  d.sm_count = s.device.sm_count;
  d.max_registers_per_thread = s.device.arch.max_registers_per_thread;
  d.full_occupancy_registers = fullOccupancyRegisters(s.device.arch);
  d.xnumel = s.xnumel;
  d.rnumel = s.rnumel;
  d.workload = s.workload;
  d.dtype = s.dtype;
  d.k = s.k;
  return d;
}

CompileSweepDataset datasetFromResult(const CompileSweepResult& result,
                                      const std::vector<std::pair<std::string, std::string>>& extra_meta) {
  CompileSweepDataset d = datasetFromSpec(result.spec);
  d.meta = sweepMeta(result, extra_meta);
  for (const auto& r : result.rows) d.rows.push_back(recordFromRow(r));
  std::sort(d.rows.begin(), d.rows.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  d.compiler = result.compiler;
  d.date_utc = result.date_utc;
  d.cancelled = result.cancelled;
  d.total_configs = result.total_configs;
  return d;
}

Expected<CompileSweepDataset> compileSweepFromCsv(const CsvTable& table, const GpuDatabase& db) {
  const std::string format = table.metaValue("format");
  if (format == kLiveFormatValue) {
    return Error{"this is a live-sweep dataset (measured times), not a compile sweep: open it in the Live sweep tab"};
  }
  if (format != kCompileSweepFormat) {
    return Error{"not a compile-sweep CSV: the metadata line '# format: occx-compile-sweep 1' is missing" +
                 (format.empty() ? std::string() : " (found '" + format + "')")};
  }
  CompileSweepDataset d;
  std::int64_t maxrregcount = 0;
  if (auto e = readMeta(table, db, d, maxrregcount)) return *e;
  const bool fp32_outputs = table.metaValue("output_dtype") == "fp32";
  const std::string shape = table.metaValue("shape");  // absent: files from before static shapes (run-time)
  if (!shape.empty() && shape != shapeKindName(true) && shape != shapeKindName(false)) {
    return Error{"compile-sweep CSV: metadata 'shape': '" + shape + "' is not known: allowed " + shapeKindName(true) +
                 ", " + shapeKindName(false)};
  }
  const bool static_shape = shape == shapeKindName(true);
  CompileSweepRecord blank;
  blank.config.max_registers = static_cast<int>(std::min<std::int64_t>(maxrregcount, 255));
  for (Policy p : sweepDecisionPolicies()) blank.decisions.push_back({p, -1, std::nullopt, {}});
  blank.candidates.assign(sweepCandidatePolicies().size(), CandidateState::kNotCandidate);
  auto rows = columnsFromCsv<CompileSweepRecord>(
      compileSweepColumns(), table, "compile-sweep CSV", blank, [&](CompileSweepRecord& e) {
        e.config.fp32_outputs = fp32_outputs && e.config.dtype != DType::kF32;
        // Vector loads and the shape as the sweep built them.
        if (d.rnumel > 0) {
          e.config = configForShape(e.config, d.xnumel, d.rnumel, static_shape && d.xnumel > 0);
        }
        if (!e.ok) {
          e.decisions.clear();
        } else if (e.registers < 0) {
          return std::string("column registers_per_thread: a compiled row needs its register count");
        }
        return std::string();
      });
  if (!rows) return Error{rows.error()};
  d.rows = std::move(rows).value();
  d.total_configs = d.rows.size();
  const std::string configs = table.metaValue("configs");  // "40 of 52"
  if (const auto of = configs.find(" of "); of != std::string::npos) {
    std::int64_t total = 0;
    const std::string tail = configs.substr(of + 4);
    const auto r = std::from_chars(tail.data(), tail.data() + tail.size(), total);
    if (r.ec == std::errc() && total > 0) d.total_configs = static_cast<std::size_t>(total);
  }
  return d;
}

nlohmann::json compileSweepDatasetToJson(const CompileSweepDataset& data) {
  return columnsToJson(compileSweepColumns(), data.rows, data.meta);
}

bool isCompileSweepCsv(const CsvTable& table) {
  return table.metaValue("format") == kCompileSweepFormat;
}

CsvTable compileSweepBatchInput(const CompileSweepDataset& data) {
  CsvTable t;
  const std::string xnumel = std::to_string(data.xnumel), rnumel = std::to_string(data.rnumel);
  t.meta = {{"sweep_arch", data.arch.smName()},
            {"sweep_device", data.device_label},
            {"workload", data.metaValue("workload")},
            {"dtype", data.metaValue("dtype")},
            {"xnumel", xnumel},
            {"rnumel", rnumel}};
  t.header = {
      "index",    "origin",    "status", "xnumel", "rnumel", "xblock", "rblock", "num_warps", "registers_per_thread",
      "n_spills", "smem_bytes"};
  auto known = [](int v, bool ok) { return ok && v >= 0 ? std::to_string(v) : std::string(); };
  for (const auto& r : data.rows) {
    t.rows.push_back({std::to_string(r.index), r.origin, r.ok ? "ok" : "error", xnumel, rnumel,
                      std::to_string(r.config.xblock), std::to_string(r.config.rblock),
                      std::to_string(r.config.num_warps), known(r.registers, r.ok), known(r.n_spills, r.ok),
                      r.ok && r.smem_bytes > 0 ? std::to_string(r.smem_bytes) : "0"});
  }
  return t;
}

CsvTable compileSweepToCsv(const CompileSweepResult& result,
                           const std::vector<std::pair<std::string, std::string>>& extra_meta) {
  return datasetFromResult(result, extra_meta).toCsv();
}

nlohmann::json compileSweepToJson(const CompileSweepResult& result,
                                  const std::vector<std::pair<std::string, std::string>>& extra_meta) {
  return compileSweepDatasetToJson(datasetFromResult(result, extra_meta));
}

}  // namespace occx
