// An Inductor run as torch.compile left it on disk, read and analysed without Python or a GPU:
// every kernel module under a folder (an Inductor cache, a torch_compile_debug folder) or one
// module, every compiled config of each in Triton's cache with its registers and spills from the
// cubin, the autotuner's winner (.best_config), the buffers of each launch (wrapper modules), and
// per config the occupancy (core/occupancy) and each RBLOCK policy's decision (core/inductor).
//
// Source: the files PyTorch 2.11's Inductor and Triton 3.6 write (kernel modules, wrappers,
// .best_config, Triton cache folders; recorded on an H200 in tests/data/inductor); the decision and candidate logic of
// core/inductor; Inductor's defaults for absent meta (dynamic_scale_rblock true, spill_threshold
// 16). Per-config benchmark times are not on disk (Inductor logs them only at DEBUG level).
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/device.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/rblock_scaling.h"
#include "core/occupancy/occupancy.h"
#include "core/triton/kernel_module.h"
#include "core/triton/triton_cache.h"
#include "core/triton/wrapper_module.h"

namespace occx::triton {

/// Where a compiled config came from.
enum class ConfigOrigin {
  kCandidate,          ///< one of Inductor's candidate configs for the kernel's size hints
  kAddedByScaling,     ///< a halved copy the dynamic RBLOCK scaling (current bound) added
  kCoordinateDescent,  ///< the winner coordinate descent found (.best_config found_by_coordesc)
  kOther,              ///< in the cache but none of the above (coordinate descent's trials, another run, max-autotune)
};
/// "candidate", "added by scaling", "coordinate descent", "other". Never fails.
std::string_view configOriginName(ConfigOrigin origin);
/// The origin of a config a sweep compiled (`occx inductor sweep`, the Inductor run view's "Sweep this
/// kernel"), not Inductor: "swept". It is a row's origin once a sweep's configs join a run's table.
inline constexpr std::string_view kSweptOrigin = "swept";

/// The autotuner's winner as a `.best_config` file records it.
struct BestConfig {
  std::string path;
  int xblock = 1;
  int yblock = 0;
  int r0_block = 0;
  int r1_block = 0;
  int num_warps = 0;
  int num_stages = 0;
  bool found_by_coordesc = false;
  std::optional<std::int64_t> time_taken_ms;  ///< the autotuning's duration, not a kernel time
  std::string triton_cache_hash;              ///< empty when null (coordinate descent)
  std::string configs_hash;
};

/// Reads a `.best_config` file's JSON text. Error names `path` and what is missing.
Expected<BestConfig> readBestConfig(std::string_view json_text, std::string path);

/// One compiled config of a kernel and what it means.
struct RunConfig {
  inductor::ReductionConfig config;  ///< tile, num_warps, num_stages, n_regs, n_spills, shared_bytes (static + dynamic)
  int yblock = 0;                    ///< YBLOCK of 2-D pointwise tiles (0 = none)
  /// Mix-order reductions (MixOrderReductionGrid): RSPLIT_SIZE rows per program, from inductor_meta,
  /// and the NUM_STAGES of its row loop as Inductor's persistent_reduction sets it
  /// (min(max(RSPLIT_SIZE / XBLOCK / 4, 1), 2 when r0_ > 8192 else 3; 1 without multi-stage)); 0 = not one.
  int rsplit_size = 0;
  int mix_num_stages = 0;
  std::string triton_cache_hash;  ///< the Triton cache folder's name
  std::string folder;
  std::int64_t local_bytes = 0;  ///< local memory per thread (cubin FRAME_SIZE), bytes
  std::int64_t static_shared_bytes = 0;
  std::int64_t dynamic_shared_bytes = 0;
  int warp_size = 32;
  ConfigOrigin origin = ConfigOrigin::kOther;
  int parent = -1;      ///< kAddedByScaling: index (in the kernel's configs) of the config it halves
  bool winner = false;  ///< the .best_config's config
  std::optional<OccupancyResult> occupancy;  ///< none when registers are unknown
  std::vector<inductor::Decision>
      decisions;                      ///< old, new, review_min, exact, spills (kPolicies); empty when not analysed
  bool bounds_disagree = false;       ///< some policies would halve this config and others not
  bool over_spill_threshold = false;  ///< n_spills > the kernel's spill_threshold: never benchmarked
  std::vector<std::string> problems;

  /// The decision of `policy`; nullptr when not analysed.
  [[nodiscard]] const inductor::Decision* decision(inductor::Policy policy) const;
};

/// One argument of one launch, from the wrapper.
struct LaunchArgumentInfo {
  std::string name;                     ///< the signature's name ("in_ptr0", "xnumel")
  std::string type;                     ///< the signature's type ("*fp16", "i32")
  std::string value;                    ///< as launched ("arg0_1", "512")
  std::optional<WrapperBuffer> buffer;  ///< the tensor, when the value names one
  bool mutated = false;                 ///< in inductor_meta's mutated_arg_names
};

/// One launch of a kernel in a wrapper.
struct KernelLaunchInfo {
  std::string wrapper;
  int line = 0;
  std::vector<LaunchArgumentInfo> arguments;
};

/// One kernel of the run.
struct RunKernel {
  KernelModule module;
  std::optional<Device> device;  ///< from the module's DeviceProperties and the GPU data
  std::string device_label;      ///< "CC 9.0, 132 SMs"; "unknown device" when the module names none
  std::vector<RunConfig> configs;
  std::optional<BestConfig> best;
  int winner = -1;  ///< index of the winner in configs; -1 when unknown
  /// Halved configs the current bound adds for this kernel that are not in the cache.
  std::vector<inductor::ReductionConfig> missing_added;
  std::vector<KernelLaunchInfo> launches;
  std::vector<std::string> notes;     ///< what was not analysed and why, in words
  std::vector<std::string> problems;  ///< files of this kernel that could not be read

  /// Looped and persistent reductions are analysed; pointwise and other kernels are listed.
  [[nodiscard]] bool analysed() const;
  /// The spill threshold that applies (inductor_meta's, else 16).
  [[nodiscard]] int spillThreshold() const;
};

/// Counts over the run, and the sentence that says them.
struct RunSummary {
  int kernels = 0;
  int looped = 0;
  int persistent = 0;
  int pointwise = 0;
  int other = 0;
  int configs = 0;  ///< compiled configs of every kernel: Inductor's and a sweep's (configs − added_by_sweep)
  int added_by_scaling = 0;
  int added_by_sweep = 0;  ///< configs a sweep compiled (origin kSweptOrigin), not Inductor
  int over_spill_threshold = 0;
  int over_spill_threshold_swept = 0;  ///< of them, a sweep's configs
  int old_new_disagree = 0;            ///< configs where the old and the new bound decide differently
  int old_new_disagree_swept = 0;      ///< of them, a sweep's configs
  int any_disagree = 0;                ///< configs where some of the four bounds decide differently
  int undecided = 0;  ///< configs of looped reductions with no decision (registers or size hints unknown)
  /// Looped reductions whose autotuner's winner (.best_config) is known, with its occupancy: the
  /// kernels where the autotuner chose among several configs. winners_mean_occupancy is over them.
  int winners_known = 0;
  double winners_mean_occupancy = 0.0;  ///< 0 … 1, over the winners_known looped reductions
  int single_config = 0;                ///< looped reductions Inductor compiled one config of: no autotuning, no winner
  std::vector<std::string> devices;     ///< labels of the devices the kernels target

  /// Configs Inductor compiled (its candidates, the scaling pass's halved copies, coordinate
  /// descent's): every config but a sweep's.
  [[nodiscard]] int inductorConfigs() const { return configs - added_by_sweep; }

  /// "41 looped reductions; 50 configs Inductor compiled (2 added by RBLOCK scaling) + 88 a sweep
  /// added; the old and new bounds agree on every one; 2 configs spill over the threshold; the
  /// winners' mean occupancy is 75 % over the 3 looped reductions autotuned among several configs
  /// (38 had one config: nothing to choose)", with persistent and pointwise kernels
  /// and the devices when present; what a sweep added is counted apart wherever it counts.
  [[nodiscard]] std::string text() const;
};

/// A scanned run.
struct InductorRun {
  std::string input;
  std::vector<std::string> triton_caches;  ///< the Triton caches read
  std::vector<RunKernel> kernels;          ///< grouped by device, then by name; one per source (module hash)
  std::vector<std::string> problems;       ///< files that could not be read, each naming the file
  int files_read = 0;
  RunSummary summary;

  /// Kernels whose name or module hash equals `key`, else those whose name contains it.
  [[nodiscard]] std::vector<const RunKernel*> findKernels(std::string_view key) const;
};

/// What to scan.
struct RunScanOptions {
  std::string input;                       ///< a folder or one kernel module; empty = defaultInductorCacheDir()
  std::vector<std::string> triton_caches;  ///< more Triton caches (folders of hash folders)
  bool home_triton_cache = true;           ///< also ~/.triton/cache, plain Triton's default
  const GpuDatabase* db = nullptr;         ///< nullptr = the built-in GPU data
};

/// Progress of a scan: the phase ("reading modules", "reading Triton caches", "analysing") and
/// items done of total in it.
struct ScanProgress {
  std::string phase;
  int done = 0;
  int total = 0;
};

/// $TORCHINDUCTOR_CACHE_DIR when set, else <tmp>/torchinductor_<user> as Inductor computes it
/// (tmp: $TMPDIR or /tmp; user: $LOGNAME, $USER, $LNAME, $USERNAME or the password entry).
std::string defaultInductorCacheDir();

/// Reads and analyses a run. Errors: the input does not exist or is unreadable, or holds no
/// Inductor kernel module or wrapper ("no Inductor kernel modules under DIR: …"); Error::cancellation()
/// when `cancel` became true. Files that cannot be read become problems naming the file; the rest
/// is still read: a .py or .best_config that is not a regular file (a FIFO) is skipped unopened,
/// folders more than 32 levels below the input are not scanned, and each is a problem line. Never
/// throws.
Expected<InductorRun> scanInductorRun(const RunScanOptions& options,
                                      const std::function<void(const ScanProgress&)>& progress = {},
                                      const std::atomic<bool>* cancel = nullptr);

/// Analyses one kernel against its compiled configs (already matched to it) and best config:
/// the device, each config's tile, registers, spills, origin, occupancy and decisions. Used by
/// scanInductorRun; exposed for tests and for tools that read configs from elsewhere. A size hint
/// that is not an integer within 1 … 2^31 is taken from the body's static numel (a problem says
/// so) or, without one, no decision is made (a problem says that); what a cubin or Triton's JSON
/// claims beyond what a GPU allows (REGCOUNT over 255, static shared memory over 48 KB, another
/// architecture than the module's device, a tile dimension over 2^30) is a problem of its config.
RunKernel analyseKernel(KernelModule module, const std::vector<const TritonCompiled*>& compiled,
                        std::optional<BestConfig> best, const GpuDatabase& db);

/// The decision of `policy` for `config` (its tile, num_warps, num_stages and the compiled kernel's
/// n_regs and n_spills) when it is the only config of `kernel`, as when a `.best_config` pins it:
/// Inductor then compiles that one config and runs the RBLOCK scaling on it alone, so no other config
/// makes the halved copy a duplicate. Errors: the kernel's device is unknown, a size hint the decision
/// needs is unknown (the reason), or the config is invalid (validateConfig's message). Never throws.
Expected<inductor::Decision> decideAlone(const RunKernel& kernel, const inductor::ReductionConfig& config,
                                         inductor::Policy policy);

}  // namespace occx::triton
