#include "core/triton/cubin.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>

namespace occx::triton {
namespace {

constexpr std::uint32_t kShtSymtab = 2;
constexpr std::uint32_t kShtNobits = 8;
constexpr unsigned char kSttFunc = 2;
constexpr std::int64_t kSystemReservedShared = 1024;  ///< the 1 KiB per block CC 8.0+ reserves

enum NvInfoAttribute : unsigned char {
  kMaxThreads = 0x05,
  kParamCbank = 0x0a,
  kRequiredThreads = 0x10,
  kFrameSize = 0x11,
  kMinStackSize = 0x12,
  kKparamInfo = 0x17,
  kCbankParamSize = 0x19,
  kMaxStackSize = 0x23,
  kRegisterCount = 0x2f,
};

/// Longest section or symbol name read. Kernel names of Inductor and NVRTC are a few hundred bytes;
/// the cap keeps a cubin whose sections share one unterminated name table from costing memory
/// of the count times the table's size.
constexpr std::size_t kMaxNameBytes = 4096;

struct Section {
  std::string_view name;  ///< into the cubin's bytes, bounded by the name table
  std::uint32_t type = 0;
  std::uint64_t offset = 0;
  std::uint64_t size = 0;
  std::uint32_t link = 0;
};

struct Symbol {
  std::string_view name;  ///< into the cubin's bytes, bounded by the string table
  unsigned char type = 0;
  std::uint16_t section = 0;
};

class Reader {
 public:
  Reader(std::span<const unsigned char> bytes, std::string_view origin) : b_(bytes), origin_(origin) {}

  template <class T>
  bool get(std::uint64_t offset, T& out) const {
    if (offset > b_.size() || b_.size() - offset < sizeof(T)) return false;
    std::memcpy(&out, b_.data() + offset, sizeof(T));
    return true;
  }
  // The NUL-terminated name at `offset`, which must end before `limit` (the end of its table) and
  // within kMaxNameBytes; nullopt otherwise. A view into the bytes: nothing is copied.
  std::optional<std::string_view> cString(std::uint64_t offset, std::uint64_t limit) const {
    limit = std::min<std::uint64_t>(limit, b_.size());
    if (offset >= limit) return std::nullopt;
    const std::uint64_t span = std::min<std::uint64_t>(limit - offset, kMaxNameBytes + 1);
    const auto* begin = reinterpret_cast<const char*>(b_.data() + offset);
    const void* nul = std::memchr(begin, 0, static_cast<std::size_t>(span));
    if (nul == nullptr) return std::nullopt;
    return std::string_view(begin, static_cast<std::size_t>(static_cast<const char*>(nul) - begin));
  }
  Error fail(const std::string& what) const { return Error{std::string(origin_) + ": " + what}; }
  std::size_t size() const { return b_.size(); }
  const unsigned char* at(std::uint64_t offset) const { return b_.data() + offset; }

 private:
  std::span<const unsigned char> b_;
  std::string_view origin_;
};

Expected<std::vector<Section>> readSections(const Reader& r, int& sm_arch) {
  if (r.size() < 64)
    return r.fail("not a cubin: " + std::to_string(r.size()) + " bytes is shorter than an ELF header (64)");
  const unsigned char* h = r.at(0);
  if (std::memcmp(h,
                  "\x7f"
                  "ELF",
                  4) != 0)
    return r.fail("not a cubin: the file does not start with the ELF magic");
  if (h[4] != 2 || h[5] != 1) return r.fail("not a cubin: only 64-bit little-endian ELF files are read");
  std::uint64_t shoff = 0;
  std::uint32_t flags = 0;
  std::uint16_t shentsize = 0;
  std::uint16_t shnum = 0;
  std::uint16_t shstrndx = 0;
  r.get(0x28, shoff);
  r.get(0x30, flags);
  r.get(0x3a, shentsize);
  r.get(0x3c, shnum);
  r.get(0x3e, shstrndx);
  // Two layouts of e_flags: CUDA's ELF ABI version 7 and earlier (EI_OSABI 0x33, written by the
  // ptxas of CUDA 12, e.g. Triton's bundled one) keeps the SM in the low byte (0x5a0d5a: sm_90);
  // version 8 (EI_OSABI 0x41, CUDA 13) one byte up (0x09005a04). Seen in the same Triton cache.
  sm_arch = static_cast<int>(h[8] >= 8 ? (flags >> 8) & 0xffU : flags & 0xffU);
  if (shentsize < 64) return r.fail("section header size " + std::to_string(shentsize) + " is below 64 bytes");
  if (shnum == 0 || shstrndx >= shnum) return r.fail("no section name table (" + std::to_string(shnum) + " sections)");
  if (shoff > r.size() || (r.size() - shoff) / shentsize < shnum) {
    return r.fail("the section headers run past the end of the file (" + std::to_string(shnum) + " at offset " +
                  std::to_string(shoff) + ", file " + std::to_string(r.size()) + " bytes)");
  }
  std::vector<Section> sections(shnum);
  std::vector<std::uint32_t> name_offsets(shnum);
  for (std::uint16_t i = 0; i < shnum; ++i) {
    const std::uint64_t base = shoff + static_cast<std::uint64_t>(i) * shentsize;
    Section& s = sections[i];
    r.get(base, name_offsets[i]);
    r.get(base + 4, s.type);
    r.get(base + 24, s.offset);
    r.get(base + 32, s.size);
    r.get(base + 40, s.link);
    if (s.type != kShtNobits && (s.offset > r.size() || r.size() - s.offset < s.size)) {
      return r.fail("section " + std::to_string(i) + " runs past the end of the file: offset " +
                    std::to_string(s.offset) + " + size " + std::to_string(s.size) + " > " + std::to_string(r.size()) +
                    " bytes");
    }
  }
  const Section& names = sections[shstrndx];
  if (names.type == kShtNobits)
    return r.fail("the section name table (section " + std::to_string(shstrndx) + ") is empty");
  for (std::uint16_t i = 0; i < shnum; ++i) {
    if (name_offsets[i] >= names.size) continue;
    auto name = r.cString(names.offset + name_offsets[i], names.offset + names.size);
    if (!name) {
      return r.fail("the name of section " + std::to_string(i) + " (at " + std::to_string(name_offsets[i]) +
                    " in the name table) does not end within the table or within " + std::to_string(kMaxNameBytes) +
                    " bytes");
    }
    sections[i].name = *name;
  }
  return sections;
}

Expected<std::vector<Symbol>> readSymbols(const Reader& r, const std::vector<Section>& sections) {
  std::vector<Symbol> symbols;
  for (const Section& s : sections) {
    if (s.type != kShtSymtab) continue;
    if (s.link >= sections.size())
      return r.fail("the symbol table links to section " + std::to_string(s.link) + ", which does not exist");
    const Section& strings = sections[s.link];
    if (strings.type == kShtNobits) return r.fail("the symbol table's string table is empty");
    symbols.reserve(static_cast<std::size_t>(s.size / 24));
    for (std::uint64_t off = s.offset; off + 24 <= s.offset + s.size; off += 24) {
      std::uint32_t name = 0;
      unsigned char info = 0;
      Symbol sym;
      r.get(off, name);
      r.get(off + 4, info);
      r.get(off + 6, sym.section);
      sym.type = info & 0x0fU;
      if (name < strings.size) {
        auto text = r.cString(strings.offset + name, strings.offset + strings.size);
        if (!text) {
          return r.fail("the name of symbol " + std::to_string(symbols.size()) + " (at " + std::to_string(name) +
                        " in the string table) does not end within the table or within " +
                        std::to_string(kMaxNameBytes) + " bytes");
        }
        sym.name = *text;
      }
      symbols.push_back(sym);
    }
    break;
  }
  return symbols;
}

// Calls visit(attribute, payload pointer, payload size) for every record of an .nv.info section.
template <class Visit>
std::optional<Error> forEachRecord(const Reader& r, const Section& s, Visit visit) {
  // readSections checks the bounds of sections with contents; an SHT_NOBITS one may say anything.
  if (s.offset > r.size() || r.size() - s.offset < s.size) {
    return r.fail("'" + std::string(s.name) + "' runs past the end of the file: offset " + std::to_string(s.offset) +
                  " + size " + std::to_string(s.size) + " > " + std::to_string(r.size()) + " bytes");
  }
  std::uint64_t off = s.offset;
  const std::uint64_t end = s.offset + s.size;
  while (off + 2 <= end) {
    const unsigned char format = *r.at(off);
    const unsigned char attribute = *r.at(off + 1);
    off += 2;
    std::uint64_t size = 0;
    if (format == 1 || format == 2 || format == 3) {
      size = 2;
    } else if (format == 4) {
      std::uint16_t n = 0;
      if (off + 2 > end)
        return r.fail("a record of '" + std::string(s.name) + "' is cut short at offset " + std::to_string(off));
      r.get(off, n);
      off += 2;
      size = n;
    } else {
      return r.fail("'" + std::string(s.name) + "' holds a record of unknown format " + std::to_string(format) +
                    " at offset " + std::to_string(off - 2) + " (a newer cubin layout?)");
    }
    if (off + size > end) {
      return r.fail("a record of '" + std::string(s.name) + "' runs past the section's end (attribute " +
                    std::to_string(attribute) + ", " + std::to_string(size) + " bytes)");
    }
    visit(format, attribute, off, size);
    off += size;
  }
  return std::nullopt;
}

// The kernels by name, one per .text.<name> section, with the static shared memory of their
// .nv.shared.<name> section (less the 1 KiB the system reserves, where the cubin has that section).
std::map<std::string_view, CubinKernel> kernelsOfSections(const std::vector<Section>& sections) {
  std::map<std::string_view, CubinKernel> by_name;
  bool has_reserved_shared = false;
  for (const Section& s : sections) {
    if (s.name.starts_with(".nv.shared.reserved")) has_reserved_shared = true;
    if (s.name.starts_with(".text.") && s.name.size() > 6) by_name[s.name.substr(6)].name = s.name.substr(6);
  }
  for (const Section& s : sections) {
    if (s.name.starts_with(".nv.shared.") && !s.name.starts_with(".nv.shared.reserved")) {
      auto it = by_name.find(s.name.substr(11));
      // An SHT_NOBITS section's size is not bounded by the file: keep it within int64 (no overflow below).
      if (it != by_name.end())
        it->second.static_shared_bytes =
            static_cast<std::int64_t>(std::min<std::uint64_t>(s.size, std::uint64_t{1} << 40));
    }
  }
  for (auto& [name, k] : by_name) {
    if (has_reserved_shared)
      k.static_shared_bytes = std::max<std::int64_t>(0, k.static_shared_bytes - kSystemReservedShared);
  }
  return by_name;
}

// The records of the .nv.info section: each kernel's registers, frame and stack sizes, by the
// index of its symbol.
std::optional<Error> readFunctionRecords(const Reader& r, const Section& s, const std::vector<Symbol>& symbols,
                                         std::map<std::string_view, CubinKernel>& by_name) {
  return forEachRecord(r, s, [&](unsigned char format, unsigned char attribute, std::uint64_t off, std::uint64_t size) {
    if (format != 4 || size != 8) return;
    std::uint32_t index = 0;
    std::uint32_t value = 0;
    r.get(off, index);
    r.get(off + 4, value);
    if (index >= symbols.size()) return;
    auto it = by_name.find(symbols[index].name);
    if (it == by_name.end()) return;
    CubinKernel& k = it->second;
    if (attribute == kRegisterCount) k.registers = static_cast<int>(value);
    if (attribute == kFrameSize) k.frame_bytes = value;
    if (attribute == kMinStackSize) k.min_stack_bytes = value;
    if (attribute == kMaxStackSize) k.max_stack_bytes = value;
  });
}

// The records of a kernel's .nv.info.<name> section: its parameters and the threads per block it
// requires or allows at most.
std::optional<Error> readKernelRecords(const Reader& r, const Section& s, CubinKernel& k) {
  return forEachRecord(r, s, [&](unsigned char format, unsigned char attribute, std::uint64_t off, std::uint64_t size) {
    if (attribute == kKparamInfo) ++k.param_count;
    if (attribute == kCbankParamSize && format == 3) {
      std::uint16_t v = 0;
      r.get(off, v);
      k.param_bytes = v;
    }
    if ((attribute == kRequiredThreads || attribute == kMaxThreads) && format == 4 && size == 12) {
      std::uint32_t x = 0;
      std::uint32_t y = 0;
      std::uint32_t z = 0;
      r.get(off, x);
      r.get(off + 4, y);
      r.get(off + 8, z);
      if (attribute == kRequiredThreads || k.required_threads == 0) {
        k.required_threads = static_cast<int>(std::min<std::uint64_t>(1u << 20, std::uint64_t{x} * y * z));
      }
    }
  });
}

}  // namespace

const CubinKernel* CubinInfo::find(std::string_view name) const {
  for (const auto& k : kernels) {
    if (k.name == name) return &k;
  }
  return nullptr;
}

Expected<CubinInfo> readCubin(std::span<const unsigned char> bytes, std::string_view origin) {
  const Reader r(bytes, origin);
  CubinInfo info;
  auto sections = readSections(r, info.sm_arch);
  if (!sections) return Error{sections.error()};
  auto symbols = readSymbols(r, *sections);
  if (!symbols) return Error{symbols.error()};

  std::map<std::string_view, CubinKernel> by_name = kernelsOfSections(*sections);
  for (const Section& s : *sections) {
    if (s.name == ".nv.info") {
      if (auto error = readFunctionRecords(r, s, *symbols, by_name)) return *error;
    } else if (s.name.starts_with(".nv.info.")) {
      auto it = by_name.find(s.name.substr(9));
      if (it == by_name.end()) continue;
      if (auto error = readKernelRecords(r, s, it->second)) return *error;
    }
  }
  for (const Symbol& sym : *symbols) {
    if (sym.type == kSttFunc && !sym.name.empty() && by_name.count(sym.name) == 0 && sym.section < sections->size() &&
        (*sections)[sym.section].name.starts_with(".text.") && (*sections)[sym.section].name.substr(6) == sym.name) {
      by_name[sym.name].name = sym.name;
    }
  }
  for (auto& [name, k] : by_name) info.kernels.push_back(std::move(k));
  if (info.kernels.empty()) return r.fail("holds no kernel (no .text.<name> section)");
  return info;
}

}  // namespace occx::triton
