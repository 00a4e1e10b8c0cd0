// The reduction kernel family: parameter validation, tile layouts, source generation, byte counts.
#include <gtest/gtest.h>

#include <optional>
#include <regex>
#include <set>

#include "core/kernels/kernel_family.h"
#include "tests/support/arch_support.h"

namespace occx {
namespace {

using test::kernelConfig;

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (std::size_t p = text.find(what); p != std::string::npos; p = text.find(what, p + what.size())) ++n;
  return n;
}

// The fields of a TileLayout a test expects; only those given are checked.
struct LayoutFields {
  std::optional<int> threads_per_block = std::nullopt;
  std::optional<int> vec = std::nullopt;
  std::optional<int> vector_bytes = std::nullopt;
  std::optional<int> threads_r = std::nullopt;
  std::optional<int> threads_x = std::nullopt;
  std::optional<int> rows_per_thread = std::nullopt;
  std::optional<int> chunks_per_row = std::nullopt;
  std::optional<int> elements_per_thread = std::nullopt;
  std::optional<int> accumulator_tiles = std::nullopt;
  std::optional<int> accumulator_values_per_thread = std::nullopt;
  std::optional<int> warps_per_row = std::nullopt;
  std::optional<int> replicated_threads = std::nullopt;
  std::optional<int> static_smem_bytes = std::nullopt;
};

// Expects each field given in `want` to equal the layout's.
void expectLayout(const TileLayout& l, const LayoutFields& want) {
#define OCCX_EXPECT_FIELD(f)       \
  if (want.f) {                    \
    EXPECT_EQ(l.f, *want.f) << #f; \
  }
  OCCX_EXPECT_FIELD(threads_per_block)
  OCCX_EXPECT_FIELD(vec)
  OCCX_EXPECT_FIELD(vector_bytes)
  OCCX_EXPECT_FIELD(threads_r)
  OCCX_EXPECT_FIELD(threads_x)
  OCCX_EXPECT_FIELD(rows_per_thread)
  OCCX_EXPECT_FIELD(chunks_per_row)
  OCCX_EXPECT_FIELD(elements_per_thread)
  OCCX_EXPECT_FIELD(accumulator_tiles)
  OCCX_EXPECT_FIELD(accumulator_values_per_thread)
  OCCX_EXPECT_FIELD(warps_per_row)
  OCCX_EXPECT_FIELD(replicated_threads)
  OCCX_EXPECT_FIELD(static_smem_bytes)
#undef OCCX_EXPECT_FIELD
}

TEST(KernelFamilyNames, ParseAndPrintRoundTrip) {
  for (Workload w : allWorkloads()) EXPECT_EQ(*parseWorkload(workloadName(w)), w);
  for (DType d : allDTypes()) EXPECT_EQ(*parseDType(dtypeName(d)), d);
  EXPECT_EQ(*parseDType("half"), DType::kF16);
  EXPECT_EQ(*parseDType("BFloat16"), DType::kBF16);
  auto bad = parseWorkload("softmax");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("'softmax'"), std::string::npos);
  EXPECT_NE(bad.error().find("log_softmax"), std::string::npos);
  EXPECT_FALSE(parseDType("fp8"));
  EXPECT_EQ(dtypeBytes(DType::kF32), 4);
  EXPECT_EQ(dtypeBytes(DType::kBF16), 2);
}

// The layouts below are derived by hand from the rules in kernel_family.h:
// vec = min(16 / element size, max(1, XBLOCK·RBLOCK / threads), RBLOCK), threads_r = min(threads,
// RBLOCK / vec), threads_x = threads / threads_r, rows = max(1, XBLOCK / threads_x),
// chunks = RBLOCK / (threads_r · vec).
TEST(KernelFamilyLayout, BigWelfordTileHolds128ElementsPerThreadPerTile) {
  // mean_var fp32, XBLOCK 1, RBLOCK 8192, 2 warps: 8192 / 64 = 128 elements per thread, 3 tiles.
  auto l = tileLayout(kernelConfig(Workload::kMeanVar, DType::kF32, 1, 8192, 2));
  ASSERT_TRUE(l) << l.error();
  expectLayout(*l, {.threads_per_block = 64,
                    .vec = 4,
                    .vector_bytes = 16,
                    .threads_r = 64,
                    .threads_x = 1,
                    .rows_per_thread = 1,
                    .chunks_per_row = 32,
                    .elements_per_thread = 128,
                    .accumulator_tiles = 3,
                    .accumulator_values_per_thread = 384,
                    .warps_per_row = 2,
                    .replicated_threads = 0,
                    // Scratch: 1 row slot × 2 warps × 3 fp32 = 24 bytes (ptxas reports "24 bytes smem").
                    .static_smem_bytes = 24});
}

TEST(KernelFamilyLayout, Fp16UsesEightElementVectors) {
  // sum fp16, XBLOCK 1, RBLOCK 2048, 8 warps: 2048 / 256 = 8 elements = one 16-byte load.
  auto l = tileLayout(kernelConfig(Workload::kSum, DType::kF16, 1, 2048, 8));
  ASSERT_TRUE(l);
  expectLayout(*l, {.vec = 8,
                    .vector_bytes = 16,
                    .threads_r = 256,
                    .chunks_per_row = 1,
                    .elements_per_thread = 8,
                    .warps_per_row = 8,
                    .static_smem_bytes = 32});  // 1 slot × 8 warps × 4 bytes
}

TEST(KernelFamilyLayout, TileSmallerThanTheBlockReplicatesThreads) {
  // XBLOCK 1 × RBLOCK 64 over 256 threads: 64 threads along R, 4 "rows" of which 3 own nothing.
  auto l = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 1, 64, 8));
  ASSERT_TRUE(l);
  expectLayout(*l, {.vec = 1,
                    .vector_bytes = 4,
                    .threads_r = 64,
                    .threads_x = 4,
                    .elements_per_thread = 1,
                    .replicated_threads = 192,
                    .static_smem_bytes = 32});  // 4 slots × 2 warps × 4 bytes
}

TEST(KernelFamilyLayout, WideXBlockSpreadsRowsOverThreads) {
  // amax fp16, XBLOCK 64 × RBLOCK 8 over 128 threads: 4 elements each, 2 threads per row.
  auto l = tileLayout(kernelConfig(Workload::kAmax, DType::kF16, 64, 8, 4));
  ASSERT_TRUE(l);
  expectLayout(*l, {.vec = 4,
                    .vector_bytes = 8,
                    .threads_r = 2,
                    .threads_x = 64,
                    .rows_per_thread = 1,
                    .elements_per_thread = 4,
                    .static_smem_bytes = 0});  // a row stays inside one warp
  // sum fp32, XBLOCK 4 × RBLOCK 256 over one warp: 4 rows × 2 chunks × 4 = 32 elements.
  auto m = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 4, 256, 1));
  ASSERT_TRUE(m);
  expectLayout(*m,
               {.threads_r = 32, .threads_x = 1, .rows_per_thread = 4, .chunks_per_row = 2, .elements_per_thread = 32});
}

TEST(KernelFamilyLayout, ElementsPerThreadIsTheTileOverTheThreads) {
  for (int x : {1, 2, 4, 8}) {
    for (int r : {256, 1024, 4096}) {
      for (int w : {1, 4, 16}) {
        auto l = tileLayout(kernelConfig(Workload::kSum, DType::kF16, x, r, w));
        ASSERT_TRUE(l) << x << " " << r << " " << w << ": " << l.error();
        // Threads that own elements hold the whole tile between them; the rest replicate.
        EXPECT_EQ(l->elements_per_thread * (l->threads_per_block - l->replicated_threads), x * r)
            << x << " " << r << " " << w;
        if (x * r >= l->threads_per_block) {
          EXPECT_EQ(l->replicated_threads, 0);
        }
      }
    }
  }
}

TEST(KernelFamilyValidation, ErrorsNameTheValueAndTheRange) {
  auto e = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 3, 1024, 8));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "XBLOCK 3 is out of range: allowed powers of two 1 … 4096");
  e = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 1, 0, 8));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "RBLOCK 0 is out of range: allowed powers of two 1 … 65536");
  e = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 1, 131072, 8));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().find("RBLOCK 131072"), std::string::npos);
  e = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 1, 1024, 64));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "num_warps 64 is out of range: allowed 1, 2, 4, 8, 16, 32");
  e = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 1, 1024, 12));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().find("num_warps 12"), std::string::npos);
  e = tileLayout(kernelConfig(Workload::kFusedK, DType::kF32, 1, 1024, 8, 9));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "K 9 is out of range: fused_k takes 1 … 8 inputs");
  e = tileLayout(kernelConfig(Workload::kFusedK, DType::kF32, 1, 1024, 8, 0));
  ASSERT_FALSE(e);
  e = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 1, 1024, 8, 2));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().find("only fused_k takes K inputs (allowed K = 1)"), std::string::npos);
  e = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 4096, 512, 32));
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "XBLOCK × RBLOCK = 2097152 is out of range: allowed at most 1048576 elements per tile");
  // mean_var fp32, RBLOCK 16384 on one warp: 512 elements × 3 tiles = 1536 values per thread.
  e = tileLayout(kernelConfig(Workload::kMeanVar, DType::kF32, 1, 16384, 1));
  ASSERT_FALSE(e);
  EXPECT_NE(e.error().find("512 × 3 = 1536 accumulator values per thread is out of range: allowed at most 1024"),
            std::string::npos)
      << e.error();
  // The same tile for sum: 512 values, allowed.
  EXPECT_TRUE(tileLayout(kernelConfig(Workload::kSum, DType::kF32, 1, 16384, 1)));
  EXPECT_FALSE(generateKernel(kernelConfig(Workload::kSum, DType::kF32, 3, 1024, 8)));
}

TEST(KernelFamilyShape, CheckShapeGivesTheGridAndRejectsUnalignedVectorRows) {
  auto c = kernelConfig(Workload::kLogSoftmax, DType::kF16, 2, 2048, 16);
  auto grid = checkShape(c, 20736, 8008);  // 8008 = 1001 × 8: vector loads fit
  ASSERT_TRUE(grid) << grid.error();
  EXPECT_EQ(*grid, 10368);
  auto odd = checkShape(c, 20736, 8001);
  ASSERT_FALSE(odd);
  EXPECT_NE(odd.error().find("rnumel 8001 is not a multiple of the vector width"), std::string::npos) << odd.error();
  c.vector_loads = false;
  EXPECT_EQ(*checkShape(c, 20736, 8001), 10368);
  EXPECT_EQ(*checkShape(c, 1, 1), 1);
  auto big = checkShape(c, 65536, 65536);
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().find("xnumel × rnumel = 65536 × 65536"), std::string::npos);
  auto zero = checkShape(c, 0, 10);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error(), "xnumel 0 is out of range: allowed 1 … 2147483647");
  // Within 2^31 − 1 elements, but not once padded to the tile: the loop over R would step its int
  // counter past 2^31 − 1 (2147483647 rounded up to RBLOCK 2048 is 2^31), and the last rows' slots
  // (x up to 2 × 1073741824 − 1) index past it too.
  EXPECT_EQ(
      checkShape(c, 1, 2147483647).error(),
      "xnumel × rnumel padded to the tile (XBLOCK 2, RBLOCK 2048) = 2 × 2147483648 is out of range: the kernels index "
      "the padded tiles with 32-bit ints, allowed at most 2147483647 elements; use a smaller XBLOCK or RBLOCK");
  EXPECT_EQ(checkShape(c, 1048575, 2048)
                .error()
                .rfind("xnumel × rnumel padded to the tile (XBLOCK 2, RBLOCK 2048) = 1048576 × 2048 is", 0),
            0U);
  EXPECT_EQ(*checkShape(c, 1048574, 2048), 524287);  // 1048574 × 2048 = 2^31 − 4096: fits padded
  auto layout = tileLayout(kernelConfig(Workload::kSum, DType::kF32, 1, 1024, 8));
  EXPECT_TRUE(vectorLoadsAllowed(*layout, 30000));  // vec 4
  EXPECT_FALSE(vectorLoadsAllowed(*layout, 30002));
}

TEST(KernelFamilyBytes, MinimumBytesPerWorkload) {
  // sum fp16 32768 × 8192: read 2^28 × 2 bytes, write 32768 × 2.
  auto b = bytesMoved(Workload::kSum, DType::kF16, 1, 32768, 8192);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->bytes_read, 536870912);
  EXPECT_EQ(b->bytes_written, 65536);
  EXPECT_EQ(b->total(), 536936448);
  b = bytesMoved(Workload::kMeanVar, DType::kF32, 1, 1000, 300);
  EXPECT_EQ(b->bytes_read, 1200000);
  EXPECT_EQ(b->bytes_written, 8000);  // mean and variance
  b = bytesMoved(Workload::kLogSoftmax, DType::kF16, 1, 20736, 8008);
  EXPECT_EQ(b->bytes_read, 332107776);
  EXPECT_EQ(b->bytes_written, 332107776);
  // fp32 outputs: the causal-LM figure of the reference data (996323328 B in 340.6 us = 2925 GB/s).
  b = bytesMoved(Workload::kLogSoftmax, DType::kF16, 1, 20736, 8008, true);
  EXPECT_EQ(b->bytes_written, 664215552);
  EXPECT_EQ(b->total(), 996323328);
  b = bytesMoved(Workload::kFusedK, DType::kF16, 3, 32768, 8192);
  EXPECT_EQ(b->bytes_read, 1610612736);
  EXPECT_EQ(b->bytes_written, 196608);
  EXPECT_FALSE(bytesMoved(Workload::kSum, DType::kF16, 1, 0, 8));
  EXPECT_FALSE(bytesMoved(Workload::kFusedK, DType::kF16, 9, 4, 8));
  EXPECT_EQ(numInputs(Workload::kFusedK, 5), 5);
  EXPECT_EQ(numOutputs(Workload::kMeanVar, 1), 2);
  EXPECT_EQ(outputElements(Workload::kLogSoftmax, 3, 7), 21);
  EXPECT_EQ(outputElements(Workload::kAmax, 3, 7), 3);
}

TEST(KernelFamilySource, DeterministicAndDistinct) {
  std::set<std::string> names, sources;
  for (Workload w : allWorkloads()) {
    for (DType d : allDTypes()) {
      auto c = kernelConfig(w, d, 1, 1024, 4, w == Workload::kFusedK ? 3 : 1);
      auto a = generateKernel(c);
      auto b = generateKernel(c);
      ASSERT_TRUE(a) << a.error();
      ASSERT_TRUE(b);
      EXPECT_EQ(a->source, b->source) << c.label();
      EXPECT_EQ(a->name, kernelName(c));
      names.insert(a->name);
      sources.insert(a->source);
    }
  }
  EXPECT_EQ(names.size(), 18u);
  EXPECT_EQ(sources.size(), 18u);
  auto c = kernelConfig(Workload::kSum, DType::kF32, 1, 1024, 4);
  const auto one = generateKernel(c)->source;
  c.num_warps = 8;
  EXPECT_NE(generateKernel(c)->source, one);
}

TEST(KernelFamilySource, MeanVarHasThreeRegisterTilesAndTheLaunchContract) {
  auto g = generateKernel(kernelConfig(Workload::kMeanVar, DType::kF16, 1, 2048, 8));
  ASSERT_TRUE(g);
  EXPECT_EQ(g->name, "occx_mean_var_fp16_x1_r2048_w8");
  const auto& s = g->source;
  EXPECT_NE(s.find("extern \"C\" __global__ void __launch_bounds__(NUM_THREADS) occx_mean_var_fp16_x1_r2048_w8("),
            std::string::npos);
  EXPECT_NE(s.find("constexpr int XBLOCK = 1;"), std::string::npos);
  EXPECT_NE(s.find("constexpr int RBLOCK = 2048;"), std::string::npos);
  EXPECT_NE(s.find("constexpr int NUM_THREADS = 256;"), std::string::npos);
  EXPECT_NE(s.find("constexpr int VEC = 8;"), std::string::npos);
  // Three accumulator tiles, each a fixed-size register array.
  EXPECT_EQ(count(s, "[ROWS_PER_THREAD][ELEMS_PER_ROW];"), 3);
  EXPECT_NE(s.find("float acc_mean[ROWS_PER_THREAD][ELEMS_PER_ROW];"), std::string::npos);
  EXPECT_NE(s.find("float acc_m2[ROWS_PER_THREAD][ELEMS_PER_ROW];"), std::string::npos);
  EXPECT_NE(s.find("float acc_weight[ROWS_PER_THREAD][ELEMS_PER_ROW];"), std::string::npos);
  // One 16-byte vector load per chunk, the loop over R kept rolled, shuffles then shared memory.
  EXPECT_NE(s.find("const word_t q = EVICT_LAST ? ld_evict_last(at, valid) : ld_evict_first(at, valid);"),
            std::string::npos);
  EXPECT_NE(s.find("@pv ld.global.L1::evict_first.L2::cache_hint.v4.b32 {%0, %1, %2, %3}"), std::string::npos);
  EXPECT_NE(s.find("#pragma unroll 1\n  for (int r0 = 0; r0 < rnumel; r0 += RBLOCK) {"), std::string::npos);
  EXPECT_NE(s.find("__shfl_xor_sync"), std::string::npos);
  EXPECT_NE(s.find("__shared__ State partial_row[ROW_SLOTS][WARPS_PER_ROW];"), std::string::npos);
  // Every lane loads a partial (lane % WARPS_PER_ROW) so that every thread ends with the row's total
  // (log_softmax's output pass needs it in every thread, not only in lane 0).
  EXPECT_NE(s.find("State s = partial_row[x_lane + i * THREADS_X][lane % WARPS_PER_ROW];"), std::string::npos);
  // The parameter list: in0, out0 (mean), out1 (variance), xnumel, rnumel.
  ASSERT_EQ(g->params.size(), 5u);
  EXPECT_EQ(g->params[0].name, "in0");
  EXPECT_EQ(g->params[0].kind, KernelParam::Kind::kInputPointer);
  EXPECT_EQ(g->params[2].name, "out1");
  EXPECT_EQ(g->params[2].kind, KernelParam::Kind::kOutputPointer);
  EXPECT_EQ(g->params[4].name, "rnumel");
  EXPECT_EQ(g->params[4].kind, KernelParam::Kind::kInt32);
  EXPECT_NE(s.find("    const elem_t* __restrict__ in0,\n    out_t* __restrict__ out0,\n    out_t* __restrict__ out1,\n"
                   "    int xnumel, int rnumel) {"),
            std::string::npos);
  // No dynamic indexing of the accumulators: every index is i, j (unrolled loop variables).
  EXPECT_FALSE(std::regex_search(s, std::regex(R"(acc_\w+\[(r|r0|x|threadIdx))")));
}

TEST(KernelFamilySource, FusedKHasKInputsAndKTiles) {
  auto g = generateKernel(kernelConfig(Workload::kFusedK, DType::kBF16, 2, 512, 4, 5));
  ASSERT_TRUE(g);
  EXPECT_EQ(g->name, "occx_fused_k5_bf16_x2_r512_w4");
  EXPECT_EQ(g->layout.accumulator_tiles, 5);
  EXPECT_EQ(count(g->source, "[ROWS_PER_THREAD][ELEMS_PER_ROW];"), 5);
  EXPECT_EQ(count(g->source, "load_chunk<false>(in"), 5);
  EXPECT_EQ(g->params.size(), 12u);  // 5 inputs, 5 outputs, xnumel, rnumel
  EXPECT_NE(g->source.find("acc_sum4[i][j] += p;"), std::string::npos);
}

TEST(KernelFamilySource, LogSoftmaxStoresAndFp32Outputs) {
  auto c = kernelConfig(Workload::kLogSoftmax, DType::kF16, 1, 4096, 16);  // vec 8
  auto g = generateKernel(c);
  ASSERT_TRUE(g);
  EXPECT_NE(g->source.find("typedef unsigned short out_t;"), std::string::npos);
  EXPECT_NE(g->source.find("*reinterpret_cast<uint4*>(p + x * rnumel + r) = q;"), std::string::npos);
  c.fp32_outputs = true;
  g = generateKernel(c);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->name, "occx_log_softmax_fp16_x1_r4096_w16_f32out");
  EXPECT_EQ(outputDType(c), DType::kF32);
  EXPECT_NE(g->source.find("typedef float out_t;"), std::string::npos);
  // 8 fp32 values = 32 bytes: two 16-byte stores.
  EXPECT_NE(g->source.find("*reinterpret_cast<float4*>(p + x * rnumel + r) = q0;"), std::string::npos);
  EXPECT_NE(g->source.find("*reinterpret_cast<float4*>(p + x * rnumel + r + 4) = q1;"), std::string::npos);
  c.vector_loads = false;
  g = generateKernel(c);
  EXPECT_EQ(g->name, "occx_log_softmax_fp16_x1_r4096_w16_f32out_scalar");
  EXPECT_EQ(g->source.find("reinterpret_cast"), std::string::npos);
  EXPECT_NE(g->source.find("ok[i] = row_ok && r + i < rnumel;"), std::string::npos);
}

TEST(KernelFamilySource, Bf16OutputsRoundWithoutTheSm80InstructionOnOlderArchitectures) {
  auto g = generateKernel(kernelConfig(Workload::kSum, DType::kBF16, 1, 1024, 4));
  ASSERT_TRUE(g);
  EXPECT_NE(g->source.find("#if __CUDA_ARCH__ >= 800"), std::string::npos);
  EXPECT_NE(g->source.find("cvt.rn.bf16.f32"), std::string::npos);
  EXPECT_NE(g->source.find("u += 0x7fffu + ((u >> 16) & 1u);"), std::string::npos);
}

}  // namespace
// ---- static shapes (Inductor's kernels for static shapes) --------------------------------------

TEST(KernelFamilyStaticShape, ConfigForShapeBakesTheShapeInAndNamesIt) {
  auto c = configForShape(kernelConfig(Workload::kSum, DType::kF16, 1, 2048, 16), 32768, 8192, true);
  EXPECT_EQ(c.static_xnumel, 32768);
  EXPECT_EQ(c.static_rnumel, 8192);
  EXPECT_TRUE(c.staticShape());
  EXPECT_TRUE(c.vector_loads);
  EXPECT_EQ(kernelName(c), "occx_sum_fp16_x1_r2048_w16_s32768x8192");
  EXPECT_EQ(c.label(), "sum fp16 XBLOCK=1 RBLOCK=2048 num_warps=16 for 32768 × 8192");
  auto d = configForShape(c, 20736, 8007, false);  // a run-time shape; 8007 forbids vector loads
  EXPECT_FALSE(d.staticShape());
  EXPECT_FALSE(d.vector_loads);
  EXPECT_EQ(kernelName(d), "occx_sum_fp16_x1_r2048_w16_scalar");
  EXPECT_STREQ(shapeKindName(true), "static");
  EXPECT_STREQ(shapeKindName(false), "run-time");
}

TEST(KernelFamilyStaticShape, BadShapesNameTheValueAndTheRange) {
  auto c = kernelConfig(Workload::kSum, DType::kF32, 1, 1024, 4);
  c.static_xnumel = 8;
  auto l = tileLayout(c);
  ASSERT_FALSE(l);
  EXPECT_EQ(l.error(), "static shape 8 × 0 is incomplete: set both xnumel and rnumel, or neither (a run-time shape)");
  c.static_rnumel = -3;
  EXPECT_EQ(tileLayout(c).error(), "static rnumel -3 is out of range: allowed 1 … 2147483647");
  c.static_xnumel = 65536;
  c.static_rnumel = 65536;
  EXPECT_EQ(tileLayout(c).error(),
            "static xnumel × rnumel = 65536 × 65536 is out of range: the kernels index with 32-bit ints, allowed at "
            "most 2147483647 "
            "elements per tensor");
  c.static_xnumel = 1;
  c.static_rnumel = 2147483647;  // 2^31 − 1 elements, 2^31 once padded to RBLOCK 1024
  EXPECT_EQ(
      tileLayout(c).error(),
      "static xnumel × rnumel padded to the tile (XBLOCK 1, RBLOCK 1024) = 1 × 2147483648 is out of range: the kernels "
      "index the padded tiles with 32-bit ints, allowed at most 2147483647 elements; use a smaller XBLOCK or RBLOCK");
  // A kernel built for one shape runs only on it.
  c.static_xnumel = 100;
  c.static_rnumel = 4096;
  ASSERT_TRUE(checkShape(c, 100, 4096));
  EXPECT_EQ(*checkShape(c, 100, 4096), 100);
  EXPECT_EQ(
      checkShape(c, 100, 2048).error(),
      "shape 100 × 2048 is not the one the kernel was built for (100 × 4096): build the config for this shape, or "
      "with a run-time shape");
}

TEST(KernelFamilyStaticShape, NoTailUnrollsAndDropsTheMasksATailKeepsTheLoopRolled) {
  // sum fp16 32768 × 8192 at R2048: 8192 % 2048 == 0 and 32768 % 1 == 0: no masks, no nounroll pragma.
  auto g = generateKernel(configForShape(kernelConfig(Workload::kSum, DType::kF16, 1, 2048, 16), 32768, 8192, true));
  ASSERT_TRUE(g);
  const auto& s = g->source;
  EXPECT_NE(s.find("constexpr int XNUMEL = 32768;  // the static shape"), std::string::npos);
  EXPECT_NE(s.find("constexpr int RNUMEL = 8192;"), std::string::npos);
  EXPECT_NE(s.find("  xnumel = XNUMEL;  // the static shape, as Inductor's kernels set it\n  rnumel = RNUMEL;"),
            std::string::npos);
  EXPECT_EQ(s.find("#pragma unroll 1"), std::string::npos);
  EXPECT_NE(s.find("const bool valid = row_ok;  // RBLOCK divides rnumel"), std::string::npos);
  EXPECT_NE(s.find("const bool row_ok = true;"), std::string::npos);
  EXPECT_NE(s.find("// shape: static, 32768 x 8192 baked in as Inductor does for static shapes; the loop over R runs 4 "
                   "time(s), unrolled as the compiler sees fit; no row mask (XBLOCK divides xnumel)"),
            std::string::npos);
  // log_softmax fp16 20736 × 8008 at R2048: a tail along R (8008 % 2048 != 0): masked and rolled, as Triton's.
  auto ls =
      generateKernel(configForShape(kernelConfig(Workload::kLogSoftmax, DType::kF16, 2, 2048, 8), 20736, 8008, true));
  ASSERT_TRUE(ls);
  EXPECT_EQ(count(ls->source, "#pragma unroll 1\n  for (int r0 = 0; r0 < rnumel; r0 += RBLOCK) {"), 2);
  EXPECT_NE(ls->source.find("const bool valid = row_ok && r < rnumel;"), std::string::npos);
  // The first pass reads what the output pass reads again: evict_last, then evict_first.
  EXPECT_NE(ls->source.find("load_chunk<true>(in0, x, r, rnumel, row_ok, v0, ok);"), std::string::npos);
  EXPECT_NE(ls->source.find("load_chunk<false>(in0, x, r, rnumel, row_ok, v, ok);"), std::string::npos);
  // online_softmax_reduce: the row's max first, then the rescaled sums; accurate exp.
  EXPECT_NE(ls->source.find("row_sum[i] += acc_sumexp[i][j] * expf(delta);"), std::string::npos);
  // The output in Inductor's order, (in - max) - log(sumexp): max + log(sumexp) first would round
  // log(sumexp)'s low bits away for large logits.
  EXPECT_NE(ls->source.find("v[e] = (v[e] - row[i].max) - log_sum[i];"), std::string::npos);
  // X2 R2048 w8 spans 8 warps per row: the max and the sums each cross them through their own
  // shared array, and log_softmax emits no State combine (it reduces field by field).
  EXPECT_EQ(count(ls->source, "const int lane = r_lane % 32;"), 1);
  EXPECT_NE(ls->source.find("__shared__ float partial_row_max[ROW_SLOTS][WARPS_PER_ROW];"), std::string::npos);
  EXPECT_NE(ls->source.find("for (int mask = WARPS_PER_ROW / 2; mask > 0; mask >>= 1) s = "
                            "s + __shfl_xor_sync(0xffffffffu, s, mask);"),
            std::string::npos);
  EXPECT_EQ(ls->source.find("combine("), std::string::npos);
  EXPECT_EQ(ls->source.find("__expf"), std::string::npos);
  // The same configs with a run-time shape: the loop is never unrolled, every mask is there.
  auto dyn = generateKernel(kernelConfig(Workload::kSum, DType::kF16, 1, 2048, 16));
  ASSERT_TRUE(dyn);
  EXPECT_NE(dyn->source.find("// shape: passed at run time (any xnumel, rnumel); the loop over R is not unrolled"),
            std::string::npos);
  EXPECT_NE(dyn->source.find("#pragma unroll 1"), std::string::npos);
  EXPECT_NE(dyn->source.find("const bool row_ok = x < xnumel;"), std::string::npos);
}

TEST(KernelFamilyStaticShape, MeanVarUpdatesAsWelfordReduceWithAWeightTile) {
  auto g = generateKernel(configForShape(kernelConfig(Workload::kMeanVar, DType::kF16, 1, 2048, 8), 32768, 8192, true));
  ASSERT_TRUE(g);
  const auto& s = g->source;
  EXPECT_NE(s.find("const bool first_pass = r0 == 0;  // welford_reduce's first_iteration"), std::string::npos);
  EXPECT_NE(s.find("acc_weight[i][j] += 1.0f;"), std::string::npos);
  EXPECT_NE(s.find("acc_mean[i][j] += div_full(delta, acc_weight[i][j]);"), std::string::npos);
  EXPECT_NE(s.find("asm(\"div.full.f32 %0, %1, %2;\""), std::string::npos);
  EXPECT_NE(s.find("const float frac = weight == 0.0f ? 0.0f : div_full(b.weight, weight);"), std::string::npos);
}

}  // namespace occx
