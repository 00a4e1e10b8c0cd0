#include "core/inductor/report.h"

#include "core/base/text.h"

#include <charconv>

#include "core/base/columns.h"
#include "core/base/format.h"

namespace occx::inductor {

namespace {

std::string optNum(const std::optional<int>& v) {
  return v ? num(*v) : std::string();
}

std::string trim(const std::string& s) {
  return trimmed(s, " \t");
}

}  // namespace

nlohmann::json configToJson(const ReductionConfig& c, Profile profile) {
  nlohmann::json j;
  j["XBLOCK"] = c.xblock;
  if (profile == Profile::kInductor2023) {
    j["RBLOCK"] = c.r0_block;
  } else {
    if (c.r1_block > 0) j["R1_BLOCK"] = c.r1_block;
    j["R0_BLOCK"] = c.r0_block;
  }
  j["num_warps"] = c.num_warps;
  j["num_stages"] = c.num_stages;
  j["registers_per_thread"] = c.n_regs ? nlohmann::json(*c.n_regs) : nlohmann::json(nullptr);
  j["n_spills"] = c.n_spills ? nlohmann::json(*c.n_spills) : nlohmann::json(nullptr);
  j["smem_bytes"] = c.shared_bytes;
  j["origin"] = c.origin;
  return j;
}

nlohmann::json decisionToJson(const Decision& d) {
  nlohmann::json j;
  j["policy"] = std::string(policyKey(d.policy));
  j["formula"] = std::string(policyFormula(d.policy));
  j["profile"] = std::string(profileInfo(d.profile).key);
  j["outcome"] = std::string(outcomeName(d.outcome));
  j["applies"] = d.applies;
  j["step"] = d.step;
  j["bound_blocks_per_sm"] = d.applies ? nlohmann::json(d.bound_blocks_per_sm) : nlohmann::json(nullptr);
  j["capacity_blocks"] = d.applies ? nlohmann::json(d.capacity_blocks) : nlohmann::json(nullptr);
  j["total_blocks"] = d.total_blocks;
  j["scale"] = d.scales();
  j["halved_kwarg"] = d.halved_kwarg;
  j["new_config"] = d.new_config && d.scales() ? configToJson(*d.new_config, d.profile) : nlohmann::json(nullptr);
  j["bound_arithmetic"] = d.bound_arithmetic;
  j["reason"] = d.reason;
  return j;
}

CsvTable decisionsToCsv(const std::vector<Decision>& decisions) {
  CsvTable t;
  t.header = {"policy", "applies", "bound_blocks_per_sm", "capacity_blocks", "total_blocks", "decision", "new_config",
              "step",   "reason",  "bound_arithmetic"};
  for (const auto& d : decisions) {
    t.rows.push_back(
        {std::string(policyKey(d.policy)), d.applies ? "yes" : "no", d.applies ? num(d.bound_blocks_per_sm) : "",
         d.applies ? num(d.capacity_blocks) : "", num(d.total_blocks), std::string(outcomeName(d.outcome)),
         d.scales() && d.new_config ? d.new_config->str(d.profile) : "", num(d.step), d.reason, d.bound_arithmetic});
  }
  if (!decisions.empty()) t.meta.push_back({"profile", std::string(profileInfo(decisions.front().profile).key)});
  return t;
}

CsvTable curvesToCsv(const BoundCurves& c) {
  CsvTable t;
  t.meta = {{"num_warps", num(c.num_warps)}, {"total_blocks", num(c.total_blocks)}};
  t.header = {"registers_per_thread",
              "old_bound_blocks_per_sm",
              "new_bound_blocks_per_sm",
              "review_min_bound_blocks_per_sm",
              "exact_bound_blocks_per_sm",
              "blocks_needed_per_sm",
              "old_decision",
              "new_decision",
              "exact_decision"};
  for (const auto& p : c.points) {
    t.rows.push_back({num(p.n_regs), num(p.old_bound), num(p.new_bound), num(p.review_min_bound), num(p.exact_bound),
                      fixed(c.blocks_needed_per_sm, 2), std::string(outcomeName(p.old_outcome)),
                      std::string(outcomeName(p.new_outcome)), std::string(outcomeName(p.exact_outcome))});
  }
  return t;
}

CsvTable pipelineToCsv(const Pipeline& p) {
  CsvTable t;
  t.meta = {{"profile", std::string(profileInfo(p.pass.profile).key)},
            {"policy", std::string(policyKey(p.pass.policy))}};
  t.header = {"index",     "stage",     "origin",
              "config",    "XBLOCK",    "R0_BLOCK",
              "R1_BLOCK",  "num_warps", "registers_per_thread",
              "n_spills",  "decision",  "reason",
              "autotuning"};
  for (std::size_t i = 0; i < p.entries.size(); ++i) {
    const auto& e = p.entries[i];
    t.rows.push_back({num(static_cast<std::int64_t>(i) + 1), e.added_by_scaling ? "added by scaling" : "candidate",
                      e.config.origin, e.config.str(p.pass.profile), num(e.config.xblock), num(e.config.r0_block),
                      e.config.r1_block > 0 ? num(e.config.r1_block) : "", num(e.config.num_warps),
                      optNum(e.config.n_regs), optNum(e.config.n_spills), std::string(outcomeName(e.decision.outcome)),
                      e.decision.reason, std::string(candidateStateName(e.spill))});
  }
  return t;
}

namespace {

// Where decideCsvBatch reads each input column (any of its names); -1 where it is absent.
struct BatchColumns {
  int xnumel = -1;
  int xblock = -1;
  int warps = -1;
  int rblock = -1;
  int nregs = -1;
  int rnumel = -1;
  int r1numel = -1;
  int r1block = -1;
  int nspills = -1;
  int shared = -1;
  int stages = -1;
  int gpu = -1;
  int persistent = -1;
};

// The columns of `in` decideCsvBatch reads.
BatchColumns findBatchColumns(const CsvTable& in) {
  auto col = [&](std::initializer_list<const char*> names) -> int {
    for (const char* n : names) {
      int c = findColumn(in, n);
      if (c >= 0) return c;
    }
    return -1;
  };
  BatchColumns c;
  c.xnumel = col({"xnumel"});
  c.xblock = col({"xblock", "XBLOCK"});
  c.warps = col({"num_warps"});
  c.rblock = col({"rblock", "r0_block", "RBLOCK", "R0_BLOCK"});
  c.nregs = col({"registers_per_thread"});
  c.rnumel = col({"rnumel"});
  c.r1numel = col({"r1numel"});
  c.r1block = col({"r1_block", "R1_BLOCK"});
  c.nspills = col({"n_spills", "nspills"});
  c.shared = col({"smem_bytes"});
  c.stages = col({"num_stages"});
  c.gpu = col({"gpu"});
  c.persistent = col({"persistent"});
  return c;
}

// No column given twice (it would be read from the first only), none of the required ones missing.
std::optional<Error> checkBatchColumns(const CsvTable& in, const BatchColumns& c) {
  for (std::initializer_list<const char*> names : {std::initializer_list<const char*>{"xnumel"},
                                                   {"xblock", "XBLOCK"},
                                                   {"num_warps"},
                                                   {"rblock", "r0_block", "RBLOCK", "R0_BLOCK"},
                                                   {"registers_per_thread", "registers", "nregs", "n_regs"},
                                                   {"rnumel"},
                                                   {"r1numel"},
                                                   {"r1_block", "R1_BLOCK"},
                                                   {"n_spills", "nspills"},
                                                   {"smem_bytes", "static_smem_bytes", "shared_bytes"},
                                                   {"num_stages"},
                                                   {"gpu"},
                                                   {"persistent"}}) {
    std::vector<std::size_t> seen;
    for (std::size_t i = 0; i < in.header.size(); ++i) {
      for (const char* n : names) {
        if (in.header[i] == n) seen.push_back(i);
      }
    }
    if (seen.size() > 1) {
      return Error{"input CSV has column '" + std::string(*names.begin()) + "' twice (columns " +
                   num(static_cast<std::int64_t>(seen[0] + 1)) + " '" + in.header[seen[0]] + "' and " +
                   num(static_cast<std::int64_t>(seen[1] + 1)) + " '" + in.header[seen[1]] + "')"};
    }
  }
  std::string missing;
  if (c.xnumel < 0) missing += " xnumel";
  if (c.xblock < 0) missing += " xblock";
  if (c.warps < 0) missing += " num_warps";
  if (c.rblock < 0) missing += " rblock";
  if (c.nregs < 0) missing += " registers_per_thread";
  if (!missing.empty()) {
    return Error{"input CSV lacks the column(s)" + missing +
                 ": required xnumel, xblock, num_warps, rblock (or r0_block), registers_per_thread (or n_regs, nregs); "
                 "optional rnumel, r1numel, r1_block, n_spills, smem_bytes, num_stages, gpu, persistent"};
  }
  return std::nullopt;
}

// The batch's output without rows: the input's metadata and header, then the profile, the CC gate
// and the device, and six columns per policy.
CsvTable batchOutputTable(const CsvTable& in, const BatchOptions& o, const std::vector<Policy>& policies) {
  CsvTable out;
  out.meta = in.meta;
  out.meta.push_back({"profile", std::string(profileInfo(o.options.profile).key)});
  out.meta.push_back({"cc_gate", std::string(ccGateName(effectiveCcGate(o.options)))});
  if (o.device)
    out.meta.push_back({"device", o.device->label});
  else
    out.meta.push_back({"default_gpu", o.default_gpu});
  out.header = in.header;
  out.header.push_back("size_hint_x");
  out.header.push_back("total_blocks");
  for (Policy p : policies) {
    const std::string k(policyKey(p));
    for (const char* suffix :
         {"_applies", "_bound_blocks_per_sm", "_capacity_blocks", "_decision", "_new_config", "_reason"}) {
      out.header.push_back(k + suffix);
    }
  }
  return out;
}

// One input row, its cells read as numbers; `where` ("row 3") starts every message.
class BatchRow {
 public:
  BatchRow(const std::vector<std::string>& cells, std::string where) : cells_(cells), where_(std::move(where)) {}

  [[nodiscard]] const std::vector<std::string>& cells() const { return cells_; }
  [[nodiscard]] const std::string& where() const { return where_; }

  // The trimmed cell of column c; empty where the column is absent.
  [[nodiscard]] std::string cell(int c) const {
    return c >= 0 && static_cast<std::size_t>(c) < cells_.size() ? trim(cells_[c]) : std::string();
  }

  // Parses an integer cell; empty → fallback (or an error when required).
  [[nodiscard]] Expected<std::int64_t> integer(int c, const char* name, std::optional<std::int64_t> fallback) const {
    const std::string s = cell(c);
    if (s.empty()) {
      if (fallback) return *fallback;
      return Error{where_ + ", column '" + name + "': empty, a whole number is required"};
    }
    std::int64_t v = 0;
    auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || ptr != s.data() + s.size()) {
      return Error{where_ + ", column '" + name + "': '" + s + "' is not a whole number"};
    }
    return v;
  }

  // A value within lo … hi, or the error naming its column.
  [[nodiscard]] std::optional<Error> fits(std::int64_t v, const char* name, std::int64_t lo, std::int64_t hi) const {
    if (v < lo || v > hi)
      return Error{where_ + ", column '" + name + "': " + num(v) + " is out of range: allowed " + num(lo) + " … " +
                   num(hi)};
    return std::nullopt;
  }

  // An optional count: an empty cell is none, otherwise a whole number lo … hi.
  [[nodiscard]] Expected<std::optional<int>> count(int c, const char* name, std::int64_t lo, std::int64_t hi) const {
    if (cell(c).empty()) return std::optional<int>();
    auto v = integer(c, name, std::nullopt);
    if (!v) return Error{v.error()};
    if (auto e = fits(*v, name, lo, hi)) return *e;
    return std::optional<int>(static_cast<int>(*v));
  }

 private:
  const std::vector<std::string>& cells_;
  std::string where_;
};

// What one input row describes: a config of a kernel on a device.
struct BatchCase {
  ReductionConfig config;
  KernelInfo kernel;
  Device device;
};

// The config, kernel and device of one input row, each cell checked in column order.
Expected<BatchCase> readBatchCase(const BatchRow& row, const BatchColumns& cols, const BatchOptions& o) {
  const std::string& where = row.where();
  auto xnumel = row.integer(cols.xnumel, "xnumel", std::nullopt);
  if (!xnumel) return Error{xnumel.error()};
  auto xblock = row.integer(cols.xblock, "xblock", std::nullopt);
  if (!xblock) return Error{xblock.error()};
  auto warps = row.integer(cols.warps, "num_warps", std::nullopt);
  if (!warps) return Error{warps.error()};
  auto rblock = row.integer(cols.rblock, "rblock", std::nullopt);
  if (!rblock) return Error{rblock.error()};
  auto rnumel = row.integer(cols.rnumel, "rnumel", *rblock);
  if (!rnumel) return Error{rnumel.error()};
  auto r1numel = row.integer(cols.r1numel, "r1numel", 0);
  if (!r1numel) return Error{r1numel.error()};
  auto r1block = row.integer(cols.r1block, "r1_block", 0);
  if (!r1block) return Error{r1block.error()};
  auto stages = row.integer(cols.stages, "num_stages", 1);
  if (!stages) return Error{stages.error()};
  auto shared = row.integer(cols.shared, "smem_bytes", 0);
  if (!shared) return Error{shared.error()};
  auto persistent = row.integer(cols.persistent, "persistent", 0);
  if (!persistent) return Error{persistent.error()};
  if (auto e = row.fits(*xblock, "xblock", 1, 4096)) return *e;
  if (auto e = row.fits(*rblock, "rblock", 1, 65536)) return *e;
  if (auto e = row.fits(*r1block, "r1_block", 0, 32768)) return *e;
  if (auto e = row.fits(*warps, "num_warps", 1, 32)) return *e;
  if (auto e = row.fits(*stages, "num_stages", 1, 8)) return *e;
  if (auto e = row.fits(*persistent, "persistent", 0, 1)) return *e;
  if (auto e = row.fits(*shared, "smem_bytes", 0, 1 << 30)) return *e;
  auto nregs = row.count(cols.nregs, "registers_per_thread", 1, 255);
  if (!nregs) return Error{nregs.error()};
  auto nspills = row.count(cols.nspills, "nspills", 0, 1 << 20);
  if (!nspills) return Error{nspills.error()};
  auto hints = sizeHintsFromNumels(*xnumel, *rnumel, *r1numel);
  if (!hints) return Error{where + ": " + hints.error()};

  std::string gpu = row.cell(cols.gpu);
  if (gpu.empty() && !o.device) gpu = o.default_gpu;
  auto device = gpu.empty() ? Expected<Device>(*o.device) : deviceForGpu(*o.db, gpu, o.sm_override);
  if (!device) return Error{where + ", column 'gpu': " + device.error()};

  ReductionConfig c;
  c.xblock = static_cast<int>(*xblock);
  c.r0_block = static_cast<int>(*rblock);
  c.r1_block = static_cast<int>(*r1block);
  c.num_warps = static_cast<int>(*warps);
  c.num_stages = static_cast<int>(*stages);
  c.n_regs = *nregs;
  c.n_spills = *nspills;
  c.shared_bytes = *shared;
  c.origin = "input " + where;
  if (auto e = validateConfig(c, *device, o.options.profile)) return Error{where + ": " + e->message};
  KernelInfo kernel;
  kernel.size_hints = *hints;
  kernel.persistent_reduction = *persistent != 0;
  return BatchCase{std::move(c), kernel, std::move(*device)};
}

// The output row: the input row (as wide as the header), size hint x, total blocks, then each
// policy's decision in six cells.
Expected<std::vector<std::string>> decideBatchRow(const BatchRow& row, std::size_t width, const BatchCase& bc,
                                                  const std::vector<Policy>& policies, const BatchOptions& o) {
  const ReductionConfig& c = bc.config;
  std::vector<std::string> outrow = row.cells();
  outrow.resize(width);
  outrow.push_back(num(bc.kernel.size_hints.x));
  outrow.push_back(num((bc.kernel.size_hints.x + c.xblock - 1) / c.xblock));
  for (Policy p : policies) {
    auto d = decide(p, c, bc.kernel, bc.device, o.options);
    if (!d) return Error{row.where() + ": " + d.error()};
    outrow.push_back(d->applies ? "yes" : "no");
    outrow.push_back(d->applies ? num(d->bound_blocks_per_sm) : "");
    outrow.push_back(d->applies ? num(d->capacity_blocks) : "");
    outrow.push_back(std::string(outcomeName(d->outcome)));
    outrow.push_back(d->scales() ? d->new_config->str(o.options.profile) : "");
    outrow.push_back(d->reason);
  }
  return outrow;
}

}  // namespace

Expected<CsvTable> decideCsvBatch(const CsvTable& in, const BatchOptions& o) {
  if (!o.db) return Error{"no GPU data given for the batch"};
  const std::vector<Policy> policies = o.policies.empty() ? boundPolicies() : o.policies;
  const BatchColumns cols = findBatchColumns(in);
  if (auto e = checkBatchColumns(in, cols)) return *e;
  CsvTable out = batchOutputTable(in, o, policies);
  for (std::size_t r = 0; r < in.rows.size(); ++r) {
    const BatchRow row(in.rows[r], "row " + num(static_cast<std::int64_t>(r) + 1));
    auto bc = readBatchCase(row, cols, o);
    if (!bc) return Error{bc.error()};
    auto outrow = decideBatchRow(row, in.header.size(), *bc, policies, o);
    if (!outrow) return Error{outrow.error()};
    out.rows.push_back(std::move(*outrow));
  }
  return out;
}

}  // namespace occx::inductor
