// The occupancy calculator's inputs: the device (GPU or compute capability, its limits in one line)
// and the launch configuration (threads, registers, static and dynamic shared memory, carveout,
// block barriers, grid, cluster size) with the plots' y measure. Ranges follow the selected
// architecture (applyArchRanges); changed() fires on every edit the user makes.
#pragma once

#include <QWidget>

#include "core/occupancy/clusters.h"
#include "core/occupancy/occupancy.h"
#include "ui/widgets/device_selector.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSpinBox;

namespace occx::ui {

class SpinSlider;

class CalculatorInputs : public QWidget {
  Q_OBJECT

 public:
  explicit CalculatorInputs(QWidget* parent = nullptr);

  /// The launch as the boxes hold it (the carveout -1 where the architecture has none; sm_count
  /// left 0: the view sets the GPU's).
  [[nodiscard]] OccupancyInput values() const;
  /// Sets the launch boxes (clamped to their ranges) without changed().
  void setValues(const OccupancyInput& input);
  /// The cluster size (0: none) and whether non-portable sizes are allowed.
  [[nodiscard]] ClusterInput cluster() const;
  /// Sets the cluster size and the non-portable box without changed() (ranges follow).
  void setCluster(const ClusterInput& cluster);
  /// Every plot's y axis: false active warps per SM, true occupancy in percent.
  [[nodiscard]] bool percentMeasure() const;
  void setPercentMeasure(bool percent);
  /// Fits the boxes' ranges and tooltips to the selected architecture and says its limits; without
  /// changed().
  void applyArchRanges();

  [[nodiscard]] DeviceSelector* deviceSelector() const { return device_; }
  [[nodiscard]] QSpinBox* threadsSpin() const;
  [[nodiscard]] QSpinBox* registersSpin() const;
  [[nodiscard]] QSpinBox* staticSmemSpin() const;
  [[nodiscard]] QSpinBox* dynamicSmemSpin() const;
  [[nodiscard]] QSpinBox* carveoutSpin() const;
  [[nodiscard]] QSpinBox* barriersSpin() const { return barriers_; }
  [[nodiscard]] QSpinBox* gridSpin() const { return grid_; }
  [[nodiscard]] QSpinBox* clusterSizeSpin() const { return cluster_size_; }
  [[nodiscard]] QCheckBox* nonPortableCheck() const { return non_portable_; }
  [[nodiscard]] QComboBox* yMeasureCombo() const { return measure_; }

 signals:
  /// The user changed a launch input or the cluster size (not the device: DeviceSelector::targetChanged).
  void changed();
  /// The plots' y measure changed.
  void yMeasureChanged();

 private:
  QWidget* buildDeviceBox();
  QWidget* buildLaunchBox();
  void addClusterRow(QWidget* box, QFormLayout* form);

  DeviceSelector* device_ = nullptr;
  QLabel* device_info_ = nullptr;
  SpinSlider* threads_ = nullptr;
  SpinSlider* registers_ = nullptr;
  SpinSlider* static_smem_ = nullptr;
  SpinSlider* dynamic_smem_ = nullptr;
  SpinSlider* carveout_ = nullptr;
  QSpinBox* barriers_ = nullptr;
  QSpinBox* grid_ = nullptr;
  QSpinBox* cluster_size_ = nullptr;
  QCheckBox* non_portable_ = nullptr;
  QComboBox* measure_ = nullptr;
  bool updating_ = false;  ///< boxes set programmatically: no changed() per box
};

}  // namespace occx::ui
