// CPU reference of the kernel family: fp16/bf16 conversions, hand-computed results on tiny inputs,
// tolerances and the comparison.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/kernels/reference.h"

namespace occx {
namespace {

TEST(HalfConversion, KnownBitPatterns) {
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0xc000), -2.0f);
  EXPECT_EQ(halfToFloat(0x7bff), 65504.0f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(halfToFloat(0x0400), std::ldexp(1.0f, -14));  // smallest normal
  EXPECT_TRUE(std::isinf(halfToFloat(0x7c00)));
  EXPECT_TRUE(std::isnan(halfToFloat(0x7e00)));
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);  // below the halfway point to 65536
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);  // halfway: rounds to even = infinity
  EXPECT_EQ(floatToHalf(-1e6f), 0xfc00);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);      // tie → even (0x3c00)
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie → even (0x3c02)
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);      // tie → even (0)
  EXPECT_EQ(floatToHalf(3 * std::ldexp(1.0f, -25)), 0x0002);  // 1.5 ulp → 2
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::quiet_NaN()) & 0x7c00, 0x7c00);
  EXPECT_NE(floatToHalf(std::numeric_limits<float>::quiet_NaN()) & 0x03ff, 0);
}

TEST(HalfConversion, EveryFiniteHalfRoundTrips) {
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const auto bits = static_cast<std::uint16_t>(h);
    if ((bits & 0x7c00) == 0x7c00 && (bits & 0x03ff) != 0) continue;  // NaN payloads
    ASSERT_EQ(floatToHalf(halfToFloat(bits)), bits) << std::hex << h;
  }
}

TEST(Bf16Conversion, KnownBitPatternsAndRoundTrip) {
  EXPECT_EQ(bf16ToFloat(0x3f80), 1.0f);
  EXPECT_EQ(floatToBf16(1.0f), 0x3f80);
  EXPECT_EQ(floatToBf16(1.0f + std::ldexp(1.0f, -8)), 0x3f80);      // tie → even
  EXPECT_EQ(floatToBf16(1.0f + 3 * std::ldexp(1.0f, -8)), 0x3f82);  // tie → even
  EXPECT_EQ(floatToBf16(-2.0f), 0xc000);
  EXPECT_TRUE(std::isnan(bf16ToFloat(floatToBf16(std::numeric_limits<float>::quiet_NaN()))));
  for (std::uint32_t h = 0; h < 0x10000; h += 7) {
    const auto bits = static_cast<std::uint16_t>(h);
    if ((bits & 0x7f80) == 0x7f80 && (bits & 0x007f) != 0) continue;
    ASSERT_EQ(floatToBf16(bf16ToFloat(bits)), bits) << std::hex << h;
  }
}

TEST(ElementCodec, EncodeDecodeEachDType) {
  const std::vector<double> v = {1.0, -0.5, 0.333333333};
  auto f32 = encodeElements(DType::kF32, v);
  ASSERT_EQ(f32.size(), 12u);
  auto back = decodeElements(DType::kF32, f32.data(), 3);
  EXPECT_EQ(back[0], 1.0);
  EXPECT_EQ(back[2], static_cast<double>(0.333333333f));
  auto f16 = encodeElements(DType::kF16, v);
  ASSERT_EQ(f16.size(), 6u);
  std::uint16_t w0;
  std::memcpy(&w0, f16.data(), 2);
  EXPECT_EQ(w0, 0x3c00);
  back = decodeElements(DType::kF16, f16.data(), 3);
  EXPECT_EQ(back[1], -0.5);
  EXPECT_EQ(back[2], 0.333251953125);  // nearest fp16 to 1/3
  back = decodeElements(DType::kBF16, encodeElements(DType::kBF16, v).data(), 3);
  EXPECT_EQ(back[2], 0.333984375);  // nearest bf16 to 1/3
}

TEST(RandomInput, DeterministicNonZeroInRangeAndRepresentable) {
  for (DType d : allDTypes()) {
    auto a = randomInput(d, 1000, 42);
    auto b = randomInput(d, 1000, 42);
    auto c = randomInput(d, 1000, 43);
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
    auto v = decodeElements(d, a.data(), 1000);
    for (double x : v) {
      EXPECT_NE(x, 0.0);
      EXPECT_LE(std::abs(x), 1.0);
    }
    EXPECT_EQ(encodeElements(d, v), a);  // already representable
  }
}

// Two rows of three: [1, 2, 3] and [-1, 0.5, 4].
const std::vector<double> kRows = {1, 2, 3, -1, 0.5, 4};

TEST(Reference, SumsMaxAndWelfordOnTinyInput) {
  auto s = referenceOutputs(Workload::kSum, 1, 2, 3, {kRows});
  ASSERT_TRUE(s) << s.error();
  ASSERT_EQ(s->size(), 1u);
  EXPECT_EQ((*s)[0], (std::vector<double>{6.0, 3.5}));
  auto q = referenceOutputs(Workload::kSumSq, 1, 2, 3, {kRows});
  EXPECT_EQ((*q)[0], (std::vector<double>{14.0, 17.25}));
  auto m = referenceOutputs(Workload::kAmax, 1, 2, 3, {kRows});
  EXPECT_EQ((*m)[0], (std::vector<double>{3.0, 4.0}));
  auto mv = referenceOutputs(Workload::kMeanVar, 1, 2, 3, {kRows});
  ASSERT_EQ(mv->size(), 2u);
  EXPECT_DOUBLE_EQ((*mv)[0][0], 2.0);
  EXPECT_DOUBLE_EQ((*mv)[1][0], 2.0 / 3.0);  // (1 + 0 + 1) / 3
  EXPECT_DOUBLE_EQ((*mv)[0][1], 7.0 / 6.0);
  EXPECT_DOUBLE_EQ((*mv)[1][1], 158.0 / 36.0);  // Σx²/n − mean² = 5.75 − 49/36
}

TEST(Reference, LogSoftmaxAndFusedK) {
  auto ls = referenceOutputs(Workload::kLogSoftmax, 1, 2, 3, {kRows});
  ASSERT_TRUE(ls);
  ASSERT_EQ((*ls)[0].size(), 6u);
  const double lse = 3.0 + std::log(1.0 + std::exp(-1.0) + std::exp(-2.0));  // 3.40760596…
  EXPECT_NEAR(lse, 3.4076059644443806, 1e-15);
  EXPECT_DOUBLE_EQ((*ls)[0][0], 1.0 - lse);
  EXPECT_DOUBLE_EQ((*ls)[0][2], 3.0 - lse);
  // Each row's exp sums to 1.
  double total = 0;
  for (int r = 3; r < 6; ++r) total += std::exp((*ls)[0][static_cast<std::size_t>(r)]);
  EXPECT_NEAR(total, 1.0, 1e-15);
  // fused_k, K = 2: out0 = Σ in0, out1 = Σ in0·in1.
  const std::vector<double> in1 = {2, 0.5, -1, 1, 2, 0.25};
  auto fk = referenceOutputs(Workload::kFusedK, 2, 2, 3, {kRows, in1});
  ASSERT_TRUE(fk) << fk.error();
  ASSERT_EQ(fk->size(), 2u);
  EXPECT_EQ((*fk)[0], (std::vector<double>{6.0, 3.5}));
  EXPECT_EQ((*fk)[1], (std::vector<double>{0.0, 1.0}));  // 2 + 1 − 3; −1 + 1 + 1
}

TEST(Reference, BadInputsAreErrors) {
  auto e = referenceOutputs(Workload::kFusedK, 2, 2, 3, {kRows});
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "fused_k takes 2 input tensor(s), got 1");
  e = referenceOutputs(Workload::kSum, 1, 2, 4, {kRows});
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "input 0 holds 6 elements, expected xnumel × rnumel = 8");
  e = referenceOutputs(Workload::kSum, 1, 0, 3, {kRows});
  ASSERT_FALSE(e);
  EXPECT_EQ(e.error(), "xnumel 0 is out of range: allowed 1 or more");
  EXPECT_FALSE(referenceOutputs(Workload::kFusedK, 9, 2, 3, {kRows}));
}

TEST(Reference, TolerancesAndComparison) {
  auto t = referenceTolerance(Workload::kSum, DType::kF16, 10000);
  EXPECT_DOUBLE_EQ(t.rtol, 2e-3);
  EXPECT_DOUBLE_EQ(t.atol, 1e-3);  // 1e-5 · √10000
  t = referenceTolerance(Workload::kAmax, DType::kBF16, 10000);
  EXPECT_EQ(t.rtol, 0.0);
  EXPECT_EQ(t.atol, 0.0);
  t = referenceTolerance(Workload::kLogSoftmax, DType::kF32, 10);
  EXPECT_DOUBLE_EQ(t.rtol, 1e-5);
  EXPECT_DOUBLE_EQ(t.atol, 1e-4);

  auto ok = compareOutputs({1.0, 2.0005}, {1.0, 2.0}, {1e-3, 0.0});  // 0.0005 ≤ 0.002
  EXPECT_TRUE(ok.ok);
  EXPECT_EQ(ok.mismatches, 0);
  EXPECT_NEAR(ok.max_abs_error, 5e-4, 1e-12);
  auto bad = compareOutputs({1.0, 2.1, 3.0}, {1.0, 2.0, 3.01}, {0.0, 0.02});
  EXPECT_FALSE(bad.ok);
  EXPECT_EQ(bad.mismatches, 1);
  EXPECT_EQ(bad.worst_index, 1);
  EXPECT_NE(bad.message.find("1 of 3 elements differ; worst [1]: got 2.1, want 2"), std::string::npos) << bad.message;
  auto nan = compareOutputs({std::nan("")}, {1.0}, {1.0, 1.0});
  EXPECT_FALSE(nan.ok);
  EXPECT_EQ(nan.mismatches, 1);
  auto inf = compareOutputs({-INFINITY}, {-INFINITY}, {0.0, 0.0});
  EXPECT_TRUE(inf.ok);
  auto size = compareOutputs({1.0}, {1.0, 2.0}, {0.0, 0.0});
  EXPECT_FALSE(size.ok);
  EXPECT_EQ(size.message, "sizes differ: got 1 elements, want 2");
}

}  // namespace
}  // namespace occx
