// Triton's cache: one folder per compiled variant (named by the base32 of its compile hash), holding
// `<kernel>.json` (the compile metadata), `.cubin`, `.ptx`, `.ttir`, `.source` and more. This reads
// what a config cost without a GPU: its tile (XBLOCK × R0_BLOCK …) from the IR's tensor shapes, its
// num_warps, num_stages and dynamic shared memory from the JSON, its registers and local memory
// from the cubin (core/triton/cubin.h), and the Inductor kernel module it came from (the IR's first
// `#loc` names the module's file).
//
// Source of the layout: Triton 3.6 as it writes its cache (python/triton/compiler/compiler.py,
// runtime/cache.py), recorded in tests/data/inductor. The JSON does not hold the constexpr values
// (XBLOCK, R0_BLOCK); Inductor's tiles are the largest tensor shapes of the kernel's rank.
#pragma once

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/triton/cubin.h"

namespace occx::triton {

/// One compiled variant in Triton's cache.
struct TritonCompiled {
  std::string folder;             ///< the folder's path
  std::string triton_cache_hash;  ///< the folder's name (what .best_config's triton_cache_hash names)
  std::string name;               ///< the kernel's name
  std::string backend;            ///< "cuda", "hip"
  int arch = 0;                   ///< target.arch, e.g. 90
  int warp_size = 32;
  int num_warps = 0;
  int num_stages = 0;
  int num_ctas = 1;
  std::int64_t shared_bytes = 0;  ///< "shared": dynamic shared memory per block, bytes
  std::int64_t global_scratch_size = 0;
  std::int64_t global_scratch_align = 1;
  std::int64_t profile_scratch_size = 0;
  std::int64_t profile_scratch_align = 1;
  std::string triton_version;
  std::string module_path;  ///< the Inductor module the IR's first #loc names; empty when absent
  /// Largest tensor shape of the IR per rank: tile_shapes[r - 1] for rank r (empty when none).
  std::vector<std::vector<std::int64_t>> tile_shapes;
  std::optional<CubinKernel> cubin;  ///< the kernel's record in the cubin; none when unread
  std::string cubin_path;            ///< the .cubin file read; empty when there is none
  int cubin_arch = 0;
  std::vector<std::string> ptx_params;  ///< the .ptx entry's parameter types in order (".u64", ".u32")
  std::vector<std::string> problems;    ///< files missing or unreadable, in words naming the file

  /// The largest IR shape of `rank` dimensions (the kernel's tile); empty when the IR has none.
  [[nodiscard]] std::vector<std::int64_t> tile(int rank) const;
};

/// Reads one cache folder. Error when the folder cannot be listed, holds no `<kernel>.json` (not a
/// compiled variant) or the JSON is not an object with a name; a missing, unreadable (a FIFO, a
/// link loop) or truncated cubin, IR or PTX, and a JSON integer out of its field's range, is a
/// problem listed in the result, and the rest is read.
Expected<TritonCompiled> readTritonCacheFolder(const std::filesystem::path& folder);

/// What scanning a Triton cache found.
struct TritonCacheScan {
  std::vector<TritonCompiled> compiled;
  std::vector<std::string> problems;  ///< folders that could not be read, each naming the folder
  int folders = 0;                    ///< folders looked at
};

/// Reads every folder directly under `root` (the Triton cache: `<root>/<hash>/`). With
/// `kernel_names` non-empty, only folders of those kernels are read in full (the others are
/// counted, not read; Triton cuts long kernel names short in its file names, so a folder whose file
/// name starts one of the names counts). A folder that cannot be listed or read (even for want of
/// memory) is a problem naming it. Stops early when `cancel` becomes true. Never throws.
TritonCacheScan scanTritonCache(const std::filesystem::path& root, const std::vector<std::string>& kernel_names = {},
                                const std::atomic<bool>* cancel = nullptr);

}  // namespace occx::triton
