// Decisions as JSON/CSV, the CSV batch, and `occx rblock` as a user runs it (exit codes, messages,
// files written atomically and read back).
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli/cli.h"
#include "core/base/atomic_file.h"
#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/report.h"
#include "tests/support/cli_run.h"

using namespace occx;
using namespace occx::inductor;

namespace {

using testing_support::runOccx;
using CliResult = testing_support::CliRun;

std::string tempPath(const std::string& name) {
  auto dir = std::filesystem::temp_directory_path() /
             ("occx_rblock_test_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

const std::vector<std::string> kH200Anchor = {"rblock",   "--gpu",       "H200",     "--xnumel", "512",
                                              "--rnumel", "8192",        "--xblock", "1",        "--rblock",
                                              "2048",     "--num-warps", "16",       "--nregs",  "38"};

}  // namespace

// The batch over two configs: the H200 anchor (row 1) and the A100 motivating case (row 2, own gpu cell).
// Row 1: old 4 × 132 = 528 >= 512 keeps; new 3 × 132 = 396 scales to R0 1024.
// Row 2: old 8 × 108 = 864 keeps; new 1 × 108 = 108 scales to R0 1024.
TEST(RblockBatch, DecidesEachRowAndAddsColumns) {
  CsvTable in;
  in.header = {"xnumel", "rnumel", "xblock", "rblock", "num_warps", "nregs", "gpu"};
  in.rows = {{"512", "8192", "1", "2048", "16", "38", ""}, {"512", "8192", "1", "2048", "8", "255", "A100"}};
  BatchOptions b;
  b.db = &GpuDatabase::builtin();
  b.default_gpu = "H200";
  auto out = decideCsvBatch(in, b);
  ASSERT_TRUE(out.hasValue()) << out.error();
  ASSERT_EQ(out->rows.size(), 2u);
  auto at = [&](std::size_t row, const char* col) {
    return out->rows[row][static_cast<std::size_t>(out->column(col))];
  };
  EXPECT_EQ(at(0, "total_blocks"), "512");
  EXPECT_EQ(at(0, "old_bound_blocks_per_sm"), "4");
  EXPECT_EQ(at(0, "old_capacity_blocks"), "528");
  EXPECT_EQ(at(0, "old_decision"), "no scaling");
  EXPECT_EQ(at(0, "new_bound_blocks_per_sm"), "3");
  EXPECT_EQ(at(0, "new_capacity_blocks"), "396");
  EXPECT_EQ(at(0, "new_decision"), "scale");
  EXPECT_EQ(at(0, "new_new_config"), "XBLOCK=1, R0_BLOCK=1024, num_warps=16");
  EXPECT_EQ(at(1, "old_capacity_blocks"), "864");
  EXPECT_EQ(at(1, "new_capacity_blocks"), "108");
  EXPECT_EQ(at(1, "exact_bound_blocks_per_sm"), "1");
  EXPECT_EQ(out->metaValue("profile"), "inductor-current");
}

// Batch errors name the row, the column and the range; a missing column lists the required ones.
TEST(RblockBatch, ErrorsNameRowColumnRange) {
  BatchOptions b;
  b.db = &GpuDatabase::builtin();
  b.default_gpu = "H200";
  CsvTable in;
  in.header = {"xnumel", "xblock", "rblock", "num_warps", "nregs"};
  in.rows = {{"512", "1", "2048", "16", "38"}, {"512", "1", "2048", "16", "300"}};
  auto e = decideCsvBatch(in, b);
  ASSERT_FALSE(e.hasValue());
  EXPECT_EQ(e.error(), "row 2, column 'registers_per_thread': 300 is out of range: allowed 1 … 255");
  in.rows = {{"512", "1", "2048", "3", "38"}};
  EXPECT_EQ(decideCsvBatch(in, b).error(),
            "row 1: num_warps 3 is out of range: allowed a power of two 1 … 32 (1024 threads per block)");
  in.rows = {{"512", "one", "2048", "16", "38"}};
  EXPECT_EQ(decideCsvBatch(in, b).error(), "row 1, column 'xblock': 'one' is not a whole number");
  in.header = {"xnumel", "xblock", "num_warps", "nregs"};
  in.rows = {{"512", "1", "16", "38"}};
  EXPECT_NE(decideCsvBatch(in, b).error().find("lacks the column(s) rblock"), std::string::npos);
}

// JSON of the H200 anchor's new decision.
TEST(RblockJson, DecisionFields) {
  auto dev = deviceForGpu(GpuDatabase::builtin(), "H200");
  KernelInfo k;
  k.size_hints = {512, 8192, 0};
  ReductionConfig c;
  c.xblock = 1;
  c.r0_block = 2048;
  c.num_warps = 16;
  c.n_regs = 38;
  auto d = decide(Policy::kNew, c, k, *dev);
  const auto j = decisionToJson(*d);
  EXPECT_EQ(j["policy"], "new");
  EXPECT_EQ(j["bound_blocks_per_sm"], 3);
  EXPECT_EQ(j["capacity_blocks"], 396);
  EXPECT_EQ(j["total_blocks"], 512);
  EXPECT_EQ(j["scale"], true);
  EXPECT_EQ(j["new_config"]["R0_BLOCK"], 1024);
  EXPECT_TRUE(j["new_config"]["registers_per_thread"].is_null());
}

// `occx rblock` reproduces the H200 reference case with its arithmetic.
TEST(RblockCli, H200AnchorPrintsArithmetic) {
  auto r = runOccx(kH200Anchor);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("bound: 2048 // (32 · 16) = 4"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("512 blocks (ceil(512 / 1)) <= 4 × 132 = 528"), std::string::npos);
  EXPECT_NE(r.out.find("max(65536 // (38 · 32 · 16), 1) = max(65536 // 19456, 1) = max(3, 1) = 3"), std::string::npos);
  EXPECT_NE(r.out.find("> 3 × 132 = 396 blocks resident at once: R0_BLOCK 2048 → 1024."), std::string::npos);
}

// `occx rblock` on the A100 motivating case, JSON: old keeps (864), new scales (108).
TEST(RblockCli, A100MotivatingJson) {
  auto r = runOccx({"rblock", "--gpu", "A100", "--xnumel", "512", "--rnumel", "8192", "--xblock", "1", "--rblock",
                    "2048", "--num-warps", "8", "--nregs", "255", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["decisions"].size(), 4u);
  EXPECT_EQ(j["decisions"][0]["policy"], "old");
  EXPECT_EQ(j["decisions"][0]["capacity_blocks"], 864);
  EXPECT_EQ(j["decisions"][0]["scale"], false);
  EXPECT_EQ(j["decisions"][1]["capacity_blocks"], 108);
  EXPECT_EQ(j["decisions"][1]["scale"], true);
  EXPECT_EQ(j["size_hints"]["x"], 512);
}

// Bad input → exit 2 naming the option and the allowed range.
TEST(RblockCli, BadInputExit2) {
  auto args = kH200Anchor;
  args[12] = "3";  // --num-warps 3
  auto r = runOccx(args);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--num-warps 3 is out of range: allowed a power of two 1 … 32"), std::string::npos) << r.err;
  auto r2 = runOccx({"rblock", "--gpu", "H200", "--xnumel", "512"});
  EXPECT_EQ(r2.code, 2);
  EXPECT_NE(r2.err.find("missing --rnumel --xblock --rblock --num-warps"), std::string::npos) << r2.err;
  args = kH200Anchor;
  args[14] = "0";  // --nregs 0
  EXPECT_EQ(runOccx(args).code, 2);
  auto r3 = runOccx({"rblock", "--gpu", "H200", "--compare-grid", "--profile", "2024"});
  EXPECT_EQ(r3.code, 2);
  EXPECT_NE(r3.err.find("allowed inductor-2023, inductor-current"), std::string::npos);
}

// Batch mode: --input configs.csv --csv out.csv writes the decision columns; read back and checked.
TEST(RblockCli, BatchInputToCsv) {
  const std::string in_path = tempPath("configs.csv");
  const std::string out_path = tempPath("out.csv");
  ASSERT_TRUE(
      writeFileAtomically(
          in_path, "xnumel,rnumel,xblock,rblock,num_warps,nregs\n512,8192,1,2048,16,38\n1000,5000,1,2048,16,32\n")
          .hasValue());
  auto r = runOccx({"rblock", "--gpu", "H200", "--input", in_path, "--csv", out_path});
  ASSERT_EQ(r.code, 0) << r.err;
  auto text = readFile(out_path);
  ASSERT_TRUE(text.hasValue());
  auto t = parseCsv(*text);
  ASSERT_TRUE(t.hasValue()) << t.error();
  ASSERT_EQ(t->rows.size(), 2u);
  EXPECT_EQ(t->rows[0][static_cast<std::size_t>(t->column("new_decision"))], "scale");
  // Row 2: xnumel 1000 → size hint 1024; n_regs 32 → step 3 skips every policy.
  EXPECT_EQ(t->rows[1][static_cast<std::size_t>(t->column("size_hint_x"))], "1024");
  EXPECT_EQ(t->rows[1][static_cast<std::size_t>(t->column("new_decision"))], "not applicable");
  // A bad row → exit 2 naming it; the previous output file is left untouched.
  ASSERT_TRUE(
      writeFileAtomically(in_path, "xnumel,rnumel,xblock,rblock,num_warps,nregs\n512,8192,1,2048,16,999\n").hasValue());
  auto bad = runOccx({"rblock", "--gpu", "H200", "--input", in_path, "--csv", out_path});
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.err.find("row 1, column 'registers_per_thread': 999 is out of range: allowed 1 … 255"),
            std::string::npos)
      << bad.err;
  EXPECT_EQ(*readFile(out_path), *text);
  std::filesystem::remove_all(std::filesystem::path(in_path).parent_path());
}

// --compare-grid --json on A100: 14718 points, 2377 old vs new, 454 new vs exact (see rblock_pass_test).
TEST(RblockCli, CompareGridJson) {
  auto r = runOccx({"rblock", "--gpu", "A100", "--compare-grid", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  const auto& all = j["rows"].back();
  EXPECT_EQ(all["num_warps"], "all");
  EXPECT_EQ(all["points"], 14718);
  EXPECT_EQ(all["old_vs_new_differ"], 2377);
  EXPECT_EQ(all["new_vs_exact_differ"], 454);
}

// --candidates and --chain on the H200 anchor: the contiguous candidate is the given config, it is
// halved once in the pipeline; the chain is labelled as a teaching aid.
TEST(RblockCli, CandidatesAndChain) {
  auto args = kH200Anchor;
  for (const char* a : {"--candidates", "--hint", "inner", "--chain", "3", "--policy", "new"}) args.emplace_back(a);
  auto r = runOccx(args);
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("Teaching aid, not Inductor"), std::string::npos);
  EXPECT_NE(r.out.find("XBLOCK=1, R0_BLOCK=1024, num_warps=16"), std::string::npos);
  EXPECT_NE(r.out.find("added by this pass"), std::string::npos) << r.out;
}
