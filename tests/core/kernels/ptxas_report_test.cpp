// The compiler's verbose report (ptxas -v) parsed from recorded logs.
#include <gtest/gtest.h>

#include "core/kernels/compile.h"

namespace occx {
namespace {

// Recorded from NVRTC 13.0 (CUDA 13.0): mean_var fp32, XBLOCK 1, RBLOCK 8192, num_warps 2 for sm_90.
constexpr const char* kNvrtc13Spilling =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'occx_mean_var_fp32_x1_r8192_w2' for 'sm_90'\n"
    "ptxas info    : Function properties for occx_mean_var_fp32_x1_r8192_w2\n"
    "ptxas         .     624 bytes stack frame, 1944 bytes spill stores, 1284 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 1 barriers, 624 bytes cumulative stack size, 24 bytes smem\n"
    "ptxas info    : Compile time = 1235.118 ms\n";

// Recorded from NVRTC 13.0 for sm_75: the constant bank is listed too.
constexpr const char* kNvrtc13Sm75 =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Compiling entry function 'k' for 'sm_75'\n"
    "ptxas info    : Function properties for k\n"
    "ptxas         .     80 bytes stack frame, 212 bytes spill stores, 148 bytes spill loads\n"
    "ptxas info    : Used 255 registers, used 1 barriers, 80 bytes cumulative stack size, 256 bytes smem, 372 bytes "
    "cmem[0]\n"
    "ptxas info    : Compile time = 235.086 ms\n";

// The CUDA 11/12 layout: no "used N barriers", the stack line without the "ptxas ." prefix, two
// entry functions and a non-inlined device function with its own stack frame.
constexpr const char* kOlderTwoEntries =
    "ptxas info    : 0 bytes gmem\n"
    "ptxas info    : Function properties for helper\n"
    "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Compiling entry function 'first' for 'sm_80'\n"
    "ptxas info    : Function properties for first\n"
    "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Used 40 registers, 384 bytes smem, 400 bytes cmem[0]\n"
    "ptxas info    : Compiling entry function 'second' for 'sm_80'\n"
    "ptxas info    : Function properties for helper\n"
    "    16 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
    "ptxas info    : Function properties for second\r\n"
    "    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\r\n"
    "ptxas info    : Used 32 registers, 360 bytes cmem[0], 8 bytes cmem[2]\r\n";

TEST(PtxasReport, SpillingKernelFromNvrtc13) {
  auto r = parsePtxasReport(kNvrtc13Spilling, "occx_mean_var_fp32_x1_r8192_w2");
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->function, "occx_mean_var_fp32_x1_r8192_w2");
  EXPECT_EQ(r->arch, "sm_90");
  EXPECT_EQ(r->registers, 255);
  EXPECT_EQ(r->stack_frame_bytes, 624);
  EXPECT_EQ(r->spill_stores_bytes, 1944);
  EXPECT_EQ(r->spill_loads_bytes, 1284);
  EXPECT_EQ(r->static_smem_bytes, 24);
  EXPECT_EQ(r->barriers, 1);
  EXPECT_EQ(r->constant_bytes, 0);
  EXPECT_EQ(r->nSpills(), 156);  // Triton: 624 bytes of local memory / 4
  EXPECT_TRUE(r->spills());
}

TEST(PtxasReport, ConstantBankAndFirstEntryByDefault) {
  auto r = parsePtxasReport(kNvrtc13Sm75);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->function, "k");
  EXPECT_EQ(r->arch, "sm_75");
  EXPECT_EQ(r->static_smem_bytes, 256);
  EXPECT_EQ(r->constant_bytes, 372);
  EXPECT_EQ(r->spill_stores_bytes, 212);
}

TEST(PtxasReport, OlderLayoutPicksTheNamedEntryAndIgnoresDeviceFunctions) {
  auto first = parsePtxasReport(kOlderTwoEntries, "first");
  ASSERT_TRUE(first) << first.error();
  EXPECT_EQ(first->registers, 40);
  EXPECT_EQ(first->stack_frame_bytes, 0);  // not the helper's 16
  EXPECT_EQ(first->static_smem_bytes, 384);
  EXPECT_EQ(first->constant_bytes, 400);
  EXPECT_EQ(first->barriers, 0);
  EXPECT_FALSE(first->spills());
  auto second = parsePtxasReport(kOlderTwoEntries, "second");
  ASSERT_TRUE(second) << second.error();
  EXPECT_EQ(second->registers, 32);
  EXPECT_EQ(second->stack_frame_bytes, 8);
  EXPECT_EQ(second->spill_stores_bytes, 4);
  EXPECT_EQ(second->static_smem_bytes, 0);
  EXPECT_EQ(second->constant_bytes, 360);
  EXPECT_EQ(second->nSpills(), 2);
}

TEST(PtxasReport, MissingPiecesAreErrorsThatSayWhat) {
  auto none = parsePtxasReport(kOlderTwoEntries, "third");
  ASSERT_FALSE(none);
  EXPECT_EQ(none.error(), "the compiler report has no entry function 'third'; found 'first', 'second'");
  auto empty = parsePtxasReport("", "k");
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error(), "the compiler report has no entry function 'k' (was --ptxas-options=-v given?)");
  auto no_used = parsePtxasReport("ptxas info    : Compiling entry function 'k' for 'sm_90'\n", "k");
  ASSERT_FALSE(no_used);
  EXPECT_NE(no_used.error().find("no 'Used N registers' line for entry function 'k'"), std::string::npos);
}

}  // namespace
}  // namespace occx
