#include "core/occupancy/clusters.h"

#include <algorithm>

#include "core/base/format.h"

namespace occx {

ClusterLayout clusterLayoutOf(const GpuSpec& gpu) {
  ClusterLayout l;
  l.gpc_sm_counts = gpu.cluster_gpc_sm_counts;
  l.blocks_per_sm_cap = gpu.cluster_blocks_per_sm_cap;
  l.source = gpu.cluster_layout_source;
  return l;
}

int maxClusterSize(const ArchLimits& a, bool non_portable) {
  if (a.cc.major < 9 || a.max_cluster_size <= 0) return 0;
  return non_portable ? a.max_cluster_size : std::min(kPortableClusterSize, a.max_cluster_size);
}

std::string clusterSizeError(const ArchLimits& a, const ClusterInput& in) {
  if (a.cc.major < 9 || a.max_cluster_size <= 0) {
    return "compute capability " + a.cc.str() + " has no thread-block clusters (they need CC 9.0 or later)";
  }
  const int most = maxClusterSize(a, in.non_portable);
  if (in.cluster_size >= 1 && in.cluster_size <= most) return {};
  std::string range = "allowed 1 … " + num(most);
  if (!in.non_portable && a.max_cluster_size > most) {
    range += " (portable; up to " + num(a.max_cluster_size) + " with non-portable cluster sizes allowed)";
  } else if (in.non_portable && a.max_cluster_size > kPortableClusterSize) {
    range += " (" + num(kPortableClusterSize) + " portable, more with non-portable cluster sizes allowed)";
  }
  return "cluster size " + num(in.cluster_size) + " is out of range: " + range;
}

std::int64_t naiveMaxActiveClusters(int sm_count, int blocks_per_sm, int cluster_size) noexcept {
  if (cluster_size < 1 || blocks_per_sm <= 0 || sm_count <= 0) return 0;
  return std::int64_t{blocks_per_sm} * sm_count / cluster_size;
}

std::int64_t maxActiveClusters(const ClusterLayout& l, int sm_count, int blocks_per_sm, int cluster_size) noexcept {
  if (!l.known()) return naiveMaxActiveClusters(sm_count, blocks_per_sm, cluster_size);
  if (cluster_size < 1 || blocks_per_sm <= 0) return 0;
  const std::int64_t b = std::min(blocks_per_sm, l.blocks_per_sm_cap);
  std::int64_t clusters = 0;
  for (int s : l.gpc_sm_counts) {
    if (cluster_size <= s) clusters += s * b / cluster_size;
  }
  return clusters;
}

namespace {

std::string gpcList(const std::vector<int>& counts) {
  std::string out;
  // Runs of equal sizes as "5 × 16".
  for (std::size_t i = 0; i < counts.size();) {
    std::size_t j = i;
    while (j < counts.size() && counts[j] == counts[i]) ++j;
    if (!out.empty()) out += ", ";
    out += (j - i > 1 ? num(static_cast<std::int64_t>(j - i)) + " × " : std::string()) + num(counts[i]);
    i = j;
  }
  return out;
}

std::vector<DerivationStep> explain(const ArchLimits& a, const ClusterLayout& l, int sms, const OccupancyResult& occ,
                                    const ClusterInput& in, const ClusterResult& r) {
  std::vector<DerivationStep> steps;
  const int c = in.cluster_size;
  const int b = occ.active_blocks_per_sm;
  std::string t = "A cluster of " + num(c) + " block" + (c == 1 ? "" : "s") + " runs on " + num(c) +
                  " different SMs of one GPC (CC " + a.cc.str() + ").";
  if (!occ.can_launch) {
    steps.push_back({"Clusters", t + " No block fits on an SM, so no cluster is active."});
    return steps;
  }
  if (l.known()) {
    t += " Without clusters " + num(b) + " blocks per SM are active; a clustered launch keeps at most " +
         num(l.blocks_per_sm_cap) + ": " + num(r.blocks_per_sm_in_clusters) + " per SM. The " + num(sms) +
         " SMs form GPCs of " + gpcList(l.gpc_sm_counts) + " SMs (" + l.source + "). Each GPC of s ≥ " + num(c) +
         " SMs holds floor(s × " + num(r.blocks_per_sm_in_clusters) + " / " + num(c) + ") clusters:";
    bool first = true;
    for (std::size_t i = 0; i < l.gpc_sm_counts.size();) {
      std::size_t j = i;
      const int s = l.gpc_sm_counts[i];
      while (j < l.gpc_sm_counts.size() && l.gpc_sm_counts[j] == s) ++j;
      const std::int64_t per = s >= c ? std::int64_t{s} * r.blocks_per_sm_in_clusters / c : 0;
      t += std::string(first ? " " : "; ") + num(static_cast<std::int64_t>(j - i)) + " × " + num(per) +
           (s >= c ? "" : " (fewer than " + num(c) + " SMs)") + " for " + num(s) + " SMs";
      first = false;
      i = j;
    }
    t += ". Sum: " + num(r.max_active_clusters) + " active clusters (the naive floor(" +
         num(r.active_blocks_without_clusters) + " / " + num(c) + ") = " + num(r.naive_max_active_clusters) + ").";
  } else {
    t += " No GPC layout is known for this GPU: the figure is the upper bound floor(" + num(b) + " × " + num(sms) +
         " / " + num(c) + ") = " + num(r.max_active_clusters) +
         "; the driver's answer can be lower, where the GPCs do not divide into whole clusters.";
  }
  steps.push_back({"Clusters", t});
  steps.push_back({"Cluster occupancy",
                   num(r.max_active_clusters) + " clusters × " + num(c) + " = " + num(r.active_blocks_in_clusters) +
                       " active blocks of " + num(r.active_blocks_without_clusters) +
                       " without clusters: " + fixed(100.0 * r.cluster_occupancy, 1) +
                       "%. The largest cluster that can launch has " + num(r.max_potential_cluster_size) +
                       " blocks (sizes up to " + num(maxClusterSize(a, in.non_portable)) +
                       (in.non_portable ? ", non-portable allowed" : ", portable") + ")."});
  return steps;
}

}  // namespace

Expected<ClusterResult> computeClusters(const ArchLimits& a, const ClusterLayout& l, int sms,
                                        const OccupancyResult& occ, const ClusterInput& in, bool with_derivation) {
  if (std::string e = clusterSizeError(a, in); !e.empty()) return Error{e};
  if (sms <= 0)
    return Error{"clusters need a GPU's SM count (got " + num(sms) + "): pick a GPU, not only a compute capability"};
  if (l.known()) {
    std::int64_t total = 0;
    for (int s : l.gpc_sm_counts) total += s;
    if (total != sms) {
      return Error{"the GPC layout has " + num(total) + " SMs but the GPU " + num(sms) + ": the layout does not apply"};
    }
  }
  ClusterResult r;
  r.cluster_size = in.cluster_size;
  r.layout_known = l.known();
  r.layout_source = l.source;
  const int b = occ.can_launch ? occ.active_blocks_per_sm : 0;
  r.blocks_per_sm_in_clusters = l.known() ? std::min(b, l.blocks_per_sm_cap) : b;
  r.max_active_clusters = maxActiveClusters(l, sms, b, in.cluster_size);
  r.naive_max_active_clusters = naiveMaxActiveClusters(sms, b, in.cluster_size);
  r.active_blocks_in_clusters = r.max_active_clusters * in.cluster_size;
  r.active_blocks_without_clusters = std::int64_t{b} * sms;
  r.cluster_occupancy = r.active_blocks_without_clusters > 0 ? static_cast<double>(r.active_blocks_in_clusters) /
                                                                   static_cast<double>(r.active_blocks_without_clusters)
                                                             : 0.0;
  for (int c = maxClusterSize(a, in.non_portable); c >= 1; --c) {
    if (maxActiveClusters(l, sms, b, c) > 0) {
      r.max_potential_cluster_size = c;
      break;
    }
  }
  if (with_derivation) r.derivation = explain(a, l, sms, occ, in, r);
  return r;
}

std::vector<ClusterCurvePoint> clusterSizeCurve(const ArchLimits& a, const ClusterLayout& l, int sms, int blocks_per_sm,
                                                bool non_portable) {
  std::vector<ClusterCurvePoint> out;
  if (sms <= 0) return out;
  const int most = maxClusterSize(a, non_portable);
  out.reserve(static_cast<std::size_t>(std::max(most, 0)));
  for (int c = 1; c <= most; ++c) {
    const std::int64_t n = maxActiveClusters(l, sms, blocks_per_sm, c);
    out.push_back({c, n, n * c});
  }
  return out;
}

}  // namespace occx
