// Pins: whether a config written to a kernel's .best_config would hold (Inductor uses the file and its
// RBLOCK scaling adds no halved copy), which config a sweep's rows pin, and the file written, kept and
// restored. On the recorded coordinate-descent sum (x 32768, r0_ 8192, H200: 132 SMs, 65536 registers
// per SM); and pins checked on the H200 (scripts/gpu-pin-check.sh): GPT-2, BERT, T5 and Blenderbot
// compiled with coordinate descent, swept (every looped reduction) and pinned, then compiled again and
// profiled.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <utility>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/step/pin.h"
#include "core/step/profiler_trace.h"
#include "core/step/step_profile.h"
#include "tests/support/inductor_scan.h"

namespace occx::step {
namespace {

namespace fs = std::filesystem;
using testing_support::inductorFixture;

const triton::RunKernel& coordescSum() {
  static const triton::InductorRun run = testing_support::scanFixturePath(inductorFixture("step_coordesc_sum"));
  for (const auto& k : run.kernels) {
    if (k.module.name == "triton_red_fused__to_copy_sum_0" && k.best) return k;
  }
  ADD_FAILURE() << "no triton_red_fused__to_copy_sum_0 with a .best_config in step_coordesc_sum";
  static const triton::RunKernel none;
  return none;
}

triton::MeasuredConfig row(int x, int r0, int warps, int n_regs, double us, const char* origin = "swept") {
  triton::MeasuredConfig m;
  m.kernel = "triton_red_fused__to_copy_sum_0";
  m.xblock = x;
  m.r0_block = r0;
  m.num_warps = warps;
  m.num_stages = 1;
  m.n_regs = n_regs;
  m.n_spills = 0;
  m.origin = origin;
  m.measured.status = RunStatus::kOk;
  m.measured.time = summarizeTimes({us, us, us});
  return m;
}

/// A row timed cold (`us`) and warm (`warm_us`) by CUPTI, three runs each (CUDA events 2 µs more).
triton::MeasuredConfig warmRow(int x, int r0, int warps, double us, double warm_us) {
  triton::MeasuredConfig m = row(x, r0, warps, 32, us + 2.0);
  m.measured.warm_time = summarizeTimes({warm_us + 2.0, warm_us + 2.0, warm_us + 2.0});
  m.measured.kernel_time = summarizeTimes({us, us, us});
  m.measured.warm_kernel_time = summarizeTimes({warm_us, warm_us, warm_us});
  return m;
}

/// The rows as a sweep holds them: with their picks (the clock planPin compares on).
triton::KernelMeasurements swept(std::vector<triton::MeasuredConfig> rows) {
  triton::KernelMeasurements m;
  m.rows = std::move(rows);
  m.picks = triton::summarizeMeasurements(m.rows);
  return m;
}

TEST(Pin, TheRunWasCompiledWithCoordinateDescent) {
  const triton::RunKernel& k = coordescSum();
  EXPECT_TRUE(k.module.meta.coordinate_descent_tuning);
  ASSERT_TRUE(k.best.has_value());
  EXPECT_TRUE(k.best->found_by_coordesc);
}

TEST(Pin, APinHoldsUnlessTheScalingAddsAHalvedCopy) {
  const triton::RunKernel& k = coordescSum();
  // X2 R4096 w16 at 40 registers: bound 65536 // (40 · 32 · 16) = 3 blocks per SM, 396 on 132 SMs;
  // 32768 / 2 = 16384 blocks > 396, so Inductor adds X2 R2048 w16 and times the two.
  const PinCheck scaled = checkPin(k, row(2, 4096, 16, 40, 100.0));
  EXPECT_EQ(scaled.hold, PinHold::kScaled);
  EXPECT_EQ(scaled.sibling, "X2 R2048 w16");
  EXPECT_NE(scaled.reason.find("adds X2 R2048 w16 beside X2 R4096 w16"), std::string::npos) << scaled.reason;
  // 32 registers: 32 <= 65536 // 2048, registers do not limit occupancy (step 3): it holds.
  const PinCheck holds = checkPin(k, row(1, 4096, 16, 32, 100.0));
  EXPECT_EQ(holds.hold, PinHold::kHolds) << holds.reason;
  EXPECT_TRUE(holds.holds());
  EXPECT_NE(holds.reason.find("Inductor runs X1 R4096 w16 as is"), std::string::npos) << holds.reason;
  // R blocks of 64 elements or fewer are never halved (step 2), whatever the registers.
  EXPECT_EQ(checkPin(k, row(8, 64, 4, 200, 100.0)).hold, PinHold::kHolds);
  // Registers unknown: Inductor knows them once it compiles the config, we do not: undecided, never pinned.
  const PinCheck unknown = checkPin(k, row(2, 4096, 16, -1, 100.0));
  EXPECT_EQ(unknown.hold, PinHold::kUndecided);
  EXPECT_NE(unknown.reason.find("registers per thread are unknown"), std::string::npos) << unknown.reason;
}

TEST(Pin, WithoutCoordinateDescentOnlyACandidateIsUsed) {
  triton::RunKernel k = coordescSum();
  k.module.meta.coordinate_descent_tuning = false;
  const PinCheck swept = checkPin(k, row(1, 4096, 16, 32, 100.0, "swept"));
  EXPECT_EQ(swept.hold, PinHold::kNotACandidate);
  EXPECT_NE(swept.reason.find("TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1"), std::string::npos);
  EXPECT_EQ(checkPin(k, row(1, 4096, 16, 32, 100.0, "candidate")).hold, PinHold::kHolds);
  k.best.reset();
  EXPECT_EQ(checkPin(k, row(1, 4096, 16, 32, 100.0, "candidate")).hold, PinHold::kNoFile);
  EXPECT_EQ(pinHoldName(PinHold::kNoFile), "no .best_config");
}

TEST(Pin, ThePinIsTheFastestConfigThatHoldsWhenItBeatsTheOneThatRan) {
  const triton::RunKernel& k = coordescSum();
  SweepTarget t;
  t.per_step_us = 200.0;
  t.ran_config = "X1 R4096 w16";
  const std::vector<triton::MeasuredConfig> rows = {
      row(1, 4096, 16, 32, 100.0, "coordinate descent"),  // ran in the step
      row(2, 4096, 16, 40, 80.0),                         // the best, but scaled: would not hold
      row(1, 2048, 16, 32, 90.0),                         // the pin
      row(1, 1024, 8, 30, 95.0)};
  const KernelPin p = planPin(k, swept(rows), t);
  EXPECT_EQ(p.best_config, "X2 R4096 w16");
  EXPECT_EQ(p.best_check.hold, PinHold::kScaled);
  ASSERT_TRUE(p.pin.has_value()) << p.words;
  EXPECT_EQ(p.pinConfig(), "X1 R2048 w16");
  EXPECT_DOUBLE_EQ(p.ran_us, 100.0);
  EXPECT_DOUBLE_EQ(p.pin_us, 90.0);
  EXPECT_DOUBLE_EQ(p.predicted_per_step_us, 180.0);
  EXPECT_EQ(p.file, k.best->path);
  EXPECT_DOUBLE_EQ(p.mix.cold_share, 1.0);  // no warm times: compared cold
  EXPECT_DOUBLE_EQ(p.pin_step_us, 90.0);
  EXPECT_NE(p.words.find("Pin X1 R2048 w16 (90.0 µs, −10.0 % against X1 R4096 w16)"), std::string::npos) << p.words;
  EXPECT_EQ(p.words.find("as the step sees"), std::string::npos) << p.words;
  EXPECT_EQ(p.words.find("spread"), std::string::npos) << p.words;
  EXPECT_NE(p.words.find("The best, X2 R4096 w16 (80.0 µs cold), would not hold"), std::string::npos) << p.words;
  EXPECT_NE(p.words.find("200.0 µs → 180.0 µs per step"), std::string::npos) << p.words;

  // Nothing that holds beats the config that ran: no pin, and it says why.
  const KernelPin none = planPin(k, swept({rows[0], rows[1]}), t);
  EXPECT_FALSE(none.pin.has_value());
  EXPECT_NE(none.words.find("No config that would hold is faster than X1 R4096 w16 (100.0 µs, the one that ran)."),
            std::string::npos)
      << none.words;
  // The config that ran is the fastest: nothing to pin.
  const KernelPin fastest = planPin(k, swept({rows[0], row(1, 1024, 8, 30, 105.0)}), t);
  EXPECT_FALSE(fastest.pin.has_value());
  EXPECT_NE(fastest.words.find("X1 R4096 w16 ran in the step and is the fastest config swept"), std::string::npos)
      << fastest.words;
  // The config that ran was not timed: no gain is known, nothing pinned.
  t.ran_config = "X4 R512 w4";
  const KernelPin untimed = planPin(k, swept(rows), t);
  EXPECT_FALSE(untimed.pin.has_value());
  EXPECT_NE(untimed.words.find("was not timed"), std::string::npos) << untimed.words;
}

TEST(Pin, TheStepsL2StateIsWhereTheConfigThatRanLiesBetweenWarmAndCold) {
  // GPT-2's tanh backward on the H200: X32 R16 w4 took 18.944 µs cold, 13.376 warm, 14.104 per launch in
  // the step: (14.104 − 13.376) / (18.944 − 13.376) = 0.1307 of the way from warm to cold.
  const InStepMix m = inStepMix(14.104, 18.944, 13.376);
  EXPECT_NEAR(m.cold_share, 0.728 / 5.568, 1e-12);
  EXPECT_NEAR(m.ran_step_us, 14.104, 1e-9);  // the config that ran, as the step saw it
  // X64 R16 w4, 16.897 cold and 14.208 warm: faster cold, slower as the step sees it (the step took 31.0
  // µs per step pinned against 28.2 before, +9.9 %; cold alone predicted −10.8 %).
  EXPECT_NEAR(m.stepUs(16.897, 14.208), 0.1307471 * 16.897 + 0.8692529 * 14.208, 1e-6);
  EXPECT_GT(m.stepUs(16.897, 14.208), m.ran_step_us);
  // A config without a warm time: its cold time scaled as the config that ran's.
  EXPECT_NEAR(m.stepUs(16.897, 0.0), 16.897 * 14.104 / 18.944, 1e-9);
  // Clamped: slower than cold is cold only, faster than warm is warm only.
  EXPECT_DOUBLE_EQ(inStepMix(20.0, 18.944, 13.376).cold_share, 1.0);
  EXPECT_DOUBLE_EQ(inStepMix(12.0, 18.944, 13.376).cold_share, 0.0);
  EXPECT_DOUBLE_EQ(inStepMix(12.0, 18.944, 13.376).ran_step_us, 13.376);
  // Cold only when warm is unknown or within 2 % of cold, or the in-step time is unknown.
  EXPECT_DOUBLE_EQ(inStepMix(14.0, 18.944, 0.0).cold_share, 1.0);
  EXPECT_DOUBLE_EQ(inStepMix(9.0, 10.0, 9.85).cold_share, 1.0);
  EXPECT_DOUBLE_EQ(inStepMix(0.0, 18.944, 13.376).cold_share, 1.0);
  EXPECT_DOUBLE_EQ(inStepMix(0.0, 18.944, 13.376).ran_step_us, 18.944);
}

TEST(Pin, APinIsComparedAsTheStepSeesIt) {
  const triton::RunKernel& k = coordescSum();
  SweepTarget t;
  t.per_step_us = 28.208;  // two launches of 14.104 µs
  t.launches_per_step = 2;
  t.ran_config = "X32 R16 w4";
  // Faster cold, slower warm; the step is mostly warm: nothing to pin (blocks of R16 are never halved).
  const KernelPin none = planPin(k, swept({warmRow(32, 16, 4, 18.944, 13.376), warmRow(64, 16, 4, 16.897, 14.208)}), t);
  EXPECT_EQ(none.best_config, "X64 R16 w4");
  EXPECT_TRUE(none.best_check.holds());
  EXPECT_FALSE(none.pin.has_value()) << none.words;
  EXPECT_NE(
      none.words.find("No config that would hold is faster than X32 R16 w4 (14.1 µs as the step sees it, the one that "
                      "ran). The best, X64 R16 w4 (16.9 µs cold), takes 14.6 µs as the step sees it, against 14.1 µs "
                      "for X32 R16 w4."),
      std::string::npos)
      << none.words;
  EXPECT_NE(none.words.find("between its warm (13.4 µs) and cold (18.9 µs) times: configs are compared 13 % cold, "
                            "87 % warm"),
            std::string::npos)
      << none.words;

  // Blenderbot's layer norm: X2 R1024 w16 ran (15.168 cold, 12.257 warm, 13.256 per launch in the step);
  // X1 R512 w4 (11.344 cold, 8.000 warm) is predicted at 18.30 µs per step, profiled pinned 17.7 (cold
  // alone: 19.83).
  t.per_step_us = 26.512;
  t.ran_config = "X2 R1024 w16";
  const KernelPin p = planPin(k, swept({warmRow(2, 1024, 16, 15.168, 12.257), warmRow(1, 512, 4, 11.344, 8.0)}), t);
  ASSERT_TRUE(p.pin.has_value()) << p.words;
  EXPECT_EQ(p.pinConfig(), "X1 R512 w4");
  const double share = (13.256 - 12.257) / (15.168 - 12.257);
  EXPECT_NEAR(p.mix.cold_share, share, 1e-12);
  EXPECT_NEAR(p.pin_step_us, share * 11.344 + (1 - share) * 8.0, 1e-9);
  EXPECT_NEAR(p.predicted_per_step_us, 18.295, 0.001);
  EXPECT_NE(p.words.find("Pin X1 R512 w4 (9.1 µs as the step sees it, −31.0 % against X2 R1024 w16)"),
            std::string::npos)
      << p.words;
  EXPECT_NE(p.words.find("26.5 µs → 18.3 µs per step"), std::string::npos) << p.words;
}

TEST(Pin, OnCudaEventsOrWithoutAWarmTimeNothingIsGuessed) {
  const triton::RunKernel& k = coordescSum();
  SweepTarget t;
  t.per_step_us = 28.208;
  t.launches_per_step = 2;
  t.ran_config = "X32 R16 w4";
  // One row lacks CUPTI's time: every row is compared by CUDA events, which the step's CUPTI times cannot
  // be placed against: compared cold (events), and the words say why.
  triton::MeasuredConfig events = warmRow(64, 16, 4, 16.897, 14.208);
  events.measured.kernel_time.reset();
  events.measured.warm_kernel_time.reset();
  const KernelPin cold = planPin(k, swept({warmRow(32, 16, 4, 18.944, 13.376), events}), t);
  EXPECT_TRUE(cold.mix.events_only);
  EXPECT_DOUBLE_EQ(cold.mix.cold_share, 1.0);
  ASSERT_TRUE(cold.pin.has_value()) << cold.words;
  EXPECT_DOUBLE_EQ(cold.ran_us, 20.944);  // events
  EXPECT_NE(cold.words.find("The sweep compared CUDA events"), std::string::npos) << cold.words;
  // A brief row (no warm time) is not pinned while the step weighs warm in: its time there is a guess.
  triton::MeasuredConfig brief = warmRow(64, 16, 4, 10.0, 0.0);
  brief.measured.warm_time.reset();
  brief.measured.warm_kernel_time.reset();
  const KernelPin none = planPin(k, swept({warmRow(32, 16, 4, 18.944, 13.376), brief}), t);
  EXPECT_FALSE(none.pin.has_value()) << none.words;
  // Faster in the step than warm: compared warm, said so.
  t.per_step_us = 24.0;  // 12.0 per launch < 13.376
  const KernelPin warm = planPin(k, swept({warmRow(32, 16, 4, 18.944, 13.376), warmRow(64, 16, 4, 16.897, 12.0)}), t);
  EXPECT_DOUBLE_EQ(warm.mix.cold_share, 0.0);
  ASSERT_TRUE(warm.pin.has_value()) << warm.words;
  EXPECT_NEAR(warm.predicted_per_step_us, 24.0 * 12.0 / 13.376, 1e-9);
  EXPECT_NE(warm.words.find("no more than its warm time (13.4 µs; cold 18.9 µs): configs are compared warm"),
            std::string::npos)
      << warm.words;
}

TEST(Pin, AGainWithinTheRunsSpreadIsSaidToBe) {
  const triton::RunKernel& k = coordescSum();
  SweepTarget t;
  t.per_step_us = 11.3;
  t.ran_config = "X2 R128 w1";
  triton::MeasuredConfig ran = row(2, 128, 1, 32, 0);
  ran.measured.time = summarizeTimes({10.8, 11.3, 11.8});  // quartiles 11.05, 11.55: spread 4.4 %
  triton::MeasuredConfig pin = row(2, 64, 1, 32, 0);
  pin.measured.time = summarizeTimes({10.9, 11.0, 11.1});
  const KernelPin p = planPin(k, swept({ran, pin}), t);
  ASSERT_TRUE(p.pin.has_value()) << p.words;
  EXPECT_NEAR(p.spread_pct, 100.0 * 0.5 / 11.3, 1e-9);
  EXPECT_NE(p.words.find("The gain (2.7 %) is within the runs' spread (4.4 %): the step may not see it."),
            std::string::npos)
      << p.words;
}

class PinFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("occx-pin-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "ab");
    file_ = (dir_ / "ab" / "cabc.best_config").string();
    ASSERT_TRUE(writeFileAtomically(file_, kOriginal).hasValue());
    pin_.kernel = "triton_red_fused__to_copy_sum_0";
    pin_.file = file_;
    pin_.pin = row(1, 2048, 16, 32, 90.0);
  }
  void TearDown() override { fs::remove_all(dir_); }

  static constexpr const char* kOriginal =
      R"({"XBLOCK": 1, "R0_BLOCK": 4096, "num_warps": 16, "num_stages": 1, "configs_hash": )"
      R"("4577ce57a336cf7c4ad40a3f1fc659ac48f2e1d0bfa6d2c4e22b2b4f842e404d", "found_by_coordesc": false, )"
      R"("time_taken_ms": 827, "triton_cache_hash": "QWERTY"})";
  fs::path dir_;
  std::string file_;
  KernelPin pin_;
};

TEST_F(PinFile, TheFileNamesThePinKeepsItsKeysAndABackupOfInductorsFile) {
  auto w = writePin(pin_);
  ASSERT_TRUE(w.hasValue()) << w.error();
  EXPECT_TRUE(w->backup_made);
  EXPECT_EQ(w->backup, file_ + ".occx-backup");
  EXPECT_EQ(*readFile(w->backup), kOriginal);
  const auto j = nlohmann::ordered_json::parse(*readFile(file_));
  EXPECT_EQ(j.dump(), R"({"XBLOCK":1,"R0_BLOCK":2048,"num_warps":16,"num_stages":1,"configs_hash":)"
                      R"("4577ce57a336cf7c4ad40a3f1fc659ac48f2e1d0bfa6d2c4e22b2b4f842e404d","found_by_coordesc":true,)"
                      R"("time_taken_ms":827,"triton_cache_hash":null})");
  // Pinned again: the backup of Inductor's own file stays.
  pin_.pin = row(2, 1024, 8, 32, 80.0);
  auto again = writePin(pin_);
  ASSERT_TRUE(again.hasValue()) << again.error();
  EXPECT_FALSE(again->backup_made);
  EXPECT_EQ(*readFile(again->backup), kOriginal);
  EXPECT_EQ(nlohmann::json::parse(*readFile(file_))["XBLOCK"], 2);
  // --restore: Inductor's file back, the backup gone.
  auto restored = restorePins(dir_.string());
  ASSERT_TRUE(restored.hasValue()) << restored.error();
  ASSERT_EQ(restored->size(), 1U);
  EXPECT_EQ(restored->front(), file_);
  EXPECT_EQ(*readFile(file_), kOriginal);
  EXPECT_FALSE(fs::exists(file_ + ".occx-backup"));
}

TEST_F(PinFile, AFileThatIsNotAReductionsBestConfigIsLeftAlone) {
  const std::string bad = R"({"XBLOCK": 1, "num_warps": 16, "num_stages": 1, "configs_hash": "x"})";
  ASSERT_TRUE(writeFileAtomically(file_, bad).hasValue());
  auto w = writePin(pin_);
  ASSERT_FALSE(w.hasValue());
  EXPECT_NE(w.error().find("has no R0_BLOCK or RBLOCK"), std::string::npos) << w.error();
  EXPECT_EQ(*readFile(file_), bad);
  EXPECT_FALSE(fs::exists(file_ + ".occx-backup"));
  ASSERT_TRUE(writeFileAtomically(file_, "not json").hasValue());
  EXPECT_NE(writePin(pin_).error().find("not a JSON object"), std::string::npos);
  pin_.pin.reset();
  EXPECT_NE(writePin(pin_).error().find("nothing to pin"), std::string::npos);
  EXPECT_FALSE(restorePins((dir_ / "missing").string()).hasValue());
}

/// A kernel of a profiled step by name, nullptr when it did not run.
const StepKernel* kernelNamed(const StepProfile& p, const std::string& name) {
  for (const auto& k : p.kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

/// A config label's field: configField("X8 R1024 w8", 'w') is 8.
int configField(const std::string& config, char letter) {
  std::size_t at = 0;
  while ((at = config.find(letter, at)) != std::string::npos) {
    if (at == 0 || config[at - 1] == ' ') return std::stoi(config.substr(at + 1));
    ++at;
  }
  return 0;
}

/// Each launch of `name` in a trace: {grid x, threads per block} → launches.
std::map<std::pair<std::int64_t, std::int64_t>, int> launchesOf(const ProfilerTrace& trace, const std::string& name) {
  std::map<std::pair<std::int64_t, std::int64_t>, int> out;
  for (const auto& a : trace.activities) {
    if (a.name == name) ++out[{a.grid[0], a.block[0]}];
  }
  return out;
}

/// A recorded row's cold and warm CUPTI times, µs (warm 0 when not measured).
std::pair<double, double> coldAndWarm(const nlohmann::json& rows, const std::string& kernel,
                                      const std::string& config) {
  for (const auto& r : rows) {
    if (r["kernel"] == kernel && r["config"] == config) {
      return {r["kernel_time_us"].get<double>(),
              r["warm_kernel_time_us"].is_number() ? r["warm_kernel_time_us"].get<double>() : 0.0};
    }
  }
  ADD_FAILURE() << kernel << " " << config << ": no row";
  return {0.0, 0.0};
}

class RecordedPinCheck : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    dir_ = inductorFixture("pin_checks") + "/" + GetParam();
    auto text = readFile(dir_ + "/pins.json");
    ASSERT_TRUE(text.hasValue()) << text.error();
    recorded_ = nlohmann::json::parse(*text);
    for (const char* when : {"before", "after"}) {
      auto trace = readProfilerTrace(dir_ + "/" + when + ".pt.trace.json.gz");
      ASSERT_TRUE(trace.hasValue()) << trace.error();
      (std::string(when) == "before" ? before_ : after_) = profileStep(*trace);
      (std::string(when) == "before" ? before_trace_ : after_trace_) = std::move(*trace);
    }
  }
  std::string dir_;
  nlohmann::json recorded_;
  ProfilerTrace before_trace_, after_trace_;
  StepProfile before_, after_;
};

/// On the H200 (scripts/gpu-pin-check.sh), the step compiled again after `occx inductor pin`
/// (coordinate descent on, the FX graph cache off): every launch of each pinned kernel is the pin's —
/// 32 × num_warps threads per block and a grid that is a launch of the config that ran, rescaled by
/// XBLOCK. Before, some kernels also had launches of another config (one module in two graphs, each
/// tuned on its own; after pinning both read the one .best_config).
TEST_P(RecordedPinCheck, EveryLaunchOfAPinnedKernelIsThePins) {
  int pinned = 0;
  for (const auto& p : recorded_["pins"]) {
    const std::string pin = p["pin_config"];
    if (pin.empty()) continue;
    ++pinned;
    const std::string name = p["kernel"];
    const std::string ran = p["ran_config"];
    const auto before = launchesOf(before_trace_, name);
    const auto after = launchesOf(after_trace_, name);
    ASSERT_FALSE(after.empty()) << name;
    for (const auto& launch : after) {
      const auto& shape = launch.first;  // not a structured binding: clang before 16 cannot capture one
      EXPECT_EQ(shape.second, 32 * configField(pin, 'w')) << name << " pinned " << pin;
      const bool from_ran = std::any_of(before.begin(), before.end(), [&](const auto& b) {
        return b.first.second == 32 * configField(ran, 'w') &&
               b.first.first * configField(ran, 'X') == shape.first * configField(pin, 'X');
      });
      EXPECT_TRUE(from_ran) << name << ": grid " << shape.first << " is not a launch of " << ran << " as " << pin;
    }
  }
  EXPECT_GE(pinned, 3) << GetParam();
}

/// Each pinned kernel's profiled in-step time against the prediction, recomputed here from the recorded
/// sweep times and the step before: per step × the pin's time / ran's, each as the step sees it
/// (inStepMix). Within 10 % for at least 3 pins per model and within 12 % for every pin, and no worse
/// than cold times alone (the prediction the pins were written with, also checked).
TEST_P(RecordedPinCheck, TheStepsL2StatePredictsEachPinnedInStepTime) {
  int within = 0;
  double error_mix = 0.0;
  double error_cold = 0.0;
  for (const auto& p : recorded_["pins"]) {
    const std::string pin = p["pin_config"];
    if (pin.empty()) continue;
    const std::string name = p["kernel"];
    const StepKernel* b = kernelNamed(before_, name);
    const StepKernel* a = kernelNamed(after_, name);
    ASSERT_NE(b, nullptr) << name;
    ASSERT_NE(a, nullptr) << name;
    EXPECT_NEAR(static_cast<double>(p["per_step_us"]), b->per_step_us, 0.05) << name;
    const auto [ran_cold, ran_warm] = coldAndWarm(recorded_["rows"], name, p["ran_config"]);
    const auto [pin_cold, pin_warm] = coldAndWarm(recorded_["rows"], name, pin);
    const InStepMix mix = inStepMix(b->per_step_us / b->launches_per_step, ran_cold, ran_warm);
    const double predicted = b->per_step_us * mix.stepUs(pin_cold, pin_warm) / mix.ran_step_us;
    const double cold = b->per_step_us * pin_cold / ran_cold;
    // The recorded prediction: cold times alone in the first run; in gpt2_fresh (pins chosen and predicted
    // as the step sees them, the JSON has the cold share) the mix, as planPin computed it on the GPU machine.
    const double recorded = p["predicted_per_step_us"];
    const double expected = p.contains("in_step_cold_share") ? predicted : cold;
    EXPECT_NEAR(recorded, expected, 0.005 * expected) << name;
    const double error = predicted / a->per_step_us - 1.0;
    EXPECT_LE(std::abs(error), 0.12) << name << ": predicted " << predicted << " µs, profiled " << a->per_step_us;
    within += std::abs(error) <= 0.10 ? 1 : 0;
    error_mix += std::abs(error);
    error_cold += std::abs(cold / a->per_step_us - 1.0);
  }
  EXPECT_GE(within, 3) << GetParam();
  // On T5 and Blenderbot the margin is small (21.1 against 21.4, 34.1 against 34.4 percentage points).
  EXPECT_LE(error_mix, error_cold + 1e-9) << GetParam();
}

/// gpt2_fresh: GPT-2 compiled again after inStepMix was built, and pinned with it (4 pins, all within 10 %):
/// the check on a run the mix was not designed on.
INSTANTIATE_TEST_SUITE_P(Models, RecordedPinCheck, ::testing::Values("gpt2", "bert", "t5", "blenderbot", "gpt2_fresh"));

}  // namespace
}  // namespace occx::step
