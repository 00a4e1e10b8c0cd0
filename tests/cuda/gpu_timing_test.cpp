// The device as the driver reports it, the measured copy bandwidth against the datasheet, and the
// timing of a run (events, CUPTI records, CUPTI metrics where permitted). Skips without a GPU.
#include <gtest/gtest.h>

#include "core/cuda/cupti_support.h"
#include "core/cuda/device.h"
#include "core/gpu/gpu_data.h"
#include "core/kernels/live_problem.h"
#include "gpu_test_support.h"

using namespace occx;

TEST(GpuDevice, DriverFiguresMatchTheGpuData) {
  OCCX_REQUIRE_GPU(session);
  const auto& d = session->device();
  EXPECT_FALSE(d.name.empty());
  EXPECT_EQ(d.uuid.rfind("GPU-", 0), 0u) << d.uuid;
  EXPECT_GE(d.cc, (ComputeCapability{5, 0}));
  EXPECT_GT(d.sm_count, 0);
  EXPECT_EQ(d.registers_per_sm, 65536);  // every CC 5.0 … 12.x (Programming Guide)
  EXPECT_EQ(d.warp_size, 32);
  EXPECT_GT(d.l2_bytes, 0);
  EXPECT_GT(d.theoreticalBandwidthGBps(), 0.0);
  const ArchLimits* a = GpuDatabase::builtin().findArch(d.cc);
  ASSERT_NE(a, nullptr) << "CC " << d.cc.str() << " is missing from the GPU data";
  EXPECT_EQ(d.max_threads_per_sm, a->maxThreadsPerSm());
  EXPECT_EQ(d.max_blocks_per_sm, a->max_blocks_per_sm);
  EXPECT_EQ(d.shared_memory_per_block_optin, a->shared_memory_per_block_optin);
  EXPECT_EQ(d.reserved_shared_memory_per_block, a->reserved_shared_memory_per_block);
  if (!d.matched_gpu.empty()) {
    // Occupancy's inputs must agree with the data; datasheet memory figures are only reported (the
    // H200's driver reports a 6016-bit bus where the datasheet says 6144).
    for (const auto& m : d.data_mismatches) {
      if (m.rfind("memory bus bits", 0) == 0) {
        std::cout << "note: " << m << "\n";
      } else {
        ADD_FAILURE() << m;
      }
    }
  }
  std::cout << "device: " << d.label() << ", data: " << (d.matched_gpu.empty() ? "(no match)" : d.matched_gpu)
            << ", theoretical " << d.theoreticalBandwidthGBps() << " GB/s, driver " << session->driverVersionText()
            << "\n";
}

TEST(GpuDevice, CopyBandwidthWithinHalfOfTheDatasheet) {
  OCCX_REQUIRE_GPU(session);
  const auto& d = session->device();
  const GpuSpec* g = GpuDatabase::builtin().findGpu(d.matched_gpu);
  if (g == nullptr || g->memory_bandwidth_GBps <= 0)
    GTEST_SKIP() << d.name << " has no datasheet bandwidth in the GPU data";
  auto bw = session->measureCopyBandwidth(std::int64_t{1} << 30, 10);
  ASSERT_TRUE(bw) << bw.error();
  std::cout << "copy: " << bw->GBps << " GB/s (median " << bw->median_us << " us for 2 x 1 GiB), datasheet "
            << g->memory_bandwidth_GBps << " GB/s\n";
  EXPECT_GT(bw->GBps, 0.5 * g->memory_bandwidth_GBps);
  EXPECT_LT(bw->GBps, 1.5 * g->memory_bandwidth_GBps);
  EXPECT_LE(bw->min_us, bw->median_us);
  EXPECT_LE(bw->median_us, bw->max_us);
  EXPECT_EQ(bw->runs, 10);
  EXPECT_EQ(bw->bytes_per_copy, std::int64_t{1} << 30);
}

TEST(GpuTiming, SanePositiveTimesAndBandwidth) {
  OCCX_REQUIRE_GPU(session);
  auto p = makeHostProblem(test::problemSpec(Workload::kSum, DType::kF16, 4096, 8192));
  ASSERT_TRUE(p);
  const auto bytes = p->bytes.total();
  ASSERT_FALSE(session->setProblem(std::make_shared<const HostProblem>(std::move(p).value())));
  auto g = generateKernel(test::config(Workload::kSum, DType::kF16, 1, 2048, 16, 8192));
  ASSERT_TRUE(g);
  auto c = test::compileFor(*session, *g);
  ASSERT_TRUE(c) << c.error();
  RunOptions opt;
  opt.min_timed_runs = 30;
  opt.max_timed_runs = 60;
  opt.cupti_metrics = true;
  auto out = session->run(test::moduleOf(*session, *g, c->cubin, 4096, 8192), opt);
  ASSERT_EQ(out.status, RunStatus::kOk) << out.reason;
  EXPECT_GE(out.time.runs, 30);
  EXPECT_LE(out.time.runs, 60);
  EXPECT_GT(out.time.min_us, 0.0);
  EXPECT_LE(out.time.min_us, out.time.median_us);
  EXPECT_LE(out.time.median_us, out.time.max_us);
  EXPECT_GE(out.warmup_runs, opt.min_warmup_runs);
  EXPECT_EQ(out.bytes_moved, bytes);
  // Warm: as many launches again, the 64 MiB input just written by a copy (part of it in L2).
  ASSERT_TRUE(out.warm_time) << out.warm_note;
  EXPECT_EQ(out.warm_time->runs, out.time.runs);
  EXPECT_GT(out.warm_time->median_us, 0.0);
  EXPECT_LE(*out.warmTimeUs(), out.timeUs() * 1.05);  // never slower than cold beyond noise
  // The bandwidth by the one rule: DRAM bytes over the cold device time where profiling is
  // permitted, else the minimum bytes over it (under the copy bandwidth: this kernel reads its input once).
  if (out.dram_read_bytes.value && out.dram_write_bytes.value) {
    EXPECT_EQ(out.bandwidth_from, "DRAM bytes");
    EXPECT_NEAR(out.bandwidth_GBps,
                (*out.dram_read_bytes.value + *out.dram_write_bytes.value) / (out.timeUs() * 1e-6) / 1e9, 1e-6);
  }
  // A memory-bound kernel cannot beat the memory system by much (L2 is flushed before each run).
  EXPECT_LT(out.bandwidth_GBps, 1.05 * session->device().theoreticalBandwidthGBps());
  EXPECT_GT(out.bandwidth_GBps, 0.0) << out.bandwidth_from;
  std::cout << "sum fp16 4096 x 8192: " << timeText(out) << "; " << bandwidthText(out) << ", spread "
            << out.time.spread_pct << " %\n";
  // CUPTI's kernel records arrive for every timed launch (turned on before the context exists);
  // only a machine without libcupti may lack them, and then the reason says so.
  if (!out.kernel_time) {
    EXPECT_NE(out.reason.find("libcupti"), std::string::npos)
        << "CUPTI is there but records are missing: " << out.reason;
  }
  if (out.kernel_time) {
    // CUPTI's kernel duration excludes the launch gap the events include.
    EXPECT_GT(out.kernel_time->median_us, 0.0);
    EXPECT_LE(out.kernel_time->median_us, out.time.median_us * 1.05);
    EXPECT_GT(out.kernel_time->median_us, out.time.median_us * 0.5);
    EXPECT_EQ(out.kernel_time->runs, out.time.runs);
    std::cout << "CUPTI kernel median " << out.kernel_time->median_us << " us\n";
  } else {
    EXPECT_FALSE(out.reason.empty()) << "no CUPTI records and no reason";
    std::cout << "CUPTI: " << out.reason << "\n";
  }
  // Metrics: values, or every column says why not.
  const Metric* all[] = {&out.achieved_occupancy_pct, &out.dram_read_bytes, &out.dram_write_bytes,
                         &out.local_load_bytes, &out.local_store_bytes};
  if (out.achieved_occupancy_pct.value) {
    std::cout << "achieved occupancy " << *out.achieved_occupancy_pct.value << " %, DRAM read "
              << out.dram_read_bytes.text(0) << " B, local loads " << out.local_load_bytes.text(0) << " B\n";
    EXPECT_GT(*out.achieved_occupancy_pct.value, 0.0);
    EXPECT_LE(*out.achieved_occupancy_pct.value, 100.0);
    ASSERT_TRUE(out.dram_read_bytes.value);
    // The kernel reads the 64 MiB input once: DRAM reads within 10 % of that.
    EXPECT_NEAR(*out.dram_read_bytes.value, 4096.0 * 8192 * 2, 0.1 * 4096.0 * 8192 * 2);
    ASSERT_TRUE(out.local_load_bytes.value);
    EXPECT_EQ(*out.local_load_bytes.value, 0.0);  // this config does not spill
  } else {
    for (const Metric* m : all) {
      EXPECT_FALSE(m->value.has_value());
      EXPECT_FALSE(m->unavailable.empty());
    }
    std::cout << "CUPTI metrics: " << out.achieved_occupancy_pct.text() << "\n";
  }
  session->clearProblem();
}
