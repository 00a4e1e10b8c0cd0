#include "ui/views/inductor_config_pane.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/models/inductor_run_actions.h"
#include "ui/models/inductor_run_models.h"
#include "ui/models/inductor_run_text.h"
#include "ui/models/text.h"

namespace occx::ui {

namespace {

/// `text` as a positive count, else `fallback`.
std::int64_t numelOrHint(const std::string& text, std::int64_t fallback) {
  bool ok = false;
  const qlonglong v = q(text).toLongLong(&ok);
  return ok && v > 0 ? v : fallback;
}

}  // namespace

InductorConfigPane::InductorConfigPane(QWidget* parent) : QWidget(parent), model_(new RunConfigModel(this)) {
  setObjectName(QStringLiteral("inductorConfigs"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  title_ = new QLabel(tr("Select a kernel."));
  title_->setObjectName(QStringLiteral("kernelTitle"));
  title_->setToolTip(sizeHintsExplanation());
  title_->setWordWrap(true);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  table_ = new QTableView;
  table_->setObjectName(QStringLiteral("configTable"));
  table_->setModel(model_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setSortingEnabled(false);  // rows stay in the run's order, as the bars
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setHighlightSections(false);
  table_->setWordWrap(false);
  table_->setMinimumHeight(110);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (current.isValid()) setRow(current.row());
  });
  to_calculator_ = new QPushButton(tr("Open in calculator"));
  to_calculator_->setObjectName(QStringLiteral("toCalculatorButton"));
  to_calculator_->setToolTip(
      tr("The calculator with this config's block (num_warps × 32 threads), registers, shared memory and device"));
  to_rblock_ = new QPushButton(tr("Open in RBLOCK scaling"));
  to_rblock_->setObjectName(QStringLiteral("toRblockButton"));
  to_rblock_->setToolTip(tr("The RBLOCK-scaling view with this config, its real n_regs and its device"));
  connect(to_calculator_, &QPushButton::clicked, this, [this] {
    if (auto h = selectedHandOver()) emit openInCalculator(*h);
  });
  connect(to_rblock_, &QPushButton::clicked, this, [this] {
    if (auto h = selectedHandOver()) emit openInRblock(*h);
  });
  button_row_ = new QWidget(this);
  button_row_->setObjectName(QStringLiteral("configButtons"));
  buttons_ = new QHBoxLayout(button_row_);
  buttons_->setContentsMargins(0, 0, 0, 0);
  buttons_->addWidget(to_calculator_);
  buttons_->addWidget(to_rblock_);
  buttons_->addStretch(1);
  v->addWidget(title_);
  v->addWidget(table_, 1);
  v->addWidget(button_row_);
  updateButtons();
}

void InductorConfigPane::addToButtonRow(QWidget* widget) {
  buttons_->addWidget(widget);
}

void InductorConfigPane::showKernel(const InductorRunData& run, const RunKernelEntry* kernel,
                                    const QString& none_text) {
  row_ = -1;
  if (kernel == nullptr) {
    title_->setText(none_text.isEmpty() ? tr("Select a kernel.") : none_text);
    model_->clear();
  } else {
    title_->setText(kernelTitleHtml(*kernel));
    std::vector<triton::ScanRow> configs = compiledConfigsOf(*kernel);
    model_->setRows(configs);
    model_->setMeasured(measuredOfRows(run, configs));
    table_->resizeColumnsToContents();
  }
  updateButtons();
}

bool InductorConfigPane::selectConfig(int row) {
  if (row < 0 || row >= model_->numRows()) return false;
  table_->selectionModel()->setCurrentIndex(model_->index(row, 0),
                                            QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  if (row_ != row) setRow(row);
  return true;
}

void InductorConfigPane::setRow(int row) {
  row_ = row;
  updateButtons();
  emit configChanged();
}

void InductorConfigPane::updateButtons() {
  const triton::ScanRow* r = selectedConfig();
  to_calculator_->setEnabled(r != nullptr && r->n_regs.has_value() && !r->cc.empty());
  to_rblock_->setEnabled(r != nullptr && r->n_regs.has_value() && r->r0_block.has_value() && !r->cc.empty());
}

const triton::ScanRow* InductorConfigPane::selectedConfig() const {
  return model_->row(row_);
}

const std::vector<triton::ScanRow>& InductorConfigPane::configs() const {
  return model_->rows();
}

std::optional<ConfigHandOver> InductorConfigPane::selectedHandOver() const {
  const triton::ScanRow* r = selectedConfig();
  if (r == nullptr || !r->num_warps) return std::nullopt;
  ConfigHandOver h;
  if (auto cc = ComputeCapability::parse(r->cc)) h.cc = *cc;
  h.sm_count = static_cast<int>(r->sm_count.value_or(0));
  h.device_label = q(r->device);
  h.xblock = static_cast<int>(r->xblock.value_or(1));
  h.r0_block = static_cast<int>(r->r0_block.value_or(1));
  h.num_warps = static_cast<int>(*r->num_warps);
  h.n_regs = static_cast<int>(r->n_regs.value_or(0));
  h.n_spills = static_cast<int>(r->n_spills.value_or(0));
  h.shared_bytes = r->shared_bytes.value_or(0);
  auto inputs = decisionInputsOfRow(*r);
  h.xnumel = numelOrHint(r->xnumel, inputs ? inputs->second.size_hints.x : 1);
  h.rnumel = numelOrHint(r->r0_numel, inputs ? inputs->second.size_hints.r0 : 1);
  h.persistent = r->kind == triton::kernelKindName(triton::KernelKind::kPersistentReduction);
  h.reduction_hint = q(r->reduction_hint);
  return h;
}

}  // namespace occx::ui
