// Failures are rows, not crashes: a kernel that faults (in a child process: the row carries the
// driver's error, then the context is reset or the session reports the GPU lost), a wrong result,
// an output left unwritten (the poison shows), memory that cannot be allocated, and cancel. Skips
// without a GPU. Not for compute-sanitizer: the faults are deliberate.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "core/kernels/live_problem.h"
#include "core/sweep/live_sweep.h"
#include "gpu_test_support.h"

using namespace occx;

namespace {

constexpr std::int64_t kX = 64;
constexpr std::int64_t kR = 1024;

// The sum problem every test here runs (fp32, kX × kR); null when it cannot be built.
std::shared_ptr<const HostProblem> sumProblem() {
  auto p = makeHostProblem(test::problemSpec(Workload::kSum, DType::kF32, kX, kR));
  return p ? std::make_shared<const HostProblem>(std::move(p).value()) : nullptr;
}

void setSumProblem(cuda::GpuSession& s) {
  auto p = sumProblem();
  ASSERT_TRUE(p);
  ASSERT_FALSE(s.setProblem(std::move(p)));
}

/// The real sum kernel for (1, 256, 4) and its cubin.
struct Compiled {
  GeneratedKernel kernel;
  std::vector<std::uint8_t> cubin;
};

Compiled realSum(cuda::GpuSession& s) {
  auto g = generateKernel(test::config(Workload::kSum, DType::kF32, 1, 256, 4, kR));
  EXPECT_TRUE(g);
  auto c = test::compileFor(s, *g);
  EXPECT_TRUE(c) << c.error();
  return {*g, c ? c->cubin : std::vector<std::uint8_t>{}};
}

/// The sum kernel's launch contract with another body.
Compiled withBody(cuda::GpuSession& s, const std::string& body) {
  Compiled c = realSum(s);
  c.kernel.source = "extern \"C\" __global__ void " + c.kernel.name +
                    "(const float* in0, float* out0, int xnumel, int rnumel) {\n" + body + "\n}\n";
  auto r = test::compileFor(s, c.kernel);
  EXPECT_TRUE(r) << r.error();
  c.cubin = r ? r->cubin : std::vector<std::uint8_t>{};
  return c;
}

}  // namespace

namespace {

/// Runs in a child process (a death test): a kernel that writes to an illegal address. CUDA makes
/// that error fatal to the process on current drivers, so the child, not the test runner, takes it.
/// Exits 0 when the session behaved: the faulting run is a row with the driver's error, and then
/// either the reset context runs the real kernel correctly, or the session reports the GPU lost and
/// refuses further work with that reason (never a crash, never a hang).
[[noreturn]] void faultScenario() {
  auto fail = [](const std::string& why) {
    std::fprintf(stderr, "fault scenario failed: %s\n", why.c_str());
    std::exit(1);
  };
  cuda::GpuSession* session = test::gpuSession();
  if (session == nullptr) fail("no session");
  auto p = sumProblem();
  if (!p || session->setProblem(std::move(p))) fail("setProblem");
  auto good = realSum(*session);
  auto bad = withBody(*session, "  *(volatile float*)(16) = in0[0];  // an illegal address");
  auto out = session->run(test::moduleOf(*session, bad.kernel, bad.cubin, kX, kR), test::quickRun());
  if (out.status != RunStatus::kLaunchFailed) fail("status " + std::string(runStatusName(out.status)));
  if (out.reason.find("CUDA_ERROR_ILLEGAL_ADDRESS") == std::string::npos) fail("reason: " + out.reason);
  if (!out.context_reset) fail("no reset attempted");
  auto again = session->run(test::moduleOf(*session, good.kernel, good.cubin, kX, kR), test::quickRun());
  const std::string lost = session->contextLost();
  if (lost.empty()) {
    if (again.status != RunStatus::kOk || !again.check.ok) fail("after the reset: " + again.reason);
    std::fprintf(stderr, "fault scenario passed: context reset, next run correct\n");
  } else {
    if (again.status != RunStatus::kLaunchFailed || again.reason != lost)
      fail("lost, but the next run said: " + again.reason);
    auto e = session->clearProblem();
    if (!e || e->message != lost) fail("lost, but setProblem accepted work");
    std::fprintf(stderr, "fault scenario passed: %s\n", lost.c_str());
  }
  std::exit(0);
}

}  // namespace

TEST(GpuRobustnessDeathTest, FaultingKernelIsARowAndNeverACrash) {
  OCCX_REQUIRE_GPU(session);
  (void)session;
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child starts afresh (no inherited CUDA state)
  EXPECT_EXIT(faultScenario(), ::testing::ExitedWithCode(0), "fault scenario passed");
}

TEST(GpuRobustness, WrongResultIsAReasonNotATime) {
  OCCX_REQUIRE_GPU(session);
  setSumProblem(*session);
  auto wrong = withBody(*session, "  int x = blockIdx.x; if (threadIdx.x == 0 && x < xnumel) out0[x] = 1.0f;");
  auto out = session->run(test::moduleOf(*session, wrong.kernel, wrong.cubin, kX, kR), test::quickRun());
  EXPECT_EQ(out.status, RunStatus::kWrongResult);
  EXPECT_NE(out.reason.find("out0: 64 of 64 elements differ"), std::string::npos) << out.reason;
  EXPECT_EQ(out.time.runs, 0);
  EXPECT_FALSE(out.context_reset);
}

TEST(GpuRobustness, UnwrittenOutputShowsThroughThePoison) {
  OCCX_REQUIRE_GPU(session);
  setSumProblem(*session);
  // Correct sums, except the last row is never written.
  auto lazy = withBody(*session,
                       "  int x = blockIdx.x; if (threadIdx.x != 0 || x >= xnumel - 1) return;\n"
                       "  float s = 0.0f; for (int r = 0; r < rnumel; ++r) s += in0[(long long)x * rnumel + r];\n"
                       "  out0[x] = s;");
  auto out = session->run(test::moduleOf(*session, lazy.kernel, lazy.cubin, kX, kR), test::quickRun());
  EXPECT_EQ(out.status, RunStatus::kWrongResult);
  EXPECT_NE(out.reason.find("1 of 64 elements differ; worst [63]: got -nan"), std::string::npos) << out.reason;
}

TEST(GpuRobustness, OutOfMemoryIsARowReasonAndTheSessionRecovers) {
  OCCX_REQUIRE_GPU(session);
  session->clearProblem();
  session->setDeviceMemoryLimit(std::int64_t{1} << 20);  // less than the L2 flush buffer already holds
  auto p = makeHostProblem(test::problemSpec(Workload::kSum, DType::kF32, kX, kR));
  ASSERT_TRUE(p);
  auto err = session->setProblem(std::make_shared<const HostProblem>(*p));
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message.rfind("out of memory: input 0 needs", 0), 0u) << err->message;
  auto good = realSum(*session);
  auto out = session->run(test::moduleOf(*session, good.kernel, good.cubin, kX, kR), test::quickRun());
  EXPECT_EQ(out.status, RunStatus::kOutOfMemory);
  EXPECT_EQ(out.reason, err->message);
  session->setDeviceMemoryLimit(0);
  ASSERT_FALSE(session->setProblem(std::make_shared<const HostProblem>(*p)));
  EXPECT_EQ(session->run(test::moduleOf(*session, good.kernel, good.cubin, kX, kR), test::quickRun()).status,
            RunStatus::kOk);
}

TEST(GpuRobustness, CancelledRunRecordsNothing) {
  OCCX_REQUIRE_GPU(session);
  setSumProblem(*session);
  auto good = realSum(*session);
  std::atomic<bool> cancel{true};
  auto out = session->run(test::moduleOf(*session, good.kernel, good.cubin, kX, kR), test::quickRun(), &cancel);
  EXPECT_EQ(out.status, RunStatus::kCancelled);
  EXPECT_EQ(out.time.runs, 0);
}

TEST(GpuRobustness, CancelledSweepKeepsFinishedRows) {
  OCCX_REQUIRE_GPU(session);
  LiveSweepSpec spec;
  spec.compile.workload = Workload::kSum;
  spec.compile.dtype = DType::kF16;
  spec.compile.xnumel = 1024;
  spec.compile.rnumel = 2048;
  spec.compile.grid.xblock = {1};
  spec.compile.grid.r0_block = {256, 512, 1024};
  spec.compile.grid.num_warps = {4, 8};
  spec.compile.inductor_candidates = false;
  spec.compile.threads = 8;
  spec.run = test::quickRun();
  std::atomic<bool> cancel{false};
  cuda::NvrtcCompiler compiler(nullptr);
  auto res = runLiveSweep(
      *session, spec, compiler.function(),
      [&](const LiveSweepProgress& p) {
        if (p.phase == Phase::kRun && p.done == 2) cancel.store(true);
      },
      &cancel);
  ASSERT_TRUE(res) << res.error();
  EXPECT_TRUE(res->cancelled);
  ASSERT_EQ(res->dataset.rows.size(), 6u);
  EXPECT_EQ(res->dataset.rows[0].measured.status, RunStatus::kOk) << res->dataset.rows[0].measured.reason;
  EXPECT_EQ(res->dataset.rows[1].measured.status, RunStatus::kOk) << res->dataset.rows[1].measured.reason;
  for (std::size_t i = 2; i < 6; ++i) EXPECT_EQ(res->dataset.rows[i].measured.status, RunStatus::kCancelled);
  EXPECT_EQ(res->dataset.metaValue("cancelled").rfind("yes", 0), 0u);
}
