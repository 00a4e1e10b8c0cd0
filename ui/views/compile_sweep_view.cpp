#include "ui/views/compile_sweep_view.h"

#include <QComboBox>
#include <QFile>
#include <QFileDialog>
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
#include <QScrollArea>
#include <QSettings>
#include <QSignalBlocker>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <map>
#include <set>

#include "core/base/atomic_file.h"
#include "core/gpu/device.h"
#include "occx_config.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/views/sweep_inputs.h"
#include "ui/plots/compile_sweep_plot.h"
#include "ui/jobs/compile_sweep_job.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/jobs/live_sweep_job.h"

#if OCCX_HAVE_CUDA
#include "core/kernels/compile_cache.h"
#include "core/cuda/device.h"
#include "core/cuda/nvrtc_compiler.h"
#endif

namespace occx::ui {

namespace {

const QColor kCapColor(214, 39, 40);
const QColor kFullOccColor(44, 160, 44);
const QColor kSelectedColor(214, 39, 40);

QString configText(const KernelConfig& c) {
  return QStringLiteral("XBLOCK=%1 RBLOCK=%2 num_warps=%3").arg(c.xblock).arg(c.rblock).arg(c.num_warps);
}

}  // namespace

CompileFunction defaultCompileFunction() {
#if OCCX_HAVE_CUDA
  struct State {
    CompileCache cache{CompileCache::defaultDirectory()};
    cuda::NvrtcCompiler compiler{&cache};
  };
  auto state = std::make_shared<State>();
  return [state](const CompileRequest& request) { return state->compiler.compile(request); };
#else
  return {};
#endif
}

std::vector<ComputeCapability> kernelViewArchitectures() {
  const GpuDatabase& db = GpuDatabase::builtin();
#if OCCX_HAVE_CUDA
  auto offered = cuda::offeredArchitectures(db);
  if (!offered.empty()) return offered;
#endif
  std::vector<ComputeCapability> out;
  for (const auto& a : db.architectures()) {
    if (a.cc >= ComputeCapability{7, 5}) out.push_back(a.cc);
  }
  return out;
}

KernelView::KernelView(QWidget* parent, CompileFunction compile) : QWidget(parent) {
  setObjectName(QStringLiteral("kernel"));
  can_compile_ = static_cast<bool>(compile);
  job_ = new KernelSweepJob(std::move(compile), this);
  model_ = new KernelSweepModel(this);
  plot_timer_ = new QTimer(this);
  plot_timer_->setSingleShot(true);
  plot_timer_->setInterval(120);
  connect(plot_timer_, &QTimer::timeout, this, &KernelView::rebuildPlots);

  auto* left = buildInputs();
  auto* scroll = inputScrollArea(left, std::max(400, left->minimumSizeHint().width() + 24),
                                 std::max(480, left->minimumSizeHint().width() + 24));

  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  layout->addWidget(scroll, 0);
  layout->addWidget(buildResults(), 1);

  connect(job_, &KernelSweepJob::rowFinished, this, &KernelView::onRowFinished);
  connect(job_, &KernelSweepJob::finished, this, &KernelView::onFinished);
  connect(job_, &KernelSweepJob::failed, this, &KernelView::onFailed);
  connect(job_, &SweepJob::runningChanged, this, &KernelView::onRunningChanged);
  connect(device_, &DeviceSelector::targetChanged, this, &KernelView::onTargetChanged);

  // The local GPU, when there is one, is the default target (its own SM count).
  if (const auto gpus = detectedGpus(); !gpus.empty()) device_->setDetectedGpus(gpus);
  restrictArchitectures();
  onTargetChanged();
  onRunningChanged(false);
  rebuildPlots();
  showSource();
}

KernelView::~KernelView() {
  // Stop the sweep before the widgets it reports to go away.
  delete job_;
  job_ = nullptr;
}

QWidget* KernelView::buildInputs() {
  auto* left = new QWidget;
  auto* v = new QVBoxLayout(left);
  v->setContentsMargins(0, 0, 4, 0);

  toolkit_ = new QLabel(left);
  toolkit_->setObjectName(QStringLiteral("toolkitMessage"));
  toolkit_->setWordWrap(true);
  toolkit_->setStyleSheet(QStringLiteral(
      "QLabel { color: #7a4b00; background: #fff4e0; border: 1px solid #e8c58a; border-radius: 3px; padding: 4px; }"));
  toolkit_->setText(
      tr("<b>Compiling needs the CUDA Toolkit.</b> This build has no NVRTC, so it cannot produce register "
         "and spill counts. Use <i>Open CSV…</i> to view a sweep written by <code>occx sweep --csv</code> "
         "on a machine with the toolkit (no GPU is needed there)."));
  toolkit_->setVisible(!can_compile_);
  v->addWidget(toolkit_);

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
  v->addWidget(target_box);

  auto* kernel_box = new QGroupBox(tr("Kernel, shape and grid"));
  auto* kl = new QVBoxLayout(kernel_box);
  inputs_ = new KernelInputs(kernel_box);
  kl->addWidget(inputs_);
  v->addWidget(kernel_box);

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
  cancel_button_ = new QPushButton(tr("Cancel"), compile_box);
  cancel_button_->setObjectName(QStringLiteral("cancelButton"));
  open_button_ = new QPushButton(tr("Open CSV…"), compile_box);
  open_button_->setObjectName(QStringLiteral("openCsvButton"));
  open_button_->setToolTip(tr("Open a compile sweep written by 'occx sweep --csv'"));
  buttons->addWidget(compile_button_);
  buttons->addWidget(cancel_button_);
  buttons->addWidget(open_button_);
  cf->addRow(buttons);
  progress_ = new QProgressBar(compile_box);
  progress_->setObjectName(QStringLiteral("compileProgress"));
  progress_->setRange(0, 1);
  progress_->setValue(0);
  progress_->setFormat(tr("%v of %m configs"));
  cf->addRow(progress_);
  status_ = new QLabel(compile_box);
  status_->setObjectName(QStringLiteral("compileStatus"));
  status_->setWordWrap(true);
  status_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  cf->addRow(status_);
  v->addWidget(compile_box);
  v->addStretch(1);

  if (!can_compile_) {
    compile_button_->setEnabled(false);
    compile_button_->setToolTip(tr("Compiling needs the CUDA Toolkit (NVRTC); this build has none."));
  }
  connect(compile_button_, &QPushButton::clicked, this, [this] { startSweep(); });
  connect(cancel_button_, &QPushButton::clicked, this, &KernelView::cancelSweep);
  connect(open_button_, &QPushButton::clicked, this, &KernelView::openCsvInteractive);
  connect(inputs_, &KernelInputs::changed, this, [this] {
    if (can_compile_) compile_button_->setEnabled(inputs_->validationMessage().isEmpty());
  });
  return left;
}

QWidget* KernelView::buildResults() {
  auto* plots = new QWidget;
  auto* pv = new QVBoxLayout(plots);
  pv->setContentsMargins(0, 0, 0, 0);
  auto* header = new QHBoxLayout;
  dataset_label_ = new QLabel(plots);
  dataset_label_->setObjectName(QStringLiteral("datasetLabel"));
  dataset_label_->setWordWrap(true);
  QFont bold = dataset_label_->font();
  bold.setBold(true);
  dataset_label_->setFont(bold);
  header->addWidget(dataset_label_, 1);
  header->addWidget(new QLabel(tr("Plot XBLOCK:"), plots));
  xblock_filter_ = new QComboBox(plots);
  xblock_filter_->setObjectName(QStringLiteral("plotXBlock"));
  xblock_filter_->setToolTip(tr("The plots show the configs with this XBLOCK"));
  header->addWidget(xblock_filter_);
  pv->addLayout(header);
  auto* row = new QHBoxLayout;
  regs_plot_ = new KernelSeriesPlot(tr("Registers per thread against RBLOCK"), QStringLiteral("registersPlot"), plots);
  regs_plot_->setAxisLabels(tr("RBLOCK (elements per loop iteration, log2 scale)"), tr("Registers per thread"));
  spill_plot_ = new KernelSeriesPlot(tr("Spill stores per thread against RBLOCK"), QStringLiteral("spillsPlot"), plots);
  spill_plot_->setAxisLabels(tr("RBLOCK (elements per loop iteration, log2 scale)"),
                             tr("Spill stores (bytes per thread)"));
  regs_plot_->setLegendColumns(3);
  spill_plot_->setLegendColumns(3);
  for (KernelSeriesPlot* p : {regs_plot_, spill_plot_}) {
    p->setRowDescriber([this](int r) { return describeRow(r); });
    row->addWidget(p->widget(), 1);
  }
  pv->addLayout(row, 1);
  connect(xblock_filter_, &QComboBox::currentIndexChanged, this, [this] {
    if (!updating_) rebuildPlots();
  });

  auto* table_box = new QWidget;
  auto* tv = new QVBoxLayout(table_box);
  tv->setContentsMargins(0, 0, 0, 0);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setSortRole(KernelSweepModel::kSortRole);
  table_ = new QTableView(table_box);
  table_->setObjectName(QStringLiteral("configTable"));
  table_->setModel(proxy_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(KernelSweepModel::kIndex, Qt::AscendingOrder);
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setAlternatingRowColors(true);
  tv->addWidget(table_, 1);
  auto* send_row = new QHBoxLayout;
  send_button_ = new QPushButton(tr("Send to RBLOCK view"), table_box);
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
  connect(send_button_, &QPushButton::clicked, this, &KernelView::sendSelected);
  connect(table_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &KernelView::onSelectionChanged);

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

  auto* bottom = new QSplitter(Qt::Horizontal);
  bottom->addWidget(table_box);
  bottom->addWidget(source_box);
  bottom->setStretchFactor(0, 3);
  bottom->setStretchFactor(1, 2);
  bottom->setChildrenCollapsible(false);
  bottom->setSizes({680, 420});

  auto* right = new QSplitter(Qt::Vertical);
  right->addWidget(plots);
  right->addWidget(bottom);
  right->setStretchFactor(0, 1);
  right->setStretchFactor(1, 1);
  right->setChildrenCollapsible(false);
  right->setSizes({480, 420});
  return right;
}

void KernelView::restrictArchitectures() {
  const auto archs = kernelViewArchitectures();
  auto* m = qobject_cast<QStandardItemModel*>(device_->comboBox()->model());
  if (m == nullptr) return;
  const QString compiler =
#if OCCX_HAVE_CUDA
      QString::fromStdString(cuda::nvrtcVersionString());
#else
      tr("the compiler");
#endif
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

void KernelView::onTargetChanged() {
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

Expected<CompileSweepSpec> KernelView::currentSpec() const {
  const QString invalid = inputs_->validationMessage();
  if (!invalid.isEmpty()) return Error{invalid.toStdString()};
  const DeviceTarget& t = device_->currentTarget();
  if (t.arch == nullptr) return Error{"no architecture selected"};
  const auto archs = kernelViewArchitectures();
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

QString KernelView::startSweep() {
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
  KernelSweepData header;
  header.arch = spec->device.arch.cc;
  header.device_label = spec->device.label;
  header.sm_count = spec->device.sm_count;
  header.max_registers_per_thread = spec->device.arch.max_registers_per_thread;
  header.full_occupancy_registers = spec->device.arch.maxThreadsPerSm() > 0
                                        ? spec->device.arch.registers_per_sm / spec->device.arch.maxThreadsPerSm()
                                        : 0;
  header.xnumel = spec->xnumel;
  header.rnumel = spec->rnumel;
  header.workload = spec->workload;
  header.dtype = spec->dtype;
  header.k = spec->k;
  data_ = std::move(header);
  model_->clear();
  const int planned = inputs_->gridSize();
  progress_->setRange(0, std::max(1, planned));
  progress_->setValue(0);
  dataset_label_->setText(
      tr("Compiling %1 %2, %3 × %4 for %5 …")
          .arg(QString::fromUtf8(workloadName(spec->workload).data()), QString::fromUtf8(dtypeName(spec->dtype).data()))
          .arg(spec->xnumel)
          .arg(spec->rnumel)
          .arg(QString::fromStdString(spec->device.arch.cc.smName())));
  running_id_ = job_->start(*spec);
  setStatus(tr("Compiling %1 configs on %2 threads …").arg(planned).arg(spec->threads));
  refreshXBlockFilter();
  rebuildPlots();
  showSource();
  return {};
}

void KernelView::cancelSweep() {
  if (!job_->isRunning()) return;
  job_->cancel();
  setStatus(tr("Cancelling: running compiles stop, finished rows stay …"));
}

bool KernelView::isRunning() const {
  return job_ != nullptr && job_->isRunning();
}

void KernelView::onRowFinished(quint64 id, qulonglong done, qulonglong total, const CompileSweepRow& row) {
  if (id != running_id_) return;
  model_->upsertEntry(entryFromRow(row));
  progress_->setRange(0, static_cast<int>(std::max<qulonglong>(total, 1)));
  progress_->setValue(static_cast<int>(done));
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
  if (xblock_filter_->findData(row.config.xblock) < 0) refreshXBlockFilter();
  schedulePlots();
}

void KernelView::onFinished(quint64 id, const std::shared_ptr<const CompileSweepResult>& result) {
  if (id != running_id_ || !result) return;
  KernelSweepData d = dataFromResult(*result);
  const int rows = static_cast<int>(result->rows.size());
  QString msg;
  if (result->cancelled) {
    msg = tr("Cancelled: kept the %1 finished rows of %2 configs (%3 compiled, %4 failed).")
              .arg(rows)
              .arg(result->total_configs)
              .arg(result->compiled)
              .arg(result->failed);
  } else {
    msg = tr("%1 configs in %2 s: %3 compiled (%4 from the cache), %5 failed. %6.")
              .arg(rows)
              .arg(result->wall_seconds, 0, 'f', 2)
              .arg(result->compiled)
              .arg(result->cache_hits)
              .arg(result->failed)
              .arg(QString::fromStdString(result->compiler.empty() ? std::string("no compiler output")
                                                                   : result->compiler));
  }
  const QString label = tr("compiled here, %1").arg(QString::fromStdString(result->date_utc));
  showData(std::move(d), label);
  setStatus(msg);
  appendCacheRepairs(status_, result->cache_repairs);
  emit sweepFinished();
}

void KernelView::onFailed(quint64 id, const QString& message) {
  if (id != running_id_) return;
  setStatus(tr("The sweep did not start: %1").arg(message), true);
  dataset_label_->setText(tr("No data: %1").arg(message));
}

void KernelView::onRunningChanged(bool running) {
  compile_button_->setEnabled(can_compile_ && inputs_->validationMessage().isEmpty());
  compile_button_->setText(running ? tr("Restart sweep") : tr("Compile sweep"));
  cancel_button_->setEnabled(running);
  progress_->setTextVisible(true);
  if (!running && progress_->value() == 0 && model_->rowCount() == 0)
    progress_->setFormat(tr("idle"));
  else
    progress_->setFormat(tr("%v of %m configs"));
}

void KernelView::showData(KernelSweepData loaded, const QString& source_label) {
  const int keep_index = selectedEntry() != nullptr ? selectedEntry()->index : -1;
  data_ = std::move(loaded);
  model_->setEntries(data_.rows);
  progress_->setRange(0, std::max<int>(1, static_cast<int>(data_.total_configs)));
  progress_->setValue(static_cast<int>(data_.rows.size()));
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
  refreshXBlockFilter();
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

QString KernelView::openCsvFile(const QString& path) {
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
    auto parsed = dataFromCsv(*table);
    if (!parsed) {
      error = tr("%1: %2").arg(QFileInfo(path).fileName(), QString::fromStdString(parsed.error()));
    } else {
      if (job_->isRunning()) {
        job_->cancel();
        running_id_ = 0;  // the opened file wins over the running sweep's result
      }
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

void KernelView::openCsvInteractive() {
  QString folder;
  {
    QSettings s;
    folder = s.value(QStringLiteral("views/kernel/lastCsvFolder")).toString();
  }
  const QString path =
      QFileDialog::getOpenFileName(this, tr("Open compile sweep"), folder, tr("CSV files (*.csv);;All files (*)"));
  if (path.isEmpty()) return;
  QSettings().setValue(QStringLiteral("views/kernel/lastCsvFolder"), QFileInfo(path).absolutePath());
  openCsvFile(path);
}

const KernelSweepEntry* KernelView::selectedEntry() const {
  const auto rows = table_->selectionModel()->selectedRows();
  if (rows.isEmpty()) return nullptr;
  return model_->entry(proxy_->mapToSource(rows.front()).row());
}

bool KernelView::selectIndex(int index) {
  const int row = model_->rowOfIndex(index);
  if (row < 0) return false;
  const QModelIndex pi = proxy_->mapFromSource(model_->index(row, 0));
  table_->selectionModel()->select(pi, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  table_->selectionModel()->setCurrentIndex(pi, QItemSelectionModel::NoUpdate);
  table_->scrollTo(pi);
  return true;
}

void KernelView::onSelectionChanged() {
  const KernelSweepEntry* e = selectedEntry();
  send_button_->setEnabled(e != nullptr && e->ok && e->registers > 0);
  if (e != nullptr && e->config.xblock != plotXBlock()) {
    setPlotXBlock(e->config.xblock);
  } else {
    rebuildPlots();
  }
  showSource();
}

void KernelView::sendSelected() {
  const KernelSweepEntry* e = selectedEntry();
  if (e == nullptr || !e->ok) return;
  emit sendToRblock(e->config.xblock, e->config.rblock, e->config.num_warps, e->registers, std::max(0, e->n_spills),
                    static_cast<qint64>(data_.xnumel), static_cast<qint64>(data_.rnumel));
  setStatus(tr("Sent %1 with %2 registers to the RBLOCK-scaling view.").arg(configText(e->config)).arg(e->registers));
}

void KernelView::refreshXBlockFilter() {
  std::set<int> xs;
  for (const auto& e : model_->entries()) xs.insert(e.config.xblock);
  const int keep = plotXBlock();
  updating_ = true;
  xblock_filter_->clear();
  for (int x : xs) xblock_filter_->addItem(QString::number(x), x);
  int idx = xblock_filter_->findData(keep);
  if (idx < 0) idx = 0;
  xblock_filter_->setCurrentIndex(idx);
  updating_ = false;
  xblock_filter_->setEnabled(xs.size() > 1);
}

bool KernelView::setPlotXBlock(int xblock) {
  const int idx = xblock_filter_->findData(xblock);
  if (idx < 0) return false;
  xblock_filter_->setCurrentIndex(idx);  // rebuilds the plots
  rebuildPlots();
  return true;
}

int KernelView::plotXBlock() const {
  return xblock_filter_->currentIndex() >= 0 ? xblock_filter_->currentData().toInt() : 1;
}

void KernelView::schedulePlots() {
  if (!plot_timer_->isActive()) plot_timer_->start();
}

QString KernelView::describeRow(int model_row) const {
  const KernelSweepEntry* e = model_->entry(model_row);
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
    decisions << QStringLiteral("%1: %2").arg(QString::fromStdString(d.policy), decisionText(d));
  if (!decisions.isEmpty()) text += QLatin1Char('\n') + decisions.join(QStringLiteral(", "));
  return text;
}

void KernelView::rebuildPlots() {
  const int xblock = plotXBlock();
  const auto& entries = model_->entries();
  std::map<int, std::vector<int>> by_warps;  // num_warps → model rows
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const auto& e = entries[i];
    if (e.ok && e.config.xblock == xblock && e.registers >= 0)
      by_warps[e.config.num_warps].push_back(static_cast<int>(i));
  }
  const KernelSweepEntry* selected = selectedEntry();
  const int selected_row = selected != nullptr ? model_->rowOfIndex(selected->index) : -1;

  int max_spill = 0;
  for (KernelSeriesPlot* p : {regs_plot_, spill_plot_}) {
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
      p->addSeries(tr("%1 warps").arg(w), x, y, r, numWarpsColor(w));
    }
    if (regs) {
      p->addReferenceLine(data_.max_registers_per_thread, tr("%1-register cap").arg(data_.max_registers_per_thread),
                          kCapColor, Qt::DashLine);
      p->addReferenceLine(data_.full_occupancy_registers,
                          tr("full occupancy ≤ %1 registers").arg(data_.full_occupancy_registers), kFullOccColor,
                          Qt::DashDotLine);
    }
    if (selected_row >= 0 && selected != nullptr && selected->ok && selected->config.xblock == xblock) {
      p->addMarkers(tr("selected: RBLOCK %1, %2 warps").arg(selected->config.rblock).arg(selected->config.num_warps),
                    {static_cast<double>(selected->config.rblock)},
                    {static_cast<double>(regs ? selected->registers : std::max(0, selected->spill_stores_bytes))},
                    {selected_row}, MarkerShape::kDiamond, kSelectedColor, 13, false, /*in_legend=*/false);
    }
  }
  const int cap = std::max(data_.max_registers_per_thread, 1);
  regs_plot_->finish(0, cap * 1.1);
  spill_plot_->finish(0, std::max(16.0, max_spill * 1.15));
  const QString xb = tr(" (XBLOCK = %1)").arg(xblock);
  regs_plot_->setTitle(tr("Registers per thread against RBLOCK") + (by_warps.empty() ? QString() : xb));
  spill_plot_->setTitle(tr("Spill stores per thread against RBLOCK") + (by_warps.empty() ? QString() : xb));
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

void KernelView::showSource() {
  const KernelSweepEntry* e = selectedEntry();
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

void KernelView::setStatus(const QString& text, bool error) {
  status_->setText(text);
  status_->setToolTip(QString());
  status_->setStyleSheet(error ? QStringLiteral("color: #8b0000;") : QString());
}

std::vector<CsvExport> KernelView::csvExports() const {
  if (data_.csv.rows.empty()) return {};
  QString name =
      QStringLiteral("compile-sweep-%1-%2-%3.csv")
          .arg(QString::fromUtf8(workloadName(data_.workload).data()), QString::fromUtf8(dtypeName(data_.dtype).data()),
               QString::fromStdString(data_.arch.smName()));
  return {CsvExport{tr("Compile sweep (one row per config)"), name, data_.csv}};
}

std::vector<PlotController*> KernelView::plotExports() const {
  return {regs_plot_, spill_plot_};
}

void KernelView::saveSettings(QSettings& s) const {
  s.setValue(QStringLiteral("device"), device_->currentKey());
  s.setValue(QStringLiteral("sms"), sms_->value());
  s.setValue(QStringLiteral("maxrregcount"), maxrreg_->value());
  s.setValue(QStringLiteral("threads"), threads_->value());
  s.beginGroup(QStringLiteral("inputs"));
  inputs_->saveSettings(s);
  s.endGroup();
}

void KernelView::restoreSettings(QSettings& s) {
  const QString key = s.value(QStringLiteral("device")).toString();
  if (!key.isEmpty()) device_->setCurrentKey(key);
  restrictArchitectures();
  bool ok = false;
  if (int v = s.value(QStringLiteral("sms")).toInt(&ok); ok && v >= 1 && v <= 1024) sms_->setValue(v);
  if (int v = s.value(QStringLiteral("maxrregcount")).toInt(&ok); ok && v >= 0 && v <= 255) maxrreg_->setValue(v);
  if (int v = s.value(QStringLiteral("threads")).toInt(&ok); ok && v >= 1 && v <= 64) threads_->setValue(v);
  s.beginGroup(QStringLiteral("inputs"));
  inputs_->restoreSettings(s);
  s.endGroup();
}

QString KernelView::statusSummary() const {
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
