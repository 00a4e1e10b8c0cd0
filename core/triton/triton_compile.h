// Compiling a kernel module at configs Inductor never tried, with the user's own Python, PyTorch
// and Triton — the only compiler of a Triton kernel. No GPU is needed: the helper
// (resources/python/triton_compile_configs.py, built into the program) compiles for the compute
// capability the module names, with Inductor's own compile path, into a Triton cache folder that
// scanTritonCache reads like Inductor's. Registers and spills then come from the cubins, as for
// every other compiled config (core/triton/cubin.h).
//
// The helper runs as a child process with CUDA_VISIBLE_DEVICES empty (it never touches a GPU), in
// `jobs` processes at once, each importing torch once and compiling its share of the configs.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/triton/config_grid.h"

namespace occx::triton {

/// Where sweeps put what they compile: <user cache>/triton (userCacheDirectory()); empty when no
/// home folder is known.
std::string defaultSweepCacheDir();

/// The Python to compile with: `given` when not empty, else $OCCX_PYTHON when set, else "python3".
std::string pythonProgram(const std::string& given);

/// How to compile.
struct TritonCompileOptions {
  std::string python;  ///< see pythonProgram
  /// How the face that shows the errors lets the user choose another Python, ending the "install
  /// PyTorch in it, or …" advice: the CLI's option by default; the GUI names its Python field.
  std::string choose_python = "give another Python with --python PATH or OCCX_PYTHON";
  /// Likewise, how the face lets the user name the folder compiled configs go into when HOME is not
  /// set: the CLI's option by default; the GUI says to set HOME.
  std::string choose_cache = "give one with --cache DIR";
  std::string cache_dir;  ///< the Triton cache to write; empty = defaultSweepCacheDir()
  int jobs = 0;           ///< helper processes at once; 0 = min(hardware threads, 8)
  double timeout_s =
      120.0;  ///< per config, seconds: a helper with n configs is stopped after n × this (plus its start)
  /// A mix-order reduction's RSPLIT_SIZE (inductor_meta), passed with every config as Inductor passes
  /// it, with NUM_STAGES = min(max(RSPLIT_SIZE / XBLOCK / 4, 1), mix_max_stages); 0 = not one.
  int rsplit_size = 0;
  int mix_max_stages = 1;
};

/// What Triton reported for one config.
struct ConfigCompileReport {
  SweepConfig config;
  bool ok = false;
  std::string error;              ///< Triton's exception in one line, when not ok
  double seconds = 0.0;           ///< compile time of this config (wall, in its helper process)
  std::string how;                ///< "inductor" (Inductor's own compile path) or "triton.compile"
  std::string triton_cache_hash;  ///< the Triton cache folder's name
  std::string folder;
  std::int64_t shared_bytes = 0;  ///< Triton's metadata "shared": dynamic shared memory, bytes
};

/// The outcome of compileWithTriton.
struct TritonCompileReport {
  std::string python;  ///< the program run ("/usr/bin/python3")
  std::string python_version, torch_version, triton_version;
  std::string target;  ///< "cuda:90": what the module targets
  std::string cache_dir;
  int jobs = 0;
  double import_seconds = 0.0;               ///< the slowest helper's start (importing torch and the module)
  double seconds = 0.0;                      ///< wall time of the whole compile
  std::vector<ConfigCompileReport> configs;  ///< in the order asked
  bool cancelled = false;
};

/// Progress: `done` of `total` configs compiled; the report just received (nullptr at start; valid
/// during the callback only). Called from the threads that read the helpers, one call at a time.
struct CompileProgress {
  int done = 0;
  int total = 0;
  const ConfigCompileReport* config = nullptr;
};

/// Compiles `module_text` (a whole Inductor kernel module; written to a private temporary folder
/// as <module_hash>.py, so the IR names the module by its hash) at `configs`. Errors — one message
/// saying what to install or give: no such Python ("no python3 found in PATH: …"), a Python
/// without torch or triton ("python3 (/usr/bin/python3) cannot import torch (…): compiling Triton
/// kernels needs PyTorch and Triton in that Python — install PyTorch in it (`pip install torch`,
/// which brings Triton), or " + options.choose_python), a module that
/// does not import. A config that does not compile (or whose helper died) is a report with ok =
/// false and Triton's (or the exit's) words; the rest compile. Cancel stops the helpers within
/// 0.1 s: the report has cancelled = true and the configs not compiled say "cancelled".
Expected<TritonCompileReport> compileWithTriton(const std::string& module_text, const std::string& module_hash,
                                                const std::vector<SweepConfig>& configs,
                                                const TritonCompileOptions& options,
                                                const std::function<void(const CompileProgress&)>& progress = {},
                                                const std::atomic<bool>* cancel = nullptr);

}  // namespace occx::triton
