// A content-addressed disk cache of compile results (report, log and cubin), so a sweep that was
// compiled once is read back in milliseconds. CUDA-free: the compiler (core/cuda) asks and stores.
//
// Key: a 64-bit FNV-1a hash of (entry format version, source, entry point, architecture, compiler
// options, compiler version) names the file; the entry also stores the full source, architecture,
// options and compiler version, and a lookup only hits when all of them are equal, so a hash
// collision is a miss, never a wrong result. Entries are written atomically (temporary file,
// fsync, rename); an entry that is truncated, fails its checksum or does not parse is counted as
// corrupt and recompiled (and then overwritten).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/kernels/compile.h"

namespace occx {

/// Counters of one cache object since it was created.
struct CompileCacheStats {
  std::int64_t hits = 0;          ///< lookups answered from disk
  std::int64_t misses = 0;        ///< lookups with no entry (or a colliding one): compiled
  std::int64_t corrupt = 0;       ///< distinct entries found damaged: compiled again and overwritten
  std::int64_t stores = 0;        ///< entries written
  std::int64_t store_errors = 0;  ///< entries that could not be written (the compile still succeeds)
};

/// A damaged entry found by lookup(): its file and what was wrong with it.
struct CorruptCacheEntry {
  std::string path;
  std::string reason;     ///< e.g. "checksum mismatch (the payload was changed)", "truncated or padded: …"
  bool replaced = false;  ///< store() has since written a good entry in its place
};

/// 64-bit FNV-1a of bytes (offset basis 0xcbf29ce484222325, prime 0x100000001b3).
std::uint64_t fnv1a64(std::string_view bytes, std::uint64_t seed = 0xcbf29ce484222325ull);

class CompileCache {
 public:
  /// A cache in `directory` (created on first store, with parents). Empty directory: a cache that
  /// never hits and never stores.
  explicit CompileCache(std::string directory);

  /// The user's cache folder for this program: $XDG_CACHE_HOME/occupancy-explorer when
  /// XDG_CACHE_HOME is set and absolute, else $HOME/.cache/occupancy-explorer; empty when neither
  /// is known.
  static std::string defaultDirectory();

  /// The entry's file name stem: 16 hex digits of the key hash.
  static std::string keyHex(const CompileRequest& request, const std::vector<std::string>& options,
                            std::string_view compiler);

  /// The stored result for this exact request (source, entry point, arch, options, compiler), with
  /// cache_hit set; nullopt on a miss or a corrupt entry (counted). When the entry is damaged and
  /// this is the first report of it (see corruptEntries), `damage` (if given) receives
  /// "PATH (REASON)". Thread-safe.
  std::optional<CompileResult> lookup(const CompileRequest& request, const std::vector<std::string>& options,
                                      std::string_view compiler, std::string* damage = nullptr);

  /// Stores a result for this request atomically. Returns the file path, or an Error naming the path
  /// and the reason (counted; the caller keeps its result). Thread-safe.
  Expected<std::string> store(const CompileRequest& request, const std::vector<std::string>& options,
                              std::string_view compiler, const CompileResult& result);

  [[nodiscard]] const std::string& directory() const { return dir_; }
  /// Path of the entry for a key (directory/nvrtc/<key>.occxc).
  [[nodiscard]] std::string entryPath(const std::string& key_hex) const;
  [[nodiscard]] CompileCacheStats stats() const;
  /// Every damaged entry lookup() met since the cache object was created, in the order found, for
  /// the caller to report: the entry is then recompiled and overwritten. A file is listed (and
  /// counted in stats().corrupt) once until store() replaces it, however often it is looked up.
  [[nodiscard]] std::vector<CorruptCacheEntry> corruptEntries() const;

 private:
  /// Records a damaged entry; true when it is news (not reported since the file was last stored).
  bool noteCorrupt(const std::string& path, std::string reason);

  std::string dir_;
  std::atomic<std::int64_t> hits_{0}, misses_{0}, corrupt_{0}, stores_{0}, store_errors_{0};
  mutable std::mutex corrupt_mutex_;
  std::vector<CorruptCacheEntry> corrupt_entries_;
  std::set<std::string> unrepaired_;  ///< damaged files not yet replaced by store()
};

}  // namespace occx
