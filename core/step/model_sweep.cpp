#include "core/step/model_sweep.h"

#include <algorithm>
#include <chrono>
#include <future>
#include <mutex>
#include <utility>

#include "core/base/atomic_file.h"
#include "core/base/format.h"
#include "core/inductor/bounds.h"
#include "core/sweep/measurement.h"

namespace occx::step {
namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// The run's kernel of a matched step kernel, nullptr when none.
const triton::RunKernel* runKernelOf(const StepKernel& k, const triton::InductorRun& run) {
  for (const auto& rk : run.kernels) {
    if (rk.module.name == k.name && rk.module.module_hash == k.module) return &rk;
  }
  return nullptr;
}

/// The measured row of `config` of kernel `kernel` in `m`, nullptr when none.
const triton::MeasuredConfig* rowOf(const triton::KernelMeasurements& m, const std::string& kernel,
                                    const std::string& config) {
  for (const auto& r : m.rows) {
    if (r.kernel == kernel && r.configText() == config) return &r;
  }
  return nullptr;
}

}  // namespace

double InStepMix::stepUs(double cold_us, double warm_us) const {
  if (cold_share >= 1.0) return cold_us;
  if (warm_us <= 0) return ran_cold_us > 0 ? cold_us * ran_step_us / ran_cold_us : cold_us;
  return cold_share * cold_us + (1.0 - cold_share) * warm_us;
}

InStepMix inStepMix(double in_step_us, double ran_cold_us, double ran_warm_us) {
  InStepMix m;
  m.in_step_us = std::max(0.0, in_step_us);
  m.ran_cold_us = ran_cold_us;
  m.ran_warm_us = std::max(0.0, ran_warm_us);
  if (in_step_us > 0 && ran_warm_us > 0 && ran_cold_us - ran_warm_us > 0.02 * ran_cold_us) {
    m.cold_share = std::clamp((in_step_us - ran_warm_us) / (ran_cold_us - ran_warm_us), 0.0, 1.0);
  }
  m.ran_step_us = m.stepUs(ran_cold_us, ran_warm_us);
  return m;
}

InStepMix targetMix(const SweepTarget& target, const PickSummary& clock, const Measurement& ran) {
  const double in_step_us = target.launches_per_step > 0 ? target.per_step_us / target.launches_per_step : 0.0;
  InStepMix m = inStepMix(in_step_us, clock.timeOf(ran), clock.events_only ? 0.0 : clock.warmTimeOf(ran));
  m.events_only = clock.events_only;
  return m;
}

std::string InStepMix::words(const std::string& ran_config) const {
  const auto us = [](double v) { return fixed(v, 1) + " µs"; };
  if (events_only && in_step_us > 0) {
    return " The sweep compared CUDA events (some config lacks CUPTI's device time), which the step's device "
           "times cannot be placed against: configs are compared cold.";
  }
  if (cold_share >= 1.0) return {};
  const std::string head = " In the step " + ran_config + " takes " + us(in_step_us) + " per launch, ";
  if (cold_share <= 0.0) {
    return head + "no more than its warm time (" + us(ran_warm_us) + "; cold " + us(ran_cold_us) +
           "): configs are compared warm, as the step sees them.";
  }
  return head + "between its warm (" + us(ran_warm_us) + ") and cold (" + us(ran_cold_us) +
         ") times: configs are compared " + fixed(100.0 * cold_share, 0) + " % cold, " +
         fixed(100.0 * (1.0 - cold_share), 0) + " % warm, as the step sees them.";
}

namespace {

/// One kernel's gain from its sweep.
KernelGain kernelGain(const SweepTarget& t, const triton::KernelMeasurements& m) {
  KernelGain g;
  g.kernel = t.kernel->module.name;
  g.module = t.kernel->module.module_hash;
  g.per_step_us = t.per_step_us;
  g.ran_config = t.ran_config;
  for (std::size_t p = 0; p < g.policy_per_step_us.size(); ++p) g.policy_per_step_us[p] = t.per_step_us;
  const triton::MeasuredConfig* ran = rowOf(m, g.kernel, t.ran_config);
  const triton::KernelPicks* picks = triton::picksOf(m, g.kernel);
  if (ran == nullptr || !ran->ok() || picks == nullptr || picks->best_row < 0) return g;
  g.ran_us = picks->timeOf(ran->measured);  // the clock the picks compare (events when a row lacks CUPTI's)
  if (g.ran_us <= 0) return g;
  const auto& best = m.rows[static_cast<std::size_t>(picks->best_row)];
  g.best_config = best.configText();
  g.best_us = picks->timeOf(best.measured);
  // As the step sees them: cold and warm weighed by where the config that ran lies between them in the step.
  g.mix = targetMix(t, *picks, ran->measured);
  auto perStep = [&](const triton::MeasuredConfig& r) {
    return t.per_step_us * g.mix.stepUs(*picks, r.measured) / g.mix.ran_step_us;
  };
  double fastest = t.per_step_us;
  g.gain_config = t.ran_config;
  for (const auto& r : m.rows) {
    if (r.kernel != g.kernel || !r.ok() || !g.mix.hasWarm(*picks, r.measured) || perStep(r) >= fastest) continue;
    fastest = perStep(r);
    g.gain_config = r.configText();
  }
  g.gain_us = t.per_step_us - fastest;
  for (const auto& pick : picks->picks) {
    if (pick.row < 0) continue;
    const std::size_t p = inductor::policyIndex(pick.policy);
    const auto& row = m.rows[static_cast<std::size_t>(pick.row)];
    g.policy_config[p] = row.configText();
    g.policy_per_step_us[p] = perStep(row);
  }
  if (t.kernel->best && t.kernel->best->found_by_coordesc && picks->winner_row >= 0) {
    const auto& w = m.rows[static_cast<std::size_t>(picks->winner_row)];
    if (w.ok()) {
      g.coordesc_config = w.configText();
      g.coordesc_us = picks->timeOf(w.measured);
    }
  }
  return g;
}

std::string gainWords(const StepGain& g) {
  const auto timed =
      std::count_if(g.kernels.begin(), g.kernels.end(), [](const KernelGain& k) { return k.ran_us > 0; });
  if (timed == 0) {
    return "No swept kernel was timed with the config that ran in the step (no GPU ran them, or they failed): no gain "
           "is predicted.";
  }
  const std::string untimed = timed == static_cast<long>(g.kernels.size())
                                  ? std::string()
                                  : " (" + std::to_string(g.kernels.size() - static_cast<std::size_t>(timed)) + " of " +
                                        std::to_string(g.kernels.size()) + " could not be timed: counted as no gain)";
  const std::string share = fixed(100.0 * g.gain_share, 1) + " %";
  std::string s = "Swept " + std::to_string(g.kernels.size()) + (g.kernels.size() == 1 ? " reduction" : " reductions") +
                  " of a step of " + fixed(g.step_us / 1000.0, 2) + " ms GPU time: the best configs would save " +
                  fixed(g.gain_us, 1) + " µs per step (" + share + " of the step)" + untimed + ".";
  if (g.gain_share < 0.01) {
    s += " Little to gain: Inductor's configs are within " + share + " of the best for these kernels.";
  }
  const auto& p = inductor::kPolicies;
  for (std::size_t i = 0; i < p.size(); ++i) {
    s += (i == 0 ? " With each policy's picks the step would take: " : ", ");
    s += std::string(inductor::policyKey(p[i])) + " " + fixed(g.policy_step_us[i] / 1000.0, 3) + " ms";
  }
  return s + ".";
}

}  // namespace

ModelSweepPlan planModelSweep(const StepProfile& profile, const triton::InductorRun& run,
                              const std::vector<triton::ScanRow>& rows, int top_n) {
  ModelSweepPlan plan;
  plan.step_us = profile.gpu_time_per_step_us;
  const StepRun step_run{&rows, run.input};
  for (std::size_t i = 0; i < profile.kernels.size(); ++i) {
    const StepKernel& k = profile.kernels[i];
    if (k.category != KernelCategory::kTritonLoopedReduction) continue;
    plan.looped_per_step_us += k.per_step_us;
    const std::string head = k.name + ": " + fixed(k.per_step_us, 1) + " µs/step — ";
    const triton::RunKernel* rk = k.match == RunMatch::kMatched ? runKernelOf(k, run) : nullptr;
    if (rk == nullptr) {
      plan.left_out.push_back(head + (k.match == RunMatch::kAmbiguous ? "several kernels of the run fit it"
                                                                      : std::string(runMatchName(k.match))));
      continue;
    }
    if (top_n > 0 && static_cast<int>(plan.targets.size()) >= top_n) {
      plan.left_out.push_back(head + "beyond the top " + std::to_string(top_n));
      continue;
    }
    SweepTarget t{rk, static_cast<int>(i), k.per_step_us, k.share, k.launches_per_step, {}};
    if (const triton::ScanRow* c = configRowOf(k, step_run)) t.ran_config = shortConfigLabel(*c, true);
    plan.targets.push_back(std::move(t));
  }
  return plan;
}

StepGain predictStepGain(const ModelSweepPlan& plan, const std::vector<triton::KernelMeasurements>& swept) {
  StepGain g;
  g.step_us = plan.step_us;
  g.policy_step_us.fill(plan.step_us);
  for (std::size_t i = 0; i < plan.targets.size() && i < swept.size(); ++i) {
    KernelGain k = kernelGain(plan.targets[i], swept[i]);
    g.gain_us += k.gain_us;
    for (std::size_t p = 0; p < g.policy_step_us.size(); ++p)
      g.policy_step_us[p] += k.policy_per_step_us[p] - k.per_step_us;
    g.kernels.push_back(std::move(k));
  }
  g.gain_share = g.step_us > 0 ? g.gain_us / g.step_us : 0.0;
  g.text = gainWords(g);
  return g;
}

bool StepGain::hasCoordesc() const {
  return std::any_of(kernels.begin(), kernels.end(), [](const KernelGain& k) { return !k.coordesc_config.empty(); });
}

std::vector<std::string> modelSweepNotes(const ModelSweepResult& result) {
  std::vector<std::string> lines = {
      result.gain.text,
      "µs/step: the kernel's device time per step in the trace; ran: the config its launches used; ran µs, best µs: " +
          figureLegend("µs") +
          " Gain: µs/step × (1 − fastest / ran), each as the step sees it: inside the step a kernel finds part of "
          "its inputs in L2, and ran's in-step time per launch, between its warm and cold times, says how much each "
          "counts (the config, in brackets, when it is not the best cold). A kernel's picks (new, old) are the fastest "
          "config of the policy's "
          "set."};
  if (!result.kernels.empty() && !result.gain.hasCoordesc()) {
    lines.emplace_back(
        "Inductor's own tuning: this run was not compiled with coordinate descent; compile once with "
        "TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1 to see its picks beside these.");
  }
  for (const auto& l : result.plan.left_out) lines.push_back("left out: " + l);
  for (const auto& l : result.not_swept) lines.push_back("not swept: " + l);
  lines.push_back("Wall time: " + fixed(result.seconds, 1) + " s for " + std::to_string(result.kernels.size()) +
                  (result.kernels.size() == 1 ? " kernel." : " kernels."));
  return lines;
}

namespace {

/// A kernel's preparation (read its module, plan, compile), started ahead of its runs.
using Prepared = Expected<triton::KernelSweepResult>;

Prepared prepareTarget(const SweepTarget& t, triton::KernelSweepOptions options,
                       const std::function<void(const triton::KernelSweepProgress&)>& progress,
                       const std::atomic<bool>* cancel) {
  auto text = readFile(t.kernel->module.path);
  if (!text) return Error{"its kernel module " + t.kernel->module.path + " cannot be read: " + text.error()};
  options.grid = triton::defaultConfigGrid(*t.kernel);
  return triton::prepareKernelSweep(*t.kernel, *text, options, progress, cancel);
}

}  // namespace

ModelSweepResult sweepModel(const ModelSweepPlan& plan, const ModelSweepOptions& options, GpuRunner* runner,
                            const std::function<void(const ModelSweepProgress&)>& progress,
                            const std::atomic<bool>* cancel) {
  const auto t0 = Clock::now();
  ModelSweepResult out;
  out.plan = plan;
  const int n = static_cast<int>(plan.targets.size());
  std::mutex report_mutex;  // the next kernel's compile reports from its own thread
  auto report = [&](int index, const triton::KernelSweepProgress& p) {
    const std::lock_guard<std::mutex> lock(report_mutex);
    if (progress)
      progress({index + 1, n, plan.targets[static_cast<std::size_t>(index)].kernel->module.name, p, secondsSince(t0)});
  };
  auto start = [&](int index) {
    return std::async(std::launch::async, [&, index] {
      return prepareTarget(
          plan.targets[static_cast<std::size_t>(index)], options.sweep,
          [&, index](const triton::KernelSweepProgress& p) { report(index, p); }, cancel);
    });
  };
  std::future<Prepared> next = n > 0 ? start(0) : std::future<Prepared>();
  std::vector<triton::KernelMeasurements> swept;
  for (int i = 0; i < n; ++i) {
    const SweepTarget& t = plan.targets[static_cast<std::size_t>(i)];
    const auto k0 = Clock::now();
    Prepared prepared = next.get();
    const bool over_budget = options.budget_s > 0 && secondsSince(t0) > options.budget_s;
    const bool stop = over_budget || (cancel != nullptr && cancel->load());
    if (!stop && i + 1 < n) next = start(i + 1);
    if (stop) {
      for (int j = i; j < n; ++j) {
        out.not_swept.push_back(
            plan.targets[static_cast<std::size_t>(j)].kernel->module.name + ": " +
            (over_budget ? "the budget of " + fixed(options.budget_s, 0) + " s was spent" : std::string("cancelled")));
      }
      out.cancelled = !over_budget;
      break;
    }
    ModelSweepKernel mk{t, std::nullopt, {}, 0.0};
    if (!prepared) {
      mk.error = prepared.cancelled() ? std::string("cancelled") : prepared.error();
    } else {
      // Measuring reads the run, screen and cache options; the grid was the preparation's.
      triton::measureKernelSweep(
          *prepared, *t.kernel, options.sweep, runner, [&, i](const triton::KernelSweepProgress& p) { report(i, p); },
          cancel);
      mk.result = std::move(*prepared);
    }
    mk.seconds = secondsSince(k0);
    out.kernels.push_back(std::move(mk));
  }
  if (next.valid()) (void)next.get();  // a preparation started before the stop
  ModelSweepPlan done = plan;
  done.targets.clear();
  for (const auto& k : out.kernels) {
    done.targets.push_back(k.target);
    swept.push_back(k.result ? k.result->runs : triton::KernelMeasurements{});
  }
  out.gain = predictStepGain(done, swept);
  out.seconds = secondsSince(t0);
  return out;
}

}  // namespace occx::step
