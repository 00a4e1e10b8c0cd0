// Damaged values in an Inductor run must never give a plausible answer without a word: each input
// below (issue 39's) once did. Every one must yield a problem line (in scan's list, everyProblem,
// and in show's report) and no decision computed from a guessed value. The inputs are ref_sum's
// files (tests/data/inductor) with one value changed.
#include <gtest/gtest.h>

#include <unistd.h>

#include <climits>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "app/cli/cli.h"
#include "core/base/atomic_file.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/rblock_scaling.h"
#include "core/sweep/backend.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_module.h"
#include "core/triton/run_table.h"
#include "core/triton/triton_cache.h"
#include "tests/support/hostile_inputs.h"
#include "tests/support/in_child.h"

using namespace occx;
using namespace occx::triton;
namespace fs = std::filesystem;

namespace {

const char* kModule = "ln/clntelmroqsdn7bltqyhmfijp4bqclabgps5vxwoe7r67vqm2ag2.py";
const char* kFolder = "triton/0/JISA5M6SDPV46LJEPVFG225TYGX6763V2XY7FUD53RWEU6OX3CTA";
const char* kStem = "triton_red_fused__to_copy_sum_0";

class HostileValues : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("occx_values_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::copy(std::string(OCCX_INDUCTOR_FIXTURES_DIR) + "/ref_sum", dir_, fs::copy_options::recursive);
  }
  void TearDown() override { fs::remove_all(dir_); }

  // Replaces `from` (which must occur) by `to` in the file `rel`.
  void edit(const std::string& rel, const std::string& from, const std::string& to) {
    auto text = readFile((dir_ / rel).string());
    ASSERT_TRUE(text.hasValue());
    const auto at = text->find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text->replace(at, from.size(), to);
    std::ofstream(dir_ / rel, std::ios::trunc) << *text;
  }

  InductorRun scan() const {
    RunScanOptions o;
    o.input = dir_.string();
    o.home_triton_cache = false;
    auto run = scanInductorRun(o);
    EXPECT_TRUE(run.hasValue()) << run.error();
    return run.hasValue() ? run.value() : InductorRun{};
  }

  static bool has(const std::vector<std::string>& lines, const std::string& text) {
    for (const auto& l : lines) {
      if (l.find(text) != std::string::npos) return true;
    }
    return false;
  }

  static const RunKernel& reduction(const InductorRun& run) {
    for (const auto& k : run.kernels) {
      if (k.analysed()) return k;
    }
    static const RunKernel none;
    ADD_FAILURE() << "no reduction kernel";
    return none;
  }

  // `occx inductor show <kernel> DIR` (text or --json): what a user reads.
  std::string show(bool json = false) const {
    std::vector<std::string> args = {"occx", "inductor", "show", kStem, dir_.string(), "--no-home-cache", "-q"};
    if (json) args.push_back("--json");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    cli::runCli(static_cast<int>(argv.size()), argv.data(), out, err, *offlineBackend());
    return out.str() + err.str();
  }

  fs::path dir_;
};

std::vector<std::string> outcomes(const RunKernel& k) {
  std::vector<std::string> out;
  for (const auto& c : k.configs) {
    for (const auto& d : c.decisions) out.push_back(std::string(inductor::outcomeName(d.outcome)));
  }
  return out;
}

}  // namespace

// Item 1: a size hint Inductor could not have written (a float, an expression, missing) comes from
// the body's static xnumel, with a problem line; the decisions are those of the true hint.
TEST_F(HostileValues, SizeHintNotAnIntegerUsesTheBodysNumel) {
  const std::vector<std::string> before = outcomes(reduction(scan()));
  ASSERT_FALSE(before.empty());
  for (const std::string damaged : {"'x': 32768.0, ", "'x': 2**15, ", ""}) {
    SetUp();
    edit(kModule, "'x': 32768, ", damaged);
    const InductorRun run = scan();
    const RunKernel& k = reduction(run);
    EXPECT_EQ(outcomes(k), before) << damaged;
    const std::string used = "the kernel body's xnumel = 32768 is used (size hint 32768)";
    EXPECT_TRUE(has(k.problems, used)) << damaged;
    EXPECT_TRUE(has(everyProblem(run), used)) << damaged;
    EXPECT_NE(show().find("problem: " + (dir_ / kModule).string() + ": "), std::string::npos) << show();
    EXPECT_NE(show(true).find(used), std::string::npos);
  }
}

// Item 1: without a static numel, a bad hint means no decision at all, and the summary says so.
TEST_F(HostileValues, SizeHintNotAnIntegerWithoutNumelMakesNoDecision) {
  edit(kModule, "'x': 32768, ", "'x': 32768.0, ");
  edit(kModule, "    xnumel = 32768\n", "");
  const InductorRun run = scan();
  const RunKernel& k = reduction(run);
  EXPECT_TRUE(outcomes(k).empty());
  EXPECT_TRUE(has(k.problems,
                  "size hint 'x' is 32768.0, not an integer and the kernel body fixes no xnumel: the "
                  "RBLOCK decisions are not made"));
  EXPECT_NE(run.summary.text().find("agree on every one decided; 1 config not decided"), std::string::npos)
      << run.summary.text();
}

// Item 1: a reduction whose size_hints lack 'r0_' once had its R tile read as XBLOCK (2048).
TEST_F(HostileValues, MissingR0HintLeavesTheTileUnread) {
  edit(kModule, ", 'r0_': 8192}", "}");
  const InductorRun run = scan();
  const RunKernel& k = reduction(run);
  ASSERT_FALSE(k.configs.empty());
  for (const auto& c : k.configs) {
    EXPECT_NE(c.config.xblock, 2048);
    EXPECT_EQ(c.config.r0_block, 0);
    EXPECT_TRUE(has(c.problems, "the module's size_hints name no 'r0_'"));
    EXPECT_TRUE(c.decisions.empty());
  }
  EXPECT_TRUE(has(k.problems, "size_hints has no 'r0_'; the kernel body's r0_numel = 8192 is used"));
}

// Item 1: size_hints that is not a dict: a warning every output shows, hints from the body.
TEST_F(HostileValues, SizeHintsNotADictIsShown) {
  edit(kModule, "size_hints={'x': 32768, 'r0_': 8192}", "size_hints=[32768, 8192]");
  const InductorRun run = scan();
  EXPECT_TRUE(has(everyProblem(run), "the decorator has no size_hints dict"));
  EXPECT_NE(show().find("warning: the decorator has no size_hints dict"), std::string::npos);
  EXPECT_NE(show(true).find("the decorator has no size_hints dict"), std::string::npos);
}

// Item 2: 64-bit values are refused or saturated with a word, never cut to 32 bits.
TEST_F(HostileValues, SixtyFourBitValuesAreNotCut) {
  auto b = readBestConfig(R"({"XBLOCK": 1, "R0_BLOCK": 2048, "num_warps": 4294967304})", "w.best_config");
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error(), "w.best_config: num_warps is 4294967304: not an integer within 0 … 2147483647");

  edit(std::string(kFolder) + "/" + kStem + ".json", "\"num_warps\": 16", "\"num_warps\": 4294967312");
  edit(kModule, "multi_processor_count=132", "multi_processor_count=4294967428");
  edit(kModule, "'num_load': 1", "'spill_threshold': 4294967296, 'num_load': 1");
  const InductorRun run = scan();
  const RunKernel& k = reduction(run);
  const auto problems = everyProblem(run);
  EXPECT_TRUE(has(problems, "the JSON's 'num_warps' is 4294967312: not an integer within -2147483648 … 2147483647"));
  EXPECT_TRUE(has(problems, "DeviceProperties multi_processor_count is 4294967428: out of range"));
  EXPECT_TRUE(has(problems, "inductor_meta spill_threshold is 4294967296: beyond 32 bits, read as 2147483647"));
  EXPECT_EQ(k.spillThreshold(), INT_MAX);
  EXPECT_FALSE(k.device.has_value());  // the SM count is unknown: not analysed, and a note says so
  EXPECT_EQ(run.summary.over_spill_threshold, 0);
}

// Item 3: a .best_config naming a Triton folder that was not read is a problem, and the kernel
// keeps it (show says the winner is not in the cache, not that there is no .best_config).
TEST_F(HostileValues, BestConfigOfAFolderNotReadIsAProblem) {
  std::ofstream(dir_ / "ln" / "x.best_config")
      << R"({"XBLOCK": 1, "R0_BLOCK": 1024, "num_warps": 16, "num_stages": 1, "triton_cache_hash": "GONE"})";
  const InductorRun run = scan();
  EXPECT_TRUE(has(run.problems, "x.best_config: names Triton folder GONE, which was not read"));
  const RunKernel& k = reduction(run);
  ASSERT_TRUE(k.best.has_value());
  EXPECT_EQ(k.winner, -1);
  const std::string text = show();
  EXPECT_EQ(text.find("no .best_config beside the module"), std::string::npos) << text;
  EXPECT_NE(text.find("names Triton folder GONE, which was not read"), std::string::npos) << text;
  EXPECT_NE(text.find("winner:        not in the cache"), std::string::npos) << text;
}

// Item 3: a Triton folder that cannot be listed is a problem line, not skipped in silence. Run in a
// child without root's rights (root lists any folder).
TEST_F(HostileValues, UnlistableTritonFolderIsAProblem) {
  const fs::path folder = dir_ / kFolder;
  fs::permissions(folder, fs::perms::none);
  const std::string report = testing_support::inChild([&]() -> std::string {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) return "SKIP: cannot drop root";
    std::string lines;
    for (const auto& p : scan().problems) lines += p + "\n";
    return lines;
  });
  fs::permissions(folder, fs::perms::owner_all);
  if (report.rfind("SKIP", 0) == 0) GTEST_SKIP() << report;
  EXPECT_NE(report.find(folder.string() + ": Permission denied (a Triton cache folder that could not be listed)"),
            std::string::npos)
      << report;
}

// Items 4 and 5: what a cubin or the IR claims is used or refused, never clamped in silence.
TEST_F(HostileValues, CubinClaimsAreCheckedAgainstTheModule) {
  auto text = readFile((dir_ / kModule).string());
  ASSERT_TRUE(text);
  auto module = parseKernelModule(*text, (dir_ / kModule).string());
  ASSERT_TRUE(module) << module.error();
  auto read = readTritonCacheFolder(dir_ / kFolder);
  ASSERT_TRUE(read) << read.error();
  const TritonCompiled good = *read;
  ASSERT_TRUE(good.cubin.has_value());

  auto analyse = [&](const TritonCompiled& c) {
    return analyseKernel(*module, {&c}, std::nullopt, GpuDatabase::builtin());
  };
  TritonCompiled smem = good;
  smem.cubin->static_shared_bytes = 65 * 1024;
  RunKernel k = analyse(smem);
  ASSERT_EQ(k.configs.size(), 1u);
  EXPECT_TRUE(has(k.configs[0].problems, "the cubin claims 66560 B of static shared memory, over the 49152 B"));
  ASSERT_TRUE(k.configs[0].occupancy.has_value());
  EXPECT_EQ(k.configs[0].occupancy->active_blocks_per_sm, 0);  // refused, not 100 % from a clamped 48 KB

  TritonCompiled regs = good;
  regs.cubin->registers = 70000;
  k = analyse(regs);
  EXPECT_FALSE(k.configs[0].config.n_regs.has_value());
  EXPECT_TRUE(has(k.configs[0].problems, "REGCOUNT 70000 of '" + std::string(kStem) + "' is beyond 255 registers"));

  TritonCompiled arch = good;
  arch.arch = 80;
  arch.cubin_arch = 86;
  k = analyse(arch);
  EXPECT_TRUE(has(k.configs[0].problems, "the Triton JSON's target arch 80 is not the module's device (cc 90)"));
  EXPECT_TRUE(has(k.configs[0].problems, "built for sm_86, not the module's device (cc 90)"));

  TritonCompiled huge = good;
  huge.tile_shapes = {{}, {std::int64_t{1} << 32, std::int64_t{1} << 32}};
  k = analyse(huge);
  EXPECT_EQ(k.configs[0].config.r0_block, 0);
  EXPECT_TRUE(k.configs[0].decisions.empty());
  EXPECT_TRUE(has(k.configs[0].problems, "the IR's tile 4294967296x4294967296 has a dimension outside 1 … 2^30"));
}

// Item 5: a tile of 2^32 × 2^32 in the IR: the largest-shape product saturates (no signed overflow).
TEST_F(HostileValues, HugeIrTileIsNotWrapped) {
  std::ofstream(dir_ / kFolder / (std::string(kStem) + ".ttir"), std::ios::app)
      << "\n%big = tt.splat %x : f32 -> tensor<4294967296x4294967296xf32>\n";
  const InductorRun run = scan();
  EXPECT_TRUE(has(everyProblem(run), "has a dimension outside 1 … 2^30: the tile is not read"));
  for (const auto& c : reduction(run).configs) EXPECT_NE(c.config.r0_block, 1);
}

// Item 5: the decision checks the size hint's upper bound it names.
TEST(HostileValuesDecision, SizeHintBeyondTwoToTheThirtyOneIsRefused) {
  inductor::KernelInfo info;
  info.size_hints.x = std::int64_t{1} << 32;
  info.size_hints.r0 = 8192;
  inductor::ReductionConfig c;
  c.xblock = 1;
  c.r0_block = 2048;
  c.num_warps = 16;
  c.n_regs = 38;
  const auto* arch = GpuDatabase::builtin().findArch({9, 0});
  ASSERT_NE(arch, nullptr);
  auto device = makeDevice(*arch, 132);
  ASSERT_TRUE(device);
  auto d = inductor::decide(inductor::Policy::kNew, c, info, *device);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error(), "size hint x 4294967296 is out of range: allowed 1 … 2^31");
}

// Item 7: a .cubin that is a symbolic link loop is reported as the loop, not as "no .cubin".
TEST_F(HostileValues, CubinSymlinkLoopIsNamed) {
  const fs::path cubin = dir_ / kFolder / (std::string(kStem) + ".cubin");
  fs::remove(cubin);
  fs::create_symlink(cubin.filename(), cubin);
  auto c = readTritonCacheFolder(dir_ / kFolder);
  ASSERT_TRUE(c) << c.error();
  EXPECT_TRUE(has(c->problems, "Too many levels of symbolic links"));
  EXPECT_FALSE(has(c->problems, "no .cubin"));
}
