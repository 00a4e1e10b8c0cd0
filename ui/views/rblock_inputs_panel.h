// The RBLOCK-scaling view's inputs: the GPU and its SM count, the Inductor version (profile and CC
// gate), the reduction kernel (numels, hint, persistent, deterministic), the compiled config
// (XBLOCK, RBLOCK, num_warps, n_regs, n_spills, shared memory), the policy of the pipeline and the
// chain, and under them the message that says why the inputs give no decision. changed() fires on
// every edit the user makes, the device included.
#pragma once

#include <QWidget>

#include "ui/models/rblock_scaling_content.h"
#include "ui/widgets/device_selector.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;

namespace occx::ui {

class SpinSlider;

class RblockInputsPanel : public QWidget {
  Q_OBJECT

 public:
  explicit RblockInputsPanel(QWidget* parent = nullptr);

  /// The inputs as the boxes hold them (sm_override 0 when the SM count is the device's own).
  [[nodiscard]] RblockInputs inputs() const;
  /// Sets every box (clamped to its range) without changed().
  void setInputs(const RblockInputs& inputs);
  /// Selects the device entry with this key (and its SM count) without changed(); false when none has it.
  bool selectDevice(const QString& key);
  /// The SM count the decision uses (the device's, or the one typed).
  [[nodiscard]] int smCount() const;

  /// The device's limits in one line; `max_shared_bytes` bounds the shared-memory box.
  void showDevice(const QString& info, std::int64_t max_shared_bytes);
  void showProfileStatement(const QString& text);
  void showSizeHints(const QString& text);
  /// Why the inputs give no decision; empty hides the message.
  void showValidation(const QString& message);

  [[nodiscard]] DeviceSelector* deviceSelector() const { return device_; }
  [[nodiscard]] QLabel* sizeHintLabel() const { return size_hints_; }
  [[nodiscard]] QLabel* validationLabel() const { return validation_; }
  [[nodiscard]] QLabel* profileLabel() const { return profile_text_; }
  [[nodiscard]] QSpinBox* xnumelSpin() const { return xnumel_; }
  [[nodiscard]] QSpinBox* rnumelSpin() const { return rnumel_; }
  [[nodiscard]] QComboBox* xblockCombo() const { return xblock_; }
  [[nodiscard]] QComboBox* rblockCombo() const { return rblock_; }
  [[nodiscard]] QComboBox* numWarpsCombo() const { return num_warps_; }
  [[nodiscard]] QSpinBox* nRegsSpin() const;
  [[nodiscard]] QSpinBox* nSpillsSpin() const { return n_spills_; }
  [[nodiscard]] QComboBox* profileCombo() const { return profile_; }

 signals:
  /// The user changed an input (not setInputs).
  void changed();

 private:
  QWidget* buildDeviceBox();
  QWidget* buildInductorBox();
  QWidget* buildKernelBox();
  QWidget* buildConfigBox();
  QWidget* buildPipelineBox();
  void setDefaults();
  void connectInputs();

  DeviceSelector* device_ = nullptr;
  QLabel* device_info_ = nullptr;
  QSpinBox* sms_ = nullptr;
  QComboBox* profile_ = nullptr;
  QLabel* profile_text_ = nullptr;
  QComboBox* cc_gate_ = nullptr;
  QSpinBox* xnumel_ = nullptr;
  QSpinBox* rnumel_ = nullptr;
  QLabel* size_hints_ = nullptr;
  QComboBox* xblock_ = nullptr;
  QComboBox* rblock_ = nullptr;
  QComboBox* num_warps_ = nullptr;
  SpinSlider* n_regs_ = nullptr;
  QCheckBox* n_regs_known_ = nullptr;
  QSpinBox* n_spills_ = nullptr;
  QSpinBox* shared_ = nullptr;
  QComboBox* hint_ = nullptr;
  QComboBox* pipeline_policy_ = nullptr;
  QCheckBox* persistent_ = nullptr;
  QCheckBox* deterministic_ = nullptr;
  QLabel* validation_ = nullptr;
  bool updating_ = false;  ///< boxes set programmatically: no changed() per box
};

}  // namespace occx::ui
