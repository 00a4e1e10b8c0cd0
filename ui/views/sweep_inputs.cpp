#include "ui/views/sweep_inputs.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

#include "core/inductor/config.h"
#include "ui/widgets/checked_spin_box.h"

namespace occx::ui {

namespace {

const std::vector<int> kXBlocks = {1, 2, 4, 8, 16, 32};
const std::vector<int> kRBlocks = {64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768};
const std::vector<int> kNumWarps = {1, 2, 4, 8, 16, 32};

const char* const kAxisNames[] = {"XBLOCK", "RBLOCK", "num_warps"};
constexpr int kGridRowValues = 6;  ///< grid toggles per line

/// Grid toggles: a checked one is filled (blue, bold white text), an unchecked one only framed.
const char* const kGridToggleStyle =
    "QToolButton { border: 1px solid #a8a8a8; border-radius: 3px; padding: 2px 5px; background: #fafafa; "
    "color: #303030; }"
    "QToolButton:hover { border-color: #2f6fb0; }"
    "QToolButton:checked { background: #2f6fb0; border-color: #1d4f86; color: white; font-weight: bold; }"
    "QToolButton:disabled { color: #a0a0a0; background: #f0f0f0; }"
    "QToolButton:checked:disabled { background: #9db4cc; color: #f0f0f0; }";

QString shortPow2(int v) {
  return v >= 1024 ? QStringLiteral("%1K").arg(v / 1024) : QString::number(v);
}

QString inputBytesText(double bytes) {
  if (bytes >= 1e9) return QStringLiteral("%1 GB").arg(bytes / 1e9, 0, 'f', 2);
  if (bytes >= 1e6) return QStringLiteral("%1 MB").arg(bytes / 1e6, 0, 'f', 1);
  return QStringLiteral("%1 kB").arg(bytes / 1e3, 0, 'f', 1);
}

}  // namespace

const std::vector<ShapePreset>& shapePresets() {
  static const std::vector<ShapePreset> presets = {
      {QObject::tr("Row sum, 32768 × 8192 fp16"), Workload::kSum, DType::kF16, 1, 32768, 8192},
      {QObject::tr("var_mean over rows, 32768 × 8192 fp16"), Workload::kMeanVar, DType::kF16, 1, 32768, 8192},
      {QObject::tr("log_softmax, 32768 × 8192 fp16 → fp32"), Workload::kLogSoftmax, DType::kF16, 1, 32768, 8192, true},
      {QObject::tr("Fused sums of products, K=3, 32768 × 8192 fp16"), Workload::kFusedK, DType::kF16, 3, 32768, 8192},
      {QObject::tr("log_softmax, 20736 × 8008 fp16 → fp32 (causal-LM vocabulary)"), Workload::kLogSoftmax, DType::kF16,
       1, 20736, 8008, true},
      {QObject::tr("log_softmax, 264 × 30000 fp32 (spill case)"), Workload::kLogSoftmax, DType::kF32, 1, 264, 30000},
      {QObject::tr("mean_var, 512 × 8192 fp32"), Workload::kMeanVar, DType::kF32, 1, 512, 8192},
  };
  return presets;
}

SweepInputs::SweepInputs(QWidget* parent) : QWidget(parent) {
  updating_ = true;
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  auto* form = new QFormLayout;
  form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
  outer->addLayout(form);
  addKernelRows(form);
  addShapeRows(form);
  addGridRows(form);
  setDefaults();
  connectEdits();
  updating_ = false;
  updateLabels();
}

void SweepInputs::addKernelRows(QFormLayout* form) {
  preset_ = new QComboBox(this);
  preset_->setObjectName(QStringLiteral("shapePreset"));
  // As wide as the column, not as its longest preset's name (the list opens wide enough for it).
  preset_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  preset_->setMinimumContentsLength(24);
  preset_->addItem(tr("Custom"));
  for (const auto& p : shapePresets()) preset_->addItem(p.label);
  preset_->setToolTip(tr("Reference shapes (measured with Inductor on an H200) and the spill case"));
  form->addRow(tr("Preset:"), preset_);

  workload_ = new QComboBox(this);
  workload_->setObjectName(QStringLiteral("workload"));
  for (Workload w : allWorkloads()) workload_->addItem(QString::fromUtf8(workloadName(w).data()), static_cast<int>(w));
  workload_->setToolTip(
      tr("sum, sum_sq, amax: one accumulator tile; mean_var (Welford): three; log_softmax: online "
         "max/sum-exp, then an output pass; fused_k: K inputs, K tiles"));
  dtype_ = new QComboBox(this);
  dtype_->setObjectName(QStringLiteral("dtype"));
  for (DType d : allDTypes()) dtype_->addItem(QString::fromUtf8(dtypeName(d).data()), static_cast<int>(d));
  dtype_->setToolTip(tr("Input element type; accumulation is always fp32"));
  auto* k_box = new CheckedSpinBox(this);
  k_box->setQuantity(tr("K (fused inputs)"));  // its form row holds two boxes, or a label and a box
  k_ = k_box;
  k_->setObjectName(QStringLiteral("k"));
  k_->setRange(1, kMaxFusedInputs);
  k_->setToolTip(tr("fused_k: number of inputs (1 … 8); the other workloads take one"));
  auto* kernel_row = new QHBoxLayout;
  kernel_row->addWidget(workload_, 2);
  kernel_row->addWidget(dtype_, 1);
  kernel_row->addWidget(new QLabel(tr("K"), this));
  kernel_row->addWidget(k_);
  form->addRow(tr("Workload:"), kernel_row);
  fp32_outputs_ = new QCheckBox(tr("fp32 outputs (an upcast graph)"), this);
  fp32_outputs_->setObjectName(QStringLiteral("fp32Outputs"));
  fp32_outputs_->setToolTip(
      tr("Write the outputs in fp32 instead of the input dtype, as log_softmax(x.float()) does; "
         "changes the bytes written"));
  form->addRow(QString(), fp32_outputs_);
}

void SweepInputs::addShapeRows(QFormLayout* form) {
  auto numel_box = [this](const QString& quantity, const QString& object_name, const QString& tooltip) {
    auto* box = new CheckedSpinBox(this);
    box->setQuantity(quantity);  // its form row holds two boxes, or a label and a box
    box->setObjectName(object_name);
    box->setRange(1, 2147483647);
    box->setGroupSeparatorShown(true);
    box->setToolTip(tooltip);
    return box;
  };
  xnumel_ = numel_box(tr("xnumel"), QStringLiteral("xnumel"), tr("xnumel: rows reduced independently (1 … 2^31 − 1)"));
  rnumel_ = numel_box(tr("rnumel"), QStringLiteral("rnumel"),
                      tr("rnumel: elements reduced per row (1 … 2^31 − 1); xnumel × rnumel < 2^31"));
  auto* shape_row = new QHBoxLayout;
  shape_row->addWidget(xnumel_, 1);
  shape_row->addWidget(new QLabel(QStringLiteral("×"), this));
  shape_row->addWidget(rnumel_, 1);
  form->addRow(tr("xnumel × rnumel:"), shape_row);
  shape_info_ = new QLabel(this);
  shape_info_->setObjectName(QStringLiteral("shapeInfo"));
  shape_info_->setWordWrap(true);
  shape_info_->setStyleSheet(QStringLiteral("color: #555;"));
  form->addRow(QString(), shape_info_);
  static_shape_ = new QCheckBox(tr("Static shape (baked in)"), this);
  static_shape_->setObjectName(QStringLiteral("staticShape"));
  static_shape_->setChecked(true);
  static_shape_->setToolTip(
      tr("Build every kernel for this xnumel × rnumel, as Inductor builds kernels for static shapes: the loop "
         "over R has a known trip count and is unrolled, masks that cannot fail are left out. Off: kernels that "
         "take the shape at run time, as torch.compile(dynamic=True) — different registers and times"));
  form->addRow(QString(), static_shape_);
}

void SweepInputs::addGridRows(QFormLayout* form) {
  grid_.resize(3);
  form->addRow(tr("XBLOCK:"), buildGridRow(0, kXBlocks, {1, 2}));
  form->addRow(tr("RBLOCK:"), buildGridRow(1, kRBlocks, {256, 512, 1024, 2048, 4096, 8192}));
  form->addRow(tr("num_warps:"), buildGridRow(2, kNumWarps, {4, 8, 16, 32}));
  inductor_ = new QCheckBox(tr("Inductor's candidates + halved configs"), this);
  inductor_->setObjectName(QStringLiteral("inductorCandidates"));
  inductor_->setChecked(true);
  inductor_->setToolTip(
      tr("Also compile the configs Inductor generates for this shape and the RBLOCK-halved copies "
         "that the old, new and exact bounds add, to build each policy's candidate set"));
  form->addRow(QString(), inductor_);
  grid_info_ = new QLabel(this);
  grid_info_->setObjectName(QStringLiteral("gridInfo"));
  grid_info_->setStyleSheet(QStringLiteral("color: #555;"));
  form->addRow(QString(), grid_info_);
}

void SweepInputs::setDefaults() {
  // Defaults: the spill-case-free reference shape of the design's example decision.
  const ShapePreset& d = shapePresets().back();
  workload_->setCurrentIndex(workload_->findData(static_cast<int>(d.workload)));
  dtype_->setCurrentIndex(dtype_->findData(static_cast<int>(d.dtype)));
  k_->setValue(d.k);
  xnumel_->setValue(static_cast<int>(d.xnumel));
  rnumel_->setValue(static_cast<int>(d.rnumel));
  preset_->setCurrentIndex(static_cast<int>(shapePresets().size()));
}

void SweepInputs::connectEdits() {
  auto edited = [this] {
    if (updating_) return;
    {
      const QSignalBlocker block(preset_);
      preset_->setCurrentIndex(0);  // a hand edit makes it a custom shape
    }
    updateLabels();
    emit changed();
  };
  connect(preset_, &QComboBox::currentIndexChanged, this, [this](int i) {
    if (!updating_ && i > 0) applyPreset(i - 1);
  });
  connect(workload_, &QComboBox::currentIndexChanged, this, edited);
  connect(dtype_, &QComboBox::currentIndexChanged, this, edited);
  connect(k_, &QSpinBox::valueChanged, this, edited);
  connect(xnumel_, &QSpinBox::valueChanged, this, edited);
  connect(rnumel_, &QSpinBox::valueChanged, this, edited);
  connect(fp32_outputs_, &QCheckBox::toggled, this, edited);
  connect(static_shape_, &QCheckBox::toggled, this, edited);
  connect(inductor_, &QCheckBox::toggled, this, [this] {
    if (updating_) return;
    updateLabels();
    emit changed();
  });
}

QWidget* SweepInputs::buildGridRow(int axis, const std::vector<int>& values, const std::vector<int>& defaults) {
  auto* row = new QWidget(this);
  // At most kGridRowValues toggles a line (RBLOCK's ten take two): one long line would make the
  // controls column, and with it every sweep view's inputs, wider than a 1280-pixel screen can spare.
  auto* layout = new QGridLayout(row);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(1);
  // A chosen value must read as chosen at a glance: filled blue with bold white text, the others
  // plain with a grey frame (the style's own pressed look is too faint).
  row->setStyleSheet(QString::fromLatin1(kGridToggleStyle));
  int i = 0;
  for (int v : values) {
    auto* b = new QToolButton(row);
    b->setText(axis == 1 ? shortPow2(v) : QString::number(v));
    b->setCheckable(true);
    b->setChecked(std::find(defaults.begin(), defaults.end(), v) != defaults.end());
    b->setObjectName(QStringLiteral("grid_%1_%2").arg(QLatin1String(kAxisNames[axis])).arg(v));
    b->setToolTip(tr("Include %1 = %2 in the sweep").arg(QLatin1String(kAxisNames[axis])).arg(v));
    b->setMinimumWidth(26);
    b->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    connect(b, &QToolButton::toggled, this, [this] {
      if (updating_) return;
      updateLabels();
      emit changed();
    });
    layout->addWidget(b, i / kGridRowValues, i % kGridRowValues);
    ++i;
    grid_[static_cast<std::size_t>(axis)].emplace_back(v, b);
  }
  layout->setColumnStretch(kGridRowValues, 1);
  return row;
}

QToolButton* SweepInputs::gridButton(int axis, int value) const {
  if (axis < 0 || axis > 2) return nullptr;
  for (const auto& [v, b] : grid_[static_cast<std::size_t>(axis)]) {
    if (v == value) return b;
  }
  return nullptr;
}

std::vector<int> SweepInputs::gridValues(int axis) const {
  std::vector<int> out;
  for (const auto& [v, b] : grid_[static_cast<std::size_t>(axis)]) {
    if (b->isChecked()) out.push_back(v);
  }
  return out;
}

void SweepInputs::setGridValues(int axis, const std::vector<int>& values) {
  if (axis < 0 || axis > 2) return;
  updating_ = true;
  for (const auto& [v, b] : grid_[static_cast<std::size_t>(axis)]) {
    b->setChecked(std::find(values.begin(), values.end(), v) != values.end());
  }
  updating_ = false;
  updateLabels();
  emit changed();
}

int SweepInputs::gridSize() const {
  return static_cast<int>(gridValues(0).size() * gridValues(1).size() * gridValues(2).size());
}

void SweepInputs::fillSpec(CompileSweepSpec& spec) const {
  spec.workload = static_cast<Workload>(workload_->currentData().toInt());
  spec.dtype = static_cast<DType>(dtype_->currentData().toInt());
  spec.k = spec.workload == Workload::kFusedK ? k_->value() : 1;
  spec.fp32_outputs = fp32_outputs_->isChecked();
  spec.xnumel = xnumel_->value();
  spec.rnumel = rnumel_->value();
  spec.grid.xblock = gridValues(0);
  spec.grid.r0_block = gridValues(1);
  spec.grid.num_warps = gridValues(2);
  spec.inductor_candidates = inductor_->isChecked();
  spec.static_shape = static_shape_->isChecked();
}

void SweepInputs::setFromSpec(const CompileSweepSpec& spec) {
  updating_ = true;
  workload_->setCurrentIndex(std::max(0, workload_->findData(static_cast<int>(spec.workload))));
  dtype_->setCurrentIndex(std::max(0, dtype_->findData(static_cast<int>(spec.dtype))));
  k_->setValue(spec.k);
  fp32_outputs_->setChecked(spec.fp32_outputs);
  xnumel_->setValue(static_cast<int>(std::clamp<std::int64_t>(spec.xnumel, 1, 2147483647)));
  rnumel_->setValue(static_cast<int>(std::clamp<std::int64_t>(spec.rnumel, 1, 2147483647)));
  inductor_->setChecked(spec.inductor_candidates);
  static_shape_->setChecked(spec.static_shape);
  const std::vector<int>* lists[] = {&spec.grid.xblock, &spec.grid.r0_block, &spec.grid.num_warps};
  for (int axis = 0; axis < 3; ++axis) {
    for (const auto& [v, b] : grid_[static_cast<std::size_t>(axis)]) {
      b->setChecked(std::find(lists[axis]->begin(), lists[axis]->end(), v) != lists[axis]->end());
    }
  }
  preset_->setCurrentIndex(0);
  updating_ = false;
  updateLabels();
  emit changed();
}

void SweepInputs::applyPreset(int index) {
  if (index < 0 || index >= static_cast<int>(shapePresets().size())) return;
  const ShapePreset& p = shapePresets()[static_cast<std::size_t>(index)];
  updating_ = true;
  workload_->setCurrentIndex(workload_->findData(static_cast<int>(p.workload)));
  dtype_->setCurrentIndex(dtype_->findData(static_cast<int>(p.dtype)));
  k_->setValue(p.k);
  fp32_outputs_->setChecked(p.fp32_outputs);
  xnumel_->setValue(static_cast<int>(p.xnumel));
  rnumel_->setValue(static_cast<int>(p.rnumel));
  updating_ = false;
  updateLabels();
  emit changed();
}

QString SweepInputs::validationMessage() const {
  for (int axis = 0; axis < 3; ++axis) {
    if (gridValues(axis).empty()) return tr("Choose at least one %1 value.").arg(QLatin1String(kAxisNames[axis]));
  }
  const std::int64_t x = xnumel_->value();
  const std::int64_t r = rnumel_->value();
  if (x * r > 2147483647) {
    return tr("xnumel × rnumel = %1 is too large: the kernels index with 32-bit ints, allowed at most 2147483647 "
              "elements.")
        .arg(x * r);
  }
  return {};
}

void SweepInputs::updateLabels() {
  const auto w = static_cast<Workload>(workload_->currentData().toInt());
  k_->setEnabled(w == Workload::kFusedK);
  const std::int64_t x = xnumel_->value();
  const std::int64_t r = rnumel_->value();
  QString info;
  if (auto hints = inductor::sizeHintsFromNumels(x, r)) {
    info = tr("size hints x %1, r %2").arg(hints->x).arg(hints->r0);
  }
  if (auto bytes = bytesMoved(w, static_cast<DType>(dtype_->currentData().toInt()),
                              w == Workload::kFusedK ? k_->value() : 1, x, r, fp32_outputs_->isChecked())) {
    info += tr(" · moves %1 (read %2, write %3)")
                .arg(inputBytesText(static_cast<double>(bytes->total())),
                     inputBytesText(static_cast<double>(bytes->bytes_read)),
                     inputBytesText(static_cast<double>(bytes->bytes_written)));
  }
  shape_info_->setText(info);
  const QString invalid = validationMessage();
  grid_info_->setText(
      invalid.isEmpty()
          ? tr("%1 grid configs%2").arg(gridSize()).arg(inductor_->isChecked() ? tr(" + Inductor's") : QString())
          : invalid);
  grid_info_->setStyleSheet(invalid.isEmpty() ? QStringLiteral("color: #555;") : QStringLiteral("color: #8b0000;"));
}

void SweepInputs::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("preset"), preset_->currentIndex());
  s.setValue(QStringLiteral("workload"), workload_->currentText());
  s.setValue(QStringLiteral("dtype"), dtype_->currentText());
  s.setValue(QStringLiteral("k"), k_->value());
  s.setValue(QStringLiteral("fp32Outputs"), fp32_outputs_->isChecked());
  s.setValue(QStringLiteral("xnumel"), xnumel_->value());
  s.setValue(QStringLiteral("rnumel"), rnumel_->value());
  s.setValue(QStringLiteral("inductorCandidates"), inductor_->isChecked());
  s.setValue(QStringLiteral("staticShape"), static_shape_->isChecked());
  for (int axis = 0; axis < 3; ++axis) {
    QStringList values;
    for (int v : gridValues(axis)) values << QString::number(v);
    s.setValue(QStringLiteral("grid/") + QLatin1String(kAxisNames[axis]), values.join(QLatin1Char(',')));
  }
}

void SweepInputs::restoreSettings(QSettings& s) {
  updating_ = true;
  if (int i = workload_->findText(s.value(QStringLiteral("workload")).toString()); i >= 0)
    workload_->setCurrentIndex(i);
  if (int i = dtype_->findText(s.value(QStringLiteral("dtype")).toString()); i >= 0) dtype_->setCurrentIndex(i);
  bool ok = false;
  if (int v = s.value(QStringLiteral("k")).toInt(&ok); ok && v >= 1 && v <= kMaxFusedInputs) k_->setValue(v);
  if (int v = s.value(QStringLiteral("xnumel")).toInt(&ok); ok && v >= 1) xnumel_->setValue(v);
  if (int v = s.value(QStringLiteral("rnumel")).toInt(&ok); ok && v >= 1) rnumel_->setValue(v);
  if (s.contains(QStringLiteral("fp32Outputs")))
    fp32_outputs_->setChecked(s.value(QStringLiteral("fp32Outputs")).toBool());
  if (s.contains(QStringLiteral("inductorCandidates")))
    inductor_->setChecked(s.value(QStringLiteral("inductorCandidates")).toBool());
  if (s.contains(QStringLiteral("staticShape")))
    static_shape_->setChecked(s.value(QStringLiteral("staticShape")).toBool());
  for (int axis = 0; axis < 3; ++axis) {
    const QString text = s.value(QStringLiteral("grid/") + QLatin1String(kAxisNames[axis])).toString();
    if (text.isEmpty()) continue;
    std::vector<int> values;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) values.push_back(part.toInt());
    bool any = false;
    for (const auto& [v, b] : grid_[static_cast<std::size_t>(axis)])
      any = any || std::find(values.begin(), values.end(), v) != values.end();
    if (!any) continue;
    for (const auto& [v, b] : grid_[static_cast<std::size_t>(axis)]) {
      b->setChecked(std::find(values.begin(), values.end(), v) != values.end());
    }
  }
  if (int p = s.value(QStringLiteral("preset"), -1).toInt(&ok); ok && p >= 0 && p < preset_->count())
    preset_->setCurrentIndex(p);
  updating_ = false;
  updateLabels();
  emit changed();
}

}  // namespace occx::ui
