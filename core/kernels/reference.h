// CPU reference for the reduction kernel family (core/kernel_family.h), in double precision, plus
// the fp16/bf16 conversions that inputs and outputs need. Live runs check every result against it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/kernels/kernel_family.h"

namespace occx {

/// IEEE binary16 bits → float (exact; subnormals, infinities and NaN kept).
float halfToFloat(std::uint16_t bits);
/// float → IEEE binary16 bits, round to nearest even; overflow gives ±infinity, NaN stays NaN.
std::uint16_t floatToHalf(float value);
/// bfloat16 bits → float (exact: the upper 16 bits of the float).
float bf16ToFloat(std::uint16_t bits);
/// float → bfloat16 bits, round to nearest even; NaN stays NaN.
std::uint16_t floatToBf16(float value);

/// Decodes `count` elements of `dtype` storage (float, or 16-bit words; host byte order) to double.
/// `bytes` must hold count × dtypeBytes(dtype) bytes.
std::vector<double> decodeElements(DType dtype, const void* bytes, std::size_t count);
/// Encodes values to `dtype` storage, rounding to nearest even (fp32: rounded to float first).
std::vector<std::uint8_t> encodeElements(DType dtype, const std::vector<double>& values);

/// `count` pseudo-random values of `dtype`, uniform in [-1, 1] and never zero (a kernel is never
/// timed on zeros, on which a wrong result could still pass the reference check), already
/// representable in the dtype, as storage bytes. Deterministic per seed.
std::vector<std::uint8_t> randomInput(DType dtype, std::size_t count, std::uint64_t seed);

/// The exact results of a workload on decoded inputs, in double precision.
/// `inputs` holds numInputs(w, k) row-major xnumel × rnumel tensors. Returns numOutputs(w, k)
/// tensors of outputElements(w, xnumel, rnumel) values each, in kernel order:
///   sum, sum_sq, amax: out0 = row sum / sum of squares / max;
///   mean_var: out0 = mean, out1 = population variance Σ(x − mean)² / rnumel (two-pass);
///   log_softmax: out0[x, r] = in0[x, r] − max − log Σ exp(in0[x, :] − max);
///   fused_k: out_j = row sum of in0 · … · in_j.
/// Errors: xnumel or rnumel < 1, K out of range, wrong number or size of inputs (named).
Expected<std::vector<std::vector<double>>> referenceOutputs(Workload w, int k, std::int64_t xnumel, std::int64_t rnumel,
                                                            const std::vector<std::vector<double>>& inputs);

/// Accepted error of a kernel output: |got − want| ≤ atol + rtol · |want|.
struct Tolerance {
  double rtol = 0.0;
  double atol = 0.0;
};

/// Tolerance for a workload's outputs with inputs of magnitude ≤ 1 (as randomInput makes them):
/// the output dtype's rounding (rtol: fp32 1e-5, fp16 2e-3, bf16 1.6e-2) plus fp32 accumulation in a
/// different order (atol 1e-5 · √rnumel for sums, 1e-5 for mean/variance, 1e-4 for log_softmax's
/// approximate exp/log). amax is exact (atol = rtol = 0).
Tolerance referenceTolerance(Workload w, DType dtype, std::int64_t rnumel);

/// Outcome of comparing one output tensor with its reference.
struct CompareResult {
  bool ok = true;
  std::int64_t mismatches = 0;  ///< elements outside the tolerance (NaN counts as a mismatch)
  double max_abs_error = 0.0;
  std::int64_t worst_index = -1;  ///< element with the largest error, -1 when sizes differ or empty
  std::string message;  ///< empty when ok, else e.g. "3 of 512 elements differ; worst [17]: got 1.5, want 1.25"
};

/// Compares got with want element by element under `tol`. Sizes that differ are a mismatch.
CompareResult compareOutputs(const std::vector<double>& got, const std::vector<double>& want, Tolerance tol);

}  // namespace occx
