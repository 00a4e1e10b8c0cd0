// The Inductor run view's measure and sweep controls: Run on this GPU (the chosen kernel's compiled
// configs), Run all kernels, Sweep this kernel, a progress bar and Cancel, beside the configs table.
// They own the two jobs (ui/jobs: MeasureJob, KernelSweepJob) and the Backend that runs them, start
// them on what the run shown holds (ui/models/inductor_run_actions.h says what and why not), and
// hand what they deliver to the view, which merges it into the run. A request for a run no longer
// shown is discarded.
#pragma once

#include <QString>
#include <QWidget>
#include <memory>
#include <string>
#include <vector>

#include "core/sweep/backend.h"
#include "core/triton/kernel_measurements.h"
#include "core/triton/kernel_sweep.h"
#include "ui/models/inductor_run_data.h"

class QProgressBar;
class QPushButton;

namespace occx::ui {

class KernelSweepJob;
class MeasureJob;

class InductorMeasureControls : public QWidget {
  Q_OBJECT

 public:
  explicit InductorMeasureControls(QWidget* parent = nullptr);

  /// `backend` runs the configs on its GPU `ordinal` (null: none in this build).
  void setBackend(std::shared_ptr<Backend> backend, int ordinal);
  [[nodiscard]] const Backend* backend() const { return backend_.get(); }

  /// Enables the buttons for `run` (the run shown; bundled run `bundled_key`, empty: not a bundled
  /// one) and its chosen kernel `kernel` (null: none). While a run or a sweep is under way they wait;
  /// their tooltips say why they cannot.
  void enableFor(const InductorRunData& run, const RunKernelEntry* kernel, const QString& bundled_key);

  /// Runs the compiled configs of `kernel` (null: none) of `run` on the GPU: measured() or
  /// measureFailed(). Returns an empty string, or why not; status() says it either way.
  QString measureKernel(const InductorRunData& run, const RunKernelEntry* kernel, const QString& bundled_key);
  /// The same for every kernel of `run` with compiled configs.
  QString measureAll(const InductorRunData& run, const QString& bundled_key);
  /// Sweeps `kernel` (null: none) of `run`: the configs of `grid` (empty: the default grid) and what
  /// each policy would add, compiled with `python`, timed on the GPU when the backend has one that
  /// can run: swept() or sweepFailed(). Returns an empty string, or why not; status() says it either way.
  QString sweep(const InductorRunData& run, const RunKernelEntry* kernel, const QString& bundled_key,
                const QString& grid, const QString& python);
  /// Asks the running measurement (or sweep) to stop; what finished is still delivered.
  void cancelMeasure();
  void cancelSweep();
  /// Cancels both and drops what they still deliver: they were for a run no longer shown.
  void discard();
  [[nodiscard]] bool isMeasuring() const;
  [[nodiscard]] bool isSweeping() const;

 signals:
  /// The buttons were clicked.
  void runRequested();
  void runAllRequested();
  void sweepRequested();
  /// What the status line says: a job started, how it is getting on, why it cannot start or why it
  /// failed (`error`, with `details` to hover).
  void status(const QString& text, bool error, const QString& details);
  /// A measurement ended with rows (cancelled set when it was cancelled).
  void measured(std::shared_ptr<const occx::triton::KernelMeasurements> result);
  /// A measurement could not run (no GPU, a device that cannot be opened): status() said why.
  void measureFailed();
  /// A sweep ended with a result.
  void swept(std::shared_ptr<const occx::triton::KernelSweepResult> result);
  /// A sweep could not run (no usable Python, a GPU that cannot be opened): status() said why.
  void sweepFailed();

 private:
  void updateButtons();
  void showRunning(bool running);
  QString startMeasure(const QString& unavailable, const std::shared_ptr<const triton::InductorRun>& scanned,
                       std::vector<const triton::RunKernel*> kernels);
  /// Says `text` (status()) and returns it.
  QString say(const QString& text, bool error = false, const QString& details = {});

  MeasureJob* measure_job_;
  KernelSweepJob* sweep_job_;
  std::shared_ptr<Backend> backend_;
  int ordinal_ = 0;
  QString run_unavailable_;
  QString sweep_unavailable_;
  bool kernel_has_configs_ = false;
  QPushButton* run_;
  QPushButton* run_all_;
  QPushButton* sweep_;
  QProgressBar* progress_;
  QPushButton* cancel_;
};

}  // namespace occx::ui
