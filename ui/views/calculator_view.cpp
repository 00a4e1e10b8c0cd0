#include "ui/views/calculator_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

#include "core/gpu/device.h"
#include "ui/jobs/driver_query_job.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

OccupancyInput CalculatorView::defaultInput() {
  OccupancyInput in;
  in.threads_per_block = 256;
  in.registers_per_thread = 32;
  in.static_smem_bytes = 0;
  in.dynamic_smem_bytes = 0;
  in.carveout_percent = -1;
  in.block_barriers = 1;
  in.grid_blocks = 0;
  return in;
}

CalculatorView::CalculatorView(const ViewContext& context, QWidget* parent)
    : QWidget(parent), backend_(context.backend()) {
  setObjectName(QStringLiteral("calculator"));
  driver_job_ = new DriverQueryJob(this);
  auto* scroll = inputScrollArea(buildControls(), 380, 440);
  plots_ = new CalculatorPlots;
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(scroll, 0);
  layout->addWidget(plots_, 1);

  connect(deviceSelector(), &DeviceSelector::targetChanged, this, [this] {
    sm_override_ = 0;  // a device chosen in the list has its own SM count
    inputs_->applyArchRanges();
    recompute();
  });
  connect(inputs_, &CalculatorInputs::changed, this, &CalculatorView::recompute);
  connect(inputs_, &CalculatorInputs::yMeasureChanged, this,
          [this] { plots_->setPercentMeasure(inputs_->percentMeasure()); });
  connect(askDriverButton(), &QPushButton::clicked, this, &CalculatorView::askDriver);
  connect(driver_job_, &DriverQueryJob::answered, this, [this](quint64, const DriverOccupancy& answer) {
    askDriverButton()->setEnabled(true);
    showDriverAnswer(answer);
  });
  connect(driver_job_, &DriverQueryJob::failed, this, [this](quint64, const QString& message) {
    askDriverButton()->setEnabled(true);
    result_panel_->setDriverStatus(tr("The driver could not answer: %1").arg(message));
    emit driverAnswered();
  });

  context.followCurrentDevice(deviceSelector());
  inputs_->applyArchRanges();
  inputs_->setValues(defaultInput());
  inputs_->setCluster({0, false});
  recompute();
  invalidateDriverAnswer();
}

CalculatorView::~CalculatorView() = default;

QWidget* CalculatorView::buildControls() {
  // Left column: device, inputs, result. Scrolls if the window is short.
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  left_layout->setContentsMargins(0, 0, 4, 0);
  inputs_ = new CalculatorInputs(left);
  left_layout->addWidget(inputs_);
  validation_ = new QLabel(left);
  validation_->setObjectName(QStringLiteral("validationMessage"));
  validation_->setWordWrap(true);
  validation_->setStyleSheet(QStringLiteral(
      "QLabel { color: #8b0000; background: #fdecea; border: 1px solid #e0a0a0; border-radius: 3px; padding: 4px; }"));
  validation_->setVisible(false);
  left_layout->addWidget(validation_);
  result_panel_ = new CalculatorResultPanel(left);
  left_layout->addWidget(result_panel_);
  left_layout->addStretch(1);
  return left;
}

const ArchLimits& CalculatorView::arch() const {
  return *deviceSelector()->currentTarget().arch;
}

void CalculatorView::setInput(const OccupancyInput& in) {
  inputs_->setValues(in);
  recompute();
}

void CalculatorView::showHandOver(const ConfigHandOver& h) {
  DeviceSelector* device = deviceSelector();
  if (h.device_key.isEmpty() || !device->setCurrentKey(h.device_key)) {
    const QString key = device->keyFor(h.cc, h.sm_count);
    if (!key.isEmpty()) device->setCurrentKey(key);
  }
  // A bare compute capability has no SM count: keep the config's, for the GPU-wide figures.
  if (h.sm_count > 0 && device->currentTarget().sm_count != h.sm_count) sm_override_ = h.sm_count;
  OccupancyInput in = input_;
  in.threads_per_block = h.num_warps * arch().warp_size;
  if (h.n_regs > 0) in.registers_per_thread = h.n_regs;
  in.static_smem_bytes = 0;
  in.dynamic_smem_bytes = h.shared_bytes;
  in.grid_blocks = h.xblock > 0 ? (h.xnumel + h.xblock - 1) / h.xblock : 0;
  setInput(in);
}

void CalculatorView::recompute() {
  const ArchLimits& a = arch();
  const DeviceTarget& t = deviceSelector()->currentTarget();
  input_ = inputs_->values();
  input_.sm_count = sm_override_ > 0 ? sm_override_ : t.sm_count;
  const ClusterInput cluster = inputs_->cluster();
  computeCalculatorFigures(a, input_, t.gpu, cluster, figures_);
  invalidateDriverAnswer();

  plots_->showFigures(a, input_, figures_, cluster.cluster_size);
  const QString subtitle = exportSubtitle();
  for (PlotController* p : plotExports()) p->setExportSubtitle(subtitle);
  showResult();
  derivation_html_ = calculatorDerivationHtml(targetLabel(), input_, figures_);
  plots_->showDerivation(derivation_html_);
  emit resultChanged();
  emit statusMessage(statusSummary());
}

void CalculatorView::showResult() {
  const OccupancyResult& r = figures_.result;
  const CalculatorHeadline headline = calculatorHeadline(r, figures_.input_error);
  validation_->setText(headline.validation);
  validation_->setVisible(!headline.validation.isEmpty());
  result_panel_->showHeadline(headline, r.can_launch);
  result_panel_->showLimits(calculatorLimitRows(arch(), input_, r));
  result_panel_->showDetails(calculatorDetailRows(arch(), input_, r));
  showClusters();
}

void CalculatorView::showClusters() {
  result_panel_->showClusters(calculatorClusterRows(figures_, driver_, inputs_->cluster().non_portable));
}

void CalculatorView::invalidateDriverAnswer() {
  driver_job_->discard();  // an answer still coming is for other inputs
  const bool had = driver_.has_value();
  driver_.reset();
  const bool detected = deviceSelector()->currentTarget().detected;
  std::optional<Availability> live;
  if (backend_ != nullptr) live = backend_->liveAvailability();
  result_panel_->setDriverStatus(driverWaitingText(live ? &*live : nullptr, detected, had));
  askDriverButton()->setEnabled(backend_ != nullptr && detected);
}

void CalculatorView::askDriver() {
  if (backend_ == nullptr || !deviceSelector()->currentTarget().detected) {
    invalidateDriverAnswer();
    return;
  }
  result_panel_->setDriverStatus(tr("Asking the driver (compiling the probe kernel the first time)…"));
  askDriverButton()->setEnabled(false);
  driver_job_->start(backend_, driverQueryFor(arch(), input_, inputs_->cluster().cluster_size));
}

void CalculatorView::showDriverAnswer(const DriverOccupancy& d) {
  driver_ = d;
  plots_->showDriverClusters(input_, figures_, inputs_->cluster().cluster_size, d.max_active_clusters_by_size);
  result_panel_->setDriverStatus(driverAnswerText(d, input_.sm_count, arch().cc));
  showClusters();
  emit driverAnswered();
}

QString CalculatorView::targetLabel() const {
  const DeviceTarget& t = deviceSelector()->currentTarget();
  const ArchLimits& a = arch();
  if (t.gpu != nullptr || t.detected) {
    const QString name =
        t.gpu != nullptr && !t.detected ? QString::fromStdString(t.gpu->name) : t.key.section(QLatin1Char(':'), 1);
    return QString::fromStdString(deviceLabel(name.toStdString(), a.cc, t.sm_count));
  }
  return tr("CC %1 (%2)").arg(QString::fromStdString(a.cc.str()), QString::fromStdString(a.family));
}

QString CalculatorView::exportSubtitle() const {
  return calculatorExportSubtitle(targetLabel(), input_);
}

QString CalculatorView::statusSummary() const {
  return calculatorSummary(targetLabel(), input_, figures_.result, figures_.reserved_smem_bytes);
}

QString CalculatorView::reportText() const {
  return derivation_html_;
}

std::vector<CsvExport> CalculatorView::csvExports() const {
  CalculatorCsv csv = calculatorCsv(arch(), targetLabel(), input_, figures_, inputs_->cluster(), driver_);
  return {{tr("Result table"), QStringLiteral("occupancy-result.csv"), std::move(csv.result)},
          {tr("Impact curves (block size, registers, shared memory)"), QStringLiteral("occupancy-curves.csv"),
           std::move(csv.curves)},
          {tr("Block barriers curve"), QStringLiteral("occupancy-barriers.csv"), std::move(csv.barriers)},
          {tr("Cluster-size curve"), QStringLiteral("occupancy-clusters.csv"), std::move(csv.clusters)}};
}

std::vector<PlotController*> CalculatorView::plotExports() const {
  return plots_->plots();
}

void CalculatorView::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("device"), deviceSelector()->currentKey());
  s.setValue(QStringLiteral("threadsPerBlock"), input_.threads_per_block);
  s.setValue(QStringLiteral("registersPerThread"), input_.registers_per_thread);
  s.setValue(QStringLiteral("staticSharedMemoryBytes"), static_cast<qlonglong>(input_.static_smem_bytes));
  s.setValue(QStringLiteral("dynamicSharedMemoryBytes"), static_cast<qlonglong>(input_.dynamic_smem_bytes));
  s.setValue(QStringLiteral("carveoutPercent"), carveoutSpin()->value());
  s.setValue(QStringLiteral("blockBarriers"), input_.block_barriers);
  s.setValue(QStringLiteral("gridBlocks"), static_cast<qlonglong>(input_.grid_blocks));
  s.setValue(QStringLiteral("clusterSize"), clusterSizeSpin()->value());
  s.setValue(QStringLiteral("nonPortableClusters"), nonPortableCheck()->isChecked());
  s.setValue(QStringLiteral("plotYMeasure"),
             inputs_->percentMeasure() ? QStringLiteral("percent") : QStringLiteral("warps"));
}

void CalculatorView::restoreSettings(QSettings& s) {
  const QString key = s.value(QStringLiteral("device")).toString();
  if (!key.isEmpty() && key != deviceSelector()->currentKey()) {
    deviceSelector()->setCurrentKey(key);  // unknown keys (data changed) keep the current device
    inputs_->applyArchRanges();
  }
  OccupancyInput in = defaultInput();
  auto readInt = [&](const char* name, std::int64_t fallback) -> std::int64_t {
    bool ok = false;
    const qlonglong v = s.value(QLatin1String(name), static_cast<qlonglong>(fallback)).toLongLong(&ok);
    return ok ? v : fallback;
  };
  // The spin boxes clamp values outside the architecture's ranges.
  in.threads_per_block =
      static_cast<int>(std::clamp<std::int64_t>(readInt("threadsPerBlock", in.threads_per_block), 1, INT_MAX));
  in.registers_per_thread =
      static_cast<int>(std::clamp<std::int64_t>(readInt("registersPerThread", in.registers_per_thread), 0, INT_MAX));
  in.static_smem_bytes = readInt("staticSharedMemoryBytes", in.static_smem_bytes);
  in.dynamic_smem_bytes = readInt("dynamicSharedMemoryBytes", in.dynamic_smem_bytes);
  in.carveout_percent =
      static_cast<int>(std::clamp<std::int64_t>(readInt("carveoutPercent", in.carveout_percent), -1, 100));
  in.block_barriers = static_cast<int>(std::clamp<std::int64_t>(readInt("blockBarriers", in.block_barriers), 0, 16));
  in.grid_blocks = readInt("gridBlocks", in.grid_blocks);
  inputs_->setCluster({static_cast<int>(std::clamp<std::int64_t>(readInt("clusterSize", 0), 0, 16)),
                       s.value(QStringLiteral("nonPortableClusters"), false).toBool()});
  inputs_->setPercentMeasure(s.value(QStringLiteral("plotYMeasure")).toString() == QLatin1String("percent"));
  setInput(in);
}

}  // namespace occx::ui
