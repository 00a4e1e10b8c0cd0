#include "ui/views/rblock_scaling_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "core/inductor/report.h"
#include "ui/models/table_model.h"
#include "ui/models/text.h"
#include "ui/plots/rblock_bounds_plot.h"
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

QTableWidget* makeTable(const QStringList& headers, int stretch_column, QWidget* parent) {
  auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setWordWrap(false);
  t->setTextElideMode(Qt::ElideRight);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->horizontalHeader()->setSectionResizeMode(stretch_column, QHeaderView::Stretch);
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
  return t;
}

void setDecisionRow(QTableWidget* t, int row, const QStringList& cells, const QColor& background = QColor()) {
  if (t->rowCount() <= row) t->setRowCount(row + 1);
  for (int c = 0; c < cells.size(); ++c) {
    auto* item = t->item(row, c);
    if (!item) {
      item = new QTableWidgetItem;
      t->setItem(row, c, item);
    }
    item->setText(cells[c]);
    item->setToolTip(cells[c]);
    item->setBackground(background.isValid() ? QBrush(background) : QBrush());
  }
}

const QColor kSkipColor(240, 240, 240);

QColor outcomeColor(Outcome o) {
  if (o == Outcome::kScale) return kScaleColor;
  if (o == Outcome::kNotApplicable) return kSkipColor;
  return {};
}

QString newBlockText(const Decision& d) {
  if (!d.scales() || !d.new_config) return QStringLiteral("–");
  // Core's Decision names the halved kwarg as text ("R0_BLOCK", "R1_BLOCK", "RBLOCK"), not an enum.
  const int from = d.halved_kwarg == "R1_BLOCK" ? d.new_config->r1_block * 2 : d.new_config->r0_block * 2;
  const int to = d.halved_kwarg == "R1_BLOCK" ? d.new_config->r1_block : d.new_config->r0_block;
  return QStringLiteral("%1 %2 → %3").arg(q(d.halved_kwarg)).arg(from).arg(to);
}

}  // namespace

RblockScalingView::RblockScalingView(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("rblockScaling"));
  updating_ = true;
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(inputScrollArea(buildInputs(), 390));
  splitter->addWidget(buildResults());
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({400, 1100});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter);
  updating_ = false;
  recompute();
}

RblockScalingView::~RblockScalingView() = default;

QWidget* RblockScalingView::buildInputs() {
  auto* w = new QWidget;
  auto* v = new QVBoxLayout(w);
  v->setContentsMargins(0, 0, 6, 0);
  v->addWidget(buildDeviceBox());
  v->addWidget(buildInductorBox());
  v->addWidget(buildKernelBox());
  v->addWidget(buildConfigBox());
  v->addWidget(buildPipelineBox());
  validation_ = new QLabel(w);
  validation_->setObjectName(QStringLiteral("validationMessage"));
  validation_->setWordWrap(true);
  validation_->setStyleSheet(QStringLiteral("color: #b00020;"));
  validation_->setVisible(false);
  v->addWidget(validation_);
  v->addStretch(1);

  setDefaults();
  connectInputs();
  return w;
}

QWidget* RblockScalingView::buildDeviceBox() {
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

QWidget* RblockScalingView::buildInductorBox() {
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
  il->addRow(tr("Profile"), profile_);
  il->addRow(tr("CC gate"), cc_gate_);
  il->addRow(profile_text_);
  return inductor_box;
}

QWidget* RblockScalingView::buildKernelBox() {
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

QWidget* RblockScalingView::buildConfigBox() {
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

QWidget* RblockScalingView::buildPipelineBox() {
  auto* pipe_box = new QGroupBox(tr("Pipeline and chain"));
  auto* pl = new QFormLayout(pipe_box);
  pipeline_policy_ = new QComboBox(pipe_box);
  for (Policy p : boundPolicies()) pipeline_policy_->addItem(q(policyKey(p)), static_cast<int>(p));
  pipeline_policy_->setToolTip(tr("The bound the candidate pipeline and the keep-halving chain use."));
  pl->addRow(tr("Policy"), pipeline_policy_);
  return pipe_box;
}

void RblockScalingView::setDefaults() {
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

void RblockScalingView::connectInputs() {
  auto changed = [this] {
    if (!updating_) recompute();
  };
  connect(device_, &DeviceSelector::targetChanged, this, [this] {
    const DeviceTarget& target = device_->currentTarget();
    if (target.sm_count > 0) {
      const QSignalBlocker block(sms_);
      sms_->setValue(target.sm_count);
    }
    if (!updating_) recompute();
  });
  connect(sms_, &QSpinBox::valueChanged, this, changed);
  connect(profile_, &QComboBox::currentIndexChanged, this, changed);
  connect(cc_gate_, &QComboBox::currentIndexChanged, this, changed);
  connect(xnumel_, &QSpinBox::valueChanged, this, changed);
  connect(rnumel_, &QSpinBox::valueChanged, this, changed);
  connect(hint_, &QComboBox::currentIndexChanged, this, changed);
  connect(persistent_, &QCheckBox::toggled, this, changed);
  connect(deterministic_, &QCheckBox::toggled, this, changed);
  connect(xblock_, &QComboBox::currentIndexChanged, this, changed);
  connect(rblock_, &QComboBox::currentIndexChanged, this, changed);
  connect(num_warps_, &QComboBox::currentIndexChanged, this, changed);
  connect(n_regs_, &SpinSlider::valueChanged, this, changed);
  connect(n_regs_known_, &QCheckBox::toggled, this, [this, changed](bool on) {
    n_regs_->setEnabled(on);
    changed();
  });
  connect(n_spills_, &QSpinBox::valueChanged, this, changed);
  connect(shared_, &QSpinBox::valueChanged, this, changed);
  connect(pipeline_policy_, &QComboBox::currentIndexChanged, this, changed);
}

QWidget* RblockScalingView::buildResults() {
  auto* split = new QSplitter(Qt::Vertical);
  split->setObjectName(QStringLiteral("rblockResultsSplit"));
  split->setChildrenCollapsible(false);  // dragging the handle stops at the plot's and the table's minimum
  plot_ = new RblockBoundsPlot(split);
  plot_->widget()->setMinimumHeight(320);
  split->addWidget(plot_->widget());

  auto* lower = new QWidget(split);
  auto* lv = new QVBoxLayout(lower);
  lv->setContentsMargins(0, 0, 0, 0);
  auto* decision_title =
      new QLabel(tr("<b>Decision per policy</b> (steps as in Inductor: gates, n_regs and R-block checks, the "
                    "register threshold, total blocks, the bound, capacity, halving)"),
                 lower);
  decision_title->setWordWrap(true);
  lv->addWidget(decision_title);
  decision_table_ = makeTable({tr("Policy"), tr("Bound (blocks/SM)"), tr("Capacity (blocks)"), tr("Total blocks"),
                               tr("Decision"), tr("New RBLOCK"), tr("Reason")},
                              6, lower);
  decision_table_->setObjectName(QStringLiteral("decisionTable"));
  decision_table_->setRowCount(4);
  decision_table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  decision_table_->setFixedHeight(decision_table_->horizontalHeader()->sizeHint().height() +
                                  4 * decision_table_->verticalHeader()->defaultSectionSize() +
                                  2 * decision_table_->frameWidth() + 2);
  lv->addWidget(decision_table_);

  auto* tabs = new QTabWidget(lower);
  tabs->setObjectName(QStringLiteral("rblockTabs"));
  auto* pipe = new QWidget(tabs);
  auto* pv = new QVBoxLayout(pipe);
  pipeline_note_ = new QLabel(pipe);
  pipeline_note_->setWordWrap(true);
  loop_note_ = new QLabel(pipe);
  loop_note_->setObjectName(QStringLiteral("loopNote"));
  loop_note_->setWordWrap(true);
  loop_note_->setStyleSheet(QStringLiteral("color: #444;"));
  pipeline_table_ = makeTable({tr("#"), tr("Stage"), tr("Origin"), tr("Config"), tr("n_regs"), tr("n_spills"),
                               tr("Decision"), tr("Autotuning"), tr("Reason")},
                              8, pipe);
  pipeline_table_->setObjectName(QStringLiteral("pipelineTable"));
  // Room for four stages at least; on a short screen the page scrolls rather than cutting the notes.
  pipeline_table_->setMinimumHeight(pipeline_table_->horizontalHeader()->sizeHint().height() +
                                    4 * pipeline_table_->verticalHeader()->defaultSectionSize() +
                                    2 * pipeline_table_->frameWidth());
  pv->addWidget(pipeline_note_);
  pv->addWidget(loop_note_);
  pv->addWidget(pipeline_table_, 1);
  auto* pipe_scroll = new QScrollArea(tabs);
  pipe_scroll->setObjectName(QStringLiteral("pipelinePage"));
  pipe_scroll->setWidget(pipe);
  pipe_scroll->setWidgetResizable(true);
  pipe_scroll->setFrameShape(QFrame::NoFrame);
  pipe_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  tabs->addTab(pipe_scroll, tr("Candidate pipeline"));

  arithmetic_ = new QTextBrowser(tabs);
  arithmetic_->setObjectName(QStringLiteral("arithmetic"));
  tabs->addTab(arithmetic_, tr("Arithmetic"));

  auto* chain = new QWidget(tabs);
  auto* chv = new QVBoxLayout(chain);
  auto* chain_label = new QLabel(q(kKeepHalvingLabel), chain);
  chain_label->setObjectName(QStringLiteral("chainLabel"));
  chain_label->setWordWrap(true);
  chain_label->setStyleSheet(QStringLiteral("color: #8a4b00; font-weight: bold;"));
  chain_table_ =
      makeTable({tr("Link"), tr("Config"), tr("n_regs"), tr("Bound"), tr("Decision"), tr("Reason")}, 5, chain);
  chain_table_->setObjectName(QStringLiteral("chainTable"));
  chv->addWidget(chain_label);
  chv->addWidget(chain_table_, 1);
  tabs->addTab(chain, tr("Keep halving (teaching aid)"));
  lv->addWidget(tabs, 1);
  split->addWidget(lower);
  split->setStretchFactor(0, 3);
  split->setStretchFactor(1, 2);
  split->setSizes({560, 420});
  return split;
}

QSpinBox* RblockScalingView::nRegsSpin() const {
  return n_regs_->spinBox();
}

RblockInputs RblockScalingView::inputs() const {
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

void RblockScalingView::setInputs(const RblockInputs& in) {
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
  updating_ = false;
  recompute();
}

void RblockScalingView::showConfig(int xblock, int rblock, int num_warps, int n_regs, int n_spills, qint64 xnumel,
                                   qint64 rnumel) {
  RblockInputs in = inputs();
  in.xblock = xblock;
  in.rblock = rblock;
  in.num_warps = num_warps;
  in.n_regs = n_regs;
  in.n_regs_known = true;
  in.n_spills = n_spills;
  in.xnumel = xnumel;
  in.rnumel = rnumel;
  setInputs(in);
}

void RblockScalingView::showHandOver(const ConfigHandOver& h) {
  if (h.device_key.isEmpty() || !device_->setCurrentKey(h.device_key)) {
    const QString key = device_->keyFor(h.cc, h.sm_count);
    if (!key.isEmpty()) device_->setCurrentKey(key);
  }
  RblockInputs in = inputs();
  in.xblock = h.xblock;
  in.rblock = h.r0_block;
  in.num_warps = h.num_warps;
  in.n_regs_known = h.n_regs > 0;
  if (h.n_regs > 0) in.n_regs = h.n_regs;
  in.n_spills = h.n_spills;
  in.shared_bytes = h.shared_bytes;
  in.xnumel = h.xnumel;
  in.rnumel = h.rnumel;
  in.persistent = h.persistent;
  // A compiled config is judged as the Inductor that compiled it judges it: the current version,
  // its own CC gate, not in deterministic mode (the run's decisions assume the same).
  in.profile = inductor::Profile::kInductorCurrent;
  in.cc_gate = inductor::CcGate::kProfileDefault;
  in.deterministic = false;
  if (auto hint = inductor::parseReductionHint(h.reduction_hint.toLower().toStdString());
      hint && !h.reduction_hint.isEmpty())
    in.hint = *hint;
  const int sms = device_->currentTarget().sm_count;
  in.sm_override = h.sm_count > 0 && sms != h.sm_count ? h.sm_count : 0;
  setInputs(in);
}

void RblockScalingView::clearResults(const QString& message) {
  decisions_.clear();
  curves_ = {};
  pipeline_ = {};
  chain_.clear();
  validation_->setText(message);
  validation_->setVisible(true);
  decision_table_->clearContents();
  pipeline_table_->setRowCount(0);
  chain_table_->setRowCount(0);
  arithmetic_->setPlainText(message);
  plot_->setData({}, device_model_.sm_count, 0, 0);
  emit statusMessage(statusSummary());
  emit resultChanged();
}

bool RblockScalingView::resolveDevice() {
  const DeviceTarget& target = device_->currentTarget();
  const std::string name = target.gpu ? target.gpu->name : "CC " + target.arch->cc.str();
  auto dev = makeDevice(*target.arch, sms_->value(), deviceLabel(name, target.arch->cc, sms_->value()));
  if (!dev) {
    clearResults(q(dev.error()));
    return false;
  }
  device_model_ = *dev;
  device_info_->setText(
      tr("%1 registers/SM, %2 threads/SM, warp size %3, at most %4 blocks/SM; register threshold %1 // %2 = %5")
          .arg(device_model_.registersPerSm())
          .arg(device_model_.maxThreadsPerSm())
          .arg(device_model_.warpSize())
          .arg(device_model_.arch.max_blocks_per_sm)
          .arg(registerThreshold(device_model_)));
  shared_->setMaximum(static_cast<int>(std::max<std::int64_t>(device_model_.arch.shared_memory_per_block_optin, 0)));
  return true;
}

bool RblockScalingView::readKernelAndConfig(const RblockInputs& in) {
  auto hints = sizeHintsFromNumels(in.xnumel, in.rnumel);
  if (!hints) {
    clearResults(q(hints.error()));
    return false;
  }
  // Inductor counts blocks on the size hint, not on xnumel: say so whenever a numel was rounded.
  auto hintText = [this](const char* name, std::int64_t numel, std::int64_t hint) {
    return numel == hint ? tr("%1 = %2").arg(QLatin1String(name)).arg(hint)
                         : tr("<b>%1 = %2</b> (%3 %4 rounded up to a power of two)")
                               .arg(QLatin1String(name))
                               .arg(hint)
                               .arg(QLatin1String(name[0] == 'x' ? "xnumel" : "rnumel"))
                               .arg(numel);
  };
  size_hints_->setText(tr("Size hints: %1, %2 — the decision counts blocks as ceil(x / XBLOCK) on the hint.")
                           .arg(hintText("x", in.xnumel, hints->x), hintText("r", in.rnumel, hints->r0)));
  kernel_ = {};
  kernel_.size_hints = *hints;
  kernel_.persistent_reduction = in.persistent;
  kernel_.deterministic = in.deterministic;
  config_ = {};
  config_.xblock = in.xblock;
  config_.r0_block = in.rblock;
  config_.num_warps = in.num_warps;
  if (in.n_regs_known) config_.n_regs = in.n_regs;
  config_.n_spills = in.n_spills;
  config_.shared_bytes = in.shared_bytes;
  config_.origin = "input";
  if (auto e = validateConfig(config_, device_model_, in.profile)) {
    clearResults(q(e->message));
    return false;
  }
  return true;
}

bool RblockScalingView::decideEveryPolicy(const DecisionOptions& opts) {
  decisions_.clear();
  for (Policy p : boundPolicies()) {
    auto d = decide(p, config_, kernel_, device_model_, opts);
    if (!d) {
      clearResults(q(d.error()));
      return false;
    }
    decisions_.push_back(*d);
  }
  auto curves = boundCurves(config_, kernel_, device_model_, opts);
  if (!curves) {
    clearResults(q(curves.error()));
    return false;
  }
  curves_ = std::move(curves).value();
  return true;
}

void RblockScalingView::runCandidatePipeline(const RblockInputs& in, const DecisionOptions& opts,
                                             const ProfileInfo& info) {
  PipelineInput pin;
  pin.kernel = kernel_;
  pin.hint = in.hint;
  pin.policy = in.pipeline_policy;
  pin.options = opts;
  auto cands = reductionCandidates(kernel_.size_hints, in.hint, in.profile, pin.candidate_options);
  bool matched = false;
  if (cands) {
    for (const auto& c : *cands) {
      if (c.sameLaunchConfig(config_) && config_.n_regs) {
        pin.compiled.push_back(CompiledFacts{*config_.n_regs, in.n_spills, in.shared_bytes});
        matched = true;
      } else {
        pin.compiled.push_back(std::nullopt);
      }
    }
  }
  auto pipe = runPipeline(pin, device_model_);
  pipeline_ = pipe ? std::move(pipe).value() : Pipeline{};
  QString note = pipe ? q(pipeline_.order_note) : q(pipe.error());
  if (pipe && !in.persistent) {
    note += matched ? tr(" The config above is one of the candidates: its n_regs and n_spills are used for it; the "
                         "other candidates "
                         "are not compiled here (n_regs unknown).")
                    : tr(" The config above is not one of Inductor's candidates for these size hints and hint; no "
                         "candidate has "
                         "n_regs here.");
  }
  pipeline_note_->setText(note);
  loop_note_->setText(q(
      info.visits_added_configs
          ? std::string_view("Inductor's loop (current version) also visits the configs it has just added, but their "
                             "n_regs is not known until the kernels are loaded after the loop, so it skips them: each "
                             "original config is halved at most once.")
          : std::string_view("Inductor's loop (2023 version) walks only the original configs; the configs it adds are "
                             "never examined.")));
}

void RblockScalingView::recompute() {
  const RblockInputs in = inputs();
  if (!resolveDevice()) return;
  const ProfileInfo& info = profileInfo(in.profile);
  profile_text_->setText(q(info.statement));
  if (!readKernelAndConfig(in)) return;
  DecisionOptions opts;
  opts.profile = in.profile;
  opts.cc_gate = in.cc_gate;
  if (!decideEveryPolicy(opts)) return;
  runCandidatePipeline(in, opts, info);
  auto ch = keepHalvingChain(in.pipeline_policy, config_, kernel_, device_model_, opts);
  chain_ = ch ? std::move(ch).value() : std::vector<ChainStep>{};
  validation_->setVisible(false);
  showResults();
}

void RblockScalingView::showResults() {
  const Profile profile = decisions_.empty() ? Profile::kInductorCurrent : decisions_.front().profile;
  for (std::size_t i = 0; i < decisions_.size(); ++i) {
    const Decision& d = decisions_[i];
    setDecisionRow(decision_table_, static_cast<int>(i),
                   {q(policyKey(d.policy)), d.applies ? QString::number(d.bound_blocks_per_sm) : QStringLiteral("–"),
                    d.applies ? QString::number(d.capacity_blocks) : QStringLiteral("–"),
                    QString::number(d.total_blocks), q(outcomeName(d.outcome)), newBlockText(d), q(d.reason)},
                   outcomeColor(d.outcome));
  }

  QString html = QStringLiteral("<p><b>Total blocks</b> = ceil(size hint x / XBLOCK) = ceil(%1 / %2) = %3</p>")
                     .arg(kernel_.size_hints.x)
                     .arg(config_.xblock)
                     .arg(decisions_.empty() ? 0 : decisions_.front().total_blocks);
  for (const Decision& d : decisions_) {
    html += QStringLiteral("<p><b>%1</b><br>").arg(q(policyFormula(d.policy)).toHtmlEscaped());
    if (d.applies) html += tr("bound: %1<br>").arg(q(d.bound_arithmetic).toHtmlEscaped());
    html += q(d.reason).toHtmlEscaped() + QStringLiteral("</p>");
  }
  arithmetic_->setHtml(html);
  arithmetic_html_ = html;

  const int cur_regs = config_.n_regs ? *config_.n_regs : 0;
  int cur_bound = 0;
  if (cur_regs > 0 && static_cast<std::size_t>(cur_regs) <= curves_.points.size()) {
    cur_bound = curves_.points[static_cast<std::size_t>(cur_regs - 1)].new_bound;
  }
  plot_->setTitle(
      tr("Resident blocks per SM against registers per thread — num_warps %1 (%2 threads), %3 blocks on %4 SMs")
          .arg(config_.num_warps)
          .arg(config_.num_warps * device_model_.warpSize())
          .arg(curves_.total_blocks)
          .arg(device_model_.sm_count));
  plot_->setData(curves_, device_model_.sm_count, cur_regs, cur_bound);
  plot_->setExportSubtitle(decisions_.empty()
                               ? QString()
                               : QStringLiteral("%1 · %2, n_regs %3")
                                     .arg(q(device_model_.label), q(config_.str(decisions_.front().profile)),
                                          config_.n_regs ? QString::number(*config_.n_regs) : tr("unknown")));

  pipeline_table_->setRowCount(static_cast<int>(pipeline_.entries.size()));
  for (std::size_t i = 0; i < pipeline_.entries.size(); ++i) {
    const auto& e = pipeline_.entries[i];
    setDecisionRow(
        pipeline_table_, static_cast<int>(i),
        {QString::number(i + 1), e.added_by_scaling ? tr("added by scaling") : tr("candidate"), q(e.config.origin),
         q(e.config.str(profile)), e.config.n_regs ? QString::number(*e.config.n_regs) : QStringLiteral("?"),
         e.config.n_spills ? QString::number(*e.config.n_spills) : QStringLiteral("?"),
         q(outcomeName(e.decision.outcome)), q(candidateStateName(e.spill)), q(e.decision.reason)},
        outcomeColor(e.decision.outcome));
  }

  chain_table_->setRowCount(static_cast<int>(chain_.size()));
  for (std::size_t i = 0; i < chain_.size(); ++i) {
    const auto& s = chain_[i];
    setDecisionRow(
        chain_table_, static_cast<int>(i),
        {QString::number(i), q(s.config.str(profile)),
         s.config.n_regs ? QString::number(*s.config.n_regs) + (s.n_regs_assumed ? tr(" (assumed)") : QString())
                         : QStringLiteral("?"),
         s.decision.applies ? QString::number(s.decision.bound_blocks_per_sm) : QStringLiteral("–"),
         q(outcomeName(s.decision.outcome)), q(s.decision.reason)},
        outcomeColor(s.decision.outcome));
  }
  emit statusMessage(statusSummary());
  emit resultChanged();
}

std::vector<CsvExport> RblockScalingView::csvExports() const {
  std::vector<CsvExport> out;
  CsvTable decisions = decisionsToCsv(decisions_);
  decisions.meta.insert(decisions.meta.begin(), {"target", device_model_.label});
  decisions.meta.push_back(
      {"config", config_.str(decisions_.empty() ? Profile::kInductorCurrent : decisions_.front().profile)});
  decisions.meta.push_back({"registers_per_thread", config_.n_regs ? std::to_string(*config_.n_regs) : "unknown"});
  decisions.meta.push_back({"size_hint_x", std::to_string(kernel_.size_hints.x)});
  out.push_back({tr("Decision table"), QStringLiteral("rblock-decisions.csv"), decisions});
  CsvTable curves = curvesToCsv(curves_);
  curves.meta.insert(curves.meta.begin(), {"target", device_model_.label});
  out.push_back({tr("Bounds against registers per thread"), QStringLiteral("rblock-bounds.csv"), curves});
  CsvTable pipe = pipelineToCsv(pipeline_);
  pipe.meta.insert(pipe.meta.begin(), {"target", device_model_.label});
  out.push_back({tr("Candidate pipeline"), QStringLiteral("rblock-pipeline.csv"), pipe});
  return out;
}

std::vector<PlotController*> RblockScalingView::plotExports() const {
  return {plot_};
}

void RblockScalingView::saveSettings(QSettings& s) const {
  const RblockInputs in = inputs();
  s.setValue(QStringLiteral("device"), device_->currentKey());
  s.setValue(QStringLiteral("sms"), in.sm_override);
  s.setValue(QStringLiteral("xnumel"), static_cast<qlonglong>(in.xnumel));
  s.setValue(QStringLiteral("rnumel"), static_cast<qlonglong>(in.rnumel));
  s.setValue(QStringLiteral("xblock"), in.xblock);
  s.setValue(QStringLiteral("rblock"), in.rblock);
  s.setValue(QStringLiteral("num_warps"), in.num_warps);
  s.setValue(QStringLiteral("n_regs"), in.n_regs);
  s.setValue(QStringLiteral("n_regs_known"), in.n_regs_known);
  s.setValue(QStringLiteral("n_spills"), in.n_spills);
  s.setValue(QStringLiteral("shared_bytes"), static_cast<qlonglong>(in.shared_bytes));
  s.setValue(QStringLiteral("profile"), q(profileInfo(in.profile).key));
  s.setValue(QStringLiteral("cc_gate"), static_cast<int>(in.cc_gate));
  s.setValue(QStringLiteral("pipeline_policy"), q(policyKey(in.pipeline_policy)));
  s.setValue(QStringLiteral("hint"), q(reductionHintKey(in.hint)));
  s.setValue(QStringLiteral("persistent"), in.persistent);
  s.setValue(QStringLiteral("deterministic"), in.deterministic);
}

void RblockScalingView::restoreSettings(QSettings& s) {
  RblockInputs in = inputs();
  updating_ = true;
  if (s.contains(QStringLiteral("device"))) device_->setCurrentKey(s.value(QStringLiteral("device")).toString());
  updating_ = false;
  auto intOf = [&](const char* key, long long def) { return s.value(QLatin1String(key), def).toLongLong(); };
  in.sm_override = static_cast<int>(intOf("sms", 0));
  in.xnumel = intOf("xnumel", in.xnumel);
  in.rnumel = intOf("rnumel", in.rnumel);
  in.xblock = static_cast<int>(intOf("xblock", in.xblock));
  in.rblock = static_cast<int>(intOf("rblock", in.rblock));
  in.num_warps = static_cast<int>(intOf("num_warps", in.num_warps));
  in.n_regs = static_cast<int>(intOf("n_regs", in.n_regs));
  in.n_regs_known = s.value(QStringLiteral("n_regs_known"), in.n_regs_known).toBool();
  in.n_spills = static_cast<int>(intOf("n_spills", in.n_spills));
  in.shared_bytes = intOf("shared_bytes", in.shared_bytes);
  if (auto p = parseProfile(s.value(QStringLiteral("profile")).toString().toStdString())) in.profile = *p;
  const int gate = static_cast<int>(intOf("cc_gate", static_cast<int>(in.cc_gate)));
  if (gate >= 0 && gate <= 2) in.cc_gate = static_cast<CcGate>(gate);
  if (auto p = parsePolicy(s.value(QStringLiteral("pipeline_policy")).toString().toStdString()))
    in.pipeline_policy = *p;
  if (auto h = parseReductionHint(s.value(QStringLiteral("hint")).toString().toStdString())) in.hint = *h;
  in.persistent = s.value(QStringLiteral("persistent"), in.persistent).toBool();
  in.deterministic = s.value(QStringLiteral("deterministic"), in.deterministic).toBool();
  setInputs(in);
}

QString RblockScalingView::statusSummary() const {
  if (decisions_.empty()) return validation_->text();
  QString s = QStringLiteral("%1 · %2, n_regs %3")
                  .arg(q(device_model_.label), q(config_.str(decisions_.front().profile)),
                       config_.n_regs ? QString::number(*config_.n_regs) : tr("unknown"));
  for (const Decision& d : decisions_) {
    if (d.policy != Policy::kOld && d.policy != Policy::kNew) continue;
    s += QStringLiteral(" · %1: %2").arg(q(policyKey(d.policy)), q(outcomeName(d.outcome)));
    if (d.scales()) s += QStringLiteral(" (%1)").arg(newBlockText(d));
  }
  return s;
}

}  // namespace occx::ui

namespace occx::ui {
QString RblockScalingView::reportText() const {
  return arithmetic_html_;
}
}  // namespace occx::ui
