#include "core/triton/kernel_measurements.h"

#include <algorithm>
#include <chrono>
#include <iomanip>
#include <map>
#include <sstream>

#include "core/base/format.h"
#include "core/base/text.h"
#include "core/triton/launch_plan.h"

namespace occx::triton {

using inductor::Decision;
using inductor::Outcome;
using inductor::Policy;

std::string MeasuredConfig::configText() const {
  std::string s = "X" + std::to_string(xblock);
  if (yblock > 0) s += " Y" + std::to_string(yblock);
  if (r0_block > 0) s += " R" + std::to_string(r0_block);
  if (r1_block > 0) s += "×" + std::to_string(r1_block);
  s += " w" + std::to_string(num_warps);
  if (num_stages > 1) s += " s" + std::to_string(num_stages);
  return s;
}

namespace {

std::string configText(const inductor::ReductionConfig& c, int yblock) {
  MeasuredConfig r;
  r.xblock = c.xblock;
  r.yblock = yblock;
  r.r0_block = c.r0_block;
  r.r1_block = c.r1_block;
  r.num_warps = c.num_warps;
  r.num_stages = c.num_stages;
  return r.configText();
}

// Which configs each policy has: the candidates, plus the halved copy of each candidate the policy
// decides to scale (found among the compiled configs, else listed as not compiled).
struct PolicySets {
  std::vector<inductor::PolicySet> member;             ///< per config
  std::vector<std::vector<NotCompiled>> not_compiled;  ///< per config (candidates only)
};

PolicySets policySets(const RunKernel& k) {
  PolicySets s;
  s.member.assign(k.configs.size(), inductor::PolicySet());
  s.not_compiled.assign(k.configs.size(), {});
  for (std::size_t i = 0; i < k.configs.size(); ++i) {
    const RunConfig& rc = k.configs[i];
    if (rc.origin != ConfigOrigin::kCandidate) continue;
    for (Policy p : inductor::kPolicies) {
      s.member[i].insert(p);
      const Decision* d = rc.decision(p);
      if (d == nullptr || d->outcome != Outcome::kScale || !d->new_config) continue;
      bool found = false;
      for (std::size_t j = 0; j < k.configs.size(); ++j) {
        if (k.configs[j].config.sameLaunchConfig(*d->new_config) && k.configs[j].yblock == rc.yblock) {
          s.member[j].insert(p);
          found = true;
        }
      }
      if (!found) s.not_compiled[i].push_back({p, configText(*d->new_config, rc.yblock)});
    }
  }
  return s;
}

MeasuredConfig baseRow(const RunKernel& k, const RunConfig& rc, const std::string& device) {
  MeasuredConfig r;
  r.kernel = k.module.name;
  r.module = k.module.module_hash;
  r.device = device;
  r.xblock = rc.config.xblock;
  r.yblock = rc.yblock;
  r.r0_block = rc.config.r0_block;
  r.r1_block = rc.config.r1_block;
  r.num_warps = rc.config.num_warps;
  r.num_stages = rc.config.num_stages;
  r.origin = std::string(configOriginName(rc.origin));
  r.winner = rc.winner;
  r.n_regs = rc.config.n_regs.value_or(-1);
  r.n_spills = rc.config.n_spills.value_or(-1);
  if (rc.occupancy) r.occupancy_pct = rc.occupancy->occupancy * 100.0;
  r.over_spill_threshold = rc.over_spill_threshold;
  for (Policy p : inductor::kPolicies) {
    const Decision* d = rc.decision(p);
    if (d != nullptr) r.decisions.push_back(std::string(inductor::outcomeName(d->outcome)));
  }
  if (r.decisions.size() != inductor::kPolicies.size()) r.decisions.clear();
  return r;
}

void fillFromOutcome(MeasuredConfig& r, const RunOutcome& o, double copy_GBps) {
  const std::int64_t bytes_moved = r.measured.bytes_moved;  // the plan's, when the runner did not say
  r.measured = o;
  if (r.measured.bytes_moved == 0) r.measured.bytes_moved = bytes_moved;
  applyBandwidth(r.measured, copy_GBps);
  Measurement& m = r.measured;
  // Registers as Triton counts them (the cubin) against the loaded kernel.
  const int driver_registers = m.attributes.registers;
  const int driver_local_bytes = m.attributes.local_bytes;
  if (driver_registers >= 0 && r.n_regs >= 0 && driver_registers != r.n_regs) {
    m.reason += std::string(m.reason.empty() ? "" : "; ") + "the driver reports " + std::to_string(driver_registers) +
                " registers, the cubin " + std::to_string(r.n_regs);
  }
  if (driver_local_bytes >= 0 && r.n_spills >= 0 && driver_local_bytes / 4 != r.n_spills) {
    m.reason += std::string(m.reason.empty() ? "" : "; ") + "the driver reports " + std::to_string(driver_local_bytes) +
                " B local per thread (n_spills " + std::to_string(driver_local_bytes / 4) + "), the cubin n_spills " +
                std::to_string(r.n_spills);
  }
}

void skipAll(std::vector<MeasuredConfig>& rows, std::size_t from, RunStatus status, const std::string& why) {
  for (std::size_t i = from; i < rows.size(); ++i) {
    rows[i].measured.status = status;
    rows[i].measured.reason = why;
  }
}

std::string nowUtc() {
  const std::time_t t = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::ostringstream s;
  s << std::put_time(&tm, "%Y-%m-%dT%H:%M:%SZ");
  return s.str();
}

}  // namespace

const KernelPicks* picksOf(const KernelMeasurements& m, const std::string& kernel) {
  const auto it =
      std::find_if(m.picks.begin(), m.picks.end(), [&](const KernelPicks& k) { return k.kernel == kernel; });
  return it == m.picks.end() ? nullptr : &*it;
}

std::vector<KernelPicks> summarizeMeasurements(const std::vector<MeasuredConfig>& rows) {
  const std::vector<Policy> policies(inductor::kPolicies.begin(), inductor::kPolicies.end());
  std::vector<KernelPicks> out;
  std::size_t i = 0;
  while (i < rows.size()) {
    std::size_t end = i;
    while (end < rows.size() && rows[end].kernel == rows[i].kernel && rows[end].module == rows[i].module) ++end;
    std::vector<PickInput> in;
    for (std::size_t r = i; r < end; ++r)
      in.push_back({&rows[r].measured, rows[r].in_set, rows[r].over_spill_threshold});
    KernelPicks k;
    static_cast<PickSummary&>(k) = summarizePicks(in, policies);
    // Row indices into the whole run's rows.
    const int offset = static_cast<int>(i);
    if (k.best_row >= 0) k.best_row += offset;
    for (auto& p : k.picks) {
      if (p.row >= 0) p.row += offset;
      for (std::size_t r = i; r < end; ++r) {
        for (const NotCompiled& n : rows[r].not_compiled) {
          if (n.policy == p.policy) p.not_compiled.push_back(n.config);
        }
      }
    }
    k.kernel = rows[i].kernel;
    k.module = rows[i].module;
    k.rows = static_cast<int>(end - i);
    for (std::size_t r = i; r < end; ++r) {
      const MeasuredConfig& row = rows[r];
      if (row.winner) k.winner_row = static_cast<int>(r);
      if (row.measured.status == RunStatus::kWrongResult) k.outputs_agree = false;
      if (row.ok()) ++k.ok_rows;
    }
    if (k.winner_row >= 0 && rows[static_cast<std::size_t>(k.winner_row)].ok() && k.best_time_us > 0) {
      k.winner_regret = k.timeOf(rows[static_cast<std::size_t>(k.winner_row)].measured) / k.best_time_us;
    }
    out.push_back(std::move(k));
    i = end;
  }
  return out;
}

std::vector<MeasuredConfig> kernelConfigRows(const RunKernel& k, const std::string& device) {
  std::vector<MeasuredConfig> rows;
  const PolicySets sets = policySets(k);
  for (std::size_t c = 0; c < k.configs.size(); ++c) {
    MeasuredConfig r = baseRow(k, k.configs[c], device);
    r.in_set = sets.member[c];
    r.not_compiled = sets.not_compiled[c];
    rows.push_back(std::move(r));
  }
  return rows;
}

namespace {

// The measurements' metadata (device, driver, date, L2 flush, timing), and the copy bandwidth
// bandwidths are checked against (cached per user, else measured now; 0 when it failed: a note).
double addMeasurementMeta(GpuRunner& runner, const MeasureOptions& options, KernelMeasurements& result) {
  const DeviceInfo& dev = runner.device();
  result.meta = {{"device", dev.name},
                 {"compute_capability", dev.cc.str()},
                 {"sm_count", std::to_string(dev.sm_count)},
                 {"driver", runner.driverVersionText()},
                 {"date", nowUtc()},
                 {"l2_flushed", options.run.flush_l2 ? "yes" : "no"}};
  double copy_GBps = 0.0;
  if (auto copy = runner.copyBandwidth(false)) {
    copy_GBps = copy->GBps;
  } else {
    result.notes.push_back("copy bandwidth: " + copy.error() + " (bandwidths without DRAM bytes are not shown)");
  }
  for (auto& kv : timingMetadata(options.run, copy_GBps)) result.meta.push_back(std::move(kv));
  return copy_GBps;
}

// Run order: the autotuner's winner, then Inductor's candidates, then the rest — the first config
// that writes its outputs becomes the reference the others are checked against.
std::vector<std::size_t> measureOrder(const RunKernel& k) {
  std::vector<std::size_t> order(k.configs.size());
  for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    auto rank = [&](std::size_t c) {
      return k.configs[c].winner ? 0 : k.configs[c].origin == ConfigOrigin::kCandidate ? 1 : 2;
    };
    return rank(a) < rank(b);
  });
  return order;
}

// What measuring a kernel's configs needs besides the kernel: the runner and its device, the
// options, the copy bandwidth, how many kernels there are, progress and cancel.
struct MeasureContext {
  GpuRunner& runner;
  const DeviceInfo& dev;
  const MeasureOptions& options;
  double copy_GBps;
  int kernels;
  const std::function<void(const MeasureProgress&)>& progress;
  const std::atomic<bool>* cancel;

  [[nodiscard]] bool cancelled() const { return cancel != nullptr && cancel->load(); }
};

// Launches config c of kernel k with the plan's buffers into its row, unless its module cannot be
// built or its cubin is for another GPU.
void measureConfig(const MeasureContext& ctx, const RunKernel& k, std::size_t c, const LaunchPlan& plan,
                   MeasuredConfig& row, bool& cancelled) {
  auto module = tritonModule(k, k.configs[c], plan);
  if (!module) {
    row.measured.status = RunStatus::kSkipped;
    row.measured.reason = "not launched: " + module.error();
  } else if (module->arch != ctx.dev.cc) {
    row.measured.status = RunStatus::kSkipped;
    row.measured.reason = "not launched: the cubin is for " + module->arch.smName() + ", this GPU (" + ctx.dev.name +
                          ") is CC " + ctx.dev.cc.str();
  } else {
    fillFromOutcome(row, ctx.runner.run(*module, ctx.options.run, ctx.cancel), ctx.copy_GBps);
    if (row.measured.status == RunStatus::kCancelled) cancelled = true;
  }
}

// Measures kernel k's configs (its rows from `first` on) in run order; on a cancel the rows not
// run yet are marked cancelled.
void measureConfigsInOrder(const MeasureContext& ctx, const RunKernel& k, int ki, const LaunchPlan& plan,
                           std::size_t first, KernelMeasurements& result) {
  const std::vector<std::size_t> order = measureOrder(k);
  int done = 0;
  for (std::size_t c : order) {
    MeasuredConfig& row = result.rows[first + c];
    if (ctx.cancelled()) {
      for (std::size_t rest : order) {
        MeasuredConfig& r = result.rows[first + rest];
        if (r.measured.status == RunStatus::kSkipped && r.measured.reason.empty()) {
          r.measured.status = RunStatus::kCancelled;
          r.measured.reason = "cancelled before it ran";
        }
      }
      result.cancelled = true;
      break;
    }
    ++done;
    measureConfig(ctx, k, c, plan, row, result.cancelled);
    if (ctx.progress) {
      MeasureProgress p;
      p.kernel = k.module.name;
      p.kernel_index = ki;
      p.kernels = ctx.kernels;
      p.done = done;
      p.total = static_cast<int>(k.configs.size());
      p.row = &row;
      ctx.progress(p);
    }
  }
}

// Adds kernel k's rows (number ki of the kernels) and measures them: its buffers planned and set
// up once, then each config launched on them.
void measureKernel(const MeasureContext& ctx, const RunKernel& k, int ki, KernelMeasurements& result) {
  const std::size_t first = result.rows.size();
  for (auto& r : kernelConfigRows(k, ctx.dev.name)) result.rows.push_back(std::move(r));
  if (k.configs.empty()) return;
  if (ctx.cancelled()) {
    skipAll(result.rows, first, RunStatus::kCancelled, "cancelled before it ran");
    result.cancelled = true;
    return;
  }
  auto plan = planLaunch(k, ctx.options.seed);
  if (!plan) {
    skipAll(result.rows, first, RunStatus::kSkipped, "not launched: " + plan.error());
    return;
  }
  for (std::size_t i = first; i < result.rows.size(); ++i) {
    result.rows[i].buffers_from = plan->buffers_from;
    result.rows[i].measured.bytes_moved = plan->problem.bytesMoved();
  }
  if (auto e = ctx.runner.setBufferProblem(plan->problem)) {
    const bool oom = e->message.rfind("out of memory", 0) == 0;
    skipAll(result.rows, first, oom ? RunStatus::kOutOfMemory : RunStatus::kLaunchFailed,
            "buffers not set up: " + e->message);
    return;
  }
  measureConfigsInOrder(ctx, k, ki, *plan, first, result);
  (void)ctx.runner.clearProblem();
  for (const auto& n : plan->notes) result.notes.push_back(k.module.name + ": " + n);
}

}  // namespace

KernelMeasurements measureKernelConfigs(GpuRunner& runner, const std::vector<const RunKernel*>& kernels,
                                        const MeasureOptions& options,
                                        const std::function<void(const MeasureProgress&)>& progress,
                                        const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  KernelMeasurements result;
  const double copy_GBps = addMeasurementMeta(runner, options, result);
  const MeasureContext ctx{runner,   runner.device(), options, copy_GBps, static_cast<int>(kernels.size()),
                           progress, cancel};
  int ki = 0;
  for (const RunKernel* kp : kernels) measureKernel(ctx, *kp, ++ki, result);
  result.picks = summarizeMeasurements(result.rows);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

// ---- columns -----------------------------------------------------------------------------------

namespace {

using RunColumn = Column<MeasuredConfig>;

RunColumn textColumn(std::string key, std::string title, std::string MeasuredConfig::*field, bool required = false) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kText,
          [field](const MeasuredConfig& r) { return r.*field; },
          [field](MeasuredConfig& r, const std::string& t) {
            r.*field = t;
            return std::string();
          },
          required};
}

RunColumn intColumn(std::string key, std::string title, int MeasuredConfig::*field, int unknown) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kNumber,
          [field, unknown](const MeasuredConfig& r) {
            return r.*field == unknown ? std::string() : std::to_string(r.*field);
          },
          [field, unknown](MeasuredConfig& r, const std::string& t) {
            if (t.empty()) {
              r.*field = unknown;
              return std::string();
            }
            return readInteger(t, r.*field, false);
          },
          false};
}

RunColumn boolColumn(std::string key, std::string title, bool MeasuredConfig::*field) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kNumber,
          [field](const MeasuredConfig& r) { return std::string(r.*field ? "1" : "0"); },
          [field](MeasuredConfig& r, const std::string& t) { return readFlag(t, r.*field, false); },
          false};
}

/// "spills→X1 R8192 w16; new→X2 R1024 w8" and back.
std::string notCompiledText(const std::vector<NotCompiled>& list) {
  std::vector<std::string> parts;
  for (const auto& n : list) parts.push_back(std::string(inductor::policyKey(n.policy)) + "→" + n.config);
  return joined(parts, "; ");
}

std::string readNotCompiled(const std::string& text, std::vector<NotCompiled>& out) {
  out.clear();
  std::size_t pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find("; ", pos);
    if (end == std::string::npos) end = text.size();
    const std::string part = text.substr(pos, end - pos);
    const std::size_t arrow = part.find("→");
    if (arrow == std::string::npos) return "a list of POLICY→CONFIG joined by '; '";
    auto policy = inductor::parsePolicy(part.substr(0, arrow));
    if (!policy) return "a list of POLICY→CONFIG joined by '; ' with POLICY one of old, new, review_min, exact, spills";
    out.push_back({*policy, part.substr(arrow + std::string("→").size())});
    pos = end + 2;
  }
  return {};
}

std::vector<RunColumn> makeKernelRunColumns() {
  std::vector<RunColumn> c;
  c.push_back(textColumn("kernel", "kernel", &MeasuredConfig::kernel, true));
  c.push_back(textColumn("module", "module", &MeasuredConfig::module, true));
  c.push_back(textColumn("device", "device", &MeasuredConfig::device));
  c.push_back(
      {"config", "config", "", CellKind::kText, [](const MeasuredConfig& r) { return r.configText(); }, {}, false});
  c.push_back(intColumn("xblock", "XBLOCK", &MeasuredConfig::xblock, 0));
  c.push_back(intColumn("yblock", "YBLOCK", &MeasuredConfig::yblock, 0));
  c.push_back(intColumn("r0_block", "R0_BLOCK", &MeasuredConfig::r0_block, 0));
  c.push_back(intColumn("r1_block", "R1_BLOCK", &MeasuredConfig::r1_block, 0));
  c.push_back(intColumn("num_warps", "warps", &MeasuredConfig::num_warps, 0));
  c.push_back(intColumn("num_stages", "stages", &MeasuredConfig::num_stages, 0));
  c.push_back(textColumn("origin", "origin", &MeasuredConfig::origin));
  c.push_back(boolColumn("winner", "winner", &MeasuredConfig::winner));
  c.push_back(intColumn("registers_per_thread", "regs", &MeasuredConfig::n_regs, -1));
  c.push_back(intColumn("n_spills", "spills", &MeasuredConfig::n_spills, -1));
  c.push_back(measurementColumn("driver_registers", &MeasuredConfig::measured));
  c.push_back(measurementColumn("driver_local_bytes", &MeasuredConfig::measured));
  c.push_back({"theoretical_occupancy_pct", "occupancy", "%", CellKind::kNumber,
               [](const MeasuredConfig& r) { return r.occupancy_pct < 0 ? std::string() : fixed(r.occupancy_pct, 1); },
               [](MeasuredConfig& r, const std::string& t) { return readNumber(t, r.occupancy_pct, -1.0); }, false});
  c.push_back(measurementColumn("driver_active_blocks_per_sm", &MeasuredConfig::measured));
  c.push_back(measurementColumn("grid_blocks", &MeasuredConfig::measured));
  for (Policy p : inductor::kPolicies) {
    c.push_back({"in_" + std::string(inductor::policyKey(p)), std::string(inductor::policyKey(p)) + " set", "",
                 CellKind::kNumber,
                 [p](const MeasuredConfig& r) { return std::string(r.in_set.contains(p) ? "1" : "0"); },
                 [p](MeasuredConfig& r, const std::string& t) {
                   bool v = false;
                   std::string e = readFlag(t, v, false);
                   r.in_set.set(p, v);
                   return e;
                 },
                 false});
  }
  for (Policy p : inductor::kPolicies) {
    const std::size_t ri = inductor::policyIndex(p);
    c.push_back({std::string(inductor::policyKey(p)) + "_decision", std::string(inductor::policyKey(p)), "",
                 CellKind::kText,
                 [ri](const MeasuredConfig& r) { return ri < r.decisions.size() ? r.decisions[ri] : std::string(); },
                 [ri](MeasuredConfig& r, const std::string& t) {
                   if (t.empty()) return std::string();
                   if (r.decisions.size() < inductor::kPolicies.size()) r.decisions.resize(inductor::kPolicies.size());
                   r.decisions[ri] = t;
                   return std::string();
                 },
                 false});
  }
  c.push_back({"not_compiled", "halved, not compiled", "", CellKind::kText,
               [](const MeasuredConfig& r) { return notCompiledText(r.not_compiled); },
               [](MeasuredConfig& r, const std::string& t) { return readNotCompiled(t, r.not_compiled); }, false});
  c.push_back(boolColumn("over_spill_threshold", "spills>thr", &MeasuredConfig::over_spill_threshold));
  std::vector<std::string> keys = {"status", "reason"};
  keys.insert(keys.end(), measurementTimingKeys().begin(), measurementTimingKeys().end());
  for (const char* key : {"bytes_moved", "achieved_occupancy_pct", "dram_read_bytes", "dram_write_bytes",
                          "local_load_bytes", "local_store_bytes", "compared_with", "max_abs_error"}) {
    keys.emplace_back(key);
  }
  for (const std::string& key : keys) c.push_back(measurementColumn(key, &MeasuredConfig::measured));
  c.push_back(textColumn("buffers_from", "buffers from", &MeasuredConfig::buffers_from));
  c.push_back(textColumn("swept_for", "swept for", &MeasuredConfig::swept_for));
  c.push_back({"compile_s", "compile", "s", CellKind::kNumber,
               [](const MeasuredConfig& r) { return r.compile_s < 0 ? std::string() : fixed(r.compile_s, 2); },
               [](MeasuredConfig& r, const std::string& t) { return readNumber(t, r.compile_s, -1.0); }, false});
  c.push_back(textColumn("method", "method", &MeasuredConfig::method));
  return c;
}

}  // namespace

const std::vector<Column<MeasuredConfig>>& measuredConfigColumns() {
  static const std::vector<Column<MeasuredConfig>> columns = makeKernelRunColumns();
  return columns;
}

CsvTable measurementsToCsv(const KernelMeasurements& result) {
  std::vector<std::pair<std::string, std::string>> meta;
  meta.emplace_back("format", std::string(kMeasurementsFormatValue));
  for (const auto& m : result.meta) {
    if (m.first != "format") meta.push_back(m);
  }
  for (const auto& n : result.notes) meta.emplace_back("note", n);
  return columnsToCsv(measuredConfigColumns(), result.rows, std::move(meta));
}

Expected<KernelMeasurements> measurementsFromCsv(const CsvTable& table) {
  if (table.metaValue("format") != kMeasurementsFormatValue) {
    return Error{"not a kernel-runs CSV: its first line should be '# format: " + std::string(kMeasurementsFormatValue) +
                 "'"};
  }
  MeasuredConfig blank;
  blank.measured.setMetricsMissing("not recorded");
  auto rows = columnsFromCsv(measuredConfigColumns(), table, "kernel-runs CSV", blank);
  if (!rows) return Error{rows.error()};
  KernelMeasurements r;
  for (const auto& m : table.meta) {
    if (m.first == "note") {
      r.notes.push_back(m.second);
    } else if (m.first != "format") {
      r.meta.push_back(m);
    }
  }
  r.rows = std::move(rows).value();
  if (table.column("bandwidth_from") < 0) {  // written before bandwidths were checked
    double copy = 0.0;
    (void)readNumber(table.metaValue("copy_bandwidth_GBps"), copy, 0.0);
    for (auto& row : r.rows) applyRecordedBandwidth(row.measured, copy);
  }
  r.picks = summarizeMeasurements(r.rows);
  return r;
}

std::vector<std::vector<std::string>> picksTable(const KernelMeasurements& result) {
  std::vector<std::vector<std::string>> t;
  t.push_back({"kernel", "policy", "candidates", "benchmarked", "pick", "time µs", "regret", "halved, not compiled"});
  for (const auto& k : result.picks) {
    const std::string best =
        k.best_row >= 0 ? result.rows[static_cast<std::size_t>(k.best_row)].configText() : std::string("none ran");
    t.push_back({k.kernel, "best measured", std::to_string(k.rows), std::to_string(k.ok_rows), best,
                 k.best_row >= 0 ? fixed(k.best_time_us, 1) : std::string(), k.best_row >= 0 ? "1.00" : "", ""});
    if (k.winner_row >= 0) {
      const auto& w = result.rows[static_cast<std::size_t>(k.winner_row)];
      t.push_back({k.kernel, "Inductor's winner (.best_config)", "", "", w.configText(),
                   w.ok() ? fixed(w.measured.timeUs(), 1) : std::string(runStatusName(w.measured.status)),
                   k.winner_regret > 0 ? fixed(k.winner_regret, 2) : std::string(), ""});
    }
    for (const auto& p : k.picks) {
      std::string pick =
          p.row >= 0 ? result.rows[static_cast<std::size_t>(p.row)].configText() : std::string("none ran");
      if (p.all_over_threshold) pick += " (every config of the set over the spill threshold: the first)";
      t.push_back({k.kernel, std::string(inductor::policyKey(p.policy)), std::to_string(p.candidates),
                   std::to_string(p.benchmarked), pick, p.row >= 0 ? fixed(p.time_us, 1) : std::string(),
                   p.row >= 0 ? fixed(p.regret, 2) : std::string(), joined(p.not_compiled, ", ")});
    }
  }
  return t;
}

}  // namespace occx::triton
