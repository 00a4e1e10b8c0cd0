// The occupancy calculator: device, launch configuration, result, per-resource utilization, the
// step-by-step derivation and the impact curves (block size, registers, shared memory; on a second
// page cluster size and block barriers), thread-block clusters and the best block size, with the
// driver's answers beside the model's when a GPU is present. Recomputes on every input change (one
// calculation plus three sweeps take about a millisecond, so it runs on the UI thread); the driver
// is asked off the UI thread (DriverQueryJob).
// Its parts: the inputs (CalculatorInputs), the result (CalculatorResultPanel), the plots and the
// derivation (CalculatorPlots); what they show is computed by ui/models/calculator_content.
#pragma once

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/occupancy/clusters.h"
#include "core/occupancy/driver_answer.h"
#include "core/occupancy/occupancy.h"
#include "ui/models/calculator_content.h"
#include "ui/views/app_view.h"
#include "ui/views/calculator_inputs.h"
#include "ui/views/calculator_plots.h"
#include "ui/views/calculator_result_panel.h"
#include "ui/views/config_hand_over.h"
#include "ui/views/view_context.h"
#include "ui/widgets/device_selector.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QSpinBox;
class QTabWidget;
class QTableWidget;
class QTextBrowser;

namespace occx {
class Backend;
}

namespace occx::ui {

class DriverQueryJob;

class CalculatorView : public QWidget, public AppView {
  Q_OBJECT

 public:
  /// The context's backend answers "Ask the driver"; the device list follows the window's device.
  explicit CalculatorView(const ViewContext& context, QWidget* parent = nullptr);
  ~CalculatorView() override;

  /// The built-in default inputs: 256 threads, 32 registers, no shared memory, default carveout,
  /// one barrier, no grid.
  static OccupancyInput defaultInput();

  [[nodiscard]] DeviceSelector* deviceSelector() const { return inputs_->deviceSelector(); }
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
  [[nodiscard]] const OccupancyResult& result() const { return figures_.result; }
  [[nodiscard]] const ArchLimits& arch() const;
  [[nodiscard]] const std::vector<CurvePoint>& blockSizeCurve() const { return figures_.block_size; }
  [[nodiscard]] const std::vector<CurvePoint>& registersCurve() const { return figures_.registers; }
  [[nodiscard]] const std::vector<CurvePoint>& sharedMemoryCurve() const { return figures_.shared_memory; }
  [[nodiscard]] const std::vector<CurvePoint>& barriersCurve() const { return figures_.barriers; }
  [[nodiscard]] const std::vector<ClusterCurvePoint>& clusterCurve() const { return figures_.clusters_curve; }
  /// The cluster figures for the current cluster size; empty when none is set or clusters do not apply.
  [[nodiscard]] const std::optional<ClusterResult>& clusters() const { return figures_.clusters; }
  /// Why there are no cluster figures ("" when there are).
  [[nodiscard]] QString clustersUnavailable() const { return figures_.clusters_note; }
  [[nodiscard]] const ClusterLayout& clusterLayout() const { return figures_.layout; }
  [[nodiscard]] const BestBlockSize& bestBlockSize() const { return figures_.best; }
  /// The driver's last answer for the inputs as shown; empty when not asked since they changed.
  [[nodiscard]] const std::optional<DriverOccupancy>& driverAnswer() const { return driver_; }

  /// Asks the driver (off the UI thread, DriverQueryJob); driverAnswered() follows unless the inputs
  /// change first (the answer for the old inputs is dropped). Without a backend or GPU the status
  /// line says why.
  void askDriver();
  [[nodiscard]] DriverQueryJob* driverJob() const { return driver_job_; }
  /// Shows a driver answer as if it had just arrived for the current inputs (tests).
  void showDriverAnswer(const DriverOccupancy& answer);

  // Widgets, for the main window and tests.
  [[nodiscard]] QSpinBox* threadsSpin() const { return inputs_->threadsSpin(); }
  [[nodiscard]] QSpinBox* registersSpin() const { return inputs_->registersSpin(); }
  [[nodiscard]] QSpinBox* staticSmemSpin() const { return inputs_->staticSmemSpin(); }
  [[nodiscard]] QSpinBox* dynamicSmemSpin() const { return inputs_->dynamicSmemSpin(); }
  [[nodiscard]] QSpinBox* carveoutSpin() const { return inputs_->carveoutSpin(); }
  [[nodiscard]] QSpinBox* barriersSpin() const { return inputs_->barriersSpin(); }
  [[nodiscard]] QSpinBox* gridSpin() const { return inputs_->gridSpin(); }
  [[nodiscard]] QSpinBox* clusterSizeSpin() const { return inputs_->clusterSizeSpin(); }
  [[nodiscard]] QCheckBox* nonPortableCheck() const { return inputs_->nonPortableCheck(); }
  [[nodiscard]] QComboBox* yMeasureCombo() const { return inputs_->yMeasureCombo(); }
  [[nodiscard]] QPushButton* askDriverButton() const { return result_panel_->askDriverButton(); }
  [[nodiscard]] QLabel* driverStatusLabel() const { return result_panel_->driverStatusLabel(); }
  [[nodiscard]] QTableWidget* clustersTable() const { return result_panel_->clustersTable(); }
  [[nodiscard]] QTabWidget* plotTabs() const { return plots_->tabs(); }
  [[nodiscard]] OccupancyCurvePlot* barriersPlot() const { return plots_->barriersPlot(); }
  [[nodiscard]] ClusterSizePlot* clusterSizePlot() const { return plots_->clusterSizePlot(); }
  [[nodiscard]] OccupancyCurvePlot* blockSizePlot() const { return plots_->blockSizePlot(); }
  [[nodiscard]] OccupancyCurvePlot* registersPlot() const { return plots_->registersPlot(); }
  [[nodiscard]] OccupancyCurvePlot* sharedMemoryPlot() const { return plots_->sharedMemoryPlot(); }
  [[nodiscard]] UtilizationChart* utilizationChart() const { return plots_->utilizationChart(); }
  [[nodiscard]] QLabel* validationLabel() const { return validation_; }
  [[nodiscard]] QLabel* occupancyLabel() const { return result_panel_->occupancyLabel(); }
  [[nodiscard]] QTableWidget* limitsTable() const { return result_panel_->limitsTable(); }
  [[nodiscard]] QTableWidget* detailsTable() const { return result_panel_->detailsTable(); }
  [[nodiscard]] QTextBrowser* derivationBrowser() const { return plots_->derivationBrowser(); }

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
  /// The driver's answer (or its error, in driverStatusLabel) arrived.
  void driverAnswered();

 private:
  QWidget* buildControls();
  void showResult();
  void showClusters();
  void invalidateDriverAnswer();
  [[nodiscard]] QString targetLabel() const;

  CalculatorInputs* inputs_ = nullptr;
  QLabel* validation_ = nullptr;
  CalculatorResultPanel* result_panel_ = nullptr;
  CalculatorPlots* plots_ = nullptr;
  DriverQueryJob* driver_job_ = nullptr;
  std::shared_ptr<Backend> backend_;

  OccupancyInput input_;
  CalculatorFigures figures_;
  QString derivation_html_;  ///< what the derivation shows, for the report
  std::optional<DriverOccupancy> driver_;
  int sm_override_ = 0;  ///< SM count from a hand-over (showHandOver); reset when the device changes
};

}  // namespace occx::ui
