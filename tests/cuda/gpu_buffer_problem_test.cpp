// Buffer problems on a real GPU (skips without one): a tiny NVRTC kernel over named buffers
// (out = 2 · in, acc += in) run with two block sizes, in-process (GpuSession) and through the GPU
// worker process. The first config's outputs are the reference and the second agrees; a config
// that writes a wrong element, one that writes nothing, and one whose grid misses the tail are
// wrong results; the in-out buffer is restored before every check (else the second config would
// see the first one's timed launches); running out of memory is a clean error; a family problem
// afterwards is still checked against the CPU reference.
#include <gtest/gtest.h>

#include "core/cuda/nvrtc_compiler.h"
#include "core/sweep/buffer_problem.h"
#include "core/sweep/worker_runner.h"
#include "gpu_test_support.h"

using namespace occx;

namespace {

// A tail: not a multiple of any block size below.
constexpr std::int64_t kN = (std::int64_t{1} << 20) + 37;

constexpr const char* kSource = R"(
extern "C" __global__ void twice(const float* in, float* out, float* acc, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = in[i] * 2.0f;
    acc[i] = acc[i] + in[i];
  }
}
extern "C" __global__ void twice_wrong(const float* in, float* out, float* acc, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[i] = i == 5 ? in[i] * 2.0f + 1.0f : in[i] * 2.0f;
    acc[i] = acc[i] + in[i];
  }
}
extern "C" __global__ void writes_nothing(const float* in, float* out, float* acc, int n) {}
)";

BufferProblemSpec twiceProblem() {
  BufferProblemSpec s;
  s.label = "twice: 3 buffers of 1048613 fp32";
  s.buffers = {{"in", ElementType::kF32, kN, BufferSpec::Role::kInput, {}},
               {"out", ElementType::kF32, kN, BufferSpec::Role::kOutput, {}},
               {"acc", ElementType::kF32, kN, BufferSpec::Role::kInOut, {}}};
  s.seed = 17;
  return s;
}

/// The kernels' cubin for the GPU (all three entries in one module).
std::vector<std::uint8_t> twiceCubin(const cuda::GpuSession& session) {
  const cuda::NvrtcCompiler compiler(nullptr);
  CompileRequest req;
  req.source = kSource;
  req.kernel_name = "twice";
  req.arch = session.device().cc;
  auto c = compiler.compile(req);
  EXPECT_TRUE(c) << c.error();
  return c ? c->cubin : std::vector<std::uint8_t>{};
}

/// `entry` with `block` threads per block over kN elements (`blocks` 0 = enough for all of them).
GpuModule twiceModule(const cuda::GpuSession& session, const std::vector<std::uint8_t>& cubin, const std::string& entry,
                      int block, std::int64_t blocks = 0) {
  GpuModule m;
  m.entry = entry;
  m.label = entry + " block " + std::to_string(block);
  m.arch = session.device().cc;
  m.cubin = cubin;
  m.block_threads = block;
  m.grid_x = blocks > 0 ? blocks : (kN + block - 1) / block;
  // kInput 0 = buffer 0 (in); kOutput 0 = buffer 1 (out), kOutput 1 = buffer 2 (acc, in-out).
  m.arguments = {{LaunchArgument::Kind::kInput, 0, 0, 0, "in"},
                 {LaunchArgument::Kind::kOutput, 0, 0, 0, "out"},
                 {LaunchArgument::Kind::kOutput, 1, 0, 0, "acc"},
                 {LaunchArgument::Kind::kInt32, 0, kN, 0, "n"}};
  return m;
}

/// The whole story on one runner (a session or a worker).
void checkAcrossConfigs(GpuRunner& runner, const cuda::GpuSession& session) {
  const auto cubin = twiceCubin(session);
  ASSERT_FALSE(cubin.empty());
  ASSERT_FALSE(runner.setBufferProblem(twiceProblem()));
  const RunOptions opt = test::quickRun();

  const RunOutcome a = runner.run(twiceModule(session, cubin, "twice", 128), opt, nullptr);
  ASSERT_EQ(a.status, RunStatus::kOk) << a.reason;
  EXPECT_TRUE(a.checked);
  EXPECT_EQ(a.check.compared_with, "nothing: these outputs are the reference");
  EXPECT_TRUE(a.bandwidth_GBps > 0.0 || a.bandwidth_from.rfind("not shown", 0) == 0) << a.bandwidth_from;
  EXPECT_GT(a.time.median_us, 0.0);

  // Another block size after a's timed launches moved acc on: acc is restored before the check.
  const RunOutcome b = runner.run(twiceModule(session, cubin, "twice", 512), opt, nullptr);
  ASSERT_EQ(b.status, RunStatus::kOk) << b.reason;
  EXPECT_TRUE(b.check.ok) << b.check.message;
  EXPECT_EQ(b.check.mismatches, 0);
  EXPECT_DOUBLE_EQ(b.check.max_abs_error, 0.0);  // the same arithmetic per element
  EXPECT_EQ(b.check.compared_with, "the outputs of twice block 128 (the first config that ran)");

  const RunOutcome w = runner.run(twiceModule(session, cubin, "twice_wrong", 256), opt, nullptr);
  EXPECT_EQ(w.status, RunStatus::kWrongResult);
  EXPECT_EQ(w.check.mismatches, 1);
  EXPECT_EQ(w.reason.rfind("out: 1 of 1048613 elements differ; worst [5]: got ", 0), 0u) << w.reason;
  EXPECT_NE(w.reason.find(" (1 mismatches in all outputs)"), std::string::npos) << w.reason;
  EXPECT_EQ(w.check.compared_with, "the outputs of twice block 128 (the first config that ran)");

  const RunOutcome n = runner.run(twiceModule(session, cubin, "writes_nothing", 256), opt, nullptr);
  EXPECT_EQ(n.status, RunStatus::kWrongResult);
  EXPECT_EQ(n.reason.rfind(
                "out: not written: all 1048613 elements still hold the poison (0xFF bytes, NaN) after the launch (", 0),
            0u)
      << n.reason;

  // A grid one block short: the tail of out stays poisoned, acc's tail keeps its initial values.
  const RunOutcome s = runner.run(twiceModule(session, cubin, "twice", 256, kN / 256), opt, nullptr);
  EXPECT_EQ(s.status, RunStatus::kWrongResult);
  EXPECT_EQ(s.check.mismatches, 2 * 37) << s.reason;
  EXPECT_EQ(s.reason.rfind("out: 37 of 1048613 elements differ; worst [1048576]: got -nan", 0), 0u) << s.reason;

  // And the good config still agrees after all of that.
  const RunOutcome again = runner.run(twiceModule(session, cubin, "twice", 1024), opt, nullptr);
  EXPECT_EQ(again.status, RunStatus::kOk) << again.reason;
  EXPECT_EQ(again.check.compared_with, "the outputs of twice block 128 (the first config that ran)");

  // A new problem starts without a reference.
  ASSERT_FALSE(runner.setBufferProblem(twiceProblem()));
  const RunOutcome fresh = runner.run(twiceModule(session, cubin, "twice", 512), opt, nullptr);
  ASSERT_EQ(fresh.status, RunStatus::kOk) << fresh.reason;
  EXPECT_EQ(fresh.check.compared_with, "nothing: these outputs are the reference");

  // The family problem still works after a buffer problem, checked against the CPU reference.
  const ProblemSpec ps{Workload::kSum, DType::kF32, 1, 1024, 4096, 1, false};
  ASSERT_FALSE(runner.setProblem(ps));
  auto g = generateKernel(test::config(Workload::kSum, DType::kF32, 1, 1024, 4, 4096));
  ASSERT_TRUE(g);
  auto c = test::compileFor(session, *g);
  ASSERT_TRUE(c) << c.error();
  const RunOutcome f = runner.run(test::moduleOf(session, *g, c->cubin, 1024, 4096), opt, nullptr);
  EXPECT_EQ(f.status, RunStatus::kOk) << f.reason;
  EXPECT_EQ(f.check.compared_with, "the CPU reference");
  (void)runner.clearProblem();
}

}  // namespace

TEST(GpuBufferProblem, TwoBlockSizesAgreeAndWrongConfigsAreCaughtInProcess) {
  OCCX_REQUIRE_GPU(session);
  checkAcrossConfigs(*session, *session);
}

TEST(GpuBufferProblem, TwoBlockSizesAgreeAndWrongConfigsAreCaughtThroughTheWorker) {
  OCCX_REQUIRE_GPU(session);
  WorkerOptions o;
  o.program = OCCX_GPU_WORKER_PROGRAM;
  o.arguments = {"--device", "0"};
  auto worker = WorkerRunner::start(o);
  ASSERT_TRUE(worker) << worker.error();
  checkAcrossConfigs(**worker, *session);
  EXPECT_EQ((*worker)->restarts(), 0);
}

TEST(GpuBufferProblem, OutOfMemoryIsACleanErrorAndTheSessionRecovers) {
  OCCX_REQUIRE_GPU(session);
  session->clearProblem();
  session->setDeviceMemoryLimit(std::int64_t{256} << 20);
  BufferProblemSpec big;
  big.label = "1 GiB";
  big.buffers = {{"in", ElementType::kF32, std::int64_t{1} << 28, BufferSpec::Role::kInput, {}},
                 {"out", ElementType::kF32, 16, BufferSpec::Role::kOutput, {}}};
  auto e = session->setBufferProblem(big);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->message.rfind("out of memory: input buffer 0 (in) needs 1 GiB, over the session's limit of 256 MiB", 0),
            0u)
      << e->message;
  const auto cubin = twiceCubin(*session);
  const RunOutcome o = session->run(twiceModule(*session, cubin, "twice", 256), test::quickRun());
  EXPECT_EQ(o.status, RunStatus::kOutOfMemory);
  EXPECT_EQ(o.reason, e->message);
  session->setDeviceMemoryLimit(0);
  ASSERT_FALSE(session->setBufferProblem(twiceProblem()));
  EXPECT_EQ(session->run(twiceModule(*session, cubin, "twice", 256), test::quickRun()).status, RunStatus::kOk);
  session->clearProblem();
}
