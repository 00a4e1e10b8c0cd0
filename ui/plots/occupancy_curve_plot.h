// One impact curve of the calculator, as in Nsight Compute's occupancy calculator: active warps per
// SM against block size, registers per thread, or shared memory per block, with the current
// configuration marked.
#pragma once

#include <QPointF>
#include <cstdint>
#include <vector>

#include "core/occupancy/occupancy.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

/// Which input the curve varies.
enum class CurveKind {
  BlockSize,      ///< x: threads per block (warp steps)
  Registers,      ///< x: registers per thread (1 … 255)
  SharedMemory,   ///< x: shared memory per block, plotted in KB (1024 bytes)
  BlockBarriers,  ///< x: block barriers per block (0 … 16; counted from CC 9.0 on)
};

/// What a calculator plot's y axis shows: active warps per SM, or theoretical occupancy in percent.
enum class YMeasure { Warps, Percent };

/// Graph 0: the curve ("Active warps per SM"); graph 1: the current configuration (one point).
/// A dashed vertical line also marks the current x. In YMeasure::Warps the left axis shows active
/// warps and the right axis theoretical occupancy (%); in YMeasure::Percent the left axis shows
/// occupancy (%) and the right axis is hidden.
class OccupancyCurvePlot : public PlotController {
  Q_OBJECT

 public:
  OccupancyCurvePlot(CurveKind kind, QWidget* parent);

  [[nodiscard]] CurveKind kind() const { return kind_; }

  /// Replaces the curve and the marker. `points` come from blockSizeCurve/-Registers/-SharedMemory;
  /// `current_x` is the current input in the curve's own unit (threads, registers, bytes);
  /// `current_warps` its active warps per SM (0 when it cannot launch). Replots lazily.
  void setData(const std::vector<CurvePoint>& points, int max_warps_per_sm, std::int64_t current_x, int current_warps,
               bool current_can_launch);

  /// Switches the y axis between active warps and occupancy (%); replots with the last data.
  void setYMeasure(YMeasure measure);
  [[nodiscard]] YMeasure yMeasure() const { return measure_; }

  /// The marker's position in plotted units (shared memory in KB; y in the current measure).
  [[nodiscard]] QPointF markerPosition() const;
  /// Plotted x for an input value: bytes → KB for shared memory, unchanged otherwise.
  [[nodiscard]] double plottedX(std::int64_t x) const;
  /// The points last given to setData.
  [[nodiscard]] const std::vector<CurvePoint>& points() const { return points_; }

  /// Describes the curve point nearest to x: the input, active warps and occupancy, blocks, limiter.
  [[nodiscard]] QString toolTipAt(double x, double y) const override;

 private:
  [[nodiscard]] QString describeX(std::int64_t x) const;

  [[nodiscard]] double plottedY(int warps) const;
  void applyYMeasure();
  void replotData();

  CurveKind kind_;
  YMeasure measure_ = YMeasure::Warps;
  std::vector<CurvePoint> points_;
  int max_warps_ = 0;
  std::int64_t current_x_ = 0;
  int current_warps_ = 0;
  bool current_can_launch_ = true;
};

}  // namespace occx::ui
