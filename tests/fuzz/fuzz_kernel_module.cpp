// Fuzz target: the readers of the Python text Inductor leaves on disk. The input is one file's text,
// given to each reader as `occx inductor scan` would: the Python literal parser (parsePythonLiteral,
// parsePythonExpression), the kernel module reader (parseKernelModule, then analyseKernel with the
// built-in GPU data and kernelReport), the wrapper reader when the text looks like a wrapper
// (parseWrapperModule, then parseKernelModule on each kernel source it embeds) and the .best_config
// reader (readBestConfig). Properties checked beyond "no crash":
//   * an error is a non-empty message; the module and wrapper readers' errors name the file;
//   * a parsed literal written back (repr) parses again to the same repr;
//   * an expression ends inside the text, after where it started;
//   * a module has a kernel name, its hash is the file's stem, and each size hint is found by name;
//   * a wrapper finds each of its buffers by name; a best config has num_warps.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

#include "core/gpu/gpu_data.h"
#include "core/triton/inductor_run.h"
#include "core/triton/kernel_module.h"
#include "core/triton/python_literal.h"
#include "core/triton/run_table.h"
#include "core/triton/wrapper_module.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_kernel_module: property violated: %s\n", what);
    std::abort();
  }
}

using occx::triton::PyValue;

// Reads a parsed value as the module readers do (find, intAt, boolAt, stringAt), all the way down.
void visit(const PyValue& v) {
  for (const auto& item : v.items) visit(item);
  for (const auto& [key, value] : v.entries) {
    visit(key);
    visit(value);
    if (key.isString()) {
      require(v.find(key.text) != nullptr, "a string key is found");
      (void)v.intAt(key.text);
      (void)v.boolAt(key.text);
      (void)v.stringAt(key.text);
    }
  }
}

void checkModule(const occx::triton::KernelModule& m, std::string_view stem, std::string_view text) {
  require(!m.name.empty(), "a module has a kernel name");
  require(m.module_hash == stem, "the module hash is the file's stem");
  require(m.source_first_line >= 1, "the source starts on a line");
  require(m.source.size() <= text.size(), "the source is part of the text");
  for (const auto& h : m.size_hints) require(m.sizeHint(h.name) != nullptr, "a size hint is found by name");
  (void)m.sizeHintsText();
  (void)m.dynamicShape();
  (void)m.staticNumel("xnumel");
  (void)occx::triton::kernelKindName(m.kind);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  namespace t = occx::triton;

  if (auto literal = t::parsePythonLiteral(text)) {
    visit(*literal);
    const std::string once = literal->repr();
    auto again = t::parsePythonLiteral(once);
    if (!again) std::fprintf(stderr, "repr: %s\nerror: %s\n", once.c_str(), again.error().c_str());
    require(again.hasValue(), "a literal's repr parses");
    require(again->repr() == once, "a literal's repr parses to the same repr");
  } else {
    require(!literal.error().empty(), "an error has a message");
  }
  if (auto e = t::parsePythonExpression(text, size / 2)) {
    require(e->end > size / 2 && e->end <= size, "an expression ends inside the text, after its start");
  } else {
    require(!e.error().empty(), "an error has a message");
  }

  std::optional<t::BestConfig> best;
  if (auto b = t::readBestConfig(text, "x.best_config")) {
    require(b->num_warps > 0, "a best config has num_warps");
    require(b->path == "x.best_config", "a best config keeps its path");
    best = std::move(b.value());
  } else {
    require(b.error().rfind("x.best_config: ", 0) == 0, "a best config's error names the file");
  }

  if (auto m = t::parseKernelModule(text, "fuzz.py")) {
    checkModule(*m, "fuzz", text);
    t::RunKernel k = t::analyseKernel(std::move(m.value()), {}, best, occx::GpuDatabase::builtin());
    (void)k.analysed();
    (void)k.spillThreshold();
    (void)t::kernelReport(k);
  } else {
    require(m.error().rfind("fuzz.py", 0) == 0, "a module's error names the file");
  }

  if (t::looksLikeWrapperModule(text)) {
    auto w = t::parseWrapperModule(text, "fuzz.py");
    require(w.hasValue(), "a text that looks like a wrapper is read as one");
    for (const auto& b : w->buffers) {
      require(w->buffer(b.name) != nullptr, "a wrapper's buffer is found by name");
      require(b.line >= 1, "a buffer is defined on a line");
    }
    for (const auto& l : w->launches) require(l.line >= 1, "a launch is on a line");
    for (const auto& e : w->kernels) {
      require(e.line >= 1, "an embedded kernel is on a line");
      if (auto m = t::parseKernelModule(e.source, "embedded.py")) checkModule(*m, "embedded", e.source);
    }
  } else {
    require(!t::parseWrapperModule(text, "fuzz.py").hasValue(), "a text that does not look like a wrapper is not one");
  }
  return 0;
}
