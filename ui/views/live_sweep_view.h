// The live-sweep view: run the kernel family on the local GPU over a grid of configs and replay Inductor's
// autotuner (each RBLOCK policy's candidate set, its pick, its regret against the best config); or
// open a live-sweep CSV measured elsewhere — the bundled H200 datasets on a machine without a GPU.
// Shows bandwidth per config against RBLOCK (one series per num_warps) with the measured copy
// bandwidth as the roofline and each policy's pick and the best marked; median time with its
// min … max range; theoretical against achieved occupancy; a regret table and a config table.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "core/sweep/live_results.h"
#include "core/sweep/backend.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/views/sweep_view.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace occx::ui {

class SweepSeriesPlot;
class LiveSweepModel;

class LiveSweepView : public SweepView {
  Q_OBJECT

 public:
  /// `backend` measures on the GPU (main() picks it; tests pass a fake) and says whether Run can be
  /// used here and why not.
  LiveSweepView(QWidget* parent, std::shared_ptr<Backend> backend);
  ~LiveSweepView() override;

  /// Starts a live sweep with the current inputs (cancelling a running one). Empty string, or why not.
  QString startRun();
  /// Cancels the running sweep (stops within one run; measured rows stay).
  void cancelRun();
  /// Opens a live-sweep CSV (file or ":/datasets/…" resource). Empty string, or the error (shown).
  QString openCsvFile(const QString& path) override;
  /// Shows a dataset; `label` heads the view ("recorded data: …" or "measured on this machine: …").
  void showDataset(LiveDataset loaded, const QString& label);

  [[nodiscard]] const LiveDataset& dataset() const { return data_; }
  [[nodiscard]] const ReplaySummary& replay() const;
  /// Copy bandwidth of the shown dataset (GB/s; 0 when not recorded).
  [[nodiscard]] double copyBandwidth() const { return copy_GBps_; }
  bool selectRow(int row) { return selectSourceRow(row); }
  [[nodiscard]] int selectedRow() const { return selectedSourceRow(); }

  // Widgets, for tests.
  [[nodiscard]] QPushButton* runButton() const { return run_button_; }
  [[nodiscard]] QComboBox* bundledCombo() const { return bundled_; }
  [[nodiscard]] QCheckBox* cuptiCheck() const { return cupti_; }
  [[nodiscard]] QLabel* availabilityLabel() const { return availability_label_; }
  [[nodiscard]] SweepSeriesPlot* bandwidthPlot() const { return bw_plot_; }
  [[nodiscard]] SweepSeriesPlot* timePlot() const { return time_plot_; }
  [[nodiscard]] SweepSeriesPlot* occupancyPlot() const { return occ_plot_; }
  /// The tabs under the bandwidth plot: the config table, the time plot, the occupancy plot.
  [[nodiscard]] QTabWidget* detailTabs() const { return details_; }
  [[nodiscard]] QTableWidget* regretTable() const { return regret_; }
  [[nodiscard]] LiveSweepModel* model() const { return model_; }
  [[nodiscard]] LiveSweepJob* job() const { return job_; }

  // AppView
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  [[nodiscard]] std::vector<PlotController*> plotExports() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  [[nodiscard]] QString statusSummary() const override;

 signals:
  /// A dataset is shown (opened, or a run finished).
  void datasetChanged();

 private:
  /// The rows of the plotted XBLOCK by num_warps, and what the plots scale to.
  struct PlotRows {
    int xblock = 1;
    std::map<int, std::vector<int>> by_warps;  ///< num_warps → model rows (ok rows of this XBLOCK)
    double max_bandwidth = 0.0;
    double max_time = 0.0;      ///< slowest median
    double max_time_bar = 0.0;  ///< slowest single run
    bool any_achieved = false;  ///< some ok row (any XBLOCK) has achieved occupancy
    std::string achieved_reason;  ///< why not, from the first row without it
    int selected = -1;            ///< the selected model row when it is ok and of this XBLOCK
  };
  [[nodiscard]] PlotRows plotRows() const;

  QWidget* buildControls();
  QWidget* buildDataBox();
  QWidget* buildRunBox();
  QWidget* buildRegretBox();
  QWidget* buildResults();
  void onPhase(quint64 id, occx::Phase phase, qulonglong done, qulonglong total);
  void onRowMeasured(quint64 id, qulonglong done, qulonglong total, const LiveRow& row);
  void onFinished(quint64 id, const std::shared_ptr<const LiveSweepResult>& outcome);
  void onFailed(quint64 id, const QString& message);
  void onRunningChanged(bool running) override;
  void rebuildPlots() override;
  void rebuildBandwidthPlot(const PlotRows& shown);
  void rebuildTimePlot(const PlotRows& shown);
  void rebuildOccupancyPlot(const PlotRows& shown);
  void rebuildRegretTable();
  [[nodiscard]] QString describeRow(int row) const;
  [[nodiscard]] int spillThreshold() const;

  LiveAvailability availability_;
  QCheckBox* cupti_ = nullptr;
  QPushButton* run_button_ = nullptr;
  QComboBox* bundled_ = nullptr;
  QLabel* availability_label_ = nullptr;
  QLabel* dataset_detail_ = nullptr;
  QTabWidget* details_ = nullptr;  ///< the table, the time plot and the occupancy plot, one per page
  SweepSeriesPlot* bw_plot_ = nullptr;
  SweepSeriesPlot* time_plot_ = nullptr;
  SweepSeriesPlot* occ_plot_ = nullptr;
  QTableWidget* regret_ = nullptr;
  LiveSweepModel* model_ = nullptr;
  LiveSweepJob* job_ = nullptr;

  LiveDataset data_;  ///< metadata of the shown dataset (rows live in the model while running)
  double copy_GBps_ = 0.0;       ///< measured copy bandwidth of the dataset's GPU (the roofline)
  double datasheet_GBps_ = 0.0;  ///< the GPU data's datasheet DRAM bandwidth of that GPU; 0 when unknown
};

}  // namespace occx::ui
