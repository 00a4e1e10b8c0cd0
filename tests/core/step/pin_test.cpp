// Pins: whether a config written to a kernel's .best_config would hold (Inductor uses the file and its
// RBLOCK scaling adds no halved copy), which config a sweep's rows pin, and the file written, kept and
// restored. On the recorded coordinate-descent sum (x 32768, r0_ 8192, H200: 132 SMs, 65536 registers
// per SM); and pins checked on the H200 (scripts/gpu-pin-check.sh): GPT-2, BERT and T5 compiled with
// coordinate descent, swept and pinned, then compiled again and profiled.
#include <gtest/gtest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

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
  const KernelPin p = planPin(k, rows, t);
  EXPECT_EQ(p.best_config, "X2 R4096 w16");
  EXPECT_EQ(p.best_check.hold, PinHold::kScaled);
  ASSERT_TRUE(p.pin.has_value()) << p.words;
  EXPECT_EQ(p.pinConfig(), "X1 R2048 w16");
  EXPECT_DOUBLE_EQ(p.ran_us, 100.0);
  EXPECT_DOUBLE_EQ(p.pin_us, 90.0);
  EXPECT_DOUBLE_EQ(p.predicted_per_step_us, 180.0);
  EXPECT_EQ(p.file, k.best->path);
  EXPECT_NE(p.words.find("Pin X1 R2048 w16 (90.0 µs, −10.0 % against X1 R4096 w16)"), std::string::npos) << p.words;
  EXPECT_NE(p.words.find("The best, X2 R4096 w16 (80.0 µs), would not hold"), std::string::npos) << p.words;
  EXPECT_NE(p.words.find("200.0 µs → 180.0 µs per step"), std::string::npos) << p.words;

  // Nothing that holds beats the config that ran: no pin, and it says why.
  const KernelPin none = planPin(k, {rows[0], rows[1]}, t);
  EXPECT_FALSE(none.pin.has_value());
  EXPECT_NE(none.words.find("No config faster than X1 R4096 w16 (100.0 µs, the one that ran) would hold"),
            std::string::npos)
      << none.words;
  // The config that ran is the fastest: nothing to pin.
  const KernelPin fastest = planPin(k, {rows[0], row(1, 1024, 8, 30, 105.0)}, t);
  EXPECT_FALSE(fastest.pin.has_value());
  EXPECT_NE(fastest.words.find("X1 R4096 w16 ran in the step and is the fastest config swept"), std::string::npos)
      << fastest.words;
  // The config that ran was not timed: no gain is known, nothing pinned.
  t.ran_config = "X4 R512 w4";
  const KernelPin untimed = planPin(k, rows, t);
  EXPECT_FALSE(untimed.pin.has_value());
  EXPECT_NE(untimed.words.find("was not timed"), std::string::npos) << untimed.words;
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

StepProfile recordedStep(const std::string& path) {
  auto trace = readProfilerTrace(path);
  EXPECT_TRUE(trace.hasValue()) << path << ": " << (trace ? "" : trace.error());
  return trace ? profileStep(*trace) : StepProfile{};
}

class RecordedPinCheck : public ::testing::TestWithParam<const char*> {};

/// On the H200, with the step compiled again after `occx inductor pin` (coordinate descent on, the FX
/// graph cache off), each pinned kernel launched as its pin (32 × num_warps threads per block, the grid
/// scaled by XBLOCK) where before it launched as the config that ran, and its profiled in-step time
/// is within 10 % of the predicted one (per_step_us × pin µs / ran µs, from the sweep's cold times).
TEST_P(RecordedPinCheck, EachPinRanAsPinnedAndTookThePredictedInStepTime) {
  const std::string dir = inductorFixture("pin_checks") + "/" + GetParam();
  auto text = readFile(dir + "/pins.json");
  ASSERT_TRUE(text.hasValue()) << text.error();
  const auto pins = nlohmann::json::parse(*text)["pins"];
  const StepProfile before = recordedStep(dir + "/before.pt.trace.json.gz");
  const StepProfile after = recordedStep(dir + "/after.pt.trace.json.gz");
  int pinned = 0;
  for (const auto& p : pins) {
    const std::string pin = p["pin_config"];
    if (pin.empty()) continue;
    ++pinned;
    const std::string name = p["kernel"];
    const std::string ran = p["ran_config"];
    const StepKernel* b = kernelNamed(before, name);
    const StepKernel* a = kernelNamed(after, name);
    ASSERT_NE(b, nullptr) << name;
    ASSERT_NE(a, nullptr) << name;
    EXPECT_EQ(b->block[0], 32 * configField(ran, 'w')) << name;
    EXPECT_EQ(a->block[0], 32 * configField(pin, 'w')) << name << " pinned " << pin;
    EXPECT_EQ(a->grid[0], b->grid[0] * configField(ran, 'X') / configField(pin, 'X')) << name << " pinned " << pin;
    const double predicted = p["predicted_per_step_us"];
    EXPECT_NEAR(predicted / a->per_step_us, 1.0, 0.10)
        << name << ": predicted " << predicted << " µs, profiled " << a->per_step_us << " µs";
    // The prediction's inputs: the in-step time before, scaled by the sweep's pin / ran.
    EXPECT_NEAR(static_cast<double>(p["per_step_us"]), b->per_step_us, 0.05) << name;
    EXPECT_DOUBLE_EQ(predicted, static_cast<double>(p["per_step_us"]) * static_cast<double>(p["pin_us"]) /
                                    static_cast<double>(p["ran_us"]));
  }
  EXPECT_GE(pinned, 1) << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Models, RecordedPinCheck, ::testing::Values("gpt2", "bert", "t5"));

}  // namespace
}  // namespace occx::step
