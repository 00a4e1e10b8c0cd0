#include "ui/views/calculator_plots.h"

#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QTabWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/models/utilization.h"
#include "ui/plots/cluster_size_plot.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/plots/utilization_chart.h"

namespace occx::ui {

namespace {

// Active blocks on the whole GPU without clusters (0 when the configuration cannot launch).
std::int64_t gpuBlocks(const OccupancyInput& input, const CalculatorFigures& f) {
  const int blocks = f.result.can_launch ? f.result.active_blocks_per_sm : 0;
  return std::int64_t{blocks} * std::max(0, input.sm_count);
}

}  // namespace

CalculatorPlots::CalculatorPlots(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
  tabs_ = new QTabWidget;
  tabs_->setObjectName(QStringLiteral("calculatorPlotTabs"));
  tabs_->setDocumentMode(true);
  tabs_->addTab(buildFirstPage(), tr("Block size, registers, shared memory"));
  tabs_->addTab(buildSecondPage(), tr("Cluster size, block barriers"));

  auto* derivation_box = new QGroupBox(tr("Derivation, step by step"));
  auto* derivation_layout = new QVBoxLayout(derivation_box);
  derivation_layout->setContentsMargins(4, 4, 4, 4);
  derivation_ = new QTextBrowser(derivation_box);
  derivation_->setObjectName(QStringLiteral("derivation"));
  derivation_->setOpenLinks(false);
  derivation_layout->addWidget(derivation_);

  addWidget(tabs_);
  addWidget(derivation_box);
  setStretchFactor(0, 4);
  setStretchFactor(1, 1);
  setChildrenCollapsible(false);
  // The derivation may shrink to a few lines on a short screen (it scrolls; the splitter gives it back).
  derivation_->setMinimumHeight(40);
  setSizes({790, 110});
}

QWidget* CalculatorPlots::buildFirstPage() {
  // The three impact curves and the utilization chart.
  auto* page = new QWidget;
  auto* grid = new QGridLayout(page);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(6);
  block_ = new OccupancyCurvePlot(CurveKind::BlockSize, page);
  registers_ = new OccupancyCurvePlot(CurveKind::Registers, page);
  shared_memory_ = new OccupancyCurvePlot(CurveKind::SharedMemory, page);
  utilization_ = new UtilizationChart(page);
  grid->addWidget(block_->widget(), 0, 0);
  grid->addWidget(registers_->widget(), 0, 1);
  grid->addWidget(shared_memory_->widget(), 1, 0);
  grid->addWidget(utilization_->widget(), 1, 1);
  grid->setColumnStretch(0, 1);
  grid->setColumnStretch(1, 1);
  grid->setRowStretch(0, 1);
  grid->setRowStretch(1, 1);
  return page;
}

QWidget* CalculatorPlots::buildSecondPage() {
  // Thread-block clusters and block barriers (both matter from CC 9.0 on).
  auto* page = new QWidget;
  auto* layout = new QHBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(6);
  clusters_ = new ClusterSizePlot(page);
  barriers_ = new OccupancyCurvePlot(CurveKind::BlockBarriers, page);
  layout->addWidget(clusters_->widget(), 1);
  layout->addWidget(barriers_->widget(), 1);
  return page;
}

void CalculatorPlots::showFigures(const ArchLimits& a, const OccupancyInput& input, const CalculatorFigures& f,
                                  int cluster_size) {
  const OccupancyResult& r = f.result;
  const bool ok = r.can_launch;
  block_->setData(f.block_size, a.max_warps_per_sm, input.threads_per_block, r.active_warps_per_sm, ok);
  registers_->setData(f.registers, a.max_warps_per_sm, input.registers_per_thread, r.active_warps_per_sm, ok);
  shared_memory_->setData(f.shared_memory, a.max_warps_per_sm, input.static_smem_bytes + input.dynamic_smem_bytes,
                          r.active_warps_per_sm, ok);
  barriers_->setData(f.barriers, a.max_warps_per_sm, input.block_barriers, r.active_warps_per_sm, ok);
  clusters_->setData(f.clusters_curve, gpuBlocks(input, f), {}, cluster_size, f.layout.known(),
                     maxClusterSize(a, true) == 0 ? f.clusters_note : QString());
  utilization_->setRows(computeUtilization(a, input, r));
}

void CalculatorPlots::showDriverClusters(const OccupancyInput& input, const CalculatorFigures& f, int cluster_size,
                                         const std::vector<int>& driver_clusters) {
  clusters_->setData(f.clusters_curve, gpuBlocks(input, f), driver_clusters, cluster_size, f.layout.known(), QString());
}

void CalculatorPlots::setPercentMeasure(bool percent) {
  const YMeasure m = percent ? YMeasure::Percent : YMeasure::Warps;
  for (OccupancyCurvePlot* p : {block_, registers_, shared_memory_, barriers_}) p->setYMeasure(m);
  clusters_->setYMeasure(m);
}

void CalculatorPlots::showDerivation(const QString& html) {
  derivation_->setHtml(html);
}

std::vector<PlotController*> CalculatorPlots::plots() const {
  return {block_, registers_, shared_memory_, utilization_, clusters_, barriers_};
}

}  // namespace occx::ui
