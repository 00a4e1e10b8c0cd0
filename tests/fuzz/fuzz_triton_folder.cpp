// Fuzz target: the readers of one folder of Triton's cache together, as `occx inductor scan` meets
// it: the compile metadata JSON, the IR (.ttir) and the cubin. The input is split in three at the
// first two lines "--8<--" (JSON, then IR, then the cubin's bytes; missing parts are missing
// files) and written as <scratch>/triton/0/FUZZHASH/kernel.{json,ttir,cubin}; then
// readTritonCacheFolder reads the folder and scanTritonCache the cache around it. Properties beyond
// "no crash, no undefined behaviour, no exception":
//   * an error names the folder or its JSON file; every problem is a non-empty message;
//   * a folder read is named by its hash, has a kernel name, and a tile per rank no larger than 4;
//   * the scan sees the one folder and reads it exactly when readTritonCacheFolder does.
// Seeds (tests/fuzz/corpus/fuzz_triton_folder/): ref_sum's folder of tests/data/inductor with its
// cubin, and the hostile inputs of issue 38 (an unterminated name table shared by every section,
// a JSON with 64-bit values, a truncated cubin).
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>

#include "core/triton/triton_cache.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_triton_folder: property violated: %s\n", what);
    std::abort();
  }
}

namespace fs = std::filesystem;

const fs::path& scratch() {
  static const fs::path dir = [] {
    const fs::path d = fs::temp_directory_path() / ("occx_fuzz_triton_" + std::to_string(::getpid()));
    fs::create_directories(d / "triton" / "0" / "FUZZHASH");
    return d;
  }();
  return dir;
}

void write(const fs::path& p, std::string_view bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  constexpr std::string_view kCut = "\n--8<--\n";
  std::string_view parts[3];
  std::size_t n = 0;
  std::size_t from = 0;
  while (n < 2) {
    const std::size_t at = input.find(kCut, from);
    if (at == std::string_view::npos) break;
    parts[n++] = input.substr(from, at - from);
    from = at + kCut.size();
  }
  parts[n++] = input.substr(from);

  const fs::path cache = scratch() / "triton" / "0";
  const fs::path folder = cache / "FUZZHASH";
  std::error_code ec;
  for (const char* ext : {".json", ".ttir", ".cubin"}) fs::remove(folder / (std::string("kernel") + ext), ec);
  const char* exts[] = {".json", ".ttir", ".cubin"};
  for (std::size_t i = 0; i < n; ++i) write(folder / (std::string("kernel") + exts[i]), parts[i]);

  auto c = occx::triton::readTritonCacheFolder(folder);
  if (c) {
    require(c->triton_cache_hash == "FUZZHASH", "a folder is named by its hash");
    require(!c->name.empty(), "a folder read has a kernel name");
    require(c->tile_shapes.size() <= 4, "tiles of rank 1 to 4");
    for (const auto& p : c->problems) require(!p.empty(), "a problem is a message");
    for (int r = 1; r <= 4; ++r) (void)c->tile(r);
  } else {
    require(c.error().find(folder.string()) != std::string::npos, "an error names the folder or its file");
  }
  const occx::triton::TritonCacheScan scan = occx::triton::scanTritonCache(cache);
  require(scan.folders == 1, "the scan sees the one folder");
  require(scan.compiled.size() == (c ? 1u : 0u), "the scan reads the folder exactly when the reader does");
  for (const auto& p : scan.problems) require(!p.empty(), "a problem is a message");
  return 0;
}
