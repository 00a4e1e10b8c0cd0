// One Inductor kernel module (`<inductor cache>/<2 chars>/<hash>.py`): the Triton kernel and the
// arguments of its @triton_heuristics decorator, read as the Python literals they are.
//
// Source of the layout: the modules PyTorch 2.11's Inductor writes (torch/_inductor/codegen/
// triton.py, runtime/triton_heuristics.py, runtime/hints.py DeviceProperties), as recorded in
// tests/data/inductor. The decorator's keywords read here: size_hints, reduction_hint, triton_meta
// (signature, device) and inductor_meta (kernel_name, grid_type, mutated_arg_names, num_load,
// num_store, num_reduction, dynamic_scale_rblock, spill_threshold, deterministic, max_autotune,
// add_persistent_rblock). Unknown keywords are kept in PyValue form and ignored.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/triton/python_literal.h"

namespace occx::triton {

/// What kind of kernel the decorator makes.
enum class KernelKind {
  kLoopedReduction,      ///< @triton_heuristics.reduction (triton_red_…): an R loop, R0_BLOCK tunable
  kPersistentReduction,  ///< @triton_heuristics.persistent_reduction (triton_per_…): no R loop
  kPointwise,            ///< @triton_heuristics.pointwise (triton_poi_…): listed, not analysed
  kOther,                ///< any other decorator (templates, foreach, scans, cooperative, user kernels)
};
/// "looped reduction", "persistent reduction", "pointwise", "other".
std::string_view kernelKindName(KernelKind kind);

/// One size hint: {'x': 512} → name "x", value 512. A hint that is not an integer (a symbol of a
/// dynamic shape) keeps its text in `symbolic` and has no value.
struct SizeHint {
  std::string name;  ///< "x", "y", "r0_", "r1_"
  std::optional<std::int64_t> value;
  std::string symbolic;
};

/// One argument of the kernel's signature: name and Triton type ("*fp16", "i32", "constexpr").
struct SignatureArgument {
  std::string name;
  std::string type;
  [[nodiscard]] bool isPointer() const { return !type.empty() && type[0] == '*'; }
  [[nodiscard]] bool isConstexpr() const { return type == "constexpr"; }
};

/// The device Inductor compiled for (triton_meta['device'] = DeviceProperties(...)).
struct InductorDevice {
  std::string type;  ///< "cuda", "hip"
  int index = 0;
  int multi_processor_count = 0;
  int cc = 0;  ///< e.g. 90
  int major = 0;
  int regs_per_multiprocessor = 0;
  int max_threads_per_multi_processor = 0;
  int max_threads_per_block = 0;
  int warp_size = 0;
};

/// The inductor_meta flags that gate the RBLOCK decision and the candidate list, as written.
struct InductorMeta {
  std::string grid_type;  ///< "Grid1D", "Grid2D", …; empty when absent
  std::vector<std::string> mutated_arg_names;
  int num_load = 0;
  int num_store = 0;
  int num_reduction = 0;
  std::optional<bool> dynamic_scale_rblock;  ///< absent = Inductor's default (true)
  std::optional<int> spill_threshold;        ///< absent = 16
  bool deterministic = false;                ///< 'deterministic' or 'are_deterministic_algorithms_enabled'
  bool max_autotune = false;
  /// coordinate_descent_tuning (TORCHINDUCTOR_COORDINATE_DESCENT_TUNING=1 when compiled): a .best_config
  /// with found_by_coordesc is then used as is, whether or not it is one of the candidates.
  bool coordinate_descent_tuning = false;
  bool add_persistent_rblock = false;
  /// RSPLIT_SIZE of a mix-order reduction (grid_type MixOrderReductionGrid: each program reduces
  /// RSPLIT_SIZE rows, XBLOCK at a time, and writes its partial column sums to ws_ptr); 0 = none.
  int rsplit_size = 0;
  /// mix_order_reduction_allow_multi_stages (absent = Inductor's default, true): NUM_STAGES may exceed 1.
  bool mix_order_multi_stages = true;
};

/// One kernel module, parsed.
struct KernelModule {
  std::string path;         ///< as given to parseKernelModule
  std::string module_hash;  ///< the file name without ".py" ("coidgz7g…"); for sources taken from a wrapper, its
                            ///< "kernel path" comment
  std::string name;         ///< the kernel function, e.g. "triton_red_fused_sum_0"
  std::string decorator;    ///< "reduction", "persistent_reduction", "pointwise", …
  KernelKind kind = KernelKind::kOther;
  std::vector<SizeHint> size_hints;  ///< in file order
  std::string reduction_hint;        ///< "INNER", "OUTER", "OUTER_TINY", "DEFAULT"; empty when absent
  std::vector<SignatureArgument> signature;
  std::optional<InductorDevice> device;
  InductorMeta meta;
  /// numels fixed in the kernel body ("xnumel = 32768"), by name; absent ones are runtime arguments.
  std::vector<std::pair<std::string, std::int64_t>> static_numels;
  int dynamic_symbols = 0;      ///< signature arguments named ks0, ks1, … (dynamic-shape sizes)
  std::string source;           ///< the kernel's text, from its first decorator to the end of its body
  int source_first_line = 0;    ///< line of `source`'s first line in the module (1-based)
  std::vector<int> tile_lines;  ///< module lines (1-based) of the body that use XBLOCK / YBLOCK / R0_BLOCK / R1_BLOCK
  std::vector<std::string> warnings;  ///< what was missing or unexpected, in words

  /// The size hint named `name` ("x", "r0_"); nullptr when absent.
  [[nodiscard]] const SizeHint* sizeHint(std::string_view name) const;
  /// The static numel `name` ("xnumel"), nullopt when it is a runtime argument.
  [[nodiscard]] std::optional<std::int64_t> staticNumel(std::string_view name) const;
  /// "x=32768, r0_=8192" (symbolic hints by their text).
  [[nodiscard]] std::string sizeHintsText() const;
  /// True when some shape is dynamic: a ks* argument, or a numel not fixed in the body.
  [[nodiscard]] bool dynamicShape() const;
};

/// Parses a kernel module's text. `path` is used for messages and to derive module_hash. Errors
/// (the message names the file and the line): no @triton_heuristics decorator, a decorator whose
/// arguments are not Python literals, no `def` after it. A module that parses but lacks fields
/// (a future Inductor) gets warnings, not an error.
Expected<KernelModule> parseKernelModule(std::string_view text, std::string path);

/// True when `text` looks like a kernel module (holds "@triton_heuristics.").
bool looksLikeKernelModule(std::string_view text);

}  // namespace occx::triton
