#include "ui/views/inductor_run_view.h"

#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLabel>
#include <QMetaMethod>
#include <QSettings>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <utility>

#include "ui/models/inductor_run_actions.h"
#include "ui/models/inductor_run_text.h"
#include "ui/models/text.h"
#include "ui/plots/step_pareto_plot.h"
#include "ui/views/inductor_config_pane.h"
#include "ui/views/inductor_detail_tabs.h"
#include "ui/views/inductor_kernel_list_pane.h"
#include "ui/views/inductor_measure_controls.h"
#include "ui/views/inductor_open_pane.h"
#include "ui/views/inductor_sweep_pane.h"
#include "ui/views/step_pane.h"

namespace occx::ui {

namespace {

/// A splitter of `first` and `second` (stretched `first_stretch` : `second_stretch`) that never
/// collapses either.
QSplitter* splitPair(Qt::Orientation orientation, const QString& name, QWidget* first, QWidget* second,
                     int first_stretch, int second_stretch) {
  auto* split = new QSplitter(orientation);
  split->setObjectName(name);
  split->setChildrenCollapsible(false);
  split->addWidget(first);
  split->addWidget(second);
  split->setStretchFactor(0, first_stretch);
  split->setStretchFactor(1, second_stretch);
  return split;
}

}  // namespace

InductorRunView::InductorRunView(const ViewContext& context, QWidget* parent)
    : QWidget(parent),
      open_(new InductorOpenPane),
      kernels_(new InductorKernelListPane),
      configs_(new InductorConfigPane),
      controls_(new InductorMeasureControls),
      detail_tabs_(new InductorDetailTabs),
      step_pane_(detail_tabs_->stepPane()) {
  setObjectName(QStringLiteral("inductorRun"));
  auto* root = new QVBoxLayout(this);
  root->setContentsMargins(8, 8, 8, 8);
  root->addWidget(open_);
  configs_->addToButtonRow(controls_);
  main_split_ = splitPair(Qt::Horizontal, QStringLiteral("inductorMainSplit"), kernels_, buildDetailColumn(), 1, 2);
  main_split_->setSizes({280, 740});
  root->addWidget(main_split_, 1);

  connectPanes();
  controls_->setBackend(context.backend(), /*ordinal=*/0);
  step_pane_->setBackend(context.backend(), /*ordinal=*/0);

  const auto runs = bundledInductorRuns();
  if (!runs.empty()) openBundled(runs.front().key);
}

InductorRunView::~InductorRunView() = default;

QWidget* InductorRunView::buildDetailColumn() {
  // The kernel's title and the buttons over the pages, the config table the first page: on a
  // 1280 × 720 screen the table over the plots left it four rows and the plots a strip. The table
  // has the pages' height, each plot too; the title and the buttons stay in sight on every page.
  auto* column = new QWidget;
  column->setObjectName(QStringLiteral("inductorDetailColumn"));
  auto* v = new QVBoxLayout(column);
  v->setContentsMargins(0, 0, 0, 0);
  v->setSpacing(4);
  v->addWidget(configs_->titleLabel());
  v->addWidget(configs_->buttonRow());
  detail_tabs_->insertTab(0, configs_, tr("Configs"));
  detail_tabs_->setTabToolTip(0, tr("The kernel's compiled configs: select one for the plots, the calculator or "
                                    "the RBLOCK-scaling view"));
  detail_tabs_->setCurrentIndex(0);
  v->addWidget(detail_tabs_, 1);
  return column;
}

QTabWidget* InductorRunView::detailTabs() const {
  return detail_tabs_;
}

void InductorRunView::connectPanes() {
  connect(open_, &InductorOpenPane::openFolderRequested, this, &InductorRunView::openFolderInteractive);
  connect(open_, &InductorOpenPane::openFileRequested, this, &InductorRunView::openFileInteractive);
  connect(open_, &InductorOpenPane::bundledRunRequested, this, &InductorRunView::openBundled);
  connect(open_, &InductorOpenPane::scanned, this, [this](std::shared_ptr<const triton::InductorRun> run) {
    bundled_key_.clear();
    showRun(runDataFromScan(std::move(run)));
  });
  connect(open_, &InductorOpenPane::scanEnded, this, &InductorRunView::scanFinished);
  connect(open_, &InductorOpenPane::scanFailed, this, &InductorRunView::fileError);
  connect(kernels_, &InductorKernelListPane::kernelChosen, this, [this] { showKernel(); });
  connect(kernels_, &InductorKernelListPane::chosenHiddenChanged, this, &InductorRunView::followHiddenKernel);
  connect(configs_, &InductorConfigPane::configChanged, this, &InductorRunView::showConfigDetails);
  connect(configs_, &InductorConfigPane::openInCalculator, this, &InductorRunView::openInCalculator);
  connect(configs_, &InductorConfigPane::openInRblock, this, &InductorRunView::openInRblock);
  connect(step_pane_, &StepPane::profileChanged, this, [this] { kernels_->setInStepTimes(step_pane_->profile()); });
  connect(step_pane_, &StepPane::traceOpened, this, &InductorRunView::pathOpened);
  connect(step_pane_, &StepPane::traceNotOpened, this, &InductorRunView::fileError);
  connect(step_pane_, &StepPane::modelSweepRequested, this, &InductorRunView::sweepStep);
  connect(step_pane_, &StepPane::kernelActivated, this, [this](const QString& name, const QString& module) {
    selectKernel(kernelIndexOf(data_, name.toStdString(), module.toStdString()));
  });

  connect(controls_, &InductorMeasureControls::runRequested, this, &InductorRunView::runSelectedKernel);
  connect(controls_, &InductorMeasureControls::runAllRequested, this, &InductorRunView::runAllKernels);
  connect(controls_, &InductorMeasureControls::sweepRequested, this, &InductorRunView::sweepSelectedKernel);
  connect(controls_, &InductorMeasureControls::status, open_, &InductorOpenPane::setStatus);
  connect(controls_, &InductorMeasureControls::measured, this,
          [this](const std::shared_ptr<const triton::KernelMeasurements>& result) {
            const QString merged = mergeMeasured(data_, *result, measuredLabelOf(*result) + tr(" — on this machine"));
            showMerged(true);
            say(measureStatusText(*result, merged));
            emit measureFinished();
          });
  connect(controls_, &InductorMeasureControls::measureFailed, this, &InductorRunView::measureFinished);
  connect(controls_, &InductorMeasureControls::swept, this,
          [this](const std::shared_ptr<const triton::KernelSweepResult>& result) {
            const QString not_merged =
                mergeSweep(data_, *result, measuredLabelOf(result->runs) + tr(" — swept on this machine"));
            if (!not_merged.isEmpty()) {
              say(not_merged, true);
            } else {
              QStringList lines;
              for (const auto& l : result->explanation) lines << q(l);
              sweep_explanations_[result->kernel.module.module_hash] = lines;
              showMerged(false);
              say(sweepStatusText(*result, lines));
              detail_tabs_->setCurrentWidget(detail_tabs_->sweepPane());
            }
            emit kernelSweepFinished();
          });
  connect(controls_, &InductorMeasureControls::sweepFailed, this, &InductorRunView::kernelSweepFinished);
}

QString InductorRunView::say(const QString& text, bool error) {
  open_->setStatus(text, error);
  return text;
}

// ---- opening a run ------------------------------------------------------------------------------

QString InductorRunView::openPath(const QString& path) {
  bool handed_over = false;
  return open(path, handed_over);
}

QString InductorRunView::open(const QString& path, bool& handed_over) {
  handed_over = false;
  const QFileInfo info(path);
  if (!info.exists()) return say(tr("%1 does not exist.").arg(QDir::toNativeSeparators(path)), true);
  last_folder_ = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
  const RunPathKind kind = runPathKindOf(path);
  switch (kind) {
    case RunPathKind::kMeasurementsCsv:
      return openMeasurementsCsv(path);
    case RunPathKind::kProfilerTrace:
      return openTrace(path);
    case RunPathKind::kLiveSweepCsv:
    case RunPathKind::kCompileSweepCsv:
      if (!isSignalConnected(QMetaMethod::fromSignal(&InductorRunView::openElsewhere)))
        return say(otherViewDatasetText(path, kind, false), true);
      say(otherViewDatasetText(path, kind, true));
      handed_over = true;
      emit openElsewhere(path);  // that view's opener remembers it (Open Recent) when it opens
      return {};
    case RunPathKind::kScanCsv: {
      auto loaded = runDataFromCsv(path);
      if (!loaded) return say(q(loaded.error()), true);
      open_->dropScan();
      bundled_key_.clear();
      showRun(std::move(loaded).value());
      say(tr("Opened %1.").arg(QDir::toNativeSeparators(path)));
      return {};
    }
    case RunPathKind::kScan:
      break;
  }
  open_->startScan(path);
  return {};
}

QString InductorRunView::openBundled(const QString& key) {
  auto loaded = loadBundledRun(key);
  if (!loaded) return say(q(loaded.error()), true);
  open_->dropScan();
  bundled_key_ = key;
  showRun(std::move(loaded).value());
  say(
      tr("A bundled run: recorded with its kernel modules, shown without its Triton cache (the numbers are in its "
         "CSV)."));
  return {};
}

QString InductorRunView::openMeasurementsCsv(const QString& path) {
  auto runs = measurementsFromFile(path);
  if (!runs) return say(q(runs.error()), true);
  const QString merged =
      mergeMeasured(data_, *runs, measuredLabelOf(*runs) + tr(" — %1").arg(QFileInfo(path).fileName()));
  if (!merged.isEmpty()) return say(merged, true);
  open_->showRun(data_);  // a sweep's CSV may have added configs
  showMerged(true);
  say(tr("Merged the measurements of %1.").arg(QDir::toNativeSeparators(path)));
  return {};
}

QString InductorRunView::openTrace(const QString& path) {
  detail_tabs_->setCurrentWidget(step_pane_);
  kernels_->resortByInStepTime();
  return step_pane_->openTrace(path);
}

void InductorRunView::cancelScan() {
  open_->cancelScan();
}

bool InductorRunView::isScanning() const {
  return open_->isScanning();
}

void InductorRunView::openFolderInteractive() {
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Open Inductor run (a cache or torch_compile_debug folder)"),
      last_folder_.isEmpty() ? QString::fromStdString(triton::defaultInductorCacheDir()) : last_folder_);
  if (dir.isEmpty()) return;
  if (const QString error = openPath(dir); error.isEmpty()) {
    emit pathOpened(dir);
  } else {
    emit fileError(error);
  }
}

void InductorRunView::openFileInteractive() {
  const QString file =
      QFileDialog::getOpenFileName(this, tr("Open a scan CSV or a kernel module"), last_folder_,
                                   tr("Scan CSV, kernel-runs CSV or kernel module (*.csv *.py);;All files (*)"));
  if (file.isEmpty()) return;
  bool handed_over = false;
  if (const QString error = open(file, handed_over); !error.isEmpty()) {
    emit fileError(error);
  } else if (!handed_over) {
    emit pathOpened(file);
  }
}

// ---- showing the run ----------------------------------------------------------------------------

void InductorRunView::showRun(InductorRunData run) {
  data_ = std::move(run);
  controls_->discard();  // a run's rows or a sweep's kernel belong to the run shown before
  sweep_explanations_.clear();
  open_->showRun(data_);
  open_->setBundledKey(bundled_key_);
  kernels_->setKernels(data_.kernels, /*new_run=*/true);
  step_pane_->setRun(data_.rows, data_.origin, data_.scanned);
  step_pane_->setBundledTrace(bundledTracePath(bundled_key_));
  const int first = preferredKernel(data_);
  if (first < 0 || !kernels_->selectKernel(first)) showKernel();
  updateRunButtons();
  emit statusMessage(statusSummary());
}

void InductorRunView::showMerged(bool keep_config) {
  const int config_row = configs_->selectedRow();
  kernels_->setKernels(data_.kernels, /*new_run=*/false);  // a sweep may have added configs
  open_->showTitle(data_);
  showKernel();
  if (keep_config) selectConfig(config_row);
}

bool InductorRunView::selectKernel(int index) {
  return kernels_->selectKernel(index);
}

int InductorRunView::selectedKernel() const {
  return kernels_->chosenKernel();
}

void InductorRunView::showKernel() {
  const RunKernelEntry* k = kernels_->chosenEntry();
  QString none;
  if (const RunKernelEntry* hidden = kernels_->hiddenEntry()) {
    QString name = q(hidden->kernel).toHtmlEscaped();
    name.replace(QLatin1Char('_'), QStringLiteral("_&#8203;"));  // breaks after underscores, as in the title
    none = tr("<b>No kernel selected</b> — the filter hides %1. Clear the filter to see it again.").arg(name);
  }
  configs_->showKernel(data_, k, none);
  detail_tabs_->showKernel(data_, k, configs_->configs(), runUnavailableReason(),
                           k != nullptr ? sweepExplanation(k->module) : QStringList());
  updateRunButtons();
  if (k == nullptr || !configs_->selectConfig(winnerConfigRow(*k))) showConfigDetails();
}

void InductorRunView::followHiddenKernel(bool hidden) {
  const int config_row = hidden_config_row_;
  hidden_config_row_ = hidden ? configs_->selectedRow() : -1;
  showKernel();
  if (!hidden && config_row >= 0) selectConfig(config_row);
}

bool InductorRunView::selectConfig(int row) {
  return configs_->selectConfig(row);
}

const triton::ScanRow* InductorRunView::selectedConfig() const {
  return configs_->selectedConfig();
}

std::optional<ConfigHandOver> InductorRunView::selectedHandOver() const {
  return configs_->selectedHandOver();
}

void InductorRunView::showConfigDetails() {
  detail_tabs_->showConfig(kernels_->chosenEntry(), configs_->configs(), configs_->selectedRow());
}

// ---- running and sweeping -----------------------------------------------------------------------

QString InductorRunView::runUnavailableReason() const {
  return ui::runUnavailableReason(data_, !bundled_key_.isEmpty(), controls_->backend());
}

QString InductorRunView::sweepUnavailableReason() const {
  return ui::sweepUnavailableReason(data_, kernels_->chosenEntry(), bundled_key_);
}

void InductorRunView::updateRunButtons() {
  controls_->enableFor(data_, kernels_->chosenEntry(), bundled_key_);
}

QString InductorRunView::runSelectedKernel() {
  return controls_->measureKernel(data_, kernels_->chosenEntry(), bundled_key_);
}

QString InductorRunView::runAllKernels() {
  return controls_->measureAll(data_, bundled_key_);
}

void InductorRunView::cancelMeasure() {
  controls_->cancelMeasure();
}

bool InductorRunView::isRunningKernels() const {
  return controls_->isMeasuring();
}

QString InductorRunView::sweepSelectedKernel() {
  return controls_->sweep(data_, kernels_->chosenEntry(), bundled_key_, detail_tabs_->sweepPane()->gridText(),
                          detail_tabs_->sweepPane()->pythonText());
}

QString InductorRunView::sweepStep() {
  return step_pane_->sweepModel(detail_tabs_->sweepPane()->pythonText());
}

void InductorRunView::cancelKernelSweep() {
  controls_->cancelSweep();
}

bool InductorRunView::isSweeping() const {
  return controls_->isSweeping();
}

QStringList InductorRunView::sweepExplanation(const std::string& module) const {
  auto it = sweep_explanations_.find(module);
  return it == sweep_explanations_.end() ? QStringList() : it->second;
}

// ---- AppView ------------------------------------------------------------------------------------

std::vector<CsvExport> InductorRunView::csvExports() const {
  std::vector<CsvExport> out;
  if (data_.rows.empty()) return out;
  out.push_back({tr("Inductor run: every kernel and config"), QStringLiteral("inductor-run.csv"), runDataToCsv(data_)});
  if (const RunKernelEntry* k = kernels_->chosenEntry()) {
    out.push_back({tr("Configs of the selected kernel"), QStringLiteral("inductor-kernel-configs.csv"),
                   runDataToCsv(kernelRunData(data_, *k))});
  }
  if (!data_.measured.rows.empty()) {
    out.push_back({tr("Measured kernel runs (every measured config)"), QStringLiteral("inductor-kernel-runs.csv"),
                   triton::measurementsToCsv(data_.measured)});
  }
  if (const StepResult* step = step_pane_->result()) {
    out.push_back({tr("Step: every kernel by in-step time"), QStringLiteral("step-profile.csv"),
                   step::stepToCsv(step->profile, step->run())});
  }
  return out;
}

std::vector<PlotController*> InductorRunView::plotExports() const {
  std::vector<PlotController*> plots = detail_tabs_->plots();
  if (step_pane_->profile() != nullptr) plots.push_back(step_pane_->paretoPlot());
  return plots;
}

QString InductorRunView::reportText() const {
  return runReportHtml(data_, step_pane_->profile() != nullptr, step_pane_->tracePath(), step_pane_->words());
}

void InductorRunView::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("lastFolder"), last_folder_);
  s.setValue(QStringLiteral("bundledRun"), bundled_key_);
  s.setValue(QStringLiteral("filter"), kernels_->filterText());
  s.setValue(QStringLiteral("mainSplit"), main_split_->saveState());
  s.setValue(QStringLiteral("detailTab"), detail_tabs_->currentIndex());
  s.setValue(QStringLiteral("python"), detail_tabs_->sweepPane()->pythonText());
  s.setValue(QStringLiteral("sweepGrid"), detail_tabs_->sweepPane()->gridText());
}

void InductorRunView::restoreSettings(QSettings& s) {
  last_folder_ = s.value(QStringLiteral("lastFolder")).toString();
  const QString key = s.value(QStringLiteral("bundledRun")).toString();
  if (!key.isEmpty() && key != bundled_key_) openBundled(key);
  kernels_->setFilterText(s.value(QStringLiteral("filter")).toString());
  detail_tabs_->sweepPane()->setPythonText(s.value(QStringLiteral("python")).toString());
  detail_tabs_->sweepPane()->setGridText(s.value(QStringLiteral("sweepGrid")).toString());
  main_split_->restoreState(s.value(QStringLiteral("mainSplit")).toByteArray());
  bool ok = false;
  const int tab = s.value(QStringLiteral("detailTab")).toInt(&ok);
  if (ok && tab >= 0 && tab < detail_tabs_->count()) detail_tabs_->setCurrentIndex(tab);
}

QString InductorRunView::statusSummary() const {
  if (data_.rows.empty()) return tr("Open an Inductor cache folder, a scan CSV, or a bundled run.");
  return data_.title + QStringLiteral(" · ") + data_.summary;
}

}  // namespace occx::ui
