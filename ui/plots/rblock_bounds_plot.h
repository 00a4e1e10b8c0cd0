// The RBLOCK-scaling plot: resident blocks per SM against registers per thread (1 … 255) for one
// num_warps — the old bound (flat), the new bound (a floored hyperbola), the exact bound (the
// occupancy calculator's staircase), the blocks one wave needs per SM (total blocks / SMs), the
// current config, and the n_regs range where the old and new decisions disagree, shaded.
#pragma once

#include <QPointF>
#include <QString>
#include <vector>

#include "core/inductor/teaching.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

/// Graphs, in order: kOldGraph, kNewGraph, kExactGraph, kNeededGraph, kCurrentGraph, kDisagreeGraph
/// (legend entry of the shaded range; no data). The shaded ranges are rectangle items.
class RblockBoundsPlot : public PlotController {
  Q_OBJECT

 public:
  static constexpr int kOldGraph = 0;
  static constexpr int kNewGraph = 1;
  static constexpr int kExactGraph = 2;
  static constexpr int kNeededGraph = 3;
  static constexpr int kCurrentGraph = 4;
  static constexpr int kDisagreeGraph = 5;

  explicit RblockBoundsPlot(QWidget* parent);

  /// Replaces the data. `current_n_regs` 0 = unknown (no marker); `current_bound` is the marker's y
  /// (the new bound at that n_regs). `sm_count` names the wave line. Replots lazily.
  void setData(const inductor::BoundCurves& curves, int sm_count, int current_n_regs, int current_bound);

  /// The shaded n_regs ranges (inclusive), as last set.
  [[nodiscard]] const std::vector<inductor::RegRange>& shadedRanges() const { return shaded_; }
  /// Plotted extent of shaded range `index` on x: [first − 0.5, last + 0.5]; a null point if none.
  [[nodiscard]] QPointF shadedExtent(int index) const;
  /// The plot's y range upper end (blocks per SM).
  [[nodiscard]] double yUpper() const;

  /// Describes the bounds and decisions at the nearest n_regs.
  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  void showCurrent(int current_n_regs, int current_bound);
  void showShaded(double top);
  inductor::BoundCurves curves_;
  std::vector<inductor::RegRange> shaded_;
  int sm_count_ = 0;
};

}  // namespace occx::ui
