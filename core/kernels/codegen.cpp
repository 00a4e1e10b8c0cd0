// Code generation of the reduction kernel family (core/kernels/kernel_family.h): turns a config
// and its tile layout into CUDA C++ source for NVRTC, line by line, in a fixed order — header
// comment, constants, dtype conversions, chunk loads/stores, the reduction state, the kernel.
// The same config always gives byte-identical source (the compile cache keys on it).
//
// Source of the kernels' shape: Triton's blocked layout and looped reductions as Inductor
// generates them (accumulator tiles in registers, warp shuffles, shared memory across warps);
// the code is our own.
#include <algorithm>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/format.h"
#include "core/kernels/kernel_family.h"

namespace occx {

namespace {

/// Builds the source line by line with two-space indentation.
class Emitter {
 public:
  void line(std::string_view text = {}) {
    if (!text.empty()) out_.append(static_cast<std::size_t>(indent_) * 2, ' ');
    out_ += text;
    out_ += '\n';
  }
  void open(std::string_view text) {
    line(text);
    ++indent_;
  }
  void indent() { ++indent_; }
  /// "} else {": closes a block and opens the next at the same level.
  void reopen(std::string_view text) {
    --indent_;
    line(text);
    ++indent_;
  }
  void close(std::string_view text = "}") {
    --indent_;
    line(text);
  }
  [[nodiscard]] const std::string& str() const { return out_; }

 private:
  std::string out_;
  int indent_ = 0;
};

bool outputIsF32(const KernelConfig& c) {
  return c.fp32_outputs || c.dtype == DType::kF32;
}

/// Whether the source needs the mask along R: always with a run-time shape; with a static shape only
/// when RBLOCK does not divide rnumel (Triton's `r0_index < r0_numel` folds to true otherwise).
bool rMasked(const KernelConfig& c) {
  return !c.staticShape() || c.static_rnumel % c.rblock != 0;
}

/// Whether the source needs the row mask x < xnumel: with a static shape only when XBLOCK does not
/// divide xnumel (Inductor then emits `xmask = tl.full([XBLOCK], True)`).
bool xMasked(const KernelConfig& c) {
  return !c.staticShape() || c.static_xnumel % c.xblock != 0;
}

/// One field of the per-slot reduction state and its identity value (the value of an accumulator
/// slot that saw no element).
struct StateField {
  std::string name;
  std::string identity;
};

/// The fields of the per-slot reduction state, one fp32 per accumulator tile.
std::vector<StateField> stateFields(Workload w, int k) {
  switch (w) {
    case Workload::kMeanVar:
      return {{"mean", "0.0f"}, {"m2", "0.0f"}, {"weight", "0.0f"}};
    case Workload::kLogSoftmax:
      return {{"max", "NEG_INF"}, {"sumexp", "0.0f"}};
    case Workload::kAmax:
      return {{"max", "NEG_INF"}};
    case Workload::kFusedK: {
      std::vector<StateField> f;
      for (int j = 0; j < k; ++j) f.push_back({"sum" + num(j), "0.0f"});
      return f;
    }
    default:
      return {{"sum", "0.0f"}};
  }
}

std::string workloadFormula(Workload w, int k) {
  switch (w) {
    case Workload::kSum:
      return "out0[x] = sum over r of in0[x, r]";
    case Workload::kSumSq:
      return "out0[x] = sum over r of in0[x, r]^2";
    case Workload::kAmax:
      return "out0[x] = max over r of in0[x, r]";
    case Workload::kMeanVar:
      return "Welford: out0[x] = mean over r of in0[x, r], out1[x] = population variance (divided by rnumel)";
    case Workload::kLogSoftmax:
      return "out0[x, r] = in0[x, r] - max_r in0[x, :] - log(sum_r exp(in0[x, r] - max)); online max/sum-exp pass, "
             "then an output pass";
    case Workload::kFusedK:
      return "out_j[x] = sum over r of in0[x, r] * ... * in_j[x, r] for j = 0 .. " + num(k - 1) + " (" + num(k) +
             " input(s), " + num(k) + " accumulator tile(s))";
  }
  return {};
}

void emitHeader(Emitter& e, const KernelConfig& c, const TileLayout& l, const std::string& name) {
  const bool f32 = c.dtype == DType::kF32;
  const int nin = numInputs(c.workload, c.k);
  const int nout = numOutputs(c.workload, c.k);
  e.line("// Occupancy Explorer reduction kernel " + name);
  e.line("//");
  e.line("// workload: " + std::string(workloadName(c.workload)));
  e.line("//   " + workloadFormula(c.workload, c.k));
  e.line("// input dtype: " + std::string(dtypeName(c.dtype)) + (f32 ? "" : " (passed as raw 16-bit words)") +
         ", accumulation in fp32, outputs in " + std::string(outputIsF32(c) ? "fp32" : dtypeName(c.dtype)));
  e.line("// tile: XBLOCK = " + num(c.xblock) + " rows x RBLOCK = " + num(c.rblock) +
         " reduction elements, num_warps = " + num(c.num_warps) + " (" + num(l.threads_per_block) +
         " threads per block)");
  e.line("// accumulator: " + num(l.accumulator_tiles) + " tile(s) of XBLOCK x RBLOCK fp32 values held in registers,");
  e.line("//   " + num(l.elements_per_thread) + " element(s) per thread per tile, " +
         num(l.accumulator_values_per_thread) + " fp32 value(s) per thread in all");
  e.line("// layout (as Triton's blocked layout): each thread owns ROWS_PER_THREAD = " + num(l.rows_per_thread) +
         " row(s) x CHUNKS_PER_ROW = " + num(l.chunks_per_row) + " chunk(s)");
  e.line("//   of VEC = " + num(l.vec) + " contiguous element(s); THREADS_R = " + num(l.threads_r) +
         " threads span R, THREADS_X = " + num(l.threads_x) + " span rows" +
         (l.replicated_threads > 0 ? " (" + num(l.replicated_threads) +
                                         " thread(s) own no row: the tile is smaller "
                                         "than the block)"
                                   : std::string()));
  const std::string tail = rMasked(c) ? "masked at the tail" : "no mask along R (RBLOCK divides rnumel)";
  if (c.vector_loads) {
    e.line("// loads: " + num(l.vector_bytes) + "-byte vector loads (needs rnumel % " + num(l.vec) +
           " == 0 and 16-byte aligned tensors), " + tail);
  } else {
    e.line("// loads: one element at a time (any rnumel), " + tail);
  }
  if (c.staticShape()) {
    e.line("// shape: static, " + num(c.static_xnumel) + " x " + num(c.static_rnumel) +
           " baked in as Inductor does for static shapes; the loop over R runs " +
           num((c.static_rnumel + c.rblock - 1) / c.rblock) + " time(s), " +
           (rMasked(c) ? "not unrolled (a tail along R, as Triton's loop stays rolled)"
                       : "unrolled as the compiler sees fit") +
           (xMasked(c) ? std::string() : "; no row mask (XBLOCK divides xnumel)"));
  } else {
    e.line("// shape: passed at run time (any xnumel, rnumel); the loop over R is not unrolled");
  }
  e.line("// after the loop: reduce along R within the thread, then with warp shuffles" +
         std::string(l.warps_per_row > 1 ? ", then across " + num(l.warps_per_row) + " warps in shared memory" : ""));
  e.line("// launch: grid = ceil(xnumel / " + num(c.xblock) + ") blocks, block = " + num(l.threads_per_block) +
         " threads, no dynamic shared memory");
  if (c.max_registers > 0) {
    e.line("// registers capped at " + num(c.max_registers) + " per thread (__maxnreg__), as a maxrregcount build");
  }
  std::string params;
  for (int i = 0; i < nin; ++i) params += "in" + num(i) + ", ";
  for (int i = 0; i < nout; ++i) params += "out" + num(i) + ", ";
  e.line("// parameters: " + params + "xnumel, rnumel (row-major, contiguous; " +
         (c.workload == Workload::kLogSoftmax ? std::string("out0 is xnumel x rnumel") : "outputs are xnumel") + ")");
  e.line();
}

void emitConstants(Emitter& e, const KernelConfig& c, const TileLayout& l) {
  e.line("constexpr int XBLOCK = " + num(c.xblock) + ";");
  e.line("constexpr int RBLOCK = " + num(c.rblock) + ";");
  e.line("constexpr int NUM_THREADS = " + num(l.threads_per_block) + ";  // num_warps * 32");
  e.line("constexpr int VEC = " + num(l.vec) + ";");
  e.line("constexpr int THREADS_R = " + num(l.threads_r) + ";");
  e.line("constexpr int THREADS_X = " + num(l.threads_x) + ";");
  e.line("constexpr int ROWS_PER_THREAD = " + num(l.rows_per_thread) + ";");
  e.line("constexpr int CHUNKS_PER_ROW = " + num(l.chunks_per_row) + ";");
  e.line("constexpr int ELEMS_PER_ROW = CHUNKS_PER_ROW * VEC;  // accumulator elements per row per thread");
  if (l.warps_per_row > 1) e.line("constexpr int WARPS_PER_ROW = THREADS_R / 32;");
  e.line("constexpr int ROW_SLOTS = ROWS_PER_THREAD * THREADS_X;");
  if (c.staticShape()) {
    e.line("constexpr int XNUMEL = " + num(c.static_xnumel) + ";  // the static shape");
    e.line("constexpr int RNUMEL = " + num(c.static_rnumel) + ";");
  }
  e.line("#define NEG_INF __int_as_float(0xff800000)  // -infinity");
  e.line();
  e.line(c.dtype == DType::kF32
             ? "typedef float elem_t;  // input element"
             : "typedef unsigned short elem_t;  // input element: " + std::string(dtypeName(c.dtype)) + " bits");
  e.line(outputIsF32(c)
             ? "typedef float out_t;   // output element"
             : "typedef unsigned short out_t;  // output element: " + std::string(dtypeName(c.dtype)) + " bits");
  e.line();
}

void emitConversions(Emitter& e, const KernelConfig& c) {
  const DType d = c.dtype;
  e.line("// Conversions: input storage to fp32, fp32 to output storage (round to nearest even).");
  if (outputIsF32(c)) {
    if (d == DType::kF32) {
      e.line("static __device__ __forceinline__ float to_f32(elem_t v) { return v; }");
    } else if (d == DType::kF16) {
      e.open("static __device__ __forceinline__ float to_f32(elem_t h) {");
      e.line("float f;");
      e.line("asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h));");
      e.line("return f;");
      e.close();
    } else {
      e.line(
          "static __device__ __forceinline__ float to_f32(elem_t b) { return __uint_as_float(((unsigned)b) << 16); }");
    }
    e.line("static __device__ __forceinline__ out_t to_out(float v) { return v; }");
  } else if (d == DType::kF16) {
    e.open("static __device__ __forceinline__ float to_f32(elem_t h) {");
    e.line("float f;");
    e.line("asm(\"cvt.f32.f16 %0, %1;\" : \"=f\"(f) : \"h\"(h));");
    e.line("return f;");
    e.close();
    e.open("static __device__ __forceinline__ out_t to_out(float f) {");
    e.line("out_t h;");
    e.line("asm(\"cvt.rn.f16.f32 %0, %1;\" : \"=h\"(h) : \"f\"(f));");
    e.line("return h;");
    e.close();
  } else {
    e.line("static __device__ __forceinline__ float to_f32(elem_t b) { return __uint_as_float(((unsigned)b) << 16); }");
    e.open("static __device__ __forceinline__ out_t to_out(float f) {");
    e.line("#if __CUDA_ARCH__ >= 800");
    e.line("out_t b;");
    e.line("asm(\"cvt.rn.bf16.f32 %0, %1;\" : \"=h\"(b) : \"f\"(f));");
    e.line("return b;");
    e.line("#else");
    e.line("unsigned u = __float_as_uint(f);");
    e.line("if ((u & 0x7fffffffu) > 0x7f800000u) return (out_t)((u >> 16) | 0x40u);  // NaN stays NaN");
    e.line("u += 0x7fffu + ((u >> 16) & 1u);");
    e.line("return (out_t)(u >> 16);");
    e.line("#endif");
    e.close();
  }
  e.line();
}

/// Words of a vector access: the CUDA vector type and its 32-bit (or narrower) members.
struct VectorWords {
  std::string type;                  ///< "uint4", "float4", …
  std::vector<std::string> members;  ///< ".x", ".y", … or "" for a scalar
};

VectorWords vectorWords(int bytes, bool f32) {
  if (f32) {
    if (bytes == 16) return {"float4", {".x", ".y", ".z", ".w"}};
    if (bytes == 8) return {"float2", {".x", ".y"}};
    return {"float", {""}};
  }
  if (bytes == 16) return {"uint4", {".x", ".y", ".z", ".w"}};
  if (bytes == 8) return {"uint2", {".x", ".y"}};
  if (bytes == 4) return {"unsigned", {""}};
  return {"unsigned short", {""}};
}

/// The two loads with Inductor's eviction hints, as Triton emits them (sm_80 and later): an L2
/// cache policy from createpolicy.fractional and ld.global.L1::<hint>.L2::cache_hint, predicated on
/// `valid` with zeros otherwise (Triton's `other=0.0`); plain loads before sm_80. Inductor marks a
/// load evict_first when the kernel reads the element once and evict_last when it reads it again
/// (log_softmax's first pass). One `word_t` of `bytes` bytes per load.
void emitHintedLoads(Emitter& e, int bytes) {
  const VectorWords w = vectorWords(bytes, false);
  const int words = static_cast<int>(w.members.size());
  const bool half = bytes == 2;
  const std::string type = words == 4 ? ".v4.b32" : words == 2 ? ".v2.b32" : half ? ".b16" : ".b32";
  const std::string reg = half ? "h" : "r";
  std::string outs, dst, zero;
  for (int i = 0; i < words; ++i) {
    outs += (i ? ", " : "") + std::string("\"=") + reg + "\"(q" + w.members[static_cast<std::size_t>(i)] + ")";
    dst += (i ? ", " : "") + std::string("%") + num(i);
    zero += std::string("mov.") + (half ? "b16" : "b32") + " %" + num(i) + ", 0;\\n\\t";
  }
  if (words > 1) dst = "{" + dst + "}";
  e.line("typedef " + w.type + " word_t;  // one load: " + num(bytes) + " byte(s)");
  for (const std::string& hint : {std::string("evict_first"), std::string("evict_last")}) {
    e.open("static __device__ __forceinline__ word_t ld_" + hint + "(const void* p, bool valid) {");
    e.line("word_t q;");
    e.line("#if __CUDA_ARCH__ >= 800");
    e.line("unsigned long long policy;");
    e.line("asm(\"createpolicy.fractional.L2::" + hint + ".b64 %0, 1.0;\" : \"=l\"(policy));");
    e.line("asm volatile(\"{\\n\\t.reg .pred pv;\\n\\tsetp.ne.b32 pv, %" + num(words + 1) + ", 0;\\n\\t" + zero +
           "@pv ld.global.L1::" + hint + ".L2::cache_hint" + type + " " + dst + ", [%" + num(words) + "], %" +
           num(words + 2) + ";\\n\\t}\"");
    e.line("             : " + outs);
    e.line("             : \"l\"(p), \"r\"(static_cast<int>(valid)), \"l\"(policy));");
    e.line("#else");
    e.line("q = valid ? *static_cast<const word_t*>(p) : word_t{};");
    e.line("#endif");
    e.line("return q;");
    e.close();
  }
}

/// load_chunk with one vector load per chunk (rnumel % VEC == 0 and 16-byte aligned tensors).
void emitVectorLoad(Emitter& e, const KernelConfig& c, const TileLayout& l) {
  const bool f32 = c.dtype == DType::kF32;
  const VectorWords w = vectorWords(l.vector_bytes, false);
  emitHintedLoads(e, l.vector_bytes);
  e.line("// Loads the VEC elements at row x, columns r … r+VEC-1 as one " + num(l.vector_bytes) +
         "-byte load; masked as a whole");
  e.line("// (rnumel % VEC == 0, so a chunk is either entirely inside the row or entirely past its end).");
  e.line("template <bool EVICT_LAST>");
  e.open(
      "static __device__ __forceinline__ void load_chunk(const elem_t* __restrict__ p, int x, int r, int rnumel, "
      "bool row_ok, float (&v)[VEC], bool (&ok)[VEC]) {");
  e.line(rMasked(c) ? "const bool valid = row_ok && r < rnumel;"
                    : "const bool valid = row_ok;  // RBLOCK divides rnumel");
  e.line("const elem_t* at = p + x * rnumel + r;");
  e.line("const word_t q = EVICT_LAST ? ld_evict_last(at, valid) : ld_evict_first(at, valid);  // zeros when !valid");
  for (int i = 0; i < l.vec; ++i) {
    const std::string word = "q" + w.members[static_cast<std::size_t>(f32 ? i : i / 2)];
    if (f32) {
      e.line("v[" + num(i) + "] = __uint_as_float(" + word + ");");
    } else if (l.vec == 1) {
      e.line("v[0] = to_f32(q);");
    } else {
      e.line("v[" + num(i) + "] = to_f32((elem_t)(" + word + (i % 2 == 0 ? " & 0xffffu" : " >> 16") + "));");
    }
  }
  e.line("#pragma unroll");
  e.line("for (int i = 0; i < VEC; ++i) ok[i] = valid;");
  e.close();
}

/// store_chunk with vector stores of at most 16 bytes each.
void emitVectorStore(Emitter& e, const KernelConfig& c, const TileLayout& l) {
  // Output stores: VEC values of out_t, in pieces of at most 16 bytes (fp32 outputs of a
  // 16-bit input take two).
  const bool out_f32 = outputIsF32(c);
  const int out_bytes = l.vec * (out_f32 ? 4 : dtypeBytes(c.dtype));
  const int piece_bytes = std::min(out_bytes, 16);
  const int per_piece = l.vec * piece_bytes / out_bytes;  // values per store
  const VectorWords ow = vectorWords(piece_bytes, out_f32);
  e.line("// Stores VEC values at row x, columns r … r+VEC-1 as " + num(out_bytes / piece_bytes) + " " +
         num(piece_bytes) + "-byte store(s).");
  e.open(
      "static __device__ __forceinline__ void store_chunk(out_t* __restrict__ p, int x, int r, int rnumel, "
      "const bool (&ok)[VEC], const float (&v)[VEC]) {");
  e.line("if (!ok[0]) return;");
  for (int first = 0; first < l.vec; first += per_piece) {
    const std::string q = out_bytes > 16 ? "q" + num(first / per_piece) : std::string("q");
    e.line(ow.type + " " + q + ";");
    if (out_f32) {
      for (int i = 0; i < per_piece; ++i) {
        e.line(q + ow.members[static_cast<std::size_t>(i)] + " = to_out(v[" + num(first + i) + "]);");
      }
    } else if (per_piece == 1) {
      e.line(q + " = to_out(v[" + num(first) + "]);");
    } else {
      for (int i = 0; i < per_piece; i += 2) {
        e.line(q + ow.members[static_cast<std::size_t>(i / 2)] + " = (unsigned)to_out(v[" + num(first + i) +
               "]) | ((unsigned)to_out(v[" + num(first + i + 1) + "]) << 16);");
      }
    }
    e.line("*reinterpret_cast<" + ow.type + "*>(p + x * rnumel + r" + (first > 0 ? " + " + num(first) : std::string()) +
           ") = " + q + ";");
  }
  e.close();
}

/// load_chunk (and store_chunk when `with_store`) one element at a time, each masked.
void emitScalarLoadStore(Emitter& e, const KernelConfig& c, bool with_store) {
  emitHintedLoads(e, dtypeBytes(c.dtype));
  e.line("// Loads the VEC elements at row x, columns r … r+VEC-1 one at a time, each masked.");
  e.line("template <bool EVICT_LAST>");
  e.open(
      "static __device__ __forceinline__ void load_chunk(const elem_t* __restrict__ p, int x, int r, int rnumel, "
      "bool row_ok, float (&v)[VEC], bool (&ok)[VEC]) {");
  e.line("#pragma unroll");
  e.open("for (int i = 0; i < VEC; ++i) {");
  e.line(rMasked(c) ? "ok[i] = row_ok && r + i < rnumel;" : "ok[i] = row_ok;  // RBLOCK divides rnumel");
  e.line("const elem_t* at = p + x * rnumel + r + i;");
  e.line("const word_t q = EVICT_LAST ? ld_evict_last(at, ok[i]) : ld_evict_first(at, ok[i]);  // 0 when !ok[i]");
  e.line(c.dtype == DType::kF32 ? "v[i] = __uint_as_float(q);" : "v[i] = to_f32(q);");
  e.close();
  e.close();
  if (with_store) {
    e.line("// Stores VEC values at row x, columns r … r+VEC-1 one at a time, each masked.");
    e.open(
        "static __device__ __forceinline__ void store_chunk(out_t* __restrict__ p, int x, int r, int rnumel, "
        "const bool (&ok)[VEC], const float (&v)[VEC]) {");
    e.line("#pragma unroll");
    e.line("for (int i = 0; i < VEC; ++i) if (ok[i]) p[x * rnumel + r + i] = to_out(v[i]);");
    e.close();
  }
}

/// The chunk accessors the kernel uses: load_chunk, and store_chunk when the kernel writes a tile
/// (log_softmax).
void emitLoadStore(Emitter& e, const KernelConfig& c, const TileLayout& l, bool with_store) {
  if (c.vector_loads && l.vec > 1) {
    emitVectorLoad(e, c, l);
    if (with_store) emitVectorStore(e, c, l);
  } else {
    emitScalarLoadStore(e, c, with_store);
  }
  e.line();
}

void emitState(Emitter& e, const KernelConfig& c) {
  const auto fields = stateFields(c.workload, c.k);
  if (c.workload == Workload::kMeanVar) {
    e.line("// fp32 division as Triton emits it for `/` (div.full.f32: full range, 2 ulp).");
    e.open("static __device__ __forceinline__ float div_full(float a, float b) {");
    e.line("float q;");
    e.line("asm(\"div.full.f32 %0, %1, %2;\" : \"=f\"(q) : \"f\"(a), \"f\"(b));");
    e.line("return q;");
    e.close();
    e.line();
  }
  e.line("// Reduction state of one accumulator slot: one fp32 per accumulator tile.");
  std::string decl = "struct State { float ";
  for (std::size_t i = 0; i < fields.size(); ++i) decl += (i ? ", " : "") + fields[i].name;
  e.line(decl + "; };");
  e.line();
  // log_softmax reduces its tiles field by field (emitLogSoftmaxRowReduction): no combine of States.
  if (c.workload == Workload::kLogSoftmax) return;
  e.line("// Combines two partial states (associative; used within a thread, across lanes and across warps).");
  e.open("static __device__ __forceinline__ State combine(const State& a, const State& b) {");
  switch (c.workload) {
    case Workload::kAmax:
      e.line("return State{fmaxf(a.max, b.max)};");
      break;
    case Workload::kMeanVar:
      e.line("// As Inductor's welford_combine: w2_over_w = 0 when both are empty.");
      e.line("const float delta = b.mean - a.mean;");
      e.line("const float weight = a.weight + b.weight;");
      e.line("const float frac = weight == 0.0f ? 0.0f : div_full(b.weight, weight);");
      e.line("return State{a.mean + delta * frac, a.m2 + b.m2 + delta * delta * a.weight * frac, weight};");
      break;
    case Workload::kFusedK: {
      std::string r = "return State{";
      for (int j = 0; j < c.k; ++j) r += (j ? ", " : "") + std::string("a.sum") + num(j) + " + b.sum" + num(j);
      e.line(r + "};");
      break;
    }
    default:
      e.line("return State{a.sum + b.sum};");
      break;
  }
  e.close();
  e.line();
  e.line("// The state of lane (lane ^ mask) of the same warp.");
  e.open("static __device__ __forceinline__ State shfl_xor(const State& s, int mask) {");
  std::string r = "return State{";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    r += (i ? ", " : "") + std::string("__shfl_xor_sync(0xffffffffu, s.") + fields[i].name + ", mask)";
  }
  e.line(r + "};");
  e.close();
  e.line();
}

/// The accumulator arrays, one per tile.
std::vector<std::string> accNames(Workload w, int k) {
  std::vector<std::string> names;
  for (const auto& f : stateFields(w, k)) names.push_back("acc_" + f.name);
  return names;
}

void emitAccumulate(Emitter& e, const KernelConfig& c) {
  // Inside: i (row), c (chunk), j = c * VEC + v index as `j`, element values v0[e] … (one per input).
  const std::string a = "[i][j]";
  switch (c.workload) {
    case Workload::kSum:
      e.line("if (ok[e]) acc_sum" + a + " += v0[e];");
      break;
    case Workload::kSumSq:
      e.line("if (ok[e]) acc_sum" + a + " += v0[e] * v0[e];");
      break;
    case Workload::kAmax:
      e.line("if (ok[e]) acc_max" + a + " = fmaxf(acc_max" + a + ", v0[e]);");
      break;
    case Workload::kMeanVar:
      // Inductor's welford_reduce: the first pass takes the value, later ones update with a
      // division by the slot's own weight (a tile of its own, as in Triton's kernel).
      e.open("if (ok[e]) {");
      e.open("if (first_pass) {");
      e.line("acc_mean" + a + " = v0[e];");
      e.line("acc_m2" + a + " = 0.0f;");
      e.line("acc_weight" + a + " = 1.0f;");
      e.reopen("} else {");
      e.line("const float delta = v0[e] - acc_mean" + a + ";");
      e.line("acc_weight" + a + " += 1.0f;");
      e.line("acc_mean" + a + " += div_full(delta, acc_weight" + a + ");");
      e.line("acc_m2" + a + " += delta * (v0[e] - acc_mean" + a + ");");
      e.close();
      e.close();
      break;
    case Workload::kLogSoftmax:
      // Inductor's online_softmax_combine, with accurate exp (math.exp: not fast math).
      e.open("if (ok[e]) {  // online max and sum of exp(v - max)");
      e.line("const float m = fmaxf(acc_max" + a + ", v0[e]);");
      // Both scales are 1 while the slot has seen only -inf (as Inductor's tl.where on
      // out_max == -inf): no exp(-inf - -inf) = NaN; the first finite value then scales the count by 0.
      e.line("const bool none = m == NEG_INF;");
      e.line("acc_sumexp" + a + " = acc_sumexp" + a + " * (none ? 1.0f : expf(acc_max" + a +
             " - m)) + (none ? 1.0f : expf(v0[e] - m));");
      e.line("acc_max" + a + " = m;");
      e.close();
      break;
    case Workload::kFusedK:
      e.open("if (ok[e]) {  // running product of the inputs, one sum per prefix");
      e.line("float p = v0[e];");
      e.line("acc_sum0" + a + " += p;");
      for (int j = 1; j < c.k; ++j) {
        e.line("p *= v" + num(j) + "[e];");
        e.line("acc_sum" + num(j) + a + " += p;");
      }
      e.close();
      break;
  }
}

/// Expression that says whether the row of (x_lane, i) exists: x < xnumel (unless XBLOCK divides a
/// static xnumel), and x_lane < XBLOCK when some threads own no row.
std::string rowOk(const KernelConfig& c, const TileLayout& l) {
  const bool replicated = l.threads_x > c.xblock;
  if (!xMasked(c)) return replicated ? "xl < XBLOCK" : "true";
  return replicated ? "xl < XBLOCK && x < xnumel" : "x < xnumel";
}

/// The kernel's signature (launch bounds or register cap, one pointer per input and output) and the
/// thread's position in the tile. Leaves the body open.
void emitSignature(Emitter& e, const KernelConfig& c, const std::string& name) {
  const int nin = numInputs(c.workload, c.k);
  const int nout = numOutputs(c.workload, c.k);
  // Launch bounds as Triton sets them (.maxntid = num_warps · 32), or a register cap instead (the
  // two qualifiers cannot be combined).
  const std::string bounds =
      c.max_registers > 0 ? "__maxnreg__(" + num(c.max_registers) + ")" : std::string("__launch_bounds__(NUM_THREADS)");
  std::string sig = "extern \"C\" __global__ void " + bounds + " " + name + "(";
  e.line(sig);
  for (int i = 0; i < nin; ++i) e.line("    const elem_t* __restrict__ in" + num(i) + ",");
  for (int i = 0; i < nout; ++i) e.line("    out_t* __restrict__ out" + num(i) + ",");
  e.line("    int xnumel, int rnumel) {");
  e.indent();
  if (c.staticShape()) {
    e.line("xnumel = XNUMEL;  // the static shape, as Inductor's kernels set it");
    e.line("rnumel = RNUMEL;");
  }
  e.line("const int r_lane = threadIdx.x % THREADS_R;  // position along R");
  e.line("const int x_lane = threadIdx.x / THREADS_R;  // position along X");
  e.line("const int x_base = blockIdx.x * XBLOCK;");
  e.line();
}

/// The accumulator tiles in registers, every slot set to its state field's identity.
void emitAccumulatorTiles(Emitter& e, const KernelConfig& c) {
  const auto fields = stateFields(c.workload, c.k);
  const auto accs = accNames(c.workload, c.k);
  e.line("// Accumulator tiles: this thread's ROWS_PER_THREAD x ELEMS_PER_ROW part of each XBLOCK x RBLOCK tile.");
  for (std::size_t t = 0; t < accs.size(); ++t) e.line("float " + accs[t] + "[ROWS_PER_THREAD][ELEMS_PER_ROW];");
  e.line("#pragma unroll");
  e.open("for (int i = 0; i < ROWS_PER_THREAD; ++i) {");
  e.line("#pragma unroll");
  e.open("for (int j = 0; j < ELEMS_PER_ROW; ++j) {");
  for (std::size_t t = 0; t < accs.size(); ++t) e.line(accs[t] + "[i][j] = " + fields[t].identity + ";");
  e.close();
  e.close();
  e.line();
}

/// Opens the loops over this thread's rows (i) and chunks (c) of the tile at r0, with the row's
/// index x, whether it exists (row_ok) and the chunk's first column r. Both passes over R use them.
void openRowAndChunkLoops(Emitter& e, const KernelConfig& c, const TileLayout& l) {
  e.line("#pragma unroll");
  e.open("for (int i = 0; i < ROWS_PER_THREAD; ++i) {");
  e.line("const int xl = x_lane + i * THREADS_X;");
  e.line("const int x = x_base + xl;");
  e.line("const bool row_ok = " + rowOk(c, l) + ";");
  e.line("#pragma unroll");
  e.open("for (int c = 0; c < CHUNKS_PER_ROW; ++c) {");
  e.line("const int r = r0 + (c * THREADS_R + r_lane) * VEC;");
}

/// `#pragma unroll 1` where Triton's loop stays a loop: over a run-time trip count (r0_numel passed
/// at run time), and over a static one with a tail along R (rnumel % RBLOCK != 0: every such config
/// of the reference grid kept at least one of its loops rolled in Triton's PTX — the two log_softmax
/// shapes, 8008 and 30000 columns). Without a tail the compiler unrolls the known trip count as it
/// sees fit, as LLVM and ptxas unroll Triton's (sum fp16 8192 columns: every grid config unrolled).
void emitLoopPragma(Emitter& e, const KernelConfig& c) {
  if (!c.staticShape() || rMasked(c)) e.line("#pragma unroll 1");
}

/// The loop over R: each pass loads an XBLOCK x RBLOCK tile of every input and combines it
/// element-wise into the accumulator tiles.
void emitReductionLoop(Emitter& e, const KernelConfig& c, const TileLayout& l) {
  const int nin = numInputs(c.workload, c.k);
  e.line("// The loop over R: load a tile, combine it element-wise into the accumulator tiles.");
  emitLoopPragma(e, c);
  e.open("for (int r0 = 0; r0 < rnumel; r0 += RBLOCK) {");
  if (c.workload == Workload::kMeanVar) e.line("const bool first_pass = r0 == 0;  // welford_reduce's first_iteration");
  openRowAndChunkLoops(e, c, l);
  for (int i = 0; i < nin; ++i) e.line("float v" + num(i) + "[VEC];");
  e.line("bool ok[VEC];");
  // Inductor's eviction hints: evict_last where the kernel reads the element again (log_softmax's
  // output pass), else evict_first.
  const std::string evict_last = c.workload == Workload::kLogSoftmax ? "true" : "false";
  for (int i = 0; i < nin; ++i) {
    e.line("load_chunk<" + evict_last + ">(in" + num(i) + ", x, r, rnumel, row_ok, v" + num(i) + ", ok);");
  }
  e.line("#pragma unroll");
  e.open("for (int e = 0; e < VEC; ++e) {");
  e.line("const int j = c * VEC + e;");
  emitAccumulate(e, c);
  e.close();
  e.close();
  e.close();
  e.close();
  e.line();
}

/// A row's value across the WARPS_PER_ROW warps it spans, through shared memory: `var[i]` holds this
/// warp's partial of row i (of `type`); lane 0 of each warp stores it in `partial_<var>`, then every
/// warp of the row loads the partials, lane l taking partial l % WARPS_PER_ROW, and combines them with
/// shuffles within groups of WARPS_PER_ROW lanes, so every thread ends with the row's total.
/// `with_partner("s")` is the expression for s combined with lane (lane ^ mask)'s s. Needs `lane`
/// (r_lane % 32) declared before.
void emitCrossWarpReduction(Emitter& e, const std::string& type, const std::string& var,
                            const std::function<std::string(const std::string&)>& with_partner) {
  const std::string partial = "partial_" + var;
  e.line("// A row spans WARPS_PER_ROW warps: lane 0 of each warp stores the warp's partial in shared");
  e.line("// memory; then every warp of the row loads the partials, lane l taking partial l % WARPS_PER_ROW,");
  e.line("// and combines them with shuffles within groups of WARPS_PER_ROW lanes, so every thread ends with");
  e.line("// the row's total (one load and log2(WARPS_PER_ROW) shuffles per thread, as Triton's inter-warp step).");
  e.line("__shared__ " + type + " " + partial + "[ROW_SLOTS][WARPS_PER_ROW];");
  e.line("#pragma unroll");
  e.line("for (int i = 0; i < ROWS_PER_THREAD; ++i)");
  e.line("  if (lane == 0) " + partial + "[x_lane + i * THREADS_X][r_lane / 32] = " + var + "[i];");
  e.line("__syncthreads();");
  e.line("#pragma unroll");
  e.open("for (int i = 0; i < ROWS_PER_THREAD; ++i) {");
  e.line(type + " s = " + partial + "[x_lane + i * THREADS_X][lane % WARPS_PER_ROW];");
  e.line("#pragma unroll");
  e.line("for (int mask = WARPS_PER_ROW / 2; mask > 0; mask >>= 1) s = " + with_partner("s") + ";");
  e.line(var + "[i] = s;");
  e.close();
}

/// `s` combined with the State of lane (lane ^ mask).
std::string combineWithPartner(const std::string& s) {
  return "combine(" + s + ", shfl_xor(" + s + ", mask))";
}

/// One float per row reduced along R with `op` ("fmaxf" or "+"): this thread's values are already in
/// `var[i]`; then the THREADS_R lanes with shuffles and, when a row spans several warps, the warps'
/// partials through shared memory (emitCrossWarpReduction).
void emitFloatRowReduction(Emitter& e, const TileLayout& l, const std::string& var, const std::string& op) {
  auto with_partner = [&](const std::string& a) {
    const std::string b = "__shfl_xor_sync(0xffffffffu, " + a + ", mask)";
    return op == "+" ? a + " + " + b : op + "(" + a + ", " + b + ")";
  };
  if (l.threads_r > 1) {
    e.line("#pragma unroll");
    e.line("for (int i = 0; i < ROWS_PER_THREAD; ++i)");
    e.line("  for (int mask = " + num(std::min(l.threads_r, 32) / 2) + "; mask > 0; mask >>= 1) " + var +
           "[i] = " + with_partner(var + "[i]") + ";");
  }
  if (l.warps_per_row > 1) emitCrossWarpReduction(e, "float", var, with_partner);
}

/// log_softmax after the loop, as Inductor's online_softmax_reduce: first the row's max over the whole
/// tile, then the sum of every slot's sum of exp rescaled to that max (exp(slot max - row max)); so the
/// tiles stay live across the first reduction, as in Triton's kernel.
void emitLogSoftmaxRowReduction(Emitter& e, const TileLayout& l) {
  e.line("// Reduce along R as online_softmax_reduce: the row's max, then the rescaled sums of exp.");
  if (l.warps_per_row > 1) e.line("const int lane = r_lane % 32;");
  e.line("float row_max[ROWS_PER_THREAD];");
  e.line("#pragma unroll");
  e.open("for (int i = 0; i < ROWS_PER_THREAD; ++i) {");
  e.line("row_max[i] = acc_max[i][0];");
  e.line("#pragma unroll");
  e.line("for (int j = 1; j < ELEMS_PER_ROW; ++j) row_max[i] = fmaxf(row_max[i], acc_max[i][j]);");
  e.close();
  emitFloatRowReduction(e, l, "row_max", "fmaxf");
  e.line("float row_sum[ROWS_PER_THREAD];");
  e.line("#pragma unroll");
  e.open("for (int i = 0; i < ROWS_PER_THREAD; ++i) {");
  e.line("row_sum[i] = 0.0f;");
  e.line("#pragma unroll");
  e.open("for (int j = 0; j < ELEMS_PER_ROW; ++j) {");
  e.line("const float delta = row_max[i] == NEG_INF ? 0.0f : acc_max[i][j] - row_max[i];");
  e.line("row_sum[i] += acc_sumexp[i][j] * expf(delta);");
  e.close();
  e.close();
  emitFloatRowReduction(e, l, "row_sum", "+");
  e.line("State row[ROWS_PER_THREAD];");
  e.line("#pragma unroll");
  e.line("for (int i = 0; i < ROWS_PER_THREAD; ++i) row[i] = State{row_max[i], row_sum[i]};");
  e.line();
}

/// After the loop: each row's state, reduced within the thread, across the THREADS_R lanes with
/// shuffles and, when a row spans several warps, across them in shared memory (log_softmax: as
/// Inductor's online_softmax_reduce, emitLogSoftmaxRowReduction).
void emitRowReduction(Emitter& e, const KernelConfig& c, const TileLayout& l) {
  if (c.workload == Workload::kLogSoftmax) {
    emitLogSoftmaxRowReduction(e, l);
    return;
  }
  const auto accs = accNames(c.workload, c.k);
  e.line("// Reduce along R: first this thread's elements of each row, then the THREADS_R lanes of the row.");
  e.line("State row[ROWS_PER_THREAD];");
  e.line("#pragma unroll");
  e.open("for (int i = 0; i < ROWS_PER_THREAD; ++i) {");
  std::string s0 = "State s = State{";
  for (std::size_t t = 0; t < accs.size(); ++t) s0 += (t ? ", " : "") + accs[t] + "[i][0]";
  e.line(s0 + "};");
  e.line("#pragma unroll");
  std::string sj = "for (int j = 1; j < ELEMS_PER_ROW; ++j) s = combine(s, State{";
  for (std::size_t t = 0; t < accs.size(); ++t) sj += (t ? ", " : "") + accs[t] + "[i][j]";
  e.line(sj + "});");
  if (l.threads_r > 1) {
    e.line("#pragma unroll");
    e.line("for (int mask = " + num(std::min(l.threads_r, 32) / 2) +
           "; mask > 0; mask >>= 1) s = " + combineWithPartner("s") + ";");
  }
  e.line("row[i] = s;");
  e.close();
  if (l.warps_per_row > 1) {
    e.line();
    e.line("const int lane = r_lane % 32;");
    emitCrossWarpReduction(e, "State", "row", combineWithPartner);
  }
  e.line();
}

/// log_softmax's output pass: a second read of the rows, writing (in - max) - log(sumexp) in
/// Inductor's order (max + log(sumexp) first would lose log(sumexp)'s low bits for large logits).
void emitLogSoftmaxOutputPass(Emitter& e, const KernelConfig& c, const TileLayout& l) {
  e.line("// Output pass: every thread holds its rows' max and sum of exp; out = (in - max) - log(sumexp).");
  e.line("float log_sum[ROWS_PER_THREAD];");
  e.line("#pragma unroll");
  e.line("for (int i = 0; i < ROWS_PER_THREAD; ++i) log_sum[i] = logf(row[i].sumexp);");
  emitLoopPragma(e, c);
  e.open("for (int r0 = 0; r0 < rnumel; r0 += RBLOCK) {");
  openRowAndChunkLoops(e, c, l);
  e.line("float v[VEC];");
  e.line("bool ok[VEC];");
  e.line("load_chunk<false>(in0, x, r, rnumel, row_ok, v, ok);  // the last read: evict_first");
  e.line("#pragma unroll");
  e.line("for (int e = 0; e < VEC; ++e) v[e] = (v[e] - row[i].max) - log_sum[i];");
  e.line("store_chunk(out0, x, r, rnumel, ok, v);");
  e.close();
  e.close();
  e.close();
}

/// The XBLOCK results of a reduction: lane 0 of each row writes its outputs.
void emitRowResults(Emitter& e, const KernelConfig& c, const TileLayout& l) {
  e.line("// Write XBLOCK results: lane 0 of each row.");
  e.line("#pragma unroll");
  e.open("for (int i = 0; i < ROWS_PER_THREAD; ++i) {");
  e.line("const int xl = x_lane + i * THREADS_X;");
  e.line("const int x = x_base + xl;");
  e.open("if (r_lane == 0 && " + rowOk(c, l) + ") {");
  switch (c.workload) {
    case Workload::kAmax:
      e.line("out0[x] = to_out(row[i].max);");
      break;
    case Workload::kMeanVar:
      e.line("out0[x] = to_out(row[i].mean);");
      e.line("out1[x] = to_out(div_full(row[i].m2, row[i].weight));");
      break;
    case Workload::kFusedK:
      for (int j = 0; j < c.k; ++j) e.line("out" + num(j) + "[x] = to_out(row[i].sum" + num(j) + ");");
      break;
    default:
      e.line("out0[x] = to_out(row[i].sum);");
      break;
  }
  e.close();
  e.close();
}

/// The kernel: signature, accumulator tiles, the loop over R, the reduction along R, the outputs.
void emitKernel(Emitter& e, const KernelConfig& c, const TileLayout& l, const std::string& name) {
  emitSignature(e, c, name);
  emitAccumulatorTiles(e, c);
  emitReductionLoop(e, c, l);
  emitRowReduction(e, c, l);
  if (c.workload == Workload::kLogSoftmax) {
    emitLogSoftmaxOutputPass(e, c, l);
  } else {
    emitRowResults(e, c, l);
  }
  e.close();
}

}  // namespace

Expected<GeneratedKernel> generateKernel(const KernelConfig& config) {
  auto layout = tileLayout(config);
  if (!layout) return Error{layout.error()};
  GeneratedKernel g;
  g.config = config;
  g.layout = *layout;
  g.name = kernelName(config);
  const int nin = numInputs(config.workload, config.k);
  const int nout = numOutputs(config.workload, config.k);
  for (int i = 0; i < nin; ++i)
    g.params.push_back({"in" + num(i), KernelParam::Kind::kInputPointer, "xnumel × rnumel"});
  for (int i = 0; i < nout; ++i) {
    g.params.push_back({"out" + num(i), KernelParam::Kind::kOutputPointer,
                        config.workload == Workload::kLogSoftmax ? "xnumel × rnumel" : "xnumel"});
  }
  g.params.push_back({"xnumel", KernelParam::Kind::kInt32, ""});
  g.params.push_back({"rnumel", KernelParam::Kind::kInt32, ""});

  Emitter e;
  emitHeader(e, config, *layout, g.name);
  emitConstants(e, config, *layout);
  emitConversions(e, config);
  emitLoadStore(e, config, *layout, config.workload == Workload::kLogSoftmax);
  emitState(e, config);
  emitKernel(e, config, *layout, g.name);
  g.source = e.str();
  return g;
}

}  // namespace occx
