// Adversarial inputs for the readers of Inductor's and Triton's files, made on demand so that none
// of megabytes has to be committed: the regression tests (tests/core/triton/hostile_cache_test.cpp)
// and the text-scanner benchmark (bench/hostile_scan_bench.cpp) use the same ones.
#pragma once

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace occx::testing_support::hostile {

/// True in builds with the address or the thread sanitizer (each reserves terabytes of address
/// space for its shadow memory, so an address-space limit cannot measure memory there).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitizerReservesAddressSpace = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitizerReservesAddressSpace = true;
#else
inline constexpr bool kSanitizerReservesAddressSpace = false;
#endif
#else
inline constexpr bool kSanitizerReservesAddressSpace = false;
#endif

/// Depth of the folder chains the tests make: beyond the scan's limit of 32, and quick to make
/// (the file system's cost of a chain grows faster than its depth: 100k levels take minutes).
inline constexpr int kTestChainDepth = 2000;

/// Occurrences of `needle` in `text`.
inline std::size_t countOf(std::string_view text, std::string_view needle) {
  std::size_t n = 0;
  for (std::size_t pos = text.find(needle); pos != std::string_view::npos; pos = text.find(needle, pos + 1)) ++n;
  return n;
}

/// One line of "x@triton_heuristics." repeated to `bytes`: no hit starts a line.
inline std::string decoratorLine(std::size_t bytes) {
  const std::string_view unit = "x@triton_heuristics.";
  std::string out;
  out.reserve(bytes + unit.size());
  while (out.size() < bytes) out += unit;
  return out;
}

/// A wrapper of `bytes` whose lines (from line 3) are each an async_compile.triton call that opens
/// its source string and never closes it: "kernel = async_compile.triton('k', '''" (the ''' at
/// column 36).
inline std::string wrapperMarkers(std::size_t bytes) {
  std::string out = "def call(args):\n    pass\n";
  out.reserve(bytes + 64);
  while (out.size() < bytes) out += "kernel = async_compile.triton('k', '''\n";
  return out;
}

/// A wrapper allocating `count` buffers bufI (sizes (I,), float32), each reused as reI.
inline std::string wrapperBuffers(int count) {
  std::string out = "def call(args):\n";
  for (int i = 0; i < count; ++i) {
    const std::string n = std::to_string(i);
    out += "    buf" + n + " = empty_strided_cuda((" + n + ", ), (1, ), torch.float32)\n";
    out += "    re" + n + " = buf" + n + "; del buf" + n + "  # reuse\n";
  }
  out += "    triton_poi_fused_0.run(buf0, 1, stream=stream0)\n";
  return out;
}

/// "@triton_heuristics.reduction(size_hints=[1,1,…])" holding `values` ones, on line 1, and a def.
inline std::string hugeDecoratorModule(std::size_t values) {
  std::string out = "@triton_heuristics.reduction(size_hints=[";
  out.reserve(out.size() + 2 * values + 64);
  for (std::size_t i = 0; i < values; ++i) out += "1,";
  out += "])\ndef k():\n    pass\n";
  return out;
}

namespace detail {
inline void put(std::vector<unsigned char>& b, std::size_t at, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<unsigned char>(v >> (8 * i));
}
inline void elfHeader(std::vector<unsigned char>& b, std::uint64_t shoff, std::uint16_t shnum, std::uint16_t shstrndx) {
  const unsigned char ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0x33, 7};
  std::memcpy(b.data(), ident, sizeof ident);
  put(b, 0x10, 2, 2);      // e_type: executable
  put(b, 0x12, 190, 2);    // e_machine: CUDA
  put(b, 0x28, shoff, 8);  // e_shoff
  put(b, 0x30, 0x5a, 4);   // e_flags: sm_90
  put(b, 0x34, 64, 2);     // e_ehsize
  put(b, 0x3a, 64, 2);     // e_shentsize
  put(b, 0x3c, shnum, 2);
  put(b, 0x3e, shstrndx, 2);
}
inline void section(std::vector<unsigned char>& b, std::uint64_t shoff, std::size_t i, std::uint32_t name,
                    std::uint32_t type, std::uint64_t offset, std::uint64_t size, std::uint32_t link = 0) {
  const std::size_t at = shoff + 64 * i;
  put(b, at, name, 4);
  put(b, at + 4, type, 4);
  put(b, at + 24, offset, 8);
  put(b, at + 32, size, 8);
  put(b, at + 40, link, 4);
}
}  // namespace detail

/// A cubin of `sections` sections (at most 65535) all named at offset 0 of one `table_bytes` name
/// table of 'a' without a NUL: 64 + table_bytes + 64 · sections bytes (5 MB for 65535 and 1 MB).
inline std::vector<unsigned char> sectionNameBombCubin(std::size_t sections, std::size_t table_bytes) {
  const std::uint64_t shoff = 64 + table_bytes;
  std::vector<unsigned char> b(shoff + 64 * sections, 0);
  detail::elfHeader(b, shoff, static_cast<std::uint16_t>(sections), 1);
  std::memset(b.data() + 64, 'a', table_bytes);
  for (std::size_t i = 0; i < sections; ++i) {
    if (i == 1) {
      detail::section(b, shoff, i, 0, 3, 64, table_bytes);  // the name table (SHT_STRTAB)
    } else {
      detail::section(b, shoff, i, 0, 1, 64, 16);
    }
  }
  return b;
}

/// A cubin whose symbol table holds `symbols` symbols all named at offset 0 of one `table_bytes`
/// string table of 'a' without a NUL (sections: null, .shstrtab, .strtab, .symtab).
inline std::vector<unsigned char> symbolNameBombCubin(std::size_t symbols, std::size_t table_bytes) {
  const std::string names = std::string("\0.shstrtab\0.strtab\0.symtab\0", 27);
  const std::uint64_t names_at = 64;
  const std::uint64_t strtab_at = names_at + names.size();
  const std::uint64_t symtab_at = strtab_at + table_bytes;
  const std::uint64_t shoff = symtab_at + 24 * symbols;
  std::vector<unsigned char> b(shoff + 64 * 4, 0);
  detail::elfHeader(b, shoff, 4, 1);
  std::memcpy(b.data() + names_at, names.data(), names.size());
  std::memset(b.data() + strtab_at, 'a', table_bytes);
  for (std::size_t i = 0; i < symbols; ++i) b[symtab_at + 24 * i + 4] = 0x12;  // global function, name 0
  detail::section(b, shoff, 1, 1, 3, names_at, names.size());
  detail::section(b, shoff, 2, 11, 3, strtab_at, table_bytes);
  detail::section(b, shoff, 3, 19, 2, symtab_at, 24 * symbols, 2);
  return b;
}

/// Makes `root` and a chain of `depth` folders "d" below it, one openat at a time (the path of the
/// deepest is far beyond PATH_MAX). Returns "" or what failed.
inline std::string makeFolderChain(const std::filesystem::path& root, int depth) {
  if (::mkdir(root.c_str(), 0755) != 0 && errno != EEXIST) return root.string() + ": " + std::strerror(errno);
  int fd = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return root.string() + ": " + std::strerror(errno);
  for (int i = 0; i < depth; ++i) {
    if (::mkdirat(fd, "d", 0755) != 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      return "level " + std::to_string(i) + ": " + why;
    }
    const int next = ::openat(fd, "d", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    ::close(fd);
    if (next < 0) return "level " + std::to_string(i) + ": " + std::strerror(errno);
    fd = next;
  }
  ::close(fd);
  return {};
}

/// Removes `root` and everything in it, however deep (std::filesystem::remove_all walks a chain
/// 100k deep with memory growing with its depth squared): the entries of each sub-folder are moved
/// up into `root` before the folder is removed. Returns "" or what failed.
inline std::string removeTree(const std::filesystem::path& root) {
  struct stat st {};
  if (::lstat(root.c_str(), &st) != 0)
    return errno == ENOENT ? std::string() : root.string() + ": " + std::strerror(errno);
  if (!S_ISDIR(st.st_mode))
    return ::unlink(root.c_str()) == 0 ? std::string() : root.string() + ": " + std::strerror(errno);
  const int top = ::open(root.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (top < 0) return root.string() + ": " + std::strerror(errno);
  auto names = [](int fd) {
    std::vector<std::string> out;
    const int copy = ::dup(fd);
    if (copy < 0) return out;
    DIR* d = ::fdopendir(copy);
    if (d == nullptr) {
      ::close(copy);
      return out;
    }
    ::rewinddir(d);
    while (const dirent* e = ::readdir(d)) {
      const std::string_view n = e->d_name;
      if (n != "." && n != "..") out.emplace_back(n);
    }
    ::closedir(d);
    return out;
  };
  std::uint64_t moved = 0;
  std::string error;
  for (bool again = true; again && error.empty();) {
    again = false;
    for (const std::string& n : names(top)) {
      struct stat e {};
      if (::fstatat(top, n.c_str(), &e, AT_SYMLINK_NOFOLLOW) != 0) continue;
      if (!S_ISDIR(e.st_mode)) {
        ::unlinkat(top, n.c_str(), 0);
        continue;
      }
      if (::unlinkat(top, n.c_str(), AT_REMOVEDIR) == 0) continue;
      const int child = ::openat(top, n.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (child < 0) {
        error = n + ": " + std::strerror(errno);
        break;
      }
      for (const std::string& inner : names(child)) {
        const std::string up = ".up" + std::to_string(moved++);
        ::renameat(child, inner.c_str(), top, up.c_str());
      }
      ::close(child);
      ::unlinkat(top, n.c_str(), AT_REMOVEDIR);
      again = true;
    }
  }
  ::close(top);
  if (!error.empty()) return error;
  return ::rmdir(root.c_str()) == 0 ? std::string() : root.string() + ": " + std::strerror(errno);
}

/// Adds to a copy of an Inductor run (`dir`, holding triton/0/<hash>/ folders) the three hostile
/// entries of issue 38's acceptance: a FIFO `ab/fifo.py`, a chain of 100k folders `deep/d/d/…`, and
/// a Triton folder `triton/0/NAMEBOMB` with the first folder's JSON and IR and a 5 MB cubin of
/// 65535 sections sharing one unterminated 1 MB name table. Returns "" or what failed.
inline std::string makeHostileTree(const std::filesystem::path& dir, int depth = 100000) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::create_directories(dir / "ab", ec);
  if (::mkfifo((dir / "ab" / "fifo.py").c_str(), 0644) != 0) return std::string("mkfifo: ") + std::strerror(errno);
  if (std::string e = makeFolderChain(dir / "deep", depth); !e.empty()) return e;
  const fs::path triton = dir / "triton" / "0";
  fs::path first;
  for (const auto& e : fs::directory_iterator(triton, ec)) {
    if (first.empty() || e.path() < first) first = e.path();
  }
  if (first.empty()) return triton.string() + ": no Triton folder to copy";
  const fs::path bomb = triton / "NAMEBOMB";
  fs::create_directories(bomb, ec);
  for (const auto& e : fs::directory_iterator(first, ec)) {
    const fs::path to = bomb / e.path().filename();
    if (e.path().extension() == ".cubin") {
      const std::vector<unsigned char> bytes = sectionNameBombCubin(65535, std::size_t{1} << 20);
      const int fd = ::open(to.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (fd < 0) return to.string() + ": " + std::strerror(errno);
      const bool ok = ::write(fd, bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size());
      ::close(fd);
      if (!ok) return to.string() + ": short write";
    } else {
      fs::copy_file(e.path(), to, ec);
      if (ec) return to.string() + ": " + ec.message();
    }
  }
  return {};
}

}  // namespace occx::testing_support::hostile
