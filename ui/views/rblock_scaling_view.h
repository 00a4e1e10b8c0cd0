// The RBLOCK-scaling view: Inductor's dynamic RBLOCK-scaling decision for one reduction config under
// the old, new, review_min and exact bounds, side by side — inputs, the bounds plotted against
// registers per thread, a decision table (one row per policy), the candidate pipeline for the size
// hints, the arithmetic, and the keep-halving chain (a teaching aid, labelled as such). Recomputes
// on every input change (a decision and 255-point curves take well under a millisecond).
#pragma once

#include <QWidget>
#include <vector>

#include "core/inductor/candidates.h"
#include "core/inductor/rblock_scaling.h"
#include "core/inductor/teaching.h"
#include "ui/shell/app_view.h"
#include "ui/views/config_hand_over.h"
#include "ui/widgets/device_selector.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QSpinBox;
class QTableWidget;
class QTextBrowser;

namespace occx::ui {

class RblockBoundsPlot;
class SpinSlider;

/// Every input of the view, as values.
struct RblockInputs {
  std::int64_t xnumel = 512;
  std::int64_t rnumel = 8192;
  int xblock = 1;
  int rblock = 2048;
  int num_warps = 16;
  int n_regs = 38;           ///< 1 … 255
  bool n_regs_known = true;  ///< false: n_regs unknown (the decision skips at step 2)
  int n_spills = 0;
  std::int64_t shared_bytes = 0;
  inductor::Profile profile = inductor::Profile::kInductorCurrent;
  inductor::CcGate cc_gate = inductor::CcGate::kProfileDefault;
  inductor::Policy pipeline_policy = inductor::Policy::kNew;
  inductor::ReductionHint hint = inductor::ReductionHint::kInner;
  bool persistent = false;
  bool deterministic = false;
  int sm_override = 0;  ///< 0: the device's SM count
};

class RblockScalingView : public QWidget, public AppView {
  Q_OBJECT

 public:
  explicit RblockScalingView(QWidget* parent = nullptr);
  ~RblockScalingView() override;

  [[nodiscard]] DeviceSelector* deviceSelector() const { return device_; }
  [[nodiscard]] RblockInputs inputs() const;
  /// Sets every input (clamped to the allowed ranges) and recomputes once.
  void setInputs(const RblockInputs& inputs);

  /// The device the decision sees (the selected target with its SM count or the override).
  [[nodiscard]] const Device& device() const { return device_model_; }
  /// Decisions of old, new, review_min, exact for the current inputs (empty when the input is invalid).
  [[nodiscard]] const std::vector<inductor::Decision>& decisions() const { return decisions_; }
  [[nodiscard]] const inductor::BoundCurves& curves() const { return curves_; }
  [[nodiscard]] const inductor::Pipeline& pipeline() const { return pipeline_; }
  [[nodiscard]] const std::vector<inductor::ChainStep>& chain() const { return chain_; }

  // Widgets, for tests.
  [[nodiscard]] RblockBoundsPlot* boundsPlot() const { return plot_; }
  [[nodiscard]] QTableWidget* decisionTable() const { return decision_table_; }
  [[nodiscard]] QTableWidget* pipelineTable() const { return pipeline_table_; }
  [[nodiscard]] QTableWidget* chainTable() const { return chain_table_; }
  [[nodiscard]] QLabel* sizeHintLabel() const { return size_hints_; }
  [[nodiscard]] QLabel* validationLabel() const { return validation_; }
  [[nodiscard]] QLabel* profileLabel() const { return profile_text_; }
  [[nodiscard]] QLabel* loopNoteLabel() const { return loop_note_; }
  [[nodiscard]] QTextBrowser* arithmeticBrowser() const { return arithmetic_; }
  [[nodiscard]] QSpinBox* xnumelSpin() const { return xnumel_; }
  [[nodiscard]] QSpinBox* rnumelSpin() const { return rnumel_; }
  [[nodiscard]] QComboBox* xblockCombo() const { return xblock_; }
  [[nodiscard]] QComboBox* rblockCombo() const { return rblock_; }
  [[nodiscard]] QComboBox* numWarpsCombo() const { return num_warps_; }
  [[nodiscard]] QSpinBox* nRegsSpin() const;
  [[nodiscard]] QSpinBox* nSpillsSpin() const { return n_spills_; }
  [[nodiscard]] QComboBox* profileCombo() const { return profile_; }

  // AppView
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  [[nodiscard]] std::vector<PlotController*> plotExports() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  [[nodiscard]] QString statusSummary() const override;
  /// The derivation (calculator) or the decisions' arithmetic (RBLOCK scaling), as shown.
  [[nodiscard]] QString reportText() const override;

  /// Recomputes from the widgets (called on every change).
  void recompute();
  // The steps of recompute(); each returns false after showing why the inputs give no result.
  bool resolveDevice();
  bool readKernelAndConfig(const RblockInputs& in);
  bool decideEveryPolicy(const inductor::DecisionOptions& opts);
  void runCandidatePipeline(const RblockInputs& in, const inductor::DecisionOptions& opts,
                            const inductor::ProfileInfo& info);

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
  QWidget* buildInputs();
  QWidget* buildDeviceBox();
  QWidget* buildInductorBox();
  QWidget* buildKernelBox();
  QWidget* buildConfigBox();
  QWidget* buildPipelineBox();
  void setDefaults();
  void connectInputs();
  QWidget* buildResults();
  void showResults();
  void clearResults(const QString& message);

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
  RblockBoundsPlot* plot_ = nullptr;
  QTableWidget* decision_table_ = nullptr;
  QTableWidget* pipeline_table_ = nullptr;
  QLabel* pipeline_note_ = nullptr;
  QLabel* loop_note_ = nullptr;
  QTableWidget* chain_table_ = nullptr;
  QTextBrowser* arithmetic_ = nullptr;
  QString arithmetic_html_;  ///< what the browser shows, for the report

  bool updating_ = false;
  Device device_model_;
  inductor::KernelInfo kernel_;
  inductor::ReductionConfig config_;
  std::vector<inductor::Decision> decisions_;
  inductor::BoundCurves curves_;
  inductor::Pipeline pipeline_;
  std::vector<inductor::ChainStep> chain_;
};

}  // namespace occx::ui
