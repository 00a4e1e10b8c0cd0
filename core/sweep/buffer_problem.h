// A problem made of named buffers, for kernels the product did not generate (a Triton kernel that
// Inductor compiled): each buffer has an element type, a size and a role. Inputs are filled with
// random values (floating types uniform in [-1, 1], never zero; integer buffers with zeros, which
// are valid indices for the gathers Inductor's kernels do; bool buffers true, a mask that keeps
// everything), outputs are poisoned
// (0xFF bytes: NaN in every floating type), in-out buffers start from their random contents again
// before every check. There is no CPU reference: the configs of one kernel differ only in tiling,
// so every config must produce the outputs of the first one that ran (within the element type's
// tolerance), and an output whose bytes all still hold the poison was never written.
//
// Plain C++ (no CUDA): core/cuda uploads the buffers and downloads the outputs; tests run it
// without a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/kernels/live_problem.h"

namespace occx {

/// Element types of kernel buffers (Triton's "*fp16" … "*i1", PyTorch's torch.float16 … torch.bool).
enum class ElementType { kF16, kBF16, kF32, kF64, kI8, kI16, kI32, kI64, kU8, kBool };

/// "fp16", "bf16", "fp32", "fp64", "i8", "i16", "i32", "i64", "u8", "i1" (Triton's names).
std::string_view elementTypeName(ElementType type);
/// Bytes per element: 2, 2, 4, 8, 1, 2, 4, 8, 1, 1.
int elementBytes(ElementType type);
/// True for fp16, bf16, fp32, fp64.
bool isFloating(ElementType type);
/// Parses a Triton pointer element type ("fp16", "bf16", "fp32", "fp64", "i1", "i8", "i16", "i32",
/// "i64", "u8"; a leading '*' is ignored) or a PyTorch dtype ("torch.float16", "torch.half",
/// "torch.bfloat16", "torch.float32", "torch.float", "torch.float64", "torch.double",
/// "torch.int8", "torch.int16", "torch.int32", "torch.int64", "torch.long", "torch.uint8",
/// "torch.bool"). Error names the text and lists the accepted names (fp8 types are not supported).
Expected<ElementType> parseElementType(std::string_view text);

/// What an integer input holds: values drawn uniformly from [low, high) — the same for the same seed,
/// buffer and size — with `ignore` (an ignore index such as nll_loss's -100) at `ignore_fraction`
/// of the elements; where the range came from, in words, for the row's notes.
struct IntegerValues {
  std::int64_t low = 0;
  std::int64_t high = 1;  ///< exclusive; high > low
  std::optional<std::int64_t> ignore;
  double ignore_fraction = 0.0;  ///< 0 … 0.5
  std::string origin;            ///< "the kernel's tl.device_assert: 0 <= v < 50257"
};

/// One buffer of a buffer problem.
struct BufferSpec {
  enum class Role {
    kInput,   ///< read by the kernel: random contents (floating), `values` or zeros (integer), true (bool)
    kOutput,  ///< written by the kernel: poisoned before the check, compared across configs
    kInOut,   ///< read and written (Inductor's in_out_ptr, a mutated argument): random contents, restored before the
              ///< check, compared
  };
  std::string name;  ///< how messages name it: "in_ptr0 (arg0_1)"
  ElementType type = ElementType::kF32;
  std::int64_t elements = 1;  ///< storage elements (1 … 2^31 − 1)
  Role role = Role::kInput;
  /// Integer inputs: their values; none = zeros (valid indices, every gather hits index 0).
  std::optional<IntegerValues> values;

  [[nodiscard]] std::int64_t bytes() const { return elements * elementBytes(type); }
};

/// "input", "output", "in-out".
std::string_view bufferRoleName(BufferSpec::Role role);

/// A kernel's buffers. Launch arguments (core/gpu/gpu_module.h) name inputs and outputs by index
/// in the order of inputIndices() / outputIndices(): kInput i is the i-th input buffer, kOutput i the
/// i-th output or in-out buffer.
struct BufferProblemSpec {
  std::string label;                ///< "triton_red_fused_sum_0: 2 buffers (32 MiB)"
  std::vector<BufferSpec> buffers;  ///< in the kernel's parameter order
  std::uint64_t seed = 1;           ///< random contents are a function of (seed, buffer index, type, size)
  /// Minimum bytes moved by one launch, for GB/s: inputs and in-outs read once, outputs and in-outs
  /// written once. 0 = computed from the buffers (bytesMoved()).
  std::int64_t bytes_moved = 0;

  /// Indices into `buffers` of the input buffers (role kInput), in order.
  [[nodiscard]] std::vector<int> inputIndices() const;
  /// Indices into `buffers` of the output and in-out buffers, in order.
  [[nodiscard]] std::vector<int> outputIndices() const;
  /// bytes_moved when set, else Σ input and in-out bytes + Σ output and in-out bytes.
  [[nodiscard]] std::int64_t bytesMoved() const;
};

/// Checks a buffer problem without building it: at least one buffer, at least one output or in-out
/// buffer, every size 1 … 2^31 − 1 elements, 16 GiB in all at most, integer values only on integer
/// inputs with low < high that fit the type and an ignore fraction within 0 … 0.5. Error names the
/// buffer, the value and the allowed range.
std::optional<Error> checkBufferProblemSpec(const BufferProblemSpec& spec);

/// The host side of a buffer problem: the initial contents of inputs and in-outs.
struct HostBuffers {
  BufferProblemSpec spec;
  /// One per buffer in spec.buffers order: the initial contents (inputs, in-outs) or empty (outputs).
  std::vector<std::vector<std::uint8_t>> initial;
};

/// Builds the initial contents. Errors: checkBufferProblemSpec's.
Expected<HostBuffers> makeHostBuffers(const BufferProblemSpec& spec);

/// Compares one run's outputs (one byte buffer per output/in-out buffer, in outputIndices() order)
/// with a reference run's. Floating types: |got − want| ≤ atol + rtol·|want| with (rtol, atol) per
/// type — fp32 (1e-4, 1e-4·m), fp16 (1e-2, 1e-2·m), bf16 (4e-2, 4e-2·m), fp64 (1e-9, 1e-9·m), m the
/// largest |want| of that buffer (at least 1): a different tiling sums in a different order, and the
/// result is rounded to the type; NaN must meet NaN (an element neither run wrote). Integer and bool
/// types: equal. An output whose bytes all still hold the poison (0xFF) is "not written" even when the reference
/// is too. The message names the first buffer not written, else the first that differs ("out_ptr0:
/// 3 of 512 elements differ; worst [17]: got …, want … (allowed |error| …)"), then, with several
/// outputs, the mismatches in all; a wrong number or size of buffers is a mismatch naming the
/// sizes. `compared_with` names the reference run in the result. Never throws.
OutputCheck compareWithReferenceRun(const BufferProblemSpec& spec, const std::vector<std::vector<std::uint8_t>>& got,
                                    const std::vector<std::vector<std::uint8_t>>& reference, std::string compared_with);

/// The written-ness check alone, for the run that becomes the reference: an output (of any type) that
/// is still all poison (0xFF bytes) was not written (the kernel stored nothing, or the launch's grid missed it). A
/// wrong number or size of buffers is a mismatch naming the sizes. compared_with is
/// kComparedWithNothing when ok, else "nothing: no config has checked ok yet". Never throws.
OutputCheck checkOutputsWritten(const BufferProblemSpec& spec, const std::vector<std::vector<std::uint8_t>>& got);

/// OutputCheck::compared_with of the run whose outputs became a buffer problem's reference.
inline constexpr std::string_view kComparedWithNothing = "nothing: these outputs are the reference";
/// OutputCheck::compared_with of a run checked against the reference run's outputs:
/// "the outputs of <label> (the first config that ran)".
std::string comparedWithFirstRun(std::string_view label);

/// The cross-config reference of one buffer problem, on the host: empty until a run's outputs are
/// written (checkOutputsWritten), then those outputs. What a GpuRunner keeps next to the buffers.
class BufferReference {
 public:
  /// Checks one run's outputs (one byte buffer per output/in-out buffer, outputIndices() order),
  /// `label` naming the run's config (GpuModule::label). Without a reference: checkOutputsWritten,
  /// and outputs that pass become the reference (compared_with kComparedWithNothing). With one:
  /// compareWithReferenceRun (compared_with comparedWithFirstRun of the reference's label). Never
  /// throws.
  OutputCheck check(const BufferProblemSpec& spec, std::vector<std::vector<std::uint8_t>> got,
                    const std::string& label);
  /// True until a run's outputs became the reference.
  [[nodiscard]] bool empty() const { return !outputs_.has_value(); }
  /// The label of the run whose outputs are the reference (empty when none).
  [[nodiscard]] const std::string& label() const { return label_; }
  /// Forgets the reference (a new problem starts without one).
  void clear();

 private:
  std::optional<std::vector<std::vector<std::uint8_t>>> outputs_;
  std::string label_;
};

}  // namespace occx
