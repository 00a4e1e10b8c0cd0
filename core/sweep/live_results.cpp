#include "core/sweep/live_results.h"

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

std::string num(double v, int digits) {
  std::ostringstream s;
  s << std::fixed << std::setprecision(digits) << v;
  return s.str();
}

std::string flag(bool b) { return b ? "1" : "0"; }

constexpr std::array<std::string_view, 7> kStatusNames = {"ok",           "wrong result", "launch failed",
                                                          "out of memory", "compile failed", "skipped",
                                                          "cancelled"};

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
  if (value) return num(*value, digits);
  return "unavailable: " + (unavailable.empty() ? std::string("no reason given") : unavailable);
}

std::string_view runStatusName(RunStatus status) { return kStatusNames[static_cast<std::size_t>(status)]; }

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
    case inductor::Policy::kOld: return added_old;
    case inductor::Policy::kNew: return added_new;
    case inductor::Policy::kExact: return added_exact;
    case inductor::Policy::kReviewMin: return false;  // not replayed: no candidate set of its own
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

const std::vector<std::string>& liveColumns() {
  static const std::vector<std::string> cols = {
      "config",           "workload",          "dtype",
      "k",                "xblock",            "rblock",
      "num_warps",        "vector_loads",      "fp32_outputs",     "in_grid",
      "inductor_candidate", "added_old",       "added_new",
      "added_exact",      "registers",         "spill_stores_bytes",
      "spill_loads_bytes", "n_spills",         "static_smem_bytes",
      "theoretical_occupancy_pct", "status",   "reason",
      "grid_blocks",      "time_us",           "min_us",
      "max_us",           "spread_pct",        "runs",
      "kernel_time_us",   "bandwidth_GBps",    "pct_of_copy",
      "max_abs_error",    "achieved_occupancy_pct", "dram_read_bytes",
      "dram_write_bytes", "local_load_bytes",  "local_store_bytes"};
  return cols;
}

CsvTable liveDatasetToCsv(const LiveDataset& data) {
  CsvTable t;
  t.meta.emplace_back(std::string(kLiveFormatKey), std::string(kLiveFormatValue));
  for (const auto& m : data.meta) {
    if (m.first != kLiveFormatKey) t.meta.push_back(m);
  }
  t.header = liveColumns();
  for (const auto& r : data.rows) {
    const auto& c = r.config;
    const bool timed = r.ok();
    t.rows.push_back({
        c.label(),
        std::string(workloadName(c.workload)),
        std::string(dtypeName(c.dtype)),
        std::to_string(c.k),
        std::to_string(c.xblock),
        std::to_string(c.rblock),
        std::to_string(c.num_warps),
        flag(c.vector_loads),
        flag(c.fp32_outputs),
        flag(r.in_grid),
        flag(r.inductor_candidate),
        flag(r.added_old),
        flag(r.added_new),
        flag(r.added_exact),
        std::to_string(r.registers),
        std::to_string(r.spill_stores_bytes),
        std::to_string(r.spill_loads_bytes),
        std::to_string(r.n_spills),
        std::to_string(r.static_smem_bytes),
        r.theoretical_occupancy_pct < 0 ? "" : num(r.theoretical_occupancy_pct, 1),
        std::string(runStatusName(r.status)),
        r.reason,
        std::to_string(r.grid_blocks),
        timed ? num(r.time.median_us, 3) : "",
        timed ? num(r.time.min_us, 3) : "",
        timed ? num(r.time.max_us, 3) : "",
        timed ? num(r.time.spread_pct, 3) : "",
        std::to_string(r.time.runs),
        r.kernel_time_us ? num(*r.kernel_time_us, 3) : "",
        timed ? num(r.bandwidth_GBps, 1) : "",
        timed ? num(r.pct_of_copy, 2) : "",
        r.max_abs_error < 0 ? "" : [&] {
          std::ostringstream s;
          s << std::setprecision(6) << r.max_abs_error;
          return s.str();
        }(),
        r.achieved_occupancy_pct.text(2),
        r.dram_read_bytes.text(0),
        r.dram_write_bytes.text(0),
        r.local_load_bytes.text(0),
        r.local_store_bytes.text(0),
    });
  }
  return t;
}

namespace {

struct RowReader {
  const CsvTable& table;
  std::vector<int> idx;
  std::size_t line = 0;  ///< 1-based data row number for messages
  std::string error;

  const std::string& cell(std::size_t col, const std::vector<std::string>& row) const {
    static const std::string kEmpty;
    const int i = idx[col];
    return i < 0 ? kEmpty : row[static_cast<std::size_t>(i)];
  }
  bool fail(std::size_t col, const std::string& text, const char* what) {
    if (error.empty()) {
      error = "row " + std::to_string(line) + ", column " + liveColumns()[col] + ": '" + text + "' is not " + what;
    }
    return false;
  }
  bool integer(std::size_t col, const std::vector<std::string>& row, std::int64_t& out, bool optional = false) {
    const std::string& s = cell(col, row);
    if (s.empty() && optional) return true;
    const auto* b = s.data();
    const auto* e = s.data() + s.size();
    auto r = std::from_chars(b, e, out);
    if (r.ec != std::errc() || r.ptr != e) return fail(col, s, "an integer");
    return true;
  }
  bool integer(std::size_t col, const std::vector<std::string>& row, int& out, bool optional = false) {
    std::int64_t v = out;
    if (!integer(col, row, v, optional)) return false;
    out = static_cast<int>(v);
    return true;
  }
  bool real(std::size_t col, const std::vector<std::string>& row, std::optional<double>& out) {
    const std::string& s = cell(col, row);
    out.reset();
    if (s.empty()) return true;
    try {
      std::size_t used = 0;
      const double v = std::stod(s, &used);
      if (used != s.size()) return fail(col, s, "a number");
      out = v;
    } catch (...) {
      return fail(col, s, "a number");
    }
    return true;
  }
  bool real(std::size_t col, const std::vector<std::string>& row, double& out, double empty_value) {
    std::optional<double> v;
    if (!real(col, row, v)) return false;
    out = v.value_or(empty_value);
    return true;
  }
  bool metric(std::size_t col, const std::vector<std::string>& row, Metric& out) {
    const std::string& s = cell(col, row);
    constexpr std::string_view kPrefix = "unavailable: ";
    if (s.empty()) {
      out = Metric::missing("not recorded");
      return true;
    }
    if (s.rfind(kPrefix, 0) == 0) {
      out = Metric::missing(s.substr(kPrefix.size()));
      return true;
    }
    std::optional<double> v;
    if (!real(col, row, v)) return false;
    out = Metric::of(*v);
    return true;
  }
};

enum Col : std::size_t {
  kConfig, kWorkload, kDType, kK, kXBlock, kRBlock, kNumWarps, kVectorLoads, kFp32Outputs, kInGrid, kInductor, kAddedOld,
  kAddedNew, kAddedExact, kRegisters, kSpillStores, kSpillLoads, kNSpills, kSmem, kTheoOcc, kStatus, kReason,
  kGridBlocks, kTime, kMin, kMax, kSpread, kRuns, kKernelTime, kBandwidth, kPctCopy, kMaxErr, kAchievedOcc,
  kDramRead, kDramWrite, kLocalLoad, kLocalStore
};

}  // namespace

Expected<LiveDataset> liveDatasetFromCsv(const CsvTable& table) {
  if (table.metaValue(kLiveFormatKey) != kLiveFormatValue) {
    return Error{"not a live-sweep dataset: the metadata line '# " + std::string(kLiveFormatKey) + ": " +
                 std::string(kLiveFormatValue) + "' is missing"};
  }
  RowReader rd{table, {}, 0, {}};
  const auto& cols = liveColumns();
  const std::vector<std::size_t> required = {kWorkload, kDType, kXBlock, kRBlock, kNumWarps, kStatus, kTime};
  for (std::size_t c = 0; c < cols.size(); ++c) rd.idx.push_back(table.column(cols[c]));
  for (auto c : required) {
    if (rd.idx[c] < 0) return Error{"live-sweep dataset: required column '" + cols[c] + "' is missing"};
  }
  LiveDataset data;
  for (const auto& m : table.meta) {
    if (m.first != kLiveFormatKey) data.meta.push_back(m);
  }
  for (const auto& row : table.rows) {
    ++rd.line;
    LiveRow r;
    auto w = parseWorkload(rd.cell(kWorkload, row));
    if (!w) return Error{"row " + std::to_string(rd.line) + ": " + w.error()};
    auto d = parseDType(rd.cell(kDType, row));
    if (!d) return Error{"row " + std::to_string(rd.line) + ": " + d.error()};
    auto st = parseRunStatus(rd.cell(kStatus, row));
    if (!st) return Error{"row " + std::to_string(rd.line) + ": " + st.error()};
    r.config.workload = *w;
    r.config.dtype = *d;
    r.status = *st;
    int vl = 1, f32out = 0, in_grid = 0, ind = 0, ao = 0, an = 0, ae = 0;
    bool ok = rd.integer(kK, row, r.config.k, true) && rd.integer(kXBlock, row, r.config.xblock) &&
              rd.integer(kRBlock, row, r.config.rblock) && rd.integer(kNumWarps, row, r.config.num_warps) &&
              rd.integer(kVectorLoads, row, vl, true) && rd.integer(kFp32Outputs, row, f32out, true) &&
              rd.integer(kInGrid, row, in_grid, true) &&
              rd.integer(kInductor, row, ind, true) && rd.integer(kAddedOld, row, ao, true) &&
              rd.integer(kAddedNew, row, an, true) && rd.integer(kAddedExact, row, ae, true) &&
              rd.integer(kRegisters, row, r.registers, true) && rd.integer(kSpillStores, row, r.spill_stores_bytes, true) &&
              rd.integer(kSpillLoads, row, r.spill_loads_bytes, true) && rd.integer(kNSpills, row, r.n_spills, true) &&
              rd.integer(kSmem, row, r.static_smem_bytes, true) &&
              rd.real(kTheoOcc, row, r.theoretical_occupancy_pct, -1.0) &&
              rd.integer(kGridBlocks, row, r.grid_blocks, true) && rd.real(kTime, row, r.time.median_us, 0.0) &&
              rd.real(kMin, row, r.time.min_us, 0.0) && rd.real(kMax, row, r.time.max_us, 0.0) &&
              rd.real(kSpread, row, r.time.spread_pct, 0.0) && rd.integer(kRuns, row, r.time.runs, true) &&
              rd.real(kKernelTime, row, r.kernel_time_us) && rd.real(kBandwidth, row, r.bandwidth_GBps, 0.0) &&
              rd.real(kPctCopy, row, r.pct_of_copy, 0.0) && rd.real(kMaxErr, row, r.max_abs_error, -1.0) &&
              rd.metric(kAchievedOcc, row, r.achieved_occupancy_pct) && rd.metric(kDramRead, row, r.dram_read_bytes) &&
              rd.metric(kDramWrite, row, r.dram_write_bytes) && rd.metric(kLocalLoad, row, r.local_load_bytes) &&
              rd.metric(kLocalStore, row, r.local_store_bytes);
    if (!ok) return Error{"live-sweep dataset: " + rd.error};
    r.config.vector_loads = vl != 0;
    r.config.fp32_outputs = f32out != 0;
    r.in_grid = in_grid != 0;
    r.inductor_candidate = ind != 0;
    r.added_old = ao != 0;
    r.added_new = an != 0;
    r.added_exact = ae != 0;
    r.reason = rd.cell(kReason, row);
    if (r.ok() && !(r.time.median_us > 0.0)) {
      return Error{"live-sweep dataset: row " + std::to_string(rd.line) + ": status ok but time_us is not positive"};
    }
    data.rows.push_back(std::move(r));
  }
  return data;
}

}  // namespace occx
