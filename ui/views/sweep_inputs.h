// The inputs the compile-sweep view and the live-sweep view share: a shape preset, workload, dtype, K, xnumel,
// rnumel, and the sweep grid (XBLOCK, RBLOCK and num_warps values to try) with Inductor's own
// candidates on or off.
#pragma once

#include <QWidget>
#include <vector>

#include "core/sweep/compile_sweep.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QSettings;
class QSpinBox;
class QToolButton;

namespace occx::ui {

/// A named problem (the reference shapes measured on an H200, and the spill case).
struct ShapePreset {
  QString label;
  Workload workload;
  DType dtype;
  int k;
  std::int64_t xnumel;
  std::int64_t rnumel;
  bool fp32_outputs = false;  ///< outputs in fp32 (an upcast graph, as Inductor's log_softmax figures count them)
};
/// The presets offered, in menu order.
const std::vector<ShapePreset>& shapePresets();

class SweepInputs : public QWidget {
  Q_OBJECT

 public:
  explicit SweepInputs(QWidget* parent = nullptr);

  /// Writes workload, dtype, K, fp32_outputs, xnumel, rnumel, the grid lists, inductor_candidates and static_shape into
  /// `spec` (other fields untouched).
  void fillSpec(CompileSweepSpec& spec) const;
  /// Shows the spec's workload, dtype, K, shape and grid (values not offered are ignored).
  void setFromSpec(const CompileSweepSpec& spec);
  /// An empty string when the inputs make a sweep, else why not ("choose at least one RBLOCK").
  [[nodiscard]] QString validationMessage() const;
  /// Grid configs the inputs make (XBLOCK × RBLOCK × num_warps values chosen).
  [[nodiscard]] int gridSize() const;

  void saveSettings(QSettings& settings) const;
  void restoreSettings(QSettings& settings);

  // Widgets, for tests and screenshots.
  [[nodiscard]] QComboBox* presetCombo() const { return preset_; }
  [[nodiscard]] QComboBox* workloadCombo() const { return workload_; }
  [[nodiscard]] QComboBox* dtypeCombo() const { return dtype_; }
  [[nodiscard]] QSpinBox* kSpin() const { return k_; }
  [[nodiscard]] QSpinBox* xnumelSpin() const { return xnumel_; }
  [[nodiscard]] QSpinBox* rnumelSpin() const { return rnumel_; }
  [[nodiscard]] QCheckBox* inductorCheck() const { return inductor_; }
  [[nodiscard]] QCheckBox* fp32OutputsCheck() const { return fp32_outputs_; }
  /// "Static shape (baked in)": CompileSweepSpec::static_shape.
  [[nodiscard]] QCheckBox* staticShapeCheck() const { return static_shape_; }
  /// The toggle of one grid value (axis 0 XBLOCK, 1 RBLOCK, 2 num_warps); nullptr when not offered.
  [[nodiscard]] QToolButton* gridButton(int axis, int value) const;
  /// Chooses exactly these values on one axis (others off).
  void setGridValues(int axis, const std::vector<int>& values);

 signals:
  /// Any input changed.
  void changed();

 private:
  void addKernelRows(QFormLayout* form);
  void addShapeRows(QFormLayout* form);
  void addGridRows(QFormLayout* form);
  void setDefaults();
  void connectEdits();
  QWidget* buildGridRow(int axis, const std::vector<int>& values, const std::vector<int>& defaults);
  [[nodiscard]] std::vector<int> gridValues(int axis) const;
  void applyPreset(int index);
  void updateLabels();

  QComboBox* preset_ = nullptr;
  QComboBox* workload_ = nullptr;
  QComboBox* dtype_ = nullptr;
  QSpinBox* k_ = nullptr;
  QSpinBox* xnumel_ = nullptr;
  QSpinBox* rnumel_ = nullptr;
  QLabel* shape_info_ = nullptr;
  QLabel* grid_info_ = nullptr;
  QCheckBox* inductor_ = nullptr;
  QCheckBox* fp32_outputs_ = nullptr;
  QCheckBox* static_shape_ = nullptr;
  std::vector<std::vector<std::pair<int, QToolButton*>>> grid_;  ///< per axis: (value, toggle)
  bool updating_ = false;
};

}  // namespace occx::ui
