// Fuzz target: the cubin reader (readCubin), what `occx inductor scan` reads from every folder of
// Triton's cache to learn a config's registers and local memory. The input is the cubin's bytes.
// Figures read from a damaged cubin may be anything its bytes say (a register count of 70000), so
// beyond "no crash, no out-of-bounds read, no undefined behaviour" the properties are structural:
//   * an error is a message that starts with the file's name;
//   * a cubin read holds at least one kernel, each with a name, names unique, find(name) giving it;
//   * the architecture is e_flags' byte, REQNTID is clamped to 2^20 threads, counts are not negative.
// Seeds: four cubins of tests/data/inductor (11-12 KiB, so fuzz-smoke.sh gives this target 16 KiB
// inputs), two cut short, minimal_hand_assembled.cubin (1.2 KiB: ELF header of red_ref_sum.cubin,
// .shstrtab, .strtab, .symtab of one function, .nv.info with REGCOUNT 21 / FRAME_SIZE 8 / stack
// sizes, red_ref_sum's .nv.info.<kernel>, a 16-byte .text, the .nv.shared sections as SHT_NOBITS)
// and the inputs of the findings in tests/core/fuzz_regressions_test.cpp.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <span>
#include <string>

#include "core/triton/cubin.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_cubin: property violated: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const unsigned char> bytes(data, size);
  auto info = occx::triton::readCubin(bytes, "fuzz.cubin");
  if (!info) {
    require(info.error().rfind("fuzz.cubin: ", 0) == 0, "an error names the file");
    return 0;
  }
  require(!info->kernels.empty(), "a cubin read holds a kernel");
  require(info->sm_arch >= 0 && info->sm_arch <= 255, "the architecture is a byte of e_flags");
  std::set<std::string> names;
  for (const auto& k : info->kernels) {
    require(!k.name.empty(), "every kernel has a name");
    require(names.insert(k.name).second, "kernel names are unique");
    require(info->find(k.name) == &k, "find(name) gives the kernel of that name");
    require(k.param_count >= 0, "the parameter count is not negative");
    require(k.required_threads >= 0 && k.required_threads <= (1 << 20), "REQNTID is clamped to 2^20 threads");
    require(k.param_bytes >= -1 && k.param_bytes <= 0xffff, "CBANK_PARAM_SIZE is a 16-bit value or -1");
    require(k.localBytes() == k.frame_bytes, "local memory is the frame size");
    require(k.frame_bytes >= 0 && k.frame_bytes <= 0xffffffffLL, "FRAME_SIZE is a 32-bit value");
    require(k.tritonSpills() == static_cast<int>(k.frame_bytes / 4), "Triton's spills are a quarter of the frame");
  }
  require(info->find("") == nullptr, "no kernel has an empty name");
  return 0;
}
