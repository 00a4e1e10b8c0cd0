// Inductor's wrapper module (the one with `def call(…)`, also written as torch_compile_debug's
// output_code.py): the buffers it allocates and asserts, the kernels it launches with which
// arguments, and the kernel sources it embeds.
//
// Source of the layout: the wrappers PyTorch 2.11 writes (torch/_inductor/codegen/wrapper.py), as
// recorded in tests/data/inductor: `assert_size_stride(arg0_1, (512, 8192), (8192, 1))`,
// `buf0 = empty_strided_cuda((512, ), (1, ), torch.float32)`, `buf4 = reinterpret_tensor(buf3, …);
// del buf3  # reuse`, `triton_red_…_0.run(arg0_1, buf2, 512, 8192, stream=stream0)`, get_args()'s
// `rand_strided(…, dtype=torch.float16)`, and `async_compile.triton('name', '''source''')` after a
// `# kernel path: …` comment. Every statement is read with the Python literal parser.
#pragma once

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/base/expected.h"

namespace occx::triton {

/// One tensor the wrapper names. Sizes and strides as written: integers, or symbols of dynamic
/// shapes ("s13", "ks0*8").
struct WrapperBuffer {
  std::string name;  ///< "arg0_1", "buf2"
  std::vector<std::string> sizes;
  std::vector<std::string> strides;
  std::string dtype;   ///< "torch.float16"; empty when the wrapper does not say
  std::string origin;  ///< "input" (asserted), "allocated" (empty_strided_*), "view of bufN" (reinterpret_tensor),
                       ///< "reuse of bufN" (`buf3 = buf1; del buf1  # reuse`)
  int line = 0;        ///< line of the statement that defines it (1-based)
};

/// One launch of a Triton kernel.
struct WrapperLaunch {
  std::string kernel;             ///< the kernel's name
  std::vector<std::string> args;  ///< positional arguments as written ("arg0_1", "512", "s21")
  int line = 0;
};

/// A kernel whose source the wrapper embeds.
struct EmbeddedKernel {
  std::string name;
  std::string module_path;  ///< from the "# kernel path:" comment before it; empty when absent
  std::string source;       ///< the kernel module's text
  int line = 0;
};

/// What a wrapper holds.
struct WrapperModule {
  std::string path;
  std::vector<WrapperBuffer> buffers;
  std::vector<WrapperLaunch> launches;
  std::vector<EmbeddedKernel> kernels;
  std::vector<std::string> warnings;  ///< statements that could not be read, with their line
  /// name → index in `buffers`, filled by parseWrapperModule (buffer() searches `buffers` itself
  /// when the two do not match, e.g. for a module assembled by hand).
  std::unordered_map<std::string, std::size_t> buffer_index;

  /// The buffer named `name` (following "# reuse" renames to the buffer that holds the storage is
  /// not done: the name as launched); nullptr when the wrapper does not define it. Constant time
  /// through buffer_index.
  [[nodiscard]] const WrapperBuffer* buffer(std::string_view name) const;
};

/// True when `text` is a wrapper module (defines `call` and uses async_compile or runs kernels).
bool looksLikeWrapperModule(std::string_view text);

/// Reads a wrapper module's text; `path` names it in messages. A statement that cannot be read is
/// a warning naming its line; the rest is still read. Error only when `text` is not a wrapper.
Expected<WrapperModule> parseWrapperModule(std::string_view text, std::string path);

}  // namespace occx::triton
