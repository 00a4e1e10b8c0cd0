// Inductor caches are folders anyone could have written. These inputs once hung the scan (a FIFO
// named like a kernel module), took time quadratic in their size (one long line of decorators, many
// async_compile.triton markers, 100k wrapper buffers), or blew up memory (a cubin whose 65535
// sections share one unterminated 1 MB name table, a folder chain 100k deep, a 63 MB decorator):
// each must finish quickly, with memory a small multiple of the input, and say what it skipped.
// The inputs are generated here; the fixture they are added to is ref_sum (tests/data/inductor).
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "core/base/atomic_file.h"
#include "core/triton/cubin.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_module.h"
#include "core/triton/python_literal.h"
#include "core/triton/run_table.h"
#include "core/triton/triton_cache.h"
#include "core/triton/wrapper_module.h"
#include "tests/support/hostile_inputs.h"
#include "tests/support/in_child.h"

using namespace occx;
using namespace occx::triton;
namespace fs = std::filesystem;
namespace hostile = occx::testing_support::hostile;

namespace {

// Generous: the inputs below took 20 s to 231 s before; linear readers take milliseconds. Under
// AddressSanitizer on a busy 2-core machine the 100k-buffer wrapper took 5.4 s once, so the budget
// there is 15 s (a quadratic reader takes several times its 20 s under the sanitizer).
#if defined(__SANITIZE_ADDRESS__)
#define OCCX_HOSTILE_UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define OCCX_HOSTILE_UNDER_ASAN 1
#endif
#endif
#ifdef OCCX_HOSTILE_UNDER_ASAN
constexpr auto kBudget = std::chrono::seconds(15);
#else
constexpr auto kBudget = std::chrono::seconds(5);
#endif

class Stopwatch {
 public:
  [[nodiscard]] std::chrono::steady_clock::duration elapsed() const {
    return std::chrono::steady_clock::now() - start_;
  }

 private:
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

fs::path scratchCopyOfRefSum(const std::string& tag) {
  const fs::path dst = fs::temp_directory_path() / ("occx_hostile_" + tag + "_" + std::to_string(::getpid()) + "_" +
                                                    std::to_string(::testing::UnitTest::GetInstance()->random_seed()));
  hostile::removeTree(dst);
  fs::copy(std::string(OCCX_INDUCTOR_FIXTURES_DIR) + "/ref_sum", dst, fs::copy_options::recursive);
  return dst;
}

bool anyLineWith(const std::vector<std::string>& lines, const std::string& a, const std::string& b = {}) {
  for (const auto& l : lines) {
    if (l.find(a) != std::string::npos && l.find(b) != std::string::npos) return true;
  }
  return false;
}

RunScanOptions optionsFor(const fs::path& dir) {
  RunScanOptions o;
  o.input = dir.string();
  o.home_triton_cache = false;
  return o;
}

}  // namespace

// Item 1: FIFOs named like every file the scan opens: a module, a .best_config, a Triton folder's
// JSON and the PTX of a config that is read. Opening any of them blocked the scan forever.
TEST(HostileCache, FifosAreSkippedAndNamed) {
  const fs::path dir = scratchCopyOfRefSum("fifo");
  const fs::path triton = dir / "triton" / "0";
  fs::path config;
  for (const auto& e : fs::directory_iterator(triton)) config = e.path();
  ASSERT_FALSE(config.empty());
  fs::create_directories(dir / "zz");
  fs::create_directories(triton / "FIFOJSON");
  const fs::path ptx = config / "triton_red_fused__to_copy_sum_0.ptx";
  fs::remove(ptx);
  for (const fs::path& p : {dir / "zz" / "evil.py", dir / "zz" / "evil.best_config",
                            triton / "FIFOJSON" / "triton_red_fused__to_copy_sum_0.json", ptx}) {
    ASSERT_EQ(::mkfifo(p.c_str(), 0644), 0) << p << ": " << std::strerror(errno);
  }
  const Stopwatch watch;
  auto run = scanInductorRun(optionsFor(dir));
  EXPECT_LT(watch.elapsed(), kBudget);
  ASSERT_TRUE(run.hasValue()) << run.error();
  const auto problems = everyProblem(*run);
  EXPECT_TRUE(anyLineWith(problems, (dir / "zz" / "evil.py").string() + ": skipped: not a regular file (a FIFO)"));
  EXPECT_TRUE(
      anyLineWith(problems, (dir / "zz" / "evil.best_config").string() + ": skipped: not a regular file (a FIFO)"));
  EXPECT_TRUE(anyLineWith(problems, "FIFOJSON", "not a regular file (a FIFO)"));
  EXPECT_TRUE(anyLineWith(problems, ptx.string(), "not a regular file (a FIFO)"));
  // The rest of the run is read as before: the kernel and its compiled config with registers.
  ASSERT_EQ(run->kernels.size(), 1u);
  bool registers = false;
  for (const auto& k : run->kernels) {
    for (const auto& c : k.configs) registers = registers || c.config.n_regs.has_value();
  }
  EXPECT_TRUE(registers);
  hostile::removeTree(dir);
}

// Item 1, a lone module given on the command line: its sibling FIFOs are not opened either.
TEST(HostileCache, FifoBesideALoneModule) {
  const fs::path dir = scratchCopyOfRefSum("fifo_lone");
  fs::path module;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().extension() != ".py") continue;
    auto text = readFile(e.path().string());
    if (text && looksLikeKernelModule(*text)) module = e.path();
  }
  ASSERT_FALSE(module.empty());
  for (const char* name : {"sibling.py", "sibling.best_config"}) {
    const fs::path p = module.parent_path() / name;
    ASSERT_EQ(::mkfifo(p.c_str(), 0644), 0) << std::strerror(errno);
  }
  const Stopwatch watch;
  auto run = scanInductorRun(optionsFor(module));
  EXPECT_LT(watch.elapsed(), kBudget);
  ASSERT_TRUE(run.hasValue()) << run.error();
  EXPECT_TRUE(anyLineWith(run->problems, "sibling.best_config", "not a regular file (a FIFO)"));
  hostile::removeTree(dir);
}

// Item 2: the decorator search looked back to the line's start for every hit: ~20 s at 1 MB.
TEST(HostileCache, LongLineOfDecoratorsIsLinear) {
  const std::string text = hostile::decoratorLine(4 << 20);
  const Stopwatch watch;
  EXPECT_FALSE(looksLikeKernelModule(text));
  auto m = parseKernelModule(text, "long_line.py");
  EXPECT_LT(watch.elapsed(), kBudget);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error(), "long_line.py: no @triton_heuristics decorator: not an Inductor kernel module");
  // One at a line's start after blanks is still found, however long the line before it.
  const std::string found = text + "\n  @triton_heuristics.reduction(size_hints={'x': 8})\ndef k():\n  pass\n";
  auto ok = parseKernelModule(found, "found.py");
  ASSERT_TRUE(ok) << ok.error();
  EXPECT_EQ(ok->name, "k");
  EXPECT_EQ(ok->source_first_line, 2);
}

// Item 2: every marker searched back for "# kernel path:" and re-parsed to the end: 46 s at 1 MB.
TEST(HostileCache, ManyAsyncCompileMarkersAreLinear) {
  const std::string text = hostile::wrapperMarkers(4 << 20);
  const Stopwatch watch;
  auto w = parseWrapperModule(text, "markers.py");
  EXPECT_LT(watch.elapsed(), kBudget);
  ASSERT_TRUE(w) << w.error();
  EXPECT_TRUE(w->kernels.empty());
  // One warning per marker, naming the marker's own line and the column where its string opened.
  const std::size_t markers = hostile::countOf(text, "async_compile.triton(");
  ASSERT_EQ(w->warnings.size(), markers);
  EXPECT_EQ(w->warnings[1000],
            "line 1003: an async_compile.triton(...) call is not 'name', '''source''' (line 1003, column 36: a "
            "string opened here is not closed)");
}

// Error lines of a slice parsed on its own are the file's.
TEST(HostileCache, ParseErrorsOfASliceNameTheFilesLines) {
  const std::string text = "x = 1\ny = f(1,\n  'open";
  auto whole = parsePythonExpression(text, 10);
  ASSERT_FALSE(whole);
  auto slice = parsePythonExpression(std::string_view(text).substr(10), 0, TextPosition{2, 5});
  ASSERT_FALSE(slice);
  EXPECT_EQ(slice.error(), whole.error());
  EXPECT_EQ(slice.error(), "line 3, column 3: a string opened here is not closed");
}

// A kernel after failing markers still gets its own "# kernel path:" comment, and a good call's
// source is read whole.
TEST(HostileCache, KernelPathAfterBrokenMarkers) {
  const std::string text =
      "async_compile.triton(1, 2)\n"
      "async_compile.triton('x', '''\n"
      "# kernel path: /c/ab/cabc.py\n"
      "k = async_compile.triton('k', '''\n@triton_heuristics.pointwise()\ndef k():\n  pass\n''', device_str='cuda')\n"
      "def call(args):\n  k.run(1)\n";
  auto w = parseWrapperModule(text, "w.py");
  ASSERT_TRUE(w) << w.error();
  ASSERT_EQ(w->kernels.size(), 1u);
  EXPECT_EQ(w->kernels[0].name, "k");
  EXPECT_EQ(w->kernels[0].module_path, "/c/ab/cabc.py");
  EXPECT_EQ(w->kernels[0].line, 4);
  EXPECT_EQ(w->warnings.size(), 2u);
}

// Item 2: every buffer was looked up and merged by a linear search: over 20 s for 100k.
TEST(HostileCache, HundredThousandBuffersAreLinear) {
  const std::string text = hostile::wrapperBuffers(100000);
  const Stopwatch watch;
  auto w = parseWrapperModule(text, "buffers.py");
  EXPECT_LT(watch.elapsed(), kBudget);
  ASSERT_TRUE(w) << w.error();
  ASSERT_EQ(w->buffers.size(), 200000u);  // each allocated, then reused under a new name
  const WrapperBuffer* last = w->buffer("buf99999");
  ASSERT_NE(last, nullptr);
  EXPECT_EQ(last->dtype, "torch.float32");
  EXPECT_EQ(last->sizes, std::vector<std::string>{"99999"});
  const WrapperBuffer* reused = w->buffer("re99999");
  ASSERT_NE(reused, nullptr);
  EXPECT_EQ(reused->origin, "reuse of buf99999");
  EXPECT_EQ(w->buffer("buf100000"), nullptr);
}

// Item 3: 65535 sections sharing one unterminated 1 MB name table: every name copied the rest of
// the table (65535 × 1 MB). Names are views bounded by their table and by 4096 bytes.
TEST(HostileCache, CubinNameBombIsRefusedWithoutCopies) {
  const std::vector<unsigned char> bomb = hostile::sectionNameBombCubin(65535, 1 << 20);
  EXPECT_GE(bomb.size(), std::size_t{5} << 20);
  const Stopwatch watch;
  auto info = readCubin(bomb, "bomb.cubin");
  EXPECT_LT(watch.elapsed(), kBudget);
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error(),
            "bomb.cubin: the name of section 0 (at 0 in the name table) does not end within the table or within "
            "4096 bytes");
}

TEST(HostileCache, CubinSymbolNameBombIsRefusedWithoutCopies) {
  const std::vector<unsigned char> bomb = hostile::symbolNameBombCubin(200000, 1 << 20);
  const Stopwatch watch;
  auto info = readCubin(bomb, "symbols.cubin");
  EXPECT_LT(watch.elapsed(), kBudget);
  ASSERT_FALSE(info);
  EXPECT_EQ(info.error(),
            "symbols.cubin: the name of symbol 0 (at 0 in the string table) does not end within the table or "
            "within 4096 bytes");
}

// Item 4: 100k nested folders cost memory growing with depth squared and aborted the process under
// a 4 GB address-space limit; the scan stops 32 levels down and says so. Making a chain costs the
// file system time superlinear in its depth (100k levels: minutes), so the tests use
// hostile::kTestChainDepth levels; the 100k-level tree is measured with the CLI (docs/benchmarks.md).
TEST(HostileCache, DeepFolderChainIsCutAtTheLimit) {
  const fs::path dir = scratchCopyOfRefSum("deep");
  ASSERT_EQ(hostile::makeFolderChain(dir / "deep", hostile::kTestChainDepth), "");
  const Stopwatch watch;
  auto run = scanInductorRun(optionsFor(dir));
  EXPECT_LT(watch.elapsed(), kBudget);
  ASSERT_TRUE(run.hasValue()) << run.error();
  EXPECT_TRUE(anyLineWith(run->problems, (dir / "deep").string(),
                          ": not read: folders more than 32 levels below " + dir.string() + " are not scanned"));
  EXPECT_EQ(run->kernels.size(), 1u);
  EXPECT_EQ(hostile::removeTree(dir), "");
  EXPECT_FALSE(fs::exists(dir));
}

// Item 5: a 63 MB decorator of "[1,1,1,…]" made 31M values (3.5 GB); one expression holds at most
// kMaxPythonValues.
TEST(HostileCache, HugeDecoratorStopsAtTheValueLimit) {
  const std::string text = hostile::hugeDecoratorModule(kMaxPythonValues + 10);
  auto m = parseKernelModule(text, "huge.py");
  ASSERT_FALSE(m);
  EXPECT_NE(m.error().find("huge.py: the decorator's arguments are not Python literals this reader knows (line 1, "
                           "column 524326"),
            std::string::npos)
      << m.error();
  EXPECT_NE(m.error().find("more than 262144 values in one expression"), std::string::npos) << m.error();
  std::string list = "[";
  for (std::size_t i = 1; i < kMaxPythonValues; ++i) list += "1,";
  auto literal = parsePythonLiteral(list + "]");  // the list and its elements: just within the limit
  ASSERT_TRUE(literal) << literal.error();
  EXPECT_EQ(literal->items.size(), kMaxPythonValues - 1);
}

// Done-when of issue 38: one tree with a FIFO, a deep folder chain and the name-bomb cubin in
// a Triton folder of the kernel: the scan ends, with a problem line for each, within 10 s and
// (outside the address and thread sanitizers, which reserve terabytes of address space) 1 GB.
TEST(HostileCache, OneHostileTreeUnderTenSecondsAndOneGigabyte) {
  const fs::path dir = scratchCopyOfRefSum("tree");
  ASSERT_EQ(hostile::makeHostileTree(dir, hostile::kTestChainDepth), "");
  const std::string report = occx::testing_support::inChild([&]() -> std::string {
    if (!hostile::kSanitizerReservesAddressSpace) {
      const rlimit limit{std::uint64_t{1} << 30, std::uint64_t{1} << 30};
      ::setrlimit(RLIMIT_AS, &limit);
    }
    ::alarm(10);  // a hang ends the child: "CHILD FAILED"
    auto run = scanInductorRun(optionsFor(dir));
    if (!run) return "ERROR " + run.error();
    std::string lines;
    for (const auto& p : everyProblem(*run)) lines += p + "\n";
    return lines;
  });
  EXPECT_EQ(report.find("CHILD FAILED"), std::string::npos) << report;
  EXPECT_NE(report.find((dir / "ab" / "fifo.py").string() + ": skipped: not a regular file (a FIFO)"),
            std::string::npos)
      << report;
  EXPECT_NE(report.find(": not read: folders more than 32 levels below"), std::string::npos) << report;
  EXPECT_NE(report.find("NAMEBOMB"), std::string::npos) << report;
  EXPECT_NE(report.find("does not end within the table or within 4096 bytes"), std::string::npos) << report;
  EXPECT_EQ(hostile::removeTree(dir), "");
}
