#include "ui/views/inductor_detail_tabs.h"

#include <optional>

#include "ui/models/inductor_plot_data.h"
#include "ui/models/inductor_run_text.h"
#include "ui/models/text.h"
#include "ui/plots/config_occupancy_plot.h"
#include "ui/plots/measured_times_plot.h"
#include "ui/plots/rblock_bounds_plot.h"
#include "ui/views/inductor_bounds_pane.h"
#include "ui/views/inductor_measured_pane.h"
#include "ui/views/inductor_source_pane.h"
#include "ui/views/inductor_sweep_pane.h"
#include "ui/views/step_pane.h"

namespace occx::ui {

InductorDetailTabs::InductorDetailTabs(QWidget* parent)
    : QTabWidget(parent),
      bounds_(new InductorBoundsPane),
      occupancy_(new ConfigOccupancyPlot(this)),
      source_(new InductorSourcePane),
      measured_(new InductorMeasuredPane),
      sweep_(new InductorSweepPane),
      step_(new StepPane) {
  setObjectName(QStringLiteral("inductorDetailTabs"));
  addTab(bounds_, tr("RBLOCK bounds vs registers"));
  occupancy_->setObjectName(QStringLiteral("occupancyPlot"));
  occupancy_->widget()->setMinimumHeight(180);
  addTab(occupancy_->widget(), tr("Occupancy per config"));
  addTab(source_, tr("Source"));
  addTab(measured_, tr("Measured"));
  addTab(sweep_, tr("Sweep"));
  addTab(step_, tr("Step"));
  setTabToolTip(count() - 1, tr("Where your training step's GPU time goes, from a torch.profiler trace of it"));
}

void InductorDetailTabs::showKernel(const InductorRunData& run, const RunKernelEntry* kernel,
                                    const std::vector<triton::ScanRow>& configs, const QString& unavailable,
                                    const QStringList& explanation) {
  measured_->showKernel(run, kernel, configs, unavailable);
  sweep_->showKernel(kernel != nullptr ? std::optional(sweepPlotSource(run, *kernel, explanation)) : std::nullopt);
  source_->showSource(kernel != nullptr ? numberedSourceOf(run, *kernel) : NumberedSource());
}

void InductorDetailTabs::showConfig(const RunKernelEntry* kernel, const std::vector<triton::ScanRow>& configs,
                                    int row) {
  occupancy_->setConfigs(configs, row, kernel != nullptr ? q(kernel->kernel) : QString());
  const auto selected =
      row >= 0 && row < static_cast<int>(configs.size()) ? &configs[static_cast<std::size_t>(row)] : nullptr;
  bounds_->showBounds(configBounds(selected, kernel));
}

std::vector<PlotController*> InductorDetailTabs::plots() const {
  return {bounds_->plot(), occupancy_, measured_->plot()};
}

}  // namespace occx::ui
