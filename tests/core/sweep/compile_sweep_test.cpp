// The compile sweep with a stand-in compiler (no CUDA): the config list, Inductor's candidates and
// each policy's halved configs, decisions with the real n_regs, the spill filter, failing configs as
// rows, cancellation keeping finished rows, progress, CSV/JSON, and the worker pool.
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/base/parallel.h"
#include "core/sweep/compile_sweep.h"
#include "core/sweep/compile_sweep_dataset.h"

namespace occx {
namespace {

using inductor::Outcome;

/// A stand-in compiler: registers and stack frame chosen per (RBLOCK, num_warps); RBLOCK 512 fails.
struct FakeCompiler {
  int regs_2048 = 38;  // the H200 decision of the reference data: 38 registers at RBLOCK 2048, 16 warps
  int stack_2048 = 0;
  std::atomic<int> calls{0};
  Expected<CompileResult> operator()(const CompileRequest& req) {
    ++calls;
    if (req.cancel != nullptr && req.cancel->load()) return Error::cancellation();
    if (req.kernel_name.find("_r512_") != std::string::npos) {
      return Error{"NVRTC_ERROR_COMPILATION compiling " + req.kernel_name + "; compiler log:\nerror: stand-in failure"};
    }
    CompileResult r;
    r.kernel_name = req.kernel_name;
    r.arch = req.arch;
    r.compiler = "stand-in 1.0";
    r.report.function = req.kernel_name;
    r.report.registers = req.kernel_name.find("_r2048_") != std::string::npos ? regs_2048 : 32;
    r.report.stack_frame_bytes = req.kernel_name.find("_r2048_") != std::string::npos ? stack_2048 : 0;
    r.report.spill_stores_bytes = r.report.stack_frame_bytes;
    r.report.static_smem_bytes = 64;
    r.compile_ms = 1.0;
    return r;
  }
  CompileFunction fn() {
    return [this](const CompileRequest& r) { return (*this)(r); };
  }
};

CompileSweepSpec h200Spec() {
  CompileSweepSpec s;
  s.workload = Workload::kSum;
  s.dtype = DType::kF16;
  s.xnumel = 512;
  s.rnumel = 8192;
  auto dev = deviceForGpu(GpuDatabase::builtin(), "H100-SXM");  // CC 9.0, 132 SMs, as the H200
  s.device = *dev;
  s.grid.xblock = {1};
  s.grid.r0_block = {512, 1024, 2048};
  s.grid.num_warps = {16};
  return s;
}

const CompileSweepRow* rowFor(const CompileSweepResult& r, int rblock) {
  for (const auto& row : r.rows) {
    if (row.config.rblock == rblock) return &row;
  }
  return nullptr;
}

TEST(CompileSweep, ReproducesTheH200DecisionAndCandidateSets) {
  FakeCompiler fake;
  auto res = runCompileSweep(h200Spec(), fake.fn());
  ASSERT_TRUE(res) << res.error();
  ASSERT_EQ(res->rows.size(), 3u);  // Inductor's contiguous config and the halved one are in the grid
  EXPECT_FALSE(res->cancelled);
  EXPECT_EQ(res->compiled, 2);
  EXPECT_EQ(res->failed, 1);
  EXPECT_EQ(res->compiler, "stand-in 1.0");
  EXPECT_EQ(res->size_hints.x, 512);
  EXPECT_EQ(res->size_hints.r0, 8192);
  EXPECT_EQ(res->bytes.bytes_read, 512 * 8192 * 2);

  // The failing config is a row with the compiler's message.
  const auto* r512 = rowFor(*res, 512);
  ASSERT_NE(r512, nullptr);
  EXPECT_FALSE(r512->ok);
  EXPECT_NE(r512->error.find("stand-in failure"), std::string::npos);

  // XBLOCK 1, RBLOCK 2048, 16 warps, 38 registers: old bound 2048 // (32·16) = 4, 4·132 = 528 ≥ 512
  // → keep; new bound 65536 // (38·32·16) = 3, 396 < 512 → scale; exact: 1280 registers per warp,
  // 51 warps fit → 48 (granularity 4) → 3 blocks → scale.
  const auto* r2048 = rowFor(*res, 2048);
  ASSERT_NE(r2048, nullptr);
  ASSERT_TRUE(r2048->ok);
  EXPECT_EQ(r2048->origin, "grid; Inductor: contiguous");
  EXPECT_TRUE(r2048->inductor_candidate);
  EXPECT_EQ(r2048->grid_blocks, 512);
  EXPECT_EQ(r2048->occupancy.active_blocks_per_sm, 3);
  ASSERT_EQ(r2048->decisions.size(), 4u);
  EXPECT_EQ(r2048->decisions[0].outcome, Outcome::kNoScale);  // old
  EXPECT_EQ(r2048->decisions[0].bound_blocks_per_sm, 4);
  EXPECT_EQ(r2048->decisions[1].outcome, Outcome::kScale);  // new
  EXPECT_EQ(r2048->decisions[1].bound_blocks_per_sm, 3);
  EXPECT_EQ(r2048->decisions[2].outcome, Outcome::kScale);  // review_min
  EXPECT_EQ(r2048->decisions[3].outcome, Outcome::kScale);  // exact
  EXPECT_EQ(r2048->decisions[3].bound_blocks_per_sm, 3);
  // Candidate sets (old, new, exact): the contiguous config is benchmarked under every bound.
  EXPECT_EQ(r2048->candidate, (std::vector<CandidateState>(3, CandidateState::kBenchmarked)));

  // RBLOCK 1024 (32 registers): the halved config the new and exact bounds add; the old bound does not.
  const auto* r1024 = rowFor(*res, 1024);
  ASSERT_NE(r1024, nullptr);
  EXPECT_FALSE(r1024->inductor_candidate);
  EXPECT_EQ(r1024->candidate[0], CandidateState::kNotCandidate);
  EXPECT_EQ(r1024->candidate[1], CandidateState::kBenchmarked);
  EXPECT_EQ(r1024->candidate[2], CandidateState::kBenchmarked);
  EXPECT_NE(r1024->origin.find("new scaling: halved from XBLOCK=1, R0_BLOCK=2048, num_warps=16"), std::string::npos)
      << r1024->origin;
  EXPECT_NE(r1024->origin.find("exact scaling: halved from"), std::string::npos);
  EXPECT_EQ(r1024->origin.find("old scaling"), std::string::npos);
  // 32 registers ≤ 65536 // 2048: registers cannot limit occupancy → not applicable for every bound.
  for (const auto& d : r1024->decisions) EXPECT_EQ(d.outcome, Outcome::kNotApplicable);
  ASSERT_EQ(res->pipelines.size(), 3u);
  EXPECT_EQ(res->pipelines[0].pass.added, 0);
  EXPECT_EQ(res->pipelines[1].pass.added, 1);
  EXPECT_EQ(res->pipelines[2].pass.added, 1);
}

TEST(CompileSweep, SpillingCandidateIsStillHalvedButExcludedFromBenchmarking) {
  FakeCompiler fake;
  fake.regs_2048 = 255;
  fake.stack_2048 = 624;  // n_spills 156 > 16
  auto spec = h200Spec();
  spec.grid.r0_block = {2048};  // the halved RBLOCK 1024 is not in the grid: the sweep adds and compiles it
  auto res = runCompileSweep(spec, fake.fn());
  ASSERT_TRUE(res) << res.error();
  ASSERT_EQ(res->rows.size(), 2u);
  const auto* r2048 = rowFor(*res, 2048);
  ASSERT_NE(r2048, nullptr);
  EXPECT_EQ(r2048->report.nSpills(), 156);
  EXPECT_EQ(r2048->candidate, (std::vector<CandidateState>(3, CandidateState::kExcludedSpills)));
  EXPECT_FALSE(r2048->occupancy.can_launch);                  // 255 × 512 registers exceed the register file
  EXPECT_EQ(r2048->decisions[0].outcome, Outcome::kNoScale);  // old: 4 blocks/SM, registers ignored
  EXPECT_EQ(r2048->decisions[1].outcome, Outcome::kScale);    // new: max(0, 1) = 1 → 132 < 512
  const auto* r1024 = rowFor(*res, 1024);
  ASSERT_NE(r1024, nullptr);
  EXPECT_TRUE(r1024->ok);  // compiled in the second round
  EXPECT_EQ(r1024->index, 1);
  EXPECT_EQ(r1024->candidate[0], CandidateState::kNotCandidate);
  EXPECT_EQ(r1024->candidate[1], CandidateState::kBenchmarked);
  EXPECT_EQ(fake.calls.load(), 2);
}

TEST(CompileSweep, CancelKeepsTheFinishedRows) {
  FakeCompiler fake;
  std::atomic<bool> cancel{false};
  std::atomic<int> seen{0};
  auto spec = h200Spec();
  spec.grid.r0_block = {256, 1024, 2048, 4096, 8192};
  spec.grid.num_warps = {4, 8};
  spec.threads = 1;
  auto res = runCompileSweep(
      spec, fake.fn(),
      [&](const CompileSweepProgress& p) {
        if (++seen == 3) cancel = true;  // like Ctrl-C after the third config
        EXPECT_LE(p.done, p.total);
      },
      &cancel);
  ASSERT_TRUE(res) << res.error();
  EXPECT_TRUE(res->cancelled);
  ASSERT_EQ(res->rows.size(), 3u);
  EXPECT_EQ(res->rows[0].index, 0);
  EXPECT_EQ(res->rows[2].index, 2);
  EXPECT_EQ(res->total_configs, 11u);  // 10 grid configs + Inductor's contiguous config (16 warps)
  EXPECT_EQ(fake.calls.load(), 3);
  auto csv = compileSweepToCsv(*res);
  EXPECT_EQ(csv.rows.size(), 3u);
  EXPECT_EQ(csv.metaValue("cancelled"), "true");
  EXPECT_EQ(csv.metaValue("configs"), "3 of 11");
}

TEST(CompileSweep, ParallelGivesTheSameRowsAndOneProgressCallPerRow) {
  auto spec = h200Spec();
  spec.grid.xblock = {1, 2};
  spec.grid.r0_block = {256, 1024, 2048, 4096};
  spec.grid.num_warps = {4, 8, 16};
  FakeCompiler a, b;
  spec.threads = 1;
  auto one = runCompileSweep(spec, a.fn());
  spec.threads = 4;
  std::mutex m;
  std::vector<std::size_t> done;
  auto four = runCompileSweep(spec, b.fn(), [&](const CompileSweepProgress& p) {
    std::lock_guard<std::mutex> lock(m);
    done.push_back(p.done);
  });
  ASSERT_TRUE(one);
  ASSERT_TRUE(four);
  ASSERT_EQ(one->rows.size(), 24u);
  ASSERT_EQ(four->rows.size(), 24u);
  for (std::size_t i = 0; i < 24; ++i) {
    EXPECT_EQ(one->rows[i].config, four->rows[i].config);
    EXPECT_EQ(one->rows[i].report.registers, four->rows[i].report.registers);
  }
  ASSERT_EQ(done.size(), 24u);
  for (std::size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i], i + 1);  // serialised, in order
}

TEST(CompileSweep, InvalidConfigsAreRowsAndBadSpecsAreErrors) {
  FakeCompiler fake;
  auto spec = h200Spec();
  spec.workload = Workload::kMeanVar;
  spec.dtype = DType::kF32;
  spec.grid.r0_block = {16384};
  spec.grid.num_warps = {1, 2};  // 1 warp: 512 × 3 values per thread, over the limit
  spec.inductor_candidates = false;
  auto res = runCompileSweep(spec, fake.fn());
  ASSERT_TRUE(res) << res.error();
  ASSERT_EQ(res->rows.size(), 2u);
  EXPECT_FALSE(res->rows[0].ok);
  EXPECT_NE(res->rows[0].error.find("1536 accumulator values per thread"), std::string::npos);
  EXPECT_TRUE(res->rows[1].ok);
  EXPECT_TRUE(res->pipelines.empty());
  EXPECT_EQ(fake.calls.load(), 1);

  auto bad = spec;
  bad.grid.r0_block = {3};
  auto e = runCompileSweep(bad, fake.fn());
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "RBLOCK 3 is out of range: allowed powers of two 1 … 65536");
  bad = spec;
  bad.grid.num_warps = {};
  EXPECT_EQ(runCompileSweep(bad, fake.fn()).error(), "num_warps: the list is empty: give at least one value");
  bad = spec;
  bad.xnumel = 0;
  EXPECT_EQ(runCompileSweep(bad, fake.fn()).error(), "xnumel 0 is out of range: allowed 1 … 2147483647");
  bad = spec;
  bad.threads = 65;
  EXPECT_EQ(runCompileSweep(bad, fake.fn()).error(), "threads 65 is out of range: allowed 1 … 64 parallel compiles");
  bad = spec;
  bad.k = 2;
  EXPECT_NE(runCompileSweep(bad, fake.fn()).error().find("only fused_k takes K inputs"), std::string::npos);
}

TEST(CompileSweep, CsvAndJsonCarryUnitsDecisionsAndMetadata) {
  FakeCompiler fake;
  auto res = runCompileSweep(h200Spec(), fake.fn());
  ASSERT_TRUE(res);
  auto csv = compileSweepToCsv(*res, {{"cache_hits", "0"}});
  for (const char* col : {"registers_per_thread", "spill_stores_bytes", "spill_loads_bytes", "stack_frame_bytes",
                          "n_spills", "smem_bytes", "theoretical_occupancy_pct", "active_blocks_per_sm", "old_decision",
                          "new_decision", "review_min_decision", "exact_decision", "old_bound_blocks_per_sm",
                          "candidate_old", "candidate_new", "candidate_exact", "inductor_candidate", "compile_ms"}) {
    EXPECT_GE(csv.column(col), 0) << col;
  }
  EXPECT_EQ(csv.metaValue("arch"), "sm_90");
  EXPECT_EQ(csv.metaValue("compiler"), "stand-in 1.0");
  EXPECT_EQ(csv.metaValue("workload"), "sum");
  EXPECT_EQ(csv.metaValue("xnumel"), "512");
  EXPECT_EQ(csv.metaValue("shape"), "static");  // the default: kernels built for the shape
  EXPECT_EQ(csv.metaValue("size_hint_r"), "8192");
  EXPECT_EQ(csv.metaValue("bytes_read"), "8388608");
  EXPECT_EQ(csv.metaValue("cache_hits"), "0");
  EXPECT_EQ(csv.metaValue("date_utc").size(), 20u);
  const auto& row = csv.rows[2];  // RBLOCK 2048
  EXPECT_EQ(row[static_cast<std::size_t>(csv.column("RBLOCK"))], "2048");
  EXPECT_EQ(row[static_cast<std::size_t>(csv.column("registers_per_thread"))], "38");
  EXPECT_EQ(row[static_cast<std::size_t>(csv.column("theoretical_occupancy_pct"))],
            "75.0");  // 3 blocks × 16 warps of 64
  EXPECT_EQ(row[static_cast<std::size_t>(csv.column("old_decision"))], "no scaling");
  EXPECT_EQ(row[static_cast<std::size_t>(csv.column("new_decision"))], "scale");
  EXPECT_EQ(row[static_cast<std::size_t>(csv.column("candidate_new"))], "benchmarked");
  EXPECT_EQ(csv.rows[0][static_cast<std::size_t>(csv.column("status"))], "error");
  auto j = compileSweepToJson(*res);
  ASSERT_EQ(j["rows"].size(), 3u);
  EXPECT_EQ(j["rows"][2]["registers_per_thread"], 38);
  EXPECT_EQ(j["rows"][2]["theoretical_occupancy_pct"], 75.0);
  EXPECT_TRUE(j["rows"][0]["registers_per_thread"].is_null());
  EXPECT_EQ(j["meta"]["arch"], "sm_90");
}

// Kernels are built for the sweep's shape unless asked otherwise (torch.compile(dynamic=True)'s form).
TEST(CompileSweep, ConfigsAreBuiltForTheShapeOrTakeItAtRunTime) {
  FakeCompiler fake;
  auto fixed = runCompileSweep(h200Spec(), fake.fn());
  ASSERT_TRUE(fixed);
  const CompileSweepRow* r = rowFor(*fixed, 2048);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(r->config.static_xnumel, 512);
  EXPECT_EQ(r->config.static_rnumel, 8192);
  EXPECT_EQ(r->kernel_name, kernelName(r->config));
  EXPECT_NE(r->kernel_name.find("_s512x8192"), std::string::npos) << r->kernel_name;
  CompileSweepSpec dynamic = h200Spec();
  dynamic.static_shape = false;
  auto free = runCompileSweep(dynamic, fake.fn());
  ASSERT_TRUE(free);
  const CompileSweepRow* d = rowFor(*free, 2048);
  ASSERT_NE(d, nullptr);
  EXPECT_FALSE(d->config.staticShape());
  EXPECT_EQ(d->kernel_name.find("_s512x8192"), std::string::npos) << d->kernel_name;
  EXPECT_EQ(compileSweepToCsv(*free, {}).metaValue("shape"), "run-time");
}

TEST(ParallelFor, RunsEveryItemOnceAndStopsOnCancel) {
  std::vector<std::atomic<int>> hits(100);
  EXPECT_EQ(parallelFor(100, 4, [&](std::size_t i) { ++hits[i]; }), 100u);
  for (auto& h : hits) EXPECT_EQ(h.load(), 1);
  std::atomic<bool> cancel{false};
  std::atomic<int> ran{0};
  const auto n = parallelFor(
      1000, 1,
      [&](std::size_t i) {
        ++ran;
        if (i == 9) cancel = true;
      },
      &cancel);
  EXPECT_EQ(n, 10u);
  EXPECT_EQ(ran.load(), 10);
  EXPECT_EQ(parallelFor(0, 4, [](std::size_t) {}), 0u);
  EXPECT_THROW(parallelFor(8, 2,
                           [](std::size_t i) {
                             if (i == 3) throw std::runtime_error("boom");
                           }),
               std::runtime_error);
  EXPECT_GE(defaultWorkerThreads(), 1);
}

}  // namespace
}  // namespace occx

namespace occx {
namespace {

// A config that cannot be built (XBLOCK 64 × RBLOCK 4096 on one warp: 8192 accumulator values per
// thread, over the 1024 allowed) is refused before compiling: counted as not compiled, not as a
// compile failure, with the reason in the row.
TEST(CompileSweep, ConfigsRefusedBeforeCompilingAreNotCompiledNotFailed) {
  FakeCompiler fake;
  CompileSweepSpec s = h200Spec();
  s.grid.xblock = {64};
  s.grid.r0_block = {4096};
  s.grid.num_warps = {1};
  s.inductor_candidates = false;
  auto res = runCompileSweep(s, fake.fn());
  ASSERT_TRUE(res) << res.error();
  ASSERT_EQ(res->rows.size(), 1u);
  EXPECT_EQ(res->not_compiled, 1);
  EXPECT_EQ(res->failed, 0);
  EXPECT_EQ(res->compiled, 0);
  EXPECT_FALSE(res->rows.front().layout.has_value());
  EXPECT_NE(res->rows.front().error.find("accumulator values per thread is out of range"), std::string::npos)
      << res->rows.front().error;
  EXPECT_TRUE(recordFromRow(res->rows.front()).notCompiled());
}

}  // namespace
}  // namespace occx
