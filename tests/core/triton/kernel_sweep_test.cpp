// Sweeps of a real Inductor kernel: the grid and policy configs planned, the compile with the
// user's Python (a stand-in replaying the helper's output recorded on the H200, or — where this
// machine's python3 has PyTorch and Triton — the real one), the configs read back from their
// cubins, and the picks from a stand-in GPU.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>

#include "core/base/child_process.h"
#include "core/base/format.h"
#include "core/triton/kernel_sweep.h"
#include "core/triton/sweep_cache.h"
#include "tests/support/inductor_scan.h"
#include "tests/support/table_runner.h"

namespace occx::triton {
namespace {

namespace fs = std::filesystem;
using testing_support::TableRunner;

using testing_support::inductorFixture;
using testing_support::scanFixturePath;

const RunKernel& reduction(const InductorRun& run) {
  for (const auto& k : run.kernels) {
    if (k.analysed()) return k;
  }
  ADD_FAILURE() << "no reduction in " << run.input;
  return run.kernels.front();
}

const SweepConfig* find(const std::vector<SweepConfig>& v, const std::string& text) {
  for (const auto& c : v) {
    if (c.text() == text) return &c;
  }
  return nullptr;
}

std::string moduleText(const RunKernel& k) {
  std::ifstream in(k.module.path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A fresh folder under the test's temporary directory.
std::string freshFolder(const std::string& name) {
  const fs::path p = fs::path(::testing::TempDir()) / ("occx-sweep-" + name);
  fs::remove_all(p);
  fs::create_directories(p);
  return p.string();
}

/// Points the compile at the stand-in Python replaying the H200 recording (or a failure mode).
struct FakePython {
  explicit FakePython(const char* mode = "") {
    setenv("OCCX_FAKE_PYTHON_RECORDING", inductorFixture("sweep_spill_log_softmax").c_str(), 1);
    setenv("OCCX_FAKE_PYTHON_MODE", mode, 1);
  }
  ~FakePython() {
    unsetenv("OCCX_FAKE_PYTHON_RECORDING");
    unsetenv("OCCX_FAKE_PYTHON_MODE");
  }
  FakePython(const FakePython&) = delete;
  FakePython& operator=(const FakePython&) = delete;
};

TritonCompileOptions fakeCompile(const std::string& cache) {
  TritonCompileOptions o;
  o.python = OCCX_FAKE_PYTHON;
  o.cache_dir = cache;
  o.jobs = 2;
  return o;
}

SweepConfig cfg(int x, int r, int w) {
  return SweepConfig{x, r, w, 1, {"grid"}};
}

// ---- the plan ----------------------------------------------------------------------------------

TEST(ConfigGrid, TheSpillCasesDefaultGridAndWhatItLeavesOut) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  const ConfigGrid g = defaultConfigGrid(k);
  EXPECT_EQ(g.text(), "XBLOCK=1..8 R0_BLOCK=256..32768 num_warps=4..32 num_stages=1");
  auto plan = planSweep(k, g, true);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  // 4 XBLOCK × 8 R0_BLOCK × 4 num_warps = 128; a thread gets X·R / (32·w) elements, 1 … 64 kept.
  int kept = 0;
  for (int x : {1, 2, 4, 8}) {
    for (int r = 256; r <= 32768; r *= 2) {
      for (int w : {4, 8, 16, 32}) {
        const int per_thread_x32 = x * r / w;  // elements per thread × 32
        if (per_thread_x32 >= 32 && per_thread_x32 <= 64 * 32) ++kept;
      }
    }
  }
  EXPECT_EQ(kept, 91);
  // Inductor compiled three of them (R2048 w16, R16384 w32, R32768 w32).
  EXPECT_EQ(plan->configs.size() + plan->compiled.size(), 91u);
  EXPECT_EQ(plan->compiled.size(), 3u);
  ASSERT_NE(find(plan->configs, "X1 R32768 w16"), nullptr);
  EXPECT_EQ(find(plan->configs, "X1 R32768 w16")->requested_by, std::vector<std::string>{"grid"});
  EXPECT_EQ(find(plan->configs, "X8 R32768 w4"), nullptr);  // 2048 elements per thread
  EXPECT_EQ(find(plan->configs, "X1 R256 w32"), nullptr);   // a quarter of an element per thread
  ASSERT_NE(find(plan->compiled, "X1 R16384 w32"), nullptr);
  // Every policy halves R32768 w32 to R16384 w32, which Inductor's scaling compiled already.
  EXPECT_EQ(find(plan->compiled, "X1 R16384 w32")->requested_by,
            (std::vector<std::string>{"grid", "old", "new", "review_min", "exact", "spills"}));
  EXPECT_EQ(plan->left_out, (std::vector<std::string>{"4 configs with fewer than 1 element per thread",
                                                      "33 configs with more than 64 elements per thread"}));
}

TEST(ConfigGrid, AGridGivenIsCompiledWhole) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  auto g = parseConfigGrid({"XBLOCK=1 R0_BLOCK=8192..65536", "num_warps=1,16"}, k);
  ASSERT_TRUE(g.hasValue()) << g.error();
  EXPECT_EQ(g->text(), "XBLOCK=1 R0_BLOCK=8192..65536 num_warps=1,16 num_stages=1");
  auto plan = planSweep(k, *g, false);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  // R65536 is above the r0_ hint's 32768: the same kernel as R32768. w1 is kept (no filter).
  EXPECT_EQ(plan->configs.size(), 6u);
  EXPECT_NE(find(plan->configs, "X1 R32768 w1"), nullptr);
  EXPECT_EQ(plan->left_out,
            (std::vector<std::string>{
                "2 configs with XBLOCK or R0_BLOCK above the size hints' padded numels (x 512, r0_ 32768): the "
                "same kernel as the clamped config"}));
}

TEST(ConfigGrid, BadGridsNameTheItemAndTheAllowedValues) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  EXPECT_EQ(
      parseConfigGrid({"XBLOCK=3"}, k).error(),
      "--grid XBLOCK=3: 3 is not a power of two (allowed: powers of two 1 … 4096, as \"1,2,4\" or \"256..4096\")");
  EXPECT_EQ(parseConfigGrid({"num_stages=9"}, k).error(),
            "--grid num_stages=9: 9 is out of range (allowed: 1 … 8, as \"1,2,4\")");
  EXPECT_EQ(parseConfigGrid({"R0_BLOCK=4096..512"}, k).error(),
            "--grid R0_BLOCK=4096..512: the range 4096..512 is empty (allowed: powers of two 1 … 65536, as \"1,2,4\" "
            "or \"256..4096\")");
  EXPECT_EQ(parseConfigGrid({"YBLOCK=2"}, k).error(),
            "--grid YBLOCK=2: unknown axis 'YBLOCK' (allowed: XBLOCK, R0_BLOCK, num_warps, num_stages)");
  EXPECT_EQ(parseConfigGrid({"num_warps"}, k).error(),
            "--grid num_warps: expected NAME=VALUES with NAME one of XBLOCK, R0_BLOCK, num_warps, num_stages");
  EXPECT_EQ(parseConfigGrid({"num_warps=64"}, k).error(),
            "--grid num_warps=64: 64 is out of range (allowed: powers of two 1 … 32, as \"1,2,4\" or \"256..4096\")");
}

TEST(ConfigGrid, PersistentReductionsHaveNoRAxisAndPointwiseKernelsNoSweep) {
  const InductorRun run = scanFixturePath(inductorFixture("bert"));
  const RunKernel* per = nullptr;
  const RunKernel* poi = nullptr;
  for (const auto& k : run.kernels) {
    if (per == nullptr && k.module.kind == KernelKind::kPersistentReduction && k.module.sizeHint("y") == nullptr)
      per = &k;
    if (poi == nullptr && k.module.kind == KernelKind::kPointwise) poi = &k;
  }
  ASSERT_NE(per, nullptr);
  ASSERT_NE(poi, nullptr);
  const auto e = parseConfigGrid({"R0_BLOCK=512"}, *per).error();
  EXPECT_NE(e.find("is a persistent reduction: its R0_BLOCK is the whole row"), std::string::npos) << e;
  const ConfigGrid g = defaultConfigGrid(*per);
  EXPECT_TRUE(g.r0_block.empty());
  auto plan = planSweep(*per, g, true);
  ASSERT_TRUE(plan.hasValue()) << plan.error();
  for (const auto& c : plan->configs) EXPECT_EQ(c.r0_block, 0) << c.text();
  EXPECT_EQ(planSweep(*poi, std::nullopt, true).error(),
            poi->module.name + " is a pointwise kernel: sweeps are for looped and persistent reductions");
}

// ---- the compile -------------------------------------------------------------------------------

TEST(TritonCompile, WithoutAUsablePythonOneMessageSaysWhatToInstall) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  TritonCompileOptions o;
  o.python = "/nonexistent/python3";
  o.cache_dir = freshFolder("nopython");
  auto r = compileWithTriton(moduleText(k), k.module.module_hash, {cfg(1, 8192, 16)}, o);
  EXPECT_EQ(r.error(),
            "/nonexistent/python3 is not an executable file: compiling Triton kernels needs a Python with PyTorch and "
            "Triton — install "
            "PyTorch in it (`pip install torch`, which brings Triton), or give another Python with --python PATH or "
            "OCCX_PYTHON");
  FakePython fake("no-torch");
  auto t =
      compileWithTriton(moduleText(k), k.module.module_hash, {cfg(1, 8192, 16)}, fakeCompile(freshFolder("notorch")));
  EXPECT_EQ(t.error(),
            std::string(OCCX_FAKE_PYTHON) + " (" + OCCX_FAKE_PYTHON +
                ") cannot import torch (ModuleNotFoundError: No module named 'torch'): compiling Triton kernels needs "
                "PyTorch "
                "and Triton in that Python — install PyTorch in it (`pip install torch`, which brings Triton), or give "
                "another Python with --python PATH or OCCX_PYTHON");
}

TEST(TritonCompile, EachConfigIsAReportAndAFailingOneDoesNotStopTheRest) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  FakePython fake;
  const std::string cache = freshFolder("reports");
  auto r =
      compileWithTriton(moduleText(k), k.module.module_hash,
                        {cfg(1, 16384, 16), cfg(1, 2048, 3), cfg(1, 32768, 16), cfg(4, 4096, 32)}, fakeCompile(cache));
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_EQ(r->jobs, 2);
  EXPECT_EQ(r->torch_version.substr(0, 4), "2.11");
  EXPECT_EQ(r->target, "cuda:90");
  ASSERT_EQ(r->configs.size(), 4u);
  EXPECT_TRUE(r->configs[0].ok) << r->configs[0].error;
  EXPECT_EQ(r->configs[0].how, "inductor");
  EXPECT_GT(r->configs[0].seconds, 0.0);
  EXPECT_TRUE(fs::is_directory(r->configs[0].folder)) << r->configs[0].folder;
  EXPECT_FALSE(r->configs[1].ok);
  EXPECT_EQ(r->configs[1].error, "AssertionError: num_warps must be a power of 2");
  EXPECT_TRUE(r->configs[2].ok) << r->configs[2].error;
  EXPECT_FALSE(r->configs[3].ok);
  EXPECT_EQ(r->configs[3].error, "not recorded");
  // The folders read like Inductor's own: registers and spills from the cubins.
  auto c16 = readTritonCacheFolder(r->configs[0].folder);
  ASSERT_TRUE(c16.hasValue()) << c16.error();
  ASSERT_TRUE(c16->cubin.has_value());
  EXPECT_EQ(c16->cubin->registers, 123);
  auto c32 = readTritonCacheFolder(r->configs[2].folder);
  ASSERT_TRUE(c32.hasValue() && c32->cubin.has_value());
  EXPECT_EQ(c32->cubin->registers, 128);
  EXPECT_EQ(c32->cubin->tritonSpills(), 74);
}

TEST(TritonCompile, AHelperThatDiesFailsItsConfigsWithTheExit) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  FakePython fake("crash");
  auto o = fakeCompile(freshFolder("crash"));
  o.jobs = 1;
  auto r = compileWithTriton(moduleText(k), k.module.module_hash, {cfg(1, 16384, 16), cfg(1, 32768, 16)}, o);
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_TRUE(r->configs[0].ok);
  EXPECT_FALSE(r->configs[1].ok);
  EXPECT_EQ(r->configs[1].error.rfind("the compile helper was killed by signal 9", 0), 0u) << r->configs[1].error;
}

// ---- the sweep ---------------------------------------------------------------------------------

KernelSweepOptions fakeSweep(const std::string& cache) {
  KernelSweepOptions o;
  auto g = ConfigGrid{};
  g.xblock = {1};
  g.r0_block = {8192, 16384, 32768};
  g.num_warps = {16};
  g.num_stages = {1};
  o.grid = g;
  o.policies = true;
  o.compile = fakeCompile(cache);
  return o;
}

TEST(KernelSweep, WithoutAGpuEveryConfigHasRegistersSpillsOccupancyAndDecisions) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  FakePython fake;
  auto r = sweepKernel(k, moduleText(k), fakeSweep(freshFolder("nogpu")), nullptr);
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_FALSE(r->measured);
  // Inductor's three configs and the three the grid asked for.
  ASSERT_EQ(r->runs.rows.size(), 6u);
  std::map<std::string, const MeasuredConfig*> by;
  for (const auto& row : r->runs.rows) by[row.configText()] = &row;
  ASSERT_EQ(by.count("X1 R32768 w16"), 1u);
  const MeasuredConfig& spill = *by["X1 R32768 w16"];
  EXPECT_EQ(spill.origin, "swept");
  EXPECT_EQ(spill.swept_for, "grid");
  EXPECT_GT(spill.compile_s, 0.0);
  EXPECT_EQ(spill.n_regs, 128);
  EXPECT_EQ(spill.n_spills, 74);
  EXPECT_DOUBLE_EQ(spill.occupancy_pct, 25.0);  // 128 registers × 512 threads: one block of 64 warps
  EXPECT_EQ(spill.measured.status, RunStatus::kSkipped);
  EXPECT_EQ(spill.measured.reason, "not run: no GPU ran them");
  ASSERT_EQ(spill.decisions.size(), 5u);
  EXPECT_EQ(by["X1 R16384 w16"]->n_regs, 123);
  EXPECT_EQ(by["X1 R16384 w16"]->n_spills, 0);
  EXPECT_EQ(by["X1 R8192 w16"]->n_regs, 88);
  EXPECT_EQ(by["X1 R2048 w16"]->origin, "candidate");
  EXPECT_TRUE(by["X1 R2048 w16"]->swept_for.empty());
  EXPECT_EQ(by["X1 R16384 w32"]->origin, "added by scaling");
  ASSERT_EQ(r->explanation.size(), 1u);
  EXPECT_EQ(
      r->explanation[0],
      "Not timed (no GPU ran the configs): 6 configs with registers from their cubins; highest occupancy X1 R2048 w16 "
      "(100 % occupancy); 2 configs spill.");
}

TEST(KernelSweep, WithAGpuThePicksAndTheBestAreSaidWithWhatDiffers) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  FakePython fake;
  // The H200's CUDA-event medians of these configs (µs) as first recorded for
  // resources/inductor-runs/measured/spill_log_softmax_w16.csv (a stand-in GPU: any figures do).
  TableRunner gpu({{"R0_BLOCK=2048, num_warps=16", 29.6},
                   {"R0_BLOCK=8192, num_warps=16", 29.2},
                   {"R0_BLOCK=16384, num_warps=16", 30.0},
                   {"R0_BLOCK=16384, num_warps=32", 32.6},
                   {"R0_BLOCK=32768, num_warps=16", 44.8},
                   {"R0_BLOCK=32768, num_warps=32", 44.0}});
  auto r = sweepKernel(k, moduleText(k), fakeSweep(freshFolder("gpu")), &gpu);
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_TRUE(r->measured);
  ASSERT_EQ(r->runs.picks.size(), 1u);
  const KernelPicks& p = r->runs.picks[0];
  EXPECT_EQ(p.ok_rows, 6);
  EXPECT_EQ(r->runs.rows[static_cast<std::size_t>(p.best_row)].configText(), "X1 R8192 w16");
  ASSERT_GE(r->explanation.size(), 3u);
  // (The stand-in GPU reports no bandwidth: the sentence leaves it out.)
  EXPECT_EQ(r->explanation[0],
            "Best: X1 R8192 w16, 29.2 µs: 25 % occupancy, 88 registers, no spills — compiled by the sweep.");
  EXPECT_EQ(r->explanation[1],
            "Inductor's pick (.best_config) X1 R2048 w16: 29.6 µs, 1.01× the best; occupancy 100 % vs 25 %; 32 vs 88 "
            "registers; tile 1×2048 vs 1×8192.");
  // Every rule's set is the three Inductor compiled; each picks R2048 w16: one sentence.
  ASSERT_EQ(r->explanation.size(), 3u);
  EXPECT_EQ(r->explanation[2],
            "old, new, review_min, exact, spills policies: each picks X1 R2048 w16 of 3, 29.6 µs, regret 1.01 "
            "(occupancy 100 % "
            "vs 25 %; 32 vs 88 registers; tile 1×2048 vs 1×8192).");
  // The CSV reads back with the sweep's columns.
  auto back = measurementsFromCsv(measurementsToCsv(r->runs));
  ASSERT_TRUE(back.hasValue()) << back.error();
  ASSERT_EQ(back->rows.size(), r->runs.rows.size());
  for (std::size_t i = 0; i < back->rows.size(); ++i) {
    EXPECT_EQ(back->rows[i].swept_for, r->runs.rows[i].swept_for);
    EXPECT_EQ(back->rows[i].decisions, r->runs.rows[i].decisions);
    EXPECT_NEAR(back->rows[i].compile_s, r->runs.rows[i].compile_s, 0.006);
  }
}

/// A screen pass times every config briefly and spends the full method on those within the margin of
/// the brief best (and Inductor's winner and the policies' picks); a second sweep with the same cache
/// runs nothing.
TEST(KernelSweep, AScreenPassKeepsTheFullMethodForTheFinalistsAndTheCacheResumes) {
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  FakePython fake;
  const std::map<std::string, double> times = {
      {"R0_BLOCK=2048, num_warps=16", 29.6},  {"R0_BLOCK=8192, num_warps=16", 29.2},
      {"R0_BLOCK=16384, num_warps=16", 30.0}, {"R0_BLOCK=16384, num_warps=32", 32.6},
      {"R0_BLOCK=32768, num_warps=16", 44.8}, {"R0_BLOCK=32768, num_warps=32", 44.0}};
  TableRunner gpu(times);
  SweepCache cache(freshFolder("screen-cache"));
  KernelSweepOptions options = fakeSweep(freshFolder("screen"));
  options.screen = ScreenPass{briefScreenOptions(options.run.run), 8.0};
  options.cache = &cache;
  auto r = sweepKernel(k, moduleText(k), options, &gpu);
  ASSERT_TRUE(r.hasValue()) << r.error();
  // The stand-in's times have no spread: the margin is the stated minimum, 8 %. 32.6 µs is 11.6 % over
  // the brief best (29.2), 44.0 and 44.8 more: three configs stay with their brief time.
  EXPECT_DOUBLE_EQ(r->screen_margin_pct, 8.0);
  EXPECT_EQ(r->screened_out, 3);
  EXPECT_EQ(gpu.modules.size(), 6U + 3U);  // every config briefly, the three finalists again
  int full = 0;
  for (const auto& row : r->runs.rows) {
    if (!row.ok()) continue;
    if (row.method == "full") {
      ++full;
      EXPECT_LE(row.measured.timeUs(), 29.2 * 1.08) << row.configText();
    } else {
      EXPECT_EQ(row.method.rfind("brief: ", 0), 0U) << row.configText() << ": " << row.method;
      EXPECT_GT(row.measured.timeUs(), 29.2 * 1.08) << row.configText();
    }
  }
  EXPECT_EQ(full, 3);
  const KernelPicks& p = r->runs.picks.at(0);
  EXPECT_EQ(r->runs.rows[static_cast<std::size_t>(p.best_row)].configText(), "X1 R8192 w16");
  EXPECT_NE(std::find_if(r->runs.meta.begin(), r->runs.meta.end(), [](const auto& m) { return m.first == "screen"; }),
            r->runs.meta.end());
  // Again with the same cache: nothing runs, every row comes from it, the picks are the same.
  TableRunner again(times);
  auto r2 = sweepKernel(k, moduleText(k), options, &again);
  ASSERT_TRUE(r2.hasValue()) << r2.error();
  EXPECT_TRUE(again.modules.empty());
  EXPECT_EQ(r2->from_cache, 6 + 3);
  EXPECT_EQ(r2->runs.rows[static_cast<std::size_t>(r2->runs.picks.at(0).best_row)].configText(), "X1 R8192 w16");
  // A changed method measures again.
  options.run.run.timed_ms = 80.0;
  TableRunner changed(times);
  auto r3 = sweepKernel(k, moduleText(k), options, &changed);
  ASSERT_TRUE(r3.hasValue()) << r3.error();
  EXPECT_EQ(changed.modules.size(), 3U);  // the brief method is the same (its own timed_ms): only the full pass
}

// ---- the real thing, where this machine has it -------------------------------------------------

/// Why this machine's python3 cannot compile Triton kernels; empty when it can.
std::string noTriton() {
  SpawnSpec s;
  s.program = "python3";
  s.search_path = true;
  s.arguments = {"-c", "import torch, triton"};
  s.environment = {{"CUDA_VISIBLE_DEVICES", ""}};
  auto r = runProcess(s, {}, 120.0);
  if (!r) return r.error();
  if (r->exit_code != 0) return "python3 cannot import torch and triton";
  return {};
}

TEST(TritonCompileReal, InductorsOwnConfigLandsInInductorsFolderWithNoGpuVisible) {
  if (const std::string why = noTriton(); !why.empty()) GTEST_SKIP() << "needs PyTorch and Triton in python3: " << why;
  const InductorRun run = scanFixturePath(inductorFixture("spill_log_softmax"));
  const RunKernel& k = reduction(run);
  ASSERT_TRUE(k.best.has_value());
  TritonCompileOptions o;
  o.cache_dir = freshFolder("real");
  auto r = compileWithTriton(moduleText(k), k.module.module_hash, {cfg(1, 2048, 16), cfg(1, 16384, 16)}, o);
  ASSERT_TRUE(r.hasValue()) << r.error();
  ASSERT_TRUE(r->configs[0].ok) << r->configs[0].error;
  ASSERT_TRUE(r->configs[1].ok) << r->configs[1].error;
  // The same compile as Inductor's: the same Triton cache key.
  EXPECT_EQ(r->configs[0].triton_cache_hash, k.best->triton_cache_hash);
  auto c = readTritonCacheFolder(r->configs[1].folder);
  ASSERT_TRUE(c.hasValue() && c->cubin.has_value());
  EXPECT_EQ(c->cubin->registers, 123);
  EXPECT_EQ(c->cubin_arch, 90);
  EXPECT_EQ(r->target, "cuda:90");
}

}  // namespace
}  // namespace occx::triton
