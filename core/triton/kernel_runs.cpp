#include "core/triton/kernel_runs.h"

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

std::string KernelRunRow::configText() const {
  std::string s = "X" + std::to_string(xblock);
  if (yblock > 0) s += " Y" + std::to_string(yblock);
  if (r0_block > 0) s += " R" + std::to_string(r0_block);
  if (r1_block > 0) s += "×" + std::to_string(r1_block);
  s += " w" + std::to_string(num_warps);
  if (num_stages > 1) s += " s" + std::to_string(num_stages);
  return s;
}

namespace {

std::vector<std::string> splitOn(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::size_t pos = 0;
  while (true) {
    const std::size_t next = s.find(sep, pos);
    out.push_back(s.substr(pos, next - pos));
    if (next == std::string::npos) break;
    pos = next + sep.size();
  }
  return out;
}

std::size_t ruleCount() {
  return inductor::decisionPolicies().size();
}

std::size_t ruleIndex(Policy p) {
  const auto& all = inductor::decisionPolicies();
  return static_cast<std::size_t>(std::find(all.begin(), all.end(), p) - all.begin());
}

std::string configText(const inductor::ReductionConfig& c, int yblock) {
  KernelRunRow r;
  r.xblock = c.xblock;
  r.yblock = yblock;
  r.r0_block = c.r0_block;
  r.r1_block = c.r1_block;
  r.num_warps = c.num_warps;
  r.num_stages = c.num_stages;
  return r.configText();
}

// Which configs each rule has: the candidates, plus the halved copy of each candidate the rule
// decides to scale (found among the compiled configs, else listed as not compiled).
struct RuleSets {
  std::vector<std::vector<bool>> member;  ///< [config][rule]
  std::vector<std::string> not_compiled;  ///< per config: "spills→X1 R8192 w16; …" (candidates only)
};

RuleSets ruleSets(const RunKernel& k) {
  RuleSets s;
  s.member.assign(k.configs.size(), std::vector<bool>(ruleCount(), false));
  s.not_compiled.assign(k.configs.size(), std::string());
  for (std::size_t i = 0; i < k.configs.size(); ++i) {
    const RunConfig& rc = k.configs[i];
    if (rc.origin != ConfigOrigin::kCandidate) continue;
    std::vector<std::string> missing;
    for (Policy p : inductor::decisionPolicies()) {
      const std::size_t ri = ruleIndex(p);
      s.member[i][ri] = true;
      const Decision* d = rc.decision(p);
      if (d == nullptr || d->outcome != Outcome::kScale || !d->new_config) continue;
      bool found = false;
      for (std::size_t j = 0; j < k.configs.size(); ++j) {
        if (k.configs[j].config.sameLaunchConfig(*d->new_config) && k.configs[j].yblock == rc.yblock) {
          s.member[j][ri] = true;
          found = true;
        }
      }
      if (!found) missing.push_back(std::string(inductor::policyKey(p)) + "→" + configText(*d->new_config, rc.yblock));
    }
    s.not_compiled[i] = joined(missing, "; ");
  }
  return s;
}

KernelRunRow baseRow(const RunKernel& k, const RunConfig& rc, const std::string& device) {
  KernelRunRow r;
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
  r.in_set.assign(ruleCount(), false);
  for (Policy p : inductor::decisionPolicies()) {
    const Decision* d = rc.decision(p);
    if (d != nullptr) r.decisions.push_back(std::string(inductor::outcomeName(d->outcome)));
  }
  if (r.decisions.size() != ruleCount()) r.decisions.clear();
  return r;
}

void fillFromOutcome(KernelRunRow& r, const RunOutcome& o) {
  r.status = o.status;
  r.reason = o.reason;
  r.driver_registers = o.attributes.registers;
  r.driver_local_bytes = o.attributes.local_bytes;
  r.driver_blocks_per_sm = o.driver_active_blocks_per_sm;
  r.grid_blocks = o.grid_blocks;
  r.time = o.time;
  if (o.kernel_time) r.kernel_time_us = o.kernel_time->median_us;
  r.bandwidth_GBps = o.bandwidth_GBps;
  r.achieved_occupancy_pct = o.achieved_occupancy_pct;
  r.compared_with = o.check.compared_with;
  if (o.checked) r.max_abs_error = o.check.max_abs_error;
  // Registers as Triton counts them (the cubin) against the loaded kernel.
  if (r.driver_registers >= 0 && r.n_regs >= 0 && r.driver_registers != r.n_regs) {
    r.reason += std::string(r.reason.empty() ? "" : "; ") + "the driver reports " + std::to_string(r.driver_registers) +
                " registers, the cubin " + std::to_string(r.n_regs);
  }
  if (r.driver_local_bytes >= 0 && r.n_spills >= 0 && r.driver_local_bytes / 4 != r.n_spills) {
    r.reason += std::string(r.reason.empty() ? "" : "; ") + "the driver reports " +
                std::to_string(r.driver_local_bytes) + " B local per thread (n_spills " +
                std::to_string(r.driver_local_bytes / 4) + "), the cubin n_spills " + std::to_string(r.n_spills);
  }
}

void skipAll(std::vector<KernelRunRow>& rows, std::size_t from, RunStatus status, const std::string& why) {
  for (std::size_t i = from; i < rows.size(); ++i) {
    rows[i].status = status;
    rows[i].reason = why;
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

std::vector<KernelPicks> summarizeKernelRuns(const std::vector<KernelRunRow>& rows) {
  std::vector<KernelPicks> out;
  std::size_t i = 0;
  while (i < rows.size()) {
    std::size_t end = i;
    while (end < rows.size() && rows[end].kernel == rows[i].kernel && rows[end].module == rows[i].module) ++end;
    KernelPicks k;
    k.kernel = rows[i].kernel;
    k.module = rows[i].module;
    k.rows = static_cast<int>(end - i);
    for (std::size_t r = i; r < end; ++r) {
      const KernelRunRow& row = rows[r];
      if (row.winner) k.winner_row = static_cast<int>(r);
      if (row.status == RunStatus::kWrongResult) k.outputs_agree = false;
      if (!row.ok()) continue;
      ++k.ok_rows;
      if (k.best_row < 0 || row.time.median_us < k.best_time_us) {
        k.best_row = static_cast<int>(r);
        k.best_time_us = row.time.median_us;
      }
    }
    if (k.winner_row >= 0 && rows[static_cast<std::size_t>(k.winner_row)].ok() && k.best_time_us > 0) {
      k.winner_regret = rows[static_cast<std::size_t>(k.winner_row)].time.median_us / k.best_time_us;
    }
    for (Policy p : inductor::decisionPolicies()) {
      const std::size_t ri = ruleIndex(p);
      RulePick pick;
      pick.policy = p;
      for (std::size_t r = i; r < end; ++r) {
        const KernelRunRow& row = rows[r];
        // not-compiled halved configs this rule adds, recorded on their candidate's row
        for (const std::string& part : splitOn(row.not_compiled, "; ")) {
          const std::string key = std::string(inductor::policyKey(p)) + "→";
          if (part.rfind(key, 0) == 0) pick.not_compiled.push_back(part.substr(key.size()));
        }
        if (ri >= row.in_set.size() || !row.in_set[ri]) continue;
        ++pick.candidates;
        if (!row.ok() || row.over_spill_threshold) continue;
        ++pick.benchmarked;
        if (pick.row < 0 || row.time.median_us < pick.time_us) {
          pick.row = static_cast<int>(r);
          pick.time_us = row.time.median_us;
        }
      }
      if (pick.row < 0) {
        // Every config of the set is over the spill threshold: Inductor times them all as inf and
        // min() keeps the first, in its order.
        for (std::size_t r = i; r < end && pick.row < 0; ++r) {
          const KernelRunRow& row = rows[r];
          if (ri < row.in_set.size() && row.in_set[ri] && row.ok()) {
            pick.row = static_cast<int>(r);
            pick.time_us = row.time.median_us;
          }
        }
      }
      if (pick.row >= 0 && k.best_time_us > 0) pick.regret = pick.time_us / k.best_time_us;
      k.picks.push_back(std::move(pick));
    }
    out.push_back(std::move(k));
    i = end;
  }
  return out;
}

std::vector<KernelRunRow> kernelConfigRows(const RunKernel& k, const std::string& device) {
  std::vector<KernelRunRow> rows;
  const RuleSets sets = ruleSets(k);
  for (std::size_t c = 0; c < k.configs.size(); ++c) {
    KernelRunRow r = baseRow(k, k.configs[c], device);
    r.in_set = sets.member[c];
    r.not_compiled = sets.not_compiled[c];
    rows.push_back(std::move(r));
  }
  return rows;
}

KernelRunsResult runKernelConfigs(GpuRunner& runner, const std::vector<const RunKernel*>& kernels,
                                  const KernelRunOptions& options,
                                  const std::function<void(const KernelRunProgress&)>& progress,
                                  const std::atomic<bool>* cancel) {
  const auto t0 = std::chrono::steady_clock::now();
  KernelRunsResult result;
  const DeviceInfo& dev = runner.device();
  result.meta = {{"device", dev.name},
                 {"compute_capability", dev.cc.str()},
                 {"sm_count", std::to_string(dev.sm_count)},
                 {"driver", runner.driverVersionText()},
                 {"date", nowUtc()},
                 {"l2_flushed", options.run.flush_l2 ? "yes" : "no"}};
  auto cancelled = [&] { return cancel != nullptr && cancel->load(); };
  int ki = 0;
  for (const RunKernel* kp : kernels) {
    const RunKernel& k = *kp;
    ++ki;
    const std::size_t first = result.rows.size();
    for (auto& r : kernelConfigRows(k, dev.name)) result.rows.push_back(std::move(r));
    if (k.configs.empty()) continue;
    if (cancelled()) {
      skipAll(result.rows, first, RunStatus::kCancelled, "cancelled before it ran");
      result.cancelled = true;
      continue;
    }
    auto plan = planLaunch(k, options.seed);
    if (!plan) {
      skipAll(result.rows, first, RunStatus::kSkipped, "not launched: " + plan.error());
      continue;
    }
    for (std::size_t i = first; i < result.rows.size(); ++i) {
      result.rows[i].buffers_from = plan->buffers_from;
      result.rows[i].bytes_moved = plan->problem.bytesMoved();
    }
    if (auto e = runner.setBufferProblem(plan->problem)) {
      const bool oom = e->message.rfind("out of memory", 0) == 0;
      skipAll(result.rows, first, oom ? RunStatus::kOutOfMemory : RunStatus::kLaunchFailed,
              "buffers not set up: " + e->message);
      continue;
    }
    // Run order: the autotuner's winner, then Inductor's candidates, then the rest — the first
    // config that writes its outputs becomes the reference the others are checked against.
    std::vector<std::size_t> order(k.configs.size());
    for (std::size_t c = 0; c < order.size(); ++c) order[c] = c;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      auto rank = [&](std::size_t c) {
        return k.configs[c].winner ? 0 : k.configs[c].origin == ConfigOrigin::kCandidate ? 1 : 2;
      };
      return rank(a) < rank(b);
    });
    int done = 0;
    for (std::size_t c : order) {
      KernelRunRow& row = result.rows[first + c];
      if (cancelled()) {
        for (std::size_t rest : order) {
          KernelRunRow& r = result.rows[first + rest];
          if (r.status == RunStatus::kSkipped && r.reason.empty()) {
            r.status = RunStatus::kCancelled;
            r.reason = "cancelled before it ran";
          }
        }
        result.cancelled = true;
        break;
      }
      ++done;
      auto module = tritonModule(k, k.configs[c], *plan);
      if (!module) {
        row.status = RunStatus::kSkipped;
        row.reason = "not launched: " + module.error();
      } else if (module->arch != dev.cc) {
        row.status = RunStatus::kSkipped;
        row.reason = "not launched: the cubin is for " + module->arch.smName() + ", this GPU (" + dev.name +
                     ") is CC " + dev.cc.str();
      } else {
        fillFromOutcome(row, runner.run(*module, options.run, cancel));
        if (row.status == RunStatus::kCancelled) result.cancelled = true;
      }
      if (progress) {
        KernelRunProgress p;
        p.kernel = k.module.name;
        p.kernel_index = ki;
        p.kernels = static_cast<int>(kernels.size());
        p.done = done;
        p.total = static_cast<int>(k.configs.size());
        p.row = &row;
        progress(p);
      }
    }
    (void)runner.clearProblem();
    for (const auto& n : plan->notes) result.notes.push_back(k.module.name + ": " + n);
  }
  result.picks = summarizeKernelRuns(result.rows);
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return result;
}

// ---- columns -----------------------------------------------------------------------------------

namespace {

using RunColumn = Column<KernelRunRow>;

RunColumn textColumn(std::string key, std::string title, std::string KernelRunRow::*field, bool required = false) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kText,
          [field](const KernelRunRow& r) { return r.*field; },
          [field](KernelRunRow& r, const std::string& t) {
            r.*field = t;
            return std::string();
          },
          required};
}

RunColumn intColumn(std::string key, std::string title, int KernelRunRow::*field, int unknown) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kNumber,
          [field, unknown](const KernelRunRow& r) {
            return r.*field == unknown ? std::string() : std::to_string(r.*field);
          },
          [field, unknown](KernelRunRow& r, const std::string& t) {
            if (t.empty()) {
              r.*field = unknown;
              return std::string();
            }
            return readInteger(t, r.*field, false);
          },
          false};
}

RunColumn boolColumn(std::string key, std::string title, bool KernelRunRow::*field) {
  return {std::move(key),
          std::move(title),
          "",
          CellKind::kNumber,
          [field](const KernelRunRow& r) { return std::string(r.*field ? "1" : "0"); },
          [field](KernelRunRow& r, const std::string& t) { return readFlag(t, r.*field, false); },
          false};
}

// A number written only for rows that ran ok.
RunColumn okNumber(std::string key, std::string unit, int digits, const std::function<double&(KernelRunRow&)>& at) {
  return {std::move(key),
          "",
          std::move(unit),
          CellKind::kNumber,
          [at, digits](const KernelRunRow& r) {
            return r.ok() ? fixed(at(const_cast<KernelRunRow&>(r)), digits)
                          : std::string();  // NOLINT(cppcoreguidelines-pro-type-const-cast): read only
          },
          [at](KernelRunRow& r, const std::string& t) { return readNumber(t, at(r), 0.0); },
          false};
}

std::vector<RunColumn> makeColumns() {
  std::vector<RunColumn> c;
  c.push_back(textColumn("kernel", "kernel", &KernelRunRow::kernel, true));
  c.push_back(textColumn("module", "module", &KernelRunRow::module, true));
  c.push_back(textColumn("device", "device", &KernelRunRow::device));
  c.push_back(
      {"config", "config", "", CellKind::kText, [](const KernelRunRow& r) { return r.configText(); }, {}, false});
  c.push_back(intColumn("xblock", "XBLOCK", &KernelRunRow::xblock, 0));
  c.push_back(intColumn("yblock", "YBLOCK", &KernelRunRow::yblock, 0));
  c.push_back(intColumn("r0_block", "R0_BLOCK", &KernelRunRow::r0_block, 0));
  c.push_back(intColumn("r1_block", "R1_BLOCK", &KernelRunRow::r1_block, 0));
  c.push_back(intColumn("num_warps", "warps", &KernelRunRow::num_warps, 0));
  c.push_back(intColumn("num_stages", "stages", &KernelRunRow::num_stages, 0));
  c.push_back(textColumn("origin", "origin", &KernelRunRow::origin));
  c.push_back(boolColumn("winner", "winner", &KernelRunRow::winner));
  c.push_back(intColumn("n_regs", "regs", &KernelRunRow::n_regs, -1));
  c.push_back(intColumn("n_spills", "spills", &KernelRunRow::n_spills, -1));
  c.push_back(intColumn("driver_registers", "driver regs", &KernelRunRow::driver_registers, -1));
  c.push_back(intColumn("driver_local_bytes", "driver local B", &KernelRunRow::driver_local_bytes, -1));
  c.push_back({"occupancy_pct", "occupancy", "%", CellKind::kNumber,
               [](const KernelRunRow& r) { return r.occupancy_pct < 0 ? std::string() : fixed(r.occupancy_pct, 1); },
               [](KernelRunRow& r, const std::string& t) { return readNumber(t, r.occupancy_pct, -1.0); }, false});
  c.push_back(intColumn("driver_blocks_per_sm", "driver blocks/SM", &KernelRunRow::driver_blocks_per_sm, -1));
  c.push_back({"grid_blocks", "blocks", "", CellKind::kNumber,
               [](const KernelRunRow& r) { return std::to_string(r.grid_blocks); },
               [](KernelRunRow& r, const std::string& t) { return readInteger(t, r.grid_blocks, true); }, false});
  for (Policy p : inductor::decisionPolicies()) {
    const std::size_t ri = ruleIndex(p);
    c.push_back({"in_" + std::string(inductor::policyKey(p)), std::string(inductor::policyKey(p)) + " set", "",
                 CellKind::kNumber,
                 [ri](const KernelRunRow& r) { return std::string(ri < r.in_set.size() && r.in_set[ri] ? "1" : "0"); },
                 [ri](KernelRunRow& r, const std::string& t) {
                   bool v = false;
                   std::string e = readFlag(t, v, false);
                   if (r.in_set.size() < ruleCount()) r.in_set.resize(ruleCount(), false);
                   r.in_set[ri] = v;
                   return e;
                 },
                 false});
  }
  for (Policy p : inductor::decisionPolicies()) {
    const std::size_t ri = ruleIndex(p);
    c.push_back({std::string(inductor::policyKey(p)) + "_decision", std::string(inductor::policyKey(p)), "",
                 CellKind::kText,
                 [ri](const KernelRunRow& r) { return ri < r.decisions.size() ? r.decisions[ri] : std::string(); },
                 [ri](KernelRunRow& r, const std::string& t) {
                   if (t.empty()) return std::string();
                   if (r.decisions.size() < ruleCount()) r.decisions.resize(ruleCount());
                   r.decisions[ri] = t;
                   return std::string();
                 },
                 false});
  }
  c.push_back(textColumn("not_compiled", "halved, not compiled", &KernelRunRow::not_compiled));
  c.push_back(boolColumn("over_spill_threshold", "spills>thr", &KernelRunRow::over_spill_threshold));
  c.push_back({"status", "", "", CellKind::kText,
               [](const KernelRunRow& r) { return std::string(runStatusName(r.status)); },
               [](KernelRunRow& r, const std::string& t) -> std::string {
                 auto st = parseRunStatus(t);
                 if (!st) return st.error();
                 r.status = *st;
                 return {};
               },
               true});
  c.push_back(textColumn("reason", "reason", &KernelRunRow::reason));
  c.push_back(okNumber("time_us", "µs", 3, [](KernelRunRow& r) -> double& { return r.time.median_us; }));
  c.push_back(okNumber("min_us", "µs", 3, [](KernelRunRow& r) -> double& { return r.time.min_us; }));
  c.push_back(okNumber("max_us", "µs", 3, [](KernelRunRow& r) -> double& { return r.time.max_us; }));
  c.push_back(okNumber("spread_pct", "%", 3, [](KernelRunRow& r) -> double& { return r.time.spread_pct; }));
  c.push_back({"runs", "runs", "", CellKind::kNumber,
               [](const KernelRunRow& r) { return r.ok() ? std::to_string(r.time.runs) : std::string(); },
               [](KernelRunRow& r, const std::string& t) { return readInteger(t, r.time.runs, true); }, false});
  c.push_back({"kernel_time_us", "", "µs", CellKind::kNumber,
               [](const KernelRunRow& r) { return r.kernel_time_us ? fixed(*r.kernel_time_us, 3) : std::string(); },
               [](KernelRunRow& r, const std::string& t) { return readOptionalNumber(t, r.kernel_time_us); }, false});
  c.push_back(okNumber("bandwidth_GBps", "GB/s", 1, [](KernelRunRow& r) -> double& { return r.bandwidth_GBps; }));
  c.push_back({"bytes_moved", "bytes", "B", CellKind::kNumber,
               [](const KernelRunRow& r) { return std::to_string(r.bytes_moved); },
               [](KernelRunRow& r, const std::string& t) { return readInteger(t, r.bytes_moved, true); }, false});
  c.push_back({"achieved_occupancy_pct", "", "%", CellKind::kNumber,
               [](const KernelRunRow& r) { return r.achieved_occupancy_pct.text(2); },
               [](KernelRunRow& r, const std::string& t) { return readMetric(t, r.achieved_occupancy_pct); }, false});
  c.push_back(textColumn("compared_with", "outputs checked against", &KernelRunRow::compared_with));
  c.push_back({"max_abs_error", "", "", CellKind::kNumber,
               [](const KernelRunRow& r) {
                 if (r.max_abs_error < 0) return std::string();
                 std::ostringstream s;
                 s << std::setprecision(6) << r.max_abs_error;
                 return s.str();
               },
               [](KernelRunRow& r, const std::string& t) { return readNumber(t, r.max_abs_error, -1.0); }, false});
  c.push_back(textColumn("buffers_from", "buffers from", &KernelRunRow::buffers_from));
  c.push_back(textColumn("swept_for", "swept for", &KernelRunRow::swept_for));
  c.push_back({"compile_s", "compile", "s", CellKind::kNumber,
               [](const KernelRunRow& r) { return r.compile_s < 0 ? std::string() : fixed(r.compile_s, 2); },
               [](KernelRunRow& r, const std::string& t) { return readNumber(t, r.compile_s, -1.0); }, false});
  return c;
}

}  // namespace

const std::vector<Column<KernelRunRow>>& kernelRunColumns() {
  static const std::vector<Column<KernelRunRow>> columns = makeColumns();
  return columns;
}

CsvTable kernelRunsToCsv(const KernelRunsResult& result) {
  std::vector<std::pair<std::string, std::string>> meta;
  meta.emplace_back("format", std::string(kKernelRunsFormatValue));
  for (const auto& m : result.meta) {
    if (m.first != "format") meta.push_back(m);
  }
  for (const auto& n : result.notes) meta.emplace_back("note", n);
  return columnsToCsv(kernelRunColumns(), result.rows, std::move(meta));
}

Expected<KernelRunsResult> kernelRunsFromCsv(const CsvTable& table) {
  if (table.metaValue("format") != kKernelRunsFormatValue) {
    return Error{"not a kernel-runs CSV: its first line should be '# format: " + std::string(kKernelRunsFormatValue) +
                 "'"};
  }
  KernelRunRow blank;
  blank.in_set.assign(ruleCount(), false);
  auto rows = columnsFromCsv(kernelRunColumns(), table, "kernel-runs CSV", blank);
  if (!rows) return Error{rows.error()};
  KernelRunsResult r;
  for (const auto& m : table.meta) {
    if (m.first == "note") {
      r.notes.push_back(m.second);
    } else if (m.first != "format") {
      r.meta.push_back(m);
    }
  }
  r.rows = std::move(rows).value();
  r.picks = summarizeKernelRuns(r.rows);
  return r;
}

std::vector<std::vector<std::string>> picksTable(const KernelRunsResult& result) {
  std::vector<std::vector<std::string>> t;
  t.push_back({"kernel", "rule", "candidates", "benchmarked", "pick", "time µs", "regret", "halved, not compiled"});
  for (const auto& k : result.picks) {
    const std::string best =
        k.best_row >= 0 ? result.rows[static_cast<std::size_t>(k.best_row)].configText() : std::string("none ran");
    t.push_back({k.kernel, "best measured", std::to_string(k.rows), std::to_string(k.ok_rows), best,
                 k.best_row >= 0 ? fixed(k.best_time_us, 1) : std::string(), k.best_row >= 0 ? "1.00" : "", ""});
    if (k.winner_row >= 0) {
      const auto& w = result.rows[static_cast<std::size_t>(k.winner_row)];
      t.push_back({k.kernel, "Inductor's winner (.best_config)", "", "", w.configText(),
                   w.ok() ? fixed(w.time.median_us, 1) : std::string(runStatusName(w.status)),
                   k.winner_regret > 0 ? fixed(k.winner_regret, 2) : std::string(), ""});
    }
    for (const auto& p : k.picks) {
      const std::string pick =
          p.row >= 0 ? result.rows[static_cast<std::size_t>(p.row)].configText() : std::string("none ran");
      t.push_back({k.kernel, std::string(inductor::policyKey(p.policy)), std::to_string(p.candidates),
                   std::to_string(p.benchmarked), pick, p.row >= 0 ? fixed(p.time_us, 1) : std::string(),
                   p.row >= 0 ? fixed(p.regret, 2) : std::string(), joined(p.not_compiled, ", ")});
    }
  }
  return t;
}

}  // namespace occx::triton
