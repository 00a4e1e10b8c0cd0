// The Inductor run view's Step tab: a torch.profiler trace of the user's step (core/step), read off
// the UI thread with progress and cancel, joined to the run the view shows: the step in words, a
// Pareto chart of the kernels by in-step time (coloured by kind, cumulative share), and the table
// of every kernel with its config and the bounds' decisions. Double-clicking a kernel of the run
// selects it in the view's kernel list. Below them, "Sweep the reductions that matter": the step's
// looped reductions swept in order of their in-step time (ui/jobs/model_sweep_job.h, as `occx
// inductor sweep --all`), within a time budget or a kernel count, and the gain per step it predicts.
#pragma once

#include <QString>
#include <QWidget>
#include <map>
#include <memory>
#include <vector>

#include "core/step/model_sweep.h"
#include "core/step/step_profile.h"
#include "core/sweep/backend.h"
#include "ui/jobs/trace_read_job.h"

class QGroupBox;
class QHBoxLayout;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSpinBox;
class QSplitter;
class QTableView;
class QTextBrowser;

namespace occx::ui {

class ElidedLabel;
class ModelSweepJob;
class ModelSweepModel;
class StepKernelModel;
class StepParetoPlot;

class StepPane : public QWidget {
  Q_OBJECT

 public:
  explicit StepPane(QWidget* parent = nullptr);
  ~StepPane() override;

  /// Starts reading the trace at `path` (a file, or ":/…"): finished when profileChanged() is
  /// emitted (or the status says why not). Returns an empty string, or why it cannot start.
  QString openTrace(const QString& path);
  /// Cancels a running read; the step shown before stays.
  void cancel();
  [[nodiscard]] bool isReading() const;
  /// The run the trace is joined to: its rows (a snapshot is kept), where they came from, and the
  /// scan itself (null: a bundled run or a scan CSV, whose kernel modules are not files: the step
  /// cannot be swept). The trace shown is joined again off the UI thread (profileChanged() when
  /// done); a sweep of the step shown before is dropped.
  void setRun(std::vector<triton::ScanRow> rows, const QString& input,
              std::shared_ptr<const triton::InductorRun> scanned);
  /// `backend` times the sweep's configs on its GPU `ordinal` (null, or no GPU: compiled, not timed).
  void setBackend(std::shared_ptr<Backend> backend, int ordinal);

  /// Sweeps the step's looped reductions (the budget and kernel count of the section), compiled
  /// with `python` (empty: $OCCX_PYTHON, else python3): modelSweepFinished() when done. Returns an
  /// empty string, or why it cannot start (also in the section's status).
  QString sweepModel(const QString& python);
  /// Asks the sweep to stop: the kernels that finished stay, the gain is theirs.
  void cancelModelSweep();
  [[nodiscard]] bool isSweepingModel() const;
  /// Why the step cannot be swept now, empty when it can (the Sweep button's tooltip says it).
  [[nodiscard]] QString modelSweepUnavailable() const;
  /// The last sweep of the step; nullptr before one ended.
  [[nodiscard]] const step::ModelSweepResult* modelSweepResult() const { return sweep_result_.get(); }
  /// The sweep's result in words, under its table, plain text; empty before one ended.
  [[nodiscard]] const QString& modelSweepWords() const { return sweep_words_text_; }

  /// A trace that ships with the run shown (":/inductor-runs/<key>.pt.trace.json.gz"): a button
  /// opens it. Empty: none (the button hides).
  void setBundledTrace(const QString& path);
  [[nodiscard]] QPushButton* bundledTraceButton() const { return bundled_; }

  /// The step shown; nullptr before a trace is read.
  [[nodiscard]] const step::StepProfile* profile() const { return result_ ? &result_->profile : nullptr; }
  /// The trace, the run's rows it was joined to and the step; nullptr before a trace is read.
  [[nodiscard]] const StepResult* result() const { return result_.get(); }
  /// The path of the trace shown (empty when none).
  [[nodiscard]] const QString& tracePath() const { return trace_path_; }
  /// The step in words (what the label shows), plain text; empty before a trace is read.
  [[nodiscard]] const QString& words() const { return words_text_; }

  // Widgets, for the view, the report and tests.
  [[nodiscard]] TraceReadJob* job() const { return job_; }
  [[nodiscard]] StepKernelModel* model() const { return model_; }
  [[nodiscard]] QTableView* table() const { return table_; }
  [[nodiscard]] StepParetoPlot* paretoPlot() const { return plot_; }
  [[nodiscard]] QTextBrowser* wordsView() const { return words_; }
  [[nodiscard]] QLabel* statusLabel() const { return status_; }
  [[nodiscard]] QPushButton* openButton() const { return open_; }
  [[nodiscard]] QSpinBox* stepsBox() const { return steps_; }
  [[nodiscard]] QGroupBox* modelSweepSection() const { return sweep_box_; }
  [[nodiscard]] QPushButton* modelSweepButton() const { return sweep_button_; }
  [[nodiscard]] QPushButton* modelSweepCancelButton() const { return sweep_cancel_; }
  /// Hides the step above a sweep's result, or shows it again (shown once there is a result).
  [[nodiscard]] QPushButton* stepToggleButton() const { return step_toggle_; }
  [[nodiscard]] QSpinBox* budgetBox() const { return budget_; }
  [[nodiscard]] QSpinBox* topKernelsBox() const { return top_; }
  [[nodiscard]] QProgressBar* kernelProgress() const { return kernel_progress_; }
  [[nodiscard]] QProgressBar* overallProgress() const { return overall_progress_; }
  [[nodiscard]] ElidedLabel* modelSweepStatus() const { return sweep_status_; }
  [[nodiscard]] ModelSweepModel* modelSweepModel() const { return sweep_model_; }
  [[nodiscard]] QTableView* modelSweepTable() const { return sweep_table_; }
  [[nodiscard]] ModelSweepJob* modelSweepJob() const { return sweep_job_; }

 signals:
  /// A trace was read and joined (or re-joined to a new run).
  void profileChanged();
  /// The user asked for kernel `name` of module `module` (double-click on a matched row).
  void kernelActivated(const QString& name, const QString& module);
  /// A trace was opened from `path` (for Open Recent).
  void traceOpened(const QString& path);
  /// The trace chosen with the Open button could not be read: `text` says why.
  void traceNotOpened(const QString& text);
  /// The section's Sweep button was clicked (the view starts sweepModel() with its Python).
  void modelSweepRequested();
  /// A sweep of the step ended: with a result (modelSweepResult()), or failed (the status says why).
  void modelSweepFinished();

 private:
  QHBoxLayout* buildTopRow();
  QSplitter* buildResults();
  void connectJob();
  void onTraceRead(const std::shared_ptr<const StepResult>& result);
  void openInteractive();
  void show(const StepResult& result);
  void setStatus(const QString& text, bool error);
  QHBoxLayout* buildModelSweepControls();
  QWidget* buildModelSweepProgress();
  QGroupBox* buildModelSweep();
  void connectModelSweep();
  void showModelSweepProgress(const step::ModelSweepProgress& p);
  void showModelSweep(const std::shared_ptr<const step::ModelSweepResult>& result);
  void setModelSweepStatus(const QString& text, bool error);
  /// The section as tall as its rows without a result, as tall as the splitter gives it with one.
  void fitModelSweepSection();
  /// Hides the step above the sweep (`hide`), or shows it again.
  void hideStepForSweep(bool hide);
  /// Drops the sweep shown (its step or run is no longer the one shown).
  void clearModelSweep();
  /// Enables the Sweep button (its tooltip says why not) and the trace's buttons (not while sweeping).
  void updateModelSweepButtons();

  TraceReadJob* job_;
  QPushButton* open_;
  QPushButton* bundled_;
  QString bundled_path_;
  QSpinBox* steps_;
  QProgressBar* progress_;
  QPushButton* cancel_;
  QLabel* status_;
  QTextBrowser* words_;
  QSplitter* split_;
  StepParetoPlot* plot_;
  StepKernelModel* model_;
  QSortFilterProxyModel* proxy_;
  QTableView* table_;
  std::shared_ptr<const StepResult> result_;
  QString trace_path_;
  QString pending_path_;
  QString open_tip_;
  QString bundled_tip_;
  QString words_text_;
  std::shared_ptr<const std::vector<triton::ScanRow>> rows_;
  QString run_input_;

  // The sweep of the step's reductions.
  std::shared_ptr<const triton::InductorRun> scanned_;
  std::size_t sweep_targets_ = 0;  ///< the step's looped reductions matched to a kernel of scanned_ (show())
  std::shared_ptr<Backend> backend_;
  int ordinal_ = 0;
  ModelSweepJob* sweep_job_;
  QGroupBox* sweep_box_;
  QPushButton* sweep_button_;
  QSpinBox* budget_;
  QSpinBox* top_;
  QPushButton* sweep_cancel_;
  ElidedLabel* sweep_status_;
  QWidget* sweep_progress_row_;
  QProgressBar* kernel_progress_;
  ElidedLabel* sweep_line_;
  QProgressBar* overall_progress_;
  QSplitter* sweep_results_;
  QPushButton* step_toggle_;
  ModelSweepModel* sweep_model_;
  QSortFilterProxyModel* sweep_proxy_;
  QTableView* sweep_table_;
  QTextBrowser* sweep_words_;
  QSplitter* outer_split_;
  std::shared_ptr<const step::ModelSweepResult> sweep_result_;
  QString sweep_words_text_;
  bool sweep_status_said_ = false;  ///< the status says something of its own (else the button's hint or why not)
  /// The latest report of each kernel under way (the next one compiles while the current one runs).
  std::map<int, step::ModelSweepProgress> sweep_reports_;
};

}  // namespace occx::ui
