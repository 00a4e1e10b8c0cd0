#include "core/sweep/live_results.h"

#include "core/base/format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace occx {

namespace {

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0.0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

std::string flag(bool b) {
  return b ? "1" : "0";
}

constexpr std::array<std::string_view, 7> kStatusNames = {
    "ok", "wrong result", "launch failed", "out of memory", "compile failed", "skipped", "cancelled"};

}  // namespace

TimingStats summarizeTimes(std::vector<double> samples) {
  TimingStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.runs = static_cast<int>(samples.size());
  s.median_us = quantile(samples, 0.5);
  s.min_us = samples.front();
  s.max_us = samples.back();
  s.p25_us = quantile(samples, 0.25);
  s.p75_us = quantile(samples, 0.75);
  s.spread_pct = s.median_us > 0.0 ? (s.p75_us - s.p25_us) / s.median_us * 100.0 : 0.0;
  return s;
}

double bandwidthGBps(std::int64_t bytes, double time_us) {
  if (!(time_us > 0.0)) return 0.0;
  return static_cast<double>(bytes) / (time_us * 1e-6) / 1e9;
}

std::string Metric::text(int digits) const {
  if (value) return fixed(*value, digits);
  return "unavailable: " + (unavailable.empty() ? std::string("no reason given") : unavailable);
}

std::string_view runStatusName(RunStatus status) {
  return kStatusNames[static_cast<std::size_t>(status)];
}

Expected<RunStatus> parseRunStatus(std::string_view text) {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i) {
    if (text == kStatusNames[i]) return static_cast<RunStatus>(i);
  }
  std::string all;
  for (auto n : kStatusNames) all += (all.empty() ? "" : ", ") + std::string(n);
  return Error{"status '" + std::string(text) + "' is not known: allowed " + all};
}

bool LiveRow::inPolicySet(inductor::Policy policy) const {
  if (inductor_candidate) return true;
  switch (policy) {
    case inductor::Policy::kOld:
      return added_old;
    case inductor::Policy::kNew:
      return added_new;
    case inductor::Policy::kExact:
      return added_exact;
    case inductor::Policy::kReviewMin:  // not replayed: no candidate set of its own
    case inductor::Policy::kSpills:     // not replayed on the family (its datasets have no spills-rule set)
      return false;
  }
  return false;
}

ReplaySummary summarizeReplay(const std::vector<LiveRow>& rows, int spill_threshold) {
  ReplaySummary s;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (!r.ok()) continue;
    if (s.best_row < 0 || r.time.median_us < s.best_time_us) {
      s.best_row = static_cast<int>(i);
      s.best_time_us = r.time.median_us;
      s.best_bandwidth_GBps = r.bandwidth_GBps;
    }
  }
  for (auto policy : kReplayPolicies) {
    PolicyPick p;
    p.policy = policy;
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      if (!r.inPolicySet(policy)) continue;
      ++p.candidates;
      if (!r.ok() || r.n_spills > spill_threshold) continue;
      ++p.benchmarked;
      if (p.row < 0 || r.time.median_us < p.time_us) {
        p.row = static_cast<int>(i);
        p.time_us = r.time.median_us;
        p.bandwidth_GBps = r.bandwidth_GBps;
      }
    }
    if (p.row >= 0 && s.best_time_us > 0.0) p.regret = p.time_us / s.best_time_us;
    s.picks.push_back(p);
  }
  return s;
}

std::string LiveDataset::metaValue(std::string_view key) const {
  for (const auto& [k, v] : meta) {
    if (k == key) return v;
  }
  return {};
}

namespace {

// "one of a, b, c" for a reader's message.
template <class Names>
std::string oneOf(const Names& names) {
  std::string all;
  for (const auto& n : names) all += (all.empty() ? "" : ", ") + std::string(n);
  return "one of " + all;
}

using LiveColumn = Column<LiveRow>;

LiveColumn integerColumn(std::string key, std::string title, const std::function<std::int64_t(const LiveRow&)>& get,
                         std::function<std::string(LiveRow&, const std::string&)> set, bool required = false) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kNumber,
          [get](const LiveRow& r) { return std::to_string(get(r)); },
          std::move(set),
          required};
}

LiveColumn flagColumn(std::string key, bool LiveRow::*field) {
  return {std::move(key),
          "",
          "",
          CellKind::kNumber,
          [field](const LiveRow& r) { return flag(r.*field); },
          [field](LiveRow& r, const std::string& t) { return readFlag(t, r.*field, false); },
          false};
}

/// A timing column: written with `digits` decimals for rows that ran ok, empty otherwise.
LiveColumn timedColumn(std::string key, std::string unit, int digits, double LiveRow::*field) {
  return {std::move(key),
          "",
          std::move(unit),
          CellKind::kNumber,
          [field, digits](const LiveRow& r) { return r.ok() ? fixed(r.*field, digits) : std::string(); },
          [field](LiveRow& r, const std::string& t) { return readNumber(t, r.*field, 0.0); },
          false};
}

LiveColumn timeStatColumn(std::string key, int digits, double TimingStats::*field, bool required = false) {
  return {std::move(key),
          "",
          "µs",
          CellKind::kNumber,
          [field, digits](const LiveRow& r) { return r.ok() ? fixed(r.time.*field, digits) : std::string(); },
          [field](LiveRow& r, const std::string& t) { return readNumber(t, r.time.*field, 0.0); },
          required};
}

/// A profiler metric: its value with `digits` decimals, or "unavailable: <reason>".
LiveColumn metricColumn(std::string key, std::string unit, int digits, Metric LiveRow::*field) {
  // A number column: JSON gets the value as a number and "unavailable: <reason>" as text.
  return {std::move(key),
          "",
          std::move(unit),
          CellKind::kNumber,
          [field, digits](const LiveRow& r) { return (r.*field).text(digits); },
          [field](LiveRow& r, const std::string& t) { return readMetric(t, r.*field); },
          false};
}

std::vector<LiveColumn> makeLiveColumns() {
  std::vector<LiveColumn> c;
  c.push_back({"config", "config", "", CellKind::kText, [](const LiveRow& r) { return r.config.label(); }, {}, false});
  c.push_back(
      {"workload", "", "", CellKind::kText,
       [](const LiveRow& r) { return std::string(workloadName(r.config.workload)); },
       [](LiveRow& r, const std::string& t) -> std::string {
         auto w = parseWorkload(t);
         if (!w)
           return oneOf(std::vector<std::string_view>{"sum", "sum_sq", "amax", "mean_var", "log_softmax", "fused_k"});
         r.config.workload = *w;
         return {};
       },
       true});
  c.push_back({"dtype", "", "", CellKind::kText,
               [](const LiveRow& r) { return std::string(dtypeName(r.config.dtype)); },
               [](LiveRow& r, const std::string& t) -> std::string {
                 auto d = parseDType(t);
                 if (!d) return oneOf(std::vector<std::string_view>{"fp32", "fp16", "bf16"});
                 r.config.dtype = *d;
                 return {};
               },
               true});
  c.push_back(integerColumn(
      "k", "K", [](const LiveRow& r) { return r.config.k; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.config.k, true); }));
  c.push_back(integerColumn(
      "xblock", "XBLOCK", [](const LiveRow& r) { return r.config.xblock; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.config.xblock, false); }, true));
  c.push_back(integerColumn(
      "rblock", "RBLOCK", [](const LiveRow& r) { return r.config.rblock; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.config.rblock, false); }, true));
  c.push_back(integerColumn(
      "num_warps", "warps", [](const LiveRow& r) { return r.config.num_warps; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.config.num_warps, false); }, true));
  c.push_back({"vector_loads", "", "", CellKind::kNumber, [](const LiveRow& r) { return flag(r.config.vector_loads); },
               [](LiveRow& r, const std::string& t) { return readFlag(t, r.config.vector_loads, true); }, false});
  c.push_back({"fp32_outputs", "", "", CellKind::kNumber, [](const LiveRow& r) { return flag(r.config.fp32_outputs); },
               [](LiveRow& r, const std::string& t) { return readFlag(t, r.config.fp32_outputs, false); }, false});
  c.push_back(flagColumn("in_grid", &LiveRow::in_grid));
  c.push_back(flagColumn("inductor_candidate", &LiveRow::inductor_candidate));
  c.push_back(flagColumn("added_old", &LiveRow::added_old));
  c.push_back(flagColumn("added_new", &LiveRow::added_new));
  c.push_back(flagColumn("added_exact", &LiveRow::added_exact));
  c.push_back(integerColumn(
      "registers", "regs", [](const LiveRow& r) { return r.registers; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.registers, true); }));
  c.push_back(integerColumn(
      "spill_stores_bytes", "spill st B", [](const LiveRow& r) { return r.spill_stores_bytes; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.spill_stores_bytes, true); }));
  c.push_back(integerColumn(
      "spill_loads_bytes", "spill ld B", [](const LiveRow& r) { return r.spill_loads_bytes; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.spill_loads_bytes, true); }));
  c.push_back(integerColumn(
      "n_spills", "n_spills", [](const LiveRow& r) { return r.n_spills; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.n_spills, true); }));
  c.push_back(integerColumn(
      "static_smem_bytes", "smem B", [](const LiveRow& r) { return r.static_smem_bytes; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.static_smem_bytes, true); }));
  c.push_back({"theoretical_occupancy_pct", "occ %", "%", CellKind::kNumber,
               [](const LiveRow& r) {
                 return r.theoretical_occupancy_pct < 0 ? std::string() : fixed(r.theoretical_occupancy_pct, 1);
               },
               [](LiveRow& r, const std::string& t) { return readNumber(t, r.theoretical_occupancy_pct, -1.0); },
               false});
  c.push_back({"status", "", "", CellKind::kText, [](const LiveRow& r) { return std::string(runStatusName(r.status)); },
               [](LiveRow& r, const std::string& t) -> std::string {
                 auto st = parseRunStatus(t);
                 if (!st) return oneOf(kStatusNames);
                 r.status = *st;
                 return {};
               },
               true});
  c.push_back({"reason", "", "", CellKind::kText, [](const LiveRow& r) { return r.reason; },
               [](LiveRow& r, const std::string& t) {
                 r.reason = t;
                 return std::string();
               },
               false});
  c.push_back(integerColumn(
      "grid_blocks", "blocks", [](const LiveRow& r) { return r.grid_blocks; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.grid_blocks, true); }));
  c.push_back(timeStatColumn("time_us", 3, &TimingStats::median_us, true));
  c.push_back(timeStatColumn("min_us", 3, &TimingStats::min_us));
  c.push_back(timeStatColumn("max_us", 3, &TimingStats::max_us));
  c.push_back({"spread_pct", "spread %", "%", CellKind::kNumber,
               [](const LiveRow& r) { return r.ok() ? fixed(r.time.spread_pct, 3) : std::string(); },
               [](LiveRow& r, const std::string& t) { return readNumber(t, r.time.spread_pct, 0.0); }, false});
  c.push_back(integerColumn(
      "runs", "runs", [](const LiveRow& r) { return r.time.runs; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.time.runs, true); }));
  c.push_back({"kernel_time_us", "", "µs", CellKind::kNumber,
               [](const LiveRow& r) { return r.kernel_time_us ? fixed(*r.kernel_time_us, 3) : std::string(); },
               [](LiveRow& r, const std::string& t) { return readOptionalNumber(t, r.kernel_time_us); }, false});
  c.push_back(timedColumn("bandwidth_GBps", "GB/s", 1, &LiveRow::bandwidth_GBps));
  c.push_back(timedColumn("pct_of_copy", "%", 2, &LiveRow::pct_of_copy));
  c.push_back({"max_abs_error", "", "", CellKind::kNumber,
               [](const LiveRow& r) {
                 if (r.max_abs_error < 0) return std::string();
                 std::ostringstream s;
                 s << std::setprecision(6) << r.max_abs_error;
                 return s.str();
               },
               [](LiveRow& r, const std::string& t) { return readNumber(t, r.max_abs_error, -1.0); }, false});
  c.push_back(metricColumn("achieved_occupancy_pct", "%", 2, &LiveRow::achieved_occupancy_pct));
  c.push_back(metricColumn("dram_read_bytes", "B", 0, &LiveRow::dram_read_bytes));
  c.push_back(metricColumn("dram_write_bytes", "B", 0, &LiveRow::dram_write_bytes));
  c.push_back(metricColumn("local_load_bytes", "B", 0, &LiveRow::local_load_bytes));
  c.push_back(metricColumn("local_store_bytes", "B", 0, &LiveRow::local_store_bytes));
  return c;
}

}  // namespace

std::string readMetric(const std::string& t, Metric& out) {
  constexpr std::string_view kPrefix = "unavailable: ";
  if (t.empty()) {
    out = Metric::missing("not recorded");
  } else if (t.rfind(kPrefix, 0) == 0) {
    out = Metric::missing(t.substr(kPrefix.size()));
  } else {
    double v = 0.0;
    if (auto e = readNumber(t, v, 0.0); !e.empty()) return e;
    out = Metric::of(v);
  }
  return {};
}

const std::vector<Column<LiveRow>>& liveRowColumns() {
  static const std::vector<Column<LiveRow>> columns = makeLiveColumns();
  return columns;
}

const std::vector<std::string>& liveColumns() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> k;
    for (const auto& c : liveRowColumns()) k.push_back(c.key);
    return k;
  }();
  return keys;
}

CsvTable liveDatasetToCsv(const LiveDataset& data) {
  std::vector<std::pair<std::string, std::string>> meta;
  meta.emplace_back(std::string(kLiveFormatKey), std::string(kLiveFormatValue));
  for (const auto& m : data.meta) {
    if (m.first != kLiveFormatKey) meta.push_back(m);
  }
  return columnsToCsv(liveRowColumns(), data.rows, std::move(meta));
}

nlohmann::json liveDatasetToJson(const LiveDataset& data) {
  const CsvTable t = liveDatasetToCsv(data);
  return columnsToJson(liveRowColumns(), data.rows, t.meta);
}

Expected<LiveDataset> liveDatasetFromCsv(const CsvTable& table) {
  if (table.metaValue(kLiveFormatKey) != kLiveFormatValue) {
    return Error{"not a live-sweep dataset: the metadata line '# " + std::string(kLiveFormatKey) + ": " +
                 std::string(kLiveFormatValue) + "' is missing"};
  }
  LiveRow blank;
  blank.config.vector_loads = true;  // files without the column were measured with vector loads
  blank.achieved_occupancy_pct = blank.dram_read_bytes = blank.dram_write_bytes = blank.local_load_bytes =
      blank.local_store_bytes = Metric::missing("not recorded");
  // Figures a GPU can measure: times within 10^12 µs, bandwidth within 10^5 GB/s (an H200 moves
  // 4.8 · 10^3), nothing negative; the SM count within 1 … 1024 (as makeDevice takes it).
  constexpr double kMaxTimeUs = 1e12;
  constexpr double kMaxGBps = 1e5;
  for (const char* key : {"sm_count", "copy_bandwidth_GBps"}) {
    const std::string v = table.metaValue(key);
    if (v.empty()) continue;
    double x = 0.0;
    const bool sm = std::string_view(key) == "sm_count";
    const std::string not_a = readNumber(v, x, 0.0);
    if (!not_a.empty() || (sm ? (x < 1 || x > 1024 || x != std::floor(x)) : (x <= 0.0 || x > kMaxGBps))) {
      return Error{"live-sweep dataset: metadata '" + std::string(key) + "': '" + v + "' is out of range: allowed " +
                   (sm ? "an integer 1 … 1024" : "a number above 0 and at most 100000 GB/s")};
    }
  }
  auto rows = columnsFromCsv<LiveRow>(liveRowColumns(), table, "live-sweep dataset", blank, [](LiveRow& r) {
    if (r.ok() && !(r.time.median_us > 0.0)) return std::string("status ok but time_us is not positive");
    for (const auto& [name, value] : {std::pair<const char*, double>{"time_us", r.time.median_us},
                                      {"min_us", r.time.min_us},
                                      {"max_us", r.time.max_us}}) {
      if (value < 0.0 || value > kMaxTimeUs)
        return "column " + std::string(name) + ": " + fixed(value, 1) + " is out of range: allowed 0 … 10^12 µs";
    }
    if (r.bandwidth_GBps < 0.0 || r.bandwidth_GBps > kMaxGBps)
      return "column bandwidth_GBps: " + fixed(r.bandwidth_GBps, 1) + " is out of range: allowed 0 … 100000 GB/s";
    return std::string();
  });
  if (!rows) return Error{rows.error()};
  LiveDataset data;
  for (const auto& m : table.meta) {
    if (m.first != kLiveFormatKey) data.meta.push_back(m);
  }
  data.rows = std::move(rows).value();
  // The kernels' shape as the sweep built them (files without "shape" were built with run-time shapes).
  std::int64_t xnumel = 0;
  std::int64_t rnumel = 0;
  if (table.metaValue("shape") == shapeKindName(true) &&
      readInteger(table.metaValue("xnumel"), xnumel, false).empty() &&
      readInteger(table.metaValue("rnumel"), rnumel, false).empty() && xnumel > 0 && rnumel > 0) {
    for (auto& r : data.rows) {
      const bool vector_loads = r.config.vector_loads;
      r.config = configForShape(r.config, xnumel, rnumel, true);
      r.config.vector_loads = vector_loads;  // as recorded
    }
  }
  return data;
}

}  // namespace occx
