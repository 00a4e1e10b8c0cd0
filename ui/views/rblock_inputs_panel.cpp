#include "ui/views/rblock_inputs_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/models/text.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/spin_slider.h"

namespace occx::ui {

using namespace occx::inductor;

namespace {

QComboBox* powerOfTwoCombo(int max_value, QWidget* parent) {
  auto* c = new QComboBox(parent);
  for (int v = 1; v <= max_value; v *= 2) c->addItem(QString::number(v), v);
  return c;
}

void selectData(QComboBox* c, int value) {
  const int i = c->findData(value);
  if (i >= 0) c->setCurrentIndex(i);
}

}  // namespace

RblockInputsPanel::RblockInputsPanel(QWidget* parent) : QWidget(parent) {
  updating_ = true;
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 6, 0);
  v->addWidget(buildDeviceBox());
  v->addWidget(buildInductorBox());
  v->addWidget(buildKernelBox());
  v->addWidget(buildConfigBox());
  v->addWidget(buildPipelineBox());
  validation_ = new QLabel(this);
  validation_->setObjectName(QStringLiteral("validationMessage"));
  validation_->setWordWrap(true);
  validation_->setStyleSheet(QStringLiteral("color: #b00020;"));
  validation_->setVisible(false);
  v->addWidget(validation_);
  v->addStretch(1);

  setDefaults();
  connectInputs();
  updating_ = false;
}

QWidget* RblockInputsPanel::buildDeviceBox() {
  auto* device_box = new QGroupBox(tr("GPU"));
  auto* dl = new QFormLayout(device_box);
  device_ = new DeviceSelector(device_box);
  sms_ = new CheckedSpinBox(device_box);
  sms_->setObjectName(QStringLiteral("smCount"));
  sms_->setRange(1, 1024);
  sms_->setSuffix(tr(" SMs"));
  sms_->setToolTip(tr("SM count of the GPU; change it to try another part of the same architecture."));
  device_info_ = new QLabel(device_box);
  device_info_->setWordWrap(true);
  device_info_->setStyleSheet(QStringLiteral("color: #555;"));
  dl->addRow(device_);
  dl->addRow(tr("SM count"), sms_);
  dl->addRow(device_info_);
  return device_box;
}

QWidget* RblockInputsPanel::buildInductorBox() {
  auto* inductor_box = new QGroupBox(tr("Inductor version"));
  auto* il = new QFormLayout(inductor_box);
  profile_ = new QComboBox(inductor_box);
  profile_->setObjectName(QStringLiteral("profile"));
  for (Profile p : {Profile::kInductorCurrent, Profile::kInductor2023}) {
    profile_->addItem(q(profileInfo(p).title), static_cast<int>(p));
  }
  cc_gate_ = new QComboBox(inductor_box);
  cc_gate_->addItem(tr("The version's own"), static_cast<int>(CcGate::kProfileDefault));
  cc_gate_->addItem(tr("CC 8.x only (first version)"), static_cast<int>(CcGate::kMajor8Only));
  cc_gate_->addItem(tr("CC ≥ 8.0 or ROCm (current)"), static_cast<int>(CcGate::kAtLeast80));
  profile_text_ = new QLabel(inductor_box);
  profile_text_->setObjectName(QStringLiteral("profileStatement"));
  profile_text_->setWordWrap(true);
  profile_text_->setStyleSheet(QStringLiteral("color: #444;"));
  profile_text_->setAlignment(Qt::AlignLeft | Qt::AlignTop);  // never centred with its first line cut
  il->addRow(tr("Profile"), profile_);
  il->addRow(tr("CC gate"), cc_gate_);
  il->addRow(profile_text_);
  return inductor_box;
}

QWidget* RblockInputsPanel::buildKernelBox() {
  auto* kernel_box = new QGroupBox(tr("Reduction kernel"));
  auto* kl = new QFormLayout(kernel_box);
  xnumel_ = new CheckedSpinBox(kernel_box);
  xnumel_->setObjectName(QStringLiteral("xnumel"));
  xnumel_->setRange(1, 2147483647);
  xnumel_->setToolTip(tr("Rows reduced (one output each). The size hint is xnumel rounded up to a power of two."));
  rnumel_ = new CheckedSpinBox(kernel_box);
  rnumel_->setObjectName(QStringLiteral("rnumel"));
  rnumel_->setRange(1, 2147483647);
  rnumel_->setToolTip(tr("Elements reduced per row. The size hint is rnumel rounded up to a power of two."));
  size_hints_ = new QLabel(kernel_box);
  size_hints_->setObjectName(QStringLiteral("sizeHints"));
  size_hints_->setStyleSheet(QStringLiteral("color: #555;"));
  size_hints_->setWordWrap(true);
  hint_ = new QComboBox(kernel_box);
  for (ReductionHint h :
       {ReductionHint::kInner, ReductionHint::kOuter, ReductionHint::kOuterTiny, ReductionHint::kDefault}) {
    hint_->addItem(q(reductionHintKey(h)), static_cast<int>(h));
  }
  hint_->setToolTip(tr("Inductor's reduction hint: which candidate configs it compiles."));
  persistent_ = new QCheckBox(tr("Persistent reduction (no R loop)"), kernel_box);
  deterministic_ = new QCheckBox(tr("Deterministic mode"), kernel_box);
  kl->addRow(tr("xnumel"), xnumel_);
  kl->addRow(tr("rnumel"), rnumel_);
  kl->addRow(size_hints_);
  kl->addRow(tr("Reduction hint"), hint_);
  kl->addRow(persistent_);
  kl->addRow(deterministic_);
  return kernel_box;
}

QWidget* RblockInputsPanel::buildConfigBox() {
  auto* config_box = new QGroupBox(tr("Compiled config"));
  auto* cl = new QFormLayout(config_box);
  xblock_ = powerOfTwoCombo(4096, config_box);
  xblock_->setObjectName(QStringLiteral("xblock"));
  rblock_ = powerOfTwoCombo(65536, config_box);
  rblock_->setObjectName(QStringLiteral("rblock"));
  num_warps_ = powerOfTwoCombo(32, config_box);
  num_warps_->setObjectName(QStringLiteral("numWarps"));
  n_regs_ = new SpinSlider(1, config_box);
  n_regs_->setRange(1, 255);
  n_regs_->spinBox()->setObjectName(QStringLiteral("nRegs"));
  n_regs_->spinBox()->setSuffix(tr(" regs"));
  n_regs_known_ = new QCheckBox(tr("n_regs known (kernel loaded)"), config_box);
  n_spills_ = new CheckedSpinBox(config_box);
  n_spills_->setObjectName(QStringLiteral("nSpills"));
  n_spills_->setRange(0, 1 << 20);
  auto* shared = new CheckedSpinBox(config_box);
  shared->setByteUnits(true);
  shared_ = shared;
  shared_->setObjectName(QStringLiteral("sharedBytes"));
  shared_->setRange(0, 232448);
  shared_->setToolTip(
      tr("Shared memory per block the compiled kernel launches with (used by the exact bound). Type bytes or a "
         "size with a unit: 49152, 48 KB, 48KiB (1 KB = 1024 B)."));
  cl->addRow(tr("XBLOCK"), xblock_);
  cl->addRow(tr("RBLOCK (R0_BLOCK)"), rblock_);
  cl->addRow(tr("num_warps"), num_warps_);
  cl->addRow(tr("n_regs"), n_regs_);
  cl->addRow(n_regs_known_);
  cl->addRow(tr("n_spills"), n_spills_);
  cl->addRow(tr("Shared memory"), shared_);
  return config_box;
}

QWidget* RblockInputsPanel::buildPipelineBox() {
  auto* pipe_box = new QGroupBox(tr("Pipeline and chain"));
  auto* pl = new QFormLayout(pipe_box);
  pipeline_policy_ = new QComboBox(pipe_box);
  for (Policy p : boundPolicies()) pipeline_policy_->addItem(q(policyKey(p)), static_cast<int>(p));
  pipeline_policy_->setToolTip(tr("The bound the candidate pipeline and the keep-halving chain use."));
  pl->addRow(tr("Policy"), pipeline_policy_);
  return pipe_box;
}

void RblockInputsPanel::setDefaults() {
  // Defaults: the H200 record (x=512, r=8192, XBLOCK 1, R0_BLOCK 2048, 16 warps, 38 registers).
  device_->setCurrentKey(QStringLiteral("gpu:H200"));
  const DeviceTarget& t = device_->currentTarget();
  sms_->setValue(t.sm_count > 0 ? t.sm_count : 132);
  xnumel_->setValue(512);
  rnumel_->setValue(8192);
  selectData(xblock_, 1);
  selectData(rblock_, 2048);
  selectData(num_warps_, 16);
  n_regs_->setValue(38);
  n_regs_known_->setChecked(true);
  selectData(pipeline_policy_, static_cast<int>(Policy::kNew));
  selectData(hint_, static_cast<int>(ReductionHint::kInner));
}

void RblockInputsPanel::connectInputs() {
  auto edited = [this] {
    if (!updating_) emit changed();
  };
  connect(device_, &DeviceSelector::targetChanged, this, [this] {
    const DeviceTarget& target = device_->currentTarget();
    if (target.sm_count > 0) {
      const QSignalBlocker block(sms_);
      sms_->setValue(target.sm_count);
    }
    if (!updating_) emit changed();
  });
  connect(sms_, &QSpinBox::valueChanged, this, edited);
  connect(profile_, &QComboBox::currentIndexChanged, this, edited);
  connect(cc_gate_, &QComboBox::currentIndexChanged, this, edited);
  connect(xnumel_, &QSpinBox::valueChanged, this, edited);
  connect(rnumel_, &QSpinBox::valueChanged, this, edited);
  connect(hint_, &QComboBox::currentIndexChanged, this, edited);
  connect(persistent_, &QCheckBox::toggled, this, edited);
  connect(deterministic_, &QCheckBox::toggled, this, edited);
  connect(xblock_, &QComboBox::currentIndexChanged, this, edited);
  connect(rblock_, &QComboBox::currentIndexChanged, this, edited);
  connect(num_warps_, &QComboBox::currentIndexChanged, this, edited);
  connect(n_regs_, &SpinSlider::valueChanged, this, edited);
  connect(n_regs_known_, &QCheckBox::toggled, this, [this, edited](bool on) {
    n_regs_->setEnabled(on);
    edited();
  });
  connect(n_spills_, &QSpinBox::valueChanged, this, edited);
  connect(shared_, &QSpinBox::valueChanged, this, edited);
  connect(pipeline_policy_, &QComboBox::currentIndexChanged, this, edited);
}

QSpinBox* RblockInputsPanel::nRegsSpin() const {
  return n_regs_->spinBox();
}

RblockInputs RblockInputsPanel::inputs() const {
  RblockInputs in;
  in.xnumel = xnumel_->value();
  in.rnumel = rnumel_->value();
  in.xblock = xblock_->currentData().toInt();
  in.rblock = rblock_->currentData().toInt();
  in.num_warps = num_warps_->currentData().toInt();
  in.n_regs = n_regs_->value();
  in.n_regs_known = n_regs_known_->isChecked();
  in.n_spills = n_spills_->value();
  in.shared_bytes = shared_->value();
  in.profile = static_cast<Profile>(profile_->currentData().toInt());
  in.cc_gate = static_cast<CcGate>(cc_gate_->currentData().toInt());
  in.pipeline_policy = static_cast<Policy>(pipeline_policy_->currentData().toInt());
  in.hint = static_cast<ReductionHint>(hint_->currentData().toInt());
  in.persistent = persistent_->isChecked();
  in.deterministic = deterministic_->isChecked();
  const DeviceTarget& t = device_->currentTarget();
  in.sm_override = (t.sm_count > 0 && sms_->value() == t.sm_count) ? 0 : sms_->value();
  return in;
}

void RblockInputsPanel::setInputs(const RblockInputs& in) {
  const bool was_updating = updating_;
  updating_ = true;
  xnumel_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.xnumel, 1, 2147483647)));
  rnumel_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.rnumel, 1, 2147483647)));
  selectData(xblock_, in.xblock);
  selectData(rblock_, in.rblock);
  selectData(num_warps_, in.num_warps);
  n_regs_->setValue(std::clamp(in.n_regs, 1, 255));
  n_regs_known_->setChecked(in.n_regs_known);
  n_regs_->setEnabled(in.n_regs_known);
  n_spills_->setValue(std::clamp(in.n_spills, 0, 1 << 20));
  shared_->setValue(static_cast<int>(std::clamp<std::int64_t>(in.shared_bytes, 0, shared_->maximum())));
  selectData(profile_, static_cast<int>(in.profile));
  selectData(cc_gate_, static_cast<int>(in.cc_gate));
  selectData(pipeline_policy_, static_cast<int>(in.pipeline_policy));
  selectData(hint_, static_cast<int>(in.hint));
  persistent_->setChecked(in.persistent);
  deterministic_->setChecked(in.deterministic);
  const DeviceTarget& t = device_->currentTarget();
  sms_->setValue(in.sm_override > 0 ? std::clamp(in.sm_override, 1, 1024)
                                    : (t.sm_count > 0 ? t.sm_count : sms_->value()));
  updating_ = was_updating;
}

bool RblockInputsPanel::selectDevice(const QString& key) {
  const bool was_updating = updating_;
  updating_ = true;
  const bool found = device_->setCurrentKey(key);
  updating_ = was_updating;
  return found;
}

int RblockInputsPanel::smCount() const {
  return sms_->value();
}

void RblockInputsPanel::showDevice(const QString& info, std::int64_t max_shared_bytes) {
  device_info_->setText(info);
  shared_->setMaximum(static_cast<int>(std::max<std::int64_t>(max_shared_bytes, 0)));
}

void RblockInputsPanel::showProfileStatement(const QString& text) {
  profile_text_->setText(text);
}

void RblockInputsPanel::showSizeHints(const QString& text) {
  size_hints_->setText(text);
}

void RblockInputsPanel::showValidation(const QString& message) {
  if (!message.isEmpty()) validation_->setText(message);
  validation_->setVisible(!message.isEmpty());
}

}  // namespace occx::ui
