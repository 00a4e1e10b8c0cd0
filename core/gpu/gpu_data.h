// Per-compute-capability limits and named GPUs (resources/gpu_data.json, each figure with its source).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"

namespace occx {

/// A compute capability, e.g. {9, 0}. Ordered by (major, minor).
struct ComputeCapability {
  int major = 0;
  int minor = 0;
  auto operator<=>(const ComputeCapability&) const = default;
  /// "9.0"
  [[nodiscard]] std::string str() const;
  /// "sm_90" (NVRTC/nvcc architecture name)
  [[nodiscard]] std::string smName() const;
  /// Parses MAJOR.MINOR ("9.0", "12.1"), MAJOR ("9": 9.0), MAJORMINOR ("90", "100") and
  /// sm_/compute_MAJORMINOR ("sm_90", "compute_100"). Anything else is an Error naming the text and
  /// the accepted forms: "sm_9", "9.", "9.0.1", "sm_", and the architecture-specific targets
  /// ("sm_90a", "sm_100f"), which occx neither compiles for nor models.
  static Expected<ComputeCapability> parse(std::string_view text);
};

/// Hardware limits of one compute capability that occupancy needs. Units: bytes for shared memory,
/// 32-bit registers for registers. Sources: PG (Programming Guide table "Technical Specifications
/// per Compute Capability"), HDR (cuda_occupancy.h), NCU, DEV — recorded per field in `sources`.
struct ArchLimits {
  ComputeCapability cc;
  std::string family;  ///< "Hopper"
  int warp_size = 32;
  int max_threads_per_block = 1024;
  int max_warps_per_sm = 0;
  int max_blocks_per_sm = 0;        ///< hardware cap on resident blocks per SM
  int registers_per_sm = 0;         ///< 65536 on every CC >= 5.0
  int max_registers_per_block = 0;  ///< 32768 on 5.2/5.3, else 65536
  int max_registers_per_thread = 255;
  int register_allocation_unit = 256;              ///< registers allocated per warp in units of this
  int warp_allocation_granularity = 4;             ///< warps that fit the register file floor to this (sub-partitions)
  std::int64_t shared_memory_per_sm = 0;           ///< largest shared memory configuration of an SM
  std::int64_t shared_memory_per_block = 49152;    ///< without opt-in
  std::int64_t shared_memory_per_block_optin = 0;  ///< max dynamic+static per block after opt-in
  int shared_memory_allocation_unit = 256;
  std::int64_t reserved_shared_memory_per_block = 0;  ///< runtime-reserved bytes per block (1 KB from 8.0)
  std::vector<int> shared_memory_carveout_kb;         ///< allowed SM shared-memory sizes; empty = fixed
  int block_barriers_per_sm = 0;                      ///< barrier limit, applied from CC 9.0 on (HDR)
  int max_cluster_size = 0;                           ///< 0: no thread-block clusters
  std::string note;
  std::map<std::string, std::string> sources;  ///< field name -> source tag(s)

  [[nodiscard]] int maxThreadsPerSm() const { return max_warps_per_sm * warp_size; }
};

/// A named GPU: a product with its SM count and memory system. Bandwidth in GB/s (10^9 bytes/s),
/// clocks in MHz, L2 in bytes; 0 where the datasheet gives no figure.
struct GpuSpec {
  std::string name;                  ///< "H100 SXM5"
  std::vector<std::string> aliases;  ///< "H100-SXM", "H100"
  ComputeCapability cc;
  int sm_count = 0;
  int base_clock_mhz = 0;
  int boost_clock_mhz = 0;
  std::int64_t l2_cache_bytes = 0;
  int memory_bus_bits = 0;
  std::string memory_type;
  double memory_gib = 0;
  double memory_bandwidth_GBps = 0;  ///< datasheet figure
  std::string source;
  /// Thread-block clusters (CC 9.0+): SMs per GPC as the driver packs clusters (a cluster's blocks
  /// run on different SMs of one GPC), summing to sm_count; empty where no layout is known. The
  /// layout is that of the die that was recorded: another die of the same product may disable other
  /// SMs. Source in cluster_layout_source (DRV: fitted to driver answers).
  std::vector<int> cluster_gpc_sm_counts;
  int cluster_blocks_per_sm_cap = 0;  ///< blocks per SM a clustered launch uses at most (0 = unknown)
  std::string cluster_layout_source;
};

/// The loaded data: architectures ordered by CC, GPUs in file order.
class GpuDatabase {
 public:
  /// Parses the JSON text of a GPU data file (format "occupancy-explorer-gpu-data", version 1).
  /// `origin` names the file in messages. Errors name the line, the entry and the field, e.g.
  /// "gpus.json line 40: architecture 9.0: field 'max_warps_per_sm' is missing".
  static Expected<GpuDatabase> parse(std::string_view json_text, std::string_view origin);
  /// Reads and parses a file; errors as parse() plus unreadable files and files over 16 MiB.
  static Expected<GpuDatabase> load(const std::string& path);
  /// The data built into the program (resources/gpu_data.json). Parsed once; never fails (the
  /// build's tests parse it).
  static const GpuDatabase& builtin();

  [[nodiscard]] const std::vector<ArchLimits>& architectures() const { return archs_; }
  [[nodiscard]] const std::vector<GpuSpec>& gpus() const { return gpus_; }
  /// Limits for an exact CC; nullptr when the data has none.
  [[nodiscard]] const ArchLimits* findArch(ComputeCapability cc) const;
  /// Finds a GPU by name or alias, case-insensitively, ignoring spaces, '-' and '_'.
  [[nodiscard]] const GpuSpec* findGpu(std::string_view name) const;
  /// Up to `count` known names closest to `name` (edit distance), for "did you mean" messages.
  [[nodiscard]] std::vector<std::string> closestGpuNames(std::string_view name, int count = 3) const;
  /// Comma-separated list of the CCs in the data ("5.0, 5.2, …").
  [[nodiscard]] std::string ccList() const;

 private:
  std::vector<ArchLimits> archs_;
  std::vector<GpuSpec> gpus_;
};

}  // namespace occx
