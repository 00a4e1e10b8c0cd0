#include "core/sweep/measurement.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "core/base/format.h"

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

constexpr std::array<std::string_view, 7> kStatusNames = {
    "ok", "wrong result", "launch failed", "out of memory", "compile failed", "skipped", "cancelled"};

std::string statusNames() {
  std::string all;
  for (auto n : kStatusNames) all += (all.empty() ? "" : ", ") + std::string(n);
  return all;
}

using MeasurementColumn = Column<Measurement>;

/// An integer where -1 means unknown (written empty, read back as -1).
MeasurementColumn knownInt(std::string key, std::string title, int& (*at)(Measurement&)) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kNumber,
          [at](const Measurement& m) {
            const int v = at(const_cast<Measurement&>(m));  // NOLINT(cppcoreguidelines-pro-type-const-cast): read only
            return v < 0 ? std::string() : std::to_string(v);
          },
          [at](Measurement& m, const std::string& t) {
            if (t.empty()) {
              at(m) = -1;
              return std::string();
            }
            return readInteger(t, at(m), false);
          },
          false};
}

/// A figure of an ok run, written with `digits` decimals (empty for rows that did not run ok).
MeasurementColumn okFigure(std::string key, std::string title, std::string unit, int digits,
                           double& (*at)(Measurement&)) {
  return {std::move(key),
          std::move(title),
          std::move(unit),
          CellKind::kNumber,
          [at, digits](const Measurement& m) {
            // NOLINTNEXTLINE(cppcoreguidelines-pro-type-const-cast): read only
            return m.ok() ? fixed(at(const_cast<Measurement&>(m)), digits) : std::string();
          },
          [at](Measurement& m, const std::string& t) { return readNumber(t, at(m), 0.0); },
          false};
}

/// A profiler metric: its value with `digits` decimals, or "unavailable: <reason>". A number
/// column: JSON gets the value as a number and "unavailable: <reason>" as text.
MeasurementColumn metricColumn(std::string key, std::string unit, int digits, Metric Measurement::*field) {
  return {std::move(key),
          "",
          std::move(unit),
          CellKind::kNumber,
          [field, digits](const Measurement& m) { return (m.*field).text(digits); },
          [field](Measurement& m, const std::string& t) { return readMetric(t, m.*field); },
          false};
}

/// A text field, written and read as it is.
MeasurementColumn textField(std::string key, std::string title, std::string Measurement::*field) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kText,
          [field](const Measurement& m) { return m.*field; },
          [field](Measurement& m, const std::string& t) {
            m.*field = t;
            return std::string();
          },
          false};
}

/// A timing kept as its median (µs, 3 decimals); empty = not measured.
MeasurementColumn optionalTime(std::string key, std::string title, std::optional<TimingStats> Measurement::*field) {
  return {std::move(key),
          std::move(title),
          "µs",
          CellKind::kNumber,
          [field](const Measurement& m) { return m.*field ? fixed((m.*field)->median_us, 3) : std::string(); },
          [field](Measurement& m, const std::string& t) {
            std::optional<double> v;
            std::string e = readOptionalNumber(t, v);
            if (!e.empty()) return e;
            if (v) {
              TimingStats k;
              k.median_us = *v;
              m.*field = k;
            } else {
              (m.*field).reset();
            }
            return std::string();
          },
          false};
}

std::vector<MeasurementColumn> makeMeasurementColumns() {
  std::vector<MeasurementColumn> c;
  c.push_back({"status", "status", "", CellKind::kText,
               [](const Measurement& m) { return std::string(runStatusName(m.status)); },
               [](Measurement& m, const std::string& t) -> std::string {
                 auto st = parseRunStatus(t);
                 if (!st) return "one of " + statusNames();
                 m.status = *st;
                 return {};
               },
               true});
  c.push_back(textField("reason", "reason", &Measurement::reason));
  c.push_back({"grid_blocks", "blocks", "", CellKind::kNumber,
               [](const Measurement& m) { return std::to_string(m.grid_blocks); },
               [](Measurement& m, const std::string& t) { return readInteger(t, m.grid_blocks, true); }, false});
  c.push_back(
      knownInt("driver_registers", "driver regs", [](Measurement& m) -> int& { return m.attributes.registers; }));
  c.push_back(knownInt("driver_local_bytes", "driver local B",
                       [](Measurement& m) -> int& { return m.attributes.local_bytes; }));
  c.push_back(knownInt("driver_active_blocks_per_sm", "driver active blocks/SM",
                       [](Measurement& m) -> int& { return m.driver_active_blocks_per_sm; }));
  c.push_back(
      okFigure("time_us", "events µs (cold)", "µs", 3, [](Measurement& m) -> double& { return m.time.median_us; }));
  c.push_back(okFigure("min_us", "min µs", "µs", 3, [](Measurement& m) -> double& { return m.time.min_us; }));
  c.push_back(okFigure("max_us", "max µs", "µs", 3, [](Measurement& m) -> double& { return m.time.max_us; }));
  c.push_back(okFigure("spread_pct", "spread %", "%", 3, [](Measurement& m) -> double& { return m.time.spread_pct; }));
  c.push_back({"runs", "runs", "", CellKind::kNumber,
               [](const Measurement& m) { return m.ok() ? std::to_string(m.time.runs) : std::string(); },
               [](Measurement& m, const std::string& t) { return readInteger(t, m.time.runs, true); }, false});
  c.push_back(optionalTime("kernel_time_us", "device µs (cold)", &Measurement::kernel_time));
  c.push_back(optionalTime("warm_time_us", "events µs (warm)", &Measurement::warm_time));
  c.push_back(optionalTime("warm_kernel_time_us", "device µs (warm)", &Measurement::warm_kernel_time));
  c.push_back(textField("warm_note", "warm not measured", &Measurement::warm_note));
  c.push_back(
      okFigure("bandwidth_GBps", "GB/s", "GB/s", 1, [](Measurement& m) -> double& { return m.bandwidth_GBps; }));
  c.push_back(okFigure("pct_of_copy", "% of copy", "%", 2, [](Measurement& m) -> double& { return m.pct_of_copy; }));
  c.push_back(textField("bandwidth_from", "bandwidth from", &Measurement::bandwidth_from));
  c.push_back({"bytes_moved", "bytes", "B", CellKind::kNumber,
               [](const Measurement& m) { return std::to_string(m.bytes_moved); },
               [](Measurement& m, const std::string& t) { return readInteger(t, m.bytes_moved, true); }, false});
  c.push_back(metricColumn("achieved_occupancy_pct", "%", 2, &Measurement::achieved_occupancy_pct));
  c.push_back(metricColumn("dram_read_bytes", "B", 0, &Measurement::dram_read_bytes));
  c.push_back(metricColumn("dram_write_bytes", "B", 0, &Measurement::dram_write_bytes));
  c.push_back(metricColumn("local_load_bytes", "B", 0, &Measurement::local_load_bytes));
  c.push_back(metricColumn("local_store_bytes", "B", 0, &Measurement::local_store_bytes));
  c.push_back({"compared_with", "outputs checked against", "", CellKind::kText,
               [](const Measurement& m) { return m.check.compared_with; },
               [](Measurement& m, const std::string& t) {
                 m.check.compared_with = t;
                 return std::string();
               },
               false});
  c.push_back({"max_abs_error", "max |error|", "", CellKind::kNumber,
               [](const Measurement& m) {
                 if (!m.checked) return std::string();
                 std::ostringstream s;
                 s << std::setprecision(6) << m.check.max_abs_error;
                 return s.str();
               },
               [](Measurement& m, const std::string& t) {
                 if (t.empty()) {
                   m.checked = false;
                   return std::string();
                 }
                 m.checked = true;
                 return readNumber(t, m.check.max_abs_error, 0.0);
               },
               false});
  return c;
}

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

std::string_view runStatusName(RunStatus status) {
  return kStatusNames[static_cast<std::size_t>(status)];
}

Expected<RunStatus> parseRunStatus(std::string_view text) {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i) {
    if (text == kStatusNames[i]) return static_cast<RunStatus>(i);
  }
  return Error{"status '" + std::string(text) + "' is not known: allowed " + statusNames()};
}

std::optional<double> Measurement::kernelTimeUs() const {
  if (!kernel_time) return std::nullopt;
  return kernel_time->median_us;
}

TimingStats Measurement::timeStats() const {
  if (kernel_time && kernel_time->runs > 0) return *kernel_time;
  TimingStats s = time;
  if (kernel_time && time.median_us > 0.0) {
    const double k = kernel_time->median_us / time.median_us;
    s.median_us *= k;
    s.min_us *= k;
    s.max_us *= k;
    s.p25_us *= k;
    s.p75_us *= k;
  }
  return s;
}

std::optional<double> Measurement::warmTimeUs() const {
  // The same source as timeUs(): CUPTI warm beside CUPTI cold, events beside events.
  const std::optional<TimingStats>& warm = warmTimeStats();
  return warm ? std::optional<double>(warm->median_us) : std::nullopt;
}

void applyBandwidth(Measurement& m, double copy_GBps) {
  m.bandwidth_GBps = 0.0;
  m.pct_of_copy = 0.0;
  m.bandwidth_from.clear();
  if (!m.ok()) return;
  const double t = m.timeUs();
  auto pct = [&](double bw) { return copy_GBps > 0.0 ? bw / copy_GBps * 100.0 : 0.0; };
  if (m.dram_read_bytes.value && m.dram_write_bytes.value) {
    const double bytes = *m.dram_read_bytes.value + *m.dram_write_bytes.value;
    const double bw = t > 0.0 ? bytes / (t * 1e-6) / 1e9 : 0.0;
    if (copy_GBps > 0.0 && bw > copy_GBps * (1.0 + kBandwidthTolerancePct / 100.0)) {
      m.bandwidth_from = "not shown: DRAM bytes / device time = " + fixed(bw, 0) + " GB/s, above the copy bandwidth " +
                         fixed(copy_GBps, 0) + " GB/s by more than " + fixed(kBandwidthTolerancePct, 0) + " %";
      return;
    }
    m.bandwidth_GBps = bw;
    m.pct_of_copy = pct(bw);
    m.bandwidth_from = "DRAM bytes";
    return;
  }
  const double estimate = bandwidthGBps(m.bytes_moved, t);
  const std::string why_no_dram =
      m.dram_read_bytes.value ? m.dram_write_bytes.unavailable : m.dram_read_bytes.unavailable;
  if (m.bytes_moved <= 0) {
    m.bandwidth_from = "not shown: no DRAM bytes (" + why_no_dram + ") and no buffer bytes known";
    return;
  }
  if (copy_GBps <= 0.0) {
    m.bandwidth_from = "not shown: no DRAM bytes (" + why_no_dram +
                       ") and no measured copy bandwidth to check the buffers' estimate against";
    return;
  }
  if (estimate > copy_GBps) {
    m.bandwidth_from = "not shown: no DRAM bytes (" + why_no_dram +
                       "); the buffers' bytes / time = " + fixed(estimate, 0) + " GB/s exceed the copy bandwidth " +
                       fixed(copy_GBps, 0) + " GB/s, so the kernel touches only part of its buffers";
    return;
  }
  m.bandwidth_GBps = estimate;
  m.pct_of_copy = pct(estimate);
  m.bandwidth_from = "buffer bytes (estimate: " + why_no_dram + ")";
}

std::string timeText(const Measurement& m, int digits) {
  std::string t = fixed(m.timeUs(), digits) + " µs ";
  t += m.kernel_time ? "device time" : "CUDA events (no CUPTI kernel records)";
  t += ", L2 cold (";
  if (auto w = m.warmTimeUs()) {
    t += "warm " + fixed(*w, digits) + " µs";
  } else {
    t += m.warm_note.empty() ? std::string("warm not measured") : m.warm_note;
  }
  if (m.kernel_time) t += "; CUDA events " + fixed(m.time.median_us, digits) + " µs";
  return t + ")";
}

std::string figureLegend(std::string_view unit) {
  const std::string u(unit);
  return "cold " + u + ": " + std::string(kTimeFigure) + "; warm " + u +
         ": the same with the inputs just written; configs are compared by cold " + u +
         ". DRAM GB/s: DRAM bytes read + written (CUPTI) / cold " + u +
         " (~: an estimate from the buffers' bytes where CUPTI's counters were not available); empty where "
         "above what the GPU can move (the CSV's bandwidth_from says why).";
}

void applyRecordedBandwidth(Measurement& m, double copy_GBps) {
  if (!m.ok()) return;
  if ((m.dram_read_bytes.value && m.dram_write_bytes.value) || m.bandwidth_GBps <= 0.0) {
    applyBandwidth(m, copy_GBps);
    return;
  }
  const double recorded = m.bandwidth_GBps;
  if (copy_GBps > 0.0 && recorded <= copy_GBps) {
    m.pct_of_copy = recorded / copy_GBps * 100.0;
    m.bandwidth_from = "bytes over CUDA events (recorded before DRAM bytes were measured)";
    return;
  }
  m.bandwidth_GBps = 0.0;
  m.pct_of_copy = 0.0;
  m.bandwidth_from = copy_GBps > 0.0 ? "not shown: recorded as " + fixed(recorded, 0) +
                                           " GB/s, above the copy bandwidth " + fixed(copy_GBps, 0) + " GB/s"
                                     : "not shown: recorded as " + fixed(recorded, 0) +
                                           " GB/s, and the file has no copy bandwidth to check it against";
}

const std::vector<std::string>& measurementTimingKeys() {
  static const std::vector<std::string> keys = {"time_us",
                                                "min_us",
                                                "max_us",
                                                "spread_pct",
                                                "runs",
                                                "kernel_time_us",
                                                "warm_kernel_time_us",
                                                "warm_time_us",
                                                "warm_note",
                                                "bandwidth_GBps",
                                                "pct_of_copy",
                                                "bandwidth_from"};
  return keys;
}

std::string bandwidthCell(const Measurement& m) {
  if (!m.ok() || m.bandwidth_GBps <= 0.0) return {};
  return (m.bandwidth_from == "DRAM bytes" ? "" : "~") + fixed(m.bandwidth_GBps, 0);
}

std::string bandwidthText(const Measurement& m) {
  if (m.bandwidth_GBps <= 0.0) {
    std::string why = m.bandwidth_from;
    if (why.rfind("not shown: ", 0) == 0) why = why.substr(11);
    return "no bandwidth: " + (why.empty() ? std::string("not computed") : why);
  }
  std::string t = fixed(m.bandwidth_GBps, 0) + " GB/s from " + m.bandwidth_from;
  if (m.pct_of_copy > 0.0) t += " (" + fixed(m.pct_of_copy, 1) + " % of copy)";
  return t;
}

StepAgreement stepAgreement(const Measurement& m, double in_step_us) {
  const double cold = m.timeUs();
  const std::optional<double> warm = m.warmTimeUs();
  if (!m.ok() || cold <= 0.0 || in_step_us <= 0.0) return {false, "not comparable"};
  const double lo = warm ? std::min(cold, *warm) : cold;
  const double hi = warm ? std::max(cold, *warm) : cold;
  if (warm && in_step_us >= lo && in_step_us <= hi) return {true, "between warm and cold"};
  auto near = [&](double v) { return std::abs(in_step_us - v) <= 0.10 * v; };
  if (near(cold)) return {true, "within 10 % of cold"};
  if (warm && near(*warm)) return {true, "within 10 % of warm"};
  const bool above = in_step_us > hi;
  const double ref = above ? hi : lo;
  const bool is_cold = ref == cold;
  return {false, "outside: " + fixed(ref / in_step_us, 2) + "× the in-step time (" + (is_cold ? "cold" : "warm") +
                     ", " + (above ? "below" : "above") + " it)"};
}

void Measurement::setMetricsMissing(const std::string& why) {
  achieved_occupancy_pct = dram_read_bytes = dram_write_bytes = local_load_bytes = local_store_bytes =
      Metric::missing(why);
}

const std::vector<Column<Measurement>>& measurementColumns() {
  static const std::vector<Column<Measurement>> columns = makeMeasurementColumns();
  return columns;
}

}  // namespace occx
