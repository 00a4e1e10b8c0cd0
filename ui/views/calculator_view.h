// The occupancy calculator: device, launch configuration, result, per-resource utilization, the
// step-by-step derivation and the impact curves (block size, registers, shared memory; on a second
// page cluster size and block barriers), thread-block clusters and the best block size, with the
// driver's answers beside the model's when a GPU is present. Recomputes on every input change (one
// calculation plus three sweeps take about a millisecond, so it runs on the UI thread).
#pragma once

#include <QWidget>
#include <optional>
#include <vector>

#include "core/occupancy/clusters.h"
#include "core/occupancy/driver_answer.h"
#include "core/occupancy/occupancy.h"
#include "ui/shell/app_view.h"
#include "ui/views/config_hand_over.h"
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

class ClusterSizePlot;
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
  [[nodiscard]] const std::vector<CurvePoint>& barriersCurve() const { return curve_barriers_; }
  [[nodiscard]] const std::vector<ClusterCurvePoint>& clusterCurve() const { return curve_clusters_; }
  /// The cluster figures for the current cluster size; empty when none is set or clusters do not apply.
  [[nodiscard]] const std::optional<ClusterResult>& clusters() const { return clusters_; }
  /// Why there are no cluster figures ("" when there are).
  [[nodiscard]] QString clustersUnavailable() const { return clusters_note_; }
  [[nodiscard]] const ClusterLayout& clusterLayout() const { return layout_; }
  [[nodiscard]] const BestBlockSize& bestBlockSize() const { return best_; }
  /// The driver's last answer for the inputs as shown; empty when not asked since they changed.
  [[nodiscard]] const std::optional<DriverOccupancy>& driverAnswer() const { return driver_; }

  /// The backend the "Ask the driver" button uses (main() keeps it alive); null: no driver.
  void setBackend(Backend* backend);
  /// Asks the driver (off the UI thread); driverAnswered() follows. Without a backend or GPU the
  /// status line says why.
  void askDriver();
  /// Shows a driver answer as if it had just arrived for the current inputs (tests).
  void showDriverAnswer(const DriverOccupancy& answer);

  // Widgets, for the main window and tests.
  [[nodiscard]] QSpinBox* threadsSpin() const;
  [[nodiscard]] QSpinBox* registersSpin() const;
  [[nodiscard]] QSpinBox* staticSmemSpin() const;
  [[nodiscard]] QSpinBox* dynamicSmemSpin() const;
  [[nodiscard]] QSpinBox* carveoutSpin() const;
  [[nodiscard]] QSpinBox* barriersSpin() const;
  [[nodiscard]] QSpinBox* gridSpin() const;
  [[nodiscard]] QSpinBox* clusterSizeSpin() const { return cluster_size_; }
  [[nodiscard]] QCheckBox* nonPortableCheck() const { return non_portable_; }
  [[nodiscard]] QComboBox* yMeasureCombo() const { return measure_; }
  [[nodiscard]] QPushButton* askDriverButton() const { return ask_driver_; }
  [[nodiscard]] QLabel* driverStatusLabel() const { return driver_status_; }
  [[nodiscard]] QTableWidget* clustersTable() const { return clusters_table_; }
  [[nodiscard]] QTabWidget* plotTabs() const { return plot_tabs_; }
  [[nodiscard]] OccupancyCurvePlot* barriersPlot() const { return plot_barriers_; }
  [[nodiscard]] ClusterSizePlot* clusterSizePlot() const { return plot_clusters_; }
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
  /// The driver's answer (or its error, in driverStatusLabel) arrived.
  void driverAnswered();

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
  void showClusters();
  void applyYMeasure();
  void invalidateDriverAnswer();
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
  OccupancyCurvePlot* plot_barriers_ = nullptr;
  ClusterSizePlot* plot_clusters_ = nullptr;
  QTabWidget* plot_tabs_ = nullptr;
  QSpinBox* cluster_size_ = nullptr;
  QCheckBox* non_portable_ = nullptr;
  QComboBox* measure_ = nullptr;
  QTableWidget* clusters_table_ = nullptr;
  QPushButton* ask_driver_ = nullptr;
  QLabel* driver_status_ = nullptr;
  Backend* backend_ = nullptr;

  bool updating_ = false;  ///< set while widgets are changed programmatically: no recompute per widget
  OccupancyInput input_;
  OccupancyResult result_;
  QString input_error_;  ///< a computeOccupancy Error (malformed input), shown like "cannot launch"
  std::vector<CurvePoint> curve_block_;
  std::vector<CurvePoint> curve_regs_;
  std::vector<CurvePoint> curve_smem_;
  std::vector<CurvePoint> curve_barriers_;
  std::vector<ClusterCurvePoint> curve_clusters_;
  ClusterLayout layout_;
  std::optional<ClusterResult> clusters_;
  QString clusters_note_;
  BestBlockSize best_;
  std::optional<DriverOccupancy> driver_;
  int driver_generation_ = 0;  ///< bumped on every input change: a late answer for old inputs is dropped
  int sm_override_ = 0;        ///< SM count from a hand-over (showHandOver); reset when the device changes
};

}  // namespace occx::ui
