// The compile-sweep view's panels: the controls column (what this build can compile, the
// architecture, the kernel, shape and grid, the compile box) and the results pane (the title and the
// XBLOCK filter, the plots and the generated source on tabs over the config table and its "Send to
// RBLOCK scaling" row). What they show is set in compile_sweep_view.cpp.
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/models/compile_sweep_model.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/sweep_inputs.h"
#include "ui/widgets/checked_spin_box.h"

namespace occx::ui {

namespace {

/// The config table's first columns, left to right.
constexpr CompileSweepModel::Column kLeadingColumns[] = {
    CompileSweepModel::kXBlock,       CompileSweepModel::kRBlock,      CompileSweepModel::kNumWarps,
    CompileSweepModel::kRegisters,    CompileSweepModel::kDecisionOld, CompileSweepModel::kDecisionNew,
    CompileSweepModel::kDecisionExact};

}  // namespace

QWidget* CompileSweepView::buildInputs() {
  QVBoxLayout* v = nullptr;
  QWidget* left = makeControlsColumn(v);
  toolkit_ = new QLabel(left);
  toolkit_->setObjectName(QStringLiteral("toolkitMessage"));
  setNoticeStyle(toolkit_);
  toolkit_->setText(
      tr("<b>Compiling needs the CUDA Toolkit.</b> This build has no NVRTC, so it cannot produce register "
         "and spill counts. Use <i>Open CSV…</i> to view a sweep written by <code>occx sweep --csv</code> "
         "on a machine with the toolkit (no GPU is needed there)."));
  toolkit_->setVisible(!can_compile_);
  v->addWidget(toolkit_);
  v->addWidget(buildTargetBox());
  auto* kernel_box = new QGroupBox(tr("Kernel, shape and grid"));
  auto* kl = new QVBoxLayout(kernel_box);
  makeInputs(kernel_box);
  kl->addWidget(inputs_);
  v->addWidget(kernel_box);
  v->addWidget(buildCompileBox());
  v->addStretch(1);
  return left;
}

QWidget* CompileSweepView::buildTargetBox() {
  auto* target_box = new QGroupBox(tr("Architecture"));
  auto* tf = new QFormLayout(target_box);
  device_ = new DeviceSelector(target_box);
  device_->comboBox()->setToolTip(
      tr("GPU or compute capability to compile for; greyed entries are architectures the "
         "compiler cannot target"));
  tf->addRow(device_);
  sms_ = new CheckedSpinBox(target_box);
  sms_->setObjectName(QStringLiteral("smCount"));
  sms_->setRange(1, 1024);
  sms_->setToolTip(tr("SM count the RBLOCK-scaling decisions use (total blocks vs bound × SMs)"));
  tf->addRow(tr("SMs:"), sms_);
  device_info_ = new QLabel(target_box);
  device_info_->setWordWrap(true);
  device_info_->setStyleSheet(QStringLiteral("color: #555;"));
  tf->addRow(device_info_);
  return target_box;
}

QWidget* CompileSweepView::buildCompileBox() {
  auto* compile_box = new QGroupBox(tr("Compile"));
  auto* cf = new QFormLayout(compile_box);
  maxrreg_ = new CheckedSpinBox(compile_box);
  maxrreg_->setObjectName(QStringLiteral("maxrregcount"));
  maxrreg_->setRange(0, 255);
  maxrreg_->setSpecialValueText(tr("none"));
  maxrreg_->setToolTip(
      tr("Register cap per thread (--maxrregcount) to emulate capped builds; none = the compiler's choice"));
  cf->addRow(tr("maxrregcount:"), maxrreg_);
  threads_ = new CheckedSpinBox(compile_box);
  threads_->setObjectName(QStringLiteral("compileThreads"));
  threads_->setRange(1, 64);
  threads_->setValue(std::clamp(QThread::idealThreadCount(), 1, 64));
  threads_->setToolTip(tr("Kernels compiled at once (1 … 64)"));
  cf->addRow(tr("Parallel compiles:"), threads_);
  // The buttons, the progress and the status stand under the scrolling inputs (layOut's footer):
  // "Compile sweep" is never below the fold of a short screen.
  run_footer_ = new QWidget;
  run_footer_->setObjectName(QStringLiteral("compileRunFooter"));
  auto* fv = new QVBoxLayout(run_footer_);
  fv->setContentsMargins(0, 2, 4, 0);
  fv->setSpacing(3);
  auto* buttons = new QHBoxLayout;
  compile_button_ = new QPushButton(tr("Compile sweep"), run_footer_);
  compile_button_->setObjectName(QStringLiteral("compileButton"));
  compile_button_->setDefault(true);
  makeCancelButton(run_footer_);
  makeOpenCsvButton(run_footer_, tr("Open a compile sweep written by 'occx sweep --csv'"), tr("Open compile sweep"));
  buttons->addWidget(compile_button_);
  buttons->addWidget(cancel_button_);
  buttons->addWidget(open_button_);
  fv->addLayout(buttons);
  makeProgressBar(run_footer_, QStringLiteral("compileProgress"));
  progress_->setFormat(tr("%v of %m configs"));
  fv->addWidget(progress_);
  makeStatusLabel(run_footer_, QStringLiteral("compileStatus"));
  fv->addWidget(status_);
  if (!can_compile_) {
    compile_button_->setEnabled(false);
    compile_button_->setToolTip(tr("Compiling needs the CUDA Toolkit (NVRTC); this build has none."));
  }
  connect(compile_button_, &QPushButton::clicked, this, [this] { startSweep(); });
  connect(cancel_button_, &QPushButton::clicked, this, &CompileSweepView::cancelSweep);
  connect(inputs_, &SweepInputs::changed, this, [this] {
    if (can_compile_) compile_button_->setEnabled(inputs_->validationMessage().isEmpty());
  });
  return compile_box;
}

QWidget* CompileSweepView::buildResults() {
  auto* results = new QWidget;
  auto* rv = new QVBoxLayout(results);
  rv->setContentsMargins(0, 0, 0, 0);
  auto* header = new QHBoxLayout;
  makeDatasetLabel(results);
  header->addWidget(dataset_label_, 1);
  addXBlockFilter(results, header);
  rv->addLayout(header);

  // Over the table: the plots, and the generated source of the selected config on a page beside
  // them, so the table has the view's width and the decisions are in view on a 1280-pixel screen.
  plot_tabs_ = new QTabWidget;
  plot_tabs_->setObjectName(QStringLiteral("compileDetailTabs"));
  regs_plot_ =
      new SweepSeriesPlot(tr("Registers per thread against RBLOCK"), QStringLiteral("registersPlot"), plot_tabs_);
  regs_plot_->setAxisLabels(tr("RBLOCK (elements per loop iteration, log2 scale)"), tr("Registers per thread"));
  spill_plot_ =
      new SweepSeriesPlot(tr("Spill stores per thread against RBLOCK"), QStringLiteral("spillsPlot"), plot_tabs_);
  spill_plot_->setAxisLabels(tr("RBLOCK (elements per loop iteration, log2 scale)"),
                             tr("Spill stores (bytes per thread)"));
  regs_plot_->setIntegerTicks(PlotController::Axis::kY);  // counts: registers, bytes
  spill_plot_->setIntegerTicks(PlotController::Axis::kY);
  for (SweepSeriesPlot* p : {regs_plot_, spill_plot_}) {
    p->setLegendPlace(PlotController::LegendPlace::kBeside);
    p->setRowDescriber([this](int r) { return describeRow(r); });
  }
  plot_tabs_->addTab(regs_plot_->widget(), tr("Registers"));
  plot_tabs_->addTab(spill_plot_->widget(), tr("Spill stores"));
  plot_tabs_->addTab(buildSourceBox(), tr("Generated CUDA C++"));
  plot_tabs_->setTabToolTip(2, tr("The kernel source of the config selected in the table"));

  auto* table_box = new QWidget;
  auto* tv = new QVBoxLayout(table_box);
  tv->setContentsMargins(0, 0, 0, 0);
  makeTable(model_, CompileSweepModel::kSortRole, QStringLiteral("configTable"), table_box);
  table_->sortByColumn(CompileSweepModel::kIndex, Qt::AscendingOrder);
  // Shown in this order (the model's stays): the config, its registers (what the bounds read), then
  // each policy's decision, so the decisions are in view without scrolling; the other compiled facts
  // and the candidate sets after them in the model's order, the sweep index last.
  QHeaderView* columns = table_->horizontalHeader();
  for (int i = 0; i < static_cast<int>(std::size(kLeadingColumns)); ++i)
    columns->moveSection(columns->visualIndex(kLeadingColumns[i]), i);
  columns->moveSection(columns->visualIndex(CompileSweepModel::kIndex), CompileSweepModel::kColumnCount - 1);
  tv->addWidget(table_, 1);
  auto* send_row = new QHBoxLayout;
  send_button_ = new QPushButton(tr("Send to RBLOCK scaling"), table_box);
  send_button_->setObjectName(QStringLiteral("sendToRblock"));
  send_button_->setToolTip(
      tr("Use the selected config's XBLOCK, RBLOCK, num_warps, registers and spills, and this "
         "shape, in the RBLOCK-scaling view"));
  send_button_->setEnabled(false);
  send_row->addWidget(send_button_);
  auto* legend =
      new QLabel(tr("Decisions: scale = add a copy with RBLOCK halved; n/a = a gate skipped the config (e.g. "
                    "≤ 32 registers). Red spill cells: the config spills."),
                 table_box);
  legend->setWordWrap(true);
  legend->setStyleSheet(QStringLiteral("color: #555;"));
  send_row->addWidget(legend, 1);
  tv->addLayout(send_row);
  connect(send_button_, &QPushButton::clicked, this, &CompileSweepView::sendSelected);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this,
          &CompileSweepView::onSelectionChanged);

  auto* split = new QSplitter(Qt::Vertical);
  split->setObjectName(QStringLiteral("compileResultSplit"));
  split->addWidget(plot_tabs_);
  split->addWidget(table_box);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  split->setSizes({480, 420});
  rv->addWidget(split, 1);
  return results;
}

QWidget* CompileSweepView::buildSourceBox() {
  auto* source_box = new QWidget;
  auto* sv = new QVBoxLayout(source_box);
  sv->setContentsMargins(0, 0, 0, 0);
  source_label_ = new QLabel(source_box);
  source_label_->setObjectName(QStringLiteral("sourceLabel"));
  source_label_->setWordWrap(true);
  source_ = new QPlainTextEdit(source_box);
  source_->setObjectName(QStringLiteral("generatedSource"));
  source_->setReadOnly(true);
  source_->setLineWrapMode(QPlainTextEdit::NoWrap);
  QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
  mono.setStyleHint(QFont::Monospace);
  mono.setFixedPitch(true);
  mono.setPointSize(std::max(8, font().pointSize() - 1));
  source_->setFont(mono);
  sv->addWidget(source_label_);
  sv->addWidget(source_, 1);
  return source_box;
}

}  // namespace occx::ui
