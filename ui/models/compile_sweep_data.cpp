#include "ui/models/compile_sweep_data.h"

#include <algorithm>
#include <charconv>

#include "core/inductor/rblock_scaling.h"
#include "core/occupancy/occupancy.h"

namespace occx::ui {

namespace {

int fullOccupancyRegisters(const ArchLimits& arch) {
  const int threads = arch.maxThreadsPerSm();
  return threads > 0 ? arch.registers_per_sm / threads : 0;
}

}  // namespace

std::string CompileSweepData::metaValue(const std::string& key) const {
  for (const auto& [name, value] : meta) {
    if (name == key) return value;
  }
  return {};
}

const DecisionCell* CompileSweepEntry::decision(inductor::Policy policy) const {
  for (const auto& d : decisions) {
    if (d.policy == policy) return &d;
  }
  return nullptr;
}

CompileSweepEntry entryFromRow(const CompileSweepRow& row) {
  CompileSweepEntry e;
  e.index = row.index;
  e.config = row.config;
  e.origin = row.origin;
  e.ok = row.ok;
  e.error = row.error;
  e.kernel_name = row.kernel_name;
  e.grid_blocks = row.grid_blocks;
  e.inductor_candidate = row.inductor_candidate;
  e.candidates = row.candidate;
  if (row.ok) {
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
    } else {
      e.active_blocks_per_sm = row.occupancy.active_blocks_per_sm;
      e.active_warps_per_sm = row.occupancy.active_warps_per_sm;
      e.occupancy_pct = 100.0 * row.occupancy.occupancy;
      e.limiter = row.occupancy.can_launch ? limiterNames(row.occupancy.limiters) : "cannot launch";
      for (const auto& d : row.decisions) {
        DecisionCell c;
        c.policy = d.policy;
        c.bound = d.applies ? d.bound_blocks_per_sm : -1;
        c.outcome = d.outcome;
        c.reason = d.reason;
        e.decisions.push_back(std::move(c));
      }
    }
  }
  return e;
}

CompileSweepData dataFromSpec(const CompileSweepSpec& spec) {
  CompileSweepData d;
  d.arch = spec.device.arch.cc;
  d.device_label = spec.device.label;
  d.sm_count = spec.device.sm_count;
  d.max_registers_per_thread = spec.device.arch.max_registers_per_thread;
  d.full_occupancy_registers = fullOccupancyRegisters(spec.device.arch);
  d.xnumel = spec.xnumel;
  d.rnumel = spec.rnumel;
  d.workload = spec.workload;
  d.dtype = spec.dtype;
  d.k = spec.k;
  return d;
}

CompileSweepData dataFromResult(const CompileSweepResult& result,
                               const std::vector<std::pair<std::string, std::string>>& extra_meta) {
  CompileSweepData d = dataFromSpec(result.spec);
  d.csv = compileSweepToCsv(result, extra_meta);
  d.meta = d.csv.meta;
  for (const auto& r : result.rows) d.rows.push_back(entryFromRow(r));
  std::sort(d.rows.begin(), d.rows.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  d.compiler = result.compiler;
  d.date_utc = result.date_utc;
  d.cancelled = result.cancelled;
  d.total_configs = result.total_configs;
  return d;
}

namespace {

// The CSV holds outcomeName() and candidateStateName() texts; core has no parser for them, so they
// are matched here, once, against every value's name.
std::optional<inductor::Outcome> outcomeFromName(std::string_view name) {
  using inductor::Outcome;
  for (Outcome o : {Outcome::kNotApplicable, Outcome::kNoScale, Outcome::kScale, Outcome::kDuplicate}) {
    if (inductor::outcomeName(o) == name) return o;
  }
  return std::nullopt;
}

std::optional<CandidateState> candidateFromName(std::string_view name) {
  for (CandidateState c : {CandidateState::kNotCandidate, CandidateState::kBenchmarked, CandidateState::kExcludedSpills,
                           CandidateState::kNotCompiled}) {
    if (candidateStateName(c) == name) return c;
  }
  return std::nullopt;
}

struct CsvReader {
  const CsvTable& table;
  std::string error;

  [[nodiscard]] const std::string& cell(const std::vector<std::string>& row, int col) const {
    static const std::string kEmpty;
    return col < 0 || static_cast<std::size_t>(col) >= row.size() ? kEmpty : row[static_cast<std::size_t>(col)];
  }
  bool integer(const std::vector<std::string>& row, std::size_t line, int col, std::int64_t& out, bool optional) {
    const std::string& s = cell(row, col);
    if (s.empty()) {
      if (optional) return true;
      return fail(line, col, s, "an integer");
    }
    std::int64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return fail(line, col, s, "an integer");
    out = v;
    return true;
  }
  bool integer(const std::vector<std::string>& row, std::size_t line, int col, int& out, bool optional) {
    std::int64_t v = out;
    if (!integer(row, line, col, v, optional)) return false;
    if (v < -2147483647 || v > 2147483647) return fail(line, col, cell(row, col), "a 32-bit integer");
    out = static_cast<int>(v);
    return true;
  }
  bool real(const std::vector<std::string>& row, std::size_t line, int col, double& out) {
    const std::string& s = cell(row, col);
    if (s.empty()) return true;
    try {
      std::size_t used = 0;
      const double v = std::stod(s, &used);
      if (used != s.size()) return fail(line, col, s, "a number");
      out = v;
    } catch (...) {
      return fail(line, col, s, "a number");
    }
    return true;
  }
  bool fail(std::size_t line, int col, const std::string& text, const char* what) {
    if (error.empty()) {
      error = "compile-sweep CSV: row " + std::to_string(line) + ", column " +
              (col >= 0 ? table.header[static_cast<std::size_t>(col)] : std::string("?")) + ": '" + text + "' is not " +
              what;
    }
    return false;
  }
};

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

/// The sweep-wide facts of the metadata lines: format, architecture, shape, workload.
std::optional<Error> readSweepMeta(const CsvTable& table, const GpuDatabase& db, CompileSweepData& d) {
  const std::string format = table.metaValue("format");
  if (format.rfind("occupancy-explorer-live-sweep", 0) == 0) {
    return Error{"this is a live-sweep dataset (measured times): open it in the live view"};
  }
  if (format != "occx-compile-sweep 1") {
    return Error{"not a compile-sweep CSV: the metadata line '# format: occx-compile-sweep 1' is missing" +
                 (format.empty() ? std::string() : " (found '" + format + "')")};
  }
  d.csv = table;
  d.meta = table.meta;
  auto arch = ComputeCapability::parse(table.metaValue("arch"));
  if (!arch) return Error{"compile-sweep CSV: metadata 'arch': " + arch.error()};
  const ArchLimits* limits = db.findArch(*arch);
  if (limits == nullptr) {
    return Error{"compile-sweep CSV: architecture " + arch->smName() + " is not in the GPU data: known " + db.ccList()};
  }
  d.arch = *arch;
  d.device_label = table.metaValue("device");
  d.max_registers_per_thread = limits->max_registers_per_thread;
  d.full_occupancy_registers = fullOccupancyRegisters(*limits);
  d.compiler = table.metaValue("compiler");
  d.date_utc = table.metaValue("date_utc");
  d.cancelled = table.metaValue("cancelled") == "true";
  std::int64_t sm = 0;
  std::int64_t k = 1;
  for (const auto& [key, out] : std::vector<std::pair<const char*, std::int64_t*>>{
           {"sm_count", &sm}, {"xnumel", &d.xnumel}, {"rnumel", &d.rnumel}, {"k", &k}}) {
    if (auto e = metaInteger(table, key, *out)) return *e;
  }
  d.k = static_cast<int>(k);
  d.sm_count = static_cast<int>(sm);
  if (auto w = parseWorkload(table.metaValue("workload"))) d.workload = *w;
  if (auto t = parseDType(table.metaValue("dtype"))) d.dtype = *t;
  return std::nullopt;
}

/// Where each column of a compile-sweep CSV is (-1: absent), found by name.
struct SweepColumns {
  int index, workload, dtype, k, xblock, rblock, num_warps, status;  // required (but k)
  int origin, error, kernel, registers, spill_stores, spill_loads, stack, n_spills, smem, cache, compile_ms, grid,
      blocks, warps, occupancy, limiter, inductor;

  static Expected<SweepColumns> find(const CsvTable& t) {
    SweepColumns c{t.column("index"),
                   t.column("workload"),
                   t.column("dtype"),
                   t.column("k"),
                   t.column("XBLOCK"),
                   t.column("RBLOCK"),
                   t.column("num_warps"),
                   t.column("status"),
                   t.column("origin"),
                   t.column("error"),
                   t.column("kernel"),
                   t.column("registers_per_thread"),
                   t.column("spill_stores_bytes"),
                   t.column("spill_loads_bytes"),
                   t.column("stack_frame_bytes"),
                   t.column("n_spills"),
                   t.column("smem_bytes"),
                   t.column("cache_hit"),
                   t.column("compile_ms"),
                   t.column("grid_blocks"),
                   t.column("active_blocks_per_sm"),
                   t.column("active_warps_per_sm"),
                   t.column("occupancy_percent"),
                   t.column("occupancy_limiter"),
                   t.column("inductor_candidate")};
    for (const auto& [name, col] : std::vector<std::pair<const char*, int>>{{"index", c.index},
                                                                            {"workload", c.workload},
                                                                            {"dtype", c.dtype},
                                                                            {"XBLOCK", c.xblock},
                                                                            {"RBLOCK", c.rblock},
                                                                            {"num_warps", c.num_warps},
                                                                            {"status", c.status}}) {
      if (col < 0) return Error{"compile-sweep CSV: required column '" + std::string(name) + "' is missing"};
    }
    return c;
  }
};

using CsvRow = std::vector<std::string>;

/// The compiler's report, occupancy and decisions of a compiled row.
std::optional<Error> readCompiledFacts(CsvReader& rd, const SweepColumns& c, const CsvRow& row, std::size_t line,
                                       CompileSweepEntry& e) {
  if (!rd.integer(row, line, c.registers, e.registers, false) ||
      !rd.integer(row, line, c.spill_stores, e.spill_stores_bytes, true) ||
      !rd.integer(row, line, c.spill_loads, e.spill_loads_bytes, true) ||
      !rd.integer(row, line, c.stack, e.stack_frame_bytes, true) || !rd.integer(row, line, c.n_spills, e.n_spills, true) ||
      !rd.integer(row, line, c.smem, e.smem_bytes, true) || !rd.real(row, line, c.compile_ms, e.compile_ms) ||
      !rd.integer(row, line, c.blocks, e.active_blocks_per_sm, true) ||
      !rd.integer(row, line, c.warps, e.active_warps_per_sm, true) || !rd.real(row, line, c.occupancy, e.occupancy_pct)) {
    return Error{rd.error};
  }
  e.cache_hit = rd.cell(row, c.cache) == "yes";
  e.limiter = rd.cell(row, c.limiter);
  for (inductor::Policy p : sweepDecisionPolicies()) {
    const std::string key(inductor::policyKey(p));
    DecisionCell cell;
    cell.policy = p;
    if (!rd.integer(row, line, rd.table.column(key + "_bound_blocks_per_sm"), cell.bound, true)) return Error{rd.error};
    const std::string& outcome = rd.cell(row, rd.table.column(key + "_decision"));
    if (!outcome.empty()) {
      cell.outcome = outcomeFromName(outcome);
      if (!cell.outcome) {
        return Error{"compile-sweep CSV: row " + std::to_string(line) + ", column " + key + "_decision: '" + outcome +
                     "' is not one of not applicable, no scaling, scale, duplicate"};
      }
    }
    e.decisions.push_back(std::move(cell));
  }
  return std::nullopt;
}

/// Where the row stands in each policy's candidate set.
std::optional<Error> readCandidates(const CsvReader& rd, const CsvRow& row, std::size_t line, CompileSweepEntry& e) {
  for (inductor::Policy p : sweepCandidatePolicies()) {
    const std::string column = "candidate_" + std::string(inductor::policyKey(p));
    const std::string& s = rd.cell(row, rd.table.column(column));
    const auto state = s.empty() ? std::optional(CandidateState::kNotCandidate) : candidateFromName(s);
    if (!state) {
      return Error{"compile-sweep CSV: row " + std::to_string(line) + ", column " + column + ": '" + s +
                   "' is not one of no, benchmarked, excluded (spills), not compiled"};
    }
    e.candidates.push_back(*state);
  }
  return std::nullopt;
}

/// One row (`line`, 1-based) as an entry of sweep `d`.
Expected<CompileSweepEntry> readEntry(CsvReader& rd, const SweepColumns& c, const CsvRow& row, std::size_t line,
                                      const CompileSweepData& d, bool fp32_outputs, std::int64_t maxrregcount) {
  CompileSweepEntry e;
  auto w = parseWorkload(rd.cell(row, c.workload));
  if (!w) return Error{"compile-sweep CSV: row " + std::to_string(line) + ": " + w.error()};
  auto t = parseDType(rd.cell(row, c.dtype));
  if (!t) return Error{"compile-sweep CSV: row " + std::to_string(line) + ": " + t.error()};
  e.config.workload = *w;
  e.config.dtype = *t;
  e.config.fp32_outputs = fp32_outputs && *t != DType::kF32;
  e.config.max_registers = static_cast<int>(std::min<std::int64_t>(maxrregcount, 255));
  if (!rd.integer(row, line, c.index, e.index, false) || !rd.integer(row, line, c.k, e.config.k, true) ||
      !rd.integer(row, line, c.xblock, e.config.xblock, false) ||
      !rd.integer(row, line, c.rblock, e.config.rblock, false) ||
      !rd.integer(row, line, c.num_warps, e.config.num_warps, false)) {
    return Error{rd.error};
  }
  const std::string& status = rd.cell(row, c.status);
  if (status != "ok" && status != "error") {
    return Error{"compile-sweep CSV: row " + std::to_string(line) + ", column status: '" + status +
                 "' is not one of ok, error"};
  }
  e.ok = status == "ok";
  e.origin = rd.cell(row, c.origin);
  e.error = rd.cell(row, c.error);
  e.kernel_name = rd.cell(row, c.kernel);
  e.inductor_candidate = rd.cell(row, c.inductor) == "yes";
  // Vector loads as the sweep chose them for this shape.
  if (auto layout = tileLayout(e.config)) {
    e.config.vector_loads = d.rnumel > 0 ? vectorLoadsAllowed(*layout, d.rnumel) : true;
  }
  if (!rd.integer(row, line, c.grid, e.grid_blocks, true)) return Error{rd.error};
  if (e.ok) {
    if (auto error = readCompiledFacts(rd, c, row, line, e)) return *error;
  }
  if (auto error = readCandidates(rd, row, line, e)) return *error;
  return e;
}

/// The sweep's planned size from the "configs" metadata ("40 of 52"); `fallback` when absent.
std::size_t plannedConfigs(const CsvTable& table, std::size_t fallback) {
  const std::string configs = table.metaValue("configs");
  if (const auto of = configs.find(" of "); of != std::string::npos) {
    std::int64_t total = 0;
    const std::string tail = configs.substr(of + 4);
    const auto r = std::from_chars(tail.data(), tail.data() + tail.size(), total);
    if (r.ec == std::errc() && total > 0) return static_cast<std::size_t>(total);
  }
  return fallback;
}

}  // namespace

Expected<CompileSweepData> dataFromCsv(const CsvTable& table, const GpuDatabase& db) {
  CompileSweepData d;
  if (auto error = readSweepMeta(table, db, d)) return *error;
  auto columns = SweepColumns::find(table);
  if (!columns) return Error{columns.error()};
  const bool fp32_outputs = table.metaValue("output_dtype") == "fp32";
  std::int64_t maxrregcount = 0;
  if (auto e = metaInteger(table, "maxrregcount", maxrregcount)) return *e;
  CsvReader rd{table, {}};
  std::size_t line = 0;
  for (const auto& row : table.rows) {
    auto entry = readEntry(rd, *columns, row, ++line, d, fp32_outputs, maxrregcount);
    if (!entry) return Error{entry.error()};
    d.rows.push_back(std::move(entry).value());
  }
  d.total_configs = plannedConfigs(table, d.rows.size());
  return d;
}

}  // namespace occx::ui
