#include "ui/views/calculator_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QFormLayout>
#include <QGridLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>
#include <climits>
#include <thread>

#include "core/gpu/device.h"
#include "core/occupancy/occupancy_report.h"
#include "core/sweep/backend.h"
#include "ui/models/utilization.h"
#include "ui/plots/cluster_size_plot.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/plots/plot_controller.h"
#include "ui/plots/utilization_chart.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/spin_slider.h"

namespace occx::ui {

namespace {

QString calculatorBytesText(std::int64_t bytes) {
  if (bytes >= 1024 && bytes % 1024 == 0) return QStringLiteral("%1 KB (%2 B)").arg(bytes / 1024).arg(bytes);
  return QStringLiteral("%1 B").arg(bytes);
}

QString limitText(int v) {
  return v == kUnlimited ? QObject::tr("unlimited") : QString::number(v);
}

QString percentText(double fraction) {
  return QString::number(100.0 * fraction, 'f', 1) + QStringLiteral(" %");
}

// Sizes a table to show every row without a scroll bar.
void fitTableHeight(QTableWidget* table) {
  // Rows have a fixed height; the header's size hint is valid before the table is first shown.
  const int header = table->horizontalHeader()->isHidden() ? 0 : table->horizontalHeader()->sizeHint().height();
  table->setFixedHeight(header + table->rowCount() * table->verticalHeader()->defaultSectionSize() +
                        2 * table->frameWidth());
}

QTableWidget* makeTable(const QStringList& headers, QWidget* parent) {
  auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionMode(QAbstractItemView::NoSelection);
  t->setFocusPolicy(Qt::NoFocus);
  t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  t->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  t->setWordWrap(false);
  // The first column takes the room that is left, so every column stays in view.
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  t->horizontalHeader()->setStretchLastSection(false);
  t->setTextElideMode(Qt::ElideMiddle);
  t->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
  return t;
}

// Row highlights: a limiter of active blocks (orange), or the resource that stops the launch (red).
const QColor kLimiterColor(255, 224, 178);
const QColor kBlockerColor(248, 200, 200);

void setCalculatorRow(QTableWidget* t, int row, const QStringList& cells, bool highlight = false,
                      const QColor& color = kLimiterColor) {
  if (t->rowCount() <= row) t->setRowCount(row + 1);
  for (int c = 0; c < cells.size(); ++c) {
    auto* item = t->item(row, c);
    if (item == nullptr) {
      item = new QTableWidgetItem;
      t->setItem(row, c, item);
    }
    item->setText(cells[c]);
    QFont f = item->font();
    f.setBold(highlight);
    item->setFont(f);
    item->setBackground(highlight ? QBrush(color) : QBrush());
    item->setTextAlignment(c == 0 ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                  : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
  }
}

}  // namespace

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

CalculatorView::CalculatorView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("calculator"));
  updating_ = true;
  auto* scroll = inputScrollArea(buildControls(), 430, 520);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(scroll, 0);
  layout->addWidget(buildPlotsAndDerivation(), 1);
  connectInputs();
  applyArchRanges();
  const OccupancyInput d = defaultInput();
  threads_->setValue(d.threads_per_block);
  registers_->setValue(d.registers_per_thread);
  static_smem_->setValue(static_cast<int>(d.static_smem_bytes));
  dynamic_smem_->setValue(static_cast<int>(d.dynamic_smem_bytes));
  carveout_->setValue(d.carveout_percent);
  barriers_->setValue(d.block_barriers);
  grid_->setValue(static_cast<int>(d.grid_blocks));
  cluster_size_->setValue(0);
  non_portable_->setChecked(false);
  updating_ = false;
  recompute();
}

QWidget* CalculatorView::buildControls() {
  // Left column: device, inputs, result. Scrolls if the window is short.
  auto* left = new QWidget;
  auto* left_layout = new QVBoxLayout(left);
  left_layout->setContentsMargins(0, 0, 4, 0);

  auto* device_box = new QGroupBox(tr("GPU / compute capability"));
  auto* device_layout = new QVBoxLayout(device_box);
  device_ = new DeviceSelector(device_box);
  device_info_ = new QLabel(device_box);
  device_info_->setWordWrap(true);
  device_info_->setStyleSheet(QStringLiteral("color: #555;"));
  device_layout->addWidget(device_);
  device_layout->addWidget(device_info_);
  left_layout->addWidget(device_box);
  left_layout->addWidget(buildInputs());

  validation_ = new QLabel;
  validation_->setObjectName(QStringLiteral("validationMessage"));
  validation_->setWordWrap(true);
  validation_->setStyleSheet(QStringLiteral(
      "QLabel { color: #8b0000; background: #fdecea; border: 1px solid #e0a0a0; border-radius: 3px; padding: 4px; }"));
  validation_->setVisible(false);
  left_layout->addWidget(validation_);
  left_layout->addWidget(buildResultPanel());
  left_layout->addStretch(1);
  return left;
}

QWidget* CalculatorView::buildPlotsAndDerivation() {
  // Right: the three impact curves and the utilization chart, the derivation under them.
  auto* plots = new QWidget;
  auto* grid = new QGridLayout(plots);
  grid->setContentsMargins(0, 0, 0, 0);
  grid->setSpacing(6);
  plot_block_ = new OccupancyCurvePlot(CurveKind::BlockSize, plots);
  plot_regs_ = new OccupancyCurvePlot(CurveKind::Registers, plots);
  plot_smem_ = new OccupancyCurvePlot(CurveKind::SharedMemory, plots);
  utilization_ = new UtilizationChart(plots);
  grid->addWidget(plot_block_->widget(), 0, 0);
  grid->addWidget(plot_regs_->widget(), 0, 1);
  grid->addWidget(plot_smem_->widget(), 1, 0);
  grid->addWidget(utilization_->widget(), 1, 1);
  grid->setColumnStretch(0, 1);
  grid->setColumnStretch(1, 1);
  grid->setRowStretch(0, 1);
  grid->setRowStretch(1, 1);

  // Second page: thread-block clusters and block barriers (both matter from CC 9.0 on).
  auto* more = new QWidget;
  auto* more_layout = new QHBoxLayout(more);
  more_layout->setContentsMargins(0, 0, 0, 0);
  more_layout->setSpacing(6);
  plot_clusters_ = new ClusterSizePlot(more);
  plot_barriers_ = new OccupancyCurvePlot(CurveKind::BlockBarriers, more);
  more_layout->addWidget(plot_clusters_->widget(), 1);
  more_layout->addWidget(plot_barriers_->widget(), 1);

  plot_tabs_ = new QTabWidget;
  plot_tabs_->setObjectName(QStringLiteral("calculatorPlotTabs"));
  plot_tabs_->setDocumentMode(true);
  plot_tabs_->addTab(plots, tr("Block size, registers, shared memory"));
  plot_tabs_->addTab(more, tr("Cluster size, block barriers"));

  auto* derivation_box = new QGroupBox(tr("Derivation, step by step"));
  auto* derivation_layout = new QVBoxLayout(derivation_box);
  derivation_layout->setContentsMargins(4, 4, 4, 4);
  derivation_ = new QTextBrowser(derivation_box);
  derivation_->setObjectName(QStringLiteral("derivation"));
  derivation_->setOpenLinks(false);
  derivation_layout->addWidget(derivation_);

  auto* right = new QSplitter(Qt::Vertical);
  right->addWidget(plot_tabs_);
  right->addWidget(derivation_box);
  right->setStretchFactor(0, 4);
  right->setStretchFactor(1, 1);
  right->setChildrenCollapsible(false);
  // The derivation may shrink to a few lines on a short screen (it scrolls; the splitter gives it back).
  derivation_->setMinimumHeight(40);
  right->setSizes({790, 110});
  return right;
}

void CalculatorView::connectInputs() {
  connect(device_, &DeviceSelector::targetChanged, this, [this] {
    sm_override_ = 0;  // a device chosen in the list has its own SM count
    applyArchRanges();
    recompute();
  });
  for (SpinSlider* s : {threads_, registers_, static_smem_, dynamic_smem_, carveout_}) {
    connect(s, &SpinSlider::valueChanged, this, [this] {
      if (!updating_) recompute();
    });
  }
  for (QSpinBox* s : {barriers_, grid_, cluster_size_}) {
    connect(s, &QSpinBox::valueChanged, this, [this] {
      if (!updating_) recompute();
    });
  }
  connect(non_portable_, &QCheckBox::toggled, this, [this] {
    if (updating_) return;
    applyArchRanges();
    recompute();
  });
  connect(measure_, qOverload<int>(&QComboBox::currentIndexChanged), this, [this] { applyYMeasure(); });
  connect(ask_driver_, &QPushButton::clicked, this, [this] { askDriver(); });
}

void CalculatorView::applyYMeasure() {
  const YMeasure m = measure_->currentIndex() == 1 ? YMeasure::Percent : YMeasure::Warps;
  for (OccupancyCurvePlot* p : {plot_block_, plot_regs_, plot_smem_, plot_barriers_}) p->setYMeasure(m);
  plot_clusters_->setYMeasure(m);
}

CalculatorView::~CalculatorView() = default;

QWidget* CalculatorView::buildInputs() {
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

QWidget* CalculatorView::buildResultPanel() {
  auto* box = new QGroupBox(tr("Theoretical occupancy"));
  auto* v = new QVBoxLayout(box);
  occupancy_label_ = new QLabel(box);
  occupancy_label_->setObjectName(QStringLiteral("occupancyValue"));
  QFont big = occupancy_label_->font();
  big.setPointSize(24);
  big.setBold(true);
  occupancy_label_->setFont(big);
  occupancy_detail_ = new QLabel(box);
  occupancy_detail_->setWordWrap(true);
  auto* top = new QHBoxLayout;
  top->addWidget(occupancy_label_, 0);
  top->addWidget(occupancy_detail_, 1);
  v->addLayout(top);

  limits_table_ = makeTable({tr("Block limit per SM from"), tr("Blocks"), tr("Per block")}, box);
  limits_table_->setObjectName(QStringLiteral("limitsTable"));
  v->addWidget(limits_table_);
  details_table_ = makeTable({tr("Quantity"), tr("Value")}, box);
  details_table_->setObjectName(QStringLiteral("detailsTable"));
  details_table_->horizontalHeader()->setVisible(false);
  v->addWidget(details_table_);

  clusters_table_ = makeTable({tr("Clusters and best block size"), tr("Model"), tr("Driver")}, box);
  clusters_table_->setObjectName(QStringLiteral("clustersTable"));
  v->addWidget(clusters_table_);
  auto* driver_row = new QHBoxLayout;
  ask_driver_ = new QPushButton(tr("Ask the driver"), box);
  ask_driver_->setObjectName(QStringLiteral("askDriver"));
  ask_driver_->setToolTip(
      tr("Ask the GPU's driver (cuOccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxActiveClusters, "
         "cuOccupancyMaxPotentialClusterSize, cuOccupancyMaxPotentialBlockSize) with a probe kernel of these "
         "registers; needs a detected GPU"));
  driver_status_ = new QLabel(box);
  driver_status_->setObjectName(QStringLiteral("driverStatus"));
  driver_status_->setWordWrap(true);
  driver_status_->setStyleSheet(QStringLiteral("color: #555;"));
  driver_row->addWidget(ask_driver_, 0, Qt::AlignTop);
  driver_row->addWidget(driver_status_, 1);
  v->addLayout(driver_row);
  return box;
}

const ArchLimits& CalculatorView::arch() const {
  return *device_->currentTarget().arch;
}

QSpinBox* CalculatorView::threadsSpin() const {
  return threads_->spinBox();
}
QSpinBox* CalculatorView::registersSpin() const {
  return registers_->spinBox();
}
QSpinBox* CalculatorView::staticSmemSpin() const {
  return static_smem_->spinBox();
}
QSpinBox* CalculatorView::dynamicSmemSpin() const {
  return dynamic_smem_->spinBox();
}
QSpinBox* CalculatorView::carveoutSpin() const {
  return carveout_->spinBox();
}
QSpinBox* CalculatorView::barriersSpin() const {
  return barriers_;
}
QSpinBox* CalculatorView::gridSpin() const {
  return grid_;
}

void CalculatorView::applyArchRanges() {
  const bool was_updating = updating_;
  updating_ = true;
  const ArchLimits& a = arch();
  const DeviceTarget& t = device_->currentTarget();
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

  QString info = tr("%1 warps (%2 threads) and %3 blocks per SM · %4 registers per SM · up to %5 shared memory per SM, "
                    "%6 per block (opt-in)")
                     .arg(a.max_warps_per_sm)
                     .arg(a.maxThreadsPerSm())
                     .arg(a.max_blocks_per_sm)
                     .arg(a.registers_per_sm)
                     .arg(QString::number(a.shared_memory_per_sm / 1024) + QStringLiteral(" KB"))
                     .arg(QString::number(a.shared_memory_per_block_optin / 1024) + QStringLiteral(" KB"));
  info += t.sm_count > 0 ? tr(" · %1 SMs").arg(t.sm_count) : tr(" · no SM count (a compute capability, not a GPU)");
  device_info_->setText(info);
  updating_ = was_updating;
}

void CalculatorView::setInput(const OccupancyInput& in) {
  updating_ = true;
  threads_->setValue(in.threads_per_block);
  registers_->setValue(in.registers_per_thread);
  static_smem_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.static_smem_bytes, 0, INT_MAX)));
  dynamic_smem_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.dynamic_smem_bytes, 0, INT_MAX)));
  carveout_->setValue(in.carveout_percent);
  barriers_->setValue(in.block_barriers);
  grid_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.grid_blocks, 0, INT_MAX)));
  updating_ = false;
  recompute();
}

void CalculatorView::showHandOver(const ConfigHandOver& h) {
  if (h.device_key.isEmpty() || !device_->setCurrentKey(h.device_key)) {
    const QString key = device_->keyFor(h.cc, h.sm_count);
    if (!key.isEmpty()) device_->setCurrentKey(key);
  }
  // A bare compute capability has no SM count: keep the config's, for the GPU-wide figures.
  if (h.sm_count > 0 && device_->currentTarget().sm_count != h.sm_count) sm_override_ = h.sm_count;
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
  input_.threads_per_block = threads_->value();
  input_.registers_per_thread = registers_->value();
  input_.static_smem_bytes = static_smem_->value();
  input_.dynamic_smem_bytes = dynamic_smem_->value();
  input_.carveout_percent = carveout_->isEnabled() ? carveout_->value() : -1;
  input_.block_barriers = barriers_->value();
  input_.grid_blocks = grid_->value();
  input_.sm_count = sm_override_ > 0 ? sm_override_ : device_->currentTarget().sm_count;

  auto r = computeOccupancy(a, input_, true);
  if (r) {
    result_ = std::move(r).value();
    input_error_.clear();
  } else {
    // The widgets' ranges keep inputs well-formed; should one slip through, show it like a
    // configuration that cannot launch.
    result_ = OccupancyResult{};
    result_.max_warps_per_sm = a.max_warps_per_sm;
    input_error_ = QString::fromStdString(r.error());
  }
  blockSizeCurveInto(a, input_, curve_block_);
  registersCurveInto(a, input_, curve_regs_);
  sharedMemoryCurveInto(a, input_, curve_smem_);
  blockBarriersCurveInto(a, input_, curve_barriers_);

  // Clusters: the GPC layout of a named GPU with its own SM count; the naive bound otherwise.
  const DeviceTarget& t = device_->currentTarget();
  layout_ = (t.gpu != nullptr && t.gpu->sm_count == input_.sm_count) ? clusterLayoutOf(*t.gpu) : ClusterLayout{};
  const bool np = non_portable_->isChecked();
  const int blocks = result_.can_launch ? result_.active_blocks_per_sm : 0;
  curve_clusters_ = clusterSizeCurve(a, layout_, input_.sm_count, blocks, np);
  clusters_.reset();
  clusters_note_.clear();
  if (maxClusterSize(a, true) == 0) {
    clusters_note_ =
        tr("CC %1 has no thread-block clusters (CC 9.0 and later)").arg(QString::fromStdString(a.cc.str()));
  } else if (input_.sm_count <= 0) {
    clusters_note_ = tr("clusters need a GPU's SM count: pick a GPU");
  } else if (cluster_size_->value() <= 0) {
    clusters_note_ = tr("set a cluster size");
  } else if (auto c = computeClusters(a, layout_, input_.sm_count, result_, {cluster_size_->value(), np}, true)) {
    clusters_ = std::move(c).value();
  } else {
    clusters_note_ = QString::fromStdString(c.error());
  }
  if (auto b = occx::bestBlockSize(a, input_)) {
    best_ = *b;
  } else {
    best_ = BestBlockSize{};
  }
  invalidateDriverAnswer();

  const bool ok = result_.can_launch;
  plot_block_->setData(curve_block_, a.max_warps_per_sm, input_.threads_per_block, result_.active_warps_per_sm, ok);
  plot_regs_->setData(curve_regs_, a.max_warps_per_sm, input_.registers_per_thread, result_.active_warps_per_sm, ok);
  plot_smem_->setData(curve_smem_, a.max_warps_per_sm, input_.static_smem_bytes + input_.dynamic_smem_bytes,
                      result_.active_warps_per_sm, ok);
  plot_barriers_->setData(curve_barriers_, a.max_warps_per_sm, input_.block_barriers, result_.active_warps_per_sm, ok);
  plot_clusters_->setData(curve_clusters_, std::int64_t{blocks} * std::max(0, input_.sm_count), {},
                          cluster_size_->value(), layout_.known(),
                          maxClusterSize(a, true) == 0 ? clusters_note_ : QString());
  utilization_->setRows(computeUtilization(a, input_, result_));
  const QString subtitle = exportSubtitle();
  for (PlotController* p : plotExports()) p->setExportSubtitle(subtitle);
  showResult();
  showDerivation();
  emit resultChanged();
  emit statusMessage(statusSummary());
}

void CalculatorView::showResult() {
  const OccupancyResult& r = result_;
  const bool ok = r.can_launch;

  if (ok) {
    validation_->setVisible(false);
    validation_->clear();
    occupancy_label_->setText(percentText(r.occupancy));
    occupancy_label_->setStyleSheet(QString());
    occupancy_detail_->setText(tr("%1 of %2 warps per SM active\nlimited by %3")
                                   .arg(r.active_warps_per_sm)
                                   .arg(r.max_warps_per_sm)
                                   .arg(QString::fromStdString(limiterNames(r.limiters))));
  } else {
    const QString reason = input_error_.isEmpty() ? QString::fromStdString(r.cannot_launch_reason) : input_error_;
    validation_->setText(tr("<b>Cannot launch:</b> %1.").arg(reason.toHtmlEscaped()));
    validation_->setVisible(true);
    occupancy_label_->setText(tr("Cannot launch"));
    occupancy_label_->setStyleSheet(QStringLiteral("color: #b00020; font-size: 17pt;"));
    occupancy_detail_->setText(tr("0 active blocks: no block of this configuration fits on an SM"));
  }

  showLimitsTable();
  showDetailsTable();
  showClusters();
}

void CalculatorView::showClusters() {
  const std::optional<DriverOccupancy>& d = driver_;
  auto driverCell = [&](int v) { return d && v >= 0 ? QString::number(v) : QStringLiteral("—"); };
  int row = 0;
  if (clusters_) {
    const ClusterResult& c = *clusters_;
    setCalculatorRow(
        clusters_table_, row++,
        {c.layout_known ? tr("Max active clusters (size %1)").arg(c.cluster_size)
                        : tr("Max active clusters (size %1; upper bound, GPC layout unknown)").arg(c.cluster_size),
         QString::number(c.max_active_clusters), driverCell(d ? d->max_active_clusters : -1)});
    setCalculatorRow(
        clusters_table_, row++,
        {tr("Active blocks in clusters"),
         tr("%1 of %2").arg(c.active_blocks_in_clusters).arg(c.active_blocks_without_clusters),
         d && d->max_active_clusters >= 0 ? QString::number(std::int64_t{d->max_active_clusters} * c.cluster_size)
                                          : QStringLiteral("—")});
    setCalculatorRow(clusters_table_, row++,
                     {tr("Cluster occupancy"), percentText(c.cluster_occupancy), QStringLiteral("—")});
    setCalculatorRow(clusters_table_, row++,
                     {non_portable_->isChecked() ? tr("Largest cluster that can launch (non-portable)")
                                                 : tr("Largest cluster that can launch (portable)"),
                      QString::number(c.max_potential_cluster_size),
                      driverCell(d ? (non_portable_->isChecked() ? d->max_potential_cluster_size_nonportable
                                                                 : d->max_potential_cluster_size_portable)
                                   : -1)});
  } else {
    setCalculatorRow(clusters_table_, row++, {tr("Clusters"), clusters_note_, QStringLiteral("—")});
  }
  setCalculatorRow(clusters_table_, row++,
                   {tr("Best block size (cudaOccupancyMaxPotentialBlockSize)"),
                    best_.block_size > 0 ? tr("%1 threads, %2").arg(best_.block_size).arg(percentText(best_.occupancy))
                                         : tr("none launches"),
                    driverCell(d ? d->best_block_size : -1)});
  setCalculatorRow(clusters_table_, row++,
                   {tr("Smallest grid for a full GPU at that size"),
                    best_.min_grid_size > 0 ? tr("%1 blocks").arg(best_.min_grid_size) : tr("needs a GPU's SM count"),
                    driverCell(d ? d->best_min_grid_size : -1)});
  if (d) {
    setCalculatorRow(clusters_table_, row++,
                     {tr("Active blocks per SM"), QString::number(result_.active_blocks_per_sm),
                      driverCell(d->active_blocks_per_sm)});
  }
  clusters_table_->setRowCount(row);
  fitTableHeight(clusters_table_);
}

void CalculatorView::setBackend(Backend* backend) {
  backend_ = backend;
  invalidateDriverAnswer();
}

void CalculatorView::invalidateDriverAnswer() {
  ++driver_generation_;
  const bool had = driver_.has_value();
  driver_.reset();
  QString status;
  if (backend_ == nullptr) {
    status = tr("No driver here: the model's figures only.");
  } else if (const Availability live = backend_->liveAvailability(); !live.available) {
    status = tr("No driver here: %1").arg(QString::fromStdString(live.reason));
  } else if (!device_->currentTarget().detected) {
    status = tr("Pick the detected GPU to compare with its driver.");
  } else {
    status = had ? tr("The inputs changed: ask again.") : tr("Ask the driver for its figures.");
  }
  ask_driver_->setEnabled(backend_ != nullptr && device_->currentTarget().detected);
  driver_status_->setText(status);
}

void CalculatorView::askDriver() {
  if (backend_ == nullptr || !device_->currentTarget().detected) {
    invalidateDriverAnswer();
    return;
  }
  DriverOccupancyQuery q;
  q.registers_per_thread = input_.registers_per_thread;
  q.threads_per_block = input_.threads_per_block;
  q.shared_memory_bytes = input_.static_smem_bytes + input_.dynamic_smem_bytes;
  q.cluster_size = cluster_size_->value();
  q.every_cluster_size = arch().cc.major >= 9;
  const int generation = driver_generation_;
  driver_status_->setText(tr("Asking the driver (compiling the probe kernel the first time)…"));
  ask_driver_->setEnabled(false);
  QPointer<CalculatorView> self(this);
  Backend* backend = backend_;
  std::thread([self, backend, q, generation] {
    auto answer = backend->driverOccupancy(q);
    QMetaObject::invokeMethod(
        QCoreApplication::instance(),
        [self, answer, generation] {
          if (self == nullptr || generation != self->driver_generation_) return;  // stale: the inputs changed meanwhile
          self->ask_driver_->setEnabled(true);
          if (answer) {
            self->showDriverAnswer(*answer);
          } else {
            self->driver_status_->setText(
                tr("The driver could not answer: %1").arg(QString::fromStdString(answer.error())));
            emit self->driverAnswered();
          }
        },
        Qt::QueuedConnection);
  }).detach();
}

void CalculatorView::showDriverAnswer(const DriverOccupancy& d) {
  driver_ = d;
  const int blocks = result_.can_launch ? result_.active_blocks_per_sm : 0;
  plot_clusters_->setData(curve_clusters_, std::int64_t{blocks} * std::max(0, input_.sm_count),
                          d.max_active_clusters_by_size, cluster_size_->value(), layout_.known(), QString());
  QString text = tr("Driver of %1 (CC %2, %3 SMs): %4.")
                     .arg(QString::fromStdString(d.device_name), QString::fromStdString(d.cc.str()))
                     .arg(d.sm_count)
                     .arg(QString::fromStdString(d.note));
  if (d.sm_count != input_.sm_count || d.cc != arch().cc)
    text += tr(" It is not the selected target: compare with care.");
  driver_status_->setText(text);
  showClusters();
  emit driverAnswered();
}

void CalculatorView::showLimitsTable() {
  // Block limit per resource, the limiters highlighted.
  const ArchLimits& a = arch();
  const OccupancyResult& r = result_;
  const bool ok = r.can_launch;
  auto lim = [&](unsigned bit) { return (r.limiters & bit) != 0; };
  const QColor color = ok ? kLimiterColor : kBlockerColor;
  int row = 0;
  setCalculatorRow(limits_table_, row++,
                   {tr("Warps (%1 per SM)").arg(a.max_warps_per_sm), limitText(r.block_limit_warps),
                    warpCountText(r.warps_per_block)},
                   lim(kLimitWarps), color);
  setCalculatorRow(limits_table_, row++,
                   {tr("Block slots (hardware cap)"), limitText(r.block_limit_blocks), tr("1 slot")}, lim(kLimitBlocks),
                   color);
  setCalculatorRow(limits_table_, row++,
                   {tr("Registers (%1 per SM)").arg(a.registers_per_sm), limitText(r.block_limit_registers),
                    tr("%1 registers").arg(r.registers_per_block_allocated)},
                   lim(kLimitRegisters), color);
  setCalculatorRow(limits_table_, row++,
                   {tr("Shared memory (%1 KB)").arg(r.shared_memory_per_sm_config / 1024),
                    limitText(r.block_limit_shared_memory), calculatorBytesText(r.shared_memory_per_block_allocated)},
                   lim(kLimitSharedMemory), color);
  if (a.cc.major >= 9) {
    setCalculatorRow(limits_table_, row++,
                     {tr("Barriers (%1 per SM)").arg(a.block_barriers_per_sm), limitText(r.block_limit_barriers),
                      input_.block_barriers == 1 ? tr("1 barrier") : tr("%1 barriers").arg(input_.block_barriers)},
                     lim(kLimitBarriers), color);
  } else {
    setCalculatorRow(limits_table_, row++, {tr("Barriers"), QStringLiteral("—"), tr("from CC 9.0 on")}, false);
  }
  limits_table_->setRowCount(row);
  fitTableHeight(limits_table_);
}

void CalculatorView::showDetailsTable() {
  const ArchLimits& a = arch();
  const OccupancyResult& r = result_;
  const bool ok = r.can_launch;
  int row = 0;
  setCalculatorRow(details_table_, row++, {tr("Active blocks per SM"), QString::number(r.active_blocks_per_sm)});
  setCalculatorRow(details_table_, row++,
                   {tr("Active warps per SM"), tr("%1 of %2").arg(r.active_warps_per_sm).arg(r.max_warps_per_sm)});
  setCalculatorRow(details_table_, row++,
                   {tr("Active threads per SM"), tr("%1 of %2").arg(r.active_threads_per_sm).arg(a.maxThreadsPerSm())});
  setCalculatorRow(details_table_, row++,
                   {tr("Registers per block (allocated)"),
                    tr("%1 (%2 per warp)").arg(r.registers_per_block_allocated).arg(r.registers_per_warp_allocated)});
  setCalculatorRow(details_table_, row++,
                   {tr("Registers used per SM"), tr("%1 of %2").arg(r.registers_used_per_sm).arg(a.registers_per_sm)});
  setCalculatorRow(
      details_table_, row++,
      {tr("Shared memory per block (allocated)"), calculatorBytesText(r.shared_memory_per_block_allocated)});
  setCalculatorRow(details_table_, row++,
                   {tr("SM shared-memory configuration"), calculatorBytesText(r.shared_memory_per_sm_config)});
  setCalculatorRow(details_table_, row++,
                   {tr("Shared memory used per SM"), calculatorBytesText(r.shared_memory_used_per_sm)});
  const int sms = input_.sm_count;
  setCalculatorRow(details_table_, row++,
                   {tr("Max active blocks on the GPU"),
                    sms > 0 ? tr("%1 (%2 × %3 SMs)").arg(r.max_active_blocks_gpu).arg(r.active_blocks_per_sm).arg(sms)
                            : tr("needs a GPU's SM count")});
  QString waves;
  if (!ok) {
    waves = tr("none: cannot launch");
  } else if (sms <= 0) {
    waves = tr("needs a GPU's SM count");
  } else if (input_.grid_blocks <= 0) {
    waves = tr("set grid blocks");
  } else {
    waves = tr("%1 (grid of %2 blocks)").arg(r.waves, 0, 'f', 2).arg(input_.grid_blocks);
  }
  setCalculatorRow(details_table_, row++, {tr("Waves"), waves});
  details_table_->setRowCount(row);
  fitTableHeight(details_table_);
}

void CalculatorView::showDerivation() {
  QString html = QStringLiteral(
                     "<p><b>%1</b> — %2 threads per block, %3 registers per thread, %4 B static + %5 B dynamic shared "
                     "memory.</p><ol>")
                     .arg(targetLabel().toHtmlEscaped())
                     .arg(input_.threads_per_block)
                     .arg(input_.registers_per_thread)
                     .arg(input_.static_smem_bytes)
                     .arg(input_.dynamic_smem_bytes);
  for (const auto& s : result_.derivation) {
    html += QStringLiteral("<li style=\"margin-bottom:3px\"><b>%1.</b> %2</li>")
                .arg(QString::fromStdString(s.topic).toHtmlEscaped(), QString::fromStdString(s.text).toHtmlEscaped());
  }
  if (clusters_) {
    for (const auto& st : clusters_->derivation) {
      html +=
          QStringLiteral("<li style=\"margin-bottom:3px\"><b>%1.</b> %2</li>")
              .arg(QString::fromStdString(st.topic).toHtmlEscaped(), QString::fromStdString(st.text).toHtmlEscaped());
    }
  }
  if (!input_error_.isEmpty()) html += QStringLiteral("<li><b>Input.</b> %1</li>").arg(input_error_.toHtmlEscaped());
  html += QStringLiteral("</ol>");
  derivation_->setHtml(html);
  derivation_html_ = html;
}

QString CalculatorView::targetLabel() const {
  const DeviceTarget& t = device_->currentTarget();
  const ArchLimits& a = arch();
  if (t.gpu != nullptr || t.detected) {
    const QString name =
        t.gpu != nullptr && !t.detected ? QString::fromStdString(t.gpu->name) : t.key.section(QLatin1Char(':'), 1);
    return QString::fromStdString(deviceLabel(name.toStdString(), a.cc, t.sm_count));
  }
  return tr("CC %1 (%2)").arg(QString::fromStdString(a.cc.str()), QString::fromStdString(a.family));
}

QString CalculatorView::exportSubtitle() const {
  return tr("%1 · %2 threads, %3 registers, %4 B shared")
      .arg(targetLabel())
      .arg(input_.threads_per_block)
      .arg(input_.registers_per_thread)
      .arg(input_.static_smem_bytes + input_.dynamic_smem_bytes);
}

QString CalculatorView::statusSummary() const {
  const QString launch = tr("%1 threads, %2 registers, %3 B shared memory")
                             .arg(input_.threads_per_block)
                             .arg(input_.registers_per_thread)
                             .arg(input_.static_smem_bytes + input_.dynamic_smem_bytes);
  if (!result_.can_launch) return tr("%1 · %2 · cannot launch").arg(targetLabel(), launch);
  return tr("%1 · %2 · occupancy %3 (%4 of %5 warps), limited by %6")
      .arg(targetLabel(), launch, percentText(result_.occupancy))
      .arg(result_.active_warps_per_sm)
      .arg(result_.max_warps_per_sm)
      .arg(QString::fromStdString(limiterNames(result_.limiters)));
}

std::vector<CsvExport> CalculatorView::csvExports() const {
  const ArchLimits& a = arch();
  const std::string target = targetLabel().toStdString();
  CsvExport result{tr("Result table"), QStringLiteral("occupancy-result.csv"), occupancyToCsv(a, input_, result_)};
  result.table.meta.insert(result.table.meta.begin(), {"target", target});
  if (clusters_) appendClustersToCsv(result.table, {cluster_size_->value(), non_portable_->isChecked()}, *clusters_);
  appendBestBlockSizeToCsv(result.table, best_, 0);
  if (driver_) appendDriverOccupancyToCsv(result.table, *driver_);

  CsvExport curves{tr("Impact curves (block size, registers, shared memory)"), QStringLiteral("occupancy-curves.csv"),
                   curvesToCsv(a, curve_block_, curve_regs_, curve_smem_)};
  auto& m = curves.table.meta;
  m.insert(m.begin(), {"target", target});
  m.emplace_back("threads_per_block", std::to_string(input_.threads_per_block));
  m.emplace_back("registers_per_thread", std::to_string(input_.registers_per_thread));
  m.emplace_back("static_smem_bytes", std::to_string(input_.static_smem_bytes));
  m.emplace_back("dynamic_smem_bytes", std::to_string(input_.dynamic_smem_bytes));
  m.emplace_back("carveout_percent", std::to_string(input_.carveout_percent));
  m.emplace_back("block_barriers", std::to_string(input_.block_barriers));
  CsvExport barriers{tr("Block barriers curve"), QStringLiteral("occupancy-barriers.csv"), curvesToCsv(a, {}, {}, {})};
  barriers.table.rows.clear();
  for (const auto& p : curve_barriers_) {
    barriers.table.rows.push_back({"block_barriers", std::to_string(p.x), std::to_string(p.active_blocks_per_sm),
                                   std::to_string(p.active_warps_per_sm),
                                   QString::number(100.0 * p.occupancy, 'f', 2).toStdString(),
                                   limiterNames(p.limiters)});
  }
  barriers.table.meta.insert(barriers.table.meta.begin(), {"target", target});
  CsvExport clusters{tr("Cluster-size curve"), QStringLiteral("occupancy-clusters.csv"), CsvTable{}};
  clusters.table.meta = {
      {"target", target},
      {"compute_capability", a.cc.str()},
      {"cluster_layout", layout_.known() ? layout_.source : std::string("unknown: naive upper bound")}};
  clusters.table.header = {"cluster_size", "max_active_clusters", "active_blocks_in_clusters",
                           "driver_max_active_clusters"};
  for (const auto& p : curve_clusters_) {
    const auto i = static_cast<std::size_t>(p.cluster_size - 1);
    const bool has = driver_ && i < driver_->max_active_clusters_by_size.size();
    clusters.table.rows.push_back({std::to_string(p.cluster_size), std::to_string(p.max_active_clusters),
                                   std::to_string(p.active_blocks_in_clusters),
                                   has ? std::to_string(driver_->max_active_clusters_by_size[i]) : std::string()});
  }
  return {result, curves, barriers, clusters};
}

std::vector<PlotController*> CalculatorView::plotExports() const {
  return {plot_block_, plot_regs_, plot_smem_, utilization_, plot_clusters_, plot_barriers_};
}

void CalculatorView::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("device"), device_->currentKey());
  s.setValue(QStringLiteral("threadsPerBlock"), input_.threads_per_block);
  s.setValue(QStringLiteral("registersPerThread"), input_.registers_per_thread);
  s.setValue(QStringLiteral("staticSharedMemoryBytes"), static_cast<qlonglong>(input_.static_smem_bytes));
  s.setValue(QStringLiteral("dynamicSharedMemoryBytes"), static_cast<qlonglong>(input_.dynamic_smem_bytes));
  s.setValue(QStringLiteral("carveoutPercent"), carveout_->value());
  s.setValue(QStringLiteral("blockBarriers"), input_.block_barriers);
  s.setValue(QStringLiteral("gridBlocks"), static_cast<qlonglong>(input_.grid_blocks));
  s.setValue(QStringLiteral("clusterSize"), cluster_size_->value());
  s.setValue(QStringLiteral("nonPortableClusters"), non_portable_->isChecked());
  s.setValue(QStringLiteral("plotYMeasure"),
             measure_->currentIndex() == 1 ? QStringLiteral("percent") : QStringLiteral("warps"));
}

void CalculatorView::restoreSettings(QSettings& s) {
  const QString key = s.value(QStringLiteral("device")).toString();
  if (!key.isEmpty() && key != device_->currentKey()) {
    updating_ = true;
    device_->setCurrentKey(key);  // unknown keys (data changed) keep the current device
    applyArchRanges();
    updating_ = false;
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
  updating_ = true;
  non_portable_->setChecked(s.value(QStringLiteral("nonPortableClusters"), false).toBool());
  applyArchRanges();
  cluster_size_->setValue(static_cast<int>(std::clamp<std::int64_t>(readInt("clusterSize", 0), 0, 16)));
  updating_ = false;
  measure_->setCurrentIndex(s.value(QStringLiteral("plotYMeasure")).toString() == QLatin1String("percent") ? 1 : 0);
  setInput(in);
}

}  // namespace occx::ui

namespace occx::ui {
QString CalculatorView::reportText() const {
  return derivation_html_;
}
}  // namespace occx::ui
