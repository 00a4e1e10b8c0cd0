// NVRTC compilation of the kernel family: real registers and spills, no GPU needed. These run in CI
// on a machine with the CUDA Toolkit and no driver; the driver cross-check runs where a GPU is.
#include <gtest/gtest.h>

#include <filesystem>
#include <thread>

#include "core/cuda/driver_api.h"
#include "core/cuda/nvrtc_compiler.h"
#include "core/kernels/compile_cache.h"
#include "core/kernels/kernel_family.h"
#include "core/sweep/compile_sweep.h"
#include "tests/support/arch_support.h"

namespace occx {
namespace {

using test::kernelConfig;

namespace fs = std::filesystem;

class NvrtcTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (cuda::nvrtcSupportedArchitectures().empty())
      GTEST_SKIP() << "NVRTC reports no architectures (toolkit unusable)";
  }
  /// Compiles one config of the family for `arch` without a cache.
  static Expected<CompileResult> compile(const KernelConfig& c, ComputeCapability arch = {9, 0},
                                         const cuda::NvrtcCompiler& compiler = cuda::NvrtcCompiler()) {
    auto g = generateKernel(c);
    if (!g) return Error{g.error()};
    CompileRequest r;
    r.source = g->source;
    r.kernel_name = g->name;
    r.arch = arch;
    return compiler.compile(r);
  }
};

TEST_F(NvrtcTest, VersionAndArchitectures) {
  EXPECT_EQ(cuda::nvrtcVersionString().rfind("NVRTC ", 0), 0u);
  const auto archs = cuda::nvrtcSupportedArchitectures();
  EXPECT_TRUE(std::is_sorted(archs.begin(), archs.end()));
  const auto offered = cuda::offeredArchitectures(GpuDatabase::builtin());
  // sm_80 and sm_90 (the architectures of the reference data) are always offered.
  EXPECT_NE(std::find(offered.begin(), offered.end(), ComputeCapability{8, 0}), offered.end());
  EXPECT_NE(std::find(offered.begin(), offered.end(), ComputeCapability{9, 0}), offered.end());
  for (const auto& cc : offered) EXPECT_NE(GpuDatabase::builtin().findArch(cc), nullptr) << cc.str();
}

TEST_F(NvrtcTest, RegistersGrowWithTheTileElementsPerThread) {
  // mean_var fp32, XBLOCK 1, 4 warps: RBLOCK 256 … 4096 gives 2 … 32 elements per thread per tile,
  // 3 tiles. Each doubling must cost registers (no spills yet up to 4096).
  std::vector<int> regs;
  for (int r : {256, 512, 1024, 2048, 4096}) {
    auto res = compile(kernelConfig(Workload::kMeanVar, DType::kF32, 1, r, 4));
    ASSERT_TRUE(res) << res.error();
    EXPECT_FALSE(res->report.spills()) << "RBLOCK " << r;
    regs.push_back(res->report.registers);
  }
  for (std::size_t i = 1; i < regs.size(); ++i) EXPECT_GT(regs[i], regs[i - 1]) << "step " << i;
  // 96 accumulator values per thread at RBLOCK 4096 need at least that many registers.
  EXPECT_GE(regs.back(), 96);
  // The same holds along XBLOCK: 2 rows of RBLOCK 1024 cost more than one.
  auto one = compile(kernelConfig(Workload::kSum, DType::kF16, 1, 1024, 1));
  auto two = compile(kernelConfig(Workload::kSum, DType::kF16, 2, 1024, 1));
  ASSERT_TRUE(one);
  ASSERT_TRUE(two);
  EXPECT_GT(two->report.registers, one->report.registers);
}

TEST_F(NvrtcTest, BigTileSpillsSmallTileDoesNot) {
  // 128 elements per thread × 3 Welford tiles = 384 values: over the 255-register limit.
  auto big = compile(kernelConfig(Workload::kMeanVar, DType::kF32, 1, 8192, 2));
  ASSERT_TRUE(big) << big.error();
  EXPECT_EQ(big->report.registers, 255);
  EXPECT_GT(big->report.spill_stores_bytes, 0);
  EXPECT_GT(big->report.spill_loads_bytes, 0);
  EXPECT_GT(big->report.nSpills(), 16);          // Inductor's autotuner would exclude it
  EXPECT_EQ(big->report.static_smem_bytes, 24);  // as the layout predicts: 2 warps × 3 fp32
  auto small = compile(kernelConfig(Workload::kMeanVar, DType::kF32, 1, 512, 2));
  ASSERT_TRUE(small) << small.error();
  EXPECT_FALSE(small->report.spills());
  EXPECT_EQ(small->report.stack_frame_bytes, 0);
  EXPECT_LT(small->report.registers, 64);
  EXPECT_FALSE(big->cubin.empty());
}

TEST_F(NvrtcTest, RegisterCapFollowsMaxRegisters) {
  // log_softmax fp32, RBLOCK 16384, 32 warps: about 49 registers uncapped; capped at 32 it spills.
  auto c = kernelConfig(Workload::kLogSoftmax, DType::kF32, 1, 16384, 32);
  auto free = compile(c);
  ASSERT_TRUE(free);
  EXPECT_GT(free->report.registers, 32);
  c.max_registers = 32;
  auto capped = compile(c);
  ASSERT_TRUE(capped) << capped.error();
  EXPECT_LE(capped->report.registers, 32);
  EXPECT_GT(capped->report.spill_stores_bytes, 0);
}

TEST_F(NvrtcTest, SameConfigTwiceSameRegistersAndTheSecondIsACacheHit) {
  const fs::path dir = fs::path(::testing::TempDir()) / "occx_nvrtc_cache_test";
  fs::remove_all(dir);
  CompileCache cache(dir.string());
  cuda::NvrtcCompiler compiler(&cache);
  auto c = kernelConfig(Workload::kLogSoftmax, DType::kF16, 1, 2048, 16);
  auto first = compile(c, {8, 0}, compiler);
  auto second = compile(c, {8, 0}, compiler);
  ASSERT_TRUE(first) << first.error();
  ASSERT_TRUE(second) << second.error();
  EXPECT_FALSE(first->cache_hit);
  EXPECT_TRUE(second->cache_hit);
  EXPECT_EQ(first->report.registers, second->report.registers);
  EXPECT_EQ(first->report.spill_stores_bytes, second->report.spill_stores_bytes);
  EXPECT_EQ(first->report.static_smem_bytes, second->report.static_smem_bytes);
  EXPECT_EQ(first->cubin, second->cubin);
  EXPECT_EQ(first->log, second->log);
  EXPECT_EQ(cache.stats().hits, 1);
  EXPECT_EQ(cache.stats().misses, 1);
  EXPECT_EQ(cache.stats().stores, 1);
  // Another architecture is another entry.
  auto sm90 = compile(c, {9, 0}, compiler);
  ASSERT_TRUE(sm90);
  EXPECT_FALSE(sm90->cache_hit);
  // Without a cache the compile is repeated and gives the same registers.
  auto again = compile(c, {8, 0});
  ASSERT_TRUE(again);
  EXPECT_FALSE(again->cache_hit);
  EXPECT_EQ(again->report.registers, first->report.registers);
  fs::remove_all(dir);
}

TEST_F(NvrtcTest, BadOptionSyntaxErrorAndBadArchAreErrorValuesWithTheLog) {
  auto g = generateKernel(kernelConfig(Workload::kSum, DType::kF32, 1, 1024, 8));
  ASSERT_TRUE(g);
  cuda::NvrtcCompiler compiler;
  CompileRequest r;
  r.source = g->source;
  r.kernel_name = g->name;
  r.arch = {9, 0};
  r.extra_options = {"--no-such-option"};
  auto bad_option = compiler.compile(r);
  ASSERT_FALSE(bad_option);
  EXPECT_NE(bad_option.error().find("NVRTC_ERROR_INVALID_OPTION"), std::string::npos) << bad_option.error();
  EXPECT_NE(bad_option.error().find("compiler log:"), std::string::npos);
  EXPECT_NE(bad_option.error().find("--no-such-option"), std::string::npos);

  r.extra_options.clear();
  r.source = "extern \"C\" __global__ void broken() { undeclared_name = 1; }\n";
  r.kernel_name = "broken";
  auto syntax = compiler.compile(r);
  ASSERT_FALSE(syntax);
  EXPECT_NE(syntax.error().find("NVRTC_ERROR_COMPILATION"), std::string::npos);
  EXPECT_NE(syntax.error().find("undeclared_name"), std::string::npos) << syntax.error();

  r.source = g->source;
  r.kernel_name = g->name;
  r.arch = {5, 2};
  auto arch = compiler.compile(r);
  ASSERT_FALSE(arch);
  EXPECT_NE(arch.error().find("architecture sm_52 is not supported by NVRTC"), std::string::npos) << arch.error();
  EXPECT_NE(arch.error().find("sm_90"), std::string::npos);

  r.arch = {9, 0};
  r.maxrregcount = 300;
  auto cap = compiler.compile(r);
  ASSERT_FALSE(cap);
  EXPECT_EQ(cap.error(), "maxrregcount 300 is out of range: allowed 0 (no cap) or 1 … 255 registers per thread");

  r.maxrregcount = 0;
  r.kernel_name = "not_the_kernel";
  auto name = compiler.compile(r);
  ASSERT_FALSE(name);
  EXPECT_NE(name.error().find("no entry function 'not_the_kernel'"), std::string::npos) << name.error();

  std::atomic<bool> cancel{true};
  r.kernel_name = g->name;
  r.cancel = &cancel;
  auto cancelled = compiler.compile(r);
  ASSERT_FALSE(cancelled);
  EXPECT_EQ(cancelled.error(), "cancelled");
}

TEST_F(NvrtcTest, EveryOfferedArchitectureCompiles) {
  const auto offered = cuda::offeredArchitectures(GpuDatabase::builtin());
  ASSERT_FALSE(offered.empty());
  for (const auto& cc : offered) {
    // bf16 exercises the architecture-dependent output rounding (cvt.rn.bf16 from sm_80).
    auto res = compile(kernelConfig(Workload::kMeanVar, DType::kBF16, 1, 2048, 8), cc);
    ASSERT_TRUE(res) << cc.smName() << ": " << res.error();
    EXPECT_EQ(res->report.arch, cc.smName());
    EXPECT_GT(res->report.registers, 0) << cc.smName();
    EXPECT_FALSE(res->cubin.empty());
  }
}

TEST_F(NvrtcTest, EveryWorkloadAndDtypeCompilesInEveryLayout) {
  // Layouts: a row across several warps, rows inside one warp, replicated threads, several rows and
  // chunks per thread; each with vector and scalar loads.
  const std::vector<std::array<int, 3>> layouts = {{1, 2048, 8}, {64, 8, 4}, {1, 64, 8}, {4, 256, 1}};
  int n = 0;
  for (Workload w : allWorkloads()) {
    for (DType d : allDTypes()) {
      for (const auto& [x, r, warps] : layouts) {
        auto c = kernelConfig(w, d, x, r, warps, w == Workload::kFusedK ? 3 : 1);
        c.vector_loads = (n % 2) == 0;
        c.fp32_outputs = (n % 3) == 0;
        auto res = compile(c);
        ASSERT_TRUE(res) << c.label() << ": " << res.error();
        EXPECT_GT(res->report.registers, 0);
        auto layout = tileLayout(c);
        EXPECT_EQ(res->report.static_smem_bytes, layout->static_smem_bytes) << c.label();
        ++n;
      }
    }
  }
  EXPECT_EQ(n, 72);
}

TEST_F(NvrtcTest, ParallelCompilesAgreeWithSerialOnes) {
  std::vector<KernelConfig> configs;
  for (int r : {256, 512, 1024, 2048}) configs.push_back(kernelConfig(Workload::kAmax, DType::kF16, 1, r, 4));
  std::vector<int> serial, parallel(configs.size());
  for (const auto& c : configs) serial.push_back(compile(c)->report.registers);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < configs.size(); ++i) {
    threads.emplace_back([&, i] { parallel[i] = compile(configs[i])->report.registers; });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(serial, parallel);
}

TEST_F(NvrtcTest, SweepWithNvrtcOnSm80) {
  // The H200 decision of the reference data, with our kernel's real n_regs on sm_80 (108 SMs).
  cuda::NvrtcCompiler compiler;
  CompileSweepSpec s;
  s.workload = Workload::kSum;
  s.dtype = DType::kF16;
  s.xnumel = 512;
  s.rnumel = 8192;
  s.device = *deviceForGpu(GpuDatabase::builtin(), "A100");
  s.grid.xblock = {1};
  s.grid.r0_block = {1024, 2048};
  s.grid.num_warps = {16};
  s.threads = 2;
  auto res = runCompileSweep(s, compiler.function());
  ASSERT_TRUE(res) << res.error();
  EXPECT_EQ(res->compiled, 2);
  EXPECT_EQ(res->compiler, cuda::nvrtcVersionString());
  for (const auto& row : res->rows) {
    ASSERT_TRUE(row.ok) << row.error;
    EXPECT_EQ(row.decisions.size(), 4u);
    EXPECT_EQ(row.occupancy.max_warps_per_sm, 64);
  }
}

TEST_F(NvrtcTest, DriverCrossCheckSkipsCleanlyWithoutADriverAndAgreesWithOne) {
  const auto status = cuda::driverStatus();
  auto res = compile(kernelConfig(Workload::kSum, DType::kF32, 1, 1024, 8), {9, 0});
  ASSERT_TRUE(res);
  if (!status.available) {
    EXPECT_NE(status.reason.find("libcuda.so.1"), std::string::npos) << status.reason;
    const auto check = cuda::crossCheckWithDriver(*res);
    EXPECT_EQ(check.state, CrossCheck::State::kSkipped);
    EXPECT_NE(check.note.find("no driver"), std::string::npos);
    GTEST_SKIP() << "no NVIDIA driver here (" << status.reason << "): cross-check skipped as designed";
  }
  ASSERT_GT(status.device_count, 0);
  // Compile for the first device's architecture and compare with cuFuncGetAttribute.
  bool any = false;
  for (const auto& cc : cuda::offeredArchitectures(GpuDatabase::builtin())) {
    auto r = compile(kernelConfig(Workload::kMeanVar, DType::kF16, 1, 2048, 8), cc);
    ASSERT_TRUE(r);
    const auto check = cuda::crossCheckWithDriver(*r);
    if (check.state == CrossCheck::State::kSkipped) continue;
    any = true;
    EXPECT_EQ(check.state, CrossCheck::State::kAgrees) << check.note;
    EXPECT_EQ(check.attributes.registers, r->report.registers);
    EXPECT_EQ(check.attributes.max_threads_per_block, 256);  // __launch_bounds__(256)
  }
  EXPECT_TRUE(any) << "no present device matches an offered architecture";
}

}  // namespace
}  // namespace occx
