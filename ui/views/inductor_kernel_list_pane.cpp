#include "ui/views/inductor_kernel_list_pane.h"

#include <QApplication>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

#include "ui/models/inductor_run_actions.h"
#include "ui/models/inductor_run_models.h"

namespace occx::ui {

QString KernelNameDelegate::elided(const QString& text, const QFontMetrics& metrics, int rect_width,
                                   const QWidget* view) const {
  const QStyle* style = view != nullptr ? view->style() : QApplication::style();
  // The style's text margin on each side (QCommonStyle: the focus frame's margin + 1).
  const int margin = style->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
  const int room = rect_width - 2 * margin - 1;
  if (room <= 0) return text;
  return elideKernelName(text, model_->shownNames(), metrics, room);
}

QString KernelNameDelegate::shownText(const QModelIndex& index, int width, const QWidget* view) const {
  return elided(index.data(Qt::DisplayRole).toString(), view->fontMetrics(), width, view);
}

void KernelNameDelegate::initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const {
  QStyledItemDelegate::initStyleOption(option, index);
  option->text = elided(option->text, option->fontMetrics, option->rect.width(), option->widget);
}

InductorKernelListPane::InductorKernelListPane(QWidget* parent)
    : QWidget(parent), model_(new KernelListModel(this)), proxy_(new QSortFilterProxyModel(this)) {
  setObjectName(QStringLiteral("inductorKernelList"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  filter_ = new QLineEdit;
  filter_->setObjectName(QStringLiteral("kernelFilter"));
  filter_->setPlaceholderText(tr("Filter kernels (any column: name, kind, size hints…)"));
  filter_->setClearButtonEnabled(true);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(KernelListModel::kSortRole);
  proxy_->setFilterKeyColumn(-1);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  table_ = new QTableView;
  table_->setObjectName(QStringLiteral("kernelTable"));
  table_->setModel(proxy_);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setSortingEnabled(true);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setHighlightSections(false);
  table_->setWordWrap(false);
  table_->setMinimumWidth(280);
  table_->setTextElideMode(Qt::ElideMiddle);  // the kernel's number at the end stays in sight
  // Kernel names: elided keeping the ending that tells them apart (the whole name in the tooltip).
  table_->setItemDelegateForColumn(KernelListModel::kKernel, new KernelNameDelegate(model_, table_));
  table_->sortByColumn(KernelListModel::kKind, Qt::AscendingOrder);  // looped reductions first
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  table_->setColumnHidden(KernelListModel::kInStep, true);  // shown once a step trace is open
  // Filtering moves the table's current row to whatever row is left; the choice stays the user's:
  // selected again whenever the filter lets it through, hidden (none chosen) otherwise.
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    filtering_ = true;
    proxy_->setFilterFixedString(text);
    filtering_ = false;
    followFilter();
  });
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this](const QModelIndex& current) {
    if (!current.isValid() || filtering_) return;
    choose(proxy_->mapToSource(current).row());
  });
  v->addWidget(filter_);
  v->addWidget(table_, 1);
}

void InductorKernelListPane::followFilter() {
  filtering_ = true;
  const QModelIndex shown = chosen_ >= 0 ? proxy_->mapFromSource(model_->index(chosen_, 0)) : QModelIndex();
  if (shown.isValid()) {
    table_->selectionModel()->setCurrentIndex(shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    table_->scrollTo(shown);
  } else {
    table_->selectionModel()->clear();
  }
  filtering_ = false;
  const bool hidden = chosen_ >= 0 && !shown.isValid();
  if (hidden == hidden_) return;
  hidden_ = hidden;
  emit chosenHiddenChanged(hidden);
}

void InductorKernelListPane::setKernels(const std::vector<RunKernelEntry>& kernels, bool new_run) {
  if (new_run) {
    chosen_ = -1;
    hidden_ = false;
  }
  model_->setRows(kernels);
  if (!new_run) {
    followFilter();  // the rows were reset: the chosen one selected again (when the filter lets it through)
    return;
  }
  model_->setInStepTimes({});  // until the step is joined to this run (off the UI thread)
  table_->resizeColumnsToContents();
  table_->setColumnWidth(KernelListModel::kKernel, std::min(table_->columnWidth(KernelListModel::kKernel), 230));
}

bool InductorKernelListPane::selectKernel(int index) {
  if (index < 0 || index >= model_->numRows()) return false;
  QModelIndex row = proxy_->mapFromSource(model_->index(index, 0));
  if (!row.isValid()) {  // the filter hides it: the kernel asked for is shown, the filter cleared
    filter_->clear();
    row = proxy_->mapFromSource(model_->index(index, 0));
  }
  table_->selectionModel()->setCurrentIndex(row, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  table_->scrollTo(row);
  if (chosen_ != index) choose(index);
  return true;
}

void InductorKernelListPane::choose(int index) {
  chosen_ = index;
  hidden_ = false;  // a row the user (or selectKernel) chose is in sight
  emit kernelChosen(index);
}

const RunKernelEntry* InductorKernelListPane::chosenEntry() const {
  return hidden_ ? nullptr : model_->row(chosen_);
}

const RunKernelEntry* InductorKernelListPane::hiddenEntry() const {
  return hidden_ ? model_->row(chosen_) : nullptr;
}

void InductorKernelListPane::setInStepTimes(const step::StepProfile* profile) {
  model_->setInStepTimes(inStepTimesOf(profile));
  table_->setColumnHidden(KernelListModel::kInStep, profile == nullptr);
  if (profile != nullptr && !in_step_sorted_) {  // a new trace: the kernels that matter first
    in_step_sorted_ = true;
    QHeaderView* header = table_->horizontalHeader();
    header->moveSection(header->visualIndex(KernelListModel::kInStep), 0);  // in sight in a narrow list
    table_->resizeColumnToContents(KernelListModel::kInStep);
    table_->sortByColumn(KernelListModel::kInStep, Qt::DescendingOrder);
  }
}

QString InductorKernelListPane::filterText() const {
  return filter_->text();
}

void InductorKernelListPane::setFilterText(const QString& text) {
  filter_->setText(text);
}

}  // namespace occx::ui
