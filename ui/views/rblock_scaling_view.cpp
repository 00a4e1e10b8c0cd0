#include "ui/views/rblock_scaling_view.h"

#include <QSettings>
#include <QVBoxLayout>

#include "ui/plots/rblock_bounds_plot.h"

namespace occx::ui {

RblockScalingView::RblockScalingView(const ViewContext& context, QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("rblockScaling"));
  inputs_ = new RblockInputsPanel;
  results_ = new RblockResultsPane;
  auto* splitter = new QSplitter(Qt::Horizontal, this);
  splitter->setChildrenCollapsible(false);
  splitter->addWidget(inputScrollArea(inputs_, 390));
  splitter->addWidget(results_);
  splitter->setStretchFactor(0, 0);
  splitter->setStretchFactor(1, 1);
  splitter->setSizes({400, 1100});
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(splitter);
  context.followCurrentDevice(deviceSelector());
  connect(inputs_, &RblockInputsPanel::changed, this, &RblockScalingView::recompute);
  recompute();
}

RblockScalingView::~RblockScalingView() = default;

void RblockScalingView::setInputs(const RblockInputs& in) {
  inputs_->setInputs(in);
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
  DeviceSelector* device = deviceSelector();
  if (h.device_key.isEmpty() || !device->setCurrentKey(h.device_key)) {
    const QString key = device->keyFor(h.cc, h.sm_count);
    if (!key.isEmpty()) device->setCurrentKey(key);
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
  const int sms = device->currentTarget().sm_count;
  in.sm_override = h.sm_count > 0 && sms != h.sm_count ? h.sm_count : 0;
  setInputs(in);
}

void RblockScalingView::recompute() {
  const DeviceTarget& target = deviceSelector()->currentTarget();
  result_ = decideRblockScaling(inputs(), *target.arch, target.gpu != nullptr ? target.gpu->name : std::string(),
                                inputs_->smCount());
  if (result_.device) {
    device_model_ = *result_.device;
    inputs_->showDevice(result_.device_info, device_model_.arch.shared_memory_per_block_optin);
    inputs_->showProfileStatement(result_.profile_statement);
  }
  if (!result_.size_hints.isEmpty()) inputs_->showSizeHints(result_.size_hints);
  inputs_->showValidation(result_.error);
  if (result_.error.isEmpty()) {
    results_->showResult(result_);
  } else {
    results_->clear(result_.error, device_model_.sm_count);
  }
  emit statusMessage(statusSummary());
  emit resultChanged();
}

std::vector<CsvExport> RblockScalingView::csvExports() const {
  RblockResult shown = result_;
  if (!shown.device) shown.device = device_model_;  // the target named is the last device decided on
  RblockCsv csv = rblockCsv(shown);
  return {{tr("Decision table"), QStringLiteral("rblock-decisions.csv"), std::move(csv.decisions)},
          {tr("Bounds against registers per thread"), QStringLiteral("rblock-bounds.csv"), std::move(csv.curves)},
          {tr("Candidate pipeline"), QStringLiteral("rblock-pipeline.csv"), std::move(csv.pipeline)}};
}

std::vector<PlotController*> RblockScalingView::plotExports() const {
  return {boundsPlot()};
}

void RblockScalingView::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("device"), deviceSelector()->currentKey());
  saveRblockInputs(s, inputs());
}

void RblockScalingView::restoreSettings(QSettings& s) {
  const RblockInputs current = inputs();
  if (s.contains(QStringLiteral("device"))) inputs_->selectDevice(s.value(QStringLiteral("device")).toString());
  setInputs(readRblockInputs(s, current));
}

QString RblockScalingView::statusSummary() const {
  return rblockSummary(result_);
}

QString RblockScalingView::reportText() const {
  return results_->arithmeticHtml();
}

}  // namespace occx::ui
