// The live-sweep view's panels: the controls column (what this machine can run, the recorded
// datasets and the comparison with Inductor's kernel, the run box, the autotuner replay) and the
// results pane (the dataset's title and detail, the pairing's line, the bandwidth plot over tabs of
// the config table, the time plot and the occupancy plot). What they show is set in
// live_sweep_view.cpp.
#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "qcustomplot.h"
#include "ui/models/live_datasets.h"
#include "ui/models/live_sweep_model.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/regret_box.h"
#include "ui/views/sweep_inputs.h"

namespace occx::ui {

namespace {

/// The least height of a plot here: a data area of 150 px with the title and the x axis.
constexpr int kLiveMinPlotHeight = 230;

}  // namespace

QWidget* LiveSweepView::buildControls() {
  QVBoxLayout* v = nullptr;
  QWidget* left = makeControlsColumn(v);
  availability_label_ = new QLabel(left);
  availability_label_->setObjectName(QStringLiteral("availabilityMessage"));
  if (availability_.available) {
    availability_label_->setWordWrap(true);
    availability_label_->setText(
        tr("GPU: <b>%1</b> — live runs measure on it.").arg(availability_.device.toHtmlEscaped()));
    availability_label_->setStyleSheet(QStringLiteral("QLabel { padding: 4px; }"));
  } else {
    setNoticeStyle(availability_label_);
    availability_label_->setText(tr("<b>No live runs here.</b> %1<br>Opened datasets are recorded data, measured "
                                    "elsewhere.")
                                     .arg(availability_.reason.toHtmlEscaped()));
  }
  v->addWidget(availability_label_);
  v->addWidget(buildDataBox());
  v->addWidget(buildRunBox());
  regret_ = new RegretBox(left);
  v->addWidget(regret_);
  v->addStretch(1);
  return left;
}

QWidget* LiveSweepView::buildDataBox() {
  auto* data_box = new QGroupBox(tr("Recorded data"));
  auto* df = new QFormLayout(data_box);
  bundled_ = new QComboBox(data_box);
  bundled_->setObjectName(QStringLiteral("bundledDatasets"));
  bundled_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  bundled_->setMinimumContentsLength(24);
  const auto bundled = bundledDatasets();
  for (const auto& b : bundled) bundled_->addItem(b.title, b.path);
  if (bundled.empty()) {
    bundled_->addItem(tr("(no bundled datasets in this build)"));
    bundled_->setEnabled(false);
  }
  bundled_->setToolTip(tr("Measurements that ship with the program (H200): open one to see its sweep"));
  df->addRow(tr("Bundled:"), bundled_);
  makeOpenCsvButton(data_box, tr("Open a live-sweep CSV written by 'occx sweep --csv' on a machine with a GPU"),
                    tr("Open live-sweep CSV"));
  df->addRow(open_button_);
  compare_button_ = new QPushButton(tr("Compare with Inductor's kernel…"), data_box);
  compare_button_->setObjectName(QStringLiteral("compareWithInductor"));
  compare_button_->setToolTip(
      tr("Open a kernel-runs CSV of Inductor's own Triton kernel for the same problem (written by "
         "'occx inductor sweep --csv'): its times and registers beside the family's, config by config"));
  df->addRow(compare_button_);
  triton_series_ = new QCheckBox(tr("Inductor's kernel"), data_box);
  triton_series_->setObjectName(QStringLiteral("tritonSeries"));
  triton_series_->setChecked(true);
  triton_series_->setToolTip(
      tr("Show Inductor's own Triton kernel at the same configs in the Median time plot "
         "(dashed, the colour of its num_warps)"));
  connect(triton_series_, &QCheckBox::toggled, this, [this] { rebuildPlots(); });
  df->addRow(tr("Time plot:"), triton_series_);
  connect(compare_button_, &QPushButton::clicked, this, [this] {
    const QString path = askCsvPath(tr("Open a kernel-runs CSV of Inductor's kernel"));
    if (path.isEmpty()) return;
    if (const QString error = compareWithMeasurements(path); !error.isEmpty()) emit fileError(error);
  });
  connect(bundled_, &QComboBox::activated, this, [this](int i) {
    const QVariant path = bundled_->itemData(i);
    if (path.isValid()) openCsvFile(path.toString());
  });
  return data_box;
}

QWidget* LiveSweepView::buildRunBox() {
  auto* run_box = new QGroupBox(tr("Live sweep on this GPU"));
  auto* rv = new QVBoxLayout(run_box);
  makeInputs(run_box);
  rv->addWidget(inputs_);
  // A short check box and its detail word-wrapped under it: a check box's text does not wrap, and
  // at full length it held the panel 460 px wide, narrowing the plots on a 1280-pixel screen.
  cupti_ = new QCheckBox(tr("Collect CUPTI metrics"), run_box);
  cupti_->setObjectName(QStringLiteral("cuptiMetrics"));
  cupti_->setChecked(true);
  cupti_->setToolTip(
      tr("After timing, profiles one launch of each config with CUPTI (on by default); where profiling "
         "is not permitted the columns say why and the run still succeeds"));
  rv->addWidget(cupti_);
  auto* cupti_detail = new QLabel(tr("achieved occupancy, DRAM bytes, local memory"), run_box);
  cupti_detail->setWordWrap(true);
  cupti_detail->setStyleSheet(QStringLiteral("color: #555;"));
  cupti_detail->setContentsMargins(22, 0, 0, 0);
  rv->addWidget(cupti_detail);
  // Run, Cancel, the progress and the status stand under the scrolling inputs (layOut's footer):
  // in sight on a short screen.
  run_footer_ = new QWidget;
  run_footer_->setObjectName(QStringLiteral("liveRunFooter"));
  auto* fv = new QVBoxLayout(run_footer_);
  fv->setContentsMargins(0, 2, 4, 0);
  fv->setSpacing(3);
  auto* buttons = new QHBoxLayout;
  run_button_ = new QPushButton(tr("Run"), run_footer_);
  run_button_->setObjectName(QStringLiteral("runButton"));
  makeCancelButton(run_footer_);
  buttons->addWidget(run_button_);
  buttons->addWidget(cancel_button_);
  buttons->addStretch(1);
  fv->addLayout(buttons);
  makeProgressBar(run_footer_, QStringLiteral("runProgress"));
  fv->addWidget(progress_);
  makeStatusLabel(run_footer_, QStringLiteral("runStatus"));
  fv->addWidget(status_);
  if (!availability_.available) {
    run_button_->setToolTip(tr("Run is not available: %1").arg(availability_.reason));
    status_->setText(tr("Run is not available: %1").arg(availability_.reason));
  } else {
    run_button_->setToolTip(
        tr("Compile, run and time every config on %1, then replay the autotuner").arg(availability_.device));
  }
  connect(run_button_, &QPushButton::clicked, this, [this] { startRun(); });
  connect(cancel_button_, &QPushButton::clicked, this, &LiveSweepView::cancelRun);
  return run_box;
}

QWidget* LiveSweepView::buildResults() {
  auto* results = new QWidget;
  auto* pv = new QVBoxLayout(results);
  pv->setContentsMargins(0, 0, 0, 0);
  pv->setSpacing(3);
  auto* header = new QHBoxLayout;
  auto* labels = new QVBoxLayout;
  makeDatasetLabel(results, /*larger_by=*/1);
  dataset_detail_ = new QLabel(results);
  dataset_detail_->setObjectName(QStringLiteral("datasetDetail"));
  dataset_detail_->setWordWrap(true);
  dataset_detail_->setStyleSheet(QStringLiteral("color: #555;"));
  dataset_detail_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  fidelity_label_ = new QLabel(results);
  fidelity_label_->setObjectName(QStringLiteral("fidelitySummary"));
  fidelity_label_->setWordWrap(true);
  fidelity_label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  labels->addWidget(dataset_label_);
  labels->addWidget(dataset_detail_);
  header->addLayout(labels, 1);
  addXBlockFilter(results, header, Qt::AlignTop);
  pv->addLayout(header);
  pv->addWidget(fidelity_label_);  // the full width: two lines at 1280 × 720

  // The bandwidth plot (with the picks), the table, the time and the occupancy plot, one page each:
  // on a 1280 × 720 screen the bandwidth plot over the pages left each plot a strip (its legend of
  // ten rows cut, a data area under 180 px). The legends stand right of the axes.
  details_ = new QTabWidget;
  details_->setObjectName(QStringLiteral("liveDetailTabs"));
  const QString x_label = tr("RBLOCK (elements per loop iteration, log2 scale)");
  bw_plot_ = new SweepSeriesPlot(tr("DRAM bandwidth per config"), QStringLiteral("bandwidthPlot"), details_);
  bw_plot_->setAxisLabels(x_label, tr("DRAM bandwidth (GB/s)"));
  bw_plot_->plot()->legend->setIconSize(28, 22);  // the pick markers are drawn large: room for them
  time_plot_ =
      new SweepSeriesPlot(tr("Device time per config (L2 cold), bars min … max"), QStringLiteral("timePlot"), details_);
  time_plot_->setAxisLabels(x_label, tr("Device time, L2 cold (µs)"));
  occ_plot_ = new SweepSeriesPlot(tr("Occupancy: theoretical (solid), achieved (dashed)"),
                                  QStringLiteral("occupancyPlot"), details_);
  occ_plot_->setAxisLabels(x_label, tr("Occupancy (%)"));
  for (SweepSeriesPlot* p : {bw_plot_, time_plot_, occ_plot_}) {
    p->setLegendPlace(PlotController::LegendPlace::kBeside);
    p->setRowDescriber([this](int r) { return describeRow(r); });
    p->widget()->setMinimumHeight(kLiveMinPlotHeight);
  }

  makeTable(model_, LiveSweepModel::kSortRole, QStringLiteral("liveTable"), details_);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // dataset order until the user sorts
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    const LiveRow* row = model_->row(selectedRow());
    followSelection(row != nullptr ? row->config.xblock : 0);
  });
  details_->addTab(bw_plot_->widget(), tr("Bandwidth"));
  details_->addTab(table_, tr("Configs"));
  details_->addTab(time_plot_->widget(), tr("Device time"));
  details_->addTab(occ_plot_->widget(), tr("Occupancy"));
  details_->setTabToolTip(0, tr("DRAM bandwidth per config, the policies' picks and the best config"));
  details_->setTabToolTip(
      1, tr("One row per config: status, times, bandwidth, occupancy; select one to mark it in the plots"));
  pv->addWidget(details_, 1);
  return results;
}

}  // namespace occx::ui
