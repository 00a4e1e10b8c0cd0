// The RBLOCK-scaling view: Inductor's dynamic RBLOCK-scaling decision for one reduction config under
// the old, new, review_min and exact bounds, side by side — inputs, the bounds plotted against
// registers per thread, a decision table (one row per policy), the candidate pipeline for the size
// hints, the arithmetic, and the keep-halving chain (a teaching aid, labelled as such). Recomputes
// on every input change (a decision and 255-point curves take well under a millisecond).
// Its parts: the inputs (RblockInputsPanel) and the results (RblockResultsPane); what they show is
// computed by ui/models/rblock_scaling_content.
#pragma once

#include <QWidget>
#include <vector>

#include "ui/models/rblock_scaling_content.h"
#include "ui/views/app_view.h"
#include "ui/views/config_hand_over.h"
#include "ui/views/rblock_inputs_panel.h"
#include "ui/views/rblock_results_pane.h"
#include "ui/views/view_context.h"
#include "ui/widgets/device_selector.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;
class QTextBrowser;

namespace occx::ui {

class RblockScalingView : public QWidget, public AppView {
  Q_OBJECT

 public:
  /// The device list follows the window's device (`context`).
  explicit RblockScalingView(const ViewContext& context, QWidget* parent = nullptr);
  ~RblockScalingView() override;

  [[nodiscard]] DeviceSelector* deviceSelector() const { return inputs_->deviceSelector(); }
  [[nodiscard]] RblockInputs inputs() const { return inputs_->inputs(); }
  /// Sets every input (clamped to the allowed ranges) and recomputes once.
  void setInputs(const RblockInputs& inputs);

  /// The device the decision sees (the selected target with its SM count or the override).
  [[nodiscard]] const Device& device() const { return device_model_; }
  /// Decisions of old, new, review_min, exact for the current inputs (empty when the input is invalid).
  [[nodiscard]] const std::vector<inductor::Decision>& decisions() const { return result_.decisions; }
  [[nodiscard]] const inductor::BoundCurves& curves() const { return result_.curves; }
  [[nodiscard]] const inductor::Pipeline& pipeline() const { return result_.pipeline; }
  [[nodiscard]] const std::vector<inductor::ChainStep>& chain() const { return result_.chain; }

  // Widgets, for tests.
  [[nodiscard]] RblockBoundsPlot* boundsPlot() const { return results_->boundsPlot(); }
  [[nodiscard]] QTableWidget* decisionTable() const { return results_->decisionTable(); }
  [[nodiscard]] QTableWidget* pipelineTable() const { return results_->pipelineTable(); }
  [[nodiscard]] QTableWidget* chainTable() const { return results_->chainTable(); }
  [[nodiscard]] QLabel* sizeHintLabel() const { return inputs_->sizeHintLabel(); }
  [[nodiscard]] QLabel* validationLabel() const { return inputs_->validationLabel(); }
  [[nodiscard]] QLabel* profileLabel() const { return inputs_->profileLabel(); }
  [[nodiscard]] QLabel* loopNoteLabel() const { return results_->loopNoteLabel(); }
  [[nodiscard]] QTextBrowser* arithmeticBrowser() const { return results_->arithmeticBrowser(); }
  [[nodiscard]] QSpinBox* xnumelSpin() const { return inputs_->xnumelSpin(); }
  [[nodiscard]] QSpinBox* rnumelSpin() const { return inputs_->rnumelSpin(); }
  [[nodiscard]] QComboBox* xblockCombo() const { return inputs_->xblockCombo(); }
  [[nodiscard]] QComboBox* rblockCombo() const { return inputs_->rblockCombo(); }
  [[nodiscard]] QComboBox* numWarpsCombo() const { return inputs_->numWarpsCombo(); }
  [[nodiscard]] QSpinBox* nRegsSpin() const { return inputs_->nRegsSpin(); }
  [[nodiscard]] QSpinBox* nSpillsSpin() const { return inputs_->nSpillsSpin(); }
  [[nodiscard]] QComboBox* profileCombo() const { return inputs_->profileCombo(); }

  // AppView
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  [[nodiscard]] std::vector<PlotController*> plotExports() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  [[nodiscard]] QString statusSummary() const override;
  /// The derivation (calculator) or the decisions' arithmetic (RBLOCK scaling), as shown.
  [[nodiscard]] QString reportText() const override;

  /// Recomputes from the widgets (called on every change): decideRblockScaling, then shows it.
  void recompute();

 public slots:
  /// Shows one compiled config: sets XBLOCK, RBLOCK,
  /// num_warps, n_regs (known), n_spills, xnumel and rnumel, keeps the device and the other inputs,
  /// and recomputes once. Values outside the view's ranges are clamped.
  void showConfig(int xblock, int rblock, int num_warps, int n_regs, int n_spills, qint64 xnumel, qint64 rnumel);
  /// Shows a compiled config with the device it was compiled for: the device entry that matches its
  /// compute capability and SM count (DeviceSelector::keyFor; the SM count overridden where the
  /// entry's differs), then the config, its n_regs, n_spills, shared memory and numels.
  void showHandOver(const occx::ui::ConfigHandOver& config);

 signals:
  /// statusSummary() changed.
  void statusMessage(const QString& text);
  /// New decisions, curves and pipeline are shown.
  void resultChanged();

 private:
  RblockInputsPanel* inputs_ = nullptr;
  RblockResultsPane* results_ = nullptr;
  Device device_model_;  ///< the device of the last decision made (kept while the inputs are invalid)
  RblockResult result_;
};

}  // namespace occx::ui
