// The reduction kernel family: Inductor-style looped reductions over the rows of an
// xnumel × rnumel tensor, described as data and turned into CUDA C++ source that NVRTC compiles.
//
// Shape of every kernel: a grid of ceil(xnumel / XBLOCK) blocks of num_warps × 32 threads; each block
// owns XBLOCK rows and loops r0 over [0, rnumel) in steps of RBLOCK. Each iteration loads an
// XBLOCK × RBLOCK tile (16-byte vector loads where alignment allows, masked at the tail) and combines
// it element-wise into accumulator tiles of the same shape held in registers, distributed over the
// threads as Triton's blocked layout distributes them: every thread owns
// XBLOCK·RBLOCK / (num_warps·32) elements of each tile in a fixed-size array indexed only with
// compile-time indices. That is why registers per thread grow with the tile and big tiles spill.
// After the loop the tiles are reduced along R (within the thread, then warp shuffles, then shared
// memory across warps) and XBLOCK results are written.
//
// This file is plain C++ (no CUDA headers): the source is text; core/cuda compiles it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"

namespace occx {

/// The workloads, named as a user would look for them.
enum class Workload {
  kSum,         ///< out0[x] = Σ_r in0[x, r]
  kSumSq,       ///< out0[x] = Σ_r in0[x, r]²
  kAmax,        ///< out0[x] = max_r in0[x, r]
  kMeanVar,     ///< Welford: out0[x] = mean, out1[x] = population variance (divide by rnumel); 3 tiles
  kLogSoftmax,  ///< out0[x, r] = in0[x, r] − max − log Σ exp(in0 − max); online max/sum-exp, then output
  kFusedK,      ///< K inputs: out_j[x] = Σ_r Π_{i ≤ j} in_i[x, r] for j = 0 … K−1; K tiles
};

/// Input element types; every workload accumulates in fp32 and writes outputs in the input type
/// (or in fp32 with KernelConfig::fp32_outputs).
enum class DType { kF32, kF16, kBF16 };

/// "sum", "sum_sq", "amax", "mean_var", "log_softmax", "fused_k".
std::string_view workloadName(Workload w);
/// Parses a workload name (the names above). Error names the text and lists the accepted names.
Expected<Workload> parseWorkload(std::string_view text);
/// All workloads in declaration order.
const std::vector<Workload>& allWorkloads();

/// "fp32", "fp16", "bf16".
std::string_view dtypeName(DType d);
/// Parses "fp32"/"float32"/"f32", "fp16"/"float16"/"half", "bf16"/"bfloat16". Error lists them.
Expected<DType> parseDType(std::string_view text);
/// All dtypes in declaration order.
const std::vector<DType>& allDTypes();
/// Bytes per element: 4 for fp32, 2 for fp16 and bf16.
int dtypeBytes(DType d);

/// Parameter ranges (validated by tileLayout; messages name the value and the range).
inline constexpr int kMaxFusedInputs = 8;         ///< fused_k: K = 1 … 8
inline constexpr int kMaxXBlock = 4096;           ///< XBLOCK = 1 … 4096, power of two
inline constexpr int kMaxRBlock = 65536;          ///< RBLOCK = 1 … 65536, power of two
inline constexpr int kMaxNumWarps = 32;           ///< num_warps = 1 … 32, power of two
inline constexpr int kMaxTileElements = 1 << 20;  ///< XBLOCK·RBLOCK, as Triton's largest block
/// Accumulator values per thread (elements per thread per tile × tiles), at most. The tiles are
/// fully unrolled in the source, so compile time grows with them (about 20 s at 1536 values on one
/// core); far below this limit every configuration already spills heavily.
inline constexpr int kMaxAccumulatorValuesPerThread = 1024;

/// One member of the family. Equality compares every field.
struct KernelConfig {
  Workload workload = Workload::kSum;
  DType dtype = DType::kF32;
  int k = 1;                 ///< fused_k: number of inputs (1 … 8); must be 1 for the other workloads
  int xblock = 1;            ///< XBLOCK: rows per block (power of two)
  int rblock = 1024;         ///< RBLOCK (R0_BLOCK): reduction elements per loop iteration (power of two)
  int num_warps = 8;         ///< warps per block (power of two, 1 … 32)
  bool vector_loads = true;  ///< vector loads of `vec` elements; needs rnumel % vec == 0 (see checkShape)
  /// Outputs in fp32 instead of the input dtype, as when the graph upcasts before reducing
  /// (log_softmax(x.float()) of a causal-LM loss). The H200 Inductor figures in the reference data
  /// count log_softmax that way: 2 bytes read + 4 bytes written per element for fp16 input.
  bool fp32_outputs = false;
  /// Register cap per thread (1 … 255; 0 = none), as a build with maxrregcount would have. Emitted
  /// as __maxnreg__(N) in place of __launch_bounds__: NVRTC's --maxrregcount is ignored for kernels
  /// that carry launch bounds. ptxas raises caps below its minimum to that minimum.
  int max_registers = 0;
  /// The problem's shape baked into the source as constants (0 = passed at run time), as Inductor
  /// generates kernels for static shapes (its Triton kernels begin `xnumel = 32768`,
  /// `r0_numel = 8192`): the loop over R then has a trip count known to the compiler, which
  /// unrolls it as ptxas unrolls Triton's (e.g. sum fp16 8192 columns at RBLOCK 256: 32 loads in
  /// flight per thread instead of one), and masks that cannot fail are left out (R when
  /// rnumel % RBLOCK == 0, rows when xnumel % XBLOCK == 0). Both or neither are set; a kernel
  /// built for a shape runs only on that shape (checkShape). 1 … 2^31−1 each.
  std::int64_t static_xnumel = 0;
  std::int64_t static_rnumel = 0;

  bool operator==(const KernelConfig&) const = default;
  /// True when the shape is baked in (static_xnumel and static_rnumel set).
  [[nodiscard]] bool staticShape() const { return static_xnumel > 0 && static_rnumel > 0; }
  /// "mean_var fp16 XBLOCK=1 RBLOCK=2048 num_warps=8" (+ " K=3" for fused_k, " scalar loads",
  /// " for 32768 × 8192" with a static shape).
  [[nodiscard]] std::string label() const;
};

/// How a config's XBLOCK × RBLOCK tile is spread over the block's threads (Triton's blocked layout:
/// contiguous R first, `vec` elements per thread per chunk, threads along R, then along X).
struct TileLayout {
  int threads_per_block = 0;  ///< num_warps × 32
  int vec = 0;                ///< contiguous elements per chunk: min(16 B / element size, elements per thread, RBLOCK)
  int vector_bytes = 0;       ///< vec × element size: the width of one vector load (2 … 16 bytes)
  int threads_r = 0;          ///< threads along R: min(threads, RBLOCK / vec)
  int threads_x = 0;          ///< threads along X: threads / threads_r
  int rows_per_thread = 0;    ///< max(1, XBLOCK / threads_x)
  int chunks_per_row = 0;     ///< RBLOCK / (threads_r × vec)
  int elements_per_thread = 0;            ///< accumulator elements per thread per tile = rows × chunks × vec
  int accumulator_tiles = 0;              ///< 1 (sum, sum_sq, amax), 3 (mean_var), 2 (log_softmax), K (fused_k)
  int accumulator_values_per_thread = 0;  ///< elements_per_thread × accumulator_tiles (fp32 values)
  int warps_per_row = 0;                  ///< threads_r / 32 when a row spans several warps (shared memory), else 1
  int replicated_threads = 0;             ///< threads that own no element because the tile is smaller than the block
  int static_smem_bytes = 0;              ///< shared memory the generated source declares (cross-warp scratch)
};

/// Validates a config and computes its layout. Errors name the field, the value and the range:
/// XBLOCK/RBLOCK/num_warps not a power of two or out of range, K out of 1 … 8 (or K ≠ 1 for a
/// workload other than fused_k), XBLOCK·RBLOCK over 2^20, more than kMaxAccumulatorValuesPerThread
/// accumulator values per thread, max_registers outside 0 … 255, a static shape with only one of
/// static_xnumel / static_rnumel set, either outside 1 … 2^31−1 or their product over 2^31−1.
Expected<TileLayout> tileLayout(const KernelConfig& config);

/// Number of input tensors (xnumel × rnumel each): K for fused_k, else 1.
int numInputs(Workload w, int k);
/// Number of output tensors: 2 for mean_var, K for fused_k, else 1.
int numOutputs(Workload w, int k);
/// Elements of each output tensor: xnumel × rnumel for log_softmax, else xnumel.
std::int64_t outputElements(Workload w, std::int64_t xnumel, std::int64_t rnumel);

/// One kernel parameter, in launch order.
struct KernelParam {
  enum class Kind { kInputPointer, kOutputPointer, kInt32 };
  std::string name;  ///< "in0", "out1", "xnumel", "rnumel"
  Kind kind = Kind::kInt32;
  std::string shape;  ///< "xnumel × rnumel", "xnumel", or "" for scalars
};

/// A generated kernel: the entry point's name, its CUDA C++ source and its parameter list.
///
/// Launch contract (for cuLaunchKernel): the entry point is `extern "C" __global__ void name(...)`
/// with parameters, in order: one `const T*` per input (in0 …), one `U*` per output (out0 …), where T
/// is the dtype's storage type (float, or unsigned short holding fp16/bf16 bits) and U that of
/// outputDType(config), then `int xnumel`, `int rnumel` (with a static shape the kernel sets both to
/// the shape it was built for; checkShape refuses another). Tensors are row-major and contiguous; with vector loads
/// they must be 16-byte aligned (cuMemAlloc gives 256). Grid: gridBlocks() × 1 × 1; block: num_warps·32 × 1 × 1; no
/// dynamic shared memory. Every (xnumel, rnumel) accepted by checkShape is handled, tails included.
struct GeneratedKernel {
  KernelConfig config;
  TileLayout layout;
  std::string name;    ///< e.g. "occx_mean_var_fp16_x1_r2048_w8" (+ "_f32out", "_maxreg32", "_scalar", "_s32768x8192")
  std::string source;  ///< CUDA C++, deterministic for a given config
  std::vector<KernelParam> params;  ///< launch order
};

/// Generates the source of one config (core/kernels/codegen.cpp). Same config → byte-identical source.
/// Errors as tileLayout.
Expected<GeneratedKernel> generateKernel(const KernelConfig& config);

/// The element type of a config's outputs: fp32 with fp32_outputs, else the input dtype.
DType outputDType(const KernelConfig& config);

/// Entry-point name of a config (also in GeneratedKernel::name; "_s32768x8192" with a static shape);
/// no validation.
std::string kernelName(const KernelConfig& config);

/// True when rnumel allows the config's vector loads (rnumel % vec == 0, so every row starts on a
/// vector boundary). Configs built for a shape set vector_loads to this (configForShape does).
bool vectorLoadsAllowed(const TileLayout& layout, std::int64_t rnumel);

/// The word for a kernel's shape kind, as sweeps' metadata ("shape") and the views show it:
/// "static" (the shape baked into the kernel) or "run-time" (passed as arguments). Files without
/// the key were built with run-time shapes.
const char* shapeKindName(bool static_shape);

/// A config built for an xnumel × rnumel problem as the product builds it: vector loads when the
/// shape allows them and, with `static_shape`, the shape baked in (as Inductor's kernels for static
/// shapes; false: passed at run time, as with torch.compile(dynamic=True)). No validation beyond
/// what tileLayout does; an invalid config comes back unchanged but for the shape.
KernelConfig configForShape(KernelConfig config, std::int64_t xnumel, std::int64_t rnumel, bool static_shape);

/// Checks that a (validated) config can run on an xnumel × rnumel problem: both ≥ 1, each tensor
/// under 2^31 elements and so the shape padded to the tile (the kernels index with 32-bit ints,
/// the masked slots of the last tiles too), and with vector loads rnumel a
/// multiple of vec; a config with a static shape runs only on that shape. Returns the grid size
/// ceil(xnumel / XBLOCK) in blocks.
Expected<std::int64_t> checkShape(const KernelConfig& config, std::int64_t xnumel, std::int64_t rnumel);

/// Minimum bytes a workload moves: every input element read once, every output element written
/// once: the bytes that bandwidth (bytes / median time) is computed from; log_softmax's second
/// read pass is not counted. Bytes (not GB).
struct ByteCounts {
  std::int64_t bytes_read = 0;
  std::int64_t bytes_written = 0;
  [[nodiscard]] std::int64_t total() const { return bytes_read + bytes_written; }
};

/// Byte counts of one workload on an xnumel × rnumel input of `dtype`:
///   sum, sum_sq, amax:  read x·r·s,      write x·o
///   mean_var:           read x·r·s,      write 2·x·o
///   log_softmax:        read x·r·s,      write x·r·o
///   fused_k:            read K·x·r·s,    write K·x·o
/// (s = dtype bytes; o = 4 with fp32_outputs, else s). E.g. log_softmax fp16 20736 × 8008 with fp32
/// outputs: 332107776 B read + 664215552 B written. Errors: xnumel or rnumel < 1, K out of range.
Expected<ByteCounts> bytesMoved(Workload w, DType dtype, int k, std::int64_t xnumel, std::int64_t rnumel,
                                bool fp32_outputs = false);

}  // namespace occx
