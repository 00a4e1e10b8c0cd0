// "Impact of varying cluster size" (thread-block clusters, CC 9.0+): max active clusters on the GPU
// against cluster size, from the GPC-layout model (core/occupancy/clusters.h), with the naive
// floor(active blocks / cluster size) for comparison, the driver's answers when it was asked, and
// the current cluster size marked.
#pragma once

#include <QString>
#include <vector>

#include "core/occupancy/clusters.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

/// Graph 0: the model; graph 1: the naive bound; graph 2: the driver (empty unless given); graph 3:
/// the current cluster size (one point, empty when none is set). YMeasure::Warps shows active
/// clusters; YMeasure::Percent shows cluster occupancy (active blocks in clusters / without, %).
class ClusterSizePlot : public PlotController {
  Q_OBJECT

 public:
  explicit ClusterSizePlot(QWidget* parent);

  /// Replaces the data. `points` from clusterSizeCurve; `blocks_without_clusters` the GPU's active
  /// blocks without clusters (for the naive bound and the percent view); `driver` the driver's max
  /// active clusters by size ([c − 1]; empty: not asked); `current_size` 0 for none; `note` a line
  /// for the empty plot (e.g. "clusters need CC 9.0"), shown when `points` is empty.
  void setData(const std::vector<ClusterCurvePoint>& points, std::int64_t blocks_without_clusters,
               const std::vector<int>& driver, int current_size, bool layout_known, const QString& note);
  void setYMeasure(YMeasure measure);
  [[nodiscard]] YMeasure yMeasure() const { return measure_; }
  [[nodiscard]] const std::vector<ClusterCurvePoint>& points() const { return points_; }

  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  void replotData();
  [[nodiscard]] double plottedY(std::int64_t clusters, int size) const;

  YMeasure measure_ = YMeasure::Warps;
  std::vector<ClusterCurvePoint> points_;
  std::int64_t blocks_ = 0;
  std::vector<int> driver_;
  int current_ = 0;
  bool layout_known_ = false;
  QString note_;
};

}  // namespace occx::ui
