// The live-sweep view's behaviour: runs and what they report, opened and compared datasets, the
// plots and the replay table drawn from live_sweep_content's pure functions, exports and settings.
// Its panels are built in live_sweep_panels.cpp.
#include "ui/views/live_sweep_view.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QTableView>
#include <QThread>
#include <algorithm>

#include "core/inductor/rblock_scaling.h"
#include "ui/models/inductor_run_data.h"
#include "ui/models/live_datasets.h"
#include "ui/models/live_sweep_content.h"
#include "ui/models/live_sweep_model.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/regret_box.h"
#include "ui/views/sweep_inputs.h"

namespace occx::ui {

LiveSweepView::LiveSweepView(const ViewContext& context, QWidget* parent)
    : SweepView(parent, QStringLiteral("liveSweep"), /*plot_delay_ms=*/150),
      availability_(liveAvailability(*context.backend())) {
  job_ = new LiveSweepJob(context.backend(), this);
  model_ = new LiveSweepModel(this);
  QWidget* controls = buildControls();
  layOut(controls, 390, 440, buildResults(), run_footer_);

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

const PickSummary& LiveSweepView::replay() const {
  return model_->replay();
}

int LiveSweepView::spillThreshold() const {
  return static_cast<int>(liveMetaNumber(data_, "spill_threshold", inductor::kSpillThreshold));
}

QTableWidget* LiveSweepView::regretTable() const {
  return regret_->table();
}

QString LiveSweepView::startRun() {
  if (!availability_.available) {
    QString msg = tr("Run is not available: %1").arg(availability_.reason);
    setStatus(msg, true);
    return msg;
  }
  QString invalid = inputs_->validationMessage();
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
  job_->start(req);
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

// The job drops a superseded request's reports: whatever arrives here is the latest request's.
void LiveSweepView::onPhase(quint64 /*id*/, Phase phase, qulonglong done, qulonglong total) {
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

void LiveSweepView::onRowMeasured(quint64 /*id*/, qulonglong done, qulonglong total, const LiveRow& row) {
  std::vector<LiveRow> rows = model_->rows();
  rows.push_back(row);
  model_->appendRow(row, summarizeReplay(rows, spillThreshold()));
  setProgress(done, total);
  progress_->setFormat(tr("run %1 of %2: %3").arg(done).arg(total).arg(liveConfigText(row.config)));
  setStatus(liveRowStatusText(row));
  if (xblock_filter_->findData(row.config.xblock) < 0) refreshXBlockFilter(xblocksOf(model_->rows()));
  rebuildRegretTable();
  schedulePlots();
}

void LiveSweepView::onFinished(quint64 /*id*/, const std::shared_ptr<const LiveSweepResult>& outcome) {
  if (!outcome) return;
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

void LiveSweepView::onFailed(quint64 /*id*/, const QString& message) {
  showFailure(tr("The live sweep did not run: %1").arg(message), message);
}

void LiveSweepView::onRunningChanged(bool running) {
  const bool can_run = availability_.available;
  run_button_->setEnabled(can_run);
  run_button_->setText(running ? tr("Restart") : tr("Run"));
  if (!running && model_->rowCount() == 0) progress_->setFormat(can_run ? tr("idle") : tr("no GPU"));
}

void LiveSweepView::showDataset(LiveDataset loaded, const QString& label) {
  data_ = std::move(loaded);
  copy_GBps_ = liveMetaNumber(data_, "copy_bandwidth_GBps", 0.0);
  datasheet_GBps_ = datasheetBandwidthOf(data_);  // the datasheet figure of the GPU it was measured on
  std::vector<LiveRow> rows = data_.rows;
  const PickSummary replay = summarizeReplay(rows, spillThreshold());
  model_->setRows(std::move(rows), replay);  // no Triton pairs: a new dataset has none until compared
  fidelity_.reset();
  fidelity_source_.clear();
  showFidelity();
  dataset_label_->setText(label);
  dataset_detail_->setText(liveDatasetDetail(data_, copy_GBps_));
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
    QString msg = QString::fromStdString(loaded.error());
    setStatus(msg, true);
    return msg;
  }
  dropRunningJob();
  const QString label = recordedLabel(*loaded);
  // The inputs follow the opened dataset, so Run (on a machine with a GPU) measures the same sweep.
  CompileSweepSpec spec;
  inputs_->fillSpec(spec);
  inputs_->setFromSpec(liveSpecFromDataset(*loaded, spec));
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
  fidelity_ = std::move(fidelity).value();
  fidelity_source_ = fidelitySourceText(*runs, path);
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
  fidelity_label_->setText(fidelitySummaryText(paired ? &*fidelity_ : nullptr, fidelity_source_));
}

QString LiveSweepView::describeRow(int r) const {
  const LiveRow* row = model_->row(r);
  return row != nullptr ? describeLiveRow(*row, model_->picksAt(r), model_->tritonPairAt(r)) : QString();
}

void LiveSweepView::rebuildPlots() {
  const auto& rows = model_->rows();
  const LivePlotRows shown = livePlotRows(rows, plotXBlock(), selectedRow());
  const bool triton = fidelity_ && triton_series_->isChecked();
  SweepPlotData bandwidth = liveBandwidthPlot(rows, model_->replay(), shown, copy_GBps_, datasheet_GBps_);
  SweepPlotData time = liveTimePlot(rows, shown, triton ? fidelity_->pairs : std::vector<FidelityPair>{});
  SweepPlotData occupancy = liveOccupancyPlot(rows, shown);
  const QString note = livePlotNote(shown, isRunning(), model_->numRows() > 0, availability_.available);
  for (SweepPlotData* d : {&bandwidth, &time, &occupancy}) d->note = note;
  bw_plot_->show(bandwidth);
  time_plot_->show(time);
  occ_plot_->show(occupancy);
}

void LiveSweepView::rebuildRegretTable() {
  regret_->showLines(regretLines(model_->replay(), model_->rows()));
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
  const CsvTable regret = regretCsv(model_->replay(), d.rows, data_.metaValue("device"), data_.metaValue("date_utc"));
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
  return liveResultSummary(rp, dataset_label_->text(), copy_GBps_);
}

QString LiveSweepView::reportText() const {
  return model_->rowCount() == 0 ? QString() : liveReportHtml(data_);
}

}  // namespace occx::ui
