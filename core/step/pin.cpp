#include "core/step/pin.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <system_error>

#include "core/base/atomic_file.h"
#include "core/base/format.h"
#include "core/inductor/bounds.h"

namespace occx::step {
namespace {

namespace fs = std::filesystem;

/// The decision's view of a measured row: its tile and the compiled kernel's registers and spills.
inductor::ReductionConfig reductionConfigOf(const triton::MeasuredConfig& row) {
  inductor::ReductionConfig c;
  c.xblock = row.xblock;
  c.r0_block = row.r0_block;
  c.r1_block = row.r1_block;
  c.num_warps = row.num_warps;
  c.num_stages = row.num_stages;
  if (row.n_regs >= 0) c.n_regs = row.n_regs;
  if (row.n_spills >= 0) c.n_spills = row.n_spills;
  return c;
}

std::string microseconds(double us) {
  return fixed(us, 1) + " µs";
}

/// "−12.3 %" (or "+4.0 %"): `us` against `against`.
std::string changeAgainst(double us, double against) {
  const double pct = 100.0 * (us / against - 1.0);
  return (pct < 0 ? "−" : "+") + fixed(std::abs(pct), 1) + " %";
}

}  // namespace

std::string_view pinHoldName(PinHold hold) {
  switch (hold) {
    case PinHold::kHolds:
      return "holds";
    case PinHold::kScaled:
      return "scaled";
    case PinHold::kNotACandidate:
      return "not a candidate";
    case PinHold::kNoFile:
      return "no .best_config";
    case PinHold::kUndecided:
      break;
  }
  return "undecided";
}

PinCheck checkPin(const triton::RunKernel& kernel, const triton::MeasuredConfig& row) {
  PinCheck c;
  const std::string config = row.configText();
  if (!kernel.best) {
    c.hold = PinHold::kNoFile;
    c.reason =
        "Inductor wrote no .best_config for " + kernel.module.name +
        " (it does when the kernel has several candidates or coordinate descent is on), so the kernel's "
        "configs_hash is unknown. Compile the step with TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1, which writes one "
        "for every kernel, then sweep and pin that run.";
    return c;
  }
  if (!kernel.module.meta.coordinate_descent_tuning &&
      row.origin != triton::configOriginName(triton::ConfigOrigin::kCandidate)) {
    c.hold = PinHold::kNotACandidate;
    c.reason =
        "The run was compiled without coordinate descent: Inductor then takes a .best_config only when it names "
        "one of its candidates, and " +
        config +
        " is not one. Compile the step with TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1 (its kernels are then new "
        "modules), then sweep and pin that run: a pin is used as is there.";
    return c;
  }
  if (row.n_regs < 0) {
    c.hold = PinHold::kUndecided;
    c.reason = "Whether Inductor's RBLOCK scaling keeps " + config +
               " is unknown: its registers per thread are unknown (Inductor knows them once it compiles it).";
    return c;
  }
  auto d = triton::decideAlone(kernel, reductionConfigOf(row), inductor::Policy::kNew);
  if (!d) {
    c.hold = PinHold::kUndecided;
    c.reason = "Whether Inductor's RBLOCK scaling keeps " + config + " is unknown: " + d.error();
    return c;
  }
  if (d->scales() && d->new_config) {
    triton::MeasuredConfig sibling = row;
    sibling.r0_block = d->new_config->r0_block;
    sibling.r1_block = d->new_config->r1_block;
    c.hold = PinHold::kScaled;
    c.sibling = sibling.configText();
    c.reason = "Inductor's RBLOCK scaling (current bound) adds " + c.sibling + " beside " + config +
               " and keeps the faster of the two in its own timing: " + d->reason;
    return c;
  }
  c.hold = PinHold::kHolds;
  c.reason = "Inductor runs " + config + " as is: " + d->reason;
  return c;
}

namespace {

/// The interquartile spread of a row's runs on `clock`, %: cold, and warm too when the step weighs it in.
double spreadOn(const PickSummary& clock, const InStepMix& mix, const Measurement& m) {
  double spread = clock.events_only ? m.time.spread_pct : m.timeStats().spread_pct;
  if (mix.cold_share < 1.0 && m.warmTimeStats()) spread = std::max(spread, m.warmTimeStats()->spread_pct);
  return spread;
}

/// The pin among `by_step` (ok rows, fastest as the step sees it first): the first that holds and is
/// faster there than the config that ran; with the verdict that decided (a holding config's, or why none).
std::pair<const triton::MeasuredConfig*, PinCheck> choosePin(const triton::RunKernel& kernel, const KernelPin& p,
                                                             const std::vector<const triton::MeasuredConfig*>& by_step,
                                                             const triton::MeasuredConfig* best,
                                                             const PickSummary& clock) {
  PinCheck why;
  for (const auto* r : by_step) {
    if (p.mix.stepUs(clock, r->measured) >= p.mix.ran_step_us) break;
    if (!p.mix.hasWarm(clock, r->measured)) continue;  // a brief row: its time in the step would be a guess
    PinCheck c = r == best ? p.best_check : checkPin(kernel, *r);
    if (c.hold == PinHold::kNoFile) return {nullptr, c};  // the same for every config of the kernel
    if (c.hold == PinHold::kUndecided && why.reason.empty()) why = c;
    if (c.holds()) return {r, std::move(c)};
  }
  return {nullptr, why};
}

/// Why the best was not pinned: it would not hold, or it is no faster as the step sees it; empty when
/// it is the pin or the config that ran.
std::string bestWords(const KernelPin& p, double best_step_us) {
  if (p.best_config == p.ran_config || p.best_config == p.pinConfig()) return {};
  const std::string head = " The best, " + p.best_config + " (" + microseconds(p.best_us) + " cold), ";
  if (!p.best_check.holds()) return head + "would not hold: " + p.best_check.reason;
  return head + "takes " + microseconds(best_step_us) + " as the step sees it, against " +
         microseconds(p.mix.ran_step_us) + " for " + p.ran_config + ".";
}

}  // namespace

KernelPin planPin(const triton::RunKernel& kernel, const triton::KernelMeasurements& swept, const SweepTarget& target) {
  KernelPin p;
  p.kernel = kernel.module.name;
  p.module = kernel.module.module_hash;
  p.file = kernel.best ? kernel.best->path : std::string();
  p.per_step_us = target.per_step_us;
  p.ran_config = target.ran_config;
  // One clock for every row of the kernel, as its picks compare them (events when a row lacks CUPTI's).
  const triton::KernelPicks* picks = triton::picksOf(swept, p.kernel);
  const PickSummary none;
  const PickSummary& clock = picks != nullptr ? *picks : none;
  std::vector<const triton::MeasuredConfig*> timed;
  for (const auto& r : swept.rows) {
    if (r.kernel == p.kernel && r.ok()) timed.push_back(&r);
  }
  auto sortBy = [&](auto&& key) {
    std::stable_sort(timed.begin(), timed.end(), [&](const auto* a, const auto* b) { return key(*a) < key(*b); });
  };
  sortBy([&](const triton::MeasuredConfig& r) { return clock.timeOf(r.measured); });
  if (timed.empty()) {
    p.words = "No config of " + p.kernel + " was timed: nothing to pin.";
    return p;
  }
  const triton::MeasuredConfig* best = timed.front();
  const auto ran =
      std::find_if(timed.begin(), timed.end(), [&](const auto* r) { return r->configText() == p.ran_config; });
  p.best_config = best->configText();
  p.best_us = clock.timeOf(best->measured);
  p.best_check = checkPin(kernel, *best);
  if (ran == timed.end()) {
    p.words = "The config that ran in the step" + (p.ran_config.empty() ? std::string() : " (" + p.ran_config + ")") +
              " was not timed, so what a pin would gain is unknown: nothing pinned.";
    return p;
  }
  const triton::MeasuredConfig& ran_row = **ran;
  p.ran_us = clock.timeOf(ran_row.measured);
  p.mix = targetMix(target, clock, ran_row.measured);
  sortBy([&](const triton::MeasuredConfig& r) { return p.mix.stepUs(clock, r.measured); });
  auto [chosen, check] = choosePin(kernel, p, timed, best, clock);
  const std::string seen = p.mix.cold_share < 1.0 ? " as the step sees it" : "";
  if (chosen == nullptr) {
    p.words = p.ran_config == p.best_config && p.mix.cold_share >= 1.0
                  ? p.ran_config + " ran in the step and is the fastest config swept: nothing to pin."
                  : "No config that would hold is faster than " + p.ran_config + " (" +
                        microseconds(p.mix.ran_step_us) + seen + ", the one that ran)." +
                        bestWords(p, p.mix.stepUs(clock, best->measured)) + p.mix.words(p.ran_config);
    if (check.hold == PinHold::kNoFile || check.hold == PinHold::kUndecided) p.words += " " + check.reason;
    return p;
  }
  p.pin = *chosen;
  p.pin_us = clock.timeOf(chosen->measured);
  p.pin_step_us = p.mix.stepUs(clock, chosen->measured);
  p.predicted_per_step_us = p.per_step_us * p.pin_step_us / p.mix.ran_step_us;  // ran_step_us > pin_step_us > 0
  p.spread_pct = std::max(spreadOn(clock, p.mix, ran_row.measured), spreadOn(clock, p.mix, chosen->measured));
  const double gain_pct = 100.0 * (1.0 - p.pin_step_us / p.mix.ran_step_us);
  p.words = "Pin " + p.pinConfig() + " (" + microseconds(p.pin_step_us) + seen + ", " +
            changeAgainst(p.pin_step_us, p.mix.ran_step_us) + " against " + p.ran_config + "): " + check.reason +
            " In the step: " + microseconds(p.per_step_us) + " → " + microseconds(p.predicted_per_step_us) +
            " per step." + p.mix.words(p.ran_config) +
            (gain_pct < p.spread_pct ? " The gain (" + fixed(gain_pct, 1) + " %) is within the runs' spread (" +
                                           fixed(p.spread_pct, 1) + " %): the step may not see it."
                                     : std::string()) +
            bestWords(p, p.mix.stepUs(clock, best->measured));
  return p;
}

std::vector<KernelPin> planPins(const ModelSweepResult& result) {
  std::vector<KernelPin> pins;
  for (const ModelSweepKernel& k : result.kernels) {
    if (!k.result) {
      KernelPin p;
      p.kernel = k.target.kernel != nullptr ? k.target.kernel->module.name : std::string();
      p.module = k.target.kernel != nullptr ? k.target.kernel->module.module_hash : std::string();
      p.per_step_us = k.target.per_step_us;
      p.ran_config = k.target.ran_config;
      p.words = "Not swept (" + k.error + "): nothing to pin.";
      pins.push_back(std::move(p));
      continue;
    }
    // The kernel re-read with every compiled config keeps the module, device and .best_config.
    pins.push_back(planPin(k.result->kernel, k.result->runs, k.target));
  }
  return pins;
}

Expected<PinWritten> writePin(const KernelPin& pin) {
  if (!pin.pin) return Error{pin.kernel + ": nothing to pin (" + pin.words + ")"};
  if (pin.file.empty()) return Error{pin.kernel + ": no .best_config to pin"};
  auto text = readFile(pin.file, std::size_t{1} << 20);
  if (!text) return Error{text.error()};
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(*text, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Error{pin.file + ": not a JSON object, so not Inductor's .best_config"};
  const triton::MeasuredConfig& c = *pin.pin;
  const std::string r0_key = j.contains("R0_BLOCK") ? "R0_BLOCK" : "RBLOCK";
  for (const char* key : {"XBLOCK", "num_warps", "num_stages", "configs_hash"}) {
    if (!j.contains(key)) return Error{pin.file + ": has no " + key + ", so it is not a reduction's .best_config"};
  }
  if (!j.contains(r0_key)) return Error{pin.file + ": has no R0_BLOCK or RBLOCK, so it is not a reduction's"};
  if (c.r1_block > 0 && !j.contains("R1_BLOCK"))
    return Error{pin.file + ": has no R1_BLOCK, but the pin " + c.configText() + " sets one"};
  if (c.yblock > 0 && !j.contains("YBLOCK"))
    return Error{pin.file + ": has no YBLOCK, but the pin " + c.configText() + " sets one"};
  j["XBLOCK"] = c.xblock;
  j[r0_key] = c.r0_block;
  if (j.contains("R1_BLOCK")) j["R1_BLOCK"] = c.r1_block;
  if (j.contains("YBLOCK")) j["YBLOCK"] = c.yblock;
  j["num_warps"] = c.num_warps;
  j["num_stages"] = c.num_stages;
  j["found_by_coordesc"] = true;
  if (j.contains("triton_cache_hash")) j["triton_cache_hash"] = nullptr;
  PinWritten w;
  w.file = pin.file;
  w.backup = pin.file + std::string(kPinBackupSuffix);
  std::error_code ec;
  if (!fs::exists(w.backup, ec)) {
    auto saved = writeFileAtomically(w.backup, *text);
    if (!saved) return Error{"cannot keep a backup of " + pin.file + ": " + saved.error()};
    w.backup_made = true;
  }
  auto written = writeFileAtomically(pin.file, j.dump());
  if (!written) return Error{written.error()};
  return w;
}

Expected<std::vector<std::string>> restorePins(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return Error{"'" + dir + "' is not a folder"};
  std::vector<std::string> restored;
  std::vector<std::string> failed;
  const std::string suffix = ".best_config" + std::string(kPinBackupSuffix);
  std::vector<std::string> backups;  // listed first: nothing is removed while the folder is walked
  fs::recursive_directory_iterator it(dir, fs::directory_options::skip_permission_denied, ec);
  for (; !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it.depth() >= 32) it.disable_recursion_pending();
    const std::string path = it->path().string();
    std::error_code type_ec;
    if (path.size() > suffix.size() && path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0 &&
        it->is_regular_file(type_ec)) {
      backups.push_back(path);
    }
  }
  for (const std::string& path : backups) {
    const std::string original = path.substr(0, path.size() - kPinBackupSuffix.size());
    auto text = readFile(path, std::size_t{1} << 20);
    if (!text) {
      failed.push_back(text.error());
      continue;
    }
    auto written = writeFileAtomically(original, *text);
    if (!written) {
      failed.push_back(written.error());
      continue;
    }
    restored.push_back(original);
    std::error_code rm_ec;
    if (!fs::remove(path, rm_ec) || rm_ec) {
      failed.push_back(path + ": restored, but the backup could not be removed (" +
                       (rm_ec ? rm_ec.message() : std::string("already gone")) + ")");
    }
  }
  if (ec) failed.push_back(dir + ": " + ec.message());
  if (!failed.empty()) {
    std::string why =
        "restored " + std::to_string(restored.size()) + ", could not restore " + std::to_string(failed.size()) + ":";
    for (const auto& f : failed) why += " " + f + ";";
    return Error{why};
  }
  return restored;
}

}  // namespace occx::step
