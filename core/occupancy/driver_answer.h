// What the CUDA driver answers about one launch configuration on a real GPU, beside the model's
// figures: cuOccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxActiveClusters,
// cuOccupancyMaxPotentialClusterSize and cuOccupancyMaxPotentialBlockSize, asked for a probe kernel
// compiled to the requested register count. CUDA-free: the CUDA backend fills it
// (core/cuda/driver_occupancy.h), the calculator view and the CLI show it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/gpu/gpu_data.h"

namespace occx {

/// The launch to ask about. Shared memory in bytes (static and dynamic counted together: the probe
/// kernel has no static shared memory and takes it all as dynamic).
struct DriverOccupancyQuery {
  int device = 0;                 ///< ordinal, 0 … device count − 1
  int registers_per_thread = 32;  ///< the probe is compiled with --maxrregcount to this (0 … 255)
  int threads_per_block = 256;    ///< 1 … 1024
  std::int64_t shared_memory_bytes = 0;
  int cluster_size = 0;             ///< 0: no cluster questions; else 1 … 16 (non-portable allowed above 8)
  int block_size_limit = 0;         ///< for the best block size (0 = none)
  bool every_cluster_size = false;  ///< also ask max active clusters for sizes 1 … 16 (CC 9.0+)
};

/// The driver's answers; -1 where not asked or not answered (the note says why).
struct DriverOccupancy {
  std::string device_name;  ///< "NVIDIA H200"
  ComputeCapability cc;
  int sm_count = 0;
  int probe_registers = -1;      ///< the probe kernel's NUM_REGS (may differ from the request, see note)
  int probe_block_barriers = 1;  ///< the probe uses __syncthreads
  int active_blocks_per_sm = -1;
  int max_active_clusters = -1;  ///< for query.cluster_size
  int max_potential_cluster_size_portable = -1;
  int max_potential_cluster_size_nonportable = -1;
  int best_block_size = -1;
  int best_min_grid_size = -1;
  std::vector<int> max_active_clusters_by_size;  ///< [c − 1] for cluster size c, when every_cluster_size
  std::string note;                              ///< e.g. "the probe has 24 registers (the fewest it compiles to)"
};

}  // namespace occx
