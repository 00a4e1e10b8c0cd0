// Fuzz target: the compiler-report parser (parsePtxasReport). The first line of the input is the
// entry function asked for (empty: the first one), the rest is the compiler log. A parsed report
// must hold figures a report can have: a register count, no negative size, the function asked for.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/kernels/compile.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_ptxas: property violated: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto nl = text.find('\n');
  const std::string_view name = text.substr(0, nl);
  const std::string_view log = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
  auto r = occx::parsePtxasReport(log, name);
  if (!r) {
    require(!r.error().empty(), "an error has a message");
    return 0;
  }
  require(r->registers >= 0, "a parsed report has a register count");
  require(r->spill_stores_bytes >= 0 && r->spill_loads_bytes >= 0, "spill sizes are not negative");
  require(r->stack_frame_bytes >= 0 && r->static_smem_bytes >= 0 && r->constant_bytes >= 0, "sizes are not negative");
  require(r->barriers >= 0, "barriers are not negative");
  require(name.empty() || r->function == name, "the report is the one asked for");
  return 0;
}
