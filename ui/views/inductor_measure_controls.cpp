#include "ui/views/inductor_measure_controls.h"

#include <QHBoxLayout>
#include <QProgressBar>
#include <QPushButton>
#include <algorithm>
#include <utility>

#include "ui/jobs/kernel_sweep_job.h"
#include "ui/jobs/measure_job.h"
#include "ui/models/inductor_run_actions.h"
#include "ui/models/text.h"

namespace occx::ui {

InductorMeasureControls::InductorMeasureControls(QWidget* parent)
    : QWidget(parent), measure_job_(new MeasureJob(this)), sweep_job_(new KernelSweepJob(this)) {
  setObjectName(QStringLiteral("inductorMeasureControls"));
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  run_ = new QPushButton(tr("Run on this GPU"));
  run_->setObjectName(QStringLiteral("runOnGpuButton"));
  run_all_ = new QPushButton(tr("Run all kernels"));
  run_all_->setObjectName(QStringLiteral("runAllKernelsButton"));
  sweep_ = new QPushButton(tr("Sweep this kernel"));
  sweep_->setObjectName(QStringLiteral("sweepKernelButton"));
  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("measureProgress"));
  progress_->setMaximumWidth(140);
  progress_->setVisible(false);
  cancel_ = new QPushButton(tr("Cancel run"));
  cancel_->setObjectName(QStringLiteral("cancelMeasureButton"));
  cancel_->setVisible(false);
  connect(run_, &QPushButton::clicked, this, &InductorMeasureControls::runRequested);
  connect(run_all_, &QPushButton::clicked, this, &InductorMeasureControls::runAllRequested);
  connect(sweep_, &QPushButton::clicked, this, &InductorMeasureControls::sweepRequested);
  connect(cancel_, &QPushButton::clicked, this, [this] {
    cancelMeasure();
    cancelSweep();
  });
  row->addWidget(run_);
  row->addWidget(run_all_);
  row->addWidget(sweep_);
  row->addWidget(progress_);
  row->addWidget(cancel_);

  // The jobs deliver only their latest request, and nothing of one discarded (discard()).
  connect(measure_job_, &MeasureJob::progress, this, [this](quint64, const QString& text, int done, int total) {
    progress_->setMaximum(std::max(total, 1));
    progress_->setValue(done);
    say(tr("Running on the GPU: %1").arg(text));
  });
  connect(
      measure_job_, &MeasureJob::finished, this,
      [this](quint64, std::shared_ptr<const triton::KernelMeasurements> result) { emit measured(std::move(result)); });
  connect(measure_job_, &MeasureJob::failed, this, [this](quint64, const QString& message) {
    say(tr("Could not run on the GPU: %1").arg(message), true);
    emit measureFailed();
  });
  connect(measure_job_, &Job::runningChanged, this, &InductorMeasureControls::showRunning);

  connect(sweep_job_, &KernelSweepJob::progress, this, [this](quint64, const QString& text, int done, int total) {
    progress_->setMaximum(std::max(total, 1));
    progress_->setValue(done);
    say(tr("Sweeping: %1").arg(text));
  });
  connect(sweep_job_, &KernelSweepJob::finished, this,
          [this](quint64, std::shared_ptr<const triton::KernelSweepResult> result) { emit swept(std::move(result)); });
  connect(sweep_job_, &KernelSweepJob::failed, this, [this](quint64, const QString& message) {
    say(tr("Could not sweep: %1").arg(message), true, message);
    emit sweepFailed();
  });
  connect(sweep_job_, &Job::runningChanged, this, &InductorMeasureControls::showRunning);
  updateButtons();
}

void InductorMeasureControls::setBackend(std::shared_ptr<Backend> backend, int ordinal) {
  backend_ = std::move(backend);
  ordinal_ = ordinal;
}

void InductorMeasureControls::enableFor(const InductorRunData& run, const RunKernelEntry* kernel,
                                        const QString& bundled_key) {
  run_unavailable_ = runUnavailableReason(run, !bundled_key.isEmpty(), backend_.get());
  kernel_has_configs_ = kernel != nullptr && kernel->compiledConfigs() > 0;
  sweep_unavailable_ = sweepUnavailableReason(run, kernel, bundled_key);
  updateButtons();
}

QString InductorMeasureControls::say(const QString& text, bool error, const QString& details) {
  emit status(text, error, details);
  return text;
}

void InductorMeasureControls::showRunning(bool running) {
  progress_->setVisible(running);
  cancel_->setVisible(running);
  updateButtons();
}

void InductorMeasureControls::updateButtons() {
  const bool busy = measure_job_->isRunning() || sweep_job_->isRunning();
  const bool can_run = run_unavailable_.isEmpty();
  run_->setEnabled(can_run && !busy && kernel_has_configs_);
  run_all_->setEnabled(can_run && !busy);
  sweep_->setEnabled(sweep_unavailable_.isEmpty() && !busy);
  sweep_->setToolTip(sweep_unavailable_.isEmpty()
                         ? tr("Compile this kernel at the configs Inductor never tried (XBLOCK 1…8 × R0_BLOCK 256…the "
                              "row × num_warps 4…32, and what each policy would add) with your Python's PyTorch and "
                              "Triton — no GPU needed — then, with a GPU, time every config")
                         : sweep_unavailable_);
  if (!can_run) {
    run_->setToolTip(run_unavailable_);
    run_all_->setToolTip(run_unavailable_);
  } else {
    run_->setToolTip(kernel_has_configs_ ? tr("Launch every compiled config of this kernel on the GPU (the cubins of "
                                              "its Triton cache), check its outputs, time it")
                                         : tr("This kernel has no compiled config to run."));
    run_all_->setToolTip(tr("Run every kernel of the run with compiled configs on the GPU"));
  }
}

QString InductorMeasureControls::measureKernel(const InductorRunData& run, const RunKernelEntry* kernel,
                                               const QString& bundled_key) {
  return startMeasure(runUnavailableReason(run, !bundled_key.isEmpty(), backend_.get()), run.scanned,
                      kernel != nullptr ? kernelsToMeasure(run, kernel) : std::vector<const triton::RunKernel*>());
}

QString InductorMeasureControls::measureAll(const InductorRunData& run, const QString& bundled_key) {
  return startMeasure(runUnavailableReason(run, !bundled_key.isEmpty(), backend_.get()), run.scanned,
                      kernelsToMeasure(run, nullptr));
}

QString InductorMeasureControls::startMeasure(const QString& unavailable,
                                              const std::shared_ptr<const triton::InductorRun>& scanned,
                                              std::vector<const triton::RunKernel*> kernels) {
  if (!unavailable.isEmpty()) return say(unavailable, true);
  if (kernels.empty()) return say(tr("No kernel with compiled configs to run."), true);
  measure_job_->start(backend_, ordinal_, scanned, std::move(kernels), triton::MeasureOptions{});
  progress_->setValue(0);
  say(tr("Running on the GPU…"));
  return {};
}

QString InductorMeasureControls::sweep(const InductorRunData& run, const RunKernelEntry* kernel,
                                       const QString& bundled_key, const QString& grid, const QString& python) {
  if (const QString why = sweepUnavailableReason(run, kernel, bundled_key); !why.isEmpty()) return say(why, true);
  if (isMeasuring() || isSweeping()) return say(tr("A run or sweep is in progress: cancel it first."), true);
  auto input = sweepInputOf(run, *kernel, bundled_key);
  if (!input) return say(q(input.error()), true);
  auto options = sweepOptionsOf(input->kernel, grid, python);
  if (!options) return say(q(options.error()), true);
  std::shared_ptr<Backend> gpu;
  if (backend_ && backend_->liveAvailability().available) gpu = backend_;
  sweep_job_->start(gpu, ordinal_, std::move(input->kernel), std::move(input->module_text), std::move(options).value());
  progress_->setValue(0);
  say(gpu ? tr("Sweeping: compiling with Triton, then running on the GPU…")
          : tr("Sweeping: compiling with Triton (no GPU: no times)…"));
  return {};
}

void InductorMeasureControls::cancelMeasure() {
  measure_job_->cancel();
}

void InductorMeasureControls::cancelSweep() {
  sweep_job_->cancel();
}

void InductorMeasureControls::discard() {
  measure_job_->discard();
  sweep_job_->discard();
}

bool InductorMeasureControls::isMeasuring() const {
  return measure_job_->isRunning();
}

bool InductorMeasureControls::isSweeping() const {
  return sweep_job_->isRunning();
}

}  // namespace occx::ui
