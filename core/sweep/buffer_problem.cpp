#include "core/sweep/buffer_problem.h"

#include <cstdint>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "core/base/parallel.h"
#include "core/kernels/reference.h"

namespace occx {

namespace {

constexpr std::int64_t kMaxElements = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kMaxTotalBytes = std::int64_t{16} << 30;
/// Elements per chunk of the parallel fill and comparison (about 4 M, as live_problem.cpp).
constexpr std::int64_t kChunk = std::int64_t{1} << 22;

/// How messages name buffer `i`: its name, or "buffer i" when it has none.
std::string bufferLabel(const BufferProblemSpec& spec, std::size_t i) {
  const std::string& n = spec.buffers[i].name;
  return n.empty() ? "buffer " + std::to_string(i) : n;
}

/// splitmix64 of (seed, buffer, chunk): distinct, well-mixed seeds per chunk of each buffer.
std::uint64_t bufferChunkSeed(std::uint64_t seed, std::uint64_t buffer, std::uint64_t chunk) {
  std::uint64_t z = seed + 0x9e3779b97f4a7c15ull * (1 + buffer * 0x10001ull + chunk * 0x1000193ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double floatingAt(ElementType t, const std::uint8_t* p, std::size_t i) {
  switch (t) {
    case ElementType::kF16: {
      std::uint16_t h = 0;
      std::memcpy(&h, p + 2 * i, 2);
      return halfToFloat(h);
    }
    case ElementType::kBF16: {
      std::uint16_t h = 0;
      std::memcpy(&h, p + 2 * i, 2);
      return bf16ToFloat(h);
    }
    case ElementType::kF32: {
      float f = 0.0f;
      std::memcpy(&f, p + 4 * i, 4);
      return f;
    }
    default: {
      double d = 0.0;
      std::memcpy(&d, p + 8 * i, 8);
      return d;
    }
  }
}

std::int64_t integerAt(ElementType t, const std::uint8_t* p, std::size_t i) {
  switch (t) {
    case ElementType::kI8: {
      std::int8_t v = 0;
      std::memcpy(&v, p + i, 1);
      return v;
    }
    case ElementType::kI16: {
      std::int16_t v = 0;
      std::memcpy(&v, p + 2 * i, 2);
      return v;
    }
    case ElementType::kI32: {
      std::int32_t v = 0;
      std::memcpy(&v, p + 4 * i, 4);
      return v;
    }
    case ElementType::kI64: {
      std::int64_t v = 0;
      std::memcpy(&v, p + 8 * i, 8);
      return v;
    }
    default:  // u8, bool: one byte, compared as stored
      return p[i];
  }
}

/// Tolerance per floating type, before scaling atol by the buffer's largest |want|.
Tolerance typeTolerance(ElementType t) {
  switch (t) {
    case ElementType::kF16:
      return {1e-2, 1e-2};
    case ElementType::kBF16:
      return {4e-2, 4e-2};
    case ElementType::kF64:
      return {1e-9, 1e-9};
    default:
      return {1e-4, 1e-4};
  }
}

/// One chunk's part of a buffer comparison.
struct ChunkResult {
  std::int64_t mismatches = 0;
  std::int64_t nans = 0;          ///< NaN elements in got (floating)
  double max_abs_error = 0.0;     ///< over finite errors
  double worst_excess = -1.0;     ///< of the worst mismatch (infinity for NaN against a number)
  std::int64_t worst_index = -1;  ///< -1 when the chunk has no mismatch
  double worst_got = 0.0;
  double worst_want = 0.0;
};

std::int64_t chunksOf(std::int64_t elements) {
  return (elements + kChunk - 1) / kChunk;
}

/// Checks the count and sizes of `bufs` against the spec's outputs; false after filling `r`.
bool sizesMatch(const BufferProblemSpec& spec, const std::vector<int>& outs,
                const std::vector<std::vector<std::uint8_t>>& bufs, const char* whose, OutputCheck& r) {
  if (bufs.size() != outs.size()) {
    r.ok = false;
    r.mismatches = 1;
    r.message = std::string(whose) + ": expected " + std::to_string(outs.size()) + " output buffer(s), got " +
                std::to_string(bufs.size());
    return false;
  }
  for (std::size_t t = 0; t < outs.size(); ++t) {
    const BufferSpec& b = spec.buffers[static_cast<std::size_t>(outs[t])];
    if (static_cast<std::int64_t>(bufs[t].size()) != b.bytes()) {
      r.ok = false;
      r.mismatches = 1;
      r.message = std::string(whose) + ": " + bufferLabel(spec, static_cast<std::size_t>(outs[t])) + " holds " +
                  std::to_string(bufs[t].size()) + " bytes, expected " + std::to_string(b.bytes()) + " (" +
                  std::to_string(b.elements) + " " + std::string(elementTypeName(b.type)) + " elements)";
      return false;
    }
  }
  return true;
}

// Integers uniform in [low, high) (splitmix64 of the chunk's seed), `ignore` at its fraction.
void fillIntegers(const BufferSpec& b, const IntegerValues& v, std::uint64_t seed, std::uint8_t* dst, std::size_t n) {
  std::uint64_t state = seed;
  auto next = [&state] {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  };
  // Unsigned arithmetic: the span of [INT64_MIN, INT64_MAX) does not fit a signed integer.
  const std::uint64_t span = static_cast<std::uint64_t>(v.high) - static_cast<std::uint64_t>(v.low);
  const auto ignore_below = static_cast<std::uint64_t>(v.ignore_fraction * 18446744073709551616.0);
  const int width = elementBytes(b.type);
  for (std::size_t i = 0; i < n; ++i) {
    auto value = static_cast<std::int64_t>(static_cast<std::uint64_t>(v.low) + next() % span);
    if (v.ignore && v.ignore_fraction > 0.0 && next() < ignore_below) value = *v.ignore;
    std::uint8_t* p = dst + i * static_cast<std::size_t>(width);
    switch (b.type) {
      case ElementType::kI8: {
        const auto x = static_cast<std::int8_t>(value);
        std::memcpy(p, &x, 1);
        break;
      }
      case ElementType::kU8: {
        const auto x = static_cast<std::uint8_t>(value);
        std::memcpy(p, &x, 1);
        break;
      }
      case ElementType::kI16: {
        const auto x = static_cast<std::int16_t>(value);
        std::memcpy(p, &x, 2);
        break;
      }
      case ElementType::kI32: {
        const auto x = static_cast<std::int32_t>(value);
        std::memcpy(p, &x, 4);
        break;
      }
      default:
        std::memcpy(p, &value, 8);
        break;
    }
  }
}

/// True when every byte still holds the poison (0xFF): nothing was stored. A kernel that stores NaN
/// (a softmax over a row masked to -inf, say) writes the canonical NaN, not this pattern.
bool stillPoisoned(const std::vector<std::uint8_t>& bytes) {
  return std::all_of(bytes.begin(), bytes.end(), [](std::uint8_t v) { return v == 0xFF; });
}

std::string notWrittenMessage(const BufferProblemSpec& spec, int index) {
  const BufferSpec& b = spec.buffers[static_cast<std::size_t>(index)];
  return bufferLabel(spec, static_cast<std::size_t>(index)) + ": not written: all " + std::to_string(b.elements) +
         " elements still hold the poison (0xFF bytes" + (isFloating(b.type) ? ", NaN" : "") + ") after the launch";
}

}  // namespace

std::string_view elementTypeName(ElementType type) {
  switch (type) {
    case ElementType::kF16:
      return "fp16";
    case ElementType::kBF16:
      return "bf16";
    case ElementType::kF32:
      return "fp32";
    case ElementType::kF64:
      return "fp64";
    case ElementType::kI8:
      return "i8";
    case ElementType::kI16:
      return "i16";
    case ElementType::kI32:
      return "i32";
    case ElementType::kI64:
      return "i64";
    case ElementType::kU8:
      return "u8";
    case ElementType::kBool:
      return "i1";
  }
  return "fp32";
}

int elementBytes(ElementType type) {
  switch (type) {
    case ElementType::kF16:
    case ElementType::kBF16:
    case ElementType::kI16:
      return 2;
    case ElementType::kF32:
    case ElementType::kI32:
      return 4;
    case ElementType::kF64:
    case ElementType::kI64:
      return 8;
    case ElementType::kI8:
    case ElementType::kU8:
    case ElementType::kBool:
      return 1;
  }
  return 4;
}

bool isFloating(ElementType type) {
  return type == ElementType::kF16 || type == ElementType::kBF16 || type == ElementType::kF32 ||
         type == ElementType::kF64;
}

Expected<ElementType> parseElementType(std::string_view text) {
  std::string_view t = text;
  if (!t.empty() && t.front() == '*') t.remove_prefix(1);
  struct Name {
    std::string_view name;
    ElementType type;
  };
  static constexpr Name kNames[] = {
      {"fp16", ElementType::kF16},
      {"bf16", ElementType::kBF16},
      {"fp32", ElementType::kF32},
      {"fp64", ElementType::kF64},
      {"i1", ElementType::kBool},
      {"i8", ElementType::kI8},
      {"i16", ElementType::kI16},
      {"i32", ElementType::kI32},
      {"i64", ElementType::kI64},
      {"u8", ElementType::kU8},
      {"torch.float16", ElementType::kF16},
      {"torch.half", ElementType::kF16},
      {"torch.bfloat16", ElementType::kBF16},
      {"torch.float32", ElementType::kF32},
      {"torch.float", ElementType::kF32},
      {"torch.float64", ElementType::kF64},
      {"torch.double", ElementType::kF64},
      {"torch.int8", ElementType::kI8},
      {"torch.int16", ElementType::kI16},
      {"torch.int32", ElementType::kI32},
      {"torch.int64", ElementType::kI64},
      {"torch.long", ElementType::kI64},
      {"torch.uint8", ElementType::kU8},
      {"torch.bool", ElementType::kBool},
  };
  for (const Name& n : kNames) {
    if (n.name == t) return n.type;
  }
  return Error{
      "element type '" + std::string(text) +
      "' is not known: allowed fp16, bf16, fp32, fp64, i1, i8, i16, i32, i64, u8 (a leading '*' is ignored) or "
      "torch.float16, torch.half, torch.bfloat16, torch.float32, torch.float, torch.float64, torch.double, "
      "torch.int8, torch.int16, torch.int32, torch.int64, torch.long, torch.uint8, torch.bool (fp8 types are "
      "not supported)"};
}

std::string_view bufferRoleName(BufferSpec::Role role) {
  switch (role) {
    case BufferSpec::Role::kInput:
      return "input";
    case BufferSpec::Role::kOutput:
      return "output";
    case BufferSpec::Role::kInOut:
      return "in-out";
  }
  return "input";
}

std::vector<int> BufferProblemSpec::inputIndices() const {
  std::vector<int> v;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].role == BufferSpec::Role::kInput) v.push_back(static_cast<int>(i));
  }
  return v;
}

std::vector<int> BufferProblemSpec::outputIndices() const {
  std::vector<int> v;
  for (std::size_t i = 0; i < buffers.size(); ++i) {
    if (buffers[i].role != BufferSpec::Role::kInput) v.push_back(static_cast<int>(i));
  }
  return v;
}

std::int64_t BufferProblemSpec::bytesMoved() const {
  if (bytes_moved > 0) return bytes_moved;
  std::int64_t total = 0;
  for (const BufferSpec& b : buffers) total += b.role == BufferSpec::Role::kInOut ? 2 * b.bytes() : b.bytes();
  return total;
}

std::optional<Error> checkBufferProblemSpec(const BufferProblemSpec& spec) {
  if (spec.buffers.empty()) return Error{"a buffer problem with no buffers: allowed 1 or more"};
  if (spec.outputIndices().empty()) {
    return Error{
        "a buffer problem with no output buffer: allowed 1 or more output or in-out buffers (the check compares "
        "them)"};
  }
  if (spec.bytes_moved < 0) {
    return Error{"bytes moved " + std::to_string(spec.bytes_moved) +
                 " is out of range: allowed 0 (computed from the buffers) or more"};
  }
  std::int64_t total = 0;
  for (std::size_t i = 0; i < spec.buffers.size(); ++i) {
    const BufferSpec& b = spec.buffers[i];
    if (b.elements < 1 || b.elements > kMaxElements) {
      const std::string named = b.name.empty() ? "" : " (" + b.name + ")";
      return Error{"buffer " + std::to_string(i) + named + ": " + std::to_string(b.elements) +
                   " elements is out of range: allowed 1 … " + std::to_string(kMaxElements)};
    }
    total += b.bytes();
    if (b.values) {
      const std::string named = "buffer " + std::to_string(i) + (b.name.empty() ? "" : " (" + b.name + ")");
      if (isFloating(b.type) || b.type == ElementType::kBool || b.role == BufferSpec::Role::kOutput) {
        return Error{named + ": integer values are for integer inputs, not a " + std::string(elementTypeName(b.type)) +
                     " " + std::string(bufferRoleName(b.role))};
      }
      const IntegerValues& v = *b.values;
      const int bits = 8 * elementBytes(b.type);
      const bool is_unsigned = b.type == ElementType::kU8;
      const std::int64_t type_low = is_unsigned ? 0 : (bits >= 64 ? INT64_MIN : -(std::int64_t{1} << (bits - 1)));
      const std::int64_t type_high = bits >= 64 ? INT64_MAX : (std::int64_t{1} << (bits - (is_unsigned ? 0 : 1))) - 1;
      if (!(v.low < v.high) || v.low < type_low || v.high - 1 > type_high) {
        return Error{named + ": values [" + std::to_string(v.low) + ", " + std::to_string(v.high) +
                     ") are out of range: allowed low < high within " + std::to_string(type_low) + " … " +
                     std::to_string(type_high)};
      }
      if (!(v.ignore_fraction >= 0.0 && v.ignore_fraction <= 0.5) ||
          (v.ignore && (*v.ignore < type_low || *v.ignore > type_high))) {
        return Error{named + ": ignore value " + (v.ignore ? std::to_string(*v.ignore) : std::string("none")) +
                     " at fraction " + std::to_string(v.ignore_fraction) +
                     " is out of range: allowed a fraction 0 … 0.5 " + "and a value within " +
                     std::to_string(type_low) + " … " + std::to_string(type_high)};
      }
    }
  }
  if (total > kMaxTotalBytes) {
    return Error{"the buffers hold " + std::to_string(total) + " bytes in all: allowed at most " +
                 std::to_string(kMaxTotalBytes) + " (16 GiB)"};
  }
  return std::nullopt;
}

Expected<HostBuffers> makeHostBuffers(const BufferProblemSpec& spec) {
  if (auto e = checkBufferProblemSpec(spec)) return *e;
  HostBuffers h;
  h.spec = spec;
  h.initial.resize(spec.buffers.size());
  struct Task {
    std::size_t buffer;
    std::int64_t chunk;
  };
  std::vector<Task> tasks;
  for (std::size_t i = 0; i < spec.buffers.size(); ++i) {
    const BufferSpec& b = spec.buffers[i];
    if (b.role == BufferSpec::Role::kOutput) continue;
    // Integer buffers without values stay zero: valid indices for the gathers Inductor's kernels do.
    // Bool buffers are true: a mask that keeps everything (all-false attention masks make every row -inf).
    h.initial[i].assign(static_cast<std::size_t>(b.bytes()), b.type == ElementType::kBool ? 1 : 0);
    if (!isFloating(b.type) && !b.values) continue;
    for (std::int64_t c = 0; c < chunksOf(b.elements); ++c) tasks.push_back({i, c});
  }
  parallelFor(tasks.size(), defaultWorkerThreads(), [&](std::size_t k) {
    const Task& task = tasks[k];
    const BufferSpec& b = spec.buffers[task.buffer];
    const std::int64_t begin = task.chunk * kChunk;
    const auto n = static_cast<std::size_t>(std::min(b.elements, begin + kChunk) - begin);
    const std::uint64_t seed = bufferChunkSeed(spec.seed, task.buffer, static_cast<std::uint64_t>(task.chunk));
    std::uint8_t* dst = h.initial[task.buffer].data() +
                        static_cast<std::size_t>(begin) * static_cast<std::size_t>(elementBytes(b.type));
    if (b.values) {
      fillIntegers(b, *b.values, seed, dst, n);
      return;
    }
    switch (b.type) {
      case ElementType::kF16:
      case ElementType::kBF16:
      case ElementType::kF32: {
        const DType d = b.type == ElementType::kF16    ? DType::kF16
                        : b.type == ElementType::kBF16 ? DType::kBF16
                                                       : DType::kF32;
        const auto bytes = randomInput(d, n, seed);
        std::memcpy(dst, bytes.data(), bytes.size());
        break;
      }
      default: {
        // fp64: fp32 values (uniform in [-1, 1], never zero) widened, exact in double.
        const auto bytes = randomInput(DType::kF32, n, seed);
        const std::vector<double> wide = decodeElements(DType::kF32, bytes.data(), n);
        std::memcpy(dst, wide.data(), n * sizeof(double));
        break;
      }
    }
  });
  return h;
}

namespace {

// The tolerance an output buffer is compared with: none for integers; for floating point the
// type's, its atol scaled by the largest finite |want| of the buffer (at least 1).
Tolerance outputTolerance(const BufferSpec& b, const std::uint8_t* want) {
  if (!isFloating(b.type)) return Tolerance{0.0, 0.0};
  const auto nchunks = static_cast<std::size_t>(chunksOf(b.elements));
  std::vector<double> largest(nchunks, 0.0);
  parallelFor(nchunks, defaultWorkerThreads(), [&](std::size_t c) {
    const auto begin = static_cast<std::size_t>(static_cast<std::int64_t>(c) * kChunk);
    const auto end = static_cast<std::size_t>(std::min(b.elements, static_cast<std::int64_t>(c + 1) * kChunk));
    double m = 0.0;
    for (std::size_t i = begin; i < end; ++i) {
      const double v = std::abs(floatingAt(b.type, want, i));
      if (std::isfinite(v)) m = std::max(m, v);
    }
    largest[c] = m;
  });
  double m = 1.0;
  for (double v : largest) m = std::max(m, v);
  Tolerance tol = typeTolerance(b.type);
  tol.atol *= m;
  return tol;
}

// Compares chunk c of an output buffer, got against want, into r: floating-point elements within
// tol (NaN matches only NaN, an infinity only the same infinity), integers equal.
void compareChunk(const BufferSpec& b, const std::uint8_t* g, const std::uint8_t* w, Tolerance tol, std::size_t c,
                  ChunkResult& r) {
  const bool floating = isFloating(b.type);
  const auto begin = static_cast<std::size_t>(static_cast<std::int64_t>(c) * kChunk);
  const auto end = static_cast<std::size_t>(std::min(b.elements, static_cast<std::int64_t>(c + 1) * kChunk));
  for (std::size_t i = begin; i < end; ++i) {
    double gv = 0.0;
    double wv = 0.0;
    double excess = 0.0;
    bool bad = false;
    if (floating) {
      gv = floatingAt(b.type, g, i);
      wv = floatingAt(b.type, w, i);
      const bool gn = std::isnan(gv);
      const bool wn = std::isnan(wv);
      if (gn && wn) continue;  // an element neither run wrote
      if (gn || wn || (gv != wv && (std::isinf(gv) || std::isinf(wv)))) {
        // NaN against a number, or an infinity against anything but the same infinity.
        bad = true;
        excess = std::numeric_limits<double>::infinity();
      } else if (gv != wv) {  // equal infinities pass
        const double err = std::abs(gv - wv);
        const double allowed = tol.atol + tol.rtol * std::abs(wv);
        if (std::isfinite(err)) r.max_abs_error = std::max(r.max_abs_error, err);
        bad = !(err <= allowed);
        excess = std::isnan(err) ? std::numeric_limits<double>::infinity() : err - allowed;
      }
    } else {
      const std::int64_t gi = integerAt(b.type, g, i);
      const std::int64_t wi = integerAt(b.type, w, i);
      if (gi == wi) continue;
      gv = static_cast<double>(gi);
      wv = static_cast<double>(wi);
      const double err = std::abs(gv - wv);
      r.max_abs_error = std::max(r.max_abs_error, err);
      bad = true;
      excess = err;
    }
    if (!bad) continue;
    ++r.mismatches;
    if (r.worst_index < 0 || excess > r.worst_excess) {
      r.worst_excess = excess;
      r.worst_index = static_cast<std::int64_t>(i);
      r.worst_got = gv;
      r.worst_want = wv;
    }
  }
}

// Compares a whole output buffer, its chunks in parallel: the mismatches summed, the worst of all.
ChunkResult compareOutputBuffer(const BufferSpec& b, const std::uint8_t* g, const std::uint8_t* w, Tolerance tol) {
  const auto nchunks = static_cast<std::size_t>(chunksOf(b.elements));
  std::vector<ChunkResult> parts(nchunks);
  parallelFor(nchunks, defaultWorkerThreads(), [&](std::size_t c) { compareChunk(b, g, w, tol, c, parts[c]); });
  ChunkResult all;
  for (const ChunkResult& r : parts) {
    all.mismatches += r.mismatches;
    all.max_abs_error = std::max(all.max_abs_error, r.max_abs_error);
    if (r.worst_index >= 0 && (all.worst_index < 0 || r.worst_excess > all.worst_excess)) {
      all.worst_excess = r.worst_excess;
      all.worst_index = r.worst_index;
      all.worst_got = r.worst_got;
      all.worst_want = r.worst_want;
    }
  }
  return all;
}

// "out: 3 of 1024 elements differ; worst [17]: got …, want … (allowed …)".
std::string mismatchMessage(const std::string& name, const BufferSpec& b, const ChunkResult& all, Tolerance tol) {
  std::ostringstream s;
  s.precision(9);
  s << name << ": " << all.mismatches << " of " << b.elements << " elements differ; worst [" << all.worst_index
    << "]: got " << all.worst_got << ", want " << all.worst_want;
  if (isFloating(b.type)) {
    s << " (allowed |error| " << tol.atol << " + " << tol.rtol << " × |want|)";
  } else {
    s << " (" << elementTypeName(b.type) << ": must be equal)";
  }
  return s.str();
}

}  // namespace

OutputCheck compareWithReferenceRun(const BufferProblemSpec& spec, const std::vector<std::vector<std::uint8_t>>& got,
                                    const std::vector<std::vector<std::uint8_t>>& reference,
                                    std::string compared_with) {
  OutputCheck result;
  result.compared_with = std::move(compared_with);
  const std::vector<int> outs = spec.outputIndices();
  if (!sizesMatch(spec, outs, got, "this run", result)) return result;
  if (!sizesMatch(spec, outs, reference, "the reference run", result)) return result;
  std::string not_written;  // the first unwritten buffer: named before any that differs
  for (std::size_t t = 0; t < outs.size(); ++t) {
    const auto index = static_cast<std::size_t>(outs[t]);
    const BufferSpec& b = spec.buffers[index];
    const std::string name = bufferLabel(spec, index);
    if (stillPoisoned(got[t])) {
      result.ok = false;
      result.mismatches += b.elements;
      if (not_written.empty()) not_written = notWrittenMessage(spec, outs[t]);
      continue;
    }
    const Tolerance tol = outputTolerance(b, reference[t].data());
    const ChunkResult all = compareOutputBuffer(b, got[t].data(), reference[t].data(), tol);
    result.mismatches += all.mismatches;
    result.max_abs_error = std::max(result.max_abs_error, all.max_abs_error);
    if (all.mismatches > 0 && result.message.empty()) result.message = mismatchMessage(name, b, all, tol);
  }
  if (!not_written.empty()) result.message = not_written;
  result.ok = result.mismatches == 0;
  if (!result.ok && outs.size() > 1) {
    result.message += " (" + std::to_string(result.mismatches) + " mismatches in all outputs)";
  }
  return result;
}

OutputCheck checkOutputsWritten(const BufferProblemSpec& spec, const std::vector<std::vector<std::uint8_t>>& got) {
  OutputCheck result;
  result.compared_with = "nothing: no config has checked ok yet";
  const std::vector<int> outs = spec.outputIndices();
  if (!sizesMatch(spec, outs, got, "this run", result)) return result;
  for (std::size_t t = 0; t < outs.size(); ++t) {
    const BufferSpec& b = spec.buffers[static_cast<std::size_t>(outs[t])];
    if (!stillPoisoned(got[t])) continue;
    result.ok = false;
    result.mismatches += b.elements;
    if (result.message.empty()) result.message = notWrittenMessage(spec, outs[t]);
  }
  if (!result.ok && outs.size() > 1) {
    result.message += " (" + std::to_string(result.mismatches) + " mismatches in all outputs)";
  }
  if (result.ok) result.compared_with = std::string(kComparedWithNothing);
  return result;
}

std::string comparedWithFirstRun(std::string_view label) {
  return "the outputs of " + std::string(label) + " (the first config that ran)";
}

OutputCheck BufferReference::check(const BufferProblemSpec& spec, std::vector<std::vector<std::uint8_t>> got,
                                   const std::string& label) {
  if (outputs_) return compareWithReferenceRun(spec, got, *outputs_, comparedWithFirstRun(label_));
  OutputCheck c = checkOutputsWritten(spec, got);
  if (c.ok) {
    outputs_ = std::move(got);
    label_ = label;
  }
  return c;
}

void BufferReference::clear() {
  outputs_.reset();
  label_.clear();
}

}  // namespace occx
