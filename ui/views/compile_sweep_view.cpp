// The compile-sweep view's behaviour: the target and its architectures, sweeps and what they
// report, opened datasets, the selected config (its source, sending it to the RBLOCK-scaling view),
// the plots drawn from compile_sweep_content's pure functions, exports and settings. Its panels are
// built in compile_sweep_panels.cpp.
#include "ui/views/compile_sweep_view.h"

#include <QComboBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QSettings>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QStandardItemModel>
#include <algorithm>

#include "core/base/atomic_file.h"
#include "core/gpu/device.h"
#include "ui/jobs/compile_sweep_job.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/models/compile_sweep_content.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/plots/sweep_series_plot.h"
#include "ui/views/sweep_inputs.h"

namespace occx::ui {

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

CompileSweepView::CompileSweepView(const ViewContext& context, QWidget* parent)
    : SweepView(parent, QStringLiteral("compileSweep"), /*plot_delay_ms=*/120), backend_(context.backend()) {
  CompileFunction compile = backend_->compiler();
  can_compile_ = static_cast<bool>(compile);
  job_ = new CompileSweepJob(std::move(compile), this);
  model_ = new CompileSweepModel(this);
  QWidget* inputs = buildInputs();
  layOut(inputs, 400, 480, buildResults(), run_footer_);

  setJob(job_);
  connect(job_, &CompileSweepJob::rowFinished, this, &CompileSweepView::onRowFinished);
  connect(job_, &CompileSweepJob::finished, this, &CompileSweepView::onFinished);
  connect(job_, &CompileSweepJob::failed, this, &CompileSweepView::onFailed);
  connect(device_, &DeviceSelector::targetChanged, this, &CompileSweepView::onTargetChanged);

  // The local GPU, when there is one, is the default target (its own SM count); then the window's
  // device, where the compiler can build for it.
  if (!context.detectedGpus().empty()) device_->setDetectedGpus(context.detectedGpus());
  restrictArchitectures();
  context.followCurrentDevice(device_);
  onTargetChanged();
  onRunningChanged(false);
  rebuildPlots();
  showSource();
}

CompileSweepView::~CompileSweepView() {
  deleteJob();
  job_ = nullptr;
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
    QString msg = tr("Compiling needs the CUDA Toolkit (NVRTC); this build has none.");
    setStatus(msg, true);
    return msg;
  }
  auto spec = currentSpec();
  if (!spec) {
    QString msg = QString::fromStdString(spec.error());
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
  job_->start(*spec);
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

// The job drops a superseded request's reports: whatever arrives here is the latest request's.
void CompileSweepView::onRowFinished(quint64 /*id*/, qulonglong done, qulonglong total, const CompileSweepRow& row) {
  model_->upsertEntry(recordFromRow(row));
  setProgress(done, total);
  setStatus(compileRowStatusText(done, total, row));
  if (xblock_filter_->findData(row.config.xblock) < 0) refreshXBlockFilter(xblocksOf(model_->rows()));
  schedulePlots();
}

void CompileSweepView::onFinished(quint64 /*id*/, const std::shared_ptr<const CompileSweepResult>& result) {
  if (!result) return;
  running_summary_.clear();
  const QString label = tr("compiled here, %1").arg(QString::fromStdString(result->date_utc));
  showData(datasetFromResult(*result), label);
  setStatus(compileFinishedText(*result));
  appendCacheRepairs(status_, result->cache_repairs);
  emit sweepFinished();
}

void CompileSweepView::onFailed(quint64 /*id*/, const QString& message) {
  showFailure(tr("The sweep did not start: %1").arg(message), message);
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
  dataset_label_->setText(compileDatasetTitle(data_, source_label));
  refreshXBlockFilter(xblocksOf(model_->rows()));
  rebuildPlots();
  if (keep_index < 0 || !selectIndex(keep_index)) {
    // Inductor's first config, else the first row.
    if (const int pick = compileDefaultSelection(data_); pick >= 0) selectIndex(pick);
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
  inputs_->setFromSpec(compileSpecFromDataset(d, spec));
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
  setStatus(
      tr("Sent %1 with %2 registers to the RBLOCK-scaling view.").arg(compileConfigText(e->config)).arg(e->registers));
}

QString CompileSweepView::describeRow(int model_row) const {
  const CompileSweepRecord* e = model_->row(model_row);
  return e != nullptr ? describeCompileRecord(*e) : QString();
}

void CompileSweepView::rebuildPlots() {
  const CompileSweepPlots plots = compileSweepPlots(model_->rows(), plotXBlock(), selectedSourceRow(), data_,
                                                    compilePlotNote(isRunning(), can_compile_));
  regs_plot_->show(plots.registers);
  spill_plot_->show(plots.spills);
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
    source_label_->setText(
        tr("No source for %1: %2").arg(compileConfigText(e->config), QString::fromStdString(gen.error())));
    source_->setPlainText({});
    return;
  }
  QString label =
      tr("Generated CUDA C++ of <b>%1</b> (%2)").arg(QString::fromStdString(gen->name), compileConfigText(e->config));
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
  return compileSweepSummary(t.arch != nullptr ? QString::fromStdString(t.arch->cc.smName()) : QString(), data_,
                             can_compile_);
}

}  // namespace occx::ui
