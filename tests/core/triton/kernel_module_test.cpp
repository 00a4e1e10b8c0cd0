// Inductor kernel modules: recorded ones (looped, persistent, pointwise, dynamic shapes) read field
// by field, and hand-written bad or unusual modules (errors naming the file, warnings instead of
// errors for what a future Inductor may leave out).
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

#include "core/triton/kernel_module.h"
#include "tests/support/inductor_scan.h"
#include "tests/support/text_files.h"

using namespace occx::triton;
namespace fs = std::filesystem;

namespace {

using occx::testing_support::anyContains;
using occx::testing_support::kFixtures;
using occx::testing_support::linesOf;
using occx::testing_support::readText;

bool isWrapper(const std::string& text) {
  return text.find("def call(") != std::string::npos;
}

// The kernel modules (<2 chars>/<hash>.py, not the wrapper) of a fixture whose text satisfies `pick`.
std::vector<fs::path> kernelModules(const std::string& fixture, const std::function<bool(const std::string&)>& pick) {
  std::vector<fs::path> out;
  const fs::path root = kFixtures / fixture;
  for (const auto& sub : fs::directory_iterator(root)) {
    if (!sub.is_directory() || sub.path().filename() == "triton") continue;
    for (const auto& f : fs::directory_iterator(sub.path())) {
      if (f.path().extension() != ".py") continue;
      const std::string text = readText(f.path());
      if (!isWrapper(text) && pick(text)) out.push_back(f.path());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

fs::path onlyModule(const std::string& fixture, const std::string& must_contain) {
  auto found = kernelModules(fixture, [&](const std::string& t) { return t.find(must_contain) != std::string::npos; });
  EXPECT_EQ(found.size(), 1u) << fixture << ": modules holding " << must_contain;
  return found.empty() ? fs::path() : found.front();
}

KernelModule parsedFile(const fs::path& p) {
  auto m = parseKernelModule(readText(p), p.string());
  EXPECT_TRUE(m.hasValue()) << m.error();
  return m.hasValue() ? m.value() : KernelModule{};
}

const char* const kLogSoftmax = "triton_red_fused__log_softmax__to_copy_prepare_softmax_online_sub_0";

}  // namespace

TEST(KernelModule, RecordedLoopedReductionReadFieldByField) {
  const fs::path path = onlyModule("ref_log_softmax", "@triton_heuristics.reduction");
  ASSERT_FALSE(path.empty());
  const std::string text = readText(path);
  const KernelModule m = parsedFile(path);
  EXPECT_EQ(m.path, path.string());
  EXPECT_EQ(m.module_hash, path.stem().string());
  EXPECT_EQ(m.module_hash, "coidgz7gbpgwzjcio4m74z7mu4t4iydekvu3svunoprm46ai2hkl");
  EXPECT_EQ(m.name, kLogSoftmax);
  EXPECT_EQ(m.decorator, "reduction");
  EXPECT_EQ(m.kind, KernelKind::kLoopedReduction);
  EXPECT_EQ(kernelKindName(m.kind), "looped reduction");

  ASSERT_EQ(m.size_hints.size(), 2u);
  EXPECT_EQ(m.size_hints[0].name, "x");
  EXPECT_EQ(m.size_hints[0].value, 32768);
  EXPECT_EQ(m.size_hints[1].name, "r0_");
  EXPECT_EQ(m.size_hints[1].value, 8192);
  ASSERT_NE(m.sizeHint("r0_"), nullptr);
  EXPECT_EQ(m.sizeHint("r0_")->value, 8192);
  EXPECT_TRUE(m.sizeHint("r0_")->symbolic.empty());
  EXPECT_EQ(m.sizeHint("y"), nullptr);
  EXPECT_EQ(m.sizeHintsText(), "x=32768, r0_=8192");
  EXPECT_EQ(m.reduction_hint, "INNER");

  const std::vector<std::pair<std::string, std::string>> signature = {
      {"in_ptr0", "*fp16"}, {"out_ptr2", "*fp32"},   {"xnumel", "i32"},
      {"r0_numel", "i32"},  {"XBLOCK", "constexpr"}, {"R0_BLOCK", "constexpr"}};
  ASSERT_EQ(m.signature.size(), signature.size());
  for (std::size_t i = 0; i < signature.size(); ++i) {
    EXPECT_EQ(m.signature[i].name, signature[i].first) << i;
    EXPECT_EQ(m.signature[i].type, signature[i].second) << i;
  }
  EXPECT_TRUE(m.signature[0].isPointer());
  EXPECT_FALSE(m.signature[2].isPointer());
  EXPECT_TRUE(m.signature[4].isConstexpr());
  EXPECT_FALSE(m.signature[3].isConstexpr());

  ASSERT_TRUE(m.device.has_value());
  EXPECT_EQ(m.device->type, "cuda");
  EXPECT_EQ(m.device->index, 0);
  EXPECT_EQ(m.device->cc, 90);
  EXPECT_EQ(m.device->major, 9);
  EXPECT_EQ(m.device->multi_processor_count, 132);
  EXPECT_EQ(m.device->regs_per_multiprocessor, 65536);
  EXPECT_EQ(m.device->max_threads_per_multi_processor, 2048);
  EXPECT_EQ(m.device->max_threads_per_block, 1024);
  EXPECT_EQ(m.device->warp_size, 32);

  EXPECT_EQ(m.meta.grid_type, "Grid1D");
  EXPECT_TRUE(m.meta.mutated_arg_names.empty());
  EXPECT_EQ(m.meta.num_load, 2);
  EXPECT_EQ(m.meta.num_store, 1);
  EXPECT_EQ(m.meta.num_reduction, 2);
  EXPECT_EQ(m.meta.dynamic_scale_rblock, true);
  EXPECT_EQ(m.meta.spill_threshold, 16);
  EXPECT_FALSE(m.meta.deterministic);
  EXPECT_FALSE(m.meta.max_autotune);
  EXPECT_TRUE(m.meta.add_persistent_rblock);

  ASSERT_EQ(m.static_numels.size(), 2u);
  EXPECT_EQ(m.staticNumel("xnumel"), 32768);
  EXPECT_EQ(m.staticNumel("r0_numel"), 8192);
  EXPECT_EQ(m.staticNumel("rnumel"), std::nullopt);  // "rnumel = r0_numel" is not a number
  EXPECT_EQ(m.dynamic_symbols, 0);
  EXPECT_FALSE(m.dynamicShape());
  EXPECT_TRUE(m.warnings.empty()) << m.warnings.front();

  // The module's decorator is on line 10, its def on 18, and the body uses the tiles on these
  // lines (counted in the file by hand).
  EXPECT_EQ(m.source_first_line, 10);
  EXPECT_EQ(m.tile_lines, (std::vector<int>{22, 23, 24, 25, 26, 29, 30, 31, 39, 52}));
  const auto lines = linesOf(text);
  ASSERT_FALSE(m.tile_lines.empty());
  for (int n : m.tile_lines) {
    ASSERT_GE(n, 1);
    ASSERT_LE(static_cast<std::size_t>(n), lines.size());
    const std::string& line = lines[static_cast<std::size_t>(n) - 1];
    EXPECT_TRUE(line.find("XBLOCK") != std::string::npos || line.find("R0_BLOCK") != std::string::npos)
        << "line " << n << ": " << line;
  }
  EXPECT_EQ(m.source.rfind("@triton_heuristics.reduction(", 0), 0u);
  EXPECT_EQ(lines[static_cast<std::size_t>(m.source_first_line) - 1], "@triton_heuristics.reduction(");
  const std::string last = "tl.store(out_ptr2 + (r0_1 + 8192*x0), tmp9, r0_mask)";
  ASSERT_GE(m.source.size(), last.size());
  EXPECT_EQ(m.source.substr(m.source.size() - last.size()), last);
  EXPECT_NE(text.find(m.source), std::string::npos);
}

TEST(KernelModule, DynamicShapeHasAKsArgumentAndRuntimeNumels) {
  const fs::path path = onlyModule("dynamic_log_softmax", "@triton_heuristics.reduction");
  ASSERT_FALSE(path.empty());
  const KernelModule m = parsedFile(path);
  EXPECT_EQ(m.name, kLogSoftmax);
  EXPECT_EQ(m.kind, KernelKind::kLoopedReduction);
  EXPECT_EQ(m.dynamic_symbols, 1);
  EXPECT_TRUE(m.dynamicShape());
  ASSERT_EQ(m.signature.size(), 7u);
  EXPECT_EQ(m.signature[2].name, "ks0");
  EXPECT_EQ(m.signature[2].type, "i64");
  EXPECT_TRUE(m.static_numels.empty());  // xnumel and r0_numel are runtime arguments
  EXPECT_EQ(m.sizeHintsText(), "x=1024, r0_=8192");
}

TEST(KernelModule, RecordedPersistentReduction) {
  const fs::path path = onlyModule("bert", "def triton_per_fused_gelu_gelu_backward_sum_view_24(");
  ASSERT_FALSE(path.empty());
  const KernelModule m = parsedFile(path);
  EXPECT_EQ(m.name, "triton_per_fused_gelu_gelu_backward_sum_view_24");
  EXPECT_EQ(m.decorator, "persistent_reduction");
  EXPECT_EQ(m.kind, KernelKind::kPersistentReduction);
  EXPECT_EQ(kernelKindName(m.kind), "persistent reduction");
  EXPECT_EQ(m.sizeHintsText(), "x=4096, r0_=16");
  EXPECT_EQ(m.reduction_hint, "OUTER");
  ASSERT_EQ(m.signature.size(), 5u);
  EXPECT_EQ(m.signature.back().name, "XBLOCK");  // no R0_BLOCK argument: it is fixed in the body
  EXPECT_EQ(m.staticNumel("xnumel"), 3072);
  EXPECT_EQ(m.staticNumel("r0_numel"), 16);
  EXPECT_EQ(m.static_numels.size(), 2u);  // "R0_BLOCK: tl.constexpr = 16" is not a numel
  EXPECT_EQ(m.meta.num_load, 1);
  EXPECT_EQ(m.meta.num_reduction, 1);
  EXPECT_FALSE(m.dynamicShape());
  EXPECT_FALSE(m.tile_lines.empty());
  EXPECT_TRUE(m.warnings.empty());
}

TEST(KernelModule, RecordedPointwise) {
  const fs::path path = onlyModule("bert", "def triton_poi_fused_embedding_dense_backward_25(");
  ASSERT_FALSE(path.empty());
  const KernelModule m = parsedFile(path);
  EXPECT_EQ(m.name, "triton_poi_fused_embedding_dense_backward_25");
  EXPECT_EQ(m.kind, KernelKind::kPointwise);
  EXPECT_EQ(kernelKindName(m.kind), "pointwise");
  EXPECT_EQ(m.sizeHintsText(), "x=524288");
  EXPECT_TRUE(m.reduction_hint.empty());
  ASSERT_EQ(m.signature.size(), 3u);
  EXPECT_EQ(m.signature[0].name, "out_ptr0");
  EXPECT_EQ(m.signature[0].type, "*fp32");
  EXPECT_EQ(m.staticNumel("xnumel"), 393216);
  EXPECT_EQ(m.meta.num_load, 0);
  EXPECT_EQ(m.meta.num_store, 1);
  EXPECT_FALSE(m.dynamicShape());
  EXPECT_TRUE(m.warnings.empty());
}

TEST(KernelModule, EveryRecordedKernelModuleParsesWithoutWarnings) {
  int modules = 0;
  for (const auto& fixture : fs::directory_iterator(kFixtures)) {
    if (!fixture.is_directory()) continue;
    for (const auto& p : kernelModules(fixture.path().filename().string(),
                                       [](const std::string& t) { return looksLikeKernelModule(t); })) {
      auto m = parseKernelModule(readText(p), p.string());
      ASSERT_TRUE(m.hasValue()) << m.error();
      EXPECT_FALSE(m->name.empty()) << p;
      EXPECT_TRUE(m->device.has_value()) << p;
      EXPECT_FALSE(m->signature.empty()) << p;
      EXPECT_TRUE(m->warnings.empty()) << p << ": " << m->warnings.front();
      ++modules;
    }
  }
  EXPECT_GT(modules, 100);
}

TEST(KernelModule, NoDecoratorIsAnError) {
  const std::string text = "import triton\n\n@triton.jit\ndef k(x):\n    pass\n";
  EXPECT_FALSE(looksLikeKernelModule(text));
  auto m = parseKernelModule(text, "/cache/ab/cabc.py");
  ASSERT_FALSE(m.hasValue());
  EXPECT_NE(m.error().find("/cache/ab/cabc.py"), std::string::npos) << m.error();
  EXPECT_NE(m.error().find("no @triton_heuristics"), std::string::npos) << m.error();
  // The decorator's name inside a string or after code on a line does not count.
  const std::string quoted = "x = '@triton_heuristics.reduction(size_hints={})'\n";
  EXPECT_FALSE(looksLikeKernelModule(quoted));
  EXPECT_FALSE(parseKernelModule(quoted, "q.py").hasValue());
}

TEST(KernelModule, NonLiteralDecoratorArgumentIsAnErrorNamingTheFile) {
  const std::string text =
      "@triton_heuristics.reduction(\n"
      "    size_hints={'x': 16, 'r0_': 64},\n"
      "    filename=lambda x: x,\n"
      ")\n"
      "@triton.jit\n"
      "def triton_red_fused_sum_0(in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):\n"
      "    xnumel = 16\n";
  auto m = parseKernelModule(text, "/cache/zz/czz.py");
  ASSERT_FALSE(m.hasValue());
  EXPECT_NE(m.error().find("/cache/zz/czz.py"), std::string::npos) << m.error();
  EXPECT_NE(m.error().find("not Python literals"), std::string::npos) << m.error();
  // "    filename=lambda x: x," : the x after lambda is in column 21 of line 3.
  EXPECT_NE(m.error().find("line 3, column 21"), std::string::npos) << m.error();
}

TEST(KernelModule, DecoratorThatIsNotACallIsAnError) {
  auto m = parseKernelModule("@triton_heuristics.reduction\ndef k():\n    pass\n", "n.py");
  ASSERT_FALSE(m.hasValue());
  EXPECT_NE(m.error().find("n.py line 1: the decorator is not a call"), std::string::npos) << m.error();
}

TEST(KernelModule, NoDefAfterTheDecoratorIsAnError) {
  const std::string text = "\n@triton_heuristics.pointwise(size_hints={'x': 16})\n@triton.jit\n# no function\n";
  auto m = parseKernelModule(text, "nodef.py");
  ASSERT_FALSE(m.hasValue());
  EXPECT_NE(m.error().find("nodef.py line 2"), std::string::npos) << m.error();
  EXPECT_NE(m.error().find("no 'def' follows the decorator"), std::string::npos) << m.error();
}

TEST(KernelModule, UnknownDecoratorIsListedAsOtherWithAWarning) {
  const std::string text =
      "@triton_heuristics.foreach(\n"
      "    num_warps=8,\n"
      "    triton_meta={'signature': {'in_ptr0': '*fp32', 'out_ptr0': '*fp32'}, 'device': "
      "DeviceProperties(type='cuda', index=0, cc=90)},\n"
      "    inductor_meta={'kernel_name': 'triton_for_fused_0', 'num_load': 1},\n"
      ")\n"
      "@triton.jit\n"
      "def triton_for_fused_0(in_ptr0, out_ptr0):\n"
      "    xoffset = tl.program_id(0) * XBLOCK\n"
      "\n"
      "def other():\n"
      "    pass\n";
  auto m = parseKernelModule(text, "fe.py");
  ASSERT_TRUE(m.hasValue()) << m.error();
  EXPECT_EQ(m->decorator, "foreach");
  EXPECT_EQ(m->kind, KernelKind::kOther);
  EXPECT_EQ(kernelKindName(m->kind), "other");
  EXPECT_EQ(m->name, "triton_for_fused_0");
  EXPECT_EQ(m->signature.size(), 2u);
  ASSERT_TRUE(m->device.has_value());
  EXPECT_EQ(m->device->cc, 90);
  EXPECT_EQ(m->meta.num_load, 1);
  EXPECT_TRUE(anyContains(m->warnings, "decorator 'foreach' is listed, not analysed"));
  EXPECT_TRUE(anyContains(m->warnings, "no size_hints"));
  // The body ends at the next unindented line.
  EXPECT_EQ(m->tile_lines, (std::vector<int>{8}));
  EXPECT_EQ(m->source.find("def other"), std::string::npos);
  EXPECT_EQ(m->source.substr(m->source.size() - 6), "XBLOCK");
}

TEST(KernelModule, MissingTritonMetaGivesWarningsNotAnError) {
  const std::string text =
      "@triton_heuristics.reduction(\n"
      "    size_hints={'x': 64, 'r0_': ks0},\n"
      "    reduction_hint=ReductionHint.OUTER,\n"
      "    inductor_meta={'kernel_name': 'triton_red_other_name', 'deterministic': True},\n"
      ")\n"
      "@triton.jit\n"
      "def triton_red_fused_sum_0(in_ptr0, xnumel, r0_numel, XBLOCK : tl.constexpr, R0_BLOCK : tl.constexpr):\n"
      "    xnumel = 64\n"
      "    r0_numel = 100\n";
  auto m = parseKernelModule(text, "nometa.py");
  ASSERT_TRUE(m.hasValue()) << m.error();
  EXPECT_EQ(m->kind, KernelKind::kLoopedReduction);
  EXPECT_EQ(m->reduction_hint, "OUTER");
  EXPECT_FALSE(m->device.has_value());
  EXPECT_TRUE(m->signature.empty());
  EXPECT_TRUE(anyContains(m->warnings, "no triton_meta dict"));
  EXPECT_TRUE(anyContains(
      m->warnings,
      "inductor_meta names the kernel 'triton_red_other_name' but the function is 'triton_red_fused_sum_0'"));
  EXPECT_TRUE(m->meta.deterministic);
  EXPECT_EQ(m->meta.dynamic_scale_rblock, std::nullopt);  // absent: Inductor's default applies
  EXPECT_EQ(m->meta.spill_threshold, std::nullopt);
  // A size hint that is a symbol keeps its text and makes the shape dynamic.
  ASSERT_NE(m->sizeHint("r0_"), nullptr);
  EXPECT_FALSE(m->sizeHint("r0_")->value.has_value());
  EXPECT_EQ(m->sizeHint("r0_")->symbolic, "ks0");
  EXPECT_EQ(m->sizeHintsText(), "x=64, r0_=ks0");
  EXPECT_TRUE(m->dynamicShape());
}

TEST(KernelModule, MissingInductorMetaAndDeviceAreWarnings) {
  const std::string text =
      "@triton_heuristics.pointwise(size_hints={'x': 64}, triton_meta={'signature': {'x': 'i32'}})\n"
      "@triton.jit\n"
      "def triton_poi_0(xnumel, XBLOCK : tl.constexpr):\n"
      "    xnumel = 64\n";
  auto m = parseKernelModule(text, "p.py");
  ASSERT_TRUE(m.hasValue()) << m.error();
  EXPECT_TRUE(anyContains(m->warnings, "no inductor_meta dict"));
  EXPECT_TRUE(anyContains(m->warnings, "no DeviceProperties(...) device"));
  EXPECT_FALSE(m->dynamicShape());
  // A numel not fixed in the body makes the shape dynamic.
  const std::string runtime =
      "@triton_heuristics.pointwise(size_hints={'x': 64}, triton_meta={'signature': {'x': 'i32'}})\n"
      "@triton.jit\n"
      "def triton_poi_0(xnumel, XBLOCK : tl.constexpr):\n"
      "    xoffset = 0\n";
  auto r = parseKernelModule(runtime, "r.py");
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_TRUE(r->dynamicShape());
}
