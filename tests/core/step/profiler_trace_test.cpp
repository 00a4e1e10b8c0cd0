// The profiler trace reader: Kineto's Chrome-trace JSON as torch.profiler writes it (the events'
// shapes are copied from the traces recorded on an H200 in tests/data/inductor/step_*), plain and
// gzipped, with steps, broken and hostile input.
#include "core/step/profiler_trace.h"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "tests/support/inductor_scan.h"

namespace occx::step {
namespace {

// Two ProfilerSteps, each launching one Triton kernel (cuLaunchKernel, driver) and one library
// kernel (cudaLaunchKernel, runtime); a memset; a kernel launched outside the steps.
const char* kTwoSteps = R"json({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA H200", "computeMajor": 9, "computeMinor": 0, "numSms": 132}],
  "traceEvents": [
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100.0, "dur": 100.0},
  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 200.0, "dur": 100.0},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "ts": 110.0, "dur": 2.0, "args": {"correlation": 11}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 120.0, "dur": 2.0, "args": {"correlation": 12}},
  {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "ts": 210.0, "dur": 2.0, "args": {"correlation": 21}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 220.0, "dur": 2.0, "args": {"correlation": 22}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemsetAsync", "ts": 230.0, "dur": 1.0, "args": {"correlation": 23}},
  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "ts": 50.0, "dur": 1.0, "args": {"correlation": 5}},
  {"ph": "s", "id": 11, "cat": "ac2g", "name": "ac2g", "ts": 110.0},
  {"ph": "X", "cat": "kernel", "name": "triton_red_fused_sum_0", "pid": 0, "tid": 7, "ts": 1000.0, "dur": 12.5,
   "args": {"External id": 3, "device": 0, "stream": 7, "correlation": 11, "registers per thread": 39,
            "shared memory": 2048, "grid": [2048, 1, 1], "block": [256, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "nvjet_sm90_hsh_128x256_64x4_2x1_v_bz_coopA_TNN", "ts": 1020.0, "dur": 30.0,
   "args": {"correlation": 12, "stream": 7, "grid": [66, 2, 1], "block": [384, 1, 1]}},
  {"ph": "X", "cat": "kernel", "name": "triton_red_fused_sum_0", "ts": 2000.0, "dur": 13.5,
   "args": {"correlation": 21, "stream": 7, "grid": [2048, 1, 1], "block": [256, 1, 1], "registers per thread": 39}},
  {"ph": "X", "cat": "kernel", "name": "nvjet_sm90_hsh_128x256_64x4_2x1_v_bz_coopA_TNN", "ts": 2020.0, "dur": 31.0,
   "args": {"correlation": 22, "stream": 7, "grid": [66, 2, 1], "block": [384, 1, 1]}},
  {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "ts": 2060.0, "dur": 1.0,
   "args": {"correlation": 23, "stream": 7}},
  {"ph": "X", "cat": "kernel", "name": "void at::native::vectorized_elementwise_kernel<4>", "ts": 500.0, "dur": 3.0,
   "args": {"correlation": 5, "stream": 7, "grid": [1, 1, 1], "block": [128, 1, 1]}},
  {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#1", "ts": 1000.0, "dur": 60.0}
  ],
  "traceName": "x.pt.trace.json"
})json";

TEST(ProfilerTrace, KeepsGpuActivitiesAndAssignsEachToTheStepThatLaunchedIt) {
  auto t = parseProfilerTrace(kTwoSteps, "two.json");
  ASSERT_TRUE(t.hasValue()) << t.error();
  EXPECT_EQ(t->device_name, "NVIDIA H200");
  EXPECT_EQ(t->compute_major, 9);
  EXPECT_TRUE(t->annotated_steps);
  EXPECT_EQ(t->step_count, 2);
  ASSERT_EQ(t->steps.size(), 2U);
  EXPECT_EQ(t->steps[0].name, "ProfilerStep#1");
  EXPECT_EQ(t->steps[1].number, 2);
  ASSERT_EQ(t->activities.size(), 6U);
  const GpuActivity& first = t->activities[0];
  EXPECT_EQ(first.name, "triton_red_fused_sum_0");
  EXPECT_DOUBLE_EQ(first.duration_us, 12.5);
  EXPECT_EQ(first.grid[0], 2048);
  EXPECT_EQ(first.block[0], 256);
  EXPECT_EQ(first.registers_per_thread, 39);
  EXPECT_EQ(first.shared_bytes, 2048);
  EXPECT_EQ(first.stream, 7);
  EXPECT_EQ(first.step, 0);
  EXPECT_EQ(t->activities[2].step, 1);
  EXPECT_EQ(t->activities[4].kind, GpuActivityKind::kMemset);
  EXPECT_EQ(t->activities[4].step, 1);
  EXPECT_EQ(t->activities[5].step, -1);  // launched at 50 µs, before ProfilerStep#1
  EXPECT_EQ(t->outside_steps, 1);
  EXPECT_EQ(t->events, 16);
  EXPECT_TRUE(t->problems.empty());
}

TEST(ProfilerTrace, WithoutAnnotationsTheWholeTraceIsTheUsersStepCount) {
  const std::string bare = R"json([
    {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "ts": 10, "dur": 4, "args": {"grid": [8,1,1]}},
    {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "ts": 20, "dur": 6}
  ])json";
  TraceReadOptions options;
  options.steps_when_unannotated = 3;
  auto t = parseProfilerTrace(bare, "bare.json", options);
  ASSERT_TRUE(t.hasValue()) << t.error();
  EXPECT_FALSE(t->annotated_steps);
  EXPECT_EQ(t->step_count, 3);
  ASSERT_EQ(t->steps.size(), 1U);
  EXPECT_EQ(t->steps[0].name, "whole trace");
  EXPECT_DOUBLE_EQ(t->steps[0].begin_us, 10.0);
  EXPECT_DOUBLE_EQ(t->steps[0].end_us, 26.0);
  EXPECT_EQ(t->activities[1].step, 0);
  EXPECT_EQ(t->activities[1].grid[0], 0);  // no grid in the event
}

TEST(ProfilerTrace, StepCountOutOfRangeIsRefusedWithTheRange) {
  TraceReadOptions options;
  options.steps_when_unannotated = 0;
  auto t = parseProfilerTrace("[]", "x.json", options);
  ASSERT_FALSE(t.hasValue());
  EXPECT_EQ(t.error(),
            "steps 0 is out of range: allowed 1 … 1000000 (the steps the trace holds when it has no ProfilerStep "
            "annotations)");
}

TEST(ProfilerTrace, BrokenJsonKeepsTheEventsBeforeItAndNamesTheByteOffset) {
  std::string text = kTwoSteps;
  const std::size_t cut = text.find("{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"nvjet");
  ASSERT_NE(cut, std::string::npos);
  text = text.substr(0, cut) + "{\"ph\": oops";
  auto t = parseProfilerTrace(text, "broken.json");
  ASSERT_TRUE(t.hasValue()) << t.error();
  ASSERT_EQ(t->activities.size(), 1U);  // the first Triton kernel, complete before the damage
  ASSERT_EQ(t->problems.size(), 1U);
  EXPECT_NE(t->problems[0].find("broken.json: not valid JSON at byte " + std::to_string(cut + 8) + " of the JSON text"),
            std::string::npos)
      << t->problems[0];
  EXPECT_NE(t->problems[0].find("the 10 events before it were read"), std::string::npos) << t->problems[0];
}

TEST(ProfilerTrace, TextThatIsNoTraceIsAnErrorNamingTheFile) {
  auto garbage = parseProfilerTrace("\x89PNG\r\n", "picture.png");
  ASSERT_FALSE(garbage.hasValue());
  EXPECT_NE(
      garbage.error().find("picture.png is not a Chrome trace (what torch.profiler's export_chrome_trace writes)"),
      std::string::npos)
      << garbage.error();
  auto other_json = parseProfilerTrace(R"json({"name": "not a trace"})json", "config.json");
  ASSERT_FALSE(other_json.hasValue());
  EXPECT_EQ(other_json.error(),
            "config.json is not a Chrome trace (what torch.profiler's export_chrome_trace writes): no \"traceEvents\" "
            "array");
}

TEST(ProfilerTrace, HostileValuesAreClampedNotTrusted) {
  const std::string text = R"json({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "ts": 1e308, "dur": -5,
     "args": {"grid": [1e30, -4, 99999999999999, 7, 8], "block": "x", "registers per thread": 1e40, "device": -9}}
  ]})json";
  auto t = parseProfilerTrace(text, "hostile.json");
  ASSERT_TRUE(t.hasValue()) << t.error();
  ASSERT_EQ(t->activities.size(), 1U);
  const GpuActivity& a = t->activities[0];
  EXPECT_DOUBLE_EQ(a.duration_us, 0.0);
  EXPECT_EQ(a.grid[0], 0);  // 1e30 does not fit an integer: taken as unknown
  EXPECT_EQ(a.grid[1], 0);
  EXPECT_EQ(a.grid[2], std::int64_t{1} << 31);
  EXPECT_EQ(a.registers_per_thread, -1);
  EXPECT_EQ(a.device, -1);
}

TEST(ProfilerTrace, NestingBeyondAnyTraceStopsTheReadWithWhere) {
  std::string text =
      R"json({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2}, {"args": )json";
  const std::size_t before = text.size();
  text += std::string(100, '[');
  auto t = parseProfilerTrace(text, "deep.json");
  ASSERT_TRUE(t.hasValue()) << t.error();
  ASSERT_EQ(t->activities.size(), 1U);
  ASSERT_EQ(t->problems.size(), 1U);
  // Root, traceEvents, the event and 61 brackets are open when the 62nd is refused.
  EXPECT_EQ(t->problems[0], "deep.json: arrays and objects nested deeper than 64 levels at byte " +
                                std::to_string(before + 62) +
                                " of the JSON text (not a trace Kineto writes); the 1 events before it were read");
}

TEST(ProfilerTrace, StepsFromGpuAnnotationsAloneAreSaidToBeGpuSpans) {
  const std::string text = R"json({"traceEvents": [
    {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#7", "ts": 100, "dur": 50},
    {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "ts": 110, "dur": 5},
    {"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "ts": 170, "dur": 5}
  ]})json";
  auto t = parseProfilerTrace(text, "gpu.json");
  ASSERT_TRUE(t.hasValue()) << t.error();
  EXPECT_TRUE(t->annotated_steps);
  EXPECT_TRUE(t->steps_on_gpu);
  EXPECT_EQ(t->steps[0].number, 7);
  EXPECT_EQ(t->activities[0].step, 0);
  EXPECT_EQ(t->activities[1].step, -1);
  EXPECT_EQ(t->outside_steps, 1);
}

class TraceFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("occx-trace-" + std::to_string(::getpid()) + "-" +
                                                     ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string write(const std::string& name, const std::string& bytes) {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
  }
  static std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  std::filesystem::path dir_;
};

const std::string kRecordedTrace = testing_support::inductorFixture("step_gpt2/trace.pt.trace.json.gz");

TEST_F(TraceFile, ReadsTheRecordedGzippedTraceAndTheSameTextPlain) {
  auto gz = readProfilerTrace(kRecordedTrace);
  ASSERT_TRUE(gz.hasValue()) << gz.error();
  EXPECT_TRUE(gz->gzipped);
  EXPECT_TRUE(gz->problems.empty());
  EXPECT_EQ(gz->device_name, "NVIDIA H200");
  EXPECT_EQ(gz->step_count, 2);
  EXPECT_EQ(gz->events, 2071);
  EXPECT_EQ(gz->outside_steps, 0);
  EXPECT_EQ(gz->activities.size(), 330U);  // 318 kernels and 12 memsets
  EXPECT_EQ(gz->bytes_read, std::filesystem::file_size(kRecordedTrace));

  // The same trace plain: gunzip it by reading it (zlib passes plain text through too).
  std::string json;
  {
    gzFile f = gzopen(kRecordedTrace.c_str(), "rb");
    ASSERT_NE(f, nullptr);
    char buffer[65536];
    int n = 0;
    while ((n = gzread(f, buffer, sizeof buffer)) > 0) json.append(buffer, static_cast<std::size_t>(n));
    gzclose(f);
  }
  auto plain = readProfilerTrace(write("trace.json", json));
  ASSERT_TRUE(plain.hasValue()) << plain.error();
  EXPECT_FALSE(plain->gzipped);
  EXPECT_EQ(plain->json_bytes, json.size());
  ASSERT_EQ(plain->activities.size(), gz->activities.size());
  for (std::size_t i = 0; i < plain->activities.size(); ++i) {
    EXPECT_EQ(plain->activities[i].name, gz->activities[i].name);
    EXPECT_EQ(plain->activities[i].step, gz->activities[i].step);
  }
}

TEST_F(TraceFile, AGzipCutShortKeepsWhatWasReadAndSaysWhere) {
  const std::string bytes = slurp(kRecordedTrace);
  const std::string path = write("cut.json.gz", bytes.substr(0, bytes.size() / 2));
  auto t = readProfilerTrace(path);
  ASSERT_TRUE(t.hasValue()) << t.error();
  ASSERT_FALSE(t->problems.empty());
  EXPECT_NE(t->problems[0].find(path + ": the gzip data is damaged or ends early after"), std::string::npos)
      << t->problems[0];
  EXPECT_GT(t->activities.size(), 0U);
  EXPECT_LT(t->activities.size(), 330U);
}

TEST_F(TraceFile, MissingFilesFoldersAndPipesAreRefusedByName) {
  auto missing = readProfilerTrace((dir_ / "absent.json").string());
  ASSERT_FALSE(missing.hasValue());
  EXPECT_EQ(missing.error(), "cannot open trace " + (dir_ / "absent.json").string() + ": no such file");
  auto folder = readProfilerTrace(dir_.string());
  ASSERT_FALSE(folder.hasValue());
  EXPECT_NE(folder.error().find("not a regular file"), std::string::npos);
  const std::string fifo = (dir_ / "pipe.json").string();
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  auto pipe = readProfilerTrace(fifo);  // must not block waiting for a writer
  ASSERT_FALSE(pipe.hasValue());
  EXPECT_NE(pipe.error().find("not a regular file"), std::string::npos);
}

TEST_F(TraceFile, CancelStopsTheReadAndReportsProgressAlongTheWay) {
  // A plain trace of ~10 MB: many kernel events.
  std::string json = "{\"traceEvents\": [";
  for (int i = 0; i < 60000; ++i) {
    json += std::string(i ? "," : "") +
            R"json({"ph": "X", "cat": "kernel", "name": "triton_poi_fused_add_0", "ts": )json" + std::to_string(i) +
            R"json(, "dur": 1.5, "args": {"grid": [4, 1, 1], "block": [128, 1, 1], "stream": 7}})json";
  }
  json += "]}";
  const std::string path = write("big.json", json);
  int calls = 0;
  TraceReadOptions options;
  options.progress = [&](const TraceReadProgress& p) {
    ++calls;
    EXPECT_EQ(p.file_bytes, json.size());
  };
  auto whole = readProfilerTrace(path, options);
  ASSERT_TRUE(whole.hasValue()) << whole.error();
  EXPECT_EQ(whole->activities.size(), 60000U);
  EXPECT_GE(calls, 2);
  std::atomic<bool> cancel{true};
  options.cancel = &cancel;
  auto stopped = readProfilerTrace(path, options);
  EXPECT_TRUE(stopped.cancelled());
}

}  // namespace
}  // namespace occx::step
