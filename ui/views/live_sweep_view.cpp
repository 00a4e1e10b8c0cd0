#include "ui/views/live_sweep_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <map>
#include <set>

#include "core/base/columns.h"
#include "core/base/format.h"
#include "core/gpu/detected_gpu.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/candidates.h"
#include "core/inductor/rblock_scaling.h"
#include "qcustomplot.h"
#include "ui/models/inductor_run_data.h"
#include "ui/models/live_datasets.h"
#include "ui/models/live_sweep_model.h"
#include "ui/models/text.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/sweep_inputs.h"

namespace occx::ui {

namespace {

/// The least height of a plot here: a data area of 150 px with the title and the x axis.
constexpr int kMinPlotHeight = 230;

const QColor kRooflineColor(178, 34, 34);
const QColor kDatasheetColor(110, 110, 110);
const QColor kLiveSelectedColor(0, 0, 0);
const QColor kLiveBestPointColor(214, 39, 40);

struct PickStyle {
  inductor::Policy policy;
  const char* title;
  MarkerShape shape;
  QColor color;
  double size;
};
const PickStyle kPickStyles[] = {
    {inductor::Policy::kOld, "old bound", MarkerShape::kSquare, QColor(100, 100, 100), 15},
    {inductor::Policy::kNew, "new bound", MarkerShape::kTriangle, QColor(200, 0, 120), 17},
    {inductor::Policy::kExact, "exact bound", MarkerShape::kCircle, QColor(0, 120, 80), 21},
};

QString policyName(inductor::Policy policy) {
  return QString::fromUtf8(inductor::policyKey(policy).data());
}

/// The phases a live run reports before its rows. LiveSweepJob passes them as text (core's live-run
/// progress has no enum for them), read here once.

QString configShort(const KernelConfig& c) {
  return QStringLiteral("XBLOCK %1, RBLOCK %2, %3").arg(c.xblock).arg(c.rblock).arg(warpCountText(c.num_warps));
}

double metaNumber(const LiveDataset& d, const char* key, double fallback) {
  const std::string s = d.metaValue(key);
  double v = fallback;
  return readNumber(s, v, fallback).empty() ? v : fallback;
}

QTableWidgetItem* cell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
  auto* item = new QTableWidgetItem(text);
  item->setTextAlignment(align);
  return item;
}

}  // namespace

LiveSweepView::LiveSweepView(QWidget* parent, std::shared_ptr<Backend> backend)
    : SweepView(parent, QStringLiteral("liveSweep"), /*plot_delay_ms=*/150), availability_(liveAvailability(*backend)) {
  job_ = new LiveSweepJob(std::move(backend), this);
  model_ = new LiveSweepModel(this);
  QWidget* controls = buildControls();
  layOut(controls, 420, 490, buildResults());

  setJob(job_);
  connect(job_, &LiveSweepJob::phaseProgress, this, &LiveSweepView::onPhase);
  connect(job_, &LiveSweepJob::rowMeasured, this, &LiveSweepView::onRowMeasured);
  connect(job_, &LiveSweepJob::finished, this, &LiveSweepView::onFinished);
  connect(job_, &LiveSweepJob::failed, this, &LiveSweepView::onFailed);
  onRunningChanged(false);

  // Without a GPU, open the first bundled measurement so there is something real to look at.
  if (!availability_.available && bundled_->count() > 0 && bundled_->itemData(0).isValid()) {
    openCsvFile(bundled_->itemData(0).toString());
  } else {
    showFidelity();
    rebuildPlots();
    rebuildRegretTable();
  }
}

LiveSweepView::~LiveSweepView() {
  deleteJob();
  job_ = nullptr;
}

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
  v->addWidget(buildRegretBox());
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
    if (!path.isEmpty()) compareWithMeasurements(path);
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
  cupti_ = new QCheckBox(tr("Collect CUPTI metrics (achieved occupancy, DRAM bytes, local memory)"), run_box);
  cupti_->setObjectName(QStringLiteral("cuptiMetrics"));
  cupti_->setChecked(true);
  cupti_->setToolTip(
      tr("After timing, profiles one launch of each config with CUPTI (on by default); where profiling "
         "is not permitted the columns say why and the run still succeeds"));
  rv->addWidget(cupti_);
  auto* buttons = new QHBoxLayout;
  run_button_ = new QPushButton(tr("Run"), run_box);
  run_button_->setObjectName(QStringLiteral("runButton"));
  makeCancelButton(run_box);
  buttons->addWidget(run_button_);
  buttons->addWidget(cancel_button_);
  buttons->addStretch(1);
  rv->addLayout(buttons);
  makeProgressBar(run_box, QStringLiteral("runProgress"));
  rv->addWidget(progress_);
  makeStatusLabel(run_box, QStringLiteral("runStatus"));
  rv->addWidget(status_);
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

QWidget* LiveSweepView::buildRegretBox() {
  auto* regret_box = new QGroupBox(tr("Autotuner replay: each policy's pick and regret"));
  auto* gv = new QVBoxLayout(regret_box);
  regret_ = new QTableWidget(4, 6, regret_box);
  regret_->setObjectName(QStringLiteral("regretTable"));
  regret_->setHorizontalHeaderLabels(
      {tr("Policy"), tr("Timed"), tr("Pick"), tr("Cold (µs)"), tr("DRAM GB/s"), tr("Regret")});
  regret_->horizontalHeaderItem(1)->setToolTip(
      tr("Candidates timed of those in the policy's set (spilling ones are skipped)"));
  regret_->horizontalHeaderItem(5)->setToolTip(
      tr("Pick time / best time: 1.00 means the autotuner found the fastest config"));
  regret_->verticalHeader()->setVisible(false);
  regret_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  regret_->setSelectionMode(QAbstractItemView::NoSelection);
  regret_->setFocusPolicy(Qt::NoFocus);
  regret_->setWordWrap(false);
  regret_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  regret_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
  regret_->verticalHeader()->setDefaultSectionSize(regret_->fontMetrics().height() + 6);
  regret_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  regret_->setFixedHeight(regret_->horizontalHeader()->sizeHint().height() +
                          4 * regret_->verticalHeader()->defaultSectionSize() + 2 * regret_->frameWidth());
  gv->addWidget(regret_);
  auto* note = new QLabel(tr("A policy's set: Inductor's own configs plus the RBLOCK-halved configs its bound adds; "
                             "configs with n_spills > 16 are never timed. Regret = pick time / best time."),
                          regret_box);
  note->setWordWrap(true);
  note->setStyleSheet(QStringLiteral("color: #555;"));
  gv->addWidget(note);
  return regret_box;
}

QWidget* LiveSweepView::buildResults() {
  auto* results = new QWidget;
  auto* pv = new QVBoxLayout(results);
  pv->setContentsMargins(0, 0, 0, 0);
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

  // The bandwidth plot (with the picks) over tabs of the table, the time and the occupancy plot: on
  // a 1280 × 720 screen three plots and the table stacked would leave each plot a strip. The legends
  // stand right of the axes, so their rows do not eat the plots' height.
  auto* split = new QSplitter(Qt::Vertical);
  split->setObjectName(QStringLiteral("liveResultSplit"));
  details_ = new QTabWidget;
  details_->setObjectName(QStringLiteral("liveDetailTabs"));
  const QString x_label = tr("RBLOCK (elements per loop iteration, log2 scale)");
  bw_plot_ = new SweepSeriesPlot(tr("DRAM bandwidth per config"), QStringLiteral("bandwidthPlot"), results);
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
    p->widget()->setMinimumHeight(kMinPlotHeight);
  }

  makeTable(model_, LiveSweepModel::kSortRole, QStringLiteral("liveTable"), details_);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // dataset order until the user sorts
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    const LiveRow* row = model_->row(selectedRow());
    followSelection(row != nullptr ? row->config.xblock : 0);
  });
  details_->addTab(table_, tr("Configs"));
  details_->addTab(time_plot_->widget(), tr("Device time"));
  details_->addTab(occ_plot_->widget(), tr("Occupancy"));
  details_->setTabToolTip(
      0, tr("One row per config: status, times, bandwidth, occupancy; select one to mark it in the plots"));

  split->addWidget(bw_plot_->widget());
  split->addWidget(details_);
  split->setStretchFactor(0, 1);
  split->setStretchFactor(1, 1);
  split->setChildrenCollapsible(false);
  split->setSizes({480, 420});
  pv->addWidget(split, 1);
  return results;
}

const PickSummary& LiveSweepView::replay() const {
  return model_->replay();
}

int LiveSweepView::spillThreshold() const {
  return static_cast<int>(metaNumber(data_, "spill_threshold", inductor::kSpillThreshold));
}

QString LiveSweepView::startRun() {
  if (!availability_.available) {
    const QString msg = tr("Run is not available: %1").arg(availability_.reason);
    setStatus(msg, true);
    return msg;
  }
  const QString invalid = inputs_->validationMessage();
  if (!invalid.isEmpty()) {
    setStatus(invalid, true);
    return invalid;
  }
  LiveSweepSpec req;
  inputs_->fillSpec(req.compile);
  req.compile.threads = std::clamp(QThread::idealThreadCount(), 1, 64);
  req.run.cupti_metrics = cupti_->isChecked();
  data_ = LiveDataset{};
  copy_GBps_ = 0.0;
  datasheet_GBps_ = 0.0;
  model_->clear();
  fidelity_.reset();
  fidelity_source_.clear();
  showFidelity();
  dataset_label_->setText(tr("Measuring on %1 …").arg(availability_.device));
  dataset_detail_->setText(tr("%1 %2, %3 × %4")
                               .arg(QString::fromUtf8(workloadName(req.compile.workload).data()),
                                    QString::fromUtf8(dtypeName(req.compile.dtype).data()))
                               .arg(req.compile.xnumel)
                               .arg(req.compile.rnumel));
  setProgress(0, static_cast<qulonglong>(std::max(inputs_->gridSize(), 0)));
  progress_->setFormat(tr("preparing …"));
  setCurrentRequest(job_->start(req));
  setStatus(tr("Preparing the inputs and the CPU reference, compiling the configs …"));
  running_summary_ =
      tr("Compiling and measuring %1 configs on %2 …").arg(inputs_->gridSize()).arg(availability_.device);
  emit statusMessage(statusSummary());
  refreshXBlockFilter(xblocksOf(model_->rows()));
  rebuildPlots();
  rebuildRegretTable();
  return {};
}

void LiveSweepView::cancelRun() {
  cancelJob(tr("Cancelling: the current run stops, measured rows stay …"));
}

void LiveSweepView::onPhase(quint64 id, Phase phase, qulonglong done, qulonglong total) {
  if (!isCurrentRequest(id)) return;
  switch (phase) {
    case Phase::kCompile:
      setProgress(done, total);
      progress_->setFormat(tr("compiling %v of %m configs"));
      break;
    case Phase::kProblem:
      if (done == 0) progress_->setFormat(tr("preparing inputs …"));
      break;
    case Phase::kRun:  // each measured row arrives as rowMeasured
      break;
  }
}

void LiveSweepView::onRowMeasured(quint64 id, qulonglong done, qulonglong total, const LiveRow& row) {
  if (!isCurrentRequest(id)) return;
  std::vector<LiveRow> rows = model_->rows();
  rows.push_back(row);
  model_->appendRow(row, summarizeReplay(rows, spillThreshold()));
  setProgress(done, total);
  progress_->setFormat(tr("run %1 of %2: %3").arg(done).arg(total).arg(configShort(row.config)));
  setStatus(row.ok() ? tr("%1: %2 µs cold, %3")
                           .arg(configShort(row.config))
                           .arg(row.measured.timeUs(), 0, 'f', 2)
                           .arg(q(bandwidthText(row.measured)))
                     : tr("%1: %2 — %3")
                           .arg(configShort(row.config), QString::fromUtf8(runStatusName(row.measured.status).data()),
                                QString::fromStdString(row.measured.reason)));
  if (xblock_filter_->findData(row.config.xblock) < 0) refreshXBlockFilter(xblocksOf(model_->rows()));
  rebuildRegretTable();
  schedulePlots();
}

void LiveSweepView::onFinished(quint64 id, const std::shared_ptr<const LiveSweepResult>& outcome) {
  if (!isCurrentRequest(id) || !outcome) return;
  running_summary_.clear();
  if (outcome->cancelled && outcome->dataset.rows.empty()) {
    // Cancelled before anything was measured (possibly before it started): no dataset to name.
    dataset_label_->setText(tr("No data: the run was cancelled before any config was measured"));
    setStatus(tr("Cancelled before any config was measured."));
    emit statusMessage(statusSummary());
    return;
  }
  LiveDataset loaded = outcome->dataset;
  QString date = QString::fromStdString(loaded.metaValue("date_utc"));
  const QString label =
      tr("measured on this machine: %1, %2").arg(QString::fromStdString(loaded.metaValue("device")), date.left(10));
  const int rows = static_cast<int>(loaded.rows.size());
  showDataset(std::move(loaded), label);
  setStatus(outcome->cancelled ? tr("Cancelled: kept %1 measured rows.").arg(rows)
                               : tr("Measured %1 configs in %2 s.").arg(rows).arg(outcome->wall_seconds, 0, 'f', 1));
  appendCacheRepairs(status_, outcome->compile.cache_repairs);
}

void LiveSweepView::onFailed(quint64 id, const QString& message) {
  if (isCurrentRequest(id)) showFailure(tr("The live sweep did not run: %1").arg(message), message);
}

void LiveSweepView::onRunningChanged(bool running) {
  const bool can_run = availability_.available;
  run_button_->setEnabled(can_run);
  run_button_->setText(running ? tr("Restart") : tr("Run"));
  if (!running && model_->rowCount() == 0) progress_->setFormat(can_run ? tr("idle") : tr("no GPU"));
}

void LiveSweepView::showDataset(LiveDataset loaded, const QString& label) {
  data_ = std::move(loaded);
  copy_GBps_ = metaNumber(data_, "copy_bandwidth_GBps", 0.0);
  // The datasheet figure of the GPU it was measured on, when the GPU data knows that GPU.
  datasheet_GBps_ = 0.0;
  if (auto cc = ComputeCapability::parse(data_.metaValue("compute_capability"))) {
    const GpuSpec* g = matchGpu(GpuDatabase::builtin(), data_.metaValue("device"), *cc,
                                static_cast<int>(metaNumber(data_, "sm_count", 0.0)));
    if (g != nullptr) datasheet_GBps_ = g->memory_bandwidth_GBps;
  }
  std::vector<LiveRow> rows = data_.rows;
  const PickSummary replay = summarizeReplay(rows, spillThreshold());
  model_->setRows(std::move(rows), replay);  // no Triton pairs: a new dataset has none until compared
  fidelity_.reset();
  fidelity_source_.clear();
  showFidelity();
  dataset_label_->setText(label);
  QStringList detail;
  detail << datasetShapeText(data_);
  if (copy_GBps_ > 0) detail << tr("copy bandwidth %1 GB/s").arg(copy_GBps_, 0, 'f', 0);
  for (const char* key : {"driver", "toolkit"}) {
    const std::string v = data_.metaValue(key);
    if (!v.empty()) detail << QStringLiteral("%1 %2").arg(QLatin1String(key), QString::fromStdString(v));
  }
  detail << tr("%1 configs").arg(data_.rows.size());
  const std::string recorded = data_.metaValue("recorded");
  if (!recorded.empty()) detail << QString::fromStdString(recorded);
  dataset_detail_->setText(detail.join(QStringLiteral(" · ")));
  setProgress(data_.rows.size(), data_.rows.size());
  progress_->setFormat(tr("%v configs"));
  refreshXBlockFilter(xblocksOf(model_->rows()));
  if (replay.best_row >= 0) {
    setPlotXBlock(data_.rows[static_cast<std::size_t>(replay.best_row)].config.xblock);
    selectRow(replay.best_row);
  }
  rebuildPlots();
  rebuildRegretTable();
  emit datasetChanged();
  emit statusMessage(statusSummary());
}

QString LiveSweepView::openCsvFile(const QString& path) {
  auto loaded = readLiveDataset(path);
  if (!loaded) {
    const QString msg = QString::fromStdString(loaded.error());
    setStatus(msg, true);
    return msg;
  }
  dropRunningJob();
  const QString label = recordedLabel(*loaded);
  // The inputs follow the opened dataset, so Run (on a machine with a GPU) measures the same sweep.
  CompileSweepSpec spec;
  inputs_->fillSpec(spec);
  if (auto w = parseWorkload(loaded->metaValue("workload"))) spec.workload = *w;
  if (auto t = parseDType(loaded->metaValue("dtype"))) spec.dtype = *t;
  spec.k = static_cast<int>(metaNumber(*loaded, "k", 1));
  spec.xnumel = static_cast<std::int64_t>(metaNumber(*loaded, "xnumel", static_cast<double>(spec.xnumel)));
  spec.rnumel = static_cast<std::int64_t>(metaNumber(*loaded, "rnumel", static_cast<double>(spec.rnumel)));
  spec.fp32_outputs = loaded->metaValue("output_dtype") == "fp32" && spec.dtype != DType::kF32;
  spec.static_shape = loaded->metaValue("shape") == shapeKindName(true);  // files without it: run-time shapes
  std::set<int> xs, rs, ws;
  for (const auto& r : loaded->rows) {
    if (!r.in_grid) continue;
    xs.insert(r.config.xblock);
    rs.insert(r.config.rblock);
    ws.insert(r.config.num_warps);
  }
  if (!xs.empty()) {
    spec.grid.xblock.assign(xs.begin(), xs.end());
    spec.grid.r0_block.assign(rs.begin(), rs.end());
    spec.grid.num_warps.assign(ws.begin(), ws.end());
  }
  inputs_->setFromSpec(spec);
  if (const int i = bundled_->findData(path); i >= 0) bundled_->setCurrentIndex(i);
  showDataset(std::move(loaded).value(), label);
  const QString opened =
      tr("Opened %1 (%2 rows).")
          .arg(path.startsWith(QLatin1String(":/")) ? tr("the bundled %1").arg(QFileInfo(path).fileName())
                                                    : QFileInfo(path).fileName())
          .arg(data_.rows.size());
  // A bundled dataset opens beside the bundled sweep of Inductor's kernel for the same problem.
  const QString kernel_runs = bundledMeasurementsFor(path);
  if (kernel_runs.isEmpty()) {
    setStatus(opened);
  } else if (compareWithMeasurements(kernel_runs).isEmpty()) {
    setStatus(opened + QLatin1Char(' ') + status_->text());
  }
  return {};
}

QString LiveSweepView::compareWithMeasurements(const QString& path) {
  auto fail = [this](const QString& msg) {
    setStatus(msg, true);
    return msg;
  };
  if (model_->numRows() == 0 || isRunning()) {
    return fail(tr("Open or measure a live sweep first: there is nothing to compare with"));
  }
  auto runs = measurementsFromFile(path);
  if (!runs) return fail(tr("Not compared: %1").arg(QString::fromStdString(runs.error())));
  // The model's rows, not data_'s: they are what the table shows (data_ keeps the metadata).
  LiveDataset shown;
  shown.meta = data_.meta;
  shown.rows = model_->rows();
  auto fidelity = compareWithTriton(shown, *runs);
  if (!fidelity) {
    return fail(
        tr("Not compared with %1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(fidelity.error())));
  }
  QStringList source{QFileInfo(path).completeBaseName()};
  QString device;
  QString date;
  for (const auto& [key, value] : runs->meta) {
    if (key == "device") device = QString::fromStdString(value);
    if (key == "date") date = QString::fromStdString(value).left(10);
  }
  if (device.startsWith(QLatin1String("NVIDIA "))) device = device.mid(7);
  if (!device.isEmpty()) source << device;
  if (!date.isEmpty()) source << date;
  fidelity_ = std::move(fidelity).value();
  fidelity_source_ = source.join(QStringLiteral(", "));
  model_->setTritonPairs(fidelity_->pairs);
  showFidelity();
  rebuildPlots();
  setStatus(tr("Compared with Inductor's kernel %1 (%2): %3 configs paired.")
                .arg(QString::fromStdString(fidelity_->kernel), fidelity_source_)
                .arg(fidelity_->summary.paired));
  return {};
}

void LiveSweepView::showFidelity() {
  const bool paired = fidelity_.has_value();
  for (int c : {LiveSweepModel::kTritonTime, LiveSweepModel::kTritonRegisters, LiveSweepModel::kTritonRatio}) {
    table_->setColumnHidden(c, !paired);
  }
  triton_series_->setEnabled(paired && fidelity_->summary.paired > 0);
  compare_button_->setEnabled(model_->numRows() > 0);
  fidelity_label_->setVisible(model_->numRows() > 0);
  if (!paired) {
    fidelity_label_->setText(
        tr("Times and registers are the built-in family's: no measurement of Inductor's own kernel "
           "for this shape (Compare with Inductor's kernel… to add one)"));
    return;
  }
  const FidelitySummary& s = fidelity_->summary;
  QString text = tr("Inductor's Triton kernel at the same configs (%1): ").arg(fidelity_source_);
  if (s.paired == 0) {
    text += tr("no config ran ok on both sides");
  } else {
    text += tr("%1 paired, time Triton/ours median %2, %3 % within %4…%5, registers within ±%6 % on %7 %")
                .arg(s.paired)
                .arg(s.median_ratio, 0, 'f', 2)
                .arg(s.time_within_pct, 0, 'f', 0)
                .arg(kFidelityTimeLow, 0, 'f', 2)
                .arg(kFidelityTimeHigh, 0, 'f', 2)
                .arg(kFidelityRegisterTolerance * 100, 0, 'f', 0)
                .arg(s.registers_within_pct, 0, 'f', 0);
    if (s.one_side_spills > 0) text += tr(", one side spills on %1").arg(s.one_side_spills);
  }
  fidelity_label_->setText(text);
}

QString LiveSweepView::describeRow(int r) const {
  const LiveRow* row = model_->row(r);
  if (row == nullptr) return {};
  QString text = configShort(row->config);
  if (!row->ok()) {
    return text + tr("\n%1: %2")
                      .arg(QString::fromUtf8(runStatusName(row->measured.status).data()),
                           QString::fromStdString(row->measured.reason));
  }
  text += QStringLiteral("\n") + q(timeText(row->measured)) + QStringLiteral("\n") + q(bandwidthText(row->measured));
  text += tr("\n%1 registers, spill stores %2 B, occupancy %3 % theoretical, %4 achieved")
              .arg(row->registers)
              .arg(row->spill_stores_bytes)
              .arg(row->theoretical_occupancy_pct, 0, 'f', 1)
              .arg(row->measured.achieved_occupancy_pct.value
                       ? QString::number(*row->measured.achieved_occupancy_pct.value, 'f', 1) + QStringLiteral(" %")
                       : tr("unavailable"));
  const QString picks = model_->picksAt(r);
  if (!picks.isEmpty()) text += tr("\npicked by: %1").arg(picks);
  if (const FidelityPair* p = model_->tritonPairAt(r)) {
    text += tr("\nInductor's Triton kernel: %1 µs (Triton / ours %2), %3 GB/s, %4 registers%5")
                .arg(p->triton_us, 0, 'f', 2)
                .arg(p->ratio, 0, 'f', 2)
                .arg(p->triton_bandwidth_GBps, 0, 'f', 0)
                .arg(p->triton_registers)
                .arg(p->triton_spills ? tr(", spills") : QString());
  }
  return text;
}

LiveSweepView::PlotRows LiveSweepView::plotRows() const {
  PlotRows shown;
  shown.xblock = plotXBlock();
  const auto& rows = model_->rows();
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (!r.ok()) continue;
    if (r.measured.achieved_occupancy_pct.value)
      shown.any_achieved = true;
    else if (shown.achieved_reason.empty())
      shown.achieved_reason = r.measured.achieved_occupancy_pct.unavailable;
    if (r.config.xblock != shown.xblock) continue;
    shown.by_warps[r.config.num_warps].push_back(static_cast<int>(i));
    shown.max_bandwidth = std::max(shown.max_bandwidth, r.measured.bandwidth_GBps);
    shown.max_time = std::max(shown.max_time, r.measured.timeUs());
    shown.max_time_bar = std::max(shown.max_time_bar, r.measured.timeStats().max_us);
  }
  const int selected = selectedRow();
  const LiveRow* sel = model_->row(selected);
  if (sel != nullptr && sel->ok() && sel->config.xblock == shown.xblock) shown.selected = selected;
  return shown;
}

void LiveSweepView::rebuildPlots() {
  const PlotRows shown = plotRows();
  rebuildBandwidthPlot(shown);
  rebuildTimePlot(shown);
  rebuildOccupancyPlot(shown);

  const bool any = !shown.by_warps.empty();
  bw_plot_->setTitle(tr("DRAM bandwidth per config") + xblockSuffix(any));
  time_plot_->setTitle(tr("Device time per config (L2 cold), bars min … max") + xblockSuffix(any));
  QString note;
  if (!any) {
    if (isRunning()) {
      note = tr("measuring …");
    } else if (model_->numRows() > 0) {
      note = tr("No config with XBLOCK = %1 was timed (see the table for the reasons)").arg(shown.xblock);
    } else {
      note = tr("No data: %1")
                 .arg(availability_.available ? tr("press Run or open a CSV") : tr("open a CSV or a bundled dataset"));
    }
  }
  for (SweepSeriesPlot* p : {bw_plot_, time_plot_, occ_plot_}) p->setNote(note);
}

void LiveSweepView::rebuildBandwidthPlot(const PlotRows& shown) {
  const auto& rows = model_->rows();
  const PickSummary& replay = model_->replay();
  bw_plot_->clear();
  for (const auto& [w, idx] : shown.by_warps) {
    QVector<double> x, y;
    QVector<int> rr;
    for (int i : idx) {
      const double bw = rows[static_cast<std::size_t>(i)].measured.bandwidth_GBps;
      if (bw <= 0.0) continue;  // not shown: above what the GPU can move, or nothing to check it against
      x.append(rows[static_cast<std::size_t>(i)].config.rblock);
      y.append(bw);
      rr.append(i);
    }
    bw_plot_->addSeries(warpCountText(w), x, y, rr, numWarpsColor(w));
  }
  if (copy_GBps_ > 0) {
    // The measured limit: a device-to-device copy reads and writes every byte once, so it is the
    // roofline of read+write kernels; a reduction that mostly reads can sit above it.
    bw_plot_->addReferenceLine(copy_GBps_,
                               tr("roofline: copy %1 GB/s (measured, read + write)").arg(copy_GBps_, 0, 'f', 0),
                               kRooflineColor, Qt::DashLine);
  }
  if (datasheet_GBps_ > 0) {
    bw_plot_->addReferenceLine(datasheet_GBps_, tr("datasheet DRAM peak %1 GB/s").arg(datasheet_GBps_, 0, 'f', 0),
                               kDatasheetColor, Qt::DotLine);
  }
  // Each policy's pick and the best: marked where they are of this XBLOCK, named in the legend always.
  const auto mark = [&](QString name, int row, MarkerShape shape, const QColor& color, double size, bool name_xblock) {
    QVector<double> x, y;
    QVector<int> rr;
    if (const LiveRow* r = model_->row(row)) {
      if (r->config.xblock == shown.xblock && r->measured.bandwidth_GBps > 0.0) {
        x.append(r->config.rblock);
        y.append(r->measured.bandwidth_GBps);
        rr.append(row);
      } else if (name_xblock) {
        name += tr(" [XBLOCK %1]").arg(r->config.xblock);
      }
    }
    bw_plot_->addMarkers(name, x, y, rr, shape, color, size, false);
  };
  for (const PickStyle& style : kPickStyles) {
    const PolicyPick* p = replay.pick(style.policy);
    if (p == nullptr) continue;
    QString name = tr("%1 pick").arg(policyName(style.policy));
    name += model_->row(p->row) == nullptr ? tr(": none timed") : tr(", regret %1").arg(p->regret, 0, 'f', 2);
    mark(name, p->row, style.shape, style.color, style.size, /*name_xblock=*/true);
  }
  if (const LiveRow* best = model_->row(replay.best_row)) {
    mark(best->measured.bandwidth_GBps > 0 ? tr("best: %1 GB/s").arg(best->measured.bandwidth_GBps, 0, 'f', 0)
                                           : tr("best (its bandwidth is not shown)"),
         replay.best_row, MarkerShape::kStar, kLiveBestPointColor, 20,
         /*name_xblock=*/false);
  }
  if (const LiveRow* sel = model_->row(shown.selected)) {
    bw_plot_->addMarkers(tr("selected"), {static_cast<double>(sel->config.rblock)}, {sel->measured.bandwidth_GBps},
                         {shown.selected}, MarkerShape::kDiamond, kLiveSelectedColor, 11, false, /*in_legend=*/false);
  }
  bw_plot_->finish(0, std::max({shown.max_bandwidth, copy_GBps_, 1.0}) * 1.12);
}

void LiveSweepView::rebuildTimePlot(const PlotRows& shown) {
  const auto& rows = model_->rows();
  time_plot_->clear();
  for (const auto& [w, idx] : shown.by_warps) {
    QVector<double> x, y, lo, hi;
    QVector<int> rr;
    for (int i : idx) {
      const auto& r = rows[static_cast<std::size_t>(i)];
      x.append(r.config.rblock);
      const TimingStats st = r.measured.timeStats();
      y.append(st.median_us);
      lo.append(std::max(0.0, st.median_us - st.min_us));
      hi.append(std::max(0.0, st.max_us - st.median_us));
      rr.append(i);
    }
    time_plot_->addSeries(warpCountText(w), x, y, rr, numWarpsColor(w), Qt::SolidLine, lo, hi);
  }
  const double triton_max = addTritonTimes(shown);
  if (const LiveRow* sel = model_->row(shown.selected)) {
    time_plot_->addMarkers(tr("selected"), {static_cast<double>(sel->config.rblock)}, {sel->measured.timeUs()},
                           {shown.selected}, MarkerShape::kDiamond, kLiveSelectedColor, 11, false, /*in_legend=*/false);
  }
  // The y range follows the medians; a rare slow run (a clock ramp, a preemption) would otherwise
  // flatten every median to the axis. Bars that reach past the top are cut there, and said so.
  const double time_top = std::max({shown.max_time, triton_max, 1.0}) * 1.5;
  time_plot_->finish(0, time_top);
  if (shown.max_time_bar > time_top) {
    time_plot_->setCornerNote(tr("slowest single run %1 µs: bars cut at the top").arg(shown.max_time_bar, 0, 'f', 1));
  }
}

double LiveSweepView::addTritonTimes(const PlotRows& shown) {
  if (!fidelity_ || !triton_series_->isChecked()) return 0.0;
  double top = 0.0;
  for (const auto& [w, idx] : shown.by_warps) {
    QVector<double> x, y;
    QVector<int> rr;
    for (int i : idx) {
      const FidelityPair* p = model_->tritonPairAt(i);
      if (p == nullptr) continue;
      x.append(p->rblock);
      y.append(p->triton_us);
      rr.append(i);  // the tooltip describes our row and Triton's figures beside it
      top = std::max(top, p->triton_us);
    }
    if (!x.isEmpty()) time_plot_->addSeries(tr("Triton w%1").arg(w), x, y, rr, numWarpsColor(w), Qt::DashLine);
  }
  return top;
}

void LiveSweepView::rebuildOccupancyPlot(const PlotRows& shown) {
  const auto& rows = model_->rows();
  occ_plot_->clear();
  for (const bool achieved : {false, true}) {  // theoretical series first, then achieved: one legend row each
    for (const auto& [w, idx] : shown.by_warps) {
      QVector<double> x, y;
      QVector<int> rr;
      for (int i : idx) {
        const auto& r = rows[static_cast<std::size_t>(i)];
        if (!achieved && r.theoretical_occupancy_pct >= 0) {
          x.append(r.config.rblock);
          y.append(r.theoretical_occupancy_pct);
          rr.append(i);
        } else if (achieved && r.measured.achieved_occupancy_pct.value) {
          x.append(r.config.rblock);
          y.append(*r.measured.achieved_occupancy_pct.value);
          rr.append(i);
        }
      }
      if (!achieved) {
        occ_plot_->addSeries(warpCountText(w), x, y, rr, numWarpsColor(w));
      } else if (!x.isEmpty()) {
        occ_plot_->addSeries(tr("%1 w achieved").arg(w), x, y, rr, numWarpsColor(w), Qt::DashLine);
      }
    }
  }
  occ_plot_->finish(0, 122);  // room above 100 % for the corner note
  QString occ_title = tr("Occupancy: theoretical (solid), achieved (dashed)");
  if (!shown.any_achieved && !rows.empty()) {
    QString why = QString::fromStdString(shown.achieved_reason);
    if (why.size() > 70) why = why.left(68) + QStringLiteral("…");
    occ_title = tr("Occupancy: theoretical (achieved unavailable)");
    occ_plot_->setCornerNote(tr("achieved: %1").arg(why));
  }
  occ_plot_->setTitle(occ_title);
}

void LiveSweepView::rebuildRegretTable() {
  const PickSummary& replay = model_->replay();
  const auto& rows = model_->rows();
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 6; ++c) regret_->setItem(r, c, cell(QString()));
  }
  int line = 0;
  for (const PickStyle& style : kPickStyles) {
    auto* name = cell(QLatin1String(style.title), Qt::AlignLeft | Qt::AlignVCenter);
    name->setForeground(style.color);
    QFont f = name->font();
    f.setBold(true);
    name->setFont(f);
    regret_->setItem(line, 0, name);
    if (const PolicyPick* pick = replay.pick(style.policy)) {
      const PolicyPick& p = *pick;
      regret_->setItem(line, 1, cell(tr("%1 of %2").arg(p.benchmarked).arg(p.candidates)));
      if (const LiveRow* r = model_->row(p.row)) {
        regret_->setItem(
            line, 2,
            cell(QStringLiteral("%1 × %2, %3 w").arg(r->config.xblock).arg(r->config.rblock).arg(r->config.num_warps),
                 Qt::AlignLeft | Qt::AlignVCenter));
        regret_->item(line, 2)->setToolTip(configShort(r->config));
        regret_->setItem(line, 3, cell(QString::number(p.time_us, 'f', 2)));
        regret_->setItem(line, 4, cell(QString::number(p.bandwidth_GBps, 'f', 0)));
        auto* reg = cell(QString::number(p.regret, 'f', 3));
        if (p.regret > 1.05) reg->setForeground(QColor(139, 0, 0));
        regret_->setItem(line, 5, reg);
      } else {
        regret_->setItem(
            line, 2,
            cell(p.candidates == 0 ? tr("no candidates") : tr("none timed"), Qt::AlignLeft | Qt::AlignVCenter));
      }
    }
    ++line;
  }
  auto* best_name = cell(tr("best of all"), Qt::AlignLeft | Qt::AlignVCenter);
  best_name->setForeground(kLiveBestPointColor);
  QFont f = best_name->font();
  f.setBold(true);
  best_name->setFont(f);
  regret_->setItem(3, 0, best_name);
  int ok = 0;
  for (const auto& r : rows) ok += r.ok() ? 1 : 0;
  regret_->setItem(3, 1, cell(tr("%1 of %2").arg(ok).arg(rows.size())));
  if (const LiveRow* best = model_->row(replay.best_row)) {
    regret_->setItem(3, 2,
                     cell(QStringLiteral("%1 × %2, %3 w")
                              .arg(best->config.xblock)
                              .arg(best->config.rblock)
                              .arg(best->config.num_warps),
                          Qt::AlignLeft | Qt::AlignVCenter));
    regret_->item(3, 2)->setToolTip(configShort(best->config));
    regret_->setItem(3, 3, cell(QString::number(replay.best_time_us, 'f', 2)));
    regret_->setItem(3, 4, cell(QString::number(replay.best_bandwidth_GBps, 'f', 0)));
    regret_->setItem(3, 5, cell(QStringLiteral("1.000")));
  }
  regret_->horizontalHeaderItem(2)->setText(tr("Pick (XBLOCK × RBLOCK, warps)"));
}

std::vector<CsvExport> LiveSweepView::csvExports() const {
  if (model_->rowCount() == 0) return {};
  LiveDataset d;
  d.meta = data_.meta;
  d.rows = model_->rows();
  QString name =
      QStringLiteral("live-sweep-%1-%2.csv")
          .arg(QString::fromStdString(data_.metaValue("workload")), QString::fromStdString(data_.metaValue("dtype")));
  std::vector<CsvExport> out = {CsvExport{tr("Live sweep (one row per config)"), name, liveDatasetToCsv(d)}};
  CsvTable regret;
  regret.meta = {{"device", data_.metaValue("device")}, {"date_utc", data_.metaValue("date_utc")}};
  regret.header = {"policy", "candidates", "benchmarked", "pick", "time_us", "bandwidth_GBps", "regret"};
  const PickSummary& rp = model_->replay();
  for (const auto& p : rp.picks) {
    const LiveRow* r = model_->row(p.row);
    regret.rows.push_back({std::string(inductor::policyKey(p.policy)), std::to_string(p.candidates),
                           std::to_string(p.benchmarked), r != nullptr ? r->config.label() : std::string(),
                           r != nullptr ? fixed(p.time_us, 3) : "", r != nullptr ? fixed(p.bandwidth_GBps, 1) : "",
                           r != nullptr ? fixed(p.regret, 3) : ""});
  }
  if (const LiveRow* b = model_->row(rp.best_row)) {
    regret.rows.push_back({"best", std::to_string(d.rows.size()), "", b->config.label(), fixed(rp.best_time_us, 3),
                           fixed(rp.best_bandwidth_GBps, 1), "1"});
  }
  out.push_back(CsvExport{tr("Autotuner replay (regret per policy)"), QStringLiteral("regret.csv"), regret});
  if (fidelity_) {
    out.push_back(CsvExport{tr("Beside Inductor's kernel (one row per config measured on both)"),
                            QStringLiteral("family-vs-inductor.csv"),
                            fidelityToCsv(*fidelity_, {{"family", datasetShapeText(data_).toStdString()},
                                                       {"family_device", data_.metaValue("device")},
                                                       {"family_date_utc", data_.metaValue("date_utc")},
                                                       {"triton_source", fidelity_source_.toStdString()}})});
  }
  return out;
}

std::vector<PlotController*> LiveSweepView::plotExports() const {
  return {bw_plot_, time_plot_, occ_plot_};
}

void LiveSweepView::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("cupti_metrics"), cupti_->isChecked());
  s.setValue(QStringLiteral("bundled"), bundled_->currentData().toString());
  saveInputs(s);
}

void LiveSweepView::restoreSettings(QSettings& s) {
  // "cupti_metrics", not the old "cupti": metrics became the default, and the old key held the old
  // default (off) for everyone who had opened the view.
  cupti_->setChecked(s.value(QStringLiteral("cupti_metrics"), true).toBool());
  restoreInputs(s);
  const QString bundled = s.value(QStringLiteral("bundled")).toString();
  const int idx = bundled.isEmpty() ? -1 : bundled_->findData(bundled);
  if (idx >= 0 && idx != bundled_->currentIndex()) {
    bundled_->setCurrentIndex(idx);
    if (!availability_.available) openCsvFile(bundled);
  }
}

QString LiveSweepView::statusSummary() const {
  if (!running_summary_.isEmpty()) return running_summary_;
  const PickSummary& rp = model_->replay();
  if (rp.best_row < 0)
    return availability_.available ? tr("Live: %1").arg(availability_.device) : tr("Live sweep: no GPU");
  QString s = dataset_label_->text() + tr(" · best %1 µs cold").arg(rp.best_time_us, 0, 'f', 1);
  if (rp.best_bandwidth_GBps > 0) {
    s += tr(", %1 GB/s").arg(rp.best_bandwidth_GBps, 0, 'f', 0);
    if (copy_GBps_ > 0) s += tr(" (%1 % of copy)").arg(100.0 * rp.best_bandwidth_GBps / copy_GBps_, 0, 'f', 0);
  }
  QStringList regrets;
  for (const auto& p : rp.picks) {
    if (p.row >= 0) regrets << QStringLiteral("%1 %2").arg(policyName(p.policy)).arg(p.regret, 0, 'f', 2);
  }
  if (!regrets.isEmpty()) s += tr(" · regret ") + regrets.join(QStringLiteral(", "));
  return s;
}

}  // namespace occx::ui

namespace occx::ui {

QString LiveSweepView::reportText() const {
  if (model_->rowCount() == 0) return {};
  const std::string figure = data_.metaValue("time_figure");
  const std::string bandwidth = data_.metaValue("bandwidth");
  QString html = tr("<p><b>Times</b>: %1.</p>")
                     .arg(q(figure.empty() ? std::string("CUDA events around each launch, L2 cold (recorded before "
                                                         "device times were kept)")
                                           : figure)
                              .toHtmlEscaped());
  html += tr("<p><b>Bandwidth</b>: %1.</p>")
              .arg(q(bandwidth.empty() ? std::string("the dataset's figures, checked against the copy bandwidth when "
                                                     "read (shown only where not above it)")
                                       : bandwidth)
                       .toHtmlEscaped());
  return html;
}

}  // namespace occx::ui
