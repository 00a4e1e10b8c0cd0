// The live-sweep view: run the kernel family on the local GPU over a grid of configs and replay Inductor's
// autotuner (each RBLOCK policy's candidate set, its pick, its regret against the best config); or
// open a live-sweep CSV measured elsewhere — the bundled H200 datasets on a machine without a GPU.
// Shows bandwidth per config against RBLOCK (one series per num_warps) with the measured copy
// bandwidth as the roofline and each policy's pick and the best marked; median time with its
// min … max range; theoretical against achieved occupancy; a regret table and a config table. Beside
// the family's figures, when a sweep of Inductor's own Triton kernel for the same problem is known
// (bundled with the dataset, or opened with "Compare with Inductor's kernel…"): that kernel's time,
// registers and time ratio per config, its series in the time plot, and the comparison in one line.
// Its panels are built in live_sweep_panels.cpp, the replay table is a RegretBox, and what the plots
// and lines show is computed by ui/models/live_sweep_content.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "core/sweep/backend.h"
#include "core/sweep/live_results.h"
#include "core/triton/family_fidelity.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/views/sweep_view.h"
#include "ui/views/view_context.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace occx::ui {

class SweepSeriesPlot;
class LiveSweepModel;
class RegretBox;

class LiveSweepView : public SweepView {
  Q_OBJECT

 public:
  /// The context's backend measures on the GPU (main() picks it; tests pass a fake) and says whether
  /// Run can be used here and why not.
  explicit LiveSweepView(const ViewContext& context, QWidget* parent = nullptr);
  ~LiveSweepView() override;

  /// Starts a live sweep with the current inputs (cancelling a running one). Empty string, or why not.
  QString startRun();
  /// Cancels the running sweep (stops within one run; measured rows stay).
  void cancelRun();
  /// Opens a live-sweep CSV (file or ":/datasets/…" resource). Empty string, or the error (shown).
  QString openCsvFile(const QString& path) override;
  /// Shows a dataset; `label` heads the view ("recorded data: …" or "measured on this machine: …").
  void showDataset(LiveDataset loaded, const QString& label);
  /// Pairs the shown dataset with a sweep of Inductor's own Triton kernel for the same problem, read
  /// from a kernel-runs CSV (a file or a ":/inductor-runs/…" resource, e.g. written by `occx
  /// inductor sweep --csv`): the Triton columns, series and summary line follow. Empty string, or
  /// the error (shown in the status line; what was shown stays): not a kernel-runs CSV, another
  /// shape than the dataset's, no dataset shown.
  QString compareWithMeasurements(const QString& path);
  /// The pairing shown, nullptr when the dataset has none.
  [[nodiscard]] const FamilyFidelity* fidelity() const { return fidelity_ ? &*fidelity_ : nullptr; }

  [[nodiscard]] const LiveDataset& dataset() const { return data_; }
  [[nodiscard]] const PickSummary& replay() const;
  /// Copy bandwidth of the shown dataset (GB/s; 0 when not recorded).
  [[nodiscard]] double copyBandwidth() const { return copy_GBps_; }
  bool selectRow(int row) { return selectSourceRow(row); }
  [[nodiscard]] int selectedRow() const { return selectedSourceRow(); }

  // Widgets, for tests.
  [[nodiscard]] QPushButton* runButton() const { return run_button_; }
  [[nodiscard]] QComboBox* bundledCombo() const { return bundled_; }
  [[nodiscard]] QCheckBox* cuptiCheck() const { return cupti_; }
  [[nodiscard]] QLabel* availabilityLabel() const { return availability_label_; }
  /// The line above the plots that says whether and how far Inductor's own kernel was compared.
  [[nodiscard]] QLabel* fidelityLabel() const { return fidelity_label_; }
  /// "Inductor's kernel": Triton's series in the time plot.
  [[nodiscard]] QCheckBox* tritonSeriesCheck() const { return triton_series_; }
  [[nodiscard]] QPushButton* compareButton() const { return compare_button_; }
  [[nodiscard]] SweepSeriesPlot* bandwidthPlot() const { return bw_plot_; }
  [[nodiscard]] SweepSeriesPlot* timePlot() const { return time_plot_; }
  [[nodiscard]] SweepSeriesPlot* occupancyPlot() const { return occ_plot_; }
  /// The tabs under the bandwidth plot: the config table, the time plot, the occupancy plot.
  [[nodiscard]] QTabWidget* detailTabs() const { return details_; }
  [[nodiscard]] QTableWidget* regretTable() const;
  [[nodiscard]] LiveSweepModel* model() const { return model_; }
  [[nodiscard]] LiveSweepJob* job() const { return job_; }

  // AppView
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  [[nodiscard]] std::vector<PlotController*> plotExports() const override;
  /// What the report's times and bandwidths are (the dataset's own words when it says).
  [[nodiscard]] QString reportText() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  [[nodiscard]] QString statusSummary() const override;

 signals:
  /// A dataset is shown (opened, or a run finished).
  void datasetChanged();

 private:
  // The panels (live_sweep_panels.cpp).
  QWidget* buildControls();
  QWidget* buildDataBox();
  QWidget* buildRunBox();
  QWidget* buildResults();
  // A run, and what it reports.
  void onPhase(quint64 id, occx::Phase phase, qulonglong done, qulonglong total);
  void onRowMeasured(quint64 id, qulonglong done, qulonglong total, const LiveRow& row);
  void onFinished(quint64 id, const std::shared_ptr<const LiveSweepResult>& outcome);
  void onFailed(quint64 id, const QString& message);
  void onRunningChanged(bool running) override;
  /// Draws the plots from live_sweep_content's plot data.
  void rebuildPlots() override;
  void rebuildRegretTable();
  /// The summary line and the Triton columns, from fidelity_.
  void showFidelity();
  [[nodiscard]] QString describeRow(int row) const;
  [[nodiscard]] int spillThreshold() const;

  LiveAvailability availability_;
  QCheckBox* cupti_ = nullptr;
  QPushButton* run_button_ = nullptr;
  QWidget* run_footer_ = nullptr;  ///< Run, Cancel, progress and status under the inputs, always in sight
  QComboBox* bundled_ = nullptr;
  QLabel* availability_label_ = nullptr;
  QLabel* dataset_detail_ = nullptr;
  QLabel* fidelity_label_ = nullptr;
  QCheckBox* triton_series_ = nullptr;
  QPushButton* compare_button_ = nullptr;
  QTabWidget* details_ = nullptr;  ///< the bandwidth plot, the table, the time and the occupancy plot, one per page
  SweepSeriesPlot* bw_plot_ = nullptr;
  SweepSeriesPlot* time_plot_ = nullptr;
  SweepSeriesPlot* occ_plot_ = nullptr;
  RegretBox* regret_ = nullptr;
  LiveSweepModel* model_ = nullptr;
  LiveSweepJob* job_ = nullptr;

  LiveDataset data_;                        ///< metadata of the shown dataset (rows live in the model while running)
  double copy_GBps_ = 0.0;                  ///< measured copy bandwidth of the dataset's GPU (the roofline)
  double datasheet_GBps_ = 0.0;             ///< the GPU data's datasheet DRAM bandwidth of that GPU; 0 when unknown
  std::optional<FamilyFidelity> fidelity_;  ///< the dataset beside Inductor's kernel, when compared
  QString fidelity_source_;                 ///< "ref_mean_var, H200, 2026-12-01": the kernel runs compared with
};

}  // namespace occx::ui
