// The host side of live runs without a GPU: random inputs (never zero), the chunked parallel
// reference, and the output check (poisoned elements, wrong values, sizes).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "core/kernels/live_problem.h"
#include "core/kernels/reference.h"
#include "tests/support/arch_support.h"

using namespace occx;

namespace {

ProblemSpec spec(Workload w, DType d, std::int64_t x, std::int64_t r, int k = 1) {
  ProblemSpec s = test::problemSpec(w, d, x, r, k);
  s.seed = 7;
  return s;
}

/// The reference encoded in the output dtype: what a perfect kernel writes.
std::vector<std::vector<std::uint8_t>> perfectOutputs(const HostProblem& p) {
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto& ref : p.reference) out.push_back(encodeElements(p.spec.outputDType(), ref));
  return out;
}

}  // namespace

TEST(HostProblem, SizesBytesAndNoZeroInputs) {
  auto p = makeHostProblem(spec(Workload::kFusedK, DType::kF16, 37, 1000, 3), 2);
  ASSERT_TRUE(p) << p.error();
  ASSERT_EQ(p->inputs.size(), 3u);
  ASSERT_EQ(p->reference.size(), 3u);
  EXPECT_EQ(p->inputBytes(), 37 * 1000 * 2);
  EXPECT_EQ(p->outputElementCount, 37);
  EXPECT_EQ(p->bytes.bytes_read, 3 * 37 * 1000 * 2);
  EXPECT_EQ(p->bytes.bytes_written, 3 * 37 * 2);
  for (const auto& in : p->inputs) {
    auto v = decodeElements(DType::kF16, in.data(), 37 * 1000);
    for (double x : v) {
      ASSERT_NE(x, 0.0);
      ASSERT_LE(std::abs(x), 1.0);
    }
  }
}

TEST(HostProblem, ReferenceEqualsTheSerialReferenceForAnyThreadCount) {
  // 220 rows of 20000: chunks of 209 rows (4 M elements / 20000), so two chunks meet at row 209.
  const auto s = spec(Workload::kLogSoftmax, DType::kBF16, 220, 20000);
  auto one = makeHostProblem(s, 1);
  auto many = makeHostProblem(s, 4);
  ASSERT_TRUE(one && many);
  EXPECT_EQ(one->inputs, many->inputs);
  EXPECT_EQ(one->reference, many->reference);
  auto decoded = decodeElements(DType::kBF16, one->inputs[0].data(), 220 * 20000);
  auto serial = referenceOutputs(Workload::kLogSoftmax, 1, 220, 20000, {decoded});
  ASSERT_TRUE(serial);
  EXPECT_EQ(one->reference, *serial);
}

TEST(HostProblem, SeedChangesTheInputs) {
  auto a = spec(Workload::kSum, DType::kF32, 8, 64);
  auto b = a;
  b.seed = 8;
  EXPECT_NE(makeHostProblem(a)->inputs, makeHostProblem(b)->inputs);
  EXPECT_EQ(makeHostProblem(a)->inputs, makeHostProblem(a)->inputs);
}

TEST(HostProblem, RejectsBadShapesWithTheirNames) {
  auto r = makeHostProblem(spec(Workload::kSum, DType::kF32, 0, 64));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "xnumel 0 is out of range: allowed 1 or more");
  auto big = makeHostProblem(spec(Workload::kSum, DType::kF32, 65536, 65536));
  ASSERT_FALSE(big);
  EXPECT_NE(big.error().find("65536 × 65536 is out of range"), std::string::npos);
  auto k = makeHostProblem(spec(Workload::kSum, DType::kF32, 4, 4, 2));
  ASSERT_FALSE(k);
  EXPECT_NE(k.error().find("K 2 is not allowed for sum"), std::string::npos);
}

TEST(CheckOutputs, PerfectOutputsPass) {
  for (auto w : allWorkloads()) {
    const int k = w == Workload::kFusedK ? 2 : 1;
    auto p = makeHostProblem(spec(w, DType::kF16, 9, 333, k), 2);
    ASSERT_TRUE(p) << p.error();
    auto c = checkOutputs(*p, perfectOutputs(*p));
    EXPECT_TRUE(c.ok) << workloadName(w) << ": " << c.message;
    EXPECT_EQ(c.mismatches, 0);
  }
}

TEST(CheckOutputs, Fp32OutputsOfFp16InputsAreCheckedAsFp32) {
  auto s = spec(Workload::kLogSoftmax, DType::kF16, 3, 100);
  s.fp32_outputs = true;
  auto p = makeHostProblem(s);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->outputBytes(), 3 * 100 * 4);
  EXPECT_EQ(p->bytes.bytes_read, 3 * 100 * 2);
  EXPECT_EQ(p->bytes.bytes_written, 3 * 100 * 4);
  auto out = perfectOutputs(*p);
  EXPECT_TRUE(checkOutputs(*p, out).ok);
  // An fp16-rounded output is off by up to 2^-11 relative: too coarse for fp32 outputs.
  std::vector<double> coarse = p->reference[0];
  for (auto& v : coarse) v = halfToFloat(floatToHalf(static_cast<float>(v)));
  auto c = checkOutputs(*p, {encodeElements(DType::kF32, coarse)});
  EXPECT_FALSE(c.ok);
}

TEST(CheckOutputs, PoisonedElementIsAMismatch) {
  auto p = makeHostProblem(spec(Workload::kMeanVar, DType::kF32, 10, 100));
  ASSERT_TRUE(p);
  auto out = perfectOutputs(*p);
  std::memset(out[1].data() + 4 * 7, 0xFF, 4);  // out1[7] left as the poison (NaN)
  auto c = checkOutputs(*p, out);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(c.message.rfind("out1: 1 of 10 elements differ; worst [7]: got -nan", 0), 0u) << c.message;
}

TEST(CheckOutputs, WorstIndexIsShiftedToTheWholeTensor) {
  // log_softmax output of 5 × 850000 = 4.25 M elements: chunks of 4 M (2^22) elements; break an
  // element of the second chunk and the message must name its index in the whole tensor.
  auto p = makeHostProblem(spec(Workload::kLogSoftmax, DType::kF16, 5, 850000), 2);
  ASSERT_TRUE(p);
  auto out = perfectOutputs(*p);
  const std::size_t bad = 4200001;
  const std::uint16_t one = floatToHalf(1.0f);  // log-probabilities are negative: 1.0 is wrong
  std::memcpy(out[0].data() + 2 * bad, &one, 2);
  auto c = checkOutputs(*p, out, 2);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_NE(c.message.find("worst [4200001]"), std::string::npos) << c.message;
}

TEST(CheckOutputs, WrongSizeIsNamed) {
  auto p = makeHostProblem(spec(Workload::kSum, DType::kBF16, 4, 16));
  ASSERT_TRUE(p);
  auto out = perfectOutputs(*p);
  out[0].pop_back();
  auto c = checkOutputs(*p, out);
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.message, "out0: holds 7 bytes, expected 8");
}
