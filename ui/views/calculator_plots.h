// The occupancy calculator's right side: pages of two plots side by side (block size and registers;
// shared memory and the utilization chart; cluster size and block barriers) over the derivation,
// step by step, which keeps six lines at least.
#pragma once

#include <QSplitter>
#include <vector>

#include "ui/models/calculator_content.h"

class QTabWidget;
class QTextBrowser;

namespace occx::ui {

class ClusterSizePlot;
class OccupancyCurvePlot;
class PlotController;
class UtilizationChart;

class CalculatorPlots : public QSplitter {
  Q_OBJECT

 public:
  explicit CalculatorPlots(QWidget* parent = nullptr);

  /// Draws `figures` of `input` on `arch`: the four curves, the utilization and the clusters for
  /// `cluster_size` (a note on the cluster plot where the architecture has none).
  void showFigures(const ArchLimits& arch, const OccupancyInput& input, const CalculatorFigures& figures,
                   int cluster_size);
  /// Redraws the cluster plot with the driver's max active clusters by size beside the model's.
  void showDriverClusters(const OccupancyInput& input, const CalculatorFigures& figures, int cluster_size,
                          const std::vector<int>& driver_clusters);
  /// Every plot's y axis: active warps per SM (clusters: active clusters), or occupancy in percent.
  void setPercentMeasure(bool percent);
  /// Shows the derivation (HTML).
  void showDerivation(const QString& html);
  /// The plots in export order: block size, registers, shared memory, utilization, clusters, barriers.
  [[nodiscard]] std::vector<PlotController*> plots() const;

  [[nodiscard]] QTabWidget* tabs() const { return tabs_; }
  [[nodiscard]] OccupancyCurvePlot* blockSizePlot() const { return block_; }
  [[nodiscard]] OccupancyCurvePlot* registersPlot() const { return registers_; }
  [[nodiscard]] OccupancyCurvePlot* sharedMemoryPlot() const { return shared_memory_; }
  [[nodiscard]] OccupancyCurvePlot* barriersPlot() const { return barriers_; }
  [[nodiscard]] ClusterSizePlot* clusterSizePlot() const { return clusters_; }
  [[nodiscard]] UtilizationChart* utilizationChart() const { return utilization_; }
  [[nodiscard]] QTextBrowser* derivationBrowser() const { return derivation_; }

 private:
  /// An empty page for two plots side by side.
  static QWidget* plotPage();

  OccupancyCurvePlot* block_ = nullptr;
  OccupancyCurvePlot* registers_ = nullptr;
  OccupancyCurvePlot* shared_memory_ = nullptr;
  UtilizationChart* utilization_ = nullptr;
  OccupancyCurvePlot* barriers_ = nullptr;
  ClusterSizePlot* clusters_ = nullptr;
  QTabWidget* tabs_ = nullptr;
  QTextBrowser* derivation_ = nullptr;
};

}  // namespace occx::ui
