#include "ui/views/calculator_plots.h"

#include <QHBoxLayout>
#include <QLabel>
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
  // Two plots a page, side by side, over the derivation: on a 1280 × 720 screen four plots stacked
  // two high left each a strip (a data area under 120 px) and the derivation two lines.
  tabs_ = new QTabWidget;
  tabs_->setObjectName(QStringLiteral("calculatorPlotTabs"));
  tabs_->setDocumentMode(true);
  auto* first = plotPage();
  block_ = new OccupancyCurvePlot(CurveKind::BlockSize, first);
  registers_ = new OccupancyCurvePlot(CurveKind::Registers, first);
  auto* second = plotPage();
  shared_memory_ = new OccupancyCurvePlot(CurveKind::SharedMemory, second);
  utilization_ = new UtilizationChart(second);
  auto* third = plotPage();
  clusters_ = new ClusterSizePlot(third);
  barriers_ = new OccupancyCurvePlot(CurveKind::BlockBarriers, third);
  const auto side_by_side = [](QWidget* page, const PlotController* left, const PlotController* right) {
    page->layout()->addWidget(left->widget());
    page->layout()->addWidget(right->widget());
  };
  side_by_side(first, block_, registers_);
  side_by_side(second, shared_memory_, utilization_);
  side_by_side(third, clusters_, barriers_);
  tabs_->addTab(first, tr("Block size, registers"));
  tabs_->addTab(second, tr("Shared memory, SM use"));
  tabs_->addTab(third, tr("Cluster size, block barriers"));
  tabs_->setTabToolTip(0, tr("Active warps per SM as the block size, then the registers per thread, vary"));
  tabs_->setTabToolTip(1, tr("Active warps per SM as shared memory per block varies, and which of the SM's "
                             "resources the active blocks use"));
  tabs_->setTabToolTip(2, tr("Thread-block clusters and block barriers (both matter from CC 9.0 on)"));

  auto* derivation_box = new QWidget;
  auto* derivation_layout = new QVBoxLayout(derivation_box);
  derivation_layout->setContentsMargins(0, 2, 0, 0);
  derivation_layout->setSpacing(2);
  auto* derivation_title = new QLabel(tr("<b>Derivation, step by step</b>"), derivation_box);
  derivation_ = new QTextBrowser(derivation_box);
  derivation_->setObjectName(QStringLiteral("derivation"));
  derivation_->setOpenLinks(false);
  derivation_layout->addWidget(derivation_title);
  derivation_layout->addWidget(derivation_, 1);
  // Six lines at least (the device, the launch and the first limits), whatever the splitter does.
  const int frame = 2 * derivation_->frameWidth() + 2 * static_cast<int>(derivation_->document()->documentMargin());
  derivation_->setMinimumHeight(6 * derivation_->fontMetrics().lineSpacing() + frame);

  addWidget(tabs_);
  addWidget(derivation_box);
  setStretchFactor(0, 3);
  setStretchFactor(1, 1);
  setChildrenCollapsible(false);
  setSizes({470, 160});
}

QWidget* CalculatorPlots::plotPage() {
  auto* page = new QWidget;
  auto* layout = new QHBoxLayout(page);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(6);
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
