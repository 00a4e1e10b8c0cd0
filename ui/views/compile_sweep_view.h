// The compile-sweep view: compile the reduction kernel family with NVRTC over a grid of (XBLOCK, RBLOCK,
// num_warps) for a workload, dtype, shape and architecture — no GPU needed — and show registers per
// thread and spill bytes against RBLOCK (one series per num_warps, the 255-register cap and the
// full-occupancy register line marked), a config table (registers, spills, occupancy, each RBLOCK
// policy's decision, autotuner candidate or not) under them, and the generated source of the selected
// config on a page beside the plots' pages.
// The sweep runs off the UI thread (CompileSweepJob) with progress and cancel; the latest request
// wins. Without the CUDA Toolkit the view says so and still opens sweep CSVs written by `occx sweep`.
// Its panels are built in compile_sweep_panels.cpp; what the plots and lines show is computed by
// ui/models/compile_sweep_content.
#pragma once

#include <memory>

#include "core/sweep/backend.h"
#include "core/sweep/compile_sweep.h"
#include "core/sweep/compile_sweep_dataset.h"
#include "ui/views/config_hand_over.h"
#include "ui/views/sweep_view.h"
#include "ui/views/view_context.h"
#include "ui/widgets/device_selector.h"

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTabWidget;

namespace occx::ui {

class SweepSeriesPlot;
class CompileSweepJob;
class CompileSweepModel;

/// Architectures the view offers: those `backend`'s compiler can target that the GPU data knows;
/// without a compiler, the data's compute capabilities from 7.5 on.
std::vector<ComputeCapability> compileSweepArchitectures(const Backend& backend);

class CompileSweepView : public SweepView {
  Q_OBJECT

 public:
  /// The context's backend compiles (main() picks it; tests pass a fake); without a compiler the
  /// view still opens CSVs and says what is needed to compile. The target list follows the window's
  /// device where its compiler can build for it.
  explicit CompileSweepView(const ViewContext& context, QWidget* parent = nullptr);
  ~CompileSweepView() override;

  /// Starts a sweep with the current inputs (cancelling a running one). Returns an empty string, or
  /// why it cannot start (shown in the status line too).
  QString startSweep();
  /// Cancels the running sweep; the finished rows stay.
  void cancelSweep();
  /// Reads a compile-sweep CSV (written by `occx sweep --csv`) and shows it. Returns an empty string
  /// or the error (also shown).
  QString openCsvFile(const QString& path) override;
  /// Shows a dataset (as if it had been opened).
  void showData(CompileSweepDataset loaded, const QString& source_label);
  /// Sets the form (device, SM count, workload, dtype, K, shape, grid values) from a dataset, so that
  /// the next sweep builds what it shows. openCsvFile calls it.
  void followData(const CompileSweepDataset& data);

  /// The shown sweep (empty rows before the first one).
  [[nodiscard]] const CompileSweepDataset& data() const { return data_; }
  /// Selects the config table's row of sweep index `index` (shows its source, marks it in the plots).
  bool selectIndex(int index);
  /// The selected entry, nullptr when none.
  [[nodiscard]] const CompileSweepRecord* selectedEntry() const;
  [[nodiscard]] bool canCompile() const { return can_compile_; }

  // Widgets, for the main window and tests.
  [[nodiscard]] DeviceSelector* deviceSelector() const { return device_; }
  [[nodiscard]] QSpinBox* smCountSpin() const { return sms_; }
  [[nodiscard]] QSpinBox* maxrregcountSpin() const { return maxrreg_; }
  [[nodiscard]] QSpinBox* threadsSpin() const { return threads_; }
  [[nodiscard]] QPushButton* compileButton() const { return compile_button_; }
  [[nodiscard]] QPushButton* sendToRblockButton() const { return send_button_; }
  [[nodiscard]] QLabel* toolkitLabel() const { return toolkit_; }
  [[nodiscard]] SweepSeriesPlot* registersPlot() const { return regs_plot_; }
  [[nodiscard]] SweepSeriesPlot* spillsPlot() const { return spill_plot_; }
  [[nodiscard]] CompileSweepModel* model() const { return model_; }
  [[nodiscard]] QPlainTextEdit* sourceView() const { return source_; }
  [[nodiscard]] QLabel* sourceLabel() const { return source_label_; }
  /// The tabs over the table: the plots, the generated source.
  [[nodiscard]] QTabWidget* detailTabs() const { return plot_tabs_; }
  [[nodiscard]] CompileSweepJob* job() const { return job_; }

  // AppView
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  [[nodiscard]] std::vector<PlotController*> plotExports() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  [[nodiscard]] QString statusSummary() const override;

 signals:
  /// A compiled config's facts, for the RBLOCK-scaling view (one click on "Send to RBLOCK scaling").
  void sendToRblock(const occx::ui::ConfigHandOver& config);
  /// A sweep finished (or was cancelled) and its rows are shown.
  void sweepFinished();

 private:
  QWidget* buildInputs();
  QWidget* buildTargetBox();
  QWidget* buildCompileBox();
  QWidget* buildResults();
  QWidget* buildSourceBox();
  void onTargetChanged();
  void restrictArchitectures();
  void onRowFinished(quint64 id, qulonglong done, qulonglong total, const CompileSweepRow& row);
  void onFinished(quint64 id, const std::shared_ptr<const CompileSweepResult>& result);
  void onFailed(quint64 id, const QString& message);
  void onRunningChanged(bool running) override;
  void onSelectionChanged();
  void sendSelected();
  void rebuildPlots() override;
  void showSource();
  [[nodiscard]] QString describeRow(int model_row) const;
  [[nodiscard]] Expected<CompileSweepSpec> currentSpec() const;

  std::shared_ptr<Backend> backend_;
  bool can_compile_ = false;
  DeviceSelector* device_ = nullptr;
  QSpinBox* sms_ = nullptr;
  QLabel* device_info_ = nullptr;
  QSpinBox* maxrreg_ = nullptr;
  QSpinBox* threads_ = nullptr;
  QPushButton* compile_button_ = nullptr;
  QWidget* run_footer_ = nullptr;  ///< the buttons, progress and status under the inputs, always in sight
  QPushButton* send_button_ = nullptr;
  QLabel* toolkit_ = nullptr;
  SweepSeriesPlot* regs_plot_ = nullptr;
  SweepSeriesPlot* spill_plot_ = nullptr;
  CompileSweepModel* model_ = nullptr;
  QTabWidget* plot_tabs_ = nullptr;
  QPlainTextEdit* source_ = nullptr;
  QLabel* source_label_ = nullptr;
  CompileSweepJob* job_ = nullptr;

  CompileSweepDataset data_;  ///< header of the sweep shown (rows live in the model while running)
};

}  // namespace occx::ui
