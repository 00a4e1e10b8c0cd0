// The Inductor run view: a user's own torch.compile kernels, read from disk (core/triton). Open an
// Inductor cache folder, a torch_compile_debug folder, a kernel module or a scan CSV (File → Open
// Inductor run…, dropping it on the window, or a bundled run recorded on an H200). The view owns the
// run shown and keeps its panes in step with it, each of one concern:
//   InductorOpenPane         the open buttons, the bundled runs, the scan off the UI thread; the
//                            run in words and the status line
//   InductorKernelListPane   the kernels, filterable and sortable by any column
//   InductorConfigPane       the chosen kernel's compiled configs with every policy's decision; the
//                            selected config goes to the calculator or the RBLOCK-scaling view
//   InductorMeasureControls  Run on this GPU, Run all kernels, Sweep this kernel (off the UI thread)
//   InductorDetailTabs       the RBLOCK bounds of the selected config, occupancy per config, the
//                            source, the measured times, the sweep, the step (StepPane)
// What the panes show is computed without widgets in ui/models (inductor_run_actions.h,
// inductor_plot_data.h, inductor_run_text.h).
#pragma once

#include <QString>
#include <QWidget>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/sweep/backend.h"
#include "ui/models/inductor_run_data.h"
#include "ui/views/app_view.h"
#include "ui/views/config_hand_over.h"
#include "ui/views/view_context.h"

class QSplitter;
class QTabWidget;

namespace occx::ui {

class InductorConfigPane;
class InductorDetailTabs;
class InductorKernelListPane;
class InductorMeasureControls;
class InductorOpenPane;
class StepPane;

class InductorRunView : public QWidget, public AppView {
  Q_OBJECT

 public:
  /// The context's backend runs the compiled configs on GPU 0 (main() picks it; tests pass a fake);
  /// without a GPU, running is not possible and the run buttons say so.
  explicit InductorRunView(const ViewContext& context, QWidget* parent = nullptr);
  ~InductorRunView() override;

  /// Opens `path`: a scan CSV is read at once, a kernel-runs CSV merged into the run shown, a
  /// profiler trace read into the Step tab; a folder or a kernel module is scanned off the UI thread
  /// (finished when scanFinished() is emitted). Returns an empty string, or why it cannot be opened
  /// (also shown).
  QString openPath(const QString& path);
  /// Shows bundled run `key` ("blenderbot"). Returns an empty string or the error.
  QString openBundled(const QString& key);
  /// Shows a run (as if it had been opened).
  void showRun(InductorRunData run);
  /// Cancels a running scan; the run shown before stays.
  void cancelScan();

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
  /// Sweeps the step's reductions on the Step tab (StepPane::sweepModel), compiled with the Python of
  /// the Sweep tab's Python field. Returns an empty string, or why not (also shown on the Step tab).
  QString sweepStep();
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
  /// The detail tabs (RBLOCK bounds, occupancy, source, Measured, Sweep, Step), for choosing a page.
  [[nodiscard]] QTabWidget* detailTabs() const;

  /// Selects the kernel list's row of kernel `index` in the run (not the sorted row), clearing a
  /// filter that hides it. False when out of range.
  bool selectKernel(int index);
  /// Selects row `row` of the selected kernel's config table. False when out of range.
  bool selectConfig(int row);
  /// Index in run().kernels of the selected kernel, -1 when none or while the kernel list's filter
  /// hides it (the details show no kernel then; the filter letting it through shows it again, with
  /// the config that was selected).
  [[nodiscard]] int selectedKernel() const;
  /// The selected config's row, nullptr when none.
  [[nodiscard]] const triton::ScanRow* selectedConfig() const;
  /// The selected config as a hand-over; nullopt when no compiled config is selected.
  [[nodiscard]] std::optional<ConfigHandOver> selectedHandOver() const;

  [[nodiscard]] const InductorRunData& run() const { return data_; }
  [[nodiscard]] bool isScanning() const;

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
  /// A file or folder the user chose with one of the view's own buttons (Open, Open profiler trace)
  /// could not be opened: `text` says why (the view's status line says it too; the window shows it
  /// where the user looks).
  void fileError(const QString& text);
  /// openPath was given a dataset of another view (a live-sweep or compile-sweep CSV): the window
  /// opens it there. Without a receiver, openPath says which tab to open it in.
  void openElsewhere(const QString& path);
  /// The selected config, for the calculator (block of num_warps · 32 threads, its registers and shared memory).
  void openInCalculator(const occx::ui::ConfigHandOver& config);
  /// The selected config, for the RBLOCK-scaling view.
  void openInRblock(const occx::ui::ConfigHandOver& config);

 private:
  void connectPanes();
  /// The right-hand column: the kernel's title, the buttons, and the pages (the configs first).
  QWidget* buildDetailColumn();
  /// Opens `path` as openPath does; `handed_over` tells whether it went to another view.
  QString open(const QString& path, bool& handed_over);
  /// Shows the chosen kernel (none: the list's choice is none, or the filter hides it) in every pane.
  void showKernel();
  /// The filter hid the chosen kernel (`hidden`) or let it through again: no kernel shown, or the
  /// kernel with the config that was selected when it was hidden.
  void followHiddenKernel(bool hidden);
  /// The selected config in the occupancy bars and the bounds tab.
  void showConfigDetails();
  /// After measurements or a sweep changed the run: the list, the title and the chosen kernel again.
  void showMerged(bool keep_config);
  void updateRunButtons();
  /// Says `text` on the status line (in red when `error`) and returns it.
  QString say(const QString& text, bool error = false);

  InductorRunData data_;
  QString last_folder_;
  QString bundled_key_;
  std::map<std::string, QStringList> sweep_explanations_;  ///< by module hash

  InductorOpenPane* open_;
  InductorKernelListPane* kernels_;
  InductorConfigPane* configs_;
  InductorMeasureControls* controls_;
  InductorDetailTabs* detail_tabs_;
  StepPane* step_pane_;  ///< the detail tabs' Step tab
  QSplitter* main_split_ = nullptr;
  int hidden_config_row_ = -1;  ///< the config selected when the filter hid the chosen kernel
};

}  // namespace occx::ui
