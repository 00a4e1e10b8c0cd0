#include "ui/views/inductor_run_view.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMetaMethod>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QTableWidget>
#include <QTextBlock>
#include <QVBoxLayout>
#include <set>

#include "core/base/atomic_file.h"
#include "core/gpu/gpu_data.h"
#include "core/inductor/teaching.h"
#include "core/triton/kernel_sweep.h"
#include "ui/jobs/inductor_scan_job.h"
#include "ui/jobs/kernel_sweep_job.h"
#include "ui/jobs/measure_job.h"
#include "ui/models/csv_file.h"
#include "ui/models/inductor_run_models.h"
#include "ui/models/text.h"
#include "ui/plots/config_occupancy_plot.h"
#include "ui/plots/measured_times_plot.h"
#include "ui/plots/rblock_bounds_plot.h"
#include "ui/plots/step_pareto_plot.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/step_pane.h"

namespace occx::ui {

namespace {

QTableView* makeTable(QAbstractItemModel* model, const QString& name) {
  auto* table = new QTableView;
  table->setObjectName(name);
  table->setModel(model);
  table->setSelectionBehavior(QAbstractItemView::SelectRows);
  table->setSelectionMode(QAbstractItemView::SingleSelection);
  table->setSortingEnabled(true);
  table->verticalHeader()->setVisible(false);
  table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
  table->horizontalHeader()->setHighlightSections(false);
  table->setWordWrap(false);
  return table;
}

std::int64_t numelOf(const std::string& text, std::int64_t fallback) {
  bool ok = false;
  const qlonglong v = q(text).toLongLong(&ok);
  return ok && v > 0 ? v : fallback;
}

}  // namespace

InductorRunView::InductorRunView(QWidget* parent)
    : QWidget(parent),
      job_(new InductorScanJob(this)),
      run_job_(new MeasureJob(this)),
      sweep_job_(new KernelSweepJob(this)) {
  setObjectName(QStringLiteral("inductorRun"));
  auto* root = new QVBoxLayout(this);
  root->setContentsMargins(8, 8, 8, 8);
  root->addWidget(buildTopBar());

  main_split_ = new QSplitter(Qt::Horizontal);
  main_split_->setObjectName(QStringLiteral("inductorMainSplit"));
  main_split_->setChildrenCollapsible(false);
  main_split_->addWidget(buildKernelPane());
  main_split_->addWidget(buildKernelDetails());
  main_split_->setStretchFactor(0, 1);
  main_split_->setStretchFactor(1, 2);
  main_split_->setSizes({340, 680});
  root->addWidget(main_split_, 1);

  connect(job_, &InductorScanJob::progress, this, [this](quint64 id, const QString& phase, int done, int total) {
    if (id != scan_id_) return;
    progress_->setMaximum(total > 0 ? total : 0);
    progress_->setValue(done);
    setStatus(total > 0 ? tr("Scanning: %1 (%2 of %3)…").arg(phase).arg(done).arg(total)
                        : tr("Scanning: %1…").arg(phase));
  });
  connect(job_, &InductorScanJob::finished, this, [this](quint64 id, std::shared_ptr<const triton::InductorRun> run) {
    if (id != scan_id_) return;  // superseded: the user opened something else since
    InductorRunData scanned = runDataFromScan(run);
    bundled_key_.clear();
    showRun(std::move(scanned));
    QString text =
        tr("Read %1 files; Triton caches: %2.")
            .arg(run->files_read)
            .arg(run->triton_caches.empty()
                     ? tr("none found")
                     : q(run->triton_caches.front()) + (run->triton_caches.size() > 1
                                                            ? tr(" and %1 more").arg(run->triton_caches.size() - 1)
                                                            : QString()));
    if (!run->problems.empty())
      text +=
          tr(" %n file(s) could not be read (hover for the list).", nullptr, static_cast<int>(run->problems.size()));
    setStatus(text, false);
    QStringList problems;
    for (const auto& p : run->problems) problems << q(p);
    status_->setToolTip(problems.join(QLatin1Char('\n')));
    emit scanFinished();
  });
  connect(job_, &InductorScanJob::failed, this, [this](quint64 id, const QString& message) {
    if (id != scan_id_) return;
    setStatus(message, true);
    emit scanFinished();
  });
  connect(job_, &InductorScanJob::cancelled, this, [this](quint64 id) {
    if (id != scan_id_) return;
    setStatus(tr("Scan cancelled; the run shown before is kept."));
    emit scanFinished();
  });
  connect(job_, &Job::runningChanged, this, [this](bool running) {
    progress_->setVisible(running);
    cancel_->setVisible(running);
  });

  connect(run_job_, &MeasureJob::progress, this, [this](quint64 id, const QString& text, int done, int total) {
    if (id != run_id_) return;
    run_progress_->setMaximum(std::max(total, 1));
    run_progress_->setValue(done);
    setStatus(tr("Running on the GPU: %1").arg(text));
  });
  connect(run_job_, &MeasureJob::finished, this,
          [this](quint64 id, std::shared_ptr<const triton::KernelMeasurements> result) {
            if (id != run_id_) return;
            run_id_ = 0;
            const int config_row = config_row_;
            const QString merged = mergeMeasured(data_, *result, measuredLabelOf(*result) + tr(" — on this machine"));
            kernel_model_->setRows(data_.kernels);
            int ok = 0;
            for (const auto& r : result->rows) ok += r.ok() ? 1 : 0;
            showTitle();
            showKernel(kernel_index_);
            selectConfig(config_row);
            QString text =
                tr("Ran %n config(s) on the GPU, %1 ok, in %2 s.", nullptr, static_cast<int>(result->rows.size()))
                    .arg(ok)
                    .arg(result->seconds, 0, 'f', 1);
            if (result->cancelled) text += tr(" Cancelled: the finished rows are kept.");
            if (!merged.isEmpty()) text += QLatin1Char(' ') + merged;
            setStatus(text);
            emit measureFinished();
          });
  connect(run_job_, &MeasureJob::failed, this, [this](quint64 id, const QString& message) {
    if (id != run_id_) return;
    run_id_ = 0;
    setStatus(tr("Could not run on the GPU: %1").arg(message), true);
    emit measureFinished();
  });
  connect(run_job_, &Job::runningChanged, this, [this](bool running) {
    run_progress_->setVisible(running);
    run_cancel_->setVisible(running);
    updateRunButtons();
  });

  connect(sweep_job_, &KernelSweepJob::progress, this, [this](quint64 id, const QString& text, int done, int total) {
    if (id != sweep_id_) return;
    run_progress_->setMaximum(std::max(total, 1));
    run_progress_->setValue(done);
    setStatus(tr("Sweeping: %1").arg(text));
  });
  connect(sweep_job_, &KernelSweepJob::finished, this,
          [this](quint64 id, std::shared_ptr<const triton::KernelSweepResult> result) {
            if (id != sweep_id_) return;
            sweep_id_ = 0;
            mergeSweep(*result);
            emit kernelSweepFinished();
          });
  connect(sweep_job_, &KernelSweepJob::failed, this, [this](quint64 id, const QString& message) {
    if (id != sweep_id_) return;
    sweep_id_ = 0;
    setStatus(tr("Could not sweep: %1").arg(message), true);
    status_->setToolTip(message);
    emit kernelSweepFinished();
  });
  connect(sweep_job_, &Job::runningChanged, this, [this](bool running) {
    run_progress_->setVisible(running);
    run_cancel_->setVisible(running);
    updateRunButtons();
  });

  const auto runs = bundledInductorRuns();
  if (!runs.empty()) openBundled(runs.front().key);
}

void InductorRunView::setBackend(std::shared_ptr<Backend> backend, int ordinal) {
  backend_ = std::move(backend);
  ordinal_ = ordinal;
  updateRunButtons();
}

QString InductorRunView::runUnavailableReason() const {
  if (data_.rows.empty()) return tr("Open an Inductor cache folder first.");
  if (!data_.scanned) {
    return bundled_key_.isEmpty()
               ? tr("Opened from a CSV: open the run's folder (its Inductor cache) to run its compiled configs.")
               : tr("A bundled run has no cubins: open the run's folder (its Inductor cache) to run its compiled "
                    "configs.");
  }
  if (!backend_) return tr("No GPU backend in this build.");
  const Availability a = backend_->liveAvailability();
  if (!a.available) return q(a.reason);
  return {};
}

void InductorRunView::updateRunButtons() {
  const QString why = runUnavailableReason();
  const bool running = run_job_->isRunning();
  const RunKernelEntry* k = kernel_model_->row(kernel_index_);
  const bool has_configs = k != nullptr && k->compiledConfigs() > 0;
  const bool busy = running || sweep_job_->isRunning();
  run_button_->setEnabled(why.isEmpty() && !busy && has_configs);
  run_all_button_->setEnabled(why.isEmpty() && !busy);
  const QString no_sweep = sweepUnavailableReason();
  sweep_button_->setEnabled(no_sweep.isEmpty() && !busy);
  sweep_button_->setToolTip(no_sweep.isEmpty() ? tr("Compile this kernel at the configs Inductor never tried (XBLOCK "
                                                    "1…8 × R0_BLOCK 256…the row × num_warps 4…32, "
                                                    "and what each policy would add) with your Python's PyTorch and "
                                                    "Triton — no GPU needed — then, with a GPU, "
                                                    "time every config")
                                               : no_sweep);
  if (!why.isEmpty()) {
    run_button_->setToolTip(why);
    run_all_button_->setToolTip(why);
  } else {
    run_button_->setToolTip(has_configs ? tr("Launch every compiled config of this kernel on the GPU (the cubins of "
                                             "its Triton cache), check its outputs, time it")
                                        : tr("This kernel has no compiled config to run."));
    run_all_button_->setToolTip(tr("Run every kernel of the run with compiled configs on the GPU"));
  }
}

QString InductorRunView::startMeasure(std::vector<const triton::RunKernel*> kernels) {
  if (const QString why = runUnavailableReason(); !why.isEmpty()) {
    setStatus(why, true);
    return why;
  }
  if (kernels.empty()) {
    const QString why = tr("No kernel with compiled configs to run.");
    setStatus(why, true);
    return why;
  }
  triton::MeasureOptions options;
  run_id_ = run_job_->start(backend_, ordinal_, data_.scanned, std::move(kernels), options);
  run_progress_->setValue(0);
  setStatus(tr("Running on the GPU…"));
  return {};
}

QString InductorRunView::runSelectedKernel() {
  const RunKernelEntry* k = kernel_model_->row(kernel_index_);
  std::vector<const triton::RunKernel*> kernels;
  if (k != nullptr && data_.scanned) {
    for (const auto& rk : data_.scanned->kernels) {
      if (rk.module.name == k->kernel && rk.module.module_hash == k->module && !rk.configs.empty())
        kernels.push_back(&rk);
    }
  }
  return startMeasure(std::move(kernels));
}

QString InductorRunView::runAllKernels() {
  std::vector<const triton::RunKernel*> kernels;
  if (data_.scanned) {
    for (const auto& rk : data_.scanned->kernels) {
      if (!rk.configs.empty()) kernels.push_back(&rk);
    }
  }
  return startMeasure(std::move(kernels));
}

void InductorRunView::cancelMeasure() {
  run_job_->cancel();
}

bool InductorRunView::isRunningKernels() const {
  return run_job_->isRunning();
}

// ---- sweeps ------------------------------------------------------------------------------------

namespace {

/// The bundled module of `module` of bundled run `key` (":/inductor-runs/<key>/<module>.py"); empty when none.
QString bundledModulePath(const QString& key, const std::string& module) {
  const QString path = QStringLiteral(":/inductor-runs/%1/%2.py").arg(key, QString::fromStdString(module));
  return QFile::exists(path) ? path : QString();
}

}  // namespace

QString InductorRunView::sweepUnavailableReason() const {
  const RunKernelEntry* k = kernel_model_->row(kernel_index_);
  if (k == nullptr) return tr("Select a kernel first.");
  if (k->kind != triton::kernelKindName(triton::KernelKind::kLoopedReduction) &&
      k->kind != triton::kernelKindName(triton::KernelKind::kPersistentReduction)) {
    return tr("Only looped and persistent reductions can be swept (this is a %1 kernel).").arg(q(k->kind));
  }
  if (data_.scanned) return {};
  if (!bundled_key_.isEmpty() && !bundledModulePath(bundled_key_, k->module).isEmpty()) return {};
  return tr(
      "Opened from a CSV: open the run's folder (its Inductor cache) to sweep its kernels — a sweep compiles the "
      "kernel's module.");
}

QString InductorRunView::sweepSelectedKernel() {
  if (const QString why = sweepUnavailableReason(); !why.isEmpty()) {
    setStatus(why, true);
    return why;
  }
  if (run_job_->isRunning() || sweep_job_->isRunning()) {
    const QString why = tr("A run or sweep is in progress: cancel it first.");
    setStatus(why, true);
    return why;
  }
  const RunKernelEntry* k = kernel_model_->row(kernel_index_);
  triton::RunKernel kernel;
  std::string text;
  bool found = false;
  if (data_.scanned) {
    for (const auto& rk : data_.scanned->kernels) {
      if (rk.module.name == k->kernel && rk.module.module_hash == k->module) {
        kernel = rk;
        found = true;
      }
    }
    if (found) {
      auto t = readFile(kernel.module.path);
      if (!t) {
        const QString why = tr("The kernel's module %1 cannot be read: %2").arg(q(kernel.module.path), q(t.error()));
        setStatus(why, true);
        return why;
      }
      text = std::move(*t);
    }
  } else {
    QFile f(bundledModulePath(bundled_key_, k->module));
    if (f.open(QIODevice::ReadOnly)) {
      const QByteArray bytes = f.readAll();
      text.assign(bytes.constData(), static_cast<std::size_t>(bytes.size()));
      auto parsed = triton::parseKernelModule(text, k->module + ".py");
      if (parsed) {
        kernel = triton::analyseKernel(std::move(*parsed), {}, std::nullopt, GpuDatabase::builtin());
        found = true;
      }
    }
  }
  if (!found) {
    const QString why = tr("The kernel %1 is not in the run's scan.").arg(q(k->kernel));
    setStatus(why, true);
    return why;
  }
  triton::KernelSweepOptions options;
  options.policies = true;
  if (const QString grid = grid_edit_->text().trimmed(); grid.isEmpty()) {
    options.grid = triton::defaultConfigGrid(kernel);
  } else {
    auto g = triton::parseConfigGrid({grid.toStdString()}, kernel);
    if (!g) {
      const QString why = q(g.error()).replace(QStringLiteral("--grid "), QStringLiteral("Grid: "));
      setStatus(why, true);
      return why;
    }
    options.grid = *g;
  }
  options.compile.python = python_edit_->text().trimmed().toStdString();
  options.compile.choose_python =
      tr("choose another Python in the Python box next to the Grid box (empty: $OCCX_PYTHON, else python3)")
          .toStdString();
  std::shared_ptr<Backend> gpu;
  if (backend_ && backend_->liveAvailability().available) gpu = backend_;
  sweep_id_ = sweep_job_->start(gpu, ordinal_, std::move(kernel), std::move(text), options);
  run_progress_->setValue(0);
  setStatus(gpu ? tr("Sweeping: compiling with Triton, then running on the GPU…")
                : tr("Sweeping: compiling with Triton (no GPU: no times)…"));
  return {};
}

void InductorRunView::cancelKernelSweep() {
  sweep_job_->cancel();
}

bool InductorRunView::isSweeping() const {
  return sweep_job_->isRunning();
}

QStringList InductorRunView::sweepExplanation(const std::string& module) const {
  auto it = sweep_explanations_.find(module);
  return it == sweep_explanations_.end() ? QStringList() : it->second;
}

void InductorRunView::mergeSweep(const triton::KernelSweepResult& result) {
  const std::string name = result.kernel.module.name;
  const std::string module = result.kernel.module.module_hash;
  // The kernel's rows, again, with every config the sweep compiled.
  triton::InductorRun one;
  one.kernels.push_back(result.kernel);
  // Rows the run has keep what it knew (the winner, a bundled run's origins); the sweep's new
  // configs follow them.
  auto& rows = data_.rows;
  auto last = std::find_if(rows.rbegin(), rows.rend(),
                           [&](const triton::ScanRow& r) { return r.kernel == name && r.module == module; });
  if (last == rows.rend()) {
    setStatus(tr("The swept kernel %1 is not in the run shown any more.").arg(q(name)), true);
    return;
  }
  auto sameConfig = [](const triton::ScanRow& a, const triton::ScanRow& b) {
    return a.xblock == b.xblock && a.r0_block == b.r0_block && a.r1_block == b.r1_block && a.num_warps == b.num_warps &&
           a.num_stages == b.num_stages;
  };
  std::vector<triton::ScanRow> added;
  for (auto& r : triton::scanRows(one)) {
    if (!r.num_warps) continue;
    const bool known = std::any_of(rows.begin(), rows.end(), [&](const triton::ScanRow& o) {
      return o.kernel == name && o.module == module && sameConfig(o, r);
    });
    if (!known) added.push_back(std::move(r));
  }
  rows.insert(last.base(), added.begin(), added.end());
  groupKernels(data_);
  data_.summary = summaryOfRows(data_.rows);
  if (data_.scanned) {
    auto copy = std::make_shared<triton::InductorRun>(*data_.scanned);
    for (auto& k : copy->kernels) {
      if (k.module.name == name && k.module.module_hash == module) k = result.kernel;
    }
    data_.scanned = copy;
  }
  if (result.measured) mergeMeasured(data_, result.runs, measuredLabelOf(result.runs) + tr(" — swept on this machine"));
  QStringList lines;
  for (const auto& l : result.explanation) lines << q(l);
  sweep_explanations_[module] = lines;
  kernel_model_->setRows(data_.kernels);
  showTitle();
  showKernel(kernel_index_);
  int ok = 0;
  for (const auto& r : result.compile.configs) ok += r.ok ? 1 : 0;
  QString text = tr("Swept %1: %2 of %3 configs compiled in %4 s")
                     .arg(q(name))
                     .arg(ok)
                     .arg(result.compile.configs.size())
                     .arg(result.compile.seconds, 0, 'f', 1);
  text += result.measured ? tr(", every config timed.") : tr("; not timed (%1).").arg(q(result.not_measured));
  if (!lines.isEmpty()) text += QLatin1Char(' ') + lines.front();
  setStatus(text);
  detail_tabs_->setCurrentWidget(sweep_tab_);
}

QWidget* InductorRunView::buildSweepTab() {
  auto* box = new QWidget;
  auto* v = new QVBoxLayout(box);
  v->setContentsMargins(0, 0, 0, 0);
  auto* controls = new QHBoxLayout;
  sweep_xblock_ = new QComboBox;
  sweep_xblock_->setObjectName(QStringLiteral("sweepXblock"));
  sweep_metric_ = new QComboBox;
  sweep_metric_->setObjectName(QStringLiteral("sweepMetric"));
  sweep_metric_->addItems({tr("DRAM bandwidth (GB/s)"), tr("Device time, L2 cold (µs)"), tr("Registers per thread"),
                           tr("Theoretical occupancy (%)")});
  auto* xl = new QLabel(tr("XBLOCK:"));
  xl->setBuddy(sweep_xblock_);
  auto* ml = new QLabel(tr("Plot:"));
  ml->setBuddy(sweep_metric_);
  controls->addWidget(xl);
  controls->addWidget(sweep_xblock_);
  controls->addWidget(ml);
  controls->addWidget(sweep_metric_);
  controls->addSpacing(12);
  grid_edit_ = new QLineEdit;
  grid_edit_->setObjectName(QStringLiteral("sweepGridEdit"));
  grid_edit_->setPlaceholderText(tr("default grid"));
  grid_edit_->setToolTip(
      tr("The configs Sweep this kernel compiles, as occx inductor sweep --grid: \"XBLOCK=1,2 R0_BLOCK=512..4096 "
         "num_warps=4,8,16\" (axes left out take the default's). Empty: XBLOCK 1…8 × R0_BLOCK 256…the row × "
         "num_warps 4…32 with 1…64 elements per thread. Either way also what each policy would add."));
  auto* gl = new QLabel(tr("Grid:"));
  gl->setBuddy(grid_edit_);
  auto* pl = new QLabel(tr("Python:"));
  pl->setBuddy(python_edit_);
  controls->addWidget(gl);
  controls->addWidget(grid_edit_, 1);
  controls->addWidget(pl);
  controls->addWidget(python_edit_);
  sweep_note_ = new QLabel;
  sweep_note_->setObjectName(QStringLiteral("sweepNote"));
  sweep_note_->setWordWrap(true);
  sweep_note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  sweep_note_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  sweep_plot_ = new SweepSeriesPlot(tr("Sweep"), QStringLiteral("kernelSweepPlot"), box);
  sweep_plot_->setLegendPlace(PlotController::LegendPlace::kBeside);
  sweep_plot_->widget()->setMinimumHeight(180);
  v->addLayout(controls);
  v->addWidget(sweep_note_);
  v->addWidget(sweep_plot_->widget(), 1);
  auto replot = [this] { showSweepPlot(kernel_model_->row(kernel_index_)); };
  connect(sweep_xblock_, &QComboBox::activated, this, replot);
  connect(sweep_metric_, &QComboBox::activated, this, replot);
  return box;
}

void InductorRunView::showSweepPlot(const RunKernelEntry* k) {
  sweep_plot_->clear();
  if (k == nullptr) {
    sweep_note_->clear();
    sweep_plot_->setNote(tr("Select a kernel."));
    sweep_plot_->finish(0, 1);
    return;
  }
  const std::vector<triton::ScanRow>& rows = config_model_->rows();
  const auto measured = measuredOfRows(data_, rows);
  // XBLOCK choices: those of the kernel's configs; keep the current one when it is still there.
  const int current = sweep_xblock_->currentData().toInt();
  // A persistent reduction has no R loop (no R0_BLOCK to vary): its configs go along XBLOCK.
  const bool along_x =
      std::none_of(rows.begin(), rows.end(), [](const triton::ScanRow& r) { return r.r0_block.has_value(); });
  auto xOf = [along_x](const triton::ScanRow& r) { return static_cast<double>(along_x ? *r.xblock : *r.r0_block); };
  auto shown = [&](const triton::ScanRow& r, int xb) {
    return r.xblock && r.num_warps && (along_x || (r.r0_block && *r.xblock == xb));
  };
  std::set<int> xs;
  for (const auto& r : rows) {
    if (r.xblock && r.r0_block) xs.insert(static_cast<int>(*r.xblock));
  }
  sweep_xblock_->blockSignals(true);
  sweep_xblock_->clear();
  for (int x : xs) sweep_xblock_->addItem(QString::number(x), x);
  const int keep = sweep_xblock_->findData(current);
  sweep_xblock_->setCurrentIndex(keep >= 0 ? keep : 0);
  sweep_xblock_->blockSignals(false);
  sweep_xblock_->setEnabled(!along_x);
  const int xblock = sweep_xblock_->currentData().toInt();
  const int metric = sweep_metric_->currentIndex();
  QStringList lines = sweepExplanation(k->module);
  if (lines.isEmpty()) {
    // A sweep measured elsewhere (bundled, or a CSV opened): the same sentences from its rows.
    const triton::KernelPicks* p = measuredPicksOf(data_, k->kernel, k->module);
    const bool swept =
        std::any_of(data_.measured.rows.begin(), data_.measured.rows.end(), [&](const triton::MeasuredConfig& r) {
          return r.kernel == k->kernel && r.module == k->module && !r.swept_for.empty();
        });
    if (p != nullptr && swept) {
      for (const auto& l : triton::explainSweep(data_.measured.rows, {*p})) lines << q(l);
    }
  }
  sweep_note_->setText(lines.isEmpty() ? tr("Sweep this kernel compiles the configs Inductor never tried; until then "
                                            "this plots the configs of the cache.")
                                       : lines.join(QLatin1Char('\n')));
  static const QStringList kYLabels = {tr("DRAM bandwidth (GB/s)"), tr("Device time, L2 cold (µs)"),
                                       tr("Registers per thread"), tr("Theoretical occupancy (%)")};
  static const QStringList kWhat = {tr("DRAM bandwidth"), tr("Device time (L2 cold)"), tr("Registers"),
                                    tr("Theoretical occupancy")};
  const QString what = kWhat.value(metric);
  sweep_plot_->setTitle(along_x ? tr("%1 per config of %2 (%3 configs)").arg(what, q(k->kernel)).arg(rows.size())
                                : tr("%1 per config of %2, XBLOCK %3 (%4 configs in all)")
                                      .arg(what, q(k->kernel))
                                      .arg(xblock)
                                      .arg(rows.size()));
  sweep_plot_->setAxisLabels(
      along_x ? tr("XBLOCK (rows per block, log₂ scale)") : tr("R0_BLOCK (elements per loop iteration, log₂ scale)"),
      kYLabels.value(metric));
  auto value = [&](std::size_t i) -> std::optional<double> {
    const auto& r = rows[i];
    switch (metric) {
      case 0:
        return measured[i] && measured[i]->row.ok() ? std::optional<double>(measured[i]->row.measured.bandwidth_GBps)
                                                    : std::nullopt;
      case 1:
        return measured[i] && measured[i]->row.ok() ? std::optional<double>(measured[i]->row.measured.timeUs())
                                                    : std::nullopt;
      case 2:
        return r.n_regs ? std::optional<double>(static_cast<double>(*r.n_regs)) : std::nullopt;
      default:
        return r.occupancy_pct;
    }
  };
  std::map<int, std::pair<QVector<double>, QVector<double>>> series;
  std::map<int, QVector<int>> series_rows;
  double hi = 0.0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& r = rows[i];
    if (!shown(r, xblock)) continue;
    const auto y = value(i);
    if (!y) continue;
    const int w = static_cast<int>(*r.num_warps);
    series[w].first.append(xOf(r));
    series[w].second.append(*y);
    series_rows[w].append(static_cast<int>(i));
    hi = std::max(hi, *y);
  }
  for (auto& [w, xy] : series) {
    sweep_plot_->addSeries(warpCountText(w), xy.first, xy.second, series_rows[w], numWarpsColor(w));
  }
  // The best and each rule's pick, where they are of this XBLOCK.
  if (metric <= 1) {
    if (const triton::KernelPicks* p = measuredPicksOf(data_, k->kernel, k->module)) {
      auto mark = [&](const QString& label, int measured_row, MarkerShape shape, const QColor& color, double size) {
        if (measured_row < 0) return;
        const triton::MeasuredConfig& m = data_.measured.rows[static_cast<std::size_t>(measured_row)];
        QVector<double> x, y;
        QVector<int> rr;
        for (std::size_t i = 0; i < rows.size(); ++i) {
          const auto v = value(i);
          if (v && measured[i] && measuredRowMatches(m, rows[i]) && shown(rows[i], xblock)) {
            x.append(xOf(rows[i]));
            y.append(*v);
            rr.append(static_cast<int>(i));
          }
        }
        sweep_plot_->addMarkers(label + (x.isEmpty() ? tr(" [XBLOCK %1]").arg(m.xblock) : QString()), x, y, rr, shape,
                                color, size, false);
      };
      if (p->best_row >= 0) {
        mark(tr("best: %1").arg(q(data_.measured.rows[static_cast<std::size_t>(p->best_row)].configText())),
             p->best_row, MarkerShape::kStar, QColor(0xd4, 0xa0, 0x00), 20);
      }
      if (p->winner_row >= 0)
        mark(tr("Inductor's pick, regret %1").arg(p->winner_regret, 0, 'f', 2), p->winner_row, MarkerShape::kSquare,
             Qt::black, 14);
      // Each rule's pick; rules that pick the same config share one marker (named after all of them).
      static const MarkerShape kShapes[] = {MarkerShape::kTriangle, MarkerShape::kDiamond, MarkerShape::kCircle,
                                            MarkerShape::kCross, MarkerShape::kSquare};
      static const QColor kColors[] = {QColor(200, 0, 120), QColor(100, 100, 100), QColor(0, 120, 80),
                                       QColor(214, 39, 40), QColor(255, 127, 14)};
      std::vector<bool> said(p->picks.size(), false);
      int group = 0;
      for (std::size_t i = 0; i < p->picks.size(); ++i) {
        if (said[i] || p->picks[i].row < 0) continue;
        QStringList names;
        for (std::size_t j = i; j < p->picks.size(); ++j) {
          if (!said[j] && p->picks[j].row == p->picks[i].row) {
            said[j] = true;
            names << q(std::string(inductor::policyKey(p->picks[j].policy)));
          }
        }
        mark(tr("%1 pick, regret %2").arg(names.join(QStringLiteral(", "))).arg(p->picks[i].regret, 0, 'f', 2),
             p->picks[i].row, kShapes[group % 5], kColors[group % 5], 13);
        ++group;
      }
    }
  }
  if (series.empty()) {
    sweep_plot_->setNote(metric <= 1 ? tr("Not measured: sweep or run this kernel on a GPU.")
                                     : tr("No configs of XBLOCK %1.").arg(xblock));
  } else {
    sweep_plot_->setNote(QString());
  }
  sweep_plot_->finish(0, std::max(hi, 1.0) * 1.12);
}

QString InductorRunView::openMeasurementsCsv(const QString& path) {
  auto runs = measurementsFromFile(path);
  if (!runs) {
    const QString message = q(runs.error());
    setStatus(message, true);
    return message;
  }
  const QString merged =
      mergeMeasured(data_, *runs, measuredLabelOf(*runs) + tr(" — %1").arg(QFileInfo(path).fileName()));
  if (!merged.isEmpty()) {
    setStatus(merged, true);
    return merged;
  }
  const int config_row = config_row_;
  kernel_model_->setRows(data_.kernels);  // a sweep's CSV may have added configs
  showTitle();
  summary_->setText(data_.summary);
  showKernel(kernel_index_);
  selectConfig(config_row);
  setStatus(tr("Merged the measurements of %1.").arg(QDir::toNativeSeparators(path)));
  return {};
}

void InductorRunView::showTitle() {
  QString text = QStringLiteral("<b>%1</b> — %2").arg(data_.title.toHtmlEscaped(), data_.origin.toHtmlEscaped());
  if (!data_.measured_label.isEmpty()) text += QStringLiteral(" · <b>%1</b>").arg(data_.measured_label.toHtmlEscaped());
  title_->setText(text);
}

QWidget* InductorRunView::buildMeasuredTab() {
  auto* box = new QWidget;
  auto* v = new QVBoxLayout(box);
  v->setContentsMargins(0, 0, 0, 0);
  measured_note_ = new QLabel;
  measured_note_->setObjectName(QStringLiteral("measuredNote"));
  measured_note_->setWordWrap(true);
  auto* split = new QSplitter(Qt::Horizontal);
  split->setObjectName(QStringLiteral("measuredSplit"));
  split->setChildrenCollapsible(false);
  measured_plot_ = new MeasuredTimesPlot(box);
  measured_plot_->setLegendPlace(PlotController::LegendPlace::kBeside);  // the page is wide and short
  measured_plot_->widget()->setMinimumHeight(180);
  measured_plot_->widget()->setMinimumWidth(300);
  picks_table_ = new QTableWidget(0, 5);
  picks_table_->setObjectName(QStringLiteral("picksTable"));
  picks_table_->setHorizontalHeaderLabels(
      {tr("Policy"), tr("Pick"), tr("Cold (µs)"), tr("Regret"), tr("Not compiled")});
  picks_table_->horizontalHeaderItem(2)->setToolTip(tr("The pick's device time per launch, L2 cold, µs"));
  picks_table_->horizontalHeaderItem(3)->setToolTip(
      tr("The pick's time / the fastest config's time (1.00 = the best)"));
  picks_table_->horizontalHeaderItem(4)->setToolTip(
      tr("Halved configs the policy would add that are not in the cache: never measured"));
  picks_table_->verticalHeader()->setVisible(false);
  picks_table_->verticalHeader()->setDefaultSectionSize(picks_table_->fontMetrics().height() + 6);
  picks_table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  picks_table_->setSelectionMode(QAbstractItemView::NoSelection);
  picks_table_->setWordWrap(false);
  picks_table_->horizontalHeader()->setStretchLastSection(true);
  picks_table_->setMinimumWidth(220);
  split->addWidget(measured_plot_->widget());
  split->addWidget(picks_table_);
  split->setStretchFactor(0, 5);
  split->setStretchFactor(1, 3);
  split->setSizes({500, 300});
  v->addWidget(measured_note_);
  v->addWidget(split, 1);
  return box;
}

void InductorRunView::showMeasured(const RunKernelEntry* k) {
  picks_table_->setRowCount(0);
  if (k == nullptr) {
    measured_plot_->setConfigs({}, {}, QString());
    measured_note_->setText(QString());
    return;
  }
  measured_plot_->setConfigs(config_model_->rows(), measuredOfRows(data_, config_model_->rows()), q(k->kernel));
  const triton::KernelPicks* p = measuredPicksOf(data_, k->kernel, k->module);
  if (p == nullptr) {
    const QString why = runUnavailableReason();
    measured_note_->setText(why.isEmpty() ? tr("Not measured yet: Run on this GPU runs its compiled configs.")
                                          : tr("Not measured: %1").arg(why));
    return;
  }
  QString note = tr("%1: %2 of %3 configs ran ok").arg(data_.measured_label).arg(p->ok_rows).arg(p->rows);
  if (p->best_row >= 0) {
    note += tr("; fastest %1 at %2 µs")
                .arg(q(data_.measured.rows[static_cast<std::size_t>(p->best_row)].configText()))
                .arg(p->best_time_us, 0, 'f', 1);
  }
  if (p->winner_row >= 0) note += tr("; Inductor's winner: regret %1").arg(p->winner_regret, 0, 'f', 2);
  note += p->outputs_agree ? tr("; outputs agree across configs.")
                           : tr("; <b>outputs disagree</b> (hover the Status cells).");
  measured_note_->setText(note);
  auto item = [](const QString& text, bool right = false) {
    auto* it = new QTableWidgetItem(text);
    if (right) it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
  };
  picks_table_->setRowCount(static_cast<int>(p->picks.size()));
  for (std::size_t i = 0; i < p->picks.size(); ++i) {
    const PolicyPick& r = p->picks[i];
    const int row = static_cast<int>(i);
    const auto key = inductor::policyKey(r.policy);
    picks_table_->setItem(row, 0, item(QString::fromUtf8(key.data(), static_cast<qsizetype>(key.size()))));
    const bool picked = r.row >= 0 && r.row < static_cast<int>(data_.measured.rows.size());
    auto* pick = item(picked ? q(data_.measured.rows[static_cast<std::size_t>(r.row)].configText()) : tr("none ran"));
    pick->setToolTip(tr("%1 configs in the policy's set, %2 benchmarked").arg(r.candidates).arg(r.benchmarked));
    picks_table_->setItem(row, 1, pick);
    picks_table_->setItem(row, 2, item(picked ? QString::number(r.time_us, 'f', 1) : QString(), true));
    picks_table_->setItem(row, 3, item(picked ? QString::number(r.regret, 'f', 2) : QString(), true));
    QStringList missing;
    for (const auto& m : r.not_compiled) missing << q(m);
    picks_table_->setItem(row, 4, item(missing.isEmpty() ? tr("—") : missing.join(QStringLiteral("; "))));
  }
  picks_table_->resizeColumnsToContents();
}

InductorRunView::~InductorRunView() = default;

QWidget* InductorRunView::buildTopBar() {
  auto* box = new QWidget;
  auto* v = new QVBoxLayout(box);
  v->setContentsMargins(0, 0, 0, 0);
  auto* row = new QHBoxLayout;
  auto* open_folder = new QPushButton(tr("Open folder…"));
  open_folder->setObjectName(QStringLiteral("openFolderButton"));
  open_folder->setToolTip(
      tr("An Inductor cache (TORCHINDUCTOR_CACHE_DIR, by default /tmp/torchinductor_<user>) or a torch_compile_debug "
         "folder"));
  connect(open_folder, &QPushButton::clicked, this, &InductorRunView::openFolderInteractive);
  auto* open_file = new QPushButton(tr("Open file…"));
  open_file->setObjectName(QStringLiteral("openFileButton"));
  open_file->setToolTip(tr("A scan CSV (occx inductor scan --csv) or one kernel module (.py)"));
  connect(open_file, &QPushButton::clicked, this, &InductorRunView::openFileInteractive);
  bundled_ = new QComboBox;
  bundled_->setObjectName(QStringLiteral("bundledRunCombo"));
  bundled_->setToolTip(tr("Runs recorded on an H200 with PyTorch 2.11 and Triton 3.6, shipped with the program"));
  bundled_->addItem(tr("Bundled runs…"), QString());
  for (const auto& r : bundledInductorRuns()) bundled_->addItem(r.title, r.key);
  bundled_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  bundled_->setMinimumContentsLength(24);
  connect(bundled_, &QComboBox::activated, this, [this](int index) {
    const QString key = bundled_->itemData(index).toString();
    if (!key.isEmpty()) openBundled(key);
  });
  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("scanProgress"));
  progress_->setMaximumWidth(180);
  progress_->setVisible(false);
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setObjectName(QStringLiteral("cancelScanButton"));
  cancel_->setVisible(false);
  connect(cancel_, &QPushButton::clicked, this, &InductorRunView::cancelScan);
  row->addWidget(open_folder);
  row->addWidget(open_file);
  row->addWidget(new QLabel(tr("or a bundled run:")));
  row->addWidget(bundled_, 1);
  row->addWidget(progress_);
  row->addWidget(cancel_);
  v->addLayout(row);

  title_ = new QLabel;
  title_->setObjectName(QStringLiteral("runTitle"));
  title_->setWordWrap(true);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_ = new QLabel;
  summary_->setObjectName(QStringLiteral("runSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_ = new QLabel;
  status_->setObjectName(QStringLiteral("runStatus"));
  status_->setWordWrap(true);
  v->addWidget(title_);
  v->addWidget(summary_);
  v->addWidget(status_);
  return box;
}

QWidget* InductorRunView::buildKernelPane() {
  auto* box = new QWidget;
  auto* v = new QVBoxLayout(box);
  v->setContentsMargins(0, 0, 0, 0);
  filter_ = new QLineEdit;
  filter_->setObjectName(QStringLiteral("kernelFilter"));
  filter_->setPlaceholderText(tr("Filter kernels (any column: name, kind, size hints…)"));
  filter_->setClearButtonEnabled(true);
  kernel_model_ = new KernelListModel(this);
  kernel_proxy_ = new QSortFilterProxyModel(this);
  kernel_proxy_->setSourceModel(kernel_model_);
  kernel_proxy_->setSortRole(KernelListModel::kSortRole);
  kernel_proxy_->setFilterKeyColumn(-1);
  kernel_proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  // Filtering moves the table's current row to whatever row is left; the kernel shown stays the
  // user's: selected again whenever the filter lets it through, and shown (unselected) otherwise.
  connect(filter_, &QLineEdit::textChanged, this, [this](const QString& text) {
    filtering_ = true;
    kernel_proxy_->setFilterFixedString(text);
    const QModelIndex shown =
        kernel_index_ >= 0 ? kernel_proxy_->mapFromSource(kernel_model_->index(kernel_index_, 0)) : QModelIndex();
    if (shown.isValid()) {
      kernel_table_->selectionModel()->setCurrentIndex(shown,
                                                       QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
      kernel_table_->scrollTo(shown);
    } else {
      kernel_table_->selectionModel()->clear();
    }
    filtering_ = false;
  });
  kernel_table_ = makeTable(kernel_proxy_, QStringLiteral("kernelTable"));
  kernel_table_->setMinimumWidth(280);
  kernel_table_->setTextElideMode(Qt::ElideMiddle);  // the kernel's number at the end stays in sight
  kernel_table_->sortByColumn(KernelListModel::kKind, Qt::AscendingOrder);  // looped reductions first
  kernel_table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
  kernel_table_->setColumnHidden(KernelListModel::kInStep, true);  // shown once a step trace is open
  connect(kernel_table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid() || filtering_) return;
            showKernel(kernel_proxy_->mapToSource(current).row());
          });
  v->addWidget(filter_);
  v->addWidget(kernel_table_, 1);
  return box;
}

QWidget* InductorRunView::buildKernelDetails() {
  right_split_ = new QSplitter(Qt::Vertical);
  right_split_->setObjectName(QStringLiteral("inductorDetailSplit"));
  right_split_->setChildrenCollapsible(false);

  auto* top = new QWidget;
  auto* v = new QVBoxLayout(top);
  v->setContentsMargins(0, 0, 0, 0);
  kernel_title_ = new QLabel(tr("Select a kernel."));
  kernel_title_->setObjectName(QStringLiteral("kernelTitle"));
  kernel_title_->setWordWrap(true);
  kernel_title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  config_model_ = new RunConfigModel(this);
  config_table_ = makeTable(config_model_, QStringLiteral("configTable"));
  config_table_->setSortingEnabled(false);  // rows stay in the run's order, as the bars
  config_table_->setMinimumHeight(110);
  connect(config_table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) {
            if (!current.isValid()) return;
            config_row_ = current.row();
            showConfigDetails();
          });
  auto* buttons = new QHBoxLayout;
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
  run_button_ = new QPushButton(tr("Run on this GPU"));
  run_button_->setObjectName(QStringLiteral("runOnGpuButton"));
  run_all_button_ = new QPushButton(tr("Run all kernels"));
  run_all_button_->setObjectName(QStringLiteral("runAllKernelsButton"));
  run_progress_ = new QProgressBar;
  run_progress_->setObjectName(QStringLiteral("measureProgress"));
  run_progress_->setMaximumWidth(140);
  run_progress_->setVisible(false);
  run_cancel_ = new QPushButton(tr("Cancel run"));
  run_cancel_->setObjectName(QStringLiteral("cancelMeasureButton"));
  run_cancel_->setVisible(false);
  sweep_button_ = new QPushButton(tr("Sweep this kernel"));
  sweep_button_->setObjectName(QStringLiteral("sweepKernelButton"));
  python_edit_ = new QLineEdit;
  python_edit_->setObjectName(QStringLiteral("pythonEdit"));
  python_edit_->setPlaceholderText(tr("python3"));
  python_edit_->setToolTip(
      tr("The Python with PyTorch and Triton that compiles the sweep's configs (empty: $OCCX_PYTHON, else python3 in "
         "PATH)"));
  python_edit_->setMaximumWidth(130);
  connect(run_button_, &QPushButton::clicked, this, [this] { runSelectedKernel(); });
  connect(run_all_button_, &QPushButton::clicked, this, [this] { runAllKernels(); });
  connect(sweep_button_, &QPushButton::clicked, this, [this] { sweepSelectedKernel(); });
  connect(run_cancel_, &QPushButton::clicked, this, [this] {
    cancelMeasure();
    cancelKernelSweep();
  });
  buttons->addWidget(to_calculator_);
  buttons->addWidget(to_rblock_);
  buttons->addStretch(1);
  buttons->addWidget(run_button_);
  buttons->addWidget(run_all_button_);
  buttons->addWidget(sweep_button_);
  buttons->addWidget(run_progress_);
  buttons->addWidget(run_cancel_);
  v->addWidget(kernel_title_);
  v->addWidget(config_table_, 1);
  v->addLayout(buttons);

  detail_tabs_ = new QTabWidget;
  detail_tabs_->setObjectName(QStringLiteral("inductorDetailTabs"));
  auto* bounds = new QWidget;
  auto* bv = new QVBoxLayout(bounds);
  bv->setContentsMargins(0, 0, 0, 0);
  bounds_plot_ = new RblockBoundsPlot(bounds);
  bounds_plot_->setLegendPlace(PlotController::LegendPlace::kBeside);  // the page is wide and short
  bounds_plot_->widget()->setMinimumHeight(180);
  bounds_note_ = new QLabel;
  bounds_note_->setObjectName(QStringLiteral("boundsNote"));
  bounds_note_->setWordWrap(true);
  bv->addWidget(bounds_note_);
  bv->addWidget(bounds_plot_->widget(), 1);
  detail_tabs_->addTab(bounds, tr("RBLOCK bounds vs registers"));
  occupancy_plot_ = new ConfigOccupancyPlot(detail_tabs_);
  occupancy_plot_->widget()->setMinimumHeight(180);
  detail_tabs_->addTab(occupancy_plot_->widget(), tr("Occupancy per config"));
  auto* source_box = new QWidget;
  auto* sv = new QVBoxLayout(source_box);
  sv->setContentsMargins(0, 0, 0, 0);
  source_label_ = new QLabel;
  source_label_->setObjectName(QStringLiteral("sourceLabel"));
  source_label_->setWordWrap(true);
  source_ = new QPlainTextEdit;
  source_->setObjectName(QStringLiteral("kernelSource"));
  source_->setReadOnly(true);
  source_->setLineWrapMode(QPlainTextEdit::NoWrap);
  source_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  sv->addWidget(source_label_);
  sv->addWidget(source_, 1);
  detail_tabs_->addTab(source_box, tr("Source"));
  detail_tabs_->addTab(buildMeasuredTab(), tr("Measured"));
  sweep_tab_ = buildSweepTab();
  detail_tabs_->addTab(sweep_tab_, tr("Sweep"));
  step_pane_ = new StepPane;
  detail_tabs_->addTab(step_pane_, tr("Step"));
  detail_tabs_->setTabToolTip(detail_tabs_->count() - 1,
                              tr("Where your training step's GPU time goes, from a torch.profiler trace of it"));
  connect(step_pane_, &StepPane::profileChanged, this, &InductorRunView::showInStepTimes);
  connect(step_pane_, &StepPane::traceOpened, this, &InductorRunView::pathOpened);
  connect(step_pane_, &StepPane::kernelActivated, this, [this](const QString& name, const QString& module) {
    for (std::size_t i = 0; i < data_.kernels.size(); ++i) {
      if (data_.kernels[i].kernel == name.toStdString() && data_.kernels[i].module == module.toStdString()) {
        selectKernel(static_cast<int>(i));
        return;
      }
    }
  });

  right_split_->addWidget(top);
  right_split_->addWidget(detail_tabs_);
  right_split_->setStretchFactor(0, 2);
  right_split_->setStretchFactor(1, 3);
  right_split_->setSizes({180, 420});
  return right_split_;
}

void InductorRunView::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #a00000;") : QString());
  if (!error) status_->setToolTip(QString());
}

QString InductorRunView::openPath(const QString& path) {
  handed_over_ = false;
  const QFileInfo info(path);
  if (!info.exists()) {
    const QString message = tr("%1 does not exist.").arg(QDir::toNativeSeparators(path));
    setStatus(message, true);
    return message;
  }
  last_folder_ = info.isDir() ? info.absoluteFilePath() : info.absolutePath();
  if (info.isFile() && info.suffix().compare(QStringLiteral("csv"), Qt::CaseInsensitive) == 0) {
    const OpenTarget target = openTargetFor(path);  // the window's own routing, by the "# format:" line
    if (target == OpenTarget::kMeasurements) return openMeasurementsCsv(path);
    const bool live = target == OpenTarget::kLiveSweep;
    if (live || target == OpenTarget::kCompileSweep) {
      const QString tab = live ? tr("Live sweep") : tr("Compile sweep (NVRTC)");
      if (isSignalConnected(QMetaMethod::fromSignal(&InductorRunView::openElsewhere))) {
        setStatus(tr("%1 is a %2 dataset: handed to the %3 tab.")
                      .arg(QDir::toNativeSeparators(path), live ? tr("live-sweep") : tr("compile-sweep"), tab));
        handed_over_ = true;
        emit openElsewhere(path);  // that view's opener remembers it (Open Recent) when it opens
        return {};
      }
      const QString message =
          tr("%1 is a %2 dataset, not an Inductor run: open it in the %3 tab.")
              .arg(QDir::toNativeSeparators(path), live ? tr("live-sweep") : tr("compile-sweep"), tab);
      setStatus(message, true);
      return message;
    }
    auto loaded = runDataFromCsv(path);
    if (!loaded) {
      const QString message = q(loaded.error());
      setStatus(message, true);
      return message;
    }
    dropScan();
    bundled_key_.clear();
    showRun(std::move(loaded).value());
    setStatus(tr("Opened %1.").arg(QDir::toNativeSeparators(path)));
    return {};
  }
  triton::RunScanOptions options;
  options.input = QFile::encodeName(info.absoluteFilePath()).toStdString();
  scan_id_ = job_->start(options);
  setStatus(tr("Scanning %1…").arg(QDir::toNativeSeparators(path)));
  return {};
}

QString InductorRunView::openBundled(const QString& key) {
  auto loaded = loadBundledRun(key);
  if (!loaded) {
    const QString message = q(loaded.error());
    setStatus(message, true);
    return message;
  }
  dropScan();
  bundled_key_ = key;
  showRun(std::move(loaded).value());
  setStatus(tr(
      "A bundled run: recorded with its kernel modules, shown without its Triton cache (the numbers are in its CSV)."));
  return {};
}

void InductorRunView::cancelScan() {
  job_->cancel();
}

void InductorRunView::dropScan() {
  if (!job_->isRunning()) return;
  job_->cancel();
  scan_id_ = 0;  // what it still reports is dropped
  progress_->setVisible(false);
  cancel_->setVisible(false);
}

bool InductorRunView::isScanning() const {
  return job_->isRunning();
}

void InductorRunView::openFolderInteractive() {
  const QString dir = QFileDialog::getExistingDirectory(
      this, tr("Open Inductor run (a cache or torch_compile_debug folder)"),
      last_folder_.isEmpty() ? QString::fromStdString(triton::defaultInductorCacheDir()) : last_folder_);
  if (!dir.isEmpty() && openPath(dir).isEmpty()) emit pathOpened(dir);
}

void InductorRunView::openFileInteractive() {
  const QString file =
      QFileDialog::getOpenFileName(this, tr("Open a scan CSV or a kernel module"), last_folder_,
                                   tr("Scan CSV, kernel-runs CSV or kernel module (*.csv *.py);;All files (*)"));
  if (!file.isEmpty() && openPath(file).isEmpty() && !handed_over_) emit pathOpened(file);
}

void InductorRunView::showRun(InductorRunData run) {
  data_ = std::move(run);
  if (run_job_->isRunning()) {  // the rows it measures belong to the run shown before
    run_job_->cancel();
    run_id_ = 0;
  }
  if (sweep_job_->isRunning()) {  // so does a sweep's kernel
    sweep_job_->cancel();
  }
  sweep_id_ = 0;
  sweep_explanations_.clear();
  showTitle();
  summary_->setText(data_.summary);
  kernel_index_ = -1;
  config_row_ = -1;
  kernel_model_->setRows(data_.kernels);
  kernel_model_->setInStepTimes({});  // until the step is joined to this run (off the UI thread)
  step_pane_->setRun(data_.rows, data_.origin);
  const QString bundled_trace = QStringLiteral(":/inductor-runs/%1.pt.trace.json.gz").arg(bundled_key_);
  step_pane_->setBundledTrace(!bundled_key_.isEmpty() && QFile::exists(bundled_trace) ? bundled_trace : QString());
  kernel_table_->resizeColumnsToContents();
  kernel_table_->setColumnWidth(KernelListModel::kKernel,
                                std::min(kernel_table_->columnWidth(KernelListModel::kKernel), 230));
  const int bundled_index = bundled_->findData(bundled_key_);
  bundled_->setCurrentIndex(bundled_index >= 0 ? bundled_index : 0);
  // The most interesting kernel first, else the first one.
  int first = -1;  // the looped reduction the scaling added most to, then the one with the most configs
  auto rank = [](const RunKernelEntry& k) { return std::make_pair(k.added, k.compiledConfigs()); };
  for (std::size_t i = 0; i < data_.kernels.size(); ++i) {
    const RunKernelEntry& k = data_.kernels[i];
    if (k.kind != triton::kernelKindName(triton::KernelKind::kLoopedReduction)) continue;
    if (first < 0 || rank(k) > rank(data_.kernels[static_cast<std::size_t>(first)])) first = static_cast<int>(i);
  }
  if (first < 0 && !data_.kernels.empty()) first = 0;
  if (first >= 0) {
    selectKernel(first);
  } else {
    showKernel(-1);
  }
  updateRunButtons();
  emit statusMessage(statusSummary());
}

bool InductorRunView::selectKernel(int index) {
  if (index < 0 || index >= kernel_model_->numRows()) return false;
  const QModelIndex proxy = kernel_proxy_->mapFromSource(kernel_model_->index(index, 0));
  if (!proxy.isValid()) {  // filtered out: show it anyway
    showKernel(index);
    return true;
  }
  kernel_table_->selectionModel()->setCurrentIndex(proxy,
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  kernel_table_->scrollTo(proxy);
  if (kernel_index_ != index) showKernel(index);
  return true;
}

void InductorRunView::showKernel(int index) {
  kernel_index_ = index;
  config_row_ = -1;
  const RunKernelEntry* k = index >= 0 ? kernel_model_->row(index) : nullptr;
  if (k == nullptr) {
    kernel_title_->setText(tr("Select a kernel."));
    config_model_->clear();
    occupancy_plot_->setConfigs({}, -1, QString());
    source_->clear();
    source_label_->clear();
    showMeasured(nullptr);
    showSweepPlot(nullptr);
    updateRunButtons();
    showConfigDetails();
    return;
  }
  const triton::ScanRow& first = k->configs.front();
  // Long fused names break after their underscores instead of widening the window.
  QString name = q(k->kernel).toHtmlEscaped();
  name.replace(QLatin1Char('_'), QStringLiteral("_&#8203;"));
  QString title =
      QStringLiteral("<b>%1</b><br>%2 · size hints %3 · %4 · module %5")
          .arg(name, q(k->kind), q(k->size_hints).toHtmlEscaped(), q(k->device).toHtmlEscaped(), q(k->module));
  if (!first.notes.empty() && !first.num_warps)
    title += QStringLiteral("<br><i>%1</i>").arg(q(first.notes).toHtmlEscaped());
  if (first.rsplit_size) {
    title += tr("<br>mix-order reduction: RSPLIT_SIZE %1 rows per program, NUM_STAGES %2; grid ⌈xnumel / "
                "RSPLIT_SIZE⌉; the RBLOCK scaling does not apply (persistent)")
                 .arg(*first.rsplit_size)
                 .arg(first.mix_num_stages.value_or(1));
  }
  kernel_title_->setText(title);
  std::vector<triton::ScanRow> configs;
  for (const auto& r : k->configs) {
    if (r.num_warps) configs.push_back(r);
  }
  config_model_->setRows(configs);
  config_model_->setMeasured(measuredOfRows(data_, configs));
  config_table_->resizeColumnsToContents();
  showMeasured(k);
  showSweepPlot(k);
  updateRunButtons();
  showSource(*k);
  int start = 0;  // the winner's row among the compiled configs, else the first
  for (int i = 0, row = 0; i < static_cast<int>(k->configs.size()); ++i) {
    if (!k->configs[static_cast<std::size_t>(i)].num_warps) continue;
    if (i == k->winner) start = row;
    ++row;
  }
  if (!configs.empty()) {
    selectConfig(start);
  } else {
    occupancy_plot_->setConfigs({}, -1, q(k->kernel));
    showConfigDetails();
  }
}

bool InductorRunView::selectConfig(int row) {
  if (row < 0 || row >= config_model_->numRows()) return false;
  config_table_->selectionModel()->setCurrentIndex(config_model_->index(row, 0),
                                                   QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  if (config_row_ != row) {
    config_row_ = row;
    showConfigDetails();
  }
  return true;
}

const triton::ScanRow* InductorRunView::selectedConfig() const {
  return config_model_->row(config_row_);
}

std::optional<ConfigHandOver> InductorRunView::selectedHandOver() const {
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
  h.xnumel = numelOf(r->xnumel, inputs ? inputs->second.size_hints.x : 1);
  h.rnumel = numelOf(r->r0_numel, inputs ? inputs->second.size_hints.r0 : 1);
  h.persistent = r->kind == triton::kernelKindName(triton::KernelKind::kPersistentReduction);
  h.reduction_hint = q(r->reduction_hint);
  return h;
}

void InductorRunView::showConfigDetails() {
  const triton::ScanRow* r = selectedConfig();
  const RunKernelEntry* k = kernel_model_->row(kernel_index_);
  to_calculator_->setEnabled(r != nullptr && r->n_regs.has_value() && !r->cc.empty());
  to_rblock_->setEnabled(r != nullptr && r->n_regs.has_value() && r->r0_block.has_value() && !r->cc.empty());
  if (k != nullptr) occupancy_plot_->setConfigs(config_model_->rows(), config_row_, q(k->kernel));
  if (r == nullptr) {
    bounds_note_->setText(k == nullptr ? QString()
                                       : tr("This kernel has no compiled config to show (%1).").arg(q(k->kind)));
    bounds_plot_->setData({}, 0, 0, 0);
    return;
  }
  auto device = deviceOfRow(*r);
  auto inputs = decisionInputsOfRow(*r);
  if (!device || !inputs || !inputs->first.n_regs) {
    bounds_note_->setText(tr("No bounds for this config: its device or its registers are unknown."));
    bounds_plot_->setData({}, 0, 0, 0);
    return;
  }
  auto curves = inductor::boundCurves(inputs->first, inputs->second, *device);
  if (!curves) {
    bounds_note_->setText(q(curves.error()));
    bounds_plot_->setData({}, 0, 0, 0);
    return;
  }
  const int n_regs = *inputs->first.n_regs;
  int current = 0;
  for (const auto& p : curves->points) {
    if (p.n_regs == n_regs) current = p.new_bound;
  }
  bounds_plot_->setData(*curves, device->sm_count, n_regs, current);
  bounds_plot_->setTitle(
      tr("Resident blocks per SM vs registers per thread — %1, %2").arg(shortConfigText(*r), q(r->device)));
  QString note = tr("%1: %2 registers, new bound %3. ").arg(shortConfigText(*r)).arg(n_regs).arg(q(r->new_decision));
  if (r->kind != triton::kernelKindName(triton::KernelKind::kLoopedReduction)) {
    note += tr("A %1 is never scaled: the bounds are shown for reference.").arg(q(r->kind));
  } else if (!r->new_reason.empty()) {
    note += q(r->new_reason);
  }
  bounds_note_->setText(note);
}

void InductorRunView::showSource(const RunKernelEntry& kernel) {
  auto it = data_.sources.find(kernel.module);
  if (it == data_.sources.end() || it->second.text.empty()) {
    source_->clear();
    source_label_->setText(data_.missing_source_note.isEmpty() ? tr("The source of this kernel is not available.")
                                                               : data_.missing_source_note);
    return;
  }
  const KernelSource& s = it->second;
  const QStringList lines = q(s.text).split(QLatin1Char('\n'));
  const int last = s.first_line + static_cast<int>(lines.size()) - 1;
  const int width = static_cast<int>(QString::number(last).size());
  QStringList numbered;
  numbered.reserve(lines.size());
  for (int i = 0; i < lines.size(); ++i)
    numbered << QStringLiteral("%1  %2").arg(s.first_line + i, width).arg(lines[i]);
  source_->setPlainText(numbered.join(QLatin1Char('\n')));
  QList<QTextEdit::ExtraSelection> marks;
  for (int line : s.tile_lines) {
    const QTextBlock block = source_->document()->findBlockByNumber(line - s.first_line);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection sel;
    sel.format.setBackground(QColor(255, 243, 191));
    sel.format.setProperty(QTextFormat::FullWidthSelection, true);
    sel.cursor = QTextCursor(block);
    marks << sel;
  }
  source_->setExtraSelections(marks);
  source_label_->setText(tr("Module %1 · %n line(s) that set the tile (XBLOCK, R0_BLOCK) highlighted", nullptr,
                            static_cast<int>(s.tile_lines.size()))
                             .arg(q(kernel.module)));
}

std::vector<CsvExport> InductorRunView::csvExports() const {
  std::vector<CsvExport> out;
  if (data_.rows.empty()) return out;
  out.push_back({tr("Inductor run: every kernel and config"), QStringLiteral("inductor-run.csv"), runDataToCsv(data_)});
  if (const RunKernelEntry* k = kernel_model_->row(kernel_index_)) {
    InductorRunData one;
    one.title = data_.title + QStringLiteral(" — ") + q(k->kernel);
    one.origin = data_.origin;
    one.rows = k->configs;
    one.summary = summaryOfRows(one.rows);
    out.push_back(
        {tr("Configs of the selected kernel"), QStringLiteral("inductor-kernel-configs.csv"), runDataToCsv(one)});
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
  std::vector<PlotController*> plots = {bounds_plot_, occupancy_plot_, measured_plot_};
  if (step_pane_->profile() != nullptr) plots.push_back(step_pane_->paretoPlot());
  return plots;
}

QString InductorRunView::reportText() const {
  QString html;
  if (!data_.measured.rows.empty()) {
    html += tr("<p><b>Measured times</b>: %1; warm: the same with the inputs just written. <b>Bandwidth</b>: DRAM "
               "bytes read + written (CUPTI) over the cold time, shown only where the GPU could move it.</p>")
                .arg(q(kTimeFigure).toHtmlEscaped());
  }
  if (step_pane_->profile() == nullptr) return html;
  html += tr("<p><b>The step</b> (%1):</p>").arg(QDir::toNativeSeparators(step_pane_->tracePath()).toHtmlEscaped());
  for (const QString& line : step_pane_->words().split(QLatin1Char('\n')))
    html += QStringLiteral("<p>%1</p>").arg(line.toHtmlEscaped());
  return html;
}

void InductorRunView::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("lastFolder"), last_folder_);
  s.setValue(QStringLiteral("bundledRun"), bundled_key_);
  s.setValue(QStringLiteral("filter"), filter_->text());
  s.setValue(QStringLiteral("mainSplit"), main_split_->saveState());
  s.setValue(QStringLiteral("detailSplit"), right_split_->saveState());
  s.setValue(QStringLiteral("detailTab"), detail_tabs_->currentIndex());
  s.setValue(QStringLiteral("python"), python_edit_->text());
  s.setValue(QStringLiteral("sweepGrid"), grid_edit_->text());
}

void InductorRunView::restoreSettings(QSettings& s) {
  last_folder_ = s.value(QStringLiteral("lastFolder")).toString();
  const QString key = s.value(QStringLiteral("bundledRun")).toString();
  if (!key.isEmpty() && key != bundled_key_) openBundled(key);
  filter_->setText(s.value(QStringLiteral("filter")).toString());
  python_edit_->setText(s.value(QStringLiteral("python")).toString());
  grid_edit_->setText(s.value(QStringLiteral("sweepGrid")).toString());
  main_split_->restoreState(s.value(QStringLiteral("mainSplit")).toByteArray());
  right_split_->restoreState(s.value(QStringLiteral("detailSplit")).toByteArray());
  bool ok = false;
  const int tab = s.value(QStringLiteral("detailTab")).toInt(&ok);
  if (ok && tab >= 0 && tab < detail_tabs_->count()) detail_tabs_->setCurrentIndex(tab);
}

QString InductorRunView::statusSummary() const {
  if (data_.rows.empty()) return tr("Open an Inductor cache folder, a scan CSV, or a bundled run.");
  return data_.title + QStringLiteral(" · ") + data_.summary;
}

QString InductorRunView::openTrace(const QString& path) {
  detail_tabs_->setCurrentWidget(step_pane_);
  in_step_sorted_ = false;
  return step_pane_->openTrace(path);
}

void InductorRunView::showInStepTimes() {
  std::map<std::pair<std::string, std::string>, double> times;
  const step::StepProfile* profile = step_pane_->profile();
  if (profile != nullptr) {
    for (const auto& k : profile->kernels) {
      if (k.match == step::RunMatch::kMatched) times[{k.name, k.module}] += k.per_step_us;
    }
  }
  kernel_model_->setInStepTimes(std::move(times));
  kernel_table_->setColumnHidden(KernelListModel::kInStep, profile == nullptr);
  if (profile != nullptr && !in_step_sorted_) {  // a new trace: the kernels that matter first
    in_step_sorted_ = true;
    QHeaderView* header = kernel_table_->horizontalHeader();
    header->moveSection(header->visualIndex(KernelListModel::kInStep), 0);  // in sight in a narrow list
    kernel_table_->resizeColumnToContents(KernelListModel::kInStep);
    kernel_table_->sortByColumn(KernelListModel::kInStep, Qt::DescendingOrder);
  }
}

}  // namespace occx::ui
