#include "core/inductor/teaching.h"

#include "core/base/format.h"

namespace occx::inductor {

Expected<std::vector<ChainStep>> keepHalvingChain(Policy policy, const ReductionConfig& start, const KernelInfo& kernel,
                                                  const Device& device, const DecisionOptions& options,
                                                  const std::vector<int>& n_regs_per_step, int max_steps) {
  if (max_steps < 1 || max_steps > 32)
    return Error{"chain length " + num(max_steps) + " is out of range: allowed 1 … 32"};
  std::vector<ChainStep> chain;
  ReductionConfig cur = start;
  std::optional<int> last = start.n_regs;
  for (int k = 0; k < max_steps; ++k) {
    ChainStep s;
    if (k > 0) {
      const auto idx = static_cast<std::size_t>(k - 1);
      if (idx < n_regs_per_step.size()) {
        cur.n_regs = n_regs_per_step[idx];
      } else {
        cur.n_regs = last;
        s.n_regs_assumed = last.has_value();
      }
    }
    last = cur.n_regs;
    auto d = decide(policy, cur, kernel, device, options, nullptr);
    if (!d) return Error{"link " + num(k) + ": " + d.error()};
    s.config = cur;
    s.decision = std::move(d).value();
    const bool go_on = s.decision.scales();
    chain.push_back(s);
    if (!go_on) break;
    cur = *chain.back().decision.new_config;
    cur.origin = "link " + num(k + 1);
  }
  return chain;
}

Expected<BoundCurves> boundCurves(const ReductionConfig& config, const KernelInfo& kernel, const Device& device,
                                  const DecisionOptions& options) {
  ReductionConfig probe = config;
  probe.n_regs = 1;
  if (auto e = validateConfig(probe, device, options.profile)) return *e;
  BoundCurves out;
  out.num_warps = config.num_warps;
  out.total_blocks = (kernel.size_hints.x + config.xblock - 1) / config.xblock;
  out.blocks_needed_per_sm = static_cast<double>(out.total_blocks) / device.sm_count;
  const int warp = profileInfo(options.profile).warp_size_from_device ? device.warpSize() : 32;
  const int old_b = oldBound(device, config.num_warps).blocks_per_sm;
  for (int n = 1; n <= device.arch.max_registers_per_thread; ++n) {
    BoundCurvePoint p;
    p.n_regs = n;
    p.old_bound = old_b;
    p.new_bound = newBound(device, n, config.num_warps, warp).blocks_per_sm;
    p.review_min_bound = reviewMinBound(device, n, config.num_warps, warp).blocks_per_sm;
    p.exact_bound = exactBound(device, n, config.num_warps, config.shared_bytes).blocks_per_sm;
    probe.n_regs = n;
    auto o = decide(Policy::kOld, probe, kernel, device, options);
    auto w = decide(Policy::kNew, probe, kernel, device, options);
    auto x = decide(Policy::kExact, probe, kernel, device, options);
    if (!o || !w || !x) return Error{!o ? o.error() : !w ? w.error() : x.error()};
    p.old_outcome = o->outcome;
    p.new_outcome = w->outcome;
    p.exact_outcome = x->outcome;
    if (o->scales() != w->scales()) {
      if (!out.old_new_disagree.empty() && out.old_new_disagree.back().last == n - 1) {
        out.old_new_disagree.back().last = n;
      } else {
        out.old_new_disagree.push_back({n, n});
      }
    }
    out.points.push_back(p);
  }
  return out;
}

Expected<GridComparison> compareGrid(const Device& device, const DecisionOptions& options) {
  GridComparison g;
  g.device_label = device.label;
  g.sm_count = device.sm_count;
  const int warps_list[] = {1, 2, 4, 8, 16, 32};
  KernelInfo kernel;
  for (int w : warps_list) {
    GridCounts counts;
    for (int n = 33; n <= 255; ++n) {
      for (std::int64_t blocks = 64; blocks <= 65536; blocks *= 2) {
        kernel.size_hints.x = blocks;
        ReductionConfig c;
        c.xblock = 1;
        c.r0_block = 2048;
        c.num_warps = w;
        c.n_regs = n;
        auto o = decide(Policy::kOld, c, kernel, device, options);
        auto nw = decide(Policy::kNew, c, kernel, device, options);
        auto rm = decide(Policy::kReviewMin, c, kernel, device, options);
        auto ex = decide(Policy::kExact, c, kernel, device, options);
        if (!o || !nw || !rm || !ex) return Error{!o ? o.error() : !nw ? nw.error() : !rm ? rm.error() : ex.error()};
        if (!nw->applies && nw->step == 1) {
          return Error{"the grid cannot be compared on " + device.label + ": " + nw->reason +
                       " Choose another compute-capability gate or profile."};
        }
        ++counts.points;
        const bool unlaunchable = ex->bound_blocks_per_sm == 0;
        counts.unlaunchable += unlaunchable ? 1 : 0;
        counts.old_vs_new += o->scales() != nw->scales() ? 1 : 0;
        counts.new_vs_review_min += nw->scales() != rm->scales() ? 1 : 0;
        if (nw->scales() != ex->scales()) {
          ++counts.new_vs_exact;
          counts.new_vs_exact_launchable += unlaunchable ? 0 : 1;
        }
      }
    }
    g.by_num_warps.emplace_back(w, counts);
    g.total.points += counts.points;
    g.total.old_vs_new += counts.old_vs_new;
    g.total.new_vs_exact += counts.new_vs_exact;
    g.total.new_vs_review_min += counts.new_vs_review_min;
    g.total.unlaunchable += counts.unlaunchable;
    g.total.new_vs_exact_launchable += counts.new_vs_exact_launchable;
  }
  return g;
}

}  // namespace occx::inductor
