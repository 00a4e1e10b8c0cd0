#include "core/kernels/kernel_family.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include "core/base/pow2.h"
#include "core/base/text.h"

namespace occx {

namespace {

constexpr std::array<std::string_view, 6> kWorkloadNames = {"sum",      "sum_sq",      "amax",
                                                            "mean_var", "log_softmax", "fused_k"};

int accumulatorTiles(Workload w, int k) {
  switch (w) {
    case Workload::kMeanVar:
      return 3;
    case Workload::kLogSoftmax:
      return 2;
    case Workload::kFusedK:
      return k;
    default:
      return 1;
  }
}

}  // namespace

std::string_view workloadName(Workload w) {
  return kWorkloadNames[static_cast<std::size_t>(w)];
}

Expected<Workload> parseWorkload(std::string_view text) {
  const std::string t = lowerAscii(text);
  for (std::size_t i = 0; i < kWorkloadNames.size(); ++i) {
    if (t == kWorkloadNames[i]) return static_cast<Workload>(i);
  }
  std::string names;
  for (auto n : kWorkloadNames) names += (names.empty() ? "" : ", ") + std::string(n);
  return Error{"workload '" + std::string(text) + "' is not known: allowed " + names};
}

const std::vector<Workload>& allWorkloads() {
  static const std::vector<Workload> all = {Workload::kSum,     Workload::kSumSq,      Workload::kAmax,
                                            Workload::kMeanVar, Workload::kLogSoftmax, Workload::kFusedK};
  return all;
}

std::string_view dtypeName(DType d) {
  switch (d) {
    case DType::kF16:
      return "fp16";
    case DType::kBF16:
      return "bf16";
    default:
      return "fp32";
  }
}

Expected<DType> parseDType(std::string_view text) {
  const std::string t = lowerAscii(text);
  if (t == "fp32" || t == "float32" || t == "f32" || t == "float") return DType::kF32;
  if (t == "fp16" || t == "float16" || t == "f16" || t == "half") return DType::kF16;
  if (t == "bf16" || t == "bfloat16") return DType::kBF16;
  return Error{"dtype '" + std::string(text) + "' is not known: allowed fp32, fp16, bf16"};
}

const std::vector<DType>& allDTypes() {
  static const std::vector<DType> all = {DType::kF32, DType::kF16, DType::kBF16};
  return all;
}

int dtypeBytes(DType d) {
  return d == DType::kF32 ? 4 : 2;
}

DType outputDType(const KernelConfig& c) {
  return c.fp32_outputs ? DType::kF32 : c.dtype;
}

std::string KernelConfig::label() const {
  std::string s = std::string(workloadName(workload));
  if (workload == Workload::kFusedK) s += " K=" + std::to_string(k);
  s += " " + std::string(dtypeName(dtype)) + " XBLOCK=" + std::to_string(xblock) + " RBLOCK=" + std::to_string(rblock) +
       " num_warps=" + std::to_string(num_warps);
  if (fp32_outputs && dtype != DType::kF32) s += " fp32 outputs";
  if (max_registers > 0) s += " maxrregcount=" + std::to_string(max_registers);
  if (!vector_loads) s += " scalar loads";
  if (staticShape()) s += " for " + std::to_string(static_xnumel) + " × " + std::to_string(static_rnumel);
  return s;
}

int numInputs(Workload w, int k) {
  return w == Workload::kFusedK ? k : 1;
}

int numOutputs(Workload w, int k) {
  if (w == Workload::kMeanVar) return 2;
  if (w == Workload::kFusedK) return k;
  return 1;
}

std::int64_t outputElements(Workload w, std::int64_t xnumel, std::int64_t rnumel) {
  return w == Workload::kLogSoftmax ? xnumel * rnumel : xnumel;
}

namespace {

/// The numels of one problem (`what` prefixes the names: "" or "static "): each 1 … 2^31−1, their
/// product within the kernels' 32-bit indexing, and so is the shape padded to the tile (XBLOCK ×
/// RBLOCK, validated): the kernels compute `x * rnumel + r` for every row and column slot of the
/// last tiles, masked ones too, and the loop over R steps its int counter to the padded rnumel.
std::optional<std::string> checkNumels(std::int64_t xnumel, std::int64_t rnumel, int xblock, int rblock,
                                       const std::string& what) {
  constexpr std::int64_t kIntMax = std::numeric_limits<std::int32_t>::max();
  for (auto [name, v] : {std::pair{"xnumel", xnumel}, std::pair{"rnumel", rnumel}}) {
    if (v < 1 || v > kIntMax) {
      return what + name + " " + std::to_string(v) + " is out of range: allowed 1 … " + std::to_string(kIntMax);
    }
  }
  if (xnumel > kIntMax / rnumel) {
    return what + "xnumel × rnumel = " + std::to_string(xnumel) + " × " + std::to_string(rnumel) +
           " is out of range: the kernels index with 32-bit ints, allowed at most " + std::to_string(kIntMax) +
           " elements per tensor";
  }
  const std::int64_t xpadded = (xnumel + xblock - 1) / xblock * xblock;
  const std::int64_t rpadded = (rnumel + rblock - 1) / rblock * rblock;
  if (xpadded > kIntMax / rpadded) {
    return what + "xnumel × rnumel padded to the tile (XBLOCK " + std::to_string(xblock) + ", RBLOCK " +
           std::to_string(rblock) + ") = " + std::to_string(xpadded) + " × " + std::to_string(rpadded) +
           " is out of range: the kernels index the padded tiles with 32-bit ints, allowed at most " +
           std::to_string(kIntMax) + " elements; use a smaller XBLOCK or RBLOCK";
  }
  return std::nullopt;
}

/// The static shape's fields: both 0 (run-time shape) or both a valid problem shape.
std::optional<std::string> checkStaticShape(const KernelConfig& c) {
  if (c.static_xnumel == 0 && c.static_rnumel == 0) return std::nullopt;
  if ((c.static_xnumel == 0) != (c.static_rnumel == 0)) {
    return "static shape " + std::to_string(c.static_xnumel) + " × " + std::to_string(c.static_rnumel) +
           " is incomplete: set both xnumel and rnumel, or neither (a run-time shape)";
  }
  return checkNumels(c.static_xnumel, c.static_rnumel, c.xblock, c.rblock, "static ");
}

}  // namespace

Expected<TileLayout> tileLayout(const KernelConfig& c) {
  if (c.workload == Workload::kFusedK) {
    if (c.k < 1 || c.k > kMaxFusedInputs) {
      return Error{"K " + std::to_string(c.k) + " is out of range: fused_k takes 1 … " +
                   std::to_string(kMaxFusedInputs) + " inputs"};
    }
  } else if (c.k != 1) {
    return Error{"K " + std::to_string(c.k) + " is not allowed for " + std::string(workloadName(c.workload)) +
                 ": only fused_k takes K inputs (allowed K = 1)"};
  }
  if (c.max_registers < 0 || c.max_registers > 255) {
    return Error{"max_registers " + std::to_string(c.max_registers) +
                 " is out of range: allowed 1 … 255 registers per thread (0 = no cap)"};
  }
  if (!isPowerOfTwo(c.xblock) || c.xblock > kMaxXBlock) {
    return Error{"XBLOCK " + std::to_string(c.xblock) + " is out of range: allowed powers of two 1 … " +
                 std::to_string(kMaxXBlock)};
  }
  if (!isPowerOfTwo(c.rblock) || c.rblock > kMaxRBlock) {
    return Error{"RBLOCK " + std::to_string(c.rblock) + " is out of range: allowed powers of two 1 … " +
                 std::to_string(kMaxRBlock)};
  }
  if (!isPowerOfTwo(c.num_warps) || c.num_warps > kMaxNumWarps) {
    return Error{"num_warps " + std::to_string(c.num_warps) + " is out of range: allowed 1, 2, 4, 8, 16, 32"};
  }
  const std::int64_t tile = std::int64_t{c.xblock} * c.rblock;
  if (tile > kMaxTileElements) {
    return Error{"XBLOCK × RBLOCK = " + std::to_string(tile) + " is out of range: allowed at most " +
                 std::to_string(kMaxTileElements) + " elements per tile"};
  }
  if (auto e = checkStaticShape(c)) return Error{*e};
  TileLayout l;
  l.threads_per_block = c.num_warps * 32;
  const int tile_per_thread = static_cast<int>(std::max<std::int64_t>(1, tile / l.threads_per_block));
  const int elem = dtypeBytes(c.dtype);
  l.vec = std::min({16 / elem, tile_per_thread, c.rblock});
  l.vector_bytes = l.vec * elem;
  l.threads_r = std::min(l.threads_per_block, c.rblock / l.vec);
  l.threads_x = l.threads_per_block / l.threads_r;
  l.rows_per_thread = std::max(1, c.xblock / l.threads_x);
  l.chunks_per_row = c.rblock / (l.threads_r * l.vec);
  l.elements_per_thread = l.rows_per_thread * l.chunks_per_row * l.vec;
  l.accumulator_tiles = accumulatorTiles(c.workload, c.k);
  l.accumulator_values_per_thread = l.elements_per_thread * l.accumulator_tiles;
  l.warps_per_row = l.threads_r > 32 ? l.threads_r / 32 : 1;
  l.replicated_threads = l.threads_x > c.xblock ? (l.threads_x - c.xblock) * l.threads_r : 0;
  if (l.accumulator_values_per_thread > kMaxAccumulatorValuesPerThread) {
    return Error{"XBLOCK × RBLOCK / threads × tiles = " + std::to_string(l.elements_per_thread) + " × " +
                 std::to_string(l.accumulator_tiles) + " = " + std::to_string(l.accumulator_values_per_thread) +
                 " accumulator values per thread is out of range: allowed at most " +
                 std::to_string(kMaxAccumulatorValuesPerThread) + " (raise num_warps or lower XBLOCK/RBLOCK)"};
  }
  // Shared memory the source declares: the cross-warp scratch (one State per row slot and warp of the
  // row) when a row spans several warps. A State holds one fp32 per accumulator tile.
  const int row_slots = l.rows_per_thread * l.threads_x;
  if (l.warps_per_row > 1) l.static_smem_bytes = row_slots * l.warps_per_row * l.accumulator_tiles * 4;
  return l;
}

std::string kernelName(const KernelConfig& c) {
  std::string n = "occx_" + std::string(workloadName(c.workload));
  if (c.workload == Workload::kFusedK) n += std::to_string(c.k);
  n += "_" + std::string(dtypeName(c.dtype)) + "_x" + std::to_string(c.xblock) + "_r" + std::to_string(c.rblock) +
       "_w" + std::to_string(c.num_warps);
  if (c.fp32_outputs && c.dtype != DType::kF32) n += "_f32out";
  if (c.max_registers > 0) n += "_maxreg" + std::to_string(c.max_registers);
  if (!c.vector_loads) n += "_scalar";
  if (c.staticShape()) n += "_s" + std::to_string(c.static_xnumel) + "x" + std::to_string(c.static_rnumel);
  return n;
}

bool vectorLoadsAllowed(const TileLayout& layout, std::int64_t rnumel) {
  return layout.vec > 0 && rnumel > 0 && rnumel % layout.vec == 0;
}

const char* shapeKindName(bool static_shape) {
  return static_shape ? "static" : "run-time";
}

KernelConfig configForShape(KernelConfig config, std::int64_t xnumel, std::int64_t rnumel, bool static_shape) {
  config.static_xnumel = static_shape ? xnumel : 0;
  config.static_rnumel = static_shape ? rnumel : 0;
  if (auto layout = tileLayout(config)) config.vector_loads = vectorLoadsAllowed(*layout, rnumel);
  return config;
}

Expected<std::int64_t> checkShape(const KernelConfig& config, std::int64_t xnumel, std::int64_t rnumel) {
  auto layout = tileLayout(config);
  if (!layout) return Error{layout.error()};
  if (auto e = checkNumels(xnumel, rnumel, config.xblock, config.rblock, "")) return Error{*e};
  if (config.staticShape() && (xnumel != config.static_xnumel || rnumel != config.static_rnumel)) {
    return Error{"shape " + std::to_string(xnumel) + " × " + std::to_string(rnumel) +
                 " is not the one the kernel was built for (" + std::to_string(config.static_xnumel) + " × " +
                 std::to_string(config.static_rnumel) + "): build the config for this shape, or with a run-time shape"};
  }
  if (config.vector_loads && !vectorLoadsAllowed(*layout, rnumel)) {
    return Error{"rnumel " + std::to_string(rnumel) + " is not a multiple of the vector width " +
                 std::to_string(layout->vec) + " elements: build the config with vector_loads off for this shape"};
  }
  return (xnumel + config.xblock - 1) / config.xblock;
}

Expected<ByteCounts> bytesMoved(Workload w, DType dtype, int k, std::int64_t xnumel, std::int64_t rnumel,
                                bool fp32_outputs) {
  if (xnumel < 1) return Error{"xnumel " + std::to_string(xnumel) + " is out of range: allowed 1 or more"};
  if (rnumel < 1) return Error{"rnumel " + std::to_string(rnumel) + " is out of range: allowed 1 or more"};
  if (w == Workload::kFusedK && (k < 1 || k > kMaxFusedInputs)) {
    return Error{"K " + std::to_string(k) + " is out of range: fused_k takes 1 … " + std::to_string(kMaxFusedInputs) +
                 " inputs"};
  }
  const std::int64_t s = dtypeBytes(dtype);
  const int kin = numInputs(w, w == Workload::kFusedK ? k : 1);
  const int kout = numOutputs(w, w == Workload::kFusedK ? k : 1);
  ByteCounts b;
  b.bytes_read = kin * xnumel * rnumel * s;
  b.bytes_written = kout * outputElements(w, xnumel, rnumel) * (fp32_outputs ? 4 : s);
  return b;
}

}  // namespace occx
