// The GPU worker process from the client's side, without a GPU: a WorkerRunner talking to the fake
// worker (tests/support/fake_gpu_worker.cpp), which speaks the real protocol and crashes, hangs,
// answers garbage or loses its context on command. Checks that every value crosses the process
// boundary intact, that each failure becomes one row's reason and a fresh worker (with the problem
// uploaded again), that cancel reaches a running config, and that a live sweep with a crashing config
// in the middle measures every other row.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "core/sweep/live_sweep.h"
#include "core/sweep/worker_protocol.h"
#include "core/sweep/worker_runner.h"
#include "tests/support/live_sweep_fakes.h"

namespace occx {
namespace {

WorkerOptions fakeWorker(std::vector<std::string> args = {}) {
  WorkerOptions o;
  o.program = OCCX_FAKE_GPU_WORKER;
  o.arguments = std::move(args);
  o.start_timeout_s = 10.0;
  o.request_timeout_s = 10.0;
  o.run_timeout_s = 1.5;
  o.cancel_grace_s = 1.0;
  return o;
}

std::unique_ptr<WorkerRunner> started(std::vector<std::string> args = {}) {
  auto r = WorkerRunner::start(fakeWorker(std::move(args)));
  if (!r) {
    ADD_FAILURE() << r.error();
    return nullptr;
  }
  return std::move(r).value();
}

GpuModule module(const std::string& entry, std::int64_t grid_x = 7) {
  GpuModule m;
  m.entry = entry;
  m.label = "test " + entry;
  m.arch = {9, 0};
  m.cubin = {0x7f, 'E', 'L', 'F', 0, 1, 2, 0xff};
  m.grid_x = grid_x;
  m.block_threads = 256;
  m.arguments = {{LaunchArgument::Kind::kInput, 0, 0, 0, "in0"}, {LaunchArgument::Kind::kInt32, 0, 4096, 0, "rnumel"}};
  return m;
}

ProblemSpec sumProblem() {
  ProblemSpec p;
  p.workload = Workload::kSum;
  p.dtype = DType::kF32;
  p.xnumel = 256;
  p.rnumel = 4096;
  return p;
}

/// An input, an in-out and an output buffer, as Inductor names them.
BufferProblemSpec bufferProblem() {
  BufferProblemSpec s;
  s.label = "triton_poi_fused_mul_0: 3 buffers";
  s.buffers = {{"in_ptr0 (arg0_1)", ElementType::kF32, 4096, BufferSpec::Role::kInput, {}},
               {"in_out_ptr0 (buf0)", ElementType::kF16, 1024, BufferSpec::Role::kInOut, {}},
               {"out_ptr0 (buf1)", ElementType::kF32, 4096, BufferSpec::Role::kOutput, {}}};
  s.seed = 5;
  return s;
}

/// One fp32 output and nothing else: the fake writes 2 × (1 + grid_x · 1e-7) to every element.
BufferProblemSpec outputOnly() {
  BufferProblemSpec s;
  s.label = "triton_poi_fill_0";
  s.buffers = {{"out_ptr0", ElementType::kF32, 16, BufferSpec::Role::kOutput, {}}};
  return s;
}

RunOptions quick() {
  RunOptions o;
  o.min_timed_runs = 25;
  o.min_warmup_runs = 3;
  return o;
}

bool processExists(pid_t pid) {
  return pid > 0 && ::kill(pid, 0) == 0;
}

TEST(WorkerProtocol, EveryValueRoundTripsThroughCbor) {
  RunOutcome o;
  o.status = RunStatus::kWrongResult;
  o.reason = "out1: 3 of 512 elements differ";
  o.attributes = {40, 8, 1024, 512};
  o.driver_active_blocks_per_sm = 3;
  o.grid_blocks = 20736;
  o.checked = true;
  o.check = {false, 3, 0.25, "out1: 3 of 512 elements differ", "the CPU reference"};
  o.time = {30, 12.5, 12.0, 14.0, 12.25, 12.75, 4.0};
  o.kernel_time = TimingStats{30, 11.5, 11.0, 13.0, 11.25, 11.75, 4.3};
  o.warmup_runs = 9;
  o.bytes_moved = 53687091;
  o.bandwidth_GBps = 4012.5;
  o.pct_of_copy = 93.75;
  o.bandwidth_from = "DRAM bytes";
  o.warm_time = TimingStats{30, 10.5, 10.0, 11.0, 10.25, 10.75, 3.0};
  o.warm_kernel_time = TimingStats{30, 9.5, 9.0, 10.0, 9.25, 9.75, 3.5};
  o.warm_note = "";
  o.achieved_occupancy_pct = Metric::of(61.25);
  o.local_store_bytes = Metric::missing("profiling not permitted");
  o.context_reset = true;
  const auto back = nlohmann::json::from_cbor(nlohmann::json::to_cbor(nlohmann::json(o))).get<RunOutcome>();
  EXPECT_EQ(back.status, RunStatus::kWrongResult);
  EXPECT_EQ(back.reason, o.reason);
  EXPECT_EQ(back.attributes.registers, 40);
  EXPECT_EQ(back.attributes.local_bytes, 8);
  EXPECT_EQ(back.attributes.static_smem_bytes, 1024);
  EXPECT_EQ(back.attributes.max_threads_per_block, 512);
  EXPECT_EQ(back.driver_active_blocks_per_sm, 3);
  EXPECT_EQ(back.grid_blocks, 20736);
  EXPECT_EQ(back.bytes_moved, 53687091);
  EXPECT_FALSE(back.check.ok);
  EXPECT_EQ(back.check.mismatches, 3);
  EXPECT_DOUBLE_EQ(back.check.max_abs_error, 0.25);
  EXPECT_EQ(back.check.compared_with, "the CPU reference");
  EXPECT_EQ(back.time.runs, 30);
  EXPECT_DOUBLE_EQ(back.time.p75_us, 12.75);
  ASSERT_TRUE(back.kernel_time.has_value());
  EXPECT_DOUBLE_EQ(back.kernel_time->median_us, 11.5);
  EXPECT_EQ(back.warmup_runs, 9);
  EXPECT_DOUBLE_EQ(back.bandwidth_GBps, 4012.5);
  EXPECT_DOUBLE_EQ(back.pct_of_copy, 93.75);
  EXPECT_EQ(back.bandwidth_from, "DRAM bytes");
  ASSERT_TRUE(back.warm_time.has_value());
  EXPECT_DOUBLE_EQ(back.warm_time->p25_us, 10.25);
  ASSERT_TRUE(back.warm_kernel_time.has_value());
  EXPECT_DOUBLE_EQ(back.warm_kernel_time->spread_pct, 3.5);
  EXPECT_DOUBLE_EQ(*back.warmTimeUs(), 9.5);
  EXPECT_DOUBLE_EQ(*back.achieved_occupancy_pct.value, 61.25);
  EXPECT_FALSE(back.local_store_bytes.value.has_value());
  EXPECT_EQ(back.local_store_bytes.unavailable, "profiling not permitted");
  EXPECT_EQ(back.dram_read_bytes.unavailable, "not collected");
  EXPECT_TRUE(back.context_reset);

  const GpuModule m = module("occx_sum_fp32_x1_r1024_w4", 256);
  const auto mb = nlohmann::json::from_cbor(nlohmann::json::to_cbor(nlohmann::json(m))).get<GpuModule>();
  EXPECT_EQ(mb.entry, m.entry);
  EXPECT_EQ(mb.arch, (ComputeCapability{9, 0}));
  EXPECT_EQ(mb.cubin, m.cubin);
  EXPECT_EQ(mb.grid_x, 256);
  EXPECT_EQ(mb.block_threads, 256);
  ASSERT_EQ(mb.arguments.size(), 2u);
  EXPECT_EQ(mb.arguments[1].kind, LaunchArgument::Kind::kInt32);
  EXPECT_EQ(mb.arguments[1].value, 4096);
  EXPECT_EQ(mb.arguments[1].name, "rnumel");
}

TEST(WorkerProtocol, RunOptionsRoundTripWithEveryField) {
  RunOptions o;
  o.min_warmup_runs = 7;
  o.warmup_ms = 2.5;
  o.min_timed_runs = 11;
  o.max_timed_runs = 99;
  o.timed_ms = 12.5;
  o.flush_l2 = false;
  o.warm = false;
  o.check = false;
  o.cupti_activity = false;
  o.cupti_metrics = false;
  o.check_threads = 3;
  const auto b = nlohmann::json::from_cbor(nlohmann::json::to_cbor(nlohmann::json(o))).get<RunOptions>();
  EXPECT_EQ(b.min_warmup_runs, 7);
  EXPECT_DOUBLE_EQ(b.warmup_ms, 2.5);
  EXPECT_EQ(b.min_timed_runs, 11);
  EXPECT_EQ(b.max_timed_runs, 99);
  EXPECT_DOUBLE_EQ(b.timed_ms, 12.5);
  EXPECT_FALSE(b.flush_l2);
  EXPECT_FALSE(b.warm);
  EXPECT_FALSE(b.check);
  EXPECT_FALSE(b.cupti_activity);
  EXPECT_FALSE(b.cupti_metrics);
  EXPECT_EQ(b.check_threads, 3);
  // The worker's fake times warm only when asked (10 µs below events, 12 below CUPTI).
  auto r = started();
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->setBufferProblem(bufferProblem()));
  RunOptions cold_only = quick();
  cold_only.warm = false;
  EXPECT_FALSE(r->run(module("tile_a", 7), cold_only, nullptr).warmTimeUs().has_value());
}

TEST(WorkerProtocol, BadValuesAreRefusedNotGuessed) {
  const RunOutcome blank;
  nlohmann::json j = blank;
  j["status"] = "exploded";
  RunOutcome o;
  EXPECT_THROW(j.get_to(o), nlohmann::json::exception);
  const LaunchArgument blank_arg;
  nlohmann::json a = blank_arg;
  a["kind"] = 9;
  LaunchArgument arg;
  EXPECT_THROW(a.get_to(arg), nlohmann::json::exception);
  // Numbers that do not fit the field are refused, not converted (a plain conversion of 1e300 to an
  // int is undefined behaviour); an integral float is taken.
  GpuModule mod;
  nlohmann::json m = nlohmann::json(module("k"));
  m["grid"] = {1e300, 1, 1};
  EXPECT_THROW(m.get_to(mod), nlohmann::json::exception);
  m["grid"] = {256.0, 1, 1};
  m.get_to(mod);
  EXPECT_EQ(mod.grid_x, 256);
  m["block_threads"] = std::int64_t{1} << 40;
  EXPECT_THROW(m.get_to(mod), nlohmann::json::exception);
  m["block_threads"] = 12.5;
  EXPECT_THROW(m.get_to(mod), nlohmann::json::exception);
  nlohmann::json p = nlohmann::json(sumProblem());
  p["workload"] = "summ";
  ProblemSpec spec;
  EXPECT_THROW(p.get_to(spec), nlohmann::json::exception);
}

TEST(WorkerProtocol, FramesSurviveASocketAndGarbageIsNamed) {
  int sv[2];
  ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
  const auto soon = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  ASSERT_FALSE(writeFrame(sv[0], {{"op", "run"}, {"cubin", nlohmann::json::binary({1, 2, 3})}}));
  FrameRead in = readFrame(sv[1], soon);
  ASSERT_EQ(in.failure, FrameFailure::kNone) << in.error;
  EXPECT_EQ(in.message["op"], "run");
  const std::vector<std::uint8_t> bytes = in.message["cubin"].get_binary();
  EXPECT_EQ(bytes, (std::vector<std::uint8_t>{1, 2, 3}));

  const unsigned char huge[4] = {0xff, 0xff, 0xff, 0x7f};
  ASSERT_EQ(::write(sv[0], huge, 4), 4);
  in = readFrame(sv[1], soon);
  EXPECT_EQ(in.failure, FrameFailure::kGarbage);
  EXPECT_NE(in.error.find("frame length of 2147483647 bytes"), std::string::npos) << in.error;

  // A CBOR array that claims 2^64 − 256 elements: the reader throws even with exceptions off (found
  // by fuzz_worker_frame); it is garbage, not a crash.
  const unsigned char claim[16] = {12, 0, 0, 0, 0xa1, 0x61, 'a', 0x9b, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00};
  ASSERT_EQ(::write(sv[0], claim, sizeof claim), static_cast<ssize_t>(sizeof claim));
  in = readFrame(sv[1], soon);
  EXPECT_EQ(in.failure, FrameFailure::kGarbage);
  EXPECT_EQ(in.error, "a frame of 12 bytes that is not a CBOR object");

  in = readFrame(sv[1], std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
  EXPECT_EQ(in.failure, FrameFailure::kTimedOut);
  ::close(sv[0]);
  in = readFrame(sv[1], soon);
  EXPECT_EQ(in.failure, FrameFailure::kClosed);
  ::close(sv[1]);
}

TEST(WorkerRunner, StartsAndCarriesTheDeviceAndEveryFigure) {
  auto r = started();
  ASSERT_TRUE(r);
  EXPECT_EQ(r->device().name, "Fake H200");
  EXPECT_EQ(r->device().cc, (ComputeCapability{9, 0}));
  EXPECT_EQ(r->device().sm_count, 132);
  EXPECT_EQ(r->device().shared_memory_per_block_optin, 232448);
  ASSERT_EQ(r->device().data_mismatches.size(), 1u);
  EXPECT_EQ(r->driverVersionText(), "fake 580.0");
  EXPECT_GT(r->startupSeconds(), 0.0);
  EXPECT_LT(r->startupSeconds(), 10.0);
  EXPECT_TRUE(processExists(r->workerPid()));

  auto bw = r->copyBandwidth(true);
  ASSERT_TRUE(bw) << bw.error();
  EXPECT_DOUBLE_EQ(bw->GBps, 4300.5);
  EXPECT_EQ(bw->bytes_per_copy, std::int64_t{2} << 30);

  ASSERT_FALSE(r->setProblem(sumProblem()));
  const RunOutcome o = r->run(module("ok"), quick(), nullptr);
  ASSERT_EQ(o.status, RunStatus::kOk) << o.reason;
  EXPECT_DOUBLE_EQ(o.time.median_us, 107.0);
  ASSERT_TRUE(o.kernel_time.has_value());
  EXPECT_DOUBLE_EQ(o.kernel_time->median_us, 105.0);
  EXPECT_EQ(o.time.runs, 25);
  EXPECT_EQ(o.attributes.registers, 40);
  EXPECT_DOUBLE_EQ(*o.achieved_occupancy_pct.value, 61.25);  // metrics are collected by default
  EXPECT_EQ(o.local_load_bytes.unavailable, "profiling not permitted (fake)");
  EXPECT_EQ(o.reason, "problem sum fp32 256 × 4096, uploaded 1 time in this worker");
  EXPECT_EQ(r->restarts(), 0);
  EXPECT_TRUE(r->contextLost().empty());
}

TEST(WorkerRunner, ErrorsOfTheWorkerAreValues) {
  auto refused = WorkerRunner::start(fakeWorker({"--refuse", "no CUDA GPU found: the driver reports 0 devices"}));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error(), "no CUDA GPU found: the driver reports 0 devices");

  auto exited = WorkerRunner::start(fakeWorker({"--exit-at-start"}));
  ASSERT_FALSE(exited);
  EXPECT_EQ(exited.error(), "the GPU worker exited with code 3 before it was ready");

  auto garbage = WorkerRunner::start(fakeWorker({"--garbage-at-start"}));
  ASSERT_FALSE(garbage);
  EXPECT_NE(garbage.error().find("sent garbage at start"), std::string::npos) << garbage.error();

  WorkerOptions missing = fakeWorker();
  missing.program = "/nonexistent/occx-gpu-worker";
  auto m = WorkerRunner::start(missing);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error(), "cannot start the GPU worker /nonexistent/occx-gpu-worker: No such file or directory");

  auto r = started();
  ASSERT_TRUE(r);
  ProblemSpec bad = sumProblem();
  bad.xnumel = 999;
  auto e = r->setProblem(bad);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "out of memory: 999 rows do not fit (fake)");
  const RunOutcome o = r->run(module("ok"), quick(), nullptr);
  EXPECT_EQ(o.status, RunStatus::kSkipped);
  EXPECT_EQ(o.reason, "no problem set");
}

// Each way a worker can fail: one row with the reason, then a fresh worker holding the problem.
struct Failure {
  const char* entry;
  RunStatus status;
  const char* reason;
};

class WorkerFailure : public ::testing::TestWithParam<Failure> {};

TEST_P(WorkerFailure, BecomesOneRowAndAFreshWorkerRunsTheNext) {
  auto r = started();
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->setProblem(sumProblem()));
  const pid_t first = r->workerPid();
  ASSERT_EQ(r->run(module("ok"), quick(), nullptr).status, RunStatus::kOk);

  const RunOutcome bad = r->run(module(GetParam().entry), quick(), nullptr);
  EXPECT_EQ(bad.status, GetParam().status);
  EXPECT_EQ(bad.reason, GetParam().reason);
  EXPECT_TRUE(bad.context_reset);
  EXPECT_EQ(r->restarts(), 1);
  EXPECT_NE(r->workerPid(), first);
  EXPECT_FALSE(processExists(first));
  EXPECT_TRUE(r->contextLost().empty());

  const RunOutcome next = r->run(module("ok", 9), quick(), nullptr);
  ASSERT_EQ(next.status, RunStatus::kOk) << next.reason;
  EXPECT_DOUBLE_EQ(next.time.median_us, 109.0);
  EXPECT_EQ(next.reason, "problem sum fp32 256 × 4096, uploaded 1 time in this worker");  // sent again
}

INSTANTIATE_TEST_SUITE_P(
    Crash, WorkerFailure,
    ::testing::Values(
        Failure{
            "crash", RunStatus::kLaunchFailed,
            "the GPU worker was killed by signal 6 (Aborted) while running test crash; the GPU worker was restarted"},
        Failure{"hang", RunStatus::kLaunchFailed,
                "no answer from the GPU worker within 1.5 s while running test hang; the GPU worker was restarted"},
        Failure{"garbage", RunStatus::kLaunchFailed,
                "the GPU worker's answer could not be read (a frame of 16 bytes that is not a CBOR object) while "
                "running test garbage; the GPU worker was restarted"},
        Failure{"fault", RunStatus::kLaunchFailed,
                "kernel execution (cuStreamSynchronize): CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was "
                "encountered; the GPU worker was restarted with a fresh context"}),
    [](const ::testing::TestParamInfo<Failure>& p) { return std::string(p.param.entry); });

TEST(WorkerRunner, CancelReachesARunningConfig) {
  auto r = started();
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->setProblem(sumProblem()));
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    cancel = true;
  });
  const auto t0 = std::chrono::steady_clock::now();
  const RunOutcome o = r->run(module("slow"), quick(), &cancel);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  canceller.join();
  EXPECT_EQ(o.status, RunStatus::kCancelled) << o.reason;
  EXPECT_EQ(o.reason, "cancelled");
  EXPECT_LT(s, 1.0);  // the 5 s config stopped at the cancel
  EXPECT_EQ(r->restarts(), 0);
  // A cancel already set: nothing is sent.
  EXPECT_EQ(r->run(module("ok"), quick(), &cancel).reason, "cancelled before it ran");
}

TEST(WorkerRunner, ACancelledHangIsStoppedAfterTheGrace) {
  auto r = started();
  ASSERT_TRUE(r);
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    cancel = true;
  });
  const RunOutcome o = r->run(module("hang"), quick(), &cancel);
  canceller.join();
  EXPECT_EQ(o.status, RunStatus::kCancelled);
  EXPECT_EQ(
      o.reason,
      "the GPU worker did not stop within 1.0 s of the cancel while running test hang; the GPU worker was restarted");
}

TEST(WorkerRunner, AWorkerStartedOnAThreadThatEndedServesTheNextSweep) {
  // The GUI starts the worker on a sweep's thread and uses it from the next sweep's thread.
  std::unique_ptr<WorkerRunner> r;
  std::thread([&] {
    r = started();
    if (r) (void)r->setProblem(sumProblem());
  }).join();
  ASSERT_TRUE(r);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_TRUE(processExists(r->workerPid()));
  RunOutcome o;
  std::thread([&] { o = r->run(module("ok"), quick(), nullptr); }).join();
  EXPECT_EQ(o.status, RunStatus::kOk) << o.reason;
  EXPECT_EQ(r->restarts(), 0);
}

TEST(WorkerRunner, AWorkerThatDiedWhileIdleIsReplacedWithoutBlamingTheNextRequest) {
  auto r = started();
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->setProblem(sumProblem()));
  ASSERT_EQ(::kill(r->workerPid(), SIGKILL), 0);  // the OOM killer, say
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  const RunOutcome o = r->run(module("ok"), quick(), nullptr);
  EXPECT_EQ(o.status, RunStatus::kOk) << o.reason;
  EXPECT_EQ(o.reason, "problem sum fp32 256 × 4096, uploaded 1 time in this worker");  // the problem went along
  EXPECT_EQ(r->restarts(), 1);
  ASSERT_EQ(::kill(r->workerPid(), SIGKILL), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  auto bw = r->copyBandwidth(false);
  ASSERT_TRUE(bw) << bw.error();
  EXPECT_DOUBLE_EQ(bw->GBps, 4271.0);
  EXPECT_EQ(r->restarts(), 2);
}

TEST(WorkerRunner, AWorkerThatDiesBuildingTheProblemIsAnErrorAndAFreshWorkerFollows) {
  auto r = started();
  ASSERT_TRUE(r);
  ProblemSpec crash = sumProblem();
  crash.xnumel = 777;
  auto e = r->setProblem(crash);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "the GPU worker was killed by signal 6 (Aborted); the GPU worker was restarted");
  EXPECT_EQ(r->restarts(), 1);
  EXPECT_EQ(r->run(module("ok"), quick(), nullptr).reason, "no problem set");  // nothing half-uploaded is kept
  ASSERT_FALSE(r->setProblem(sumProblem()));
  EXPECT_EQ(r->run(module("ok"), quick(), nullptr).status, RunStatus::kOk);
}

TEST(WorkerRunner, EndingTheRunnerEndsTheWorker) {
  pid_t pid = 0;
  {
    auto r = started();
    ASSERT_TRUE(r);
    pid = r->workerPid();
    ASSERT_TRUE(processExists(pid));
  }
  EXPECT_FALSE(processExists(pid));  // quit answered and reaped: no zombie left either
}

TEST(WorkerRunner, AWorkerThatCannotBeRestartedSaysSoOnEveryLaterRow) {
  // The next start fails: the program is gone (renamed away under the runner).
  const std::string copy = ::testing::TempDir() + "/fake-worker-copy";
  ASSERT_EQ(std::system(("cp " + std::string(OCCX_FAKE_GPU_WORKER) + " " + copy).c_str()), 0);
  WorkerOptions o = fakeWorker();
  o.program = copy;
  auto w = WorkerRunner::start(o);
  ASSERT_TRUE(w) << w.error();
  ASSERT_EQ(std::remove(copy.c_str()), 0);
  const RunOutcome bad = (*w)->run(module("crash"), quick(), nullptr);
  EXPECT_EQ(bad.status, RunStatus::kLaunchFailed);
  EXPECT_EQ(bad.reason,
            "the GPU worker was killed by signal 6 (Aborted) while running test crash; the GPU worker could "
            "not be restarted: cannot start the GPU worker " +
                copy + ": No such file or directory");
  EXPECT_EQ((*w)->contextLost(), "the GPU worker could not be restarted: cannot start the GPU worker " + copy +
                                     ": No such file or directory");
  const RunOutcome later = (*w)->run(module("ok"), quick(), nullptr);
  EXPECT_EQ(later.status, RunStatus::kLaunchFailed);
  EXPECT_EQ(later.reason, (*w)->contextLost());
}

using testing_support::fakeCompile;  // 40 registers, as the fake worker's driver reports

TEST(WorkerRunner, ALiveSweepWithACrashingConfigInTheMiddleMeasuresEveryOtherRow) {
  auto r = started(
      {"--crash-on", "occx_sum_fp32_x1_r1024_w8_s256x4096", "--fault-on", "occx_sum_fp32_x1_r2048_w4_s256x4096"});
  ASSERT_TRUE(r);
  const LiveSweepSpec s = testing_support::smallSumSweep();
  auto res = runLiveSweep(*r, s, fakeCompile);
  ASSERT_TRUE(res) << res.error();
  const auto& rows = res->dataset.rows;
  ASSERT_EQ(rows.size(), 4u);
  EXPECT_EQ(rows[0].measured.status, RunStatus::kOk) << rows[0].measured.reason;
  EXPECT_EQ(rows[1].measured.status, RunStatus::kLaunchFailed);
  EXPECT_EQ(
      rows[1].measured.reason.rfind("the GPU worker was killed by signal 6 (Aborted) while running sum fp32 XBLOCK=1 "
                                    "RBLOCK=1024 num_warps=8",
                                    0),
      0u)
      << rows[1].measured.reason;
  EXPECT_EQ(rows[2].measured.status, RunStatus::kLaunchFailed);
  EXPECT_NE(rows[2].measured.reason.find("CUDA_ERROR_ILLEGAL_ADDRESS"), std::string::npos) << rows[2].measured.reason;
  EXPECT_EQ(rows[3].measured.status, RunStatus::kOk) << rows[3].measured.reason;
  EXPECT_EQ(rows[3].measured.reason, "problem sum fp32 256 × 4096, uploaded 1 time in this worker");
  ASSERT_TRUE(rows[3].measured.achieved_occupancy_pct.value.has_value());
  EXPECT_DOUBLE_EQ(*rows[3].measured.achieved_occupancy_pct.value, 61.25);
  EXPECT_EQ(r->restarts(), 2);
}

TEST(WorkerProtocol, BufferProblemValuesRoundTripThroughCbor) {
  BufferProblemSpec spec = bufferProblem();
  spec.seed = (std::uint64_t{1} << 63) + 5;  // the whole unsigned range crosses
  spec.bytes_moved = 123456789012;
  const auto back = nlohmann::json::from_cbor(nlohmann::json::to_cbor(nlohmann::json(spec))).get<BufferProblemSpec>();
  EXPECT_EQ(back.label, "triton_poi_fused_mul_0: 3 buffers");
  EXPECT_EQ(back.seed, (std::uint64_t{1} << 63) + 5);
  EXPECT_EQ(back.bytes_moved, 123456789012);
  ASSERT_EQ(back.buffers.size(), 3u);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(back.buffers[i].name, spec.buffers[i].name);
    EXPECT_EQ(back.buffers[i].type, spec.buffers[i].type);
    EXPECT_EQ(back.buffers[i].elements, spec.buffers[i].elements);
    EXPECT_EQ(back.buffers[i].role, spec.buffers[i].role);
  }
  const nlohmann::json j = spec.buffers[1];
  const std::string want = "{\"elements\":1024,\"name\":\"in_out_ptr0 (buf0)\",\"role\":\"in-out\",\"type\":\"fp16\"}";
  EXPECT_EQ(j.dump(), want);

  RunOutcome o;
  o.checked = true;
  o.check.compared_with = "the outputs of tile A (the first config that ran)";
  const auto ob = nlohmann::json::from_cbor(nlohmann::json::to_cbor(nlohmann::json(o))).get<RunOutcome>();
  EXPECT_EQ(ob.check.compared_with, "the outputs of tile A (the first config that ran)");
}

TEST(WorkerProtocol, BadBufferValuesAreRefusedNotGuessed) {
  const nlohmann::json good = bufferProblem();
  BufferProblemSpec spec;
  good.get_to(spec);  // the baseline reads
  auto refused = [&](const char* key, const nlohmann::json& value) {
    nlohmann::json j = good;
    j["buffers"][0][key] = value;
    BufferProblemSpec s;
    EXPECT_THROW(j.get_to(s), nlohmann::json::exception) << key << " = " << value.dump();
  };
  refused("type", "fp8e4nv");
  refused("type", 16);
  refused("role", "sideways");
  refused("role", nullptr);
  refused("elements", 1e300);
  refused("elements", 12.5);
  refused("elements", "4096");
  refused("name", 3);
  for (const char* key : {"type", "elements", "role"}) {  // no default is guessed for these
    nlohmann::json j = good;
    j["buffers"][0].erase(key);
    BufferProblemSpec s;
    EXPECT_THROW(j.get_to(s), nlohmann::json::exception) << key;
  }
  nlohmann::json j = good;
  j["seed"] = -1;
  EXPECT_THROW(j.get_to(spec), nlohmann::json::exception);
  j = good;
  j["buffers"] = "in_ptr0";
  EXPECT_THROW(j.get_to(spec), nlohmann::json::exception);
  j = good;
  j.erase("buffers");
  EXPECT_THROW(j.get_to(spec), nlohmann::json::exception);
  j = good;
  j["buffers"][0]["type"] = "torch.float32";  // PyTorch's name is a name
  j.get_to(spec);
  EXPECT_EQ(spec.buffers[0].type, ElementType::kF32);
}

TEST(WorkerRunner, ABufferProblemIsCheckedAgainstTheFirstConfigThatRan) {
  auto r = started();
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->setBufferProblem(bufferProblem()));
  const RunOutcome a = r->run(module("tile_a", 7), quick(), nullptr);
  ASSERT_EQ(a.status, RunStatus::kOk) << a.reason;
  EXPECT_TRUE(a.checked);
  EXPECT_TRUE(a.check.ok);
  EXPECT_EQ(a.check.compared_with, "nothing: these outputs are the reference");
  EXPECT_EQ(a.reason, "buffer problem triton_poi_fused_mul_0: 3 buffers, uploaded 1 time in this worker");
  // The buffers' bytes (16384 read, 2048 read and written, 16384 written) kept under that name; the
  // bandwidth is the fake's DRAM bytes (4 MiB read, 1 MiB written) over its cold CUPTI time (105 µs).
  EXPECT_EQ(a.bytes_moved, 16384 + 2 * 2048 + 16384);
  EXPECT_EQ(a.bandwidth_from, "DRAM bytes");
  EXPECT_DOUBLE_EQ(a.bandwidth_GBps, bandwidthGBps(4194304 + 1048576, 105.0));
  // Warm: the fake's 12 µs less by CUPTI; the figure configs are compared by stays cold.
  ASSERT_TRUE(a.warmTimeUs());
  EXPECT_DOUBLE_EQ(*a.warmTimeUs(), 95.0);
  EXPECT_DOUBLE_EQ(a.timeUs(), 105.0);

  const RunOutcome b = r->run(module("tile_b", 9), quick(), nullptr);  // another tiling's rounding
  ASSERT_EQ(b.status, RunStatus::kOk) << b.reason;
  EXPECT_TRUE(b.check.ok);
  EXPECT_GT(b.check.max_abs_error, 0.0);
  EXPECT_EQ(b.check.compared_with, "the outputs of test tile_a (the first config that ran)");

  const RunOutcome w = r->run(module("wrong_tile", 7), quick(), nullptr);
  EXPECT_EQ(w.status, RunStatus::kWrongResult);
  EXPECT_TRUE(w.checked);
  EXPECT_FALSE(w.check.ok);
  EXPECT_EQ(w.check.mismatches, 2);  // element 3 of the in-out and of the output
  EXPECT_EQ(w.reason, w.check.message);
  EXPECT_EQ(w.reason.rfind("in_out_ptr0 (buf0): 1 of 1024 elements differ; worst [3]: got ", 0), 0u) << w.reason;
  EXPECT_NE(w.reason.find(" (2 mismatches in all outputs)"), std::string::npos) << w.reason;
  EXPECT_EQ(w.check.compared_with, "the outputs of test tile_a (the first config that ran)");

  const RunOutcome n = r->run(module("nowrite_tile", 7), quick(), nullptr);
  EXPECT_EQ(n.status, RunStatus::kWrongResult);
  // The in-out kept its initial contents and differs too; the message names the unwritten output first.
  EXPECT_EQ(
      n.reason.rfind(
          "out_ptr0 (buf1): not written: all 4096 elements still hold the poison (0xFF bytes, NaN) after the launch (",
          0),
      0u)
      << n.reason;
  EXPECT_GT(n.check.mismatches, 4096);
  EXPECT_EQ(r->restarts(), 0);
}

TEST(WorkerRunner, ADisagreeingOrNotWritingConfigIsAWrongResultWithTheMessage) {
  auto r = started();
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->setBufferProblem(outputOnly()));
  // First a config that writes nothing: no reference comes of it.
  const RunOutcome n = r->run(module("nowrite", 0), quick(), nullptr);
  EXPECT_EQ(n.status, RunStatus::kWrongResult);
  EXPECT_EQ(n.reason,
            "out_ptr0: not written: all 16 elements still hold the poison (0xFF bytes, NaN) after the launch");
  EXPECT_EQ(n.check.mismatches, 16);
  EXPECT_EQ(n.check.compared_with, "nothing: no config has checked ok yet");
  // grid_x 0: exactly 2 everywhere; this run is the reference.
  const RunOutcome a = r->run(module("exact", 0), quick(), nullptr);
  ASSERT_EQ(a.status, RunStatus::kOk) << a.reason;
  EXPECT_EQ(a.check.compared_with, "nothing: these outputs are the reference");
  const RunOutcome w = r->run(module("wrong", 0), quick(), nullptr);
  EXPECT_EQ(w.status, RunStatus::kWrongResult);
  EXPECT_EQ(w.reason,
            "out_ptr0: 1 of 16 elements differ; worst [3]: got 2.5, want 2 (allowed |error| 0.0002 + 0.0001 × |want|)");
  EXPECT_EQ(w.check.compared_with, "the outputs of test exact (the first config that ran)");
  EXPECT_DOUBLE_EQ(w.check.max_abs_error, 0.5);
}

TEST(WorkerRunner, ACrashInTheMiddleOfABufferProblemUploadsItAgainAndANewReferenceIsNamed) {
  auto r = started();
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->setBufferProblem(bufferProblem()));
  ASSERT_EQ(r->run(module("tile_a", 7), quick(), nullptr).status, RunStatus::kOk);
  const RunOutcome bad = r->run(module("crash"), quick(), nullptr);
  EXPECT_EQ(bad.status, RunStatus::kLaunchFailed);
  EXPECT_EQ(bad.reason,
            "the GPU worker was killed by signal 6 (Aborted) while running test crash; the GPU worker was restarted");
  EXPECT_EQ(r->restarts(), 1);
  // The fresh worker holds the buffers again but not the reference: this run becomes it, and says so.
  const RunOutcome b = r->run(module("tile_b", 9), quick(), nullptr);
  ASSERT_EQ(b.status, RunStatus::kOk) << b.reason;
  EXPECT_EQ(b.check.compared_with, "nothing: these outputs are the reference");
  EXPECT_EQ(b.reason,
            "buffer problem triton_poi_fused_mul_0: 3 buffers, uploaded 1 time in this worker; these outputs are the "
            "reference of a restarted GPU worker (the outputs of test tile_a were the reference before the restart)");
  const RunOutcome c = r->run(module("tile_c", 11), quick(), nullptr);
  ASSERT_EQ(c.status, RunStatus::kOk) << c.reason;
  EXPECT_EQ(c.check.compared_with, "the outputs of test tile_b (the first config that ran)");
  EXPECT_EQ(c.reason, "buffer problem triton_poi_fused_mul_0: 3 buffers, uploaded 1 time in this worker");
}

TEST(WorkerRunner, TheLastProblemOfEitherKindIsUploadedAgainAfterARestart) {
  auto r = started();
  ASSERT_TRUE(r);
  ASSERT_FALSE(r->setBufferProblem(bufferProblem()));
  ASSERT_FALSE(r->setProblem(sumProblem()));  // replaces the buffer problem
  RunOutcome o = r->run(module("ok"), quick(), nullptr);
  ASSERT_EQ(o.status, RunStatus::kOk) << o.reason;
  EXPECT_EQ(o.reason, "problem sum fp32 256 × 4096, uploaded 2 times in this worker");
  EXPECT_EQ(o.check.compared_with, "the CPU reference");
  ASSERT_EQ(::kill(r->workerPid(), SIGKILL), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  o = r->run(module("ok"), quick(), nullptr);
  EXPECT_EQ(o.reason, "problem sum fp32 256 × 4096, uploaded 1 time in this worker");

  ASSERT_FALSE(r->setBufferProblem(outputOnly()));
  ASSERT_EQ(::kill(r->workerPid(), SIGKILL), 0);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  o = r->run(module("ok"), quick(), nullptr);
  ASSERT_EQ(o.status, RunStatus::kOk) << o.reason;
  EXPECT_EQ(o.reason, "buffer problem triton_poi_fill_0, uploaded 1 time in this worker");  // no reference was lost
  EXPECT_EQ(r->restarts(), 2);
  ASSERT_FALSE(r->clearProblem());
  EXPECT_EQ(r->run(module("ok"), quick(), nullptr).reason, "no problem set");
}

TEST(WorkerRunner, BadBufferProblemsAreRefusedByTheWorker) {
  auto r = started();
  ASSERT_TRUE(r);
  BufferProblemSpec bad = bufferProblem();
  bad.buffers[2].elements = 0;
  auto e = r->setBufferProblem(bad);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "buffer 2 (out_ptr0 (buf1)): 0 elements is out of range: allowed 1 … 2147483647");
  bad = bufferProblem();
  bad.buffers[0].elements = 999;
  e = r->setBufferProblem(bad);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "out of memory: in_ptr0 (arg0_1) needs 999 elements (fake)");
  bad = bufferProblem();
  bad.buffers.pop_back();
  bad.buffers.pop_back();
  e = r->setBufferProblem(bad);
  ASSERT_TRUE(e);
  EXPECT_EQ(
      e->message,
      "a buffer problem with no output buffer: allowed 1 or more output or in-out buffers (the check compares them)");
  EXPECT_EQ(r->run(module("ok"), quick(), nullptr).reason, "no problem set");
  EXPECT_EQ(r->restarts(), 0);
}

}  // namespace
}  // namespace occx
