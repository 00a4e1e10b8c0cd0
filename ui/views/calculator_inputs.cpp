#include "ui/views/calculator_inputs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>

#include "ui/models/calculator_content.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/spin_slider.h"

namespace occx::ui {

CalculatorInputs::CalculatorInputs(QWidget* parent) : QWidget(parent) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(buildDeviceBox());
  layout->addWidget(buildLaunchBox());
  for (SpinSlider* s : {threads_, registers_, static_smem_, dynamic_smem_, carveout_}) {
    connect(s, &SpinSlider::valueChanged, this, [this] {
      if (!updating_) emit changed();
    });
  }
  for (QSpinBox* s : {barriers_, grid_, cluster_size_}) {
    connect(s, &QSpinBox::valueChanged, this, [this] {
      if (!updating_) emit changed();
    });
  }
  connect(non_portable_, &QCheckBox::toggled, this, [this] {
    if (updating_) return;
    const int before = cluster_size_->value();
    applyArchRanges();
    if (cluster_size_->value() != before) {
      // The box clamped a cluster size that needs non-portable clusters: said under it, as a refusal.
      emit static_cast<CheckedSpinBox*>(cluster_size_)
          ->inputRefused(tr("Cluster size %1 needs non-portable clusters: allowed 'no clusters' or 1 … %2. Kept %2.")
                             .arg(before)
                             .arg(cluster_size_->value()));
    }
    emit changed();
  });
  connect(measure_, qOverload<int>(&QComboBox::currentIndexChanged), this, &CalculatorInputs::yMeasureChanged);
}

QWidget* CalculatorInputs::buildDeviceBox() {
  auto* device_box = new QGroupBox(tr("GPU / compute capability"));
  auto* device_layout = new QVBoxLayout(device_box);
  device_ = new DeviceSelector(device_box);
  device_info_ = new QLabel(device_box);
  device_info_->setWordWrap(true);
  device_info_->setStyleSheet(QStringLiteral("color: #555;"));
  device_layout->addWidget(device_);
  device_layout->addWidget(device_info_);
  return device_box;
}

QWidget* CalculatorInputs::buildLaunchBox() {
  auto* box = new QGroupBox(tr("Launch configuration"));
  auto* form = new QFormLayout(box);
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  form->setLabelAlignment(Qt::AlignLeft);

  threads_ = new SpinSlider(32, box);
  threads_->spinBox()->setObjectName(QStringLiteral("threadsPerBlock"));
  threads_->spinBox()->setSingleStep(32);
  threads_->setToolTip(
      tr("Threads per block (blockDim.x × y × z). Warps per block = ceil(threads / 32); "
         "the slider moves in whole warps."));
  form->addRow(tr("Threads per block"), threads_);

  registers_ = new SpinSlider(1, box);
  registers_->spinBox()->setObjectName(QStringLiteral("registersPerThread"));
  registers_->setToolTip(
      tr("Registers per thread, as the compiler reports them (ptxas -v, or the kernel's NUM_REGS attribute)."));
  form->addRow(tr("Registers per thread"), registers_);

  static_smem_ = new SpinSlider(1024, box);
  static_smem_->spinBox()->setObjectName(QStringLiteral("staticSharedMemory"));
  static_smem_->checkedSpinBox()->setByteUnits(true);
  static_smem_->spinBox()->setSingleStep(1024);
  static_smem_->setToolTip(
      tr("Static shared memory per block (__shared__ arrays), bytes; at most 48 KB. Type bytes or a size "
         "with a unit: 49152, 48 KB, 48KiB, 1.5 KB (1 KB = 1024 B)."));
  form->addRow(tr("Static shared memory"), static_smem_);

  dynamic_smem_ = new SpinSlider(1024, box);
  dynamic_smem_->spinBox()->setObjectName(QStringLiteral("dynamicSharedMemory"));
  dynamic_smem_->checkedSpinBox()->setByteUnits(true);
  dynamic_smem_->spinBox()->setSingleStep(1024);
  dynamic_smem_->setToolTip(
      tr("Dynamic shared memory per block requested at launch, bytes. Above 48 KB a kernel must opt in "
         "(cudaFuncAttributeMaxDynamicSharedMemorySize); static + dynamic may not exceed the opt-in maximum. "
         "Type bytes or a size with a unit: 65536, 64 KB, 64KiB, 1.5 KB (1 KB = 1024 B)."));
  form->addRow(tr("Dynamic shared memory"), dynamic_smem_);

  carveout_ = new SpinSlider(1, box);
  carveout_->spinBox()->setObjectName(QStringLiteral("carveout"));
  carveout_->spinBox()->setSpecialValueText(tr("default"));
  carveout_->spinBox()->setSuffix(tr(" %"));
  carveout_->setToolTip(
      tr("Shared-memory carveout preference (cudaFuncAttributePreferredSharedMemoryCarveout): percent of the "
         "largest shared-memory size, rounded up to a size the SM supports; 'default' lets the runtime choose."));
  form->addRow(tr("Carveout preference"), carveout_);

  barriers_ = new CheckedSpinBox(box);
  barriers_->setObjectName(QStringLiteral("blockBarriers"));
  barriers_->setRange(0, 16);
  barriers_->setToolTip(
      tr("Named barriers per block (__syncthreads uses one). Counted from compute capability 9.0 on."));
  form->addRow(tr("Block barriers"), barriers_);

  grid_ = new CheckedSpinBox(box);
  grid_->setObjectName(QStringLiteral("gridBlocks"));
  grid_->setRange(0, INT_MAX);
  grid_->setSpecialValueText(tr("not set"));
  grid_->setSingleStep(132);
  grid_->setToolTip(tr("Blocks in the grid. With the GPU's SM count this gives the number of waves."));
  form->addRow(tr("Grid blocks"), grid_);

  addClusterRow(box, form);

  measure_ = new QComboBox(box);
  measure_->setObjectName(QStringLiteral("yMeasure"));
  measure_->addItem(tr("Active warps per SM"));
  measure_->addItem(tr("Occupancy (%)"));
  measure_->setToolTip(
      tr("Every plot's y axis as active warps per SM (clusters: active clusters) or as theoretical "
         "occupancy in percent (clusters: cluster occupancy)"));
  form->addRow(tr("Plots' y axis"), measure_);
  return box;
}

void CalculatorInputs::addClusterRow(QWidget* box, QFormLayout* form) {
  auto* cluster_size = new CheckedSpinBox(box);
  cluster_size->setQuantity(tr("Cluster size"));  // its form row holds a layout, not the box itself
  cluster_size_ = cluster_size;
  cluster_size_->setObjectName(QStringLiteral("clusterSize"));
  cluster_size_->setRange(0, 8);
  cluster_size_->setSpecialValueText(tr("no clusters"));
  cluster_size_->setToolTip(
      tr("Thread-block cluster size in blocks (CC 9.0 and later): 1 … 8 portable, up to 16 where the GPU "
         "allows non-portable sizes. A cluster's blocks run at once on different SMs of one GPC."));
  non_portable_ = new QCheckBox(tr("non-portable"), box);
  non_portable_->setObjectName(QStringLiteral("nonPortableClusters"));
  non_portable_->setToolTip(
      tr("Allow cluster sizes above the portable 8 (cudaFuncAttributeNonPortableClusterSizeAllowed)"));
  auto* cluster_row = new QHBoxLayout;
  cluster_row->addWidget(cluster_size_, 1);
  cluster_row->addWidget(non_portable_, 0);
  form->addRow(tr("Cluster size"), cluster_row);
}

QSpinBox* CalculatorInputs::threadsSpin() const {
  return threads_->spinBox();
}
QSpinBox* CalculatorInputs::registersSpin() const {
  return registers_->spinBox();
}
QSpinBox* CalculatorInputs::staticSmemSpin() const {
  return static_smem_->spinBox();
}
QSpinBox* CalculatorInputs::dynamicSmemSpin() const {
  return dynamic_smem_->spinBox();
}
QSpinBox* CalculatorInputs::carveoutSpin() const {
  return carveout_->spinBox();
}

OccupancyInput CalculatorInputs::values() const {
  OccupancyInput in;
  in.threads_per_block = threads_->value();
  in.registers_per_thread = registers_->value();
  in.static_smem_bytes = static_smem_->value();
  in.dynamic_smem_bytes = dynamic_smem_->value();
  in.carveout_percent = carveout_->isEnabled() ? carveout_->value() : -1;
  in.block_barriers = barriers_->value();
  in.grid_blocks = grid_->value();
  return in;
}

void CalculatorInputs::setValues(const OccupancyInput& in) {
  const bool was_updating = updating_;
  updating_ = true;
  threads_->setValue(in.threads_per_block);
  registers_->setValue(in.registers_per_thread);
  static_smem_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.static_smem_bytes, 0, INT_MAX)));
  dynamic_smem_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.dynamic_smem_bytes, 0, INT_MAX)));
  carveout_->setValue(in.carveout_percent);
  barriers_->setValue(in.block_barriers);
  grid_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.grid_blocks, 0, INT_MAX)));
  updating_ = was_updating;
}

ClusterInput CalculatorInputs::cluster() const {
  return {cluster_size_->value(), non_portable_->isChecked()};
}

void CalculatorInputs::setCluster(const ClusterInput& cluster) {
  const bool was_updating = updating_;
  updating_ = true;
  non_portable_->setChecked(cluster.non_portable);
  applyArchRanges();
  cluster_size_->setValue(cluster.cluster_size);
  updating_ = was_updating;
}

bool CalculatorInputs::percentMeasure() const {
  return measure_->currentIndex() == 1;
}

void CalculatorInputs::setPercentMeasure(bool percent) {
  measure_->setCurrentIndex(percent ? 1 : 0);
}

void CalculatorInputs::applyArchRanges() {
  const bool was_updating = updating_;
  updating_ = true;
  const DeviceTarget& t = device_->currentTarget();
  const ArchLimits& a = *t.arch;
  threads_->setRange(1, a.max_threads_per_block);
  registers_->setRange(0, a.max_registers_per_thread);
  static_smem_->setRange(0, static_cast<int>(a.shared_memory_per_block));
  dynamic_smem_->setRange(0, static_cast<int>(a.shared_memory_per_block_optin));
  static_smem_->spinBox()->setToolTip(tr("0 … %1 bytes of static shared memory").arg(a.shared_memory_per_block));
  dynamic_smem_->spinBox()->setToolTip(tr("0 … %1 bytes (the opt-in maximum per block on CC %2, static + dynamic)")
                                           .arg(a.shared_memory_per_block_optin)
                                           .arg(QString::fromStdString(a.cc.str())));
  carveout_->setRange(-1, 100);
  const bool has_carveout = !a.shared_memory_carveout_kb.empty();
  carveout_->setEnabled(has_carveout);
  carveout_->spinBox()->setToolTip(
      has_carveout ? tr("-1 (default) or 0 … 100 percent")
                   : tr("CC %1 has a fixed shared-memory size: no carveout").arg(QString::fromStdString(a.cc.str())));
  barriers_->setEnabled(a.cc.major >= 9);
  const bool clusters = maxClusterSize(a, true) > 0;
  cluster_size_->setEnabled(clusters);
  non_portable_->setEnabled(clusters && maxClusterSize(a, true) > kPortableClusterSize);
  cluster_size_->setRange(0, std::max(1, maxClusterSize(a, non_portable_->isChecked())));
  cluster_size_->setToolTip(
      clusters ? tr("0 (no clusters) or 1 … %1 blocks").arg(maxClusterSize(a, non_portable_->isChecked()))
               : tr("CC %1 has no thread-block clusters (CC 9.0 and later)").arg(QString::fromStdString(a.cc.str())));
  if (t.sm_count > 0) grid_->setSingleStep(t.sm_count);
  device_info_->setText(calculatorArchText(a, t.sm_count));
  updating_ = was_updating;
}

}  // namespace occx::ui
