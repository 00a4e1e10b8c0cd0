// Thread-block clusters (compute capability 9.0 and later): how many clusters of a launch are active
// on the GPU at once, and the largest cluster size that can launch.
//
// What the driver answers (cuOccupancyMaxActiveClusters) depends on how the die's SMs are grouped
// into GPCs: a cluster's blocks are co-scheduled on different SMs of one GPC. The model here, checked
// against driver answers recorded on an H200 (tests/data/h200_clusters.csv; the layout was fitted on
// one half of it by scripts/fit-cluster-layout.py and is tested on the other half):
//   * a clustered launch keeps b = min(active blocks per SM, cap) blocks on an SM (cap: 8 on the H200);
//   * a GPC of s SMs holds floor(s · b / c) clusters of c blocks when c ≤ s, none when c > s;
//   * the GPU holds the sum over its GPCs.
// Without a known layout the figure is the naive upper bound floor(active blocks on the GPU / c).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"

namespace occx {

/// Largest portable cluster size (CUDA C++ Programming Guide, "Thread Block Clusters").
inline constexpr int kPortableClusterSize = 8;

/// The cluster-relevant grouping of one GPU's SMs. Empty gpc_sm_counts: unknown.
struct ClusterLayout {
  std::vector<int> gpc_sm_counts;  ///< SMs per GPC as the driver packs clusters
  int blocks_per_sm_cap = 0;       ///< blocks per SM a clustered launch keeps at most
  std::string source;              ///< where the layout comes from (GPU data source tag and note)

  [[nodiscard]] bool known() const { return !gpc_sm_counts.empty() && blocks_per_sm_cap > 0; }
};

/// The layout recorded for a named GPU (GpuSpec::cluster_*); unknown (empty) when none is recorded.
ClusterLayout clusterLayoutOf(const GpuSpec& gpu);

/// The launch's cluster: cluster size in blocks (a 1-D cluster; the product of a 3-D cluster's
/// sizes counts the same) and whether sizes above the portable 8 are allowed
/// (cudaFuncAttributeNonPortableClusterSizeAllowed).
struct ClusterInput {
  int cluster_size = 1;
  bool non_portable = true;
};

/// The largest cluster size `arch` allows: 8 portable, arch.max_cluster_size (16 on CC 9.0) with
/// non-portable sizes; 0 below CC 9.0 (no clusters).
int maxClusterSize(const ArchLimits& arch, bool non_portable);

/// "" when `cluster_size` is allowed on `arch`, else a message naming the value and the allowed
/// range, e.g. "cluster size 12 is out of range: allowed 1 … 8 (portable; up to 16 with
/// non-portable cluster sizes allowed)", or that CC 8.6 has no clusters.
std::string clusterSizeError(const ArchLimits& arch, const ClusterInput& input);

/// Max active clusters on the GPU for `blocks_per_sm` active blocks per SM (without clusters) and
/// cluster size `cluster_size` ≥ 1, by the layout (see the file comment). Lean: no allocation,
/// no strings. With an unknown layout: floor(blocks_per_sm · sm_count / cluster_size).
std::int64_t maxActiveClusters(const ClusterLayout& layout, int sm_count, int blocks_per_sm, int cluster_size) noexcept;

/// The naive figure: floor(blocks_per_sm · sm_count / cluster_size). For comparison only.
std::int64_t naiveMaxActiveClusters(int sm_count, int blocks_per_sm, int cluster_size) noexcept;

/// Output of computeClusters.
struct ClusterResult {
  int cluster_size = 1;
  bool layout_known = false;  ///< false: the figures are the naive upper bound
  std::string layout_source;
  int blocks_per_sm_in_clusters = 0;                ///< min(active blocks per SM, the layout's cap)
  std::int64_t max_active_clusters = 0;             ///< on the GPU at once
  std::int64_t naive_max_active_clusters = 0;       ///< floor(active blocks on the GPU / cluster size)
  std::int64_t active_blocks_in_clusters = 0;       ///< max_active_clusters × cluster_size
  std::int64_t active_blocks_without_clusters = 0;  ///< active blocks per SM × SMs
  double cluster_occupancy = 0.0;          ///< active_blocks_in_clusters / active_blocks_without_clusters, 0 … 1
  int max_potential_cluster_size = 0;      ///< largest size (≤ maxClusterSize) with at least one active cluster
  std::vector<DerivationStep> derivation;  ///< empty unless requested
};

/// Clusters for one launch: `occupancy` is computeOccupancy's result for the same launch on `arch`,
/// `sm_count` the GPU's SMs (> 0), `layout` its GPC layout (may be unknown). Errors: CC below 9.0,
/// a cluster size outside clusterSizeError's range, sm_count ≤ 0 (a compute capability alone has no
/// SMs to pack). Never throws.
Expected<ClusterResult> computeClusters(const ArchLimits& arch, const ClusterLayout& layout, int sm_count,
                                        const OccupancyResult& occupancy, const ClusterInput& input,
                                        bool with_derivation = true);

/// One point of the cluster-size impact curve.
struct ClusterCurvePoint {
  int cluster_size = 0;
  std::int64_t max_active_clusters = 0;
  std::int64_t active_blocks_in_clusters = 0;
};

/// Max active clusters for cluster sizes 1 … maxClusterSize(arch, non_portable); empty below CC 9.0
/// or without an SM count.
std::vector<ClusterCurvePoint> clusterSizeCurve(const ArchLimits& arch, const ClusterLayout& layout, int sm_count,
                                                int blocks_per_sm, bool non_portable);

}  // namespace occx
