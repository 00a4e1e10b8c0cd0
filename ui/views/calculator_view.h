// The occupancy calculator: device, launch configuration, result, per-resource utilization, the
// step-by-step derivation and the three impact curves. Recomputes on every input change (one
// calculation plus three sweeps take about a millisecond, so it runs on the UI thread).
#pragma once

#include <QWidget>
#include <vector>

#include "core/occupancy/occupancy.h"
#include "ui/shell/app_view.h"
#include "ui/views/config_hand_over.h"
#include "ui/widgets/device_selector.h"

class QLabel;
class QSpinBox;
class QTableWidget;
class QTextBrowser;

namespace occx::ui {

class OccupancyCurvePlot;
class SpinSlider;
class UtilizationChart;

class CalculatorView : public QWidget, public AppView {
  Q_OBJECT

 public:
  explicit CalculatorView(QWidget* parent = nullptr);
  ~CalculatorView() override;

  /// The built-in default inputs: 256 threads, 32 registers, no shared memory, default carveout,
  /// one barrier, no grid.
  static OccupancyInput defaultInput();

  [[nodiscard]] DeviceSelector* deviceSelector() const { return device_; }
  /// The inputs as shown (sm_count from the selected device).
  [[nodiscard]] OccupancyInput input() const { return input_; }
  /// Sets every input (clamped to the selected architecture's ranges) and recomputes once.
  void setInput(const OccupancyInput& input);
  /// Shows a compiled config: the device entry that matches its compute capability and SM count
  /// (DeviceSelector::keyFor), a block of num_warps × warp size threads, its registers, its shared
  /// memory (as dynamic) and the grid ceil(xnumel / XBLOCK); the other inputs kept.
  void showHandOver(const ConfigHandOver& config);
  /// The SM count a hand-over set for a device entry without one (0 = the entry's own).
  [[nodiscard]] int smOverride() const { return sm_override_; }
  [[nodiscard]] const OccupancyResult& result() const { return result_; }
  [[nodiscard]] const ArchLimits& arch() const;
  [[nodiscard]] const std::vector<CurvePoint>& blockSizeCurve() const { return curve_block_; }
  [[nodiscard]] const std::vector<CurvePoint>& registersCurve() const { return curve_regs_; }
  [[nodiscard]] const std::vector<CurvePoint>& sharedMemoryCurve() const { return curve_smem_; }

  // Widgets, for the main window and tests.
  [[nodiscard]] QSpinBox* threadsSpin() const;
  [[nodiscard]] QSpinBox* registersSpin() const;
  [[nodiscard]] QSpinBox* staticSmemSpin() const;
  [[nodiscard]] QSpinBox* dynamicSmemSpin() const;
  [[nodiscard]] QSpinBox* carveoutSpin() const;
  [[nodiscard]] QSpinBox* barriersSpin() const;
  [[nodiscard]] QSpinBox* gridSpin() const;
  [[nodiscard]] OccupancyCurvePlot* blockSizePlot() const { return plot_block_; }
  [[nodiscard]] OccupancyCurvePlot* registersPlot() const { return plot_regs_; }
  [[nodiscard]] OccupancyCurvePlot* sharedMemoryPlot() const { return plot_smem_; }
  [[nodiscard]] UtilizationChart* utilizationChart() const { return utilization_; }
  [[nodiscard]] QLabel* validationLabel() const { return validation_; }
  [[nodiscard]] QLabel* occupancyLabel() const { return occupancy_label_; }
  [[nodiscard]] QTableWidget* limitsTable() const { return limits_table_; }
  [[nodiscard]] QTableWidget* detailsTable() const { return details_table_; }
  [[nodiscard]] QTextBrowser* derivationBrowser() const { return derivation_; }

  // AppView
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  [[nodiscard]] std::vector<PlotController*> plotExports() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  [[nodiscard]] QString statusSummary() const override;
  /// The derivation (calculator) or the decisions' arithmetic (RBLOCK scaling), as shown.
  [[nodiscard]] QString reportText() const override;
  /// The line under the plots' titles in exports: the device and the launch configuration, e.g.
  /// "H100 SXM5 (CC 9.0, 132 SMs) · 256 threads, 32 registers, 0 B shared".
  [[nodiscard]] QString exportSubtitle() const;

  /// Recomputes from the widgets' values (called on every change).
  void recompute();

 signals:
  /// statusSummary() changed.
  void statusMessage(const QString& text);
  /// A new result and curves are shown.
  void resultChanged();

 private:
  QWidget* buildControls();
  QWidget* buildPlotsAndDerivation();
  void connectInputs();
  QWidget* buildInputs();
  QWidget* buildResultPanel();
  void applyArchRanges();
  void showResult();
  void showLimitsTable();
  void showDetailsTable();
  void showDerivation();
  [[nodiscard]] QString targetLabel() const;

  DeviceSelector* device_ = nullptr;
  QLabel* device_info_ = nullptr;
  SpinSlider* threads_ = nullptr;
  SpinSlider* registers_ = nullptr;
  SpinSlider* static_smem_ = nullptr;
  SpinSlider* dynamic_smem_ = nullptr;
  SpinSlider* carveout_ = nullptr;
  QSpinBox* barriers_ = nullptr;
  QSpinBox* grid_ = nullptr;
  QLabel* validation_ = nullptr;
  QLabel* occupancy_label_ = nullptr;
  QLabel* occupancy_detail_ = nullptr;
  QTableWidget* limits_table_ = nullptr;
  QTableWidget* details_table_ = nullptr;
  QTextBrowser* derivation_ = nullptr;
  QString derivation_html_;  ///< what the browser shows, for the report
  OccupancyCurvePlot* plot_block_ = nullptr;
  OccupancyCurvePlot* plot_regs_ = nullptr;
  OccupancyCurvePlot* plot_smem_ = nullptr;
  UtilizationChart* utilization_ = nullptr;

  bool updating_ = false;  ///< set while widgets are changed programmatically: no recompute per widget
  OccupancyInput input_;
  OccupancyResult result_;
  QString input_error_;  ///< a computeOccupancy Error (malformed input), shown like "cannot launch"
  std::vector<CurvePoint> curve_block_;
  std::vector<CurvePoint> curve_regs_;
  std::vector<CurvePoint> curve_smem_;
  int sm_override_ = 0;  ///< SM count from a hand-over (showHandOver); reset when the device changes
};

}  // namespace occx::ui
