// The host side of a live run: the inputs of one workload and shape (random, never zero), their
// double-precision reference results, and the check of a kernel's outputs against them. Plain C++
// (no CUDA): core/cuda uploads the inputs and hands back the outputs; tests run it without a GPU.
//
// Large problems (a 32768 × 8192 fp16 tensor is 268 M elements) are generated, referenced and
// checked in row chunks on several threads; results are the same for any thread count.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/kernels/kernel_family.h"
#include "core/kernels/reference.h"

namespace occx {

/// A workload on one shape: what every config of a sweep computes.
struct ProblemSpec {
  Workload workload = Workload::kSum;
  DType dtype = DType::kF32;
  int k = 1;                  ///< fused_k: inputs (1 … 8); 1 otherwise
  std::int64_t xnumel = 1;    ///< rows
  std::int64_t rnumel = 1;    ///< reduction elements per row
  std::uint64_t seed = 1;     ///< random inputs are a function of (seed, dtype, shape)
  bool fp32_outputs = false;  ///< outputs in fp32 instead of the input dtype (KernelConfig::fp32_outputs)

  /// The element type of the outputs: fp32 with fp32_outputs, else dtype.
  [[nodiscard]] DType outputDType() const { return fp32_outputs ? DType::kF32 : dtype; }

  /// "log_softmax fp16 20736 × 8008" (+ " K=3" for fused_k, " fp32 outputs").
  [[nodiscard]] std::string label() const;
};

/// Inputs and reference results of a problem, on the host.
struct HostProblem {
  ProblemSpec spec;
  std::vector<std::vector<std::uint8_t>> inputs;  ///< numInputs tensors, xnumel × rnumel, dtype storage bytes
  std::vector<std::vector<double>> reference;     ///< numOutputs tensors of outputElements values, double
  ByteCounts bytes;                               ///< bytesMoved: minimum bytes read + written
  Tolerance tolerance;                            ///< referenceTolerance of the workload and output dtype
  std::int64_t outputElementCount = 0;            ///< elements of each output tensor

  /// Bytes of each input tensor: xnumel × rnumel × dtype bytes.
  [[nodiscard]] std::int64_t inputBytes() const;
  /// Bytes of each output tensor: outputElementCount × output dtype bytes.
  [[nodiscard]] std::int64_t outputBytes() const;
};

/// Checks a problem's shape without building it: K, xnumel and rnumel in range (bytesMoved's
/// checks), K = 1 unless fused_k, at most 2^31 − 1 elements per tensor. Error names the value and
/// the allowed range.
std::optional<Error> checkProblemSpec(const ProblemSpec& spec);

/// Builds a problem: random inputs uniform in [-1, 1], never zero and representable in the dtype
/// (randomInput, one seed per chunk of rows derived from spec.seed), then the reference in double
/// precision (referenceOutputs) row chunk by row chunk. `threads` 0 = the hardware's thread count.
/// Errors: K, xnumel or rnumel out of range (named), a tensor over 2^31 − 1 elements (the kernels
/// index with 32-bit ints).
Expected<HostProblem> makeHostProblem(const ProblemSpec& spec, int threads = 0);

/// Outcome of checking all outputs of one run.
struct OutputCheck {
  bool ok = true;
  std::int64_t mismatches = 0;  ///< over all output tensors; NaN (an unwritten, poisoned element) counts
  double max_abs_error = 0.0;   ///< largest |got − want| over all finite errors
  std::string message;          ///< empty when ok, else "out1: 3 of 512 elements differ; worst [17]: …"
  /// What the outputs were compared with: "the CPU reference", "the outputs of <label> (the first
  /// config that ran)", or, for the run that became the reference of a buffer problem, "nothing:
  /// these outputs are the reference". Empty when not checked.
  std::string compared_with;
};

/// Checks kernel outputs (output dtype storage bytes, one buffer per output tensor) against
/// problem.reference under problem.tolerance, in chunks on `threads` threads (0 = hardware). A
/// buffer of the wrong size is a mismatch with a message naming the sizes. compared_with is "the CPU
/// reference".
OutputCheck checkOutputs(const HostProblem& problem, const std::vector<std::vector<std::uint8_t>>& outputs,
                         int threads = 0);

}  // namespace occx
