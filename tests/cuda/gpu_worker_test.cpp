// The GPU worker process on a real GPU (skips without one): a live sweep with a kernel that writes
// to an illegal address in the middle finishes with every other row measured, each timed row carries
// its CUPTI kernel time (and achieved occupancy where profiling is permitted), and the worker's
// start-up time and per-config overhead against an in-process session are printed for the notes.
#include <gtest/gtest.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "core/sweep/live_sweep.h"
#include "core/sweep/worker_runner.h"
#include "gpu_test_support.h"

using namespace occx;

namespace {

std::unique_ptr<WorkerRunner> startWorker() {
  WorkerOptions o;
  o.program = OCCX_GPU_WORKER_PROGRAM;
  o.arguments = {"--device", "0"};
  auto r = WorkerRunner::start(o);
  EXPECT_TRUE(r) << r.error();
  return r ? std::move(r).value() : nullptr;
}

// The shape is baked into each kernel (the sweep builds them for 8192 × 4096), so it names the kernel.
constexpr const char* kFaulting = "occx_sum_fp32_x1_r1024_w4_s8192x4096";

// NVRTC, except that one config's kernel writes to an illegal address (same name and parameters).
CompileFunction faultingCompiler(const cuda::NvrtcCompiler& nvrtc) {
  return [&nvrtc](const CompileRequest& req) -> Expected<CompileResult> {
    if (req.kernel_name != kFaulting) return nvrtc.compile(req);
    CompileRequest bad = req;
    bad.source = "extern \"C\" __global__ void " + req.kernel_name +
                 "(const float* in0, float* out0, int xnumel, int rnumel) {\n"
                 "  *(volatile float*)(16) = in0[0];  // an illegal address\n}\n";
    return nvrtc.compile(bad);
  };
}

}  // namespace

TEST(GpuWorker, AFaultingConfigInTheMiddleEndsOnlyTheWorkerAndEveryOtherRowIsMeasured) {
  OCCX_REQUIRE_GPU(session);
  auto worker = startWorker();
  ASSERT_TRUE(worker);
  EXPECT_EQ(worker->device().uuid, session->device().uuid);
  std::cout << "measured: GPU worker ready in " << worker->startupSeconds() << " s\n";
  LiveSweepSpec spec;
  spec.compile.workload = Workload::kSum;
  spec.compile.dtype = DType::kF32;
  spec.compile.xnumel = 8192;
  spec.compile.rnumel = 4096;
  spec.compile.grid.xblock = {1};
  spec.compile.grid.r0_block = {512, 1024, 2048};
  spec.compile.grid.num_warps = {4, 8};
  spec.compile.inductor_candidates = false;
  spec.compile.threads = 4;
  spec.run = test::quickRun();  // with CUPTI records and the profiled pass, as by default
  cuda::NvrtcCompiler nvrtc(nullptr);
  auto res = runLiveSweep(*worker, spec, faultingCompiler(nvrtc));
  ASSERT_TRUE(res) << res.error();
  ASSERT_EQ(res->dataset.rows.size(), 6u);
  int measured = 0;
  for (const auto& r : res->dataset.rows) {
    SCOPED_TRACE(r.config.label());
    std::cout << r.config.label() << ": " << runStatusName(r.measured.status) << " " << r.measured.time.median_us
              << " us, CUPTI " << r.measured.kernelTimeUs().value_or(0.0) << " us, achieved "
              << r.measured.achieved_occupancy_pct.text() << " %; " << r.measured.reason << "\n";
    if (kernelName(r.config) == kFaulting) {
      EXPECT_EQ(r.measured.status, RunStatus::kLaunchFailed);
      EXPECT_NE(r.measured.reason.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << r.measured.reason;
      EXPECT_NE(r.measured.reason.find("restarted"), std::string::npos) << r.measured.reason;
      continue;
    }
    ++measured;
    ASSERT_EQ(r.measured.status, RunStatus::kOk) << r.measured.reason;
    EXPECT_GT(r.measured.time.median_us, 0.0);
    // Every timed launch has its CUPTI record (the worker turns kernel records on before its context).
    ASSERT_TRUE(r.measured.kernelTimeUs().has_value()) << r.measured.reason;
    EXPECT_GT(*r.measured.kernelTimeUs(), 0.0);
    EXPECT_LE(*r.measured.kernelTimeUs(), r.measured.time.median_us * 1.05);
    if (r.measured.achieved_occupancy_pct.value) {
      EXPECT_GT(*r.measured.achieved_occupancy_pct.value, 0.0);
      EXPECT_LE(*r.measured.achieved_occupancy_pct.value, 100.0);
    } else {
      EXPECT_NE(r.measured.achieved_occupancy_pct.unavailable.find("not permitted"), std::string::npos)
          << "metrics missing for another reason: " << r.measured.achieved_occupancy_pct.unavailable;
    }
  }
  EXPECT_EQ(measured, 5);
  EXPECT_EQ(worker->restarts(), 1);
  EXPECT_TRUE(worker->contextLost().empty());
  std::cout << "measured: sweep of 6 configs through the worker: runs " << res->run_seconds << " s, wall "
            << res->wall_seconds << " s\n";
}

TEST(GpuWorker, OverheadPerConfigAgainstAnInProcessSession) {
  OCCX_REQUIRE_GPU(session);
  auto worker = startWorker();
  ASSERT_TRUE(worker);
  const ProblemSpec ps{Workload::kSum, DType::kF32, 1, 8192, 4096, 1, false};
  ASSERT_FALSE(session->setProblem(ps));
  ASSERT_FALSE(worker->setProblem(ps));
  auto g = generateKernel(test::config(Workload::kSum, DType::kF32, 1, 1024, 8, 4096));
  ASSERT_TRUE(g);
  auto c = test::compileFor(*session, *g);
  ASSERT_TRUE(c) << c.error();
  const GpuModule m = test::moduleOf(*session, *g, c->cubin, 8192, 4096);
  RunOptions o = test::quickRun();
  o.cupti_metrics = false;  // the profiled pass costs the same in both; compare the transport
  auto timeRuns = [&](GpuRunner& r) {
    (void)r.run(m, o, nullptr);  // first load
    const auto t0 = std::chrono::steady_clock::now();
    constexpr int kRuns = 20;
    for (int i = 0; i < kRuns; ++i) EXPECT_EQ(r.run(m, o, nullptr).status, RunStatus::kOk);
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count() / kRuns;
  };
  const double in_process_ms = timeRuns(*session);
  const double worker_ms = timeRuns(*worker);
  std::cout << "measured: one config's run() " << in_process_ms << " ms in-process, " << worker_ms
            << " ms through the worker (overhead " << worker_ms - in_process_ms << " ms per config)\n";
  EXPECT_EQ(worker->restarts(), 0);
  session->clearProblem();
}

TEST(GpuWorker, AWorkerStartedOnAThreadThatEndedStillRuns) {
  // The GUI starts the worker on one sweep's thread and runs the next sweep on another.
  OCCX_REQUIRE_GPU(session);
  std::unique_ptr<WorkerRunner> worker;
  std::thread([&] { worker = startWorker(); }).join();
  ASSERT_TRUE(worker);
  const ProblemSpec ps{Workload::kSum, DType::kF32, 1, 1024, 4096, 1, false};
  std::optional<Error> e;
  std::thread([&] { e = worker->setProblem(ps); }).join();
  ASSERT_FALSE(e) << e->message;
  auto g = generateKernel(test::config(Workload::kSum, DType::kF32, 1, 1024, 4, 4096));
  ASSERT_TRUE(g);
  auto c = test::compileFor(*session, *g);
  ASSERT_TRUE(c) << c.error();
  RunOutcome o;
  std::thread([&] {
    o = worker->run(test::moduleOf(*session, *g, c->cubin, 1024, 4096), test::quickRun(), nullptr);
  }).join();
  EXPECT_EQ(o.status, RunStatus::kOk) << o.reason;
  EXPECT_EQ(worker->restarts(), 0);
}
