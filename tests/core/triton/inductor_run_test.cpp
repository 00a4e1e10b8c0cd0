// Whole Inductor runs read from the fixtures recorded on an H200 (PyTorch 2.11, Triton 3.6;
// scripts/record-inductor-fixtures.py): every compiled config's tile, registers and spills must
// equal what Triton reported at load time, which configs the dynamic RBLOCK scaling added must be
// reproduced by the new bound, the winner must be .best_config's, and the occupancy, the local
// memory and the shared memory must equal the CUDA driver's answers recorded for the same cubins.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>

#include <nlohmann/json.hpp>

#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/triton/inductor_run.h"
#include "core/triton/run_table.h"
#include "tests/support/inductor_scan.h"

using namespace occx;
using namespace occx::triton;
namespace fs = std::filesystem;

namespace {

const std::vector<std::string>& fixtureNames() {
  static const std::vector<std::string> names = {"bert",
                                                 "blenderbot",
                                                 "coordesc_sum",
                                                 "dynamic_log_softmax",
                                                 "gpt2",
                                                 "ref_layer_norm_bwd",
                                                 "ref_log_softmax",
                                                 "ref_log_softmax_vocab",
                                                 "ref_mean_var",
                                                 "ref_sum",
                                                 "spill_log_softmax",
                                                 "t5"};
  return names;
}

using occx::testing_support::inductorFixture;

InductorRun scanFixture(const std::string& name) {
  RunScanOptions o;
  o.input = inductorFixture(name);
  o.home_triton_cache = false;
  auto run = scanInductorRun(o);
  EXPECT_TRUE(run.hasValue()) << name << ": " << run.error();
  return run.hasValue() ? run.value() : InductorRun{};
}

nlohmann::json recorded(const std::string& name) {
  std::ifstream in(inductorFixture(name) + "/recorded.json");
  return nlohmann::json::parse(in);
}

const RunConfig* configByHash(const InductorRun& run, const std::string& hash, const RunKernel** kernel = nullptr) {
  for (const auto& k : run.kernels) {
    for (const auto& c : k.configs) {
      if (c.triton_cache_hash == hash) {
        if (kernel != nullptr) *kernel = &k;
        return &c;
      }
    }
  }
  return nullptr;
}

class EveryFixture : public ::testing::TestWithParam<std::string> {};

// Registers, spills, tile and warps of every compiled reduction config, as Triton reported them.
TEST_P(EveryFixture, ConfigsEqualWhatTritonReported) {
  const InductorRun run = scanFixture(GetParam());
  const nlohmann::json rec = recorded(GetParam());
  int checked = 0;
  for (const auto& k : rec["kernels"]) {
    const std::string name = k.value("kernel_name", "");
    if (name.rfind("triton_red_", 0) != 0 && name.rfind("triton_per_", 0) != 0) continue;
    for (const auto& l : k["launchers"]) {
      const std::string hash = l["cache_hash"];
      const RunKernel* kernel = nullptr;
      const RunConfig* c = configByHash(run, hash, &kernel);
      ASSERT_NE(c, nullptr) << name << " " << hash << " not found";
      EXPECT_EQ(kernel->module.name, name);
      EXPECT_EQ(c->config.n_regs, l["n_regs"].get<int>()) << name << " " << hash;
      EXPECT_EQ(c->config.n_spills, l["n_spills"].get<int>()) << name << " " << hash;
      EXPECT_EQ(c->config.num_warps, l["num_warps"].get<int>());
      EXPECT_EQ(c->config.num_stages, l["num_stages"].get<int>());
      EXPECT_EQ(c->config.xblock, l["kwargs"].value("XBLOCK", 1)) << name;
      if (l["kwargs"].contains("R0_BLOCK")) {
        EXPECT_EQ(c->config.r0_block, l["kwargs"]["R0_BLOCK"].get<int>()) << name;
      }
      EXPECT_EQ(c->dynamic_shared_bytes, l["shared"].get<std::int64_t>());
      ++checked;
    }
  }
  EXPECT_GT(checked, 0);
}

// The configs the scaling added, reproduced by the current (new) bound on the real n_regs.
TEST_P(EveryFixture, AddedConfigsAreExactlyThoseInductorAdded) {
  const InductorRun run = scanFixture(GetParam());
  const nlohmann::json rec = recorded(GetParam());
  for (const auto& k : rec["kernels"]) {
    const std::string name = k.value("kernel_name", "");
    if (name.rfind("triton_red_", 0) != 0 && name.rfind("triton_per_", 0) != 0) continue;
    std::map<std::string, bool> added;  // "X R w s" → added
    auto key = [](const nlohmann::json& kw, int w, int s) {
      return std::to_string(kw.value("XBLOCK", 1)) + " " + std::to_string(kw.value("R0_BLOCK", 0)) + " " +
             std::to_string(w) + " " + std::to_string(s);
    };
    for (const auto& c : k["compile_results"])
      added[key(c["kwargs"], c["num_warps"], c["num_stages"])] = c["added_by_scaling"];
    for (const auto& l : k["launchers"]) {
      const RunConfig* c = configByHash(run, l["cache_hash"]);
      ASSERT_NE(c, nullptr);
      const bool was_added = added.at(key(l["kwargs"], l["num_warps"], l["num_stages"]));
      EXPECT_EQ(c->origin == ConfigOrigin::kAddedByScaling, was_added) << name << " " << c->config.str();
      if (was_added) {
        ASSERT_GE(c->parent, 0);  // halved from a compiled candidate
      }
    }
  }
}

// Occupancy, local memory and static shared memory equal the CUDA driver's answers for the cubin
// (cuOccupancyMaxActiveBlocksPerMultiprocessor, cuFuncGetAttribute), recorded on the H200.
TEST_P(EveryFixture, OccupancyAndMemoryEqualTheDriver) {
  const InductorRun run = scanFixture(GetParam());
  const nlohmann::json rec = recorded(GetParam());
  int checked = 0;
  for (const auto& [hash, d] : rec["driver"].items()) {
    const RunConfig* c = configByHash(run, hash);
    if (c == nullptr) continue;  // a pointwise kernel's folder: not kept in the fixture
    ASSERT_TRUE(c->occupancy.has_value()) << hash;
    EXPECT_EQ(c->occupancy->active_blocks_per_sm, d["active_blocks_per_sm"].get<int>())
        << hash << " " << c->config.str();
    EXPECT_EQ(c->local_bytes, d["local_size_bytes"].get<std::int64_t>()) << hash;
    EXPECT_EQ(c->static_shared_bytes, d["shared_size_bytes"].get<std::int64_t>()) << hash;
    EXPECT_EQ(*c->config.n_regs, d["num_regs"].get<int>()) << hash;
    ++checked;
  }
  EXPECT_GT(checked, 0);
}

// The winner is the .best_config's config, matched by the Triton folder it names.
TEST_P(EveryFixture, WinnerIsTheBestConfig) {
  const InductorRun run = scanFixture(GetParam());
  int winners = 0;
  for (const auto& k : run.kernels) {
    if (!k.best || !k.analysed()) continue;  // pointwise kernels have winners too; they are listed, not analysed
    ASSERT_GE(k.winner, 0) << k.module.name;
    const RunConfig& w = k.configs[static_cast<std::size_t>(k.winner)];
    EXPECT_TRUE(w.winner);
    EXPECT_EQ(w.config.xblock, k.best->xblock);
    EXPECT_EQ(w.config.num_warps, k.best->num_warps);
    if (k.best->r0_block > 0) {
      EXPECT_EQ(w.config.r0_block, k.best->r0_block);
    }
    if (!k.best->triton_cache_hash.empty()) {
      EXPECT_EQ(w.triton_cache_hash, k.best->triton_cache_hash);
    }
    ++winners;
  }
  if (GetParam() != "dynamic_log_softmax" && GetParam() != "ref_sum" && GetParam() != "ref_mean_var" &&
      GetParam() != "ref_layer_norm_bwd") {
    EXPECT_GT(winners, 0);
  }
}

// The scan CSV reads back cell for cell.
TEST_P(EveryFixture, ScanCsvRoundTrips) {
  const InductorRun run = scanFixture(GetParam());
  const CsvTable written = scanToCsv(run);
  auto parsed = parseCsv(toCsv(written));
  ASSERT_TRUE(parsed.hasValue()) << parsed.error();
  auto rows = scanFromCsv(*parsed);
  ASSERT_TRUE(rows.hasValue()) << rows.error();
  const auto original = scanRows(run);
  ASSERT_EQ(rows->size(), original.size());
  for (std::size_t i = 0; i < original.size(); ++i) {
    EXPECT_EQ(rowCells(scanColumns(), (*rows)[i]), rowCells(scanColumns(), original[i])) << "row " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Fixtures, EveryFixture, ::testing::ValuesIn(fixtureNames()));

// The motivating case: log_softmax fp32 264 × 30000, persistent reductions off.
TEST(InductorRun, SpillCaseDecisionsInWords) {
  const InductorRun run = scanFixture("spill_log_softmax");
  ASSERT_EQ(run.kernels.size(), 1u);
  const RunKernel& k = run.kernels.front();
  EXPECT_EQ(k.module.kind, KernelKind::kLoopedReduction);
  EXPECT_EQ(k.device_label, "CC 9.0, 132 SMs");
  ASSERT_EQ(k.configs.size(), 3u);
  // Sorted by tile: R2048 w16, R16384 w32 (added), R32768 w32 (spills).
  const RunConfig& small = k.configs[0];
  const RunConfig& halved = k.configs[1];
  const RunConfig& spilling = k.configs[2];
  EXPECT_EQ(small.config.r0_block, 2048);
  EXPECT_TRUE(small.winner);
  EXPECT_EQ(spilling.config.r0_block, 32768);
  EXPECT_EQ(spilling.config.n_spills, 50);
  EXPECT_EQ(spilling.local_bytes, 200);
  EXPECT_TRUE(spilling.over_spill_threshold);
  EXPECT_EQ(spilling.origin, ConfigOrigin::kCandidate);
  EXPECT_EQ(halved.origin, ConfigOrigin::kAddedByScaling);
  EXPECT_EQ(halved.parent, 2);
  EXPECT_EQ(halved.config.n_spills, 0);
  const auto* n = spilling.decision(inductor::Policy::kNew);
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->outcome, inductor::Outcome::kScale);
  EXPECT_EQ(n->bound_blocks_per_sm, 1);
  EXPECT_EQ(n->capacity_blocks, 132);
  EXPECT_EQ(n->total_blocks, 512);
  const auto* o = spilling.decision(inductor::Policy::kOld);
  ASSERT_NE(o, nullptr);
  EXPECT_EQ(o->bound_blocks_per_sm, 2);
  EXPECT_EQ(o->outcome, inductor::Outcome::kScale);
  // 32 registers never limit occupancy: step 3 skips the small config.
  EXPECT_EQ(small.decision(inductor::Policy::kNew)->outcome, inductor::Outcome::kNotApplicable);
  EXPECT_EQ(small.decision(inductor::Policy::kNew)->step, 3);
  // The added config is not examined again, as in Inductor.
  EXPECT_EQ(halved.decision(inductor::Policy::kNew)->outcome, inductor::Outcome::kNotApplicable);
  EXPECT_EQ(
      run.summary.text(),
      "1 looped reduction; 3 configs Inductor compiled (1 added by RBLOCK scaling); the old and new bounds agree on "
      "every one; 1 config spills over the threshold; the winners' mean occupancy is 100 % over the 1 looped "
      "reduction autotuned among several configs; device CC 9.0, 132 SMs");
  EXPECT_NE(kernelReport(k).find("new: Step 7: scale"), std::string::npos) << kernelReport(k);
}

// A sweep's configs joined to the run's rows are counted apart from Inductor's: the configs, the
// disagreements and the spills; the winners' mean says which kernels it is over.
TEST(InductorRun, SummaryCountsInductorsConfigsAndASweepsApart) {
  std::vector<ScanRow> rows = scanRows(scanFixture("spill_log_softmax"));
  ASSERT_EQ(rows.size(), 3u);
  ScanRow swept = rows[2];  // a spilling config the old and new bounds disagree on, compiled by a sweep
  swept.origin = std::string(kSweptOrigin);
  swept.winner = false;
  swept.r0_block = 8192;
  swept.old_decision = "no scaling";
  swept.new_decision = "scale";
  rows.push_back(swept);
  swept.r0_block = 4096;
  swept.over_spill_threshold = false;
  rows.push_back(swept);
  // A second kernel with one config: not autotuned, no winner.
  ScanRow single = rows[0];
  single.kernel = "triton_red_single_config_1";
  single.module = "single";
  single.winner = false;
  rows.push_back(single);

  const RunSummary s = summarizeRows(rows);
  EXPECT_EQ(s.configs, 6);
  EXPECT_EQ(s.inductorConfigs(), 4);
  EXPECT_EQ(s.added_by_sweep, 2);
  EXPECT_EQ(s.old_new_disagree, 2);
  EXPECT_EQ(s.old_new_disagree_swept, 2);
  EXPECT_EQ(s.over_spill_threshold, 2);
  EXPECT_EQ(s.over_spill_threshold_swept, 1);
  EXPECT_EQ(s.winners_known, 1);
  EXPECT_EQ(s.single_config, 1);
  EXPECT_EQ(s.text(),
            "2 looped reductions; 4 configs Inductor compiled (1 added by RBLOCK scaling) + 2 a sweep added; the old "
            "and new bounds disagree on 0 of Inductor's configs and 2 of the sweep's; 1 of Inductor's configs and 1 "
            "of the sweep's spill over the threshold; the winners' mean occupancy is 100 % over the 1 looped "
            "reduction autotuned among several configs (1 had one config: nothing to choose); device "
            "CC 9.0, 132 SMs");
}

TEST(InductorRun, WrapperBuffersOfEachLaunch) {
  const InductorRun run = scanFixture("ref_log_softmax");
  ASSERT_EQ(run.kernels.size(), 1u);
  const RunKernel& k = run.kernels.front();
  ASSERT_EQ(k.launches.size(), 1u);
  const auto& args = k.launches.front().arguments;
  ASSERT_EQ(args.size(), 4u);
  EXPECT_EQ(args[0].name, "in_ptr0");
  EXPECT_EQ(args[0].value, "arg0_1");
  ASSERT_TRUE(args[0].buffer.has_value());
  EXPECT_EQ(args[0].buffer->sizes, (std::vector<std::string>{"32768", "8192"}));
  EXPECT_EQ(args[0].buffer->dtype, "torch.float16");
  EXPECT_EQ(args[1].name, "out_ptr2");
  ASSERT_TRUE(args[1].buffer.has_value());
  EXPECT_EQ(args[1].buffer->dtype, "torch.float32");
  EXPECT_EQ(args[1].buffer->origin, "allocated");
  EXPECT_EQ(args[2].value, "32768");
  EXPECT_EQ(args[3].value, "8192");
}

TEST(InductorRun, CoordinateDescentWinner) {
  const InductorRun run = scanFixture("coordesc_sum");
  ASSERT_EQ(run.kernels.size(), 1u);
  const RunKernel& k = run.kernels.front();
  ASSERT_TRUE(k.best.has_value());
  EXPECT_TRUE(k.best->found_by_coordesc);
  EXPECT_TRUE(k.best->triton_cache_hash.empty());
  ASSERT_GE(k.winner, 0);
  EXPECT_EQ(k.configs.size(), 6u);  // the start config and the trials of coordinate descent
  int others = 0;
  for (const auto& c : k.configs) others += c.origin == ConfigOrigin::kOther ? 1 : 0;
  EXPECT_GE(others, 4);
}

TEST(InductorRun, DynamicShapesAreSaidSo) {
  const InductorRun run = scanFixture("dynamic_log_softmax");
  ASSERT_FALSE(run.kernels.empty());
  for (const auto& k : run.kernels) {
    EXPECT_TRUE(k.module.dynamicShape()) << k.module.name;
    EXPECT_GE(k.module.dynamic_symbols, 1);
  }
  const auto rows = scanRows(run);
  ASSERT_FALSE(rows.empty());
  EXPECT_EQ(rows.front().xnumel, "dynamic");
}

TEST(InductorRun, TorchCompileDebugFolder) {
  RunScanOptions o;
  o.input = inductorFixture("ref_mean_var") + "/torch_compile_debug";
  o.triton_caches = {inductorFixture("ref_mean_var") + "/triton/0"};
  o.home_triton_cache = false;
  auto run = scanInductorRun(o);
  ASSERT_TRUE(run.hasValue()) << run.error();
  ASSERT_EQ(run->kernels.size(), 1u);
  const RunKernel& k = run->kernels.front();
  EXPECT_EQ(k.module.kind, KernelKind::kLoopedReduction);
  ASSERT_EQ(k.configs.size(), 1u);  // matched through the wrapper's "# kernel path:" comment
  EXPECT_TRUE(k.configs.front().config.n_regs.has_value());
  EXPECT_FALSE(k.launches.empty());
}

TEST(InductorRun, OneKernelModuleFindsItsTritonFolders) {
  std::string module;
  for (const auto& e : fs::recursive_directory_iterator(inductorFixture("spill_log_softmax"))) {
    if (e.path().extension() != ".py") continue;
    auto text = readFile(e.path().string());
    if (text && looksLikeKernelModule(*text) && !looksLikeWrapperModule(*text)) module = e.path().string();
  }
  ASSERT_FALSE(module.empty());
  RunScanOptions o;
  o.input = module;
  o.home_triton_cache = false;
  auto run = scanInductorRun(o);
  ASSERT_TRUE(run.hasValue()) << run.error();
  ASSERT_EQ(run->kernels.size(), 1u);
  EXPECT_EQ(run->kernels.front().configs.size(), 3u);
  EXPECT_TRUE(run->kernels.front().best.has_value());
}

TEST(InductorRun, ModelRunsListEveryKernelKind) {
  const InductorRun run = scanFixture("blenderbot");
  EXPECT_EQ(run.summary.kernels, static_cast<int>(run.kernels.size()));
  EXPECT_GT(run.summary.looped, 0);
  EXPECT_GT(run.summary.pointwise, 0);
  for (const auto& k : run.kernels) {
    if (k.module.kind == KernelKind::kPointwise) {
      EXPECT_TRUE(k.configs.empty());
      EXPECT_FALSE(k.notes.empty());
    }
  }
  EXPECT_TRUE(run.problems.empty()) << run.problems.front();
}

// ---- bad input -----------------------------------------------------------------------------------

fs::path scratchCopy(const std::string& name) {
  const fs::path dst = fs::temp_directory_path() / ("occx_run_test_" + name + "_" +
                                                    std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  fs::remove_all(dst);
  fs::copy(inductorFixture(name), dst, fs::copy_options::recursive);
  return dst;
}

TEST(InductorRunBadInput, MissingFolderIsNamed) {
  RunScanOptions o;
  o.input = "/nonexistent/inductor/cache";
  o.home_triton_cache = false;
  auto run = scanInductorRun(o);
  ASSERT_FALSE(run.hasValue());
  EXPECT_NE(run.error().find("/nonexistent/inductor/cache does not exist"), std::string::npos) << run.error();
}

TEST(InductorRunBadInput, FolderWithoutInductorFiles) {
  const fs::path dir = fs::temp_directory_path() / "occx_run_test_empty";
  fs::create_directories(dir / "ab");
  std::ofstream(dir / "ab" / "x.py") << "print('hello')\n";
  RunScanOptions o;
  o.input = dir.string();
  o.home_triton_cache = false;
  auto run = scanInductorRun(o);
  ASSERT_FALSE(run.hasValue());
  EXPECT_NE(run.error().find("no Inductor kernel modules under " + dir.string()), std::string::npos) << run.error();
  fs::remove_all(dir);
}

TEST(InductorRunBadInput, TruncatedCubinIsAProblemAndTheRestIsRead) {
  const fs::path dir = scratchCopy("spill_log_softmax");
  fs::path victim;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() == ".cubin") victim = e.path();
  }
  ASSERT_FALSE(victim.empty());
  fs::resize_file(victim, 300);
  RunScanOptions o;
  o.input = dir.string();
  o.home_triton_cache = false;
  auto run = scanInductorRun(o);
  ASSERT_TRUE(run.hasValue()) << run.error();
  ASSERT_EQ(run->kernels.size(), 1u);
  const auto& configs = run->kernels.front().configs;
  ASSERT_EQ(configs.size(), 3u);
  int unknown = 0;
  for (const auto& c : configs) {
    if (!c.config.n_regs) {
      ++unknown;
      ASSERT_FALSE(c.problems.empty());
      EXPECT_NE(c.problems.front().find(victim.string()), std::string::npos) << c.problems.front();
    }
  }
  EXPECT_EQ(unknown, 1);
  fs::remove_all(dir);
}

TEST(InductorRunBadInput, BrokenModuleIsAProblemAndTheRestIsRead) {
  const fs::path dir = scratchCopy("blenderbot");
  fs::path victim;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".py" || !victim.empty()) continue;
    auto text = readFile(e.path().string());
    if (text && looksLikeKernelModule(*text) && !looksLikeWrapperModule(*text)) victim = e.path();
  }
  ASSERT_FALSE(victim.empty());
  {
    auto text = readFile(victim.string());
    ASSERT_TRUE(text.hasValue());
    const auto cut = text->find("triton_meta=");
    ASSERT_NE(cut, std::string::npos);
    std::ofstream(victim, std::ios::trunc) << text->substr(0, cut + 20);  // the decorator cut mid-dict
  }
  RunScanOptions o;
  o.input = dir.string();
  o.home_triton_cache = false;
  auto before = scanFixture("blenderbot");
  auto run = scanInductorRun(o);
  ASSERT_TRUE(run.hasValue()) << run.error();
  bool named = false;
  for (const auto& p : run->problems) named = named || p.find(victim.string()) != std::string::npos;
  EXPECT_TRUE(named);
  // The kernel still comes from the wrapper's embedded copy of its source, or is missing; no other is lost.
  EXPECT_GE(run->kernels.size() + 1, before.kernels.size());
  fs::remove_all(dir);
}

TEST(InductorRunBadInput, CancelledScan) {
  std::atomic<bool> cancel{true};
  RunScanOptions o;
  o.input = inductorFixture("bert");
  o.home_triton_cache = false;
  auto run = scanInductorRun(o, {}, &cancel);
  ASSERT_FALSE(run.hasValue());
  EXPECT_TRUE(run.cancelled());
}

TEST(InductorRunBadInput, ScanCsvWithoutFormatLine) {
  CsvTable t;
  t.header = {"kernel", "kind"};
  auto rows = scanFromCsv(t);
  ASSERT_FALSE(rows.hasValue());
  EXPECT_NE(rows.error().find("inductor-run-scan"), std::string::npos);
}

TEST(InductorRun, DefaultCacheFollowsInductor) {
  const char* old_logname = std::getenv("LOGNAME");
  const std::string saved = old_logname != nullptr ? old_logname : "";
  ::setenv("TORCHINDUCTOR_CACHE_DIR", "/some/where", 1);
  EXPECT_EQ(defaultInductorCacheDir(), "/some/where");
  ::unsetenv("TORCHINDUCTOR_CACHE_DIR");
  ::setenv("TMPDIR", "/scratch", 1);
  ::setenv("LOGNAME", "ada", 1);
  EXPECT_EQ(defaultInductorCacheDir(), "/scratch/torchinductor_ada");
  ::unsetenv("TMPDIR");
  if (old_logname != nullptr) {
    ::setenv("LOGNAME", saved.c_str(), 1);
  } else {
    ::unsetenv("LOGNAME");
  }
}

}  // namespace

namespace {

// The reference decision measured on the H200 (PyTorch 2.11): size hints x=512, r=8192; XBLOCK 1,
// R0_BLOCK 2048, 16 warps, 38 registers on an H200. The new bound (3 blocks/SM × 132 = 396 < 512)
// scales, the old one (4 × 132 = 528 >= 512) does not: the bounds disagree, and the halved config
// Inductor adds (R0_BLOCK 1024) is reported missing when the cache lacks it.
TEST(InductorRunAnalysis, BoundsDisagreeOnTheReferenceDecision) {
  const std::string text = R"py(
@triton_heuristics.reduction(
    size_hints={'x': 512, 'r0_': 8192},
    reduction_hint=ReductionHint.INNER,
    filename=__file__,
    triton_meta={'signature': {'in_ptr0': '*fp16', 'out_ptr0': '*fp32', 'xnumel': 'i32', 'r0_numel': 'i32', 'XBLOCK': 'constexpr', 'R0_BLOCK': 'constexpr'},
                 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=132, cc=90, major=9, regs_per_multiprocessor=65536, max_threads_per_multi_processor=2048, max_threads_per_block=1024, warp_size=32), 'constants': {}},
    inductor_meta={'grid_type': 'Grid1D', 'kernel_name': 'triton_red_fused_sum_0', 'mutated_arg_names': [], 'num_load': 1, 'num_reduction': 1, 'dynamic_scale_rblock': True, 'spill_threshold': 16}
)
@triton.jit
def triton_red_fused_sum_0(in_ptr0, out_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    xnumel = 512
    r0_numel = 8192
    xoffset = tl.program_id(0) * XBLOCK
)py";
  auto module = parseKernelModule(text, "/cache/ab/cabc.py");
  ASSERT_TRUE(module.hasValue()) << module.error();
  TritonCompiled c;
  c.triton_cache_hash = "HASH1";
  c.name = "triton_red_fused_sum_0";
  c.num_warps = 16;
  c.num_stages = 1;
  c.shared_bytes = 64;
  c.tile_shapes = {{2048}, {1, 2048}};
  CubinKernel k;
  k.name = c.name;
  k.registers = 38;
  c.cubin = k;
  const RunKernel run = analyseKernel(*module, {&c}, std::nullopt, GpuDatabase::builtin());
  ASSERT_EQ(run.configs.size(), 1u);
  const RunConfig& rc = run.configs.front();
  EXPECT_EQ(rc.config.r0_block, 2048);
  EXPECT_EQ(rc.origin, ConfigOrigin::kCandidate);
  ASSERT_NE(rc.decision(inductor::Policy::kNew), nullptr);
  EXPECT_EQ(rc.decision(inductor::Policy::kNew)->outcome, inductor::Outcome::kScale);
  EXPECT_EQ(rc.decision(inductor::Policy::kNew)->bound_blocks_per_sm, 3);
  EXPECT_EQ(rc.decision(inductor::Policy::kOld)->outcome, inductor::Outcome::kNoScale);
  EXPECT_EQ(rc.decision(inductor::Policy::kOld)->bound_blocks_per_sm, 4);
  EXPECT_TRUE(rc.bounds_disagree);
  ASSERT_EQ(run.missing_added.size(), 1u);
  EXPECT_EQ(run.missing_added.front().r0_block, 1024);
  ASSERT_TRUE(rc.occupancy.has_value());
  EXPECT_EQ(rc.occupancy->active_blocks_per_sm, 3);  // 38 registers → 40 per thread after the unit: 3 × 512 threads
}

// A device the GPU data does not know is listed, not analysed, and says why.
TEST(InductorRunAnalysis, UnknownComputeCapability) {
  const std::string text = R"py(
@triton_heuristics.reduction(
    size_hints={'x': 512, 'r0_': 8192},
    triton_meta={'signature': {'in_ptr0': '*fp16'}, 'device': DeviceProperties(type='cuda', index=0, multi_processor_count=10, cc=42, major=4)},
    inductor_meta={'kernel_name': 'triton_red_x_0'}
)
@triton.jit
def triton_red_x_0(in_ptr0, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):
    pass
)py";
  auto module = parseKernelModule(text, "/cache/ab/cx.py");
  ASSERT_TRUE(module.hasValue()) << module.error();
  const RunKernel run = analyseKernel(*module, {}, std::nullopt, GpuDatabase::builtin());
  EXPECT_FALSE(run.device.has_value());
  EXPECT_EQ(run.device_label, "CC 4.2, 10 SMs");
  ASSERT_FALSE(run.notes.empty());
  EXPECT_NE(run.notes.front().find("CC 4.2 is not in the GPU data"), std::string::npos) << run.notes.front();
}

}  // namespace
