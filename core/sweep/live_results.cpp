#include "core/sweep/live_results.h"

#include "core/sweep/compile_sweep.h"

#include "core/base/format.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <iomanip>
#include <sstream>

namespace occx {

namespace {

std::string flag(bool b) {
  return b ? "1" : "0";
}

}  // namespace

inductor::PolicySet LiveRow::inPolicySets() const {
  inductor::PolicySet sets = added_by;
  if (inductor_candidate) {
    for (inductor::Policy p : sweepCandidatePolicies()) sets.insert(p);
  }
  return sets;
}

PickSummary summarizeReplay(const std::vector<LiveRow>& rows, int spill_threshold) {
  std::vector<PickInput> in;
  in.reserve(rows.size());
  for (const auto& r : rows) in.push_back({&r.measured, r.inPolicySets(), r.n_spills > spill_threshold});
  return summarizePicks(in, sweepCandidatePolicies());
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

/// Whether `policy`'s scaling added the row.
LiveColumn addedColumn(inductor::Policy policy) {
  return {"added_" + std::string(inductor::policyKey(policy)),
          "",
          "",
          CellKind::kNumber,
          [policy](const LiveRow& r) { return flag(r.added_by.contains(policy)); },
          [policy](LiveRow& r, const std::string& t) {
            bool v = false;
            std::string e = readFlag(t, v, false);
            r.added_by.set(policy, v);
            return e;
          },
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
  for (inductor::Policy p : sweepCandidatePolicies()) c.push_back(addedColumn(p));
  c.push_back(integerColumn(
      "registers_per_thread", "regs", [](const LiveRow& r) { return r.registers; },
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
      "smem_bytes", "smem B", [](const LiveRow& r) { return r.static_smem_bytes; },
      [](LiveRow& r, const std::string& t) { return readInteger(t, r.static_smem_bytes, true); }));
  c.push_back({"theoretical_occupancy_pct", "occ %", "%", CellKind::kNumber,
               [](const LiveRow& r) {
                 return r.theoretical_occupancy_pct < 0 ? std::string() : fixed(r.theoretical_occupancy_pct, 1);
               },
               [](LiveRow& r, const std::string& t) { return readNumber(t, r.theoretical_occupancy_pct, -1.0); },
               false});
  std::vector<std::string> keys = {"status", "reason", "grid_blocks"};
  keys.insert(keys.end(), measurementTimingKeys().begin(), measurementTimingKeys().end());
  for (const char* key : {"max_abs_error", "achieved_occupancy_pct", "dram_read_bytes", "dram_write_bytes",
                          "local_load_bytes", "local_store_bytes"}) {
    keys.emplace_back(key);
  }
  for (const std::string& key : keys) c.push_back(measurementColumn(key, &LiveRow::measured, key == "time_us"));
  return c;
}

}  // namespace

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
  blank.measured.setMetricsMissing("not recorded");
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
    const Measurement& m = r.measured;
    if (r.ok() && !(m.time.median_us > 0.0)) return std::string("status ok but time_us is not positive");
    if (r.ok() && m.kernel_time && !(m.kernel_time->median_us > 0.0))
      return std::string("status ok but kernel_time_us is not positive");
    for (const auto& [name, value] :
         {std::pair<const char*, double>{"time_us", m.time.median_us},
          {"min_us", m.time.min_us},
          {"max_us", m.time.max_us},
          {"kernel_time_us", m.kernel_time ? m.kernel_time->median_us : 0.0},
          {"warm_time_us", m.warm_time ? m.warm_time->median_us : 0.0},
          {"warm_kernel_time_us", m.warm_kernel_time ? m.warm_kernel_time->median_us : 0.0}}) {
      if (value < 0.0 || value > kMaxTimeUs)
        return "column " + std::string(name) + ": " + fixed(value, 1) + " is out of range: allowed 0 … 10^12 µs";
    }
    if (m.bandwidth_GBps < 0.0 || m.bandwidth_GBps > kMaxGBps)
      return "column bandwidth_GBps: " + fixed(m.bandwidth_GBps, 1) + " is out of range: allowed 0 … 100000 GB/s";
    return std::string();
  });
  if (!rows) return Error{rows.error()};
  LiveDataset data;
  for (const auto& m : table.meta) {
    if (m.first != kLiveFormatKey) data.meta.push_back(m);
  }
  data.rows = std::move(rows).value();
  if (table.column("bandwidth_from") < 0) {  // written before bandwidths were checked
    double copy = 0.0;
    (void)readNumber(table.metaValue("copy_bandwidth_GBps"), copy, 0.0);
    for (auto& r : data.rows) applyRecordedBandwidth(r.measured, copy);
  }
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
