#include "core/sweep/live_sweep.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <map>
#include <mutex>
#include <sstream>

#include "core/base/format.h"
#include "core/kernels/family_module.h"
#include "core/kernels/live_problem.h"

namespace occx {

namespace {

double secondsSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The problem a live sweep runs: the compile spec's workload, dtype and shape, the sweep's seed.
ProblemSpec liveProblemOf(const LiveSweepSpec& spec) {
  ProblemSpec ps;
  ps.workload = spec.compile.workload;
  ps.dtype = spec.compile.dtype;
  ps.k = spec.compile.k;
  ps.xnumel = spec.compile.xnumel;
  ps.rnumel = spec.compile.rnumel;
  ps.seed = spec.seed;
  ps.fp32_outputs = spec.compile.fp32_outputs;
  return ps;
}

// The cubins of a sweep's compiles by kernel name, to launch its compiled rows.
class CubinShelf {
 public:
  // `compiler`, keeping each cubin it returns here.
  CompileFunction keeping(const CompileFunction& compiler) {
    return [this, &compiler](const CompileRequest& req) -> Expected<CompileResult> {
      auto r = compiler(req);
      if (r) {
        std::lock_guard<std::mutex> lock(mutex_);
        cubins_[req.kernel_name] = r->cubin;
      }
      return r;
    };
  }

  // A compiled row as the module the runner launches (its cubin from this sweep's compiles).
  Expected<GpuModule> moduleFor(const CompileSweepRow& crow, ComputeCapability cc, const ProblemSpec& ps) {
    auto gen = generateKernel(crow.config);
    if (!gen) return Error{gen.error()};
    std::vector<std::uint8_t> cubin;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (auto it = cubins_.find(crow.kernel_name); it != cubins_.end()) cubin = it->second;
    }
    return familyModule(*gen, std::move(cubin), cc, ps);
  }

 private:
  std::mutex mutex_;
  std::map<std::string, std::vector<std::uint8_t>> cubins_;
};

// A config a policy's scaling added: in that policy's candidate set without being Inductor's own.
inductor::PolicySet addedByScaling(const CompileSweepRow& row) {
  inductor::PolicySet added;
  const auto& policies = sweepCandidatePolicies();
  for (std::size_t i = 0; i < policies.size() && i < row.candidate.size(); ++i) {
    if (row.candidate[i] != CandidateState::kNotCandidate && !row.inductor_candidate) added.insert(policies[i]);
  }
  return added;
}

// A live row with what the compile sweep knows of its config: origin, registers, spills, occupancy.
LiveRow liveRowFrom(const CompileSweepRow& crow) {
  LiveRow row;
  row.config = crow.config;
  row.in_grid = crow.in_grid;
  row.inductor_candidate = crow.inductor_candidate;
  row.added_by = addedByScaling(crow);
  row.measured.grid_blocks = crow.grid_blocks;
  if (crow.ok) {
    row.registers = crow.report.registers;
    row.spill_stores_bytes = crow.report.spill_stores_bytes;
    row.spill_loads_bytes = crow.report.spill_loads_bytes;
    row.n_spills = crow.report.nSpills();
    row.static_smem_bytes = crow.report.static_smem_bytes;
    if (crow.occupancy.can_launch) row.theoretical_occupancy_pct = crow.occupancy.occupancy * 100.0;
  }
  return row;
}

// What measuring the rows needs: the runner and the sweep, the problem and whether it was
// uploaded, the cubins, the copy bandwidth and the cancel flag.
struct LiveRunContext {
  GpuRunner& runner;
  const LiveSweepSpec& spec;
  const ProblemSpec& ps;
  CubinShelf& cubins;
  const std::optional<Error>& upload_error;
  double copy_GBps;
  const std::atomic<bool>* cancel;

  [[nodiscard]] bool cancelled() const { return cancel != nullptr && cancel->load(); }
  Expected<GpuModule> moduleFor(const CompileSweepRow& crow) const {
    return cubins.moduleFor(crow, spec.compile.device.arch.cc, ps);
  }
};

// Runs one compiled row on the GPU: its measurement, with a note where the driver counts other
// registers than the compiler.
void runLiveRow(const LiveRunContext& ctx, const CompileSweepRow& crow, LiveRow& row, bool& cancelled) {
  auto module = ctx.moduleFor(crow);
  if (!module) {
    row.measured.status = RunStatus::kSkipped;
    row.measured.reason = module.error();
    return;
  }
  row.measured = ctx.runner.run(*module, ctx.spec.run, ctx.cancel);
  Measurement& o = row.measured;
  if (o.grid_blocks == 0) o.grid_blocks = crow.grid_blocks;
  if (o.attributes.registers >= 0 && row.registers >= 0 && o.attributes.registers != row.registers) {
    o.reason += std::string(o.reason.empty() ? "" : "; ") + "driver reports " + std::to_string(o.attributes.registers) +
                " registers, the compiler " + std::to_string(row.registers);
  }
  applyBandwidth(o, ctx.copy_GBps);
  if (o.status == RunStatus::kCancelled) cancelled = true;
}

// Measures one row, or says why it is not measured: the sweep was cancelled, the GPU was lost, the
// config did not compile, the problem could not be uploaded. `cancelled` becomes true on a cancel.
void measureLiveRow(const LiveRunContext& ctx, const CompileSweepRow& crow, LiveRow& row, bool& cancelled) {
  const std::string lost = ctx.runner.contextLost();
  if (ctx.cancelled()) {
    row.measured.status = RunStatus::kCancelled;
    row.measured.reason = "the sweep was cancelled";
    cancelled = true;
  } else if (!lost.empty()) {
    row.measured.status = RunStatus::kSkipped;
    row.measured.reason = "not run: the GPU cannot be used any more (" + lost + "); run the sweep again";
  } else if (!crow.ok) {
    // An invalid tile or a shape the config cannot run is skipped; anything else failed to compile.
    const bool runnable =
        crow.layout.has_value() && checkShape(crow.config, ctx.spec.compile.xnumel, ctx.spec.compile.rnumel).hasValue();
    row.measured.status = crow.cancelled ? RunStatus::kCancelled
                          : runnable     ? RunStatus::kCompileFailed
                                         : RunStatus::kSkipped;
    row.measured.reason = crow.error.empty() ? "not compiled" : crow.error;
  } else if (ctx.upload_error) {
    row.measured.status =
        ctx.upload_error->message.rfind("out of memory", 0) == 0 ? RunStatus::kOutOfMemory : RunStatus::kLaunchFailed;
    row.measured.reason = ctx.upload_error->message;
  } else {
    runLiveRow(ctx, crow, row, cancelled);
  }
}

// The best row and each policy's pick (distinct rows), run spec.repeat more times (at most 100)
// without check, warm-up or CUPTI metrics: each run's median and their spread.
std::vector<RepeatedTiming> repeatBestAndPicks(const LiveRunContext& ctx, const LiveSweepResult& res) {
  std::vector<RepeatedTiming> repeats;
  std::vector<int> which = {res.replay.best_row};
  for (const auto& p : res.replay.picks) {
    if (p.row >= 0 && std::find(which.begin(), which.end(), p.row) == which.end()) which.push_back(p.row);
  }
  RunOptions again = ctx.spec.run;
  again.check = false;
  again.warm = false;
  again.cupti_metrics = false;
  for (int i : which) {
    auto module = ctx.moduleFor(res.compile.rows[static_cast<std::size_t>(i)]);
    if (!module) continue;
    RepeatedTiming rt;
    rt.row = i;
    for (int r = 0; r < std::min(ctx.spec.repeat, 100) && !ctx.cancelled(); ++r) {
      auto o = ctx.runner.run(*module, again, ctx.cancel);
      if (o.status == RunStatus::kOk) rt.medians_us.push_back(o.timeUs());
    }
    if (!rt.medians_us.empty()) {
      const auto st = summarizeTimes(rt.medians_us);
      rt.spread_pct = st.median_us > 0 ? (st.max_us - st.min_us) / st.median_us * 100.0 : 0.0;
    }
    repeats.push_back(std::move(rt));
  }
  return repeats;
}

// The dataset's metadata: where and how it was measured.
void addLiveSweepMeta(LiveSweepResult& res, const GpuRunner& runner, const LiveSweepSpec& spec,
                      const CopyBandwidth& copy) {
  const DeviceInfo& d = runner.device();
  const auto& cs = res.compile.spec;
  auto& m = res.dataset.meta;
  m = {{"recorded", "measured live on " + d.name},
       {"device", d.name},
       {"compute_capability", d.cc.str()},
       {"sm_count", std::to_string(d.sm_count)},
       {"l2_bytes", std::to_string(d.l2_bytes)},
       {"driver", runner.driverVersionText()},
       {"driver_cuda_version", d.driverCudaVersion()},
       {"toolkit", res.compile.compiler.empty() ? spec.toolkit : res.compile.compiler},
       {"date_utc", res.compile.date_utc},
       {"workload", std::string(workloadName(cs.workload))},
       {"dtype", std::string(dtypeName(cs.dtype))},
       {"output_dtype", std::string(dtypeName(cs.fp32_outputs ? DType::kF32 : cs.dtype))},
       {"k", std::to_string(cs.k)},
       {"xnumel", std::to_string(cs.xnumel)},
       {"rnumel", std::to_string(cs.rnumel)},
       {"shape", shapeKindName(cs.static_shape)},
       {"bytes_read", std::to_string(res.compile.bytes.bytes_read)},
       {"bytes_written", std::to_string(res.compile.bytes.bytes_written)},
       {"copy_bandwidth_method", "device-to-device copy of " + std::to_string(copy.bytes_per_copy >> 20) +
                                     " MiB, bytes read + written / median of " + std::to_string(copy.runs) +
                                     " runs, measured " + copy.measured_at},
       {"inductor_profile", std::string(inductor::profileInfo(cs.decision_options.profile).key)},
       {"reduction_hint", std::string(inductor::reductionHintKey(cs.hint))},
       {"spill_threshold", std::to_string(inductor::kSpillThreshold)},
       {"seed", std::to_string(spec.seed)},
       {"wall_seconds", fixed(res.wall_seconds, 1)}};
  for (auto& kv : timingMetadata(spec.run, copy.GBps)) m.push_back(std::move(kv));
  if (res.cancelled) m.emplace_back("cancelled", "yes: rows after the cancel are marked cancelled");
}

}  // namespace

Expected<LiveSweepResult> runLiveSweep(GpuRunner& runner, const LiveSweepSpec& spec_in, const CompileFunction& compiler,
                                       const LiveSweepProgressFn& progress, const std::atomic<bool>* cancel) {
  const auto t_start = std::chrono::steady_clock::now();
  LiveSweepSpec spec = spec_in;
  auto dev = policyDevice(runner.device());
  if (!dev) return Error{dev.error()};
  spec.compile.device = *dev;

  // The roofline first: a GPU that cannot copy cannot be measured either.
  auto copy = runner.copyBandwidth(spec.refresh_copy_bandwidth);
  if (!copy) return Error{"copy bandwidth: " + copy.error()};

  // Inputs and the CPU reference, built while the kernels compile.
  const ProblemSpec ps = liveProblemOf(spec);
  if (auto e = checkProblemSpec(ps)) return Error{"problem: " + e->message};
  if (progress) progress({Phase::kProblem, 0, 1, nullptr});
  auto t_problem = std::chrono::steady_clock::now();
  double problem_seconds = 0.0;
  // The runner builds and uploads the problem where the GPU is (a worker process, say) while the
  // kernels compile here; nothing else calls the runner meanwhile.
  auto problem_future = std::async(std::launch::async, [&runner, ps, t_problem, &problem_seconds] {
    auto e = runner.setProblem(ps);
    problem_seconds = secondsSince(t_problem);
    return e;
  });

  CubinShelf cubins;
  const CompileFunction compile = cubins.keeping(compiler);
  const auto t_compile = std::chrono::steady_clock::now();
  auto sweep = runCompileSweep(
      spec.compile, compile,
      [&](const CompileSweepProgress& p) {
        if (progress) progress({Phase::kCompile, p.done, p.total, nullptr});
      },
      cancel);
  const double compile_seconds = secondsSince(t_compile);
  const std::optional<Error> upload_error = problem_future.get();
  if (!sweep) {
    runner.clearProblem();
    return Error{sweep.error()};
  }
  // The shape was checked above: a problem that cannot be uploaded (out of memory, a driver
  // failure) is every row's reason.
  if (progress) progress({Phase::kProblem, 1, 1, nullptr});

  LiveSweepResult res;
  res.compile = std::move(sweep).value();
  res.copy = *copy;
  res.problem_seconds = problem_seconds;
  res.compile_seconds = compile_seconds;

  const auto t_run = std::chrono::steady_clock::now();
  const LiveRunContext ctx{runner, spec, ps, cubins, upload_error, copy->GBps, cancel};
  std::size_t done = 0;
  const std::size_t total = res.compile.rows.size();
  for (const auto& crow : res.compile.rows) {
    LiveRow row = liveRowFrom(crow);
    measureLiveRow(ctx, crow, row, res.cancelled);
    res.dataset.rows.push_back(std::move(row));
    ++done;
    if (progress) progress({Phase::kRun, done, total, &res.dataset.rows.back()});
  }
  res.run_seconds = secondsSince(t_run);
  res.replay = summarizeReplay(res.dataset.rows, inductor::kSpillThreshold);
  if (spec.repeat > 0 && !res.cancelled && res.replay.best_row >= 0) res.repeats = repeatBestAndPicks(ctx, res);
  runner.clearProblem();  // free the device memory
  res.wall_seconds = secondsSince(t_start);
  addLiveSweepMeta(res, runner, spec, *copy);
  return res;
}

std::vector<std::vector<std::string>> replayTable(const LiveSweepResult& result) {
  std::vector<std::vector<std::string>> t = {
      {"policy", "candidates", "benchmarked", "pick", "cold_us", "DRAM GB/s", "regret"}};
  const auto& rows = result.dataset.rows;
  for (const auto& p : result.replay.picks) {
    std::string pick = p.row >= 0 ? rows[static_cast<std::size_t>(p.row)].config.label() : "(none ran)";
    if (p.all_over_threshold) pick += " (every candidate over the spill threshold: the first)";
    t.push_back({std::string(inductor::policyKey(p.policy)), std::to_string(p.candidates),
                 std::to_string(p.benchmarked), pick, p.row >= 0 ? fixed(p.time_us, 2) : "",
                 p.row >= 0 ? bandwidthCell(rows[static_cast<std::size_t>(p.row)].measured) : "",
                 p.row >= 0 ? fixed(p.regret, 3) : ""});
  }
  const auto& r = result.replay;
  t.push_back({"best (all configs)", std::to_string(rows.size()), "",
               r.best_row >= 0 ? rows[static_cast<std::size_t>(r.best_row)].config.label() : "(none ran)",
               r.best_row >= 0 ? fixed(r.best_time_us, 2) : "",
               r.best_row >= 0 ? bandwidthCell(rows[static_cast<std::size_t>(r.best_row)].measured) : "", ""});
  return t;
}

}  // namespace occx
