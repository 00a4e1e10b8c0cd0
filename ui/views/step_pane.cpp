#include "ui/views/step_pane.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
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

#include "ui/models/step_kernel_model.h"
#include "ui/plots/step_pareto_plot.h"
#include "ui/widgets/checked_spin_box.h"

namespace occx::ui {

StepPane::StepPane(QWidget* parent) : QWidget(parent), job_(new TraceReadJob(this)) {
  setObjectName(QStringLiteral("stepPane"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(4, 4, 4, 4);
  v->addLayout(buildTopRow());
  v->addWidget(status_);
  v->addWidget(buildResults(), 1);
  connectJob();
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
  });
}

void StepPane::onTraceRead(const std::shared_ptr<const StepResult>& result) {
  const bool opened = !pending_path_.isEmpty();  // a new trace, not the same one joined to another run
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

void StepPane::setRun(std::vector<triton::ScanRow> rows, const QString& input) {
  rows_ = std::make_shared<const std::vector<triton::ScanRow>>(std::move(rows));
  run_input_ = input;
  if (job_->isRunning() && !pending_path_.isEmpty()) {
    job_->start(pending_path_, steps_->value(), rows_, run_input_);  // a read under way: for this run
  } else if (result_) {
    pending_path_.clear();
    job_->rejoin(result_->trace, rows_, run_input_);  // cancels a rejoin to the run before
  }
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
  QString html;
  static const QRegularExpression kLongName(QStringLiteral("\\btriton_\\w{50,}"));
  for (const QString& line : words_text_.split(QLatin1Char('\n'))) {
    QString shown = line;
    for (auto it = kLongName.globalMatch(line); it.hasNext();) {
      const QString name = it.next().captured();
      shown.replace(name, name.left(36) + QStringLiteral("…") + name.right(14));
    }
    html += QStringLiteral("<p style=\"margin:0 0 4px 0\">") + shown.toHtmlEscaped() + QStringLiteral("</p>");
  }
  words_->setHtml(html);
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

}  // namespace occx::ui
