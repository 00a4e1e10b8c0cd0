// The backends that need no GPU: the offline one (everything unavailable, with reasons) and
// workerBackend over the fake GPU worker (its GPUs, runners and live availability come from the
// worker process alone; compiling stays the base's).
#include "core/sweep/backend.h"

#include <gtest/gtest.h>

namespace occx {
namespace {

TEST(OfflineBackend, SaysWhatIsUnavailableAndRunsNothing) {
  auto backend = offlineBackend();
  EXPECT_FALSE(backend->compileAvailability().available);
  EXPECT_FALSE(backend->liveAvailability().available);
  EXPECT_TRUE(backend->detectedGpus().empty());
  EXPECT_FALSE(backend->compiler());
  CompileCache cache("");
  EXPECT_FALSE(backend->compilerWithCache(cache));
  const CrossCheck check = backend->crossCheck(CompileResult{});
  EXPECT_EQ(check.state, CrossCheck::State::kSkipped);
  EXPECT_EQ(check.note, backend->liveAvailability().reason);
  auto runner = backend->startGpuRunner(0);
  ASSERT_FALSE(runner);
  EXPECT_EQ(runner.error(), backend->liveAvailability().reason);
}

TEST(WorkerBackend, TakesTheGpusAndRunnersFromTheWorkerAndCompilingFromTheBase) {
  auto backend = workerBackend(offlineBackend(), OCCX_FAKE_GPU_WORKER);
  EXPECT_TRUE(backend->liveAvailability().available) << backend->liveAvailability().reason;
  // The fake ignores --device and always answers as device 0: one GPU.
  const auto gpus = backend->detectedGpus();
  ASSERT_EQ(gpus.size(), 1U);
  EXPECT_EQ(gpus[0].name, "Fake H200");
  EXPECT_EQ(gpus[0].cc, (ComputeCapability{9, 0}));
  auto runner = backend->startGpuRunner(0);
  ASSERT_TRUE(runner) << runner.error();
  auto bw = (*runner)->copyBandwidth(false);
  ASSERT_TRUE(bw) << bw.error();
  EXPECT_DOUBLE_EQ(bw->GBps, 4271.0);
  // The shared runner (what the GUI's views use) is the same worker program.
  std::string name;
  EXPECT_FALSE(backend->withGpuRunner(0, [&](GpuRunner& r) { name = r.device().name; }));
  EXPECT_EQ(name, "Fake H200");
  EXPECT_FALSE(backend->compileAvailability().available);  // the offline base's answer
}

TEST(WorkerBackend, AWorkerThatCannotStartMeansNoGpuWithTheReason) {
  auto backend = workerBackend(offlineBackend(), "/nonexistent/occx-gpu-worker");
  const Availability live = backend->liveAvailability();
  EXPECT_FALSE(live.available);
  EXPECT_NE(live.reason.find("/nonexistent/occx-gpu-worker"), std::string::npos) << live.reason;
  EXPECT_TRUE(backend->detectedGpus().empty());
  EXPECT_TRUE(backend->withGpuRunner(0, [](GpuRunner&) { FAIL() << "no runner expected"; }).has_value());
}

}  // namespace
}  // namespace occx
