// The Inductor run view: a user's own torch.compile kernels, read from disk (core/triton). Open an
// Inductor cache folder, a torch_compile_debug folder, a kernel module or a scan CSV (File → Open
// Inductor run…, dropping it on the window, or a bundled run recorded on an H200); the run in words
// at the top; a kernel list, filterable and sortable by any column; for the selected kernel its
// compiled configs (tile, registers, spills, occupancy, origin, the winner, every policy's decision
// with its reason), the RBLOCK bounds against registers for the selected config, occupancy per
// config as bars, and the source with the lines that set the tile highlighted. A config goes to the
// calculator or the RBLOCK-scaling view with its device. Scans run off the UI thread.
#pragma once

#include <QString>
#include <QWidget>
#include <map>
#include <memory>

#include "core/sweep/backend.h"

#include "ui/models/inductor_run_data.h"
#include "ui/shell/app_view.h"
#include "ui/views/config_hand_over.h"

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QSplitter;
class QTableView;
class QTableWidget;
class QTabWidget;

namespace occx::triton {
struct KernelSweepResult;
}

namespace occx::ui {

class ConfigOccupancyPlot;
class InductorScanJob;
class KernelListModel;
class MeasureJob;
class KernelSweepJob;
class MeasuredTimesPlot;
class SweepSeriesPlot;
class RblockBoundsPlot;
class RunConfigModel;
class StepPane;

class InductorRunView : public QWidget, public AppView {
  Q_OBJECT

 public:
  explicit InductorRunView(QWidget* parent = nullptr);
  ~InductorRunView() override;

  /// Opens `path`: a scan CSV (by its .csv suffix) is read at once; a folder or a kernel module is
  /// scanned off the UI thread (finished when scanFinished() is emitted). Returns an empty string, or
  /// why it cannot be opened (also shown).
  QString openPath(const QString& path);
  /// Shows bundled run `key` ("blenderbot"). Returns an empty string or the error.
  QString openBundled(const QString& key);
  /// Shows a run (as if it had been opened).
  void showRun(InductorRunData run);
  /// Cancels a running scan; the run shown before stays.
  void cancelScan();

  /// `backend` runs the compiled configs on GPU `ordinal` (main() picks it; tests pass a fake).
  /// Without one, running is not possible and the run buttons say so.
  void setBackend(std::shared_ptr<Backend> backend, int ordinal = 0);
  /// Why the run shown cannot be run on the GPU (no cubins: from a CSV or bundled; no GPU: the
  /// backend's reason); empty when it can.
  [[nodiscard]] QString runUnavailableReason() const;
  /// Runs the selected kernel's compiled configs (or every kernel with configs) off the UI thread
  /// (finished when measureFinished() is emitted); the rows merge into the configs table and the
  /// Measured tab. Returns an empty string, or why not (also shown).
  QString runSelectedKernel();
  QString runAllKernels();
  /// Cancels a running kernel run; the finished rows are kept.
  void cancelMeasure();
  [[nodiscard]] bool isRunningKernels() const;
  /// Why the selected kernel cannot be swept (no kernel, not a reduction, no module file: a CSV);
  /// empty when it can. A sweep also needs a Python with PyTorch and Triton: that is found when it starts.
  [[nodiscard]] QString sweepUnavailableReason() const;
  /// Sweeps the selected kernel off the UI thread (finished when kernelSweepFinished() is emitted):
  /// the Grid field's grid (empty: the default grid) and what each policy would add, compiled with the Python of the
  /// Python field (empty: $OCCX_PYTHON, else python3), read back, and run on the GPU when there is one. Its configs
  /// join the kernel's rows, the Measured and Sweep tabs; the best and the picks are said in words.
  /// Returns an empty string, or why not (also shown).
  QString sweepSelectedKernel();
  void cancelKernelSweep();
  [[nodiscard]] bool isSweeping() const;
  /// The last sweep's sentences for kernel module `module` (best, Inductor's pick, each policy's); empty when none.
  [[nodiscard]] QStringList sweepExplanation(const std::string& module) const;
  /// Opens a kernel-runs CSV (occx inductor run --csv): merged into the run shown when its kernels
  /// are in it. Returns an empty string, or why not (which run to open first; also shown).
  QString openMeasurementsCsv(const QString& path);

  /// Reads a torch.profiler trace of the user's step off the UI thread and shows it in the Step tab,
  /// joined to the run shown (and to each later run). Returns an empty string, or why not (also shown).
  QString openTrace(const QString& path);
  /// The Step tab.
  [[nodiscard]] StepPane* stepPane() const { return step_pane_; }

  /// Selects the kernel list's row of kernel `index` in the run (not the sorted row). False when out of range.
  bool selectKernel(int index);
  /// Selects row `row` of the selected kernel's config table. False when out of range.
  bool selectConfig(int row);
  /// Index in run().kernels of the selected kernel, -1 when none.
  [[nodiscard]] int selectedKernel() const { return kernel_index_; }
  /// The selected config's row, nullptr when none.
  [[nodiscard]] const triton::ScanRow* selectedConfig() const;
  /// The selected config as a hand-over; nullopt when no compiled config is selected.
  [[nodiscard]] std::optional<ConfigHandOver> selectedHandOver() const;

  [[nodiscard]] const InductorRunData& run() const { return data_; }
  [[nodiscard]] bool isScanning() const;

  // Widgets, for the main window and tests.
  [[nodiscard]] QLabel* summaryLabel() const { return summary_; }
  [[nodiscard]] QLabel* statusLabel() const { return status_; }
  [[nodiscard]] QLineEdit* filterEdit() const { return filter_; }
  [[nodiscard]] QTableView* kernelTable() const { return kernel_table_; }
  [[nodiscard]] QSortFilterProxyModel* kernelProxy() const { return kernel_proxy_; }
  [[nodiscard]] KernelListModel* kernelModel() const { return kernel_model_; }
  [[nodiscard]] QTableView* configTable() const { return config_table_; }
  [[nodiscard]] RunConfigModel* configModel() const { return config_model_; }
  [[nodiscard]] RblockBoundsPlot* boundsPlot() const { return bounds_plot_; }
  [[nodiscard]] ConfigOccupancyPlot* occupancyPlot() const { return occupancy_plot_; }
  [[nodiscard]] QPlainTextEdit* sourceView() const { return source_; }
  [[nodiscard]] QLabel* sourceLabel() const { return source_label_; }
  [[nodiscard]] QComboBox* bundledCombo() const { return bundled_; }
  [[nodiscard]] QPushButton* toCalculatorButton() const { return to_calculator_; }
  [[nodiscard]] QPushButton* toRblockButton() const { return to_rblock_; }
  [[nodiscard]] QTabWidget* detailTabs() const { return detail_tabs_; }
  [[nodiscard]] InductorScanJob* job() const { return job_; }
  [[nodiscard]] MeasureJob* measureJob() const { return run_job_; }
  [[nodiscard]] QPushButton* runButton() const { return run_button_; }
  [[nodiscard]] QPushButton* runAllButton() const { return run_all_button_; }
  [[nodiscard]] QProgressBar* runProgress() const { return run_progress_; }
  [[nodiscard]] QPushButton* cancelRunButton() const { return run_cancel_; }
  [[nodiscard]] QLabel* titleLabel() const { return title_; }
  [[nodiscard]] QLabel* measuredNote() const { return measured_note_; }
  [[nodiscard]] MeasuredTimesPlot* measuredPlot() const { return measured_plot_; }
  [[nodiscard]] QTableWidget* picksTable() const { return picks_table_; }
  [[nodiscard]] QPushButton* sweepButton() const { return sweep_button_; }
  [[nodiscard]] QLineEdit* pythonEdit() const { return python_edit_; }
  [[nodiscard]] QLineEdit* gridEdit() const { return grid_edit_; }
  [[nodiscard]] KernelSweepJob* kernelSweepJob() const { return sweep_job_; }
  [[nodiscard]] SweepSeriesPlot* sweepPlot() const { return sweep_plot_; }
  [[nodiscard]] QComboBox* sweepXblockCombo() const { return sweep_xblock_; }
  [[nodiscard]] QComboBox* sweepMetricCombo() const { return sweep_metric_; }
  [[nodiscard]] QLabel* sweepNote() const { return sweep_note_; }

  // AppView
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  [[nodiscard]] std::vector<PlotController*> plotExports() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  /// The step in words, when a profiler trace is open (the Step tab).
  [[nodiscard]] QString reportText() const override;
  [[nodiscard]] QString statusSummary() const override;

 public slots:
  /// Asks for a folder (an Inductor cache or a torch_compile_debug folder) and opens it.
  void openFolderInteractive();
  /// Asks for a scan CSV or a kernel module and opens it.
  void openFileInteractive();

 signals:
  void statusMessage(const QString& text);
  /// A scan ended (with a run, an error or cancelled) and the view shows its result.
  void scanFinished();
  /// A kernel run ended (rows merged, failed or cancelled) and the view shows its result.
  void measureFinished();
  /// A kernel sweep ended (configs and rows merged, failed or cancelled) and the view shows its result.
  void kernelSweepFinished();
  /// The view's own open dialogs opened `path` (for File → Open Recent).
  void pathOpened(const QString& path);
  /// openPath was given a dataset of another view (a live-sweep or compile-sweep CSV): the window
  /// opens it there. Without a receiver, openPath says which tab to open it in.
  void openElsewhere(const QString& path);
  /// The selected config, for the calculator (block of num_warps · 32 threads, its registers and shared memory).
  void openInCalculator(const occx::ui::ConfigHandOver& config);
  /// The selected config, for the RBLOCK-scaling view.
  void openInRblock(const occx::ui::ConfigHandOver& config);

 private:
  QWidget* buildTopBar();
  QWidget* buildKernelPane();
  QWidget* buildKernelDetails();
  void showKernel(int index);
  void showConfigDetails();
  void showSource(const RunKernelEntry& kernel);
  QWidget* buildMeasuredTab();
  void showMeasured(const RunKernelEntry* kernel);
  QWidget* buildSweepTab();
  void showSweepPlot(const RunKernelEntry* kernel);
  void mergeSweep(const triton::KernelSweepResult& result);
  void updateRunButtons();
  void showTitle();
  QString startMeasure(std::vector<const triton::RunKernel*> kernels);
  void setStatus(const QString& text, bool error = false);
  /// Cancels a running scan and drops what it still reports (another run is being shown).
  void dropScan();
  /// The Step tab's in-step time per kernel into the kernel list (its In-step column, hidden without a trace).
  void showInStepTimes();

  InductorRunData data_;
  quint64 scan_id_ = 0;  ///< the scan whose result is awaited; 0 = none
  int kernel_index_ = -1;
  bool filtering_ = false;
  bool handed_over_ = false;  ///< the last openPath gave its file to another view (openElsewhere)  ///< the kernel
                              ///< filter is changing the table: its current row is not the user's choice
  int config_row_ = -1;
  QString last_folder_;
  QString bundled_key_;

  InductorScanJob* job_;
  QLabel* title_ = nullptr;
  QLabel* summary_ = nullptr;
  QLabel* status_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QPushButton* cancel_ = nullptr;
  QComboBox* bundled_ = nullptr;
  QLineEdit* filter_ = nullptr;
  QTableView* kernel_table_ = nullptr;
  KernelListModel* kernel_model_ = nullptr;
  QSortFilterProxyModel* kernel_proxy_ = nullptr;
  QLabel* kernel_title_ = nullptr;
  QTableView* config_table_ = nullptr;
  RunConfigModel* config_model_ = nullptr;
  QTabWidget* detail_tabs_ = nullptr;
  RblockBoundsPlot* bounds_plot_ = nullptr;
  QLabel* bounds_note_ = nullptr;
  ConfigOccupancyPlot* occupancy_plot_ = nullptr;
  QPlainTextEdit* source_ = nullptr;
  QLabel* source_label_ = nullptr;
  QPushButton* to_calculator_ = nullptr;
  QPushButton* to_rblock_ = nullptr;
  QSplitter* main_split_ = nullptr;
  QSplitter* right_split_ = nullptr;

  std::shared_ptr<Backend> backend_;
  int ordinal_ = 0;
  MeasureJob* run_job_;
  quint64 run_id_ = 0;  ///< the kernel run whose result is awaited; 0 = none
  QPushButton* run_button_ = nullptr;
  QPushButton* run_all_button_ = nullptr;
  KernelSweepJob* sweep_job_;
  quint64 sweep_id_ = 0;  ///< the sweep whose result is awaited; 0 = none
  QPushButton* sweep_button_ = nullptr;
  QLineEdit* python_edit_ = nullptr;
  QLineEdit* grid_edit_ = nullptr;
  SweepSeriesPlot* sweep_plot_ = nullptr;
  QComboBox* sweep_xblock_ = nullptr;
  QComboBox* sweep_metric_ = nullptr;
  QLabel* sweep_note_ = nullptr;
  std::map<std::string, QStringList> sweep_explanations_;  ///< by module hash
  QProgressBar* run_progress_ = nullptr;
  QPushButton* run_cancel_ = nullptr;
  QLabel* measured_note_ = nullptr;
  MeasuredTimesPlot* measured_plot_ = nullptr;
  QTableWidget* picks_table_ = nullptr;
  QWidget* sweep_tab_ = nullptr;
  StepPane* step_pane_ = nullptr;
  bool in_step_sorted_ = false;  ///< the kernel list was sorted by in-step time once for this trace
};

}  // namespace occx::ui
