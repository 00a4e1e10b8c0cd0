// Buffer problems without a GPU: element types, the spec's checks, the random initial contents
// (range, never zero, representable, deterministic, distinct per buffer and chunk), and the
// cross-config comparison (tolerance, NaN, not-written outputs, integers, sizes).
#include "core/sweep/buffer_problem.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/kernels/reference.h"
#include "core/sweep/gpu_runner.h"

namespace occx {
namespace {

BufferSpec buffer(std::string name, ElementType type, std::int64_t elements, BufferSpec::Role role) {
  BufferSpec b;
  b.name = std::move(name);
  b.type = type;
  b.elements = elements;
  b.role = role;
  return b;
}

BufferProblemSpec mixedSpec() {
  BufferProblemSpec s;
  s.label = "triton_red_fused_0: 4 buffers";
  s.buffers = {buffer("in_ptr0", ElementType::kF16, 1024, BufferSpec::Role::kInput),
               buffer("in_ptr1", ElementType::kI64, 256, BufferSpec::Role::kInput),
               buffer("in_out_ptr0", ElementType::kF32, 1024, BufferSpec::Role::kInOut),
               buffer("out_ptr0", ElementType::kF32, 512, BufferSpec::Role::kOutput)};
  s.seed = 7;
  return s;
}

/// One fp32 output buffer of `n` elements named out_ptr0.
BufferProblemSpec oneOutput(std::int64_t n, ElementType type = ElementType::kF32) {
  BufferProblemSpec s;
  s.label = "one output";
  s.buffers = {buffer("out_ptr0", type, n, BufferSpec::Role::kOutput)};
  return s;
}

std::vector<std::uint8_t> floats(const std::vector<float>& v) {
  std::vector<std::uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

std::vector<std::uint8_t> int32s(const std::vector<std::int32_t>& v) {
  std::vector<std::uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

float floatAt(const std::vector<std::uint8_t>& b, std::size_t i) {
  float f = 0.0f;
  std::memcpy(&f, b.data() + 4 * i, 4);
  return f;
}

TEST(BufferProblem, ElementTypesHaveTritonNamesAndSizes) {
  EXPECT_EQ(elementTypeName(ElementType::kF16), "fp16");
  EXPECT_EQ(elementTypeName(ElementType::kBF16), "bf16");
  EXPECT_EQ(elementTypeName(ElementType::kF64), "fp64");
  EXPECT_EQ(elementTypeName(ElementType::kBool), "i1");
  EXPECT_EQ(elementTypeName(ElementType::kU8), "u8");
  EXPECT_EQ(elementBytes(ElementType::kF16), 2);
  EXPECT_EQ(elementBytes(ElementType::kBF16), 2);
  EXPECT_EQ(elementBytes(ElementType::kF32), 4);
  EXPECT_EQ(elementBytes(ElementType::kF64), 8);
  EXPECT_EQ(elementBytes(ElementType::kI8), 1);
  EXPECT_EQ(elementBytes(ElementType::kI16), 2);
  EXPECT_EQ(elementBytes(ElementType::kI32), 4);
  EXPECT_EQ(elementBytes(ElementType::kI64), 8);
  EXPECT_EQ(elementBytes(ElementType::kU8), 1);
  EXPECT_EQ(elementBytes(ElementType::kBool), 1);
  EXPECT_TRUE(isFloating(ElementType::kBF16));
  EXPECT_TRUE(isFloating(ElementType::kF64));
  EXPECT_FALSE(isFloating(ElementType::kI32));
  EXPECT_FALSE(isFloating(ElementType::kBool));
  EXPECT_EQ(bufferRoleName(BufferSpec::Role::kInput), "input");
  EXPECT_EQ(bufferRoleName(BufferSpec::Role::kOutput), "output");
  EXPECT_EQ(bufferRoleName(BufferSpec::Role::kInOut), "in-out");
}

TEST(BufferProblem, ParsesTritonAndPyTorchNamesAndRefusesTheRest) {
  for (ElementType t :
       {ElementType::kF16, ElementType::kBF16, ElementType::kF32, ElementType::kF64, ElementType::kI8,
        ElementType::kI16, ElementType::kI32, ElementType::kI64, ElementType::kU8, ElementType::kBool}) {
    auto p = parseElementType(elementTypeName(t));
    ASSERT_TRUE(p) << p.error();
    EXPECT_EQ(*p, t);
  }
  EXPECT_EQ(*parseElementType("*fp16"), ElementType::kF16);
  EXPECT_EQ(*parseElementType("*i1"), ElementType::kBool);
  EXPECT_EQ(*parseElementType("torch.half"), ElementType::kF16);
  EXPECT_EQ(*parseElementType("torch.bfloat16"), ElementType::kBF16);
  EXPECT_EQ(*parseElementType("torch.float"), ElementType::kF32);
  EXPECT_EQ(*parseElementType("torch.double"), ElementType::kF64);
  EXPECT_EQ(*parseElementType("torch.long"), ElementType::kI64);
  EXPECT_EQ(*parseElementType("torch.uint8"), ElementType::kU8);
  EXPECT_EQ(*parseElementType("torch.bool"), ElementType::kBool);
  auto bad = parseElementType("*fp8e4nv");
  ASSERT_FALSE(bad);
  EXPECT_EQ(
      bad.error(),
      "element type '*fp8e4nv' is not known: allowed fp16, bf16, fp32, fp64, i1, i8, i16, i32, i64, u8 (a leading "
      "'*' is ignored) or torch.float16, torch.half, torch.bfloat16, torch.float32, torch.float, torch.float64, "
      "torch.double, torch.int8, torch.int16, torch.int32, torch.int64, torch.long, torch.uint8, torch.bool (fp8 "
      "types are not supported)");
  EXPECT_FALSE(parseElementType(""));
  EXPECT_FALSE(parseElementType("FP16"));  // names are exact, as Triton and PyTorch print them
}

TEST(BufferProblem, IndicesAndBytesMoved) {
  BufferProblemSpec s = mixedSpec();
  EXPECT_EQ(s.inputIndices(), (std::vector<int>{0, 1}));
  EXPECT_EQ(s.outputIndices(), (std::vector<int>{2, 3}));
  EXPECT_EQ(s.buffers[0].bytes(), 2048);
  EXPECT_EQ(s.buffers[1].bytes(), 2048);
  // 2048 + 2048 read, the in-out's 4096 read and written, 2048 written.
  EXPECT_EQ(s.bytesMoved(), 2048 + 2048 + 2 * 4096 + 2048);
  s.bytes_moved = 100;
  EXPECT_EQ(s.bytesMoved(), 100);
}

TEST(BufferProblem, SpecChecksNameTheValueAndTheRange) {
  EXPECT_FALSE(checkBufferProblemSpec(mixedSpec()));
  BufferProblemSpec s;
  EXPECT_EQ(checkBufferProblemSpec(s)->message, "a buffer problem with no buffers: allowed 1 or more");
  s.buffers = {buffer("in_ptr0", ElementType::kF32, 8, BufferSpec::Role::kInput)};
  EXPECT_EQ(
      checkBufferProblemSpec(s)->message,
      "a buffer problem with no output buffer: allowed 1 or more output or in-out buffers (the check compares them)");
  s = mixedSpec();
  s.buffers[1].elements = 0;
  EXPECT_EQ(checkBufferProblemSpec(s)->message,
            "buffer 1 (in_ptr1): 0 elements is out of range: allowed 1 … 2147483647");
  s.buffers[1].elements = std::int64_t{1} << 31;
  EXPECT_EQ(checkBufferProblemSpec(s)->message,
            "buffer 1 (in_ptr1): 2147483648 elements is out of range: allowed 1 … 2147483647");
  s.buffers[1].name.clear();
  s.buffers[1].elements = -3;
  EXPECT_EQ(checkBufferProblemSpec(s)->message, "buffer 1: -3 elements is out of range: allowed 1 … 2147483647");
  s = mixedSpec();
  s.bytes_moved = -1;
  EXPECT_EQ(checkBufferProblemSpec(s)->message,
            "bytes moved -1 is out of range: allowed 0 (computed from the buffers) or more");
  s = oneOutput(2147483647, ElementType::kF64);
  s.buffers.push_back(s.buffers[0]);
  s.buffers.push_back(s.buffers[0]);
  EXPECT_EQ(checkBufferProblemSpec(s)->message,
            "the buffers hold 51539607528 bytes in all: allowed at most 17179869184 (16 GiB)");
  auto h = makeHostBuffers(s);
  ASSERT_FALSE(h);
  EXPECT_EQ(h.error(), "the buffers hold 51539607528 bytes in all: allowed at most 17179869184 (16 GiB)");
}

TEST(BufferProblem, InitialContentsHaveTheRightSizesAndIntegersAreZero) {
  auto h = makeHostBuffers(mixedSpec());
  ASSERT_TRUE(h) << h.error();
  ASSERT_EQ(h->initial.size(), 4u);
  EXPECT_EQ(h->initial[0].size(), 2048u);
  EXPECT_EQ(h->initial[1].size(), 2048u);
  EXPECT_EQ(h->initial[2].size(), 4096u);
  EXPECT_TRUE(h->initial[3].empty());  // an output: poisoned on the device, nothing on the host
  for (std::uint8_t byte : h->initial[1]) ASSERT_EQ(byte, 0);
  EXPECT_EQ(h->spec.label, "triton_red_fused_0: 4 buffers");
  // A bool input is true everywhere: a mask that keeps every element.
  BufferProblemSpec mask;
  mask.buffers = {buffer("in_ptr1", ElementType::kBool, 5, BufferSpec::Role::kInput),
                  buffer("out_ptr0", ElementType::kF32, 1, BufferSpec::Role::kOutput)};
  auto m = makeHostBuffers(mask);
  ASSERT_TRUE(m) << m.error();
  EXPECT_EQ(m->initial[0], (std::vector<std::uint8_t>{1, 1, 1, 1, 1}));
}

TEST(BufferProblem, FloatingContentsAreUniformNeverZeroAndRepresentable) {
  BufferProblemSpec s;
  s.buffers = {buffer("a", ElementType::kF16, 4096, BufferSpec::Role::kInput),
               buffer("b", ElementType::kBF16, 4096, BufferSpec::Role::kInput),
               buffer("c", ElementType::kF32, 4096, BufferSpec::Role::kInOut),
               buffer("d", ElementType::kF64, 4096, BufferSpec::Role::kInput),
               buffer("out", ElementType::kF32, 1, BufferSpec::Role::kOutput)};
  auto h = makeHostBuffers(s);
  ASSERT_TRUE(h) << h.error();
  auto check = [](const std::vector<double>& v, const char* what) {
    double lo = 1.0, hi = -1.0;
    for (double x : v) {
      ASSERT_TRUE(std::isfinite(x)) << what;
      ASSERT_NE(x, 0.0) << what;
      ASSERT_LE(std::abs(x), 1.0) << what;
      lo = std::min(lo, x);
      hi = std::max(hi, x);
    }
    EXPECT_LT(lo, -0.9) << what;  // spread over the whole range
    EXPECT_GT(hi, 0.9) << what;
  };
  check(decodeElements(DType::kF16, h->initial[0].data(), 4096), "fp16");
  check(decodeElements(DType::kBF16, h->initial[1].data(), 4096), "bf16");
  check(decodeElements(DType::kF32, h->initial[2].data(), 4096), "fp32");
  std::vector<double> d(4096);
  std::memcpy(d.data(), h->initial[3].data(), 4096 * 8);
  check(d, "fp64");
  // Representable in the type: re-encoding gives the same bytes.
  EXPECT_EQ(encodeElements(DType::kF16, decodeElements(DType::kF16, h->initial[0].data(), 4096)), h->initial[0]);
  EXPECT_EQ(encodeElements(DType::kBF16, decodeElements(DType::kBF16, h->initial[1].data(), 4096)), h->initial[1]);
}

TEST(BufferProblem, ContentsAreDeterministicPerSeedAndDistinctPerBufferAndChunk) {
  BufferProblemSpec s;
  // 5 M elements: two chunks of the parallel fill.
  s.buffers = {buffer("a", ElementType::kF32, 5'000'000, BufferSpec::Role::kInput),
               buffer("b", ElementType::kF32, 5'000'000, BufferSpec::Role::kInput),
               buffer("out", ElementType::kF32, 1, BufferSpec::Role::kOutput)};
  s.seed = 3;
  auto h1 = makeHostBuffers(s);
  auto h2 = makeHostBuffers(s);
  ASSERT_TRUE(h1 && h2);
  EXPECT_EQ(h1->initial, h2->initial);
  EXPECT_NE(h1->initial[0], h1->initial[1]);  // same type and size, another buffer index
  // The second chunk (from element 2^22) does not repeat the first.
  EXPECT_NE(std::memcmp(h1->initial[0].data(), h1->initial[0].data() + 4 * (std::size_t{1} << 22), 4 * 1024), 0);
  s.seed = 4;
  auto h3 = makeHostBuffers(s);
  ASSERT_TRUE(h3);
  EXPECT_NE(h3->initial[0], h1->initial[0]);
  EXPECT_NE(floatAt(h3->initial[0], 0), floatAt(h1->initial[0], 0));
}

TEST(BufferProblem, AComparisonWithinTheToleranceIsOk) {
  const BufferProblemSpec s = oneOutput(1024);
  auto h = makeHostBuffers(mixedSpec());  // any random fp32 values as the reference run's outputs
  ASSERT_TRUE(h);
  std::vector<float> want(1024), got(1024);
  for (std::size_t i = 0; i < 1024; ++i) {
    want[i] = floatAt(h->initial[2], i);
    got[i] = want[i] * (1.0f + 2e-6f);  // another summation order
  }
  const OutputCheck c =
      compareWithReferenceRun(s, {floats(got)}, {floats(want)}, "the outputs of A (the first config that ran)");
  EXPECT_TRUE(c.ok) << c.message;
  EXPECT_EQ(c.mismatches, 0);
  EXPECT_GT(c.max_abs_error, 0.0);
  EXPECT_LT(c.max_abs_error, 1e-5);
  EXPECT_TRUE(c.message.empty());
  EXPECT_EQ(c.compared_with, "the outputs of A (the first config that ran)");
}

TEST(BufferProblem, AComparisonOutsideTheToleranceNamesTheWorstElement) {
  const BufferProblemSpec s = oneOutput(8);
  std::vector<float> want(8, 1.0f);
  std::vector<float> got = want;
  got[5] = 1.5f;
  got[2] = 1.00005f;  // within 1e-4 + 1e-4 × 1
  const OutputCheck c = compareWithReferenceRun(s, {floats(got)}, {floats(want)}, "B");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_DOUBLE_EQ(c.max_abs_error, 0.5);
  EXPECT_EQ(c.message,
            "out_ptr0: 1 of 8 elements differ; worst [5]: got 1.5, want 1 (allowed |error| 0.0001 + 0.0001 × |want|)");
  EXPECT_EQ(c.compared_with, "B");
}

TEST(BufferProblem, TheAbsoluteToleranceScalesWithTheLargestReferenceValue) {
  const BufferProblemSpec s = oneOutput(2);
  // m = 100: atol = 1e-4 × 100 = 0.01 for every element of the buffer (a sum's small elements round
  // like its large ones).
  EXPECT_TRUE(compareWithReferenceRun(s, {floats({100.0f, 0.006f})}, {floats({100.0f, 0.001f})}, "").ok);
  const OutputCheck c = compareWithReferenceRun(s, {floats({100.0f, 0.021f})}, {floats({100.0f, 0.001f})}, "");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.message,
            "out_ptr0: 1 of 2 elements differ; worst [1]: got 0.0209999997, want 0.00100000005 (allowed |error| 0.01 + "
            "0.0001 × |want|)");
  // fp16: (1e-2, 1e-2 · m).
  const BufferProblemSpec h = oneOutput(1, ElementType::kF16);
  auto half = [](float v) {
    const std::uint16_t bits = floatToHalf(v);
    std::vector<std::uint8_t> b(2);
    std::memcpy(b.data(), &bits, 2);
    return b;
  };
  EXPECT_TRUE(compareWithReferenceRun(h, {half(1.0156f)}, {half(1.0f)}, "").ok);
  EXPECT_FALSE(compareWithReferenceRun(h, {half(1.03f)}, {half(1.0f)}, "").ok);
}

// An infinity must meet the same infinity: the tolerance does not stretch to cover it.
TEST(BufferProblem, InfinitiesMustBeEqual) {
  BufferProblemSpec s = oneOutput(2);
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(compareWithReferenceRun(s, {floats({-inf, inf})}, {floats({-inf, inf})}, "X").ok);
  EXPECT_FALSE(compareWithReferenceRun(s, {floats({1.0f, inf})}, {floats({-inf, inf})}, "X").ok);
  EXPECT_FALSE(compareWithReferenceRun(s, {floats({inf, inf})}, {floats({-inf, inf})}, "X").ok);
  EXPECT_FALSE(compareWithReferenceRun(s, {floats({inf, 1.0f})}, {floats({1.0f, 1.0f})}, "X").ok);
}

// An integer output that still holds the poison (0xFF bytes) was not written either.
TEST(BufferProblem, AnIntegerOutputStillPoisonedWasNotWritten) {
  BufferProblemSpec s;
  s.buffers = {buffer("out_ptr0", ElementType::kI64, 2, BufferSpec::Role::kOutput)};
  const OutputCheck c = checkOutputsWritten(s, {std::vector<std::uint8_t>(16, 0xFF)});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.message, "out_ptr0: not written: all 2 elements still hold the poison (0xFF bytes) after the launch");
  EXPECT_TRUE(checkOutputsWritten(s, {std::vector<std::uint8_t>(16, 0)}).ok);
}

TEST(BufferProblem, NaNMustMeetNaN) {
  const BufferProblemSpec s = oneOutput(4);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  // An element neither run wrote (NaN in both) agrees.
  OutputCheck c = compareWithReferenceRun(s, {floats({1.0f, nan, 3.0f, 4.0f})}, {floats({1.0f, nan, 3.0f, 4.0f})}, "");
  EXPECT_TRUE(c.ok) << c.message;
  // NaN against a number (and a number against NaN) differs; NaN is no finite error.
  c = compareWithReferenceRun(s, {floats({1.0f, 2.0f, nan, 4.0f})}, {floats({1.0f, nan, 3.0f, 4.0f})}, "");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_DOUBLE_EQ(c.max_abs_error, 0.0);
  EXPECT_EQ(c.message,
            "out_ptr0: 2 of 4 elements differ; worst [1]: got 2, want nan (allowed |error| 0.0004 + 0.0001 × |want|)");
  // Equal infinities agree.
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_TRUE(compareWithReferenceRun(s, {floats({inf, -inf, 0.0f, 1.0f})}, {floats({inf, -inf, 0.0f, 1.0f})}, "").ok);
}

TEST(BufferProblem, AnOutputThatIsStillPoisonedWasNotWritten) {
  BufferProblemSpec s = oneOutput(8);
  s.buffers.push_back(buffer("out_ptr1", ElementType::kBF16, 4, BufferSpec::Role::kOutput));
  const std::vector<std::uint8_t> poison(32, 0xFF);
  const std::vector<std::uint8_t> written = floats({1, 2, 3, 4, 5, 6, 7, 8});
  const std::vector<std::uint8_t> bf16_poison(8, 0xFF);
  const std::vector<std::uint8_t> bf16_written(8, 0x3F);  // 0x3F3F: 0.746…
  OutputCheck c = checkOutputsWritten(s, {poison, bf16_written});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 8);
  EXPECT_EQ(c.message,
            "out_ptr0: not written: all 8 elements still hold the poison (0xFF bytes, NaN) after the launch (8 "
            "mismatches in all outputs)");
  EXPECT_EQ(c.compared_with, "nothing: no config has checked ok yet");
  c = checkOutputsWritten(s, {written, bf16_poison});
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.message,
            "out_ptr1: not written: all 4 elements still hold the poison (0xFF bytes, NaN) after the launch (4 "
            "mismatches in all outputs)");
  c = checkOutputsWritten(s, {written, bf16_written});
  EXPECT_TRUE(c.ok);
  EXPECT_EQ(c.compared_with, kComparedWithNothing);
  // Against a reference that is all NaN too: still not written (NaN meeting NaN does not save it).
  c = compareWithReferenceRun(s, {poison, bf16_written}, {poison, bf16_written}, "X");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 8);
  EXPECT_EQ(c.message,
            "out_ptr0: not written: all 8 elements still hold the poison (0xFF bytes, NaN) after the launch (8 "
            "mismatches in all outputs)");
  // A kernel that stores NaN (the canonical 0x7FC00000, e.g. a softmax of a row masked to -inf) wrote it.
  std::vector<std::uint8_t> stored_nan(32);
  for (std::size_t i = 0; i < 8; ++i) {
    const std::uint32_t bits = 0x7FC00000u;
    std::memcpy(stored_nan.data() + 4 * i, &bits, 4);
  }
  EXPECT_TRUE(checkOutputsWritten(s, {stored_nan, bf16_written}).ok);
  EXPECT_TRUE(compareWithReferenceRun(s, {stored_nan, bf16_written}, {stored_nan, bf16_written}, "X").ok);
  // Partly written (one element left NaN): written, and that element must then match the reference.
  std::vector<std::uint8_t> partly = written;
  std::memset(partly.data() + 4, 0xFF, 4);
  EXPECT_TRUE(checkOutputsWritten(s, {partly, bf16_written}).ok);
}

TEST(BufferProblem, IntegersMustBeExactlyEqual) {
  BufferProblemSpec s;
  s.buffers = {buffer("idx", ElementType::kI32, 4, BufferSpec::Role::kOutput)};
  EXPECT_TRUE(compareWithReferenceRun(s, {int32s({0, 2, -7, 9})}, {int32s({0, 2, -7, 9})}, "").ok);
  const OutputCheck c = compareWithReferenceRun(s, {int32s({0, 3, -7, 9})}, {int32s({0, 2, -7, 9})}, "");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_DOUBLE_EQ(c.max_abs_error, 1.0);
  EXPECT_EQ(c.message, "idx: 1 of 4 elements differ; worst [1]: got 3, want 2 (i32: must be equal)");
  // An integer output that nothing wrote (0xFF bytes, -1 everywhere) counts as not written: no index
  // kernel writes -1 to every element.
  EXPECT_FALSE(checkOutputsWritten(s, {std::vector<std::uint8_t>(16, 0xFF)}).ok);
  BufferProblemSpec b;
  b.buffers = {buffer("mask", ElementType::kBool, 3, BufferSpec::Role::kInOut)};
  const OutputCheck m = compareWithReferenceRun(b, {{1, 0, 1}}, {{1, 1, 1}}, "");
  EXPECT_EQ(m.message, "mask: 1 of 3 elements differ; worst [1]: got 0, want 1 (i1: must be equal)");
}

TEST(BufferProblem, WrongCountsAndSizesAreMismatchesThatNameThem) {
  BufferProblemSpec s = oneOutput(8);
  s.buffers.push_back(buffer("out_ptr1", ElementType::kF32, 2, BufferSpec::Role::kOutput));
  const auto eight = floats({1, 2, 3, 4, 5, 6, 7, 8});
  const auto two = floats({1, 2});
  OutputCheck c = compareWithReferenceRun(s, {eight}, {eight, two}, "");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.message, "this run: expected 2 output buffer(s), got 1");
  c = compareWithReferenceRun(s, {eight, floats({1, 2, 3})}, {eight, two}, "");
  EXPECT_EQ(c.message, "this run: out_ptr1 holds 12 bytes, expected 8 (2 fp32 elements)");
  c = compareWithReferenceRun(s, {eight, two}, {eight}, "");
  EXPECT_EQ(c.message, "the reference run: expected 2 output buffer(s), got 1");
  c = checkOutputsWritten(s, {two, two});
  EXPECT_EQ(c.message, "this run: out_ptr0 holds 8 bytes, expected 32 (8 fp32 elements)");
  // Mismatches in two outputs: the first is named, the total follows.
  c = compareWithReferenceRun(s, {floats({1, 2, 3, 4, 5, 6, 7, 9}), floats({1, 5})}, {eight, two}, "");
  EXPECT_EQ(c.mismatches, 2);
  EXPECT_EQ(c.message,
            "out_ptr0: 1 of 8 elements differ; worst [7]: got 9, want 8 (allowed |error| 0.0008 + 0.0001 × |want|) (2 "
            "mismatches in all outputs)");
}

TEST(BufferProblem, LargeBuffersCompareAcrossChunks) {
  // 9 M elements (three chunks): one mismatch in the last chunk is found at its index in the buffer.
  constexpr std::int64_t n = 9'000'000;
  const BufferProblemSpec s = oneOutput(n);
  std::vector<float> want(static_cast<std::size_t>(n), 0.5f);
  std::vector<float> got = want;
  got[8'999'990] = -0.5f;
  const OutputCheck c = compareWithReferenceRun(s, {floats(got)}, {floats(want)}, "");
  EXPECT_EQ(c.mismatches, 1);
  EXPECT_EQ(
      c.message,
      "out_ptr0: 1 of 9000000 elements differ; worst [8999990]: got -0.5, want 0.5 (allowed |error| 0.0001 + 0.0001 "
      "× |want|)");
}

TEST(BufferProblem, TheFirstWrittenRunBecomesTheReference) {
  const BufferProblemSpec s = oneOutput(4);
  BufferReference ref;
  EXPECT_TRUE(ref.empty());
  // Not written: no reference yet.
  OutputCheck c = ref.check(s, {std::vector<std::uint8_t>(16, 0xFF)}, "nowrite");
  EXPECT_FALSE(c.ok);
  EXPECT_TRUE(ref.empty());
  c = ref.check(s, {floats({1, 2, 3, 4})}, "XBLOCK=64");
  EXPECT_TRUE(c.ok);
  EXPECT_EQ(c.compared_with, "nothing: these outputs are the reference");
  EXPECT_FALSE(ref.empty());
  EXPECT_EQ(ref.label(), "XBLOCK=64");
  c = ref.check(s, {floats({1, 2, 3, 4.0001f})}, "XBLOCK=128");
  EXPECT_TRUE(c.ok) << c.message;
  EXPECT_EQ(c.compared_with, "the outputs of XBLOCK=64 (the first config that ran)");
  c = ref.check(s, {floats({1, 2, 3, 5})}, "XBLOCK=256");
  EXPECT_FALSE(c.ok);
  EXPECT_EQ(c.compared_with, "the outputs of XBLOCK=64 (the first config that ran)");
  EXPECT_EQ(ref.label(), "XBLOCK=64");  // a failing run never replaces it
  ref.clear();
  EXPECT_TRUE(ref.empty());
  EXPECT_EQ(comparedWithFirstRun("k"), "the outputs of k (the first config that ran)");
}

/// A runner that knows only family problems: the base class's answer to a buffer problem.
class FamilyOnlyRunner final : public GpuRunner {
 public:
  [[nodiscard]] const DeviceInfo& device() const override { return info_; }
  Expected<CopyBandwidth> copyBandwidth(bool) override { return Error{"no"}; }
  std::optional<Error> setProblem(const ProblemSpec&) override { return std::nullopt; }
  std::optional<Error> clearProblem() override { return std::nullopt; }
  RunOutcome run(const GpuModule&, const RunOptions&, const std::atomic<bool>*) override { return {}; }
  [[nodiscard]] std::string contextLost() const override { return {}; }
  [[nodiscard]] std::string driverVersionText() const override { return {}; }

 private:
  DeviceInfo info_;
};

TEST(BufferProblem, ARunnerWithoutBufferProblemsSaysSo) {
  FamilyOnlyRunner r;
  auto e = r.setBufferProblem(mixedSpec());
  ASSERT_TRUE(e);
  EXPECT_EQ(e->message, "this GPU runner cannot run buffer problems (triton_red_fused_0: 4 buffers)");
}

}  // namespace
}  // namespace occx
