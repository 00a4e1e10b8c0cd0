#include "ui/views/compile_sweep_view.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
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
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTableView>
#include <QThread>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "core/base/atomic_file.h"
#include "core/gpu/device.h"
#include "core/inductor/rblock_scaling.h"
#include "ui/jobs/compile_sweep_job.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/sweep_inputs.h"
#include "ui/widgets/checked_spin_box.h"

namespace occx::ui {

namespace {

// ", 3 not compiled (the config cannot be built; hover a row for why)", or "" for none.
QString notCompiledText(int n) {
  if (n <= 0) return {};
  return QCoreApplication::translate("occx::ui::CompileSweepView",
                                     ", %n not compiled (the config cannot be built; hover its status for why)",
                                     nullptr, n);
}

/// The config table's first columns, left to right.
constexpr CompileSweepModel::Column kLeadingColumns[] = {
    CompileSweepModel::kXBlock,       CompileSweepModel::kRBlock,      CompileSweepModel::kNumWarps,
    CompileSweepModel::kRegisters,    CompileSweepModel::kDecisionOld, CompileSweepModel::kDecisionNew,
    CompileSweepModel::kDecisionExact};

const QColor kCapColor(214, 39, 40);
const QColor kFullOccColor(44, 160, 44);
const QColor kCompileSelectedColor(214, 39, 40);

QString configText(const KernelConfig& c) {
  return QStringLiteral("XBLOCK=%1 RBLOCK=%2 num_warps=%3").arg(c.xblock).arg(c.rblock).arg(c.num_warps);
}

}  // namespace

std::vector<ComputeCapability> compileSweepArchitectures(const Backend& backend) {
  const GpuDatabase& db = GpuDatabase::builtin();
  auto offered = backend.offeredArchitectures(db);
  if (!offered.empty()) return offered;
  std::vector<ComputeCapability> out;
  for (const auto& a : db.architectures()) {
    if (a.cc >= ComputeCapability{7, 5}) out.push_back(a.cc);
  }
  return out;
}

CompileSweepView::CompileSweepView(QWidget* parent, std::shared_ptr<Backend> backend)
    : SweepView(parent, QStringLiteral("compileSweep"), /*plot_delay_ms=*/120), backend_(std::move(backend)) {
  CompileFunction compile = backend_->compiler();
  can_compile_ = static_cast<bool>(compile);
  job_ = new CompileSweepJob(std::move(compile), this);
  model_ = new CompileSweepModel(this);
  QWidget* inputs = buildInputs();
  layOut(inputs, 400, 480, buildResults());

  setJob(job_);
  connect(job_, &CompileSweepJob::rowFinished, this, &CompileSweepView::onRowFinished);
  connect(job_, &CompileSweepJob::finished, this, &CompileSweepView::onFinished);
  connect(job_, &CompileSweepJob::failed, this, &CompileSweepView::onFailed);
  connect(device_, &DeviceSelector::targetChanged, this, &CompileSweepView::onTargetChanged);

  // The local GPU, when there is one, is the default target (its own SM count).
  if (const auto gpus = detectedGpus(*backend_); !gpus.empty()) device_->setDetectedGpus(gpus);
  restrictArchitectures();
  onTargetChanged();
  onRunningChanged(false);
  rebuildPlots();
  showSource();
}

CompileSweepView::~CompileSweepView() {
  deleteJob();
  job_ = nullptr;
}

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
  auto* buttons = new QHBoxLayout;
  compile_button_ = new QPushButton(tr("Compile sweep"), compile_box);
  compile_button_->setObjectName(QStringLiteral("compileButton"));
  compile_button_->setDefault(true);
  makeCancelButton(compile_box);
  makeOpenCsvButton(compile_box, tr("Open a compile sweep written by 'occx sweep --csv'"), tr("Open compile sweep"));
  buttons->addWidget(compile_button_);
  buttons->addWidget(cancel_button_);
  buttons->addWidget(open_button_);
  cf->addRow(buttons);
  makeProgressBar(compile_box, QStringLiteral("compileProgress"));
  progress_->setFormat(tr("%v of %m configs"));
  cf->addRow(progress_);
  makeStatusLabel(compile_box, QStringLiteral("compileStatus"));
  cf->addRow(status_);
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

void CompileSweepView::restrictArchitectures() {
  const auto archs = compileSweepArchitectures(*backend_);
  auto* m = qobject_cast<QStandardItemModel*>(device_->comboBox()->model());
  if (m == nullptr) return;
  const std::string version = backend_->compilerVersion();
  const QString compiler = version.empty() ? tr("the compiler") : QString::fromStdString(version);
  for (int i = 0; i < m->rowCount(); ++i) {
    const QString key = device_->comboBox()->itemData(i).toString();
    const auto& targets = device_->targets();
    auto it = std::find_if(targets.begin(), targets.end(), [&key](const DeviceTarget& t) { return t.key == key; });
    if (it == targets.end() || it->arch == nullptr) continue;
    const bool offered = std::find(archs.begin(), archs.end(), it->arch->cc) != archs.end();
    if (QStandardItem* item = m->item(i)) {
      item->setEnabled(offered);
      if (!offered) {
        item->setToolTip(
            tr("%1 cannot compile for sm_%2%3").arg(compiler).arg(it->arch->cc.major).arg(it->arch->cc.minor));
      }
    }
  }
  // Keep a compilable selection.
  const auto* current = device_->currentTarget().arch;
  if (current == nullptr || std::find(archs.begin(), archs.end(), current->cc) == archs.end()) {
    device_->setCurrentKey(device_->defaultKey());
  }
}

void CompileSweepView::onTargetChanged() {
  const DeviceTarget& t = device_->currentTarget();
  if (t.arch == nullptr) return;
  int sms = t.sm_count;
  QString from;
  if (sms <= 0) {
    for (const auto& g : GpuDatabase::builtin().gpus()) {
      if (g.cc == t.arch->cc) {
        sms = g.sm_count;
        from = tr(" (SM count of %1)").arg(QString::fromStdString(g.name));
        break;
      }
    }
  }
  if (sms <= 0) sms = 100;
  {
    const QSignalBlocker block(sms_);
    sms_->setValue(sms);
  }
  const ArchLimits& a = *t.arch;
  const int full = a.maxThreadsPerSm() > 0 ? a.registers_per_sm / a.maxThreadsPerSm() : 0;
  device_info_->setText(tr("Compiles for %1 (%2)%3. %4 registers/SM, %5 threads/SM: registers limit occupancy above "
                           "%6 per thread; cap %7.")
                            .arg(QString::fromStdString(a.cc.smName()), QString::fromStdString(a.family), from)
                            .arg(a.registers_per_sm)
                            .arg(a.maxThreadsPerSm())
                            .arg(full)
                            .arg(a.max_registers_per_thread));
  emit statusMessage(statusSummary());
}

Expected<CompileSweepSpec> CompileSweepView::currentSpec() const {
  const QString invalid = inputs_->validationMessage();
  if (!invalid.isEmpty()) return Error{invalid.toStdString()};
  const DeviceTarget& t = device_->currentTarget();
  if (t.arch == nullptr) return Error{"no architecture selected"};
  const auto archs = compileSweepArchitectures(*backend_);
  if (std::find(archs.begin(), archs.end(), t.arch->cc) == archs.end()) {
    return Error{t.arch->cc.smName() + " cannot be compiled: choose one of the architectures not greyed out"};
  }
  CompileSweepSpec spec;
  inputs_->fillSpec(spec);
  const std::string name = t.gpu != nullptr ? t.gpu->name : "CC " + t.arch->cc.str();
  auto dev = makeDevice(*t.arch, sms_->value(), deviceLabel(name, t.arch->cc, sms_->value()));
  if (!dev) return Error{dev.error()};
  spec.device = *dev;
  spec.maxrregcount = maxrreg_->value();
  spec.threads = threads_->value();
  return spec;
}

QString CompileSweepView::startSweep() {
  if (!can_compile_) {
    const QString msg = tr("Compiling needs the CUDA Toolkit (NVRTC); this build has none.");
    setStatus(msg, true);
    return msg;
  }
  auto spec = currentSpec();
  if (!spec) {
    const QString msg = QString::fromStdString(spec.error());
    setStatus(msg, true);
    return msg;
  }
  // The header of the coming result, so rows can be plotted as they arrive.
  data_ = datasetFromSpec(*spec);
  model_->clear();
  const int planned = inputs_->gridSize();
  setProgress(0, static_cast<qulonglong>(std::max(planned, 0)));
  dataset_label_->setText(
      tr("Compiling %1 %2, %3 × %4 for %5 …")
          .arg(QString::fromUtf8(workloadName(spec->workload).data()), QString::fromUtf8(dtypeName(spec->dtype).data()))
          .arg(spec->xnumel)
          .arg(spec->rnumel)
          .arg(QString::fromStdString(spec->device.arch.cc.smName())));
  setCurrentRequest(job_->start(*spec));
  setStatus(tr("Compiling %1 configs on %2 threads …").arg(planned).arg(spec->threads));
  running_summary_ =
      tr("Compiling %1 configs for %2 …").arg(planned).arg(QString::fromStdString(spec->device.arch.cc.smName()));
  emit statusMessage(statusSummary());
  refreshXBlockFilter(xblocksOf(model_->rows()));
  rebuildPlots();
  showSource();
  return {};
}

void CompileSweepView::cancelSweep() {
  cancelJob(tr("Cancelling: running compiles stop, finished rows stay …"));
}

void CompileSweepView::onRowFinished(quint64 id, qulonglong done, qulonglong total, const CompileSweepRow& row) {
  if (!isCurrentRequest(id)) return;
  model_->upsertEntry(recordFromRow(row));
  setProgress(done, total);
  QString line = tr("[%1/%2] %3: ").arg(done).arg(total).arg(configText(row.config));
  if (row.ok) {
    line += tr("%1 registers, %2 B spill stores%3")
                .arg(row.report.registers)
                .arg(row.report.spill_stores_bytes)
                .arg(row.cache_hit ? tr(" (cache)") : QString());
  } else {
    line += tr("error: %1").arg(QString::fromStdString(row.error.substr(0, row.error.find('\n'))));
  }
  setStatus(line);
  if (xblock_filter_->findData(row.config.xblock) < 0) refreshXBlockFilter(xblocksOf(model_->rows()));
  schedulePlots();
}

void CompileSweepView::onFinished(quint64 id, const std::shared_ptr<const CompileSweepResult>& result) {
  if (!isCurrentRequest(id) || !result) return;
  running_summary_.clear();
  CompileSweepDataset d = datasetFromResult(*result);
  const int rows = static_cast<int>(result->rows.size());
  QString msg;
  if (result->cancelled) {
    msg = tr("Cancelled: kept the %1 finished rows of %2 configs (%3 compiled, %4 failed%5).")
              .arg(rows)
              .arg(result->total_configs)
              .arg(result->compiled)
              .arg(result->failed)
              .arg(notCompiledText(result->not_compiled));
  } else {
    msg = tr("%1 configs in %2 s: %3 compiled (%4 from the cache), %5 failed%6. %7.")
              .arg(rows)
              .arg(result->wall_seconds, 0, 'f', 2)
              .arg(result->compiled)
              .arg(result->cache_hits)
              .arg(result->failed)
              .arg(notCompiledText(result->not_compiled))
              .arg(QString::fromStdString(result->compiler.empty() ? std::string("no compiler output")
                                                                   : result->compiler));
  }
  const QString label = tr("compiled here, %1").arg(QString::fromStdString(result->date_utc));
  showData(std::move(d), label);
  setStatus(msg);
  appendCacheRepairs(status_, result->cache_repairs);
  emit sweepFinished();
}

void CompileSweepView::onFailed(quint64 id, const QString& message) {
  if (isCurrentRequest(id)) showFailure(tr("The sweep did not start: %1").arg(message), message);
}

void CompileSweepView::onRunningChanged(bool running) {
  compile_button_->setEnabled(can_compile_ && inputs_->validationMessage().isEmpty());
  compile_button_->setText(running ? tr("Restart sweep") : tr("Compile sweep"));
  progress_->setTextVisible(true);
  if (!running && progress_->value() == 0 && model_->rowCount() == 0)
    progress_->setFormat(tr("idle"));
  else
    progress_->setFormat(tr("%v of %m configs"));
}

void CompileSweepView::showData(CompileSweepDataset loaded, const QString& source_label) {
  const int keep_index = selectedEntry() != nullptr ? selectedEntry()->index : -1;
  data_ = std::move(loaded);
  model_->setEntries(data_.rows);
  setProgress(data_.rows.size(), data_.total_configs);
  progress_->setFormat(tr("%v of %m configs"));
  QString shape =
      tr("%1 %2%3, %4 × %5 on %6 — %7")
          .arg(QString::fromUtf8(workloadName(data_.workload).data()), QString::fromUtf8(dtypeName(data_.dtype).data()),
               data_.workload == Workload::kFusedK ? QStringLiteral(" K=%1").arg(data_.k) : QString())
          .arg(data_.xnumel)
          .arg(data_.rnumel)
          .arg(QString::fromStdString(data_.arch.smName() +
                                      (data_.device_label.empty() ? "" : ", " + data_.device_label)))
          .arg(source_label);
  if (data_.cancelled) shape += tr(" (cancelled: %1 of %2 configs)").arg(data_.rows.size()).arg(data_.total_configs);
  dataset_label_->setText(shape);
  refreshXBlockFilter(xblocksOf(model_->rows()));
  rebuildPlots();
  if (keep_index < 0 || !selectIndex(keep_index)) {
    // Select Inductor's first config, else the first row.
    int pick = -1;
    for (const auto& e : data_.rows) {
      if (e.inductor_candidate && e.ok) {
        pick = e.index;
        break;
      }
    }
    if (pick < 0 && !data_.rows.empty()) pick = data_.rows.front().index;
    if (pick >= 0) selectIndex(pick);
  }
  showSource();
  emit statusMessage(statusSummary());
}

void CompileSweepView::followData(const CompileSweepDataset& d) {
  // The form follows the opened data, so that "Compile sweep" then builds what is shown: device,
  // workload, dtype, K, shape and the grid's XBLOCK, RBLOCK and num_warps values.
  const QString key = device_->keyFor(d.arch, d.sm_count);
  if (!key.isEmpty()) device_->setCurrentKey(key);
  restrictArchitectures();
  if (d.sm_count >= 1 && d.sm_count <= 1024) sms_->setValue(d.sm_count);
  CompileSweepSpec spec;
  inputs_->fillSpec(spec);  // keeps what the data does not say (fp32 outputs, Inductor candidates)
  spec.workload = d.workload;
  spec.dtype = d.dtype;
  spec.k = d.k;
  spec.xnumel = d.xnumel;
  spec.rnumel = d.rnumel;
  spec.static_shape = d.metaValue("shape") == shapeKindName(true);  // files without it: run-time shapes
  std::set<int> xblocks;
  std::set<int> rblocks;
  std::set<int> warps;
  for (const auto& r : d.rows) {
    xblocks.insert(r.config.xblock);
    rblocks.insert(r.config.rblock);
    warps.insert(r.config.num_warps);
  }
  if (!d.rows.empty()) {
    spec.grid.xblock.assign(xblocks.begin(), xblocks.end());
    spec.grid.r0_block.assign(rblocks.begin(), rblocks.end());
    spec.grid.num_warps.assign(warps.begin(), warps.end());
  }
  inputs_->setFromSpec(spec);
}

QString CompileSweepView::openCsvFile(const QString& path) {
  auto bytes = readFile(QFile::encodeName(path).toStdString(), kMaxCsvBytes);
  if (!bytes) {
    setStatus(QString::fromStdString(bytes.error()), true);
    return QString::fromStdString(bytes.error());
  }
  auto table = parseCsv(*bytes);
  QString error;
  if (!table) {
    error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(table.error()));
  } else {
    auto parsed = compileSweepFromCsv(*table);
    if (!parsed) {
      error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(parsed.error()));
    } else {
      dropRunningJob();
      followData(*parsed);
      const QString date = QString::fromStdString(parsed->date_utc);
      showData(std::move(parsed).value(),
               tr("opened %1%2")
                   .arg(QFileInfo(path).fileName(), date.isEmpty() ? QString() : tr(", compiled %1").arg(date)));
      setStatus(tr("Opened %1: %2 rows.").arg(QFileInfo(path).fileName()).arg(data_.rows.size()));
      return {};
    }
  }
  setStatus(error, true);
  return error;
}

const CompileSweepRecord* CompileSweepView::selectedEntry() const {
  return model_->row(selectedSourceRow());
}

bool CompileSweepView::selectIndex(int index) {
  return selectSourceRow(model_->rowOfIndex(index));
}

void CompileSweepView::onSelectionChanged() {
  const CompileSweepRecord* e = selectedEntry();
  send_button_->setEnabled(e != nullptr && e->ok && e->registers > 0);
  followSelection(e != nullptr ? e->config.xblock : 0);
  showSource();
}

void CompileSweepView::sendSelected() {
  const CompileSweepRecord* e = selectedEntry();
  if (e == nullptr || !e->ok) return;
  // The config with the device it was compiled for: the RBLOCK view must not judge an sm_90 register
  // count on another GPU's SM count.
  ConfigHandOver h;
  h.cc = data_.arch;
  h.sm_count = data_.sm_count;
  h.device_label = QString::fromStdString(data_.device_label);
  h.xblock = e->config.xblock;
  h.r0_block = e->config.rblock;
  h.num_warps = e->config.num_warps;
  h.n_regs = e->registers;
  h.n_spills = std::max(0, e->n_spills);
  h.shared_bytes = std::max(0, e->smem_bytes);
  const DeviceTarget& t = device_->currentTarget();
  if (t.arch != nullptr && t.arch->cc == data_.arch && sms_->value() == data_.sm_count) h.device_key = t.key;
  h.xnumel = static_cast<qint64>(data_.xnumel);
  h.rnumel = static_cast<qint64>(data_.rnumel);
  emit sendToRblock(h);
  setStatus(tr("Sent %1 with %2 registers to the RBLOCK-scaling view.").arg(configText(e->config)).arg(e->registers));
}

QString CompileSweepView::describeRow(int model_row) const {
  const CompileSweepRecord* e = model_->row(model_row);
  if (e == nullptr) return {};
  QString text = configText(e->config);
  if (!e->ok) return text + tr("\nerror: %1").arg(QString::fromStdString(e->error.substr(0, e->error.find('\n'))));
  text += tr("\n%1 registers per thread, spill stores %2 B, loads %3 B, n_spills %4")
              .arg(e->registers)
              .arg(e->spill_stores_bytes)
              .arg(e->spill_loads_bytes)
              .arg(e->n_spills);
  if (e->occupancy_pct >= 0) {
    text += tr("\n%1 blocks/SM, occupancy %2 % (limited by %3)")
                .arg(e->active_blocks_per_sm)
                .arg(e->occupancy_pct, 0, 'f', 1)
                .arg(QString::fromStdString(e->limiter));
  }
  QStringList decisions;
  for (const auto& d : e->decisions)
    decisions << QStringLiteral("%1: %2").arg(QString::fromUtf8(inductor::policyKey(d.policy).data()), decisionText(d));
  if (!decisions.isEmpty()) text += QLatin1Char('\n') + decisions.join(QStringLiteral(", "));
  return text;
}

void CompileSweepView::rebuildPlots() {
  const int xblock = plotXBlock();
  const auto& entries = model_->rows();
  std::map<int, std::vector<int>> by_warps;  // num_warps → model rows
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    if (e.ok && e.config.xblock == xblock && e.registers >= 0)
      by_warps[e.config.num_warps].push_back(static_cast<int>(i));
  }
  const CompileSweepRecord* selected = selectedEntry();
  const int selected_row = selected != nullptr ? model_->rowOfIndex(selected->index) : -1;

  int max_spill = 0;
  for (SweepSeriesPlot* p : {regs_plot_, spill_plot_}) {
    p->clear();
    const bool regs = p == regs_plot_;
    for (const auto& [w, rows] : by_warps) {
      QVector<double> x, y;
      QVector<int> r;
      for (int row : rows) {
        const auto& e = entries[static_cast<std::size_t>(row)];
        x.append(e.config.rblock);
        y.append(regs ? e.registers : std::max(0, e.spill_stores_bytes));
        r.append(row);
        if (!regs) max_spill = std::max(max_spill, e.spill_stores_bytes);
      }
      p->addSeries(warpCountText(w), x, y, r, numWarpsColor(w));
    }
    if (regs) {
      p->addReferenceLine(data_.max_registers_per_thread, tr("%1-register cap").arg(data_.max_registers_per_thread),
                          kCapColor, Qt::DashLine);
      p->addReferenceLine(data_.full_occupancy_registers,
                          tr("full occupancy ≤ %1 registers").arg(data_.full_occupancy_registers), kFullOccColor,
                          Qt::DashDotLine);
    }
    if (selected_row >= 0 && selected != nullptr && selected->ok && selected->config.xblock == xblock) {
      p->addMarkers(
          tr("selected: RBLOCK %1, %2").arg(selected->config.rblock).arg(warpCountText(selected->config.num_warps)),
          {static_cast<double>(selected->config.rblock)},
          {static_cast<double>(regs ? selected->registers : std::max(0, selected->spill_stores_bytes))}, {selected_row},
          MarkerShape::kDiamond, kCompileSelectedColor, 13, false, /*in_legend=*/false);
    }
  }
  const int cap = std::max(data_.max_registers_per_thread, 1);
  regs_plot_->finish(0, cap * 1.1);
  spill_plot_->finish(0, std::max(16.0, max_spill * 1.15));
  regs_plot_->setTitle(tr("Registers per thread against RBLOCK") + xblockSuffix(!by_warps.empty()));
  spill_plot_->setTitle(tr("Spill stores per thread against RBLOCK") + xblockSuffix(!by_warps.empty()));
  if (by_warps.empty()) {
    const QString note = isRunning() ? tr("compiling …")
                                     : (can_compile_ ? tr("No data: compile a sweep or open a CSV")
                                                     : tr("No data: open a CSV written by 'occx sweep'"));
    regs_plot_->setNote(note);
    spill_plot_->setNote(note);
  } else {
    regs_plot_->setNote({});
    spill_plot_->setNote(max_spill > 0 ? QString() : tr("No config with XBLOCK = %1 spills").arg(xblock));
  }
}

void CompileSweepView::showSource() {
  const CompileSweepRecord* e = selectedEntry();
  if (e == nullptr) {
    source_label_->setText(tr("Generated CUDA C++: select a config in the table."));
    source_->setPlainText({});
    return;
  }
  auto gen = generateKernel(e->config);
  if (!gen) {
    source_label_->setText(tr("No source for %1: %2").arg(configText(e->config), QString::fromStdString(gen.error())));
    source_->setPlainText({});
    return;
  }
  QString label =
      tr("Generated CUDA C++ of <b>%1</b> (%2)").arg(QString::fromStdString(gen->name), configText(e->config));
  if (!e->ok) label += tr(" — <span style='color:#8b0000'>did not compile</span>");
  source_label_->setText(label);
  if (source_->toPlainText() != QString::fromStdString(gen->source))
    source_->setPlainText(QString::fromStdString(gen->source));
}

std::vector<CsvExport> CompileSweepView::csvExports() const {
  if (data_.rows.empty()) return {};
  QString name =
      QStringLiteral("compile-sweep-%1-%2-%3.csv")
          .arg(QString::fromUtf8(workloadName(data_.workload).data()), QString::fromUtf8(dtypeName(data_.dtype).data()),
               QString::fromStdString(data_.arch.smName()));
  return {CsvExport{tr("Compile sweep (one row per config)"), name, data_.toCsv()}};
}

std::vector<PlotController*> CompileSweepView::plotExports() const {
  return {regs_plot_, spill_plot_};
}

void CompileSweepView::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("device"), device_->currentKey());
  s.setValue(QStringLiteral("sms"), sms_->value());
  s.setValue(QStringLiteral("maxrregcount"), maxrreg_->value());
  s.setValue(QStringLiteral("threads"), threads_->value());
  saveInputs(s);
}

void CompileSweepView::restoreSettings(QSettings& s) {
  const QString key = s.value(QStringLiteral("device")).toString();
  if (!key.isEmpty()) device_->setCurrentKey(key);
  restrictArchitectures();
  bool ok = false;
  if (int v = s.value(QStringLiteral("sms")).toInt(&ok); ok && v >= 1 && v <= 1024) sms_->setValue(v);
  if (int v = s.value(QStringLiteral("maxrregcount")).toInt(&ok); ok && v >= 0 && v <= 255) maxrreg_->setValue(v);
  if (int v = s.value(QStringLiteral("threads")).toInt(&ok); ok && v >= 1 && v <= 64) threads_->setValue(v);
  restoreInputs(s);
}

QString CompileSweepView::statusSummary() const {
  if (!running_summary_.isEmpty()) return running_summary_;
  const DeviceTarget& t = device_->currentTarget();
  QString s = t.arch != nullptr ? QString::fromStdString(t.arch->cc.smName()) : QString();
  if (!data_.rows.empty()) {
    int spilling = 0;
    for (const auto& e : data_.rows) spilling += e.spills() ? 1 : 0;
    s += tr(" · %1 configs shown, %2 spill").arg(data_.rows.size()).arg(spilling);
  }
  if (!can_compile_) s += tr(" · compiling needs the CUDA Toolkit");
  return s;
}

}  // namespace occx::ui
