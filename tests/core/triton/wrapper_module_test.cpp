// Inductor wrappers: the recorded log_softmax wrappers (static and dynamic shapes) read buffer by
// buffer and launch by launch, a hand-written wrapper with a reused view, and text that is not a
// wrapper.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/triton/kernel_module.h"
#include "core/triton/wrapper_module.h"
#include "tests/support/inductor_scan.h"
#include "tests/support/text_files.h"

using namespace occx::triton;
namespace fs = std::filesystem;

namespace {

using occx::testing_support::kFixtures;
using occx::testing_support::readText;

// The .py files of a fixture (outside its Triton cache), split into the wrapper and the rest.
struct FixtureModules {
  std::vector<fs::path> wrappers;
  std::vector<fs::path> kernels;
};

FixtureModules modulesOf(const std::string& fixture) {
  FixtureModules out;
  for (const auto& sub : fs::directory_iterator(kFixtures / fixture)) {
    if (!sub.is_directory() || sub.path().filename() == "triton") continue;
    for (const auto& f : fs::directory_iterator(sub.path())) {
      if (f.path().extension() != ".py") continue;
      (readText(f.path()).find("def call(") != std::string::npos ? out.wrappers : out.kernels).push_back(f.path());
    }
  }
  return out;
}

WrapperModule parsedWrapper(const fs::path& p) {
  auto w = parseWrapperModule(readText(p), p.string());
  EXPECT_TRUE(w.hasValue()) << w.error();
  return w.hasValue() ? w.value() : WrapperModule{};
}

int lineContaining(const std::string& text, const std::string& part) {
  const std::size_t at = text.find(part);
  if (at == std::string::npos) return 0;
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

const char* const kLogSoftmaxKernel = "triton_red_fused__log_softmax__to_copy_prepare_softmax_online_sub_0";

}  // namespace

TEST(WrapperModule, RecordedLogSoftmaxWrapper) {
  const FixtureModules files = modulesOf("ref_log_softmax");
  ASSERT_EQ(files.wrappers.size(), 1u);
  ASSERT_EQ(files.kernels.size(), 1u);
  const std::string text = readText(files.wrappers[0]);
  EXPECT_TRUE(looksLikeWrapperModule(text));
  const WrapperModule w = parsedWrapper(files.wrappers[0]);
  EXPECT_EQ(w.path, files.wrappers[0].string());
  EXPECT_TRUE(w.warnings.empty()) << w.warnings.front();

  ASSERT_EQ(w.buffers.size(), 2u);
  const WrapperBuffer* in = w.buffer("arg0_1");
  ASSERT_NE(in, nullptr);
  EXPECT_EQ(in->sizes, (std::vector<std::string>{"32768", "8192"}));
  EXPECT_EQ(in->strides, (std::vector<std::string>{"8192", "1"}));
  EXPECT_EQ(in->origin, "input");
  EXPECT_EQ(in->dtype, "torch.float16");  // from get_args()' rand_strided
  EXPECT_EQ(in->line, lineContaining(text, "assert_size_stride(arg0_1,"));

  const WrapperBuffer* out = w.buffer("buf2");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->origin, "allocated");
  EXPECT_EQ(out->dtype, "torch.float32");
  EXPECT_EQ(out->sizes, (std::vector<std::string>{"32768", "8192"}));
  EXPECT_EQ(out->strides, (std::vector<std::string>{"8192", "1"}));
  EXPECT_EQ(out->line, lineContaining(text, "buf2 = empty_strided_cuda("));
  EXPECT_EQ(w.buffer("buf0"), nullptr);

  ASSERT_EQ(w.launches.size(), 1u);
  EXPECT_EQ(w.launches[0].kernel, kLogSoftmaxKernel);
  EXPECT_EQ(w.launches[0].args, (std::vector<std::string>{"arg0_1", "buf2", "32768", "8192"}));
  EXPECT_EQ(w.launches[0].line, lineContaining(text, std::string(kLogSoftmaxKernel) + ".run("));

  ASSERT_EQ(w.kernels.size(), 1u);
  const EmbeddedKernel& k = w.kernels[0];
  EXPECT_EQ(k.name, kLogSoftmaxKernel);
  EXPECT_EQ(k.module_path, "<inductor-cache>/oi/coidgz7gbpgwzjcio4m74z7mu4t4iydekvu3svunoprm46ai2hkl.py");
  EXPECT_EQ(fs::path(k.module_path).stem().string(), files.kernels[0].stem().string());
  EXPECT_EQ(k.line, lineContaining(text, "= async_compile.triton("));
  // The embedded source is the kernel module's text, byte for byte.
  EXPECT_EQ(k.source, readText(files.kernels[0]));
  auto m = parseKernelModule(k.source, k.module_path);
  ASSERT_TRUE(m.hasValue()) << m.error();
  EXPECT_EQ(m->name, kLogSoftmaxKernel);
  EXPECT_EQ(m->sizeHintsText(), "x=32768, r0_=8192");
}

TEST(WrapperModule, DynamicShapesKeepTheirSymbols) {
  const FixtureModules files = modulesOf("dynamic_log_softmax");
  ASSERT_EQ(files.wrappers.size(), 1u);
  const WrapperModule w = parsedWrapper(files.wrappers[0]);
  EXPECT_TRUE(w.warnings.empty()) << w.warnings.front();
  const WrapperBuffer* in = w.buffer("arg2_1");
  ASSERT_NE(in, nullptr);
  // call() asserts (s13, s21); get_args()' concrete (1000, 5000) does not replace them.
  EXPECT_EQ(in->sizes, (std::vector<std::string>{"s13", "s21"}));
  EXPECT_EQ(in->strides, (std::vector<std::string>{"s21", "1"}));
  EXPECT_EQ(in->origin, "input");
  EXPECT_EQ(in->dtype, "torch.float16");
  const WrapperBuffer* out = w.buffer("buf2");
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(out->sizes, (std::vector<std::string>{"s13", "s21"}));
  EXPECT_EQ(out->dtype, "torch.float32");
  ASSERT_EQ(w.launches.size(), 1u);
  EXPECT_EQ(w.launches[0].args, (std::vector<std::string>{"arg2_1", "buf2", "s21", "s13", "s21"}));
  ASSERT_EQ(w.kernels.size(), 1u);
  ASSERT_EQ(files.kernels.size(), 1u);
  EXPECT_EQ(fs::path(w.kernels[0].module_path).stem().string(), files.kernels[0].stem().string());
}

TEST(WrapperModule, EveryRecordedWrapperReadsWithoutWarnings) {
  int wrappers = 0;
  for (const auto& fixture : fs::directory_iterator(kFixtures)) {
    if (!fixture.is_directory()) continue;
    for (const auto& p : modulesOf(fixture.path().filename().string()).wrappers) {
      const WrapperModule w = parsedWrapper(p);
      EXPECT_TRUE(w.warnings.empty()) << p << ": " << w.warnings.front();
      EXPECT_FALSE(w.launches.empty()) << p;
      EXPECT_FALSE(w.kernels.empty()) << p;
      // Every launched kernel is one the wrapper embeds.
      for (const auto& l : w.launches) {
        bool embedded = false;
        for (const auto& k : w.kernels) embedded = embedded || k.name == l.kernel;
        EXPECT_TRUE(embedded) << p << ": " << l.kernel;
      }
      ++wrappers;
    }
  }
  EXPECT_GE(wrappers, 12);
}

TEST(WrapperModule, ReinterpretedViewNamesItsBase) {
  const std::string text =
      "def call(args):\n"
      "    arg0_1, = args\n"
      "    assert_size_stride(arg0_1, (16, 128), (128, 1))\n"
      "    buf3 = empty_strided_cuda((16, 128), (128, 1), torch.float16)\n"
      "    buf4 = reinterpret_tensor(buf3, (16, 128, 1), (128, 1, 1), 0); del buf3  # reuse\n"
      "    buf5 = reinterpret_tensor(buf4, (2048, ), (1, ), 0)  # reuse\n"
      "    triton_poi_fused_0.run(arg0_1, buf4, 2048, stream=stream0)\n";
  ASSERT_TRUE(looksLikeWrapperModule(text));
  auto w = parseWrapperModule(text, "hand.py");
  ASSERT_TRUE(w.hasValue()) << w.error();
  EXPECT_TRUE(w->warnings.empty()) << w->warnings.front();
  ASSERT_EQ(w->buffers.size(), 4u);
  const WrapperBuffer* view = w->buffer("buf4");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(view->origin, "view of buf3");
  EXPECT_EQ(view->sizes, (std::vector<std::string>{"16", "128", "1"}));
  EXPECT_EQ(view->strides, (std::vector<std::string>{"128", "1", "1"}));
  EXPECT_EQ(view->dtype, "torch.float16");  // the base's dtype
  EXPECT_EQ(view->line, 5);
  const WrapperBuffer* flat = w->buffer("buf5");
  ASSERT_NE(flat, nullptr);
  EXPECT_EQ(flat->origin, "view of buf4");
  EXPECT_EQ(flat->sizes, (std::vector<std::string>{"2048"}));
  EXPECT_EQ(flat->dtype, "torch.float16");
  ASSERT_EQ(w->launches.size(), 1u);
  EXPECT_EQ(w->launches[0].kernel, "triton_poi_fused_0");
  EXPECT_EQ(w->launches[0].args, (std::vector<std::string>{"arg0_1", "buf4", "2048"}));
  EXPECT_EQ(w->launches[0].line, 7);
  EXPECT_TRUE(w->kernels.empty());
}

TEST(WrapperModule, UnreadableStatementIsAWarningNamingItsLine) {
  const std::string text =
      "def call(args):\n"
      "    buf0 = empty_strided_cuda((16, ), (1, ) torch.float32)\n"
      "    buf1 = empty_strided_cuda((16, ), (1, ), torch.float32)\n"
      "    triton_poi_fused_0.run(buf1, 16, stream=stream0)\n";
  auto w = parseWrapperModule(text, "warn.py");
  ASSERT_TRUE(w.hasValue()) << w.error();
  ASSERT_EQ(w->warnings.size(), 1u);
  EXPECT_EQ(w->warnings[0].rfind("line 2: ", 0), 0u) << w->warnings[0];
  EXPECT_NE(w->warnings[0].find("could not be read"), std::string::npos) << w->warnings[0];
  EXPECT_EQ(w->buffer("buf0"), nullptr);
  ASSERT_NE(w->buffer("buf1"), nullptr);
  EXPECT_EQ(w->buffer("buf1")->sizes, (std::vector<std::string>{"16"}));
  EXPECT_EQ(w->launches.size(), 1u);
}

TEST(WrapperModule, TextThatIsNotAWrapperIsAnError) {
  auto kernel = parseWrapperModule(
      "@triton_heuristics.pointwise(size_hints={'x': 16})\n@triton.jit\ndef k():\n    pass\n", "kernel.py");
  ASSERT_FALSE(kernel.hasValue());
  EXPECT_NE(kernel.error().find("kernel.py: not an Inductor wrapper module"), std::string::npos) << kernel.error();
  // A call() without kernels is not one either.
  EXPECT_FALSE(looksLikeWrapperModule("def call(args):\n    return args\n"));
  EXPECT_FALSE(parseWrapperModule("def call(args):\n    return args\n", "c.py").hasValue());
  EXPECT_FALSE(parseWrapperModule("", "empty.py").hasValue());
  // A recorded kernel module is not a wrapper.
  const FixtureModules files = modulesOf("ref_log_softmax");
  ASSERT_EQ(files.kernels.size(), 1u);
  const std::string module_text = readText(files.kernels[0]);
  EXPECT_FALSE(looksLikeWrapperModule(module_text));
  EXPECT_FALSE(parseWrapperModule(module_text, files.kernels[0].string()).hasValue());
}
