// The Inductor run view's Step tab: a torch.profiler trace of the user's step (core/step), read off
// the UI thread with progress and cancel, joined to the run the view shows: the step in words, a
// Pareto chart of the kernels by in-step time (coloured by kind, cumulative share), and the table
// of every kernel with its config and the bounds' decisions. Double-clicking a kernel of the run
// selects it in the view's kernel list.
#pragma once

#include <QString>
#include <QWidget>
#include <memory>
#include <vector>

#include "core/step/step_profile.h"
#include "ui/jobs/trace_read_job.h"

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
  /// The run the trace is joined to: its rows (a snapshot is kept) and where they came from. The
  /// trace shown is joined again off the UI thread (profileChanged() when done).
  void setRun(std::vector<triton::ScanRow> rows, const QString& input);

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

 signals:
  /// A trace was read and joined (or re-joined to a new run).
  void profileChanged();
  /// The user asked for kernel `name` of module `module` (double-click on a matched row).
  void kernelActivated(const QString& name, const QString& module);
  /// A trace was opened from `path` (for Open Recent).
  void traceOpened(const QString& path);
  /// The trace chosen with the Open button could not be read: `text` says why.
  void traceNotOpened(const QString& text);

 private:
  QHBoxLayout* buildTopRow();
  QSplitter* buildResults();
  void connectJob();
  void onTraceRead(const std::shared_ptr<const StepResult>& result);
  void openInteractive();
  void show(const StepResult& result);
  void setStatus(const QString& text, bool error);

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
  QString words_text_;
  std::shared_ptr<const std::vector<triton::ScanRow>> rows_;
  QString run_input_;
};

}  // namespace occx::ui
