#include "ui/views/step_pane.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QRegularExpression>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "core/base/format.h"
#include "core/triton/sweep_cache.h"
#include "ui/jobs/model_sweep_job.h"
#include "ui/models/inductor_run_actions.h"
#include "ui/models/model_sweep_model.h"
#include "ui/models/step_kernel_model.h"
#include "ui/models/text.h"
#include "ui/plots/step_pareto_plot.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/elided_label.h"

namespace occx::ui {

namespace {

/// `text` with long Triton kernel names shortened in the middle, for the screen (the tables and the
/// report have them whole).
QString shortenKernelNames(const QString& text) {
  static const QRegularExpression kLongName(QStringLiteral("\\btriton_\\w{50,}"));
  QString shown = text;
  for (auto it = kLongName.globalMatch(text); it.hasNext();) {
    const QString name = it.next().captured();
    shown.replace(name, name.left(36) + QStringLiteral("…") + name.right(14));
  }
  return shown;
}

/// `text` as HTML, one paragraph a line, long kernel names shortened.
QString stepParagraphsHtml(const QString& text) {
  QString html;
  for (const QString& line : text.split(QLatin1Char('\n'))) {
    html += QStringLiteral("<p style=\"margin:0 0 4px 0\">") + shortenKernelNames(line).toHtmlEscaped() +
            QStringLiteral("</p>");
  }
  return html;
}

}  // namespace

StepPane::StepPane(QWidget* parent)
    : QWidget(parent), job_(new TraceReadJob(this)), sweep_job_(new ModelSweepJob(this)) {
  setObjectName(QStringLiteral("stepPane"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(4, 4, 4, 4);
  v->addLayout(buildTopRow());
  v->addWidget(status_);
  // The step over the sweep of its reductions; the sweep takes room once it has a result.
  outer_split_ = new QSplitter(Qt::Vertical);
  outer_split_->setObjectName(QStringLiteral("stepSweepSplitter"));
  outer_split_->setChildrenCollapsible(false);
  outer_split_->addWidget(buildResults());
  outer_split_->addWidget(buildModelSweep());
  outer_split_->setStretchFactor(0, 3);
  outer_split_->setStretchFactor(1, 2);
  v->addWidget(outer_split_, 1);
  connectJob();
  connectModelSweep();
  updateModelSweepButtons();
}

// The open buttons, the step count of an unannotated trace, progress and Cancel; and the status line.
QHBoxLayout* StepPane::buildTopRow() {
  auto* row = new QHBoxLayout;
  open_ = new QPushButton(tr("Open profiler trace…"));
  open_->setObjectName(QStringLiteral("openTraceButton"));
  open_->setToolTip(
      tr("A trace of your training step from torch.profiler: prof.export_chrome_trace(path) or "
         "tensorboard_trace_handler(dir) (*.pt.trace.json, plain or .gz). Record it in the process that compiled "
         "the run shown, so its kernels are the run's."));
  connect(open_, &QPushButton::clicked, this, &StepPane::openInteractive);
  bundled_ = new QPushButton(tr("Bundled trace of this step"));
  bundled_->setObjectName(QStringLiteral("bundledTraceButton"));
  bundled_->setToolTip(
      tr("A torch.profiler trace of this model's training step, recorded on the H200 with a second "
         "compile of the same model (PyTorch 2.11, Triton 3.6): its kernels are the bundled run's by "
         "name, and mostly by module"));
  bundled_->setVisible(false);
  open_tip_ = open_->toolTip();
  bundled_tip_ = bundled_->toolTip();
  connect(bundled_, &QPushButton::clicked, this, [this] { openTrace(bundled_path_); });
  auto* steps = new CheckedSpinBox;  // takes the wheel only with focus, says why it refuses text
  steps->setQuantity(tr("Steps in the trace"));
  steps_ = steps;
  steps_->setObjectName(QStringLiteral("traceStepsBox"));
  steps_->setRange(1, 1000000);
  steps_->setValue(1);
  steps_->setToolTip(
      tr("Steps in the trace when it has no ProfilerStep annotations (prof.step() was not called): "
         "the per-step figures divide the whole trace by it"));
  // The count divides a trace without annotations: such a trace is read again with the new count.
  connect(steps_, &QSpinBox::editingFinished, this, [this] {
    if (result_ && !result_->trace->annotated_steps && result_->trace->step_count != steps_->value() &&
        !trace_path_.isEmpty()) {
      openTrace(trace_path_);
    }
  });
  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("traceProgress"));
  progress_->setMaximumWidth(180);
  progress_->setVisible(false);
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setObjectName(QStringLiteral("cancelTraceButton"));
  cancel_->setVisible(false);
  connect(cancel_, &QPushButton::clicked, this, &StepPane::cancel);
  status_ = new QLabel(tr("No trace open: the step's GPU time by kernel appears here."));
  status_->setObjectName(QStringLiteral("traceStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  row->addWidget(open_);
  row->addWidget(bundled_);
  row->addWidget(new QLabel(tr("Steps if unannotated:")));
  row->addWidget(steps_);
  row->addWidget(progress_);
  row->addWidget(cancel_);
  row->addStretch(1);
  return row;
}

// Left: the step in words over the table; right: the chart, full height.
QSplitter* StepPane::buildResults() {
  words_ = new QTextBrowser;
  words_->setObjectName(QStringLiteral("stepWords"));
  words_->setOpenLinks(false);
  words_->setFrameShape(QFrame::NoFrame);
  words_->setMinimumHeight(60);
  words_->setHtml(
      tr("<p>Record your step with torch.profiler — <tt>with torch.profiler.profile(schedule=…, "
         "on_trace_ready=torch.profiler.tensorboard_trace_handler(dir)) as p: … p.step()</tt> — then open the "
         "trace: the step's GPU time by kind, every kernel ranked by its in-step time, and for the run's Triton "
         "kernels the config they ran with and each bound's decision.</p>"));
  split_ = new QSplitter(Qt::Horizontal);
  split_->setObjectName(QStringLiteral("stepSplitter"));
  split_->setChildrenCollapsible(false);
  auto* left = new QSplitter(Qt::Vertical);
  left->setObjectName(QStringLiteral("stepLeftSplitter"));
  left->setChildrenCollapsible(false);
  plot_ = new StepParetoPlot(split_);
  plot_->widget()->setMinimumSize(280, 180);
  model_ = new StepKernelModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(StepKernelModel::kSortRole);
  table_ = new QTableView;
  table_->setObjectName(QStringLiteral("stepTable"));
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(StepKernelModel::kRank, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setTextElideMode(Qt::ElideMiddle);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  table_->setMinimumSize(220, 80);
  connect(table_, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
    const StepKernelRow* r = model_->row(proxy_->mapToSource(index).row());
    if (r != nullptr && !r->kernel.module.empty()) {
      emit kernelActivated(QString::fromStdString(r->kernel.name), QString::fromStdString(r->kernel.module));
    }
  });
  left->addWidget(words_);
  left->addWidget(table_);
  left->setStretchFactor(0, 2);
  left->setStretchFactor(1, 3);
  split_->addWidget(left);
  split_->addWidget(plot_->widget());
  split_->setStretchFactor(0, 1);
  split_->setStretchFactor(1, 1);
  split_->setSizes({420, 580});
  left->setSizes({120, 180});
  return split_;
}

void StepPane::connectJob() {
  // The job delivers its latest request only: every request here is the one wanted.
  connect(job_, &TraceReadJob::progress, this, [this](quint64, qint64 done, qint64 total) {
    progress_->setRange(0, 1000);
    progress_->setValue(total > 0 ? static_cast<int>(1000 * done / total) : 0);
    setStatus(tr("Reading %1: %2 of %3 MB")
                  .arg(QFileInfo(pending_path_).fileName())
                  .arg(static_cast<double>(done) / (1 << 20), 0, 'f', 0)
                  .arg(static_cast<double>(total) / (1 << 20), 0, 'f', 0),
              false);
  });
  connect(job_, &TraceReadJob::finished, this,
          [this](quint64, const std::shared_ptr<const StepResult>& result) { onTraceRead(result); });
  connect(job_, &TraceReadJob::failed, this, [this](quint64, const QString& message) {
    setStatus(message, true);
    if (!pending_path_.isEmpty()) emit traceNotOpened(message);  // a trace being opened, not one re-joined
  });
  connect(job_, &TraceReadJob::cancelled, this,
          [this](quint64) { setStatus(tr("Reading the trace was cancelled; the step shown before stays."), false); });
  connect(job_, &Job::runningChanged, this, [this](bool running) {
    progress_->setVisible(running);
    cancel_->setVisible(running);
    if (running) progress_->setRange(0, 0);
    updateModelSweepButtons();  // no sweep while the trace is read or joined
  });
}

void StepPane::onTraceRead(const std::shared_ptr<const StepResult>& result) {
  const bool opened = !pending_path_.isEmpty();  // a new trace, not the same one joined to another run
  if (opened) clearModelSweep();                 // the sweep was the step of the trace before
  result_ = result;
  if (opened) trace_path_ = pending_path_;
  pending_path_.clear();
  show(*result_);
  const step::ProfilerTrace& trace = *result_->trace;
  QString text = tr("%1: %2 GPU activities in %3 %4")
                     .arg(QDir::toNativeSeparators(trace_path_))
                     .arg(trace.activities.size())
                     .arg(trace.step_count)
                     .arg(trace.annotated_steps ? tr("annotated steps") : tr("steps (unannotated)"));
  if (!trace.device_name.empty()) text += tr(" · %1").arg(QString::fromStdString(trace.device_name));
  if (!trace.problems.empty()) {
    text += tr(" · %1").arg(QString::fromStdString(trace.problems.front()));
    setStatus(text, true);
  } else {
    setStatus(text, false);
  }
  if (opened) emit traceOpened(trace_path_);
}

StepPane::~StepPane() = default;

QString StepPane::openTrace(const QString& path) {
  if (isSweepingModel()) {
    // The sweep's kernels are this trace's: another trace would swap the step under it.
    QString message = tr("A sweep of the step is under way: cancel it before opening another trace.");
    setStatus(message, true);
    return message;
  }
  const QFileInfo info(path);
  if (!path.startsWith(QLatin1String(":/")) && !info.isFile()) {
    QString message = info.exists() ? tr("%1 is not a file.").arg(QDir::toNativeSeparators(path))
                                    : tr("%1 does not exist.").arg(QDir::toNativeSeparators(path));
    setStatus(message, true);
    return message;
  }
  pending_path_ = path;
  job_->start(path, steps_->value(), rows_, run_input_);
  setStatus(tr("Reading %1…").arg(QDir::toNativeSeparators(path)), false);
  return {};
}

void StepPane::cancel() {
  job_->cancel();
}

void StepPane::setBundledTrace(const QString& path) {
  bundled_path_ = path;
  bundled_->setVisible(!path.isEmpty());
}

bool StepPane::isReading() const {
  return job_->isRunning();
}

void StepPane::setRun(std::vector<triton::ScanRow> rows, const QString& input,
                      std::shared_ptr<const triton::InductorRun> scanned) {
  rows_ = std::make_shared<const std::vector<triton::ScanRow>>(std::move(rows));
  run_input_ = input;
  scanned_ = std::move(scanned);
  sweep_targets_ = 0;     // planned again when the step is joined to this run (show())
  sweep_job_->discard();  // its kernels were the run's before
  clearModelSweep();
  if (job_->isRunning() && !pending_path_.isEmpty()) {
    job_->start(pending_path_, steps_->value(), rows_, run_input_);  // a read under way: for this run
  } else if (result_) {
    pending_path_.clear();
    job_->rejoin(result_->trace, rows_, run_input_);  // cancels a rejoin to the run before
  }
  updateModelSweepButtons();
}

void StepPane::show(const StepResult& result) {
  const step::StepProfile& profile = result.profile;
  model_->setRows(stepKernelRows(profile, result.run()));
  table_->resizeColumnsToContents();
  table_->setColumnWidth(StepKernelModel::kKernel, std::min(table_->columnWidth(StepKernelModel::kKernel), 260));
  plot_->setKernels(model_->rows(), profile.gpu_time_per_step_us);
  words_text_ = QString::fromStdString(step::stepText(profile, result.run())).trimmed();
  // On screen, one paragraph per line, long kernel names shortened in the middle (the table and the
  // report have them whole).
  words_->setHtml(stepParagraphsHtml(words_text_));
  // What the Sweep button would sweep, planned once per step and run shown (sweepModel plans again
  // with the section's kernel count).
  sweep_targets_ =
      result.rows && scanned_ ? step::planModelSweep(profile, *scanned_, *result.rows, 0).targets.size() : 0;
  updateModelSweepButtons();
  emit profileChanged();
}

void StepPane::openInteractive() {
  const QString path = QFileDialog::getOpenFileName(
      this, tr("Open profiler trace"), QString(),
      tr("torch.profiler traces (*.json *.json.gz *.pt.trace.json *.pt.trace.json.gz);;All files (*)"));
  if (path.isEmpty()) return;
  if (const QString error = openTrace(path); !error.isEmpty()) emit traceNotOpened(error);
}

void StepPane::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #a00000;") : QString());
}

// ---- the sweep of the step's reductions ----------------------------------------------------------

// The Sweep button, the budget and the kernel count, Cancel and the status; the progress of the
// kernel under way and of the kernels; the result's table over its words (shown once there is one).
// The sweep's first row: Sweep, the budget, at most N kernels, Cancel, the status, the step's toggle.
QHBoxLayout* StepPane::buildModelSweepControls() {
  auto* row = new QHBoxLayout;
  sweep_button_ = new QPushButton(tr("Sweep"));
  sweep_button_->setObjectName(QStringLiteral("modelSweepButton"));
  connect(sweep_button_, &QPushButton::clicked, this, &StepPane::modelSweepRequested);
  auto* budget = new CheckedSpinBox;
  budget->setQuantity(tr("Time budget"));
  budget_ = budget;
  budget_->setObjectName(QStringLiteral("modelSweepBudgetBox"));
  budget_->setRange(0, 7 * 24 * 60);
  budget_->setValue(5);
  budget_->setSuffix(tr(" min"));
  budget_->setSpecialValueText(tr("none"));
  budget_->setToolTip(
      tr("No kernel is started after this much wall time (the one under way finishes; those left are listed as "
         "not swept); 0: no budget"));
  auto* top = new CheckedSpinBox;
  top->setQuantity(tr("Kernels to sweep"));
  top_ = top;
  top_->setObjectName(QStringLiteral("modelSweepTopBox"));
  top_->setRange(0, 10000);
  top_->setValue(0);
  top_->setSpecialValueText(tr("all"));
  top_->setToolTip(tr("Sweep at most this many kernels, longest in-step time first; 0: all"));
  sweep_cancel_ = new QPushButton(tr("Cancel"));
  sweep_cancel_->setObjectName(QStringLiteral("cancelModelSweepButton"));
  sweep_cancel_->setToolTip(tr("Stop the sweep: the kernels that finished stay in the table, and the gain is theirs"));
  sweep_cancel_->setVisible(false);
  connect(sweep_cancel_, &QPushButton::clicked, this, &StepPane::cancelModelSweep);
  sweep_status_ = new ElidedLabel;
  sweep_status_->setObjectName(QStringLiteral("modelSweepStatus"));
  row->addWidget(sweep_button_);
  row->addWidget(new QLabel(tr("Budget:")));
  row->addWidget(budget_);
  row->addWidget(new QLabel(tr("At most:")));
  row->addWidget(top_);
  row->addWidget(new QLabel(tr("kernels")));
  row->addWidget(sweep_cancel_);
  row->addWidget(sweep_status_, 1);
  // On a short screen the result takes the step's room: one click gives it back.
  step_toggle_ = new QPushButton(tr("Hide the step"));
  step_toggle_->setObjectName(QStringLiteral("stepToggleButton"));
  step_toggle_->setCheckable(true);
  step_toggle_->setToolTip(tr("Hide the step's words, table and chart above, to give the sweep's result the room"));
  step_toggle_->setVisible(false);
  connect(step_toggle_, &QPushButton::toggled, this, &StepPane::hideStepForSweep);
  row->addWidget(step_toggle_);
  return row;
}

// The sweep's progress row: the kernel under way, its line, the kernels finished (hidden until a sweep).
QWidget* StepPane::buildModelSweepProgress() {
  sweep_progress_row_ = new QWidget;
  auto* p = new QHBoxLayout(sweep_progress_row_);
  p->setContentsMargins(0, 0, 0, 0);
  kernel_progress_ = new QProgressBar;
  kernel_progress_->setObjectName(QStringLiteral("modelSweepKernelProgress"));
  kernel_progress_->setMaximumWidth(160);
  kernel_progress_->setToolTip(tr("The kernel under way: its configs compiled, or timed"));
  sweep_line_ = new ElidedLabel;
  sweep_line_->setObjectName(QStringLiteral("modelSweepLine"));
  overall_progress_ = new QProgressBar;
  overall_progress_->setObjectName(QStringLiteral("modelSweepOverallProgress"));
  overall_progress_->setMaximumWidth(200);
  overall_progress_->setFormat(tr("%v/%m kernels"));
  overall_progress_->setToolTip(tr("Kernels of the sweep finished"));
  p->addWidget(kernel_progress_);
  p->addWidget(sweep_line_, 1);
  p->addWidget(overall_progress_);
  sweep_progress_row_->setVisible(false);
  return sweep_progress_row_;
}

QGroupBox* StepPane::buildModelSweep() {
  sweep_box_ = new QGroupBox(tr("Sweep the reductions that matter"));
  sweep_box_->setObjectName(QStringLiteral("modelSweepSection"));
  auto* v = new QVBoxLayout(sweep_box_);
  v->setContentsMargins(6, 4, 6, 4);
  v->setSpacing(4);
  v->addLayout(buildModelSweepControls());
  v->addWidget(buildModelSweepProgress());

  sweep_model_ = new ModelSweepModel(this);
  sweep_proxy_ = new QSortFilterProxyModel(this);
  sweep_proxy_->setSourceModel(sweep_model_);
  sweep_proxy_->setSortRole(ModelSweepModel::kSortRole);
  sweep_table_ = new QTableView;
  sweep_table_->setObjectName(QStringLiteral("modelSweepTable"));
  sweep_table_->setModel(sweep_proxy_);
  sweep_table_->setSortingEnabled(true);
  sweep_table_->sortByColumn(ModelSweepModel::kRank, Qt::AscendingOrder);
  sweep_table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  sweep_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  sweep_table_->setTextElideMode(Qt::ElideMiddle);
  sweep_table_->verticalHeader()->setVisible(false);
  sweep_table_->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
  sweep_table_->setMinimumHeight(60);
  sweep_words_ = new QTextBrowser;
  sweep_words_->setObjectName(QStringLiteral("modelSweepWords"));
  sweep_words_->setOpenLinks(false);
  sweep_words_->setFrameShape(QFrame::NoFrame);
  sweep_words_->setMinimumHeight(40);
  sweep_results_ = new QSplitter(Qt::Vertical);
  sweep_results_->setObjectName(QStringLiteral("modelSweepResults"));
  sweep_results_->setChildrenCollapsible(false);
  sweep_results_->addWidget(sweep_table_);
  sweep_results_->addWidget(sweep_words_);
  sweep_results_->setStretchFactor(0, 3);
  sweep_results_->setStretchFactor(1, 2);
  v->addWidget(sweep_results_, 1);
  clearModelSweep();
  return sweep_box_;
}

void StepPane::connectModelSweep() {
  // The job delivers its latest request only, and nothing of one discarded (a new run).
  connect(sweep_job_, &ModelSweepJob::progress, this,
          [this](quint64, const step::ModelSweepProgress& p) { showModelSweepProgress(p); });
  connect(sweep_job_, &ModelSweepJob::finished, this,
          [this](quint64, const std::shared_ptr<const step::ModelSweepResult>& result) {
            showModelSweep(result);
            emit modelSweepFinished();
          });
  connect(sweep_job_, &ModelSweepJob::failed, this, [this](quint64, const QString& message) {
    setModelSweepStatus(tr("Could not sweep the step: %1").arg(message), true);
    emit modelSweepFinished();
  });
  connect(sweep_job_, &Job::runningChanged, this, [this](bool running) {
    sweep_progress_row_->setVisible(running);
    sweep_cancel_->setVisible(running);
    fitModelSweepSection();
    updateModelSweepButtons();
  });
}

void StepPane::setBackend(std::shared_ptr<Backend> backend, int ordinal) {
  backend_ = std::move(backend);
  ordinal_ = ordinal;
}

QString StepPane::modelSweepUnavailable() const {
  if (job_->isRunning()) return tr("The trace is being read or joined to the run: wait for it.");
  return modelSweepUnavailableReason(profile(), scanned_.get(), sweep_targets_);
}

QString StepPane::sweepModel(const QString& python) {
  if (isSweepingModel()) {
    QString message = tr("A sweep of the step is under way: cancel it first.");
    setModelSweepStatus(message, true);
    return message;
  }
  if (QString why = modelSweepUnavailable(); !why.isEmpty()) {
    setModelSweepStatus(why, true);
    return why;
  }
  step::ModelSweepPlan plan = step::planModelSweep(result_->profile, *scanned_, *result_->rows, top_->value());
  const int kernels = static_cast<int>(plan.targets.size());
  std::shared_ptr<Backend> gpu;
  if (backend_ && backend_->liveAvailability().available) gpu = backend_;
  clearModelSweep();
  kernel_progress_->setRange(0, 0);
  overall_progress_->setRange(0, std::max(kernels, 1));
  overall_progress_->setValue(0);
  sweep_line_->setFullText(tr("Starting: %1…").arg(kernelCountText(kernels)));
  sweep_job_->start(gpu, ordinal_, scanned_, std::move(plan), modelSweepOptionsOf(python, budget_->value(), nullptr),
                    triton::SweepCache::defaultDir());
  setModelSweepStatus(
      gpu ? tr("Sweeping %1 of the step: compiled with Triton, timed on the GPU…").arg(kernelCountText(kernels))
          : tr("Sweeping %1 of the step: compiled with Triton and analysed, not timed (no GPU: no gain "
               "is predicted)…")
                .arg(kernelCountText(kernels)),
      false);
  return {};
}

void StepPane::cancelModelSweep() {
  sweep_job_->cancel();
  if (sweep_job_->isRunning()) setModelSweepStatus(tr("Cancelling: the kernels that finished stay…"), false);
}

bool StepPane::isSweepingModel() const {
  return sweep_job_->isRunning();
}

// The next kernel compiles while the current one runs: the line follows the earlier of the two
// and names the other. A kernel's runs mean every kernel before it ended; a kernel compiling means
// every kernel two before it ended.
void StepPane::showModelSweepProgress(const step::ModelSweepProgress& p) {
  const int k = p.kernel_index;
  const bool compiling = p.inner.phase == "compiling";
  for (auto it = sweep_reports_.begin(); it != sweep_reports_.end();) {
    it = it->first < k - 1 || (!compiling && it->first < k) ? sweep_reports_.erase(it) : std::next(it);
  }
  sweep_reports_[k] = p;
  auto phaseText = [](const step::ModelSweepProgress& r) {
    return tr("%1 [%2/%3]").arg(q(r.inner.phase)).arg(r.inner.done).arg(r.inner.total);
  };
  const step::ModelSweepProgress& cur = sweep_reports_.begin()->second;
  kernel_progress_->setRange(0, std::max(cur.inner.total, 1));
  kernel_progress_->setValue(cur.inner.done);
  overall_progress_->setRange(0, std::max(cur.kernels, 1));
  overall_progress_->setValue(cur.kernel_index - 1);
  QString line = tr("kernel %1/%2 %3 · %4 · %5 s")
                     .arg(cur.kernel_index)
                     .arg(cur.kernels)
                     .arg(shortenKernelNames(q(cur.kernel)), phaseText(cur))
                     .arg(p.elapsed_s, 0, 'f', 0);
  if (sweep_reports_.size() > 1) {
    const step::ModelSweepProgress& next = std::next(sweep_reports_.begin())->second;
    line += tr(" (kernel %1: %2)").arg(next.kernel_index).arg(phaseText(next));
  }
  sweep_line_->setFullText(line);
  if (!cur.inner.text.empty()) sweep_line_->setToolTip(line + QLatin1Char('\n') + q(cur.inner.text));
}

void StepPane::showModelSweep(const std::shared_ptr<const step::ModelSweepResult>& result) {
  sweep_result_ = result;
  const std::vector<ModelSweepRow> rows = modelSweepRows(*result);
  sweep_table_->setColumnHidden(ModelSweepModel::kCoordesc, !result->gain.hasCoordesc());
  sweep_model_->setRows(rows);
  sweep_table_->resizeColumnsToContents();
  for (const int c : {static_cast<int>(ModelSweepModel::kKernel), static_cast<int>(ModelSweepModel::kGain)})
    sweep_table_->setColumnWidth(c, std::min(sweep_table_->columnWidth(c), 260));
  sweep_words_text_ = modelSweepText(*result);
  sweep_words_->setHtml(stepParagraphsHtml(sweep_words_text_));
  overall_progress_->setRange(0, std::max(static_cast<int>(result->plan.targets.size()), 1));
  overall_progress_->setValue(static_cast<int>(result->kernels.size()));
  const int failed = static_cast<int>(
      std::count_if(result->kernels.begin(), result->kernels.end(), [](const auto& k) { return !k.error.empty(); }));
  const QString swept = kernelCountText(static_cast<int>(result->kernels.size()));
  QString text = result->cancelled ? tr("Cancelled after %1").arg(swept) : tr("Swept %1").arg(swept);
  text += tr(" in %1 s").arg(result->seconds, 0, 'f', 0);
  if (failed > 0) text += tr(" · %1 failed (the table says why)").arg(failed);
  text += tr(" · gain %1 µs per step").arg(q(fixed(result->gain.gain_us, 1)));
  setModelSweepStatus(text, failed > 0 && failed == static_cast<int>(result->kernels.size()));
  // The result takes room from the step above it; where half the room would leave it a few rows (a
  // 1280 × 720 screen), all of it (Show the step gives it back).
  sweep_results_->setVisible(true);
  step_toggle_->setVisible(true);
  fitModelSweepSection();
  const int total = outer_split_->height();
  if (total > 0) outer_split_->setSizes({total / 2, total - total / 2});
  constexpr int kRoomForBoth = 480;
  step_toggle_->setChecked(isVisible() && total < kRoomForBoth);
}

void StepPane::hideStepForSweep(bool hide) {
  split_->setVisible(!hide);
  step_toggle_->setText(hide ? tr("Show the step") : tr("Hide the step"));
  step_toggle_->setToolTip(hide ? tr("Show the step's words, table and chart above the sweep again")
                                : tr("Hide the step's words, table and chart above, to give the sweep's result "
                                     "the room"));
}

void StepPane::clearModelSweep() {
  sweep_result_.reset();
  sweep_words_text_.clear();
  sweep_reports_.clear();
  sweep_model_->clear();
  sweep_words_->clear();
  sweep_results_->setVisible(false);
  step_toggle_->setChecked(false);
  step_toggle_->setVisible(false);
  fitModelSweepSection();
  setModelSweepStatus({}, false);
}

void StepPane::fitModelSweepSection() {
  // Without a result the section is its rows, no taller: the step above keeps the room.
  sweep_box_->setMaximumHeight(sweep_results_->isVisibleTo(sweep_box_) ? QWIDGETSIZE_MAX
                                                                       : sweep_box_->sizeHint().height());
}

void StepPane::setModelSweepStatus(const QString& text, bool error) {
  sweep_status_said_ = !text.isEmpty();
  sweep_status_->setFullText(text);
  sweep_status_->setStyleSheet(error ? QStringLiteral("color: #a00000;") : QString());
}

void StepPane::updateModelSweepButtons() {
  const bool sweeping = sweep_job_->isRunning();
  const QString why = sweeping ? tr("A sweep of the step is under way.") : modelSweepUnavailable();
  sweep_button_->setEnabled(why.isEmpty());
  sweep_button_->setToolTip(
      why.isEmpty() ? tr("Sweep the step's looped reductions, longest in-step time first: each compiled at its "
                         "default grid (and what each policy would add) with your Python's PyTorch and Triton, "
                         "then, with a GPU, timed with a brief first pass and the full method for the configs that "
                         "could be the best. Times measured before are taken from the sweep cache.")
                    : why);
  budget_->setEnabled(!sweeping);
  top_->setEnabled(!sweeping);
  // Before a sweep, the status says what the button would do, or why it cannot.
  if (!sweeping && !sweep_status_said_) {
    sweep_status_->setFullText(
        why.isEmpty() ? tr("Sweeps the step's looped reductions, longest in-step time first, each at its default grid, "
                           "and says what the best configs would save per step.")
                      : why);
  }
  // The sweep's kernels are the trace's: no other trace while it runs (Cancel first).
  const QString busy = tr("A sweep of the step is under way: cancel it to open another trace.");
  open_->setEnabled(!sweeping);
  open_->setToolTip(sweeping ? busy : open_tip_);
  bundled_->setEnabled(!sweeping);
  bundled_->setToolTip(sweeping ? busy : bundled_tip_);
  steps_->setEnabled(!sweeping);
}

}  // namespace occx::ui
