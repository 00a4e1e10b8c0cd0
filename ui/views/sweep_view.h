// What the two sweep views (compile sweep, live sweep) share: the sweep inputs, the "Plot XBLOCK"
// filter over the shown rows, the status line and progress bar, job control (the latest request
// wins: the job drops a superseded request's reports, so the views show whatever reaches them;
// cancel keeps finished rows; an opened file wins over a running sweep), the config table
// behind a sorting proxy, and opening a CSV from a file dialog that remembers its folder. Each view
// builds its own controls and plots from these parts.
#pragma once

#include <QWidget>
#include <functional>
#include <set>

#include "ui/views/app_view.h"

class QAbstractItemModel;
class QBoxLayout;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSettings;
class QSortFilterProxyModel;
class QTableView;
class QTimer;
class QVBoxLayout;

namespace occx::ui {

class SweepInputs;
class Job;

/// The XBLOCKs of `rows` (anything with a KernelConfig `config`), for the "Plot XBLOCK" filter.
template <typename Rows>
std::set<int> xblocksOf(const Rows& rows) {
  std::set<int> xs;
  for (const auto& r : rows) xs.insert(r.config.xblock);
  return xs;
}

class SweepView : public QWidget, public AppView {
  Q_OBJECT

 public:
  /// Reads a CSV (a file or a ":/…" resource) and shows it. Returns an empty string or the error
  /// (also shown in the status line).
  virtual QString openCsvFile(const QString& path) = 0;

  /// Shows the configs with this XBLOCK in the plots (false when no row has it). Rebuilds the plots
  /// once.
  bool setPlotXBlock(int xblock);
  /// The XBLOCK the plots show (1 while there are no rows).
  [[nodiscard]] int plotXBlock() const;
  /// True while the latest request runs.
  [[nodiscard]] bool isRunning() const;

  // Widgets, for the main window and tests.
  [[nodiscard]] SweepInputs* inputs() const { return inputs_; }
  [[nodiscard]] QPushButton* cancelButton() const { return cancel_button_; }
  [[nodiscard]] QPushButton* openCsvButton() const { return open_button_; }
  [[nodiscard]] QProgressBar* progressBar() const { return progress_; }
  [[nodiscard]] QLabel* statusLabel() const { return status_; }
  /// Replaces the file dialog of the view's own buttons (Open CSV…, Compare with Inductor's
  /// kernel…): `choose(caption)` gives the path, empty for cancelled. Tests answer without dialogs.
  void setPathChooser(std::function<QString(const QString& caption)> choose) { choose_path_ = std::move(choose); }
  [[nodiscard]] QLabel* datasetLabel() const { return dataset_label_; }
  [[nodiscard]] QComboBox* xblockCombo() const { return xblock_filter_; }
  [[nodiscard]] QTableView* tableView() const { return table_; }

 signals:
  /// statusSummary() changed.
  void statusMessage(const QString& text);
  /// The view's own "Open CSV…" opened `path` (for File → Open Recent).
  void pathOpened(const QString& path);
  /// A file the user chose with one of the view's own buttons could not be opened: `text` says why
  /// (the view's status line says it too; the window shows it where the user looks).
  void fileError(const QString& text);

 protected:
  /// `object_name` names the view's settings group; plots are rebuilt at most every
  /// `plot_delay_ms` while rows stream in.
  SweepView(QWidget* parent, const QString& object_name, int plot_delay_ms);

  /// Redraws every plot from the model's rows for plotXBlock().
  virtual void rebuildPlots() = 0;
  /// The latest request started (true) or ended (false); the cancel button follows already.
  virtual void onRunningChanged(bool running) = 0;

  // Building the parts (each view places them in its own layout).
  /// `job` reports to this view; its runningChanged drives the cancel button and onRunningChanged.
  void setJob(Job* job);
  /// Deletes the job (cancelling and waiting for its requests): a view's destructor calls it, so the
  /// job stops before the widgets it reports to go away.
  void deleteJob();
  /// The controls (in a scroll area `min_width` … `max_width` wide, wider when they need it) left of
  /// the results; `footer` (when given) under the scroll area, always in sight (inputScrollArea).
  void layOut(QWidget* controls, int min_width, int max_width, QWidget* results, QWidget* footer = nullptr);
  /// A column for the controls (left of the results); `layout` receives its layout.
  static QWidget* makeControlsColumn(QVBoxLayout*& layout);
  /// `label` word-wrapped in the notice style (brown on cream): what this build or machine cannot do.
  static void setNoticeStyle(QLabel* label);
  void makeInputs(QWidget* parent);
  void makeCancelButton(QWidget* parent);
  /// "Open CSV…", asking for a file with `caption` and opening it with openCsvFile.
  void makeOpenCsvButton(QWidget* parent, const QString& tooltip, const QString& caption);
  /// Asks for a CSV file with `caption`, starting in the folder of the last one this view opened;
  /// the path, or empty when the user cancelled.
  QString askCsvPath(const QString& caption);
  void makeProgressBar(QWidget* parent, const QString& object_name);
  void makeStatusLabel(QWidget* parent, const QString& object_name);
  /// The bold title over the plots, `larger_by` points above the font.
  void makeDatasetLabel(QWidget* parent, int larger_by = 0);
  /// "Plot XBLOCK:" and its combo box, appended to `header`.
  void addXBlockFilter(QWidget* parent, QBoxLayout* header, Qt::Alignment alignment = {});
  /// The config table over `model` through a proxy sorting by `sort_role`.
  void makeTable(QAbstractItemModel* model, int sort_role, const QString& object_name, QWidget* parent);

  // Using them.
  /// The filter offers `xblocks`, keeping the current choice when it is still there.
  void refreshXBlockFilter(const std::set<int>& xblocks);
  /// Rebuilds the plots soon (a streaming sweep's rows arrive faster than plots are drawn).
  void schedulePlots();
  /// " (XBLOCK = x)" for plot titles, empty when `shown` is false.
  [[nodiscard]] QString xblockSuffix(bool shown) const;
  void setStatus(const QString& text, bool error = false);
  /// `done` of `total` (at least 1) on the progress bar.
  void setProgress(qulonglong done, qulonglong total);
  /// Asks the running request to stop (finished rows stay) and says `message`.
  void cancelJob(const QString& message);
  /// An opened file wins: the running request is dropped (Job::discard), its result never arrives.
  void dropRunningJob();
  /// A request could not start or run: `status` in the status line, `message` over the plots.
  void showFailure(const QString& status, const QString& message);
  /// The model row selected in the table, -1 when none.
  [[nodiscard]] int selectedSourceRow() const;
  /// Selects model row `row` in the table and scrolls to it (false when out of range).
  bool selectSourceRow(int row);
  /// The plots follow the selected row's XBLOCK (`xblock`, 0 when none), else are redrawn.
  void followSelection(int xblock);
  void saveInputs(QSettings& settings) const;
  void restoreInputs(QSettings& settings);

  /// What the status bar says while a request runs ("Compiling 24 configs …"); empty when none
  /// runs. Views set it when they start one and statusSummary() shows it, so the bar never keeps
  /// the previous result's summary through a new run.
  QString running_summary_;
  SweepInputs* inputs_ = nullptr;
  QPushButton* cancel_button_ = nullptr;
  QPushButton* open_button_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  std::function<QString(const QString& caption)> choose_path_;  ///< empty: the file dialog
  QLabel* dataset_label_ = nullptr;
  QComboBox* xblock_filter_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* table_ = nullptr;

 private:
  void openCsvInteractive(const QString& caption);

  Job* sweep_job_ = nullptr;
  QTimer* plot_timer_ = nullptr;
  bool updating_ = false;  ///< the filter is being refilled: its index changes do not redraw
};

}  // namespace occx::ui
