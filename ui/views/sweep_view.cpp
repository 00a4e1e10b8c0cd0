#include "ui/views/sweep_view.h"

#include <QBoxLayout>
#include <QComboBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTimer>
#include <algorithm>

#include "ui/jobs/job.h"
#include "ui/views/sweep_inputs.h"

namespace occx::ui {

SweepView::SweepView(QWidget* parent, const QString& object_name, int plot_delay_ms) : QWidget(parent) {
  setObjectName(object_name);
  plot_timer_ = new QTimer(this);
  plot_timer_->setSingleShot(true);
  plot_timer_->setInterval(plot_delay_ms);
  connect(plot_timer_, &QTimer::timeout, this, [this] { rebuildPlots(); });
}

void SweepView::setJob(Job* job) {
  sweep_job_ = job;
  connect(sweep_job_, &Job::runningChanged, this, [this](bool running) {
    cancel_button_->setEnabled(running);
    onRunningChanged(running);
    if (!running && !running_summary_.isEmpty()) {  // ended without a result to show
      running_summary_.clear();
      emit statusMessage(statusSummary());
    }
  });
}

void SweepView::deleteJob() {
  delete sweep_job_;
  sweep_job_ = nullptr;
}

void SweepView::layOut(QWidget* controls, int min_width, int max_width, QWidget* results, QWidget* footer) {
  const int hint = controls->minimumSizeHint().width() + 24;
  auto* scroll = inputScrollArea(controls, std::max(min_width, hint), std::max(max_width, hint), footer);
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(4, 4, 4, 4);
  layout->addWidget(scroll, 0);
  layout->addWidget(results, 1);
}

QWidget* SweepView::makeControlsColumn(QVBoxLayout*& layout) {
  auto* column = new QWidget;
  layout = new QVBoxLayout(column);
  layout->setContentsMargins(0, 0, 4, 0);
  return column;
}

void SweepView::setNoticeStyle(QLabel* label) {
  label->setWordWrap(true);
  label->setStyleSheet(QStringLiteral(
      "QLabel { color: #7a4b00; background: #fff4e0; border: 1px solid #e8c58a; border-radius: 3px; padding: 4px; }"));
}

void SweepView::makeInputs(QWidget* parent) {
  inputs_ = new SweepInputs(parent);
}

void SweepView::makeCancelButton(QWidget* parent) {
  cancel_button_ = new QPushButton(tr("Cancel"), parent);
  cancel_button_->setObjectName(QStringLiteral("cancelButton"));
  cancel_button_->setEnabled(false);
}

void SweepView::makeOpenCsvButton(QWidget* parent, const QString& tooltip, const QString& caption) {
  open_button_ = new QPushButton(tr("Open CSV…"), parent);
  open_button_->setObjectName(QStringLiteral("openCsvButton"));
  open_button_->setToolTip(tooltip);
  connect(open_button_, &QPushButton::clicked, this, [this, caption] { openCsvInteractive(caption); });
}

void SweepView::makeProgressBar(QWidget* parent, const QString& object_name) {
  progress_ = new QProgressBar(parent);
  progress_->setObjectName(object_name);
  progress_->setRange(0, 1);
  progress_->setValue(0);
}

void SweepView::makeStatusLabel(QWidget* parent, const QString& object_name) {
  status_ = new QLabel(parent);
  status_->setObjectName(object_name);
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
}

void SweepView::makeDatasetLabel(QWidget* parent, int larger_by) {
  dataset_label_ = new QLabel(parent);
  dataset_label_->setObjectName(QStringLiteral("datasetLabel"));
  dataset_label_->setWordWrap(true);
  QFont bold = dataset_label_->font();
  bold.setBold(true);
  if (larger_by != 0) bold.setPointSize(bold.pointSize() + larger_by);
  dataset_label_->setFont(bold);
}

void SweepView::addXBlockFilter(QWidget* parent, QBoxLayout* header, Qt::Alignment alignment) {
  header->addWidget(new QLabel(tr("Plot XBLOCK:"), parent), 0, alignment);
  xblock_filter_ = new QComboBox(parent);
  xblock_filter_->setObjectName(QStringLiteral("plotXBlock"));
  xblock_filter_->setToolTip(tr("The plots show the configs with this XBLOCK"));
  header->addWidget(xblock_filter_, 0, alignment);
  connect(xblock_filter_, &QComboBox::currentIndexChanged, this, [this] {
    if (!updating_) rebuildPlots();
  });
}

void SweepView::makeTable(QAbstractItemModel* model, int sort_role, const QString& object_name, QWidget* parent) {
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model);
  proxy_->setSortRole(sort_role);
  table_ = new QTableView(parent);
  table_->setObjectName(object_name);
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setAlternatingRowColors(true);
}

void SweepView::refreshXBlockFilter(const std::set<int>& xblocks) {
  const int keep = plotXBlock();
  updating_ = true;
  xblock_filter_->clear();
  for (int x : xblocks) xblock_filter_->addItem(QString::number(x), x);
  const int idx = xblock_filter_->findData(keep);
  xblock_filter_->setCurrentIndex(idx < 0 ? 0 : idx);
  updating_ = false;
  xblock_filter_->setEnabled(xblocks.size() > 1);
}

bool SweepView::setPlotXBlock(int xblock) {
  const int idx = xblock_filter_->findData(xblock);
  if (idx < 0) return false;
  updating_ = true;
  xblock_filter_->setCurrentIndex(idx);
  updating_ = false;
  rebuildPlots();
  return true;
}

int SweepView::plotXBlock() const {
  return xblock_filter_->currentIndex() >= 0 ? xblock_filter_->currentData().toInt() : 1;
}

bool SweepView::isRunning() const {
  return sweep_job_ != nullptr && sweep_job_->isRunning();
}

void SweepView::schedulePlots() {
  if (!plot_timer_->isActive()) plot_timer_->start();
}

QString SweepView::xblockSuffix(bool shown) const {
  return shown ? tr(" (XBLOCK = %1)").arg(plotXBlock()) : QString();
}

void SweepView::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setToolTip(QString());
  status_->setStyleSheet(error ? QStringLiteral("color: #8b0000;") : QString());
}

void SweepView::setProgress(qulonglong done, qulonglong total) {
  progress_->setRange(0, static_cast<int>(std::max<qulonglong>(total, 1)));
  progress_->setValue(static_cast<int>(done));
}

void SweepView::cancelJob(const QString& message) {
  if (!isRunning()) return;
  sweep_job_->cancel();
  setStatus(message);
}

void SweepView::dropRunningJob() {
  if (!isRunning()) return;
  running_summary_.clear();
  sweep_job_->discard();
}

void SweepView::showFailure(const QString& status, const QString& message) {
  running_summary_.clear();
  setStatus(status, true);
  dataset_label_->setText(tr("No data: %1").arg(message));
  emit statusMessage(statusSummary());
}

int SweepView::selectedSourceRow() const {
  const auto rows = table_->selectionModel()->selectedRows();
  return rows.isEmpty() ? -1 : proxy_->mapToSource(rows.front()).row();
}

bool SweepView::selectSourceRow(int row) {
  if (row < 0 || row >= proxy_->sourceModel()->rowCount()) return false;
  // The row's leftmost shown column: scrolling to it keeps the table scrolled to its left edge.
  const int first = table_->horizontalHeader()->logicalIndex(0);
  const QModelIndex pi = proxy_->mapFromSource(proxy_->sourceModel()->index(row, std::max(first, 0)));
  table_->selectionModel()->select(pi, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  table_->selectionModel()->setCurrentIndex(pi, QItemSelectionModel::NoUpdate);
  table_->scrollTo(pi);
  return true;
}

void SweepView::followSelection(int xblock) {
  if (xblock > 0 && xblock != plotXBlock() && setPlotXBlock(xblock)) return;
  rebuildPlots();
}

void SweepView::saveInputs(QSettings& settings) const {
  settings.beginGroup(QStringLiteral("inputs"));
  inputs_->saveSettings(settings);
  settings.endGroup();
}

void SweepView::restoreInputs(QSettings& settings) {
  settings.beginGroup(QStringLiteral("inputs"));
  inputs_->restoreSettings(settings);
  settings.endGroup();
}

QString SweepView::askCsvPath(const QString& caption) {
  // The folder of the last file opened, in this view's settings group.
  if (choose_path_) return choose_path_(caption);
  const QString key = QStringLiteral("views/%1/lastCsvFolder").arg(objectName());
  const QString folder = QSettings().value(key).toString();
  QString path = QFileDialog::getOpenFileName(this, caption, folder, tr("CSV files (*.csv);;All files (*)"));
  if (!path.isEmpty()) QSettings().setValue(key, QFileInfo(path).absolutePath());
  return path;
}

void SweepView::openCsvInteractive(const QString& caption) {
  const QString path = askCsvPath(caption);
  if (path.isEmpty()) return;
  if (const QString error = openCsvFile(path); error.isEmpty()) {
    emit pathOpened(path);
  } else {
    emit fileError(error);
  }
}

}  // namespace occx::ui
