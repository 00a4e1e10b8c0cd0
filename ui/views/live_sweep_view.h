// The live view: run the kernel family on the local GPU over a grid of configs and replay Inductor's
// autotuner (each RBLOCK policy's candidate set, its pick, its regret against the best config); or
// open a live-sweep CSV measured elsewhere — the bundled H200 datasets on a machine without a GPU.
// Shows bandwidth per config against RBLOCK (one series per num_warps) with the measured copy
// bandwidth as the roofline and each policy's pick and the best marked; median time with its
// min … max range; theoretical against achieved occupancy; a regret table and a config table.
#pragma once

#include <QWidget>
#include <memory>

#include "core/sweep/live_results.h"
#include "ui/shell/app_view.h"
#include "ui/jobs/live_sweep_job.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTimer;

namespace occx::ui {

class SweepInputs;
class SweepSeriesPlot;
class LiveSweepModel;

class LiveSweepView : public QWidget, public AppView {
  Q_OBJECT

 public:
  /// `run` measures on the GPU (defaultLiveRunFunction(); tests pass their own); `availability`
  /// says whether Run can be used here and why not.
  explicit LiveSweepView(QWidget* parent = nullptr, LiveRunFunction run = defaultLiveRunFunction(),
                    LiveAvailability availability = liveAvailability());
  ~LiveSweepView() override;

  /// Starts a live sweep with the current inputs (cancelling a running one). Empty string, or why not.
  QString startRun();
  /// Cancels the running sweep (stops within one run; measured rows stay).
  void cancelRun();
  /// Opens a live-sweep CSV (file or ":/datasets/…" resource). Empty string, or the error (shown).
  QString openCsvFile(const QString& path);
  /// Shows a dataset; `label` heads the view ("recorded data: …" or "measured on this machine: …").
  void showDataset(LiveDataset loaded, const QString& label);

  [[nodiscard]] const LiveDataset& dataset() const { return data_; }
  [[nodiscard]] const ReplaySummary& replay() const;
  /// Copy bandwidth of the shown dataset (GB/s; 0 when not recorded).
  [[nodiscard]] double copyBandwidth() const { return copy_GBps_; }
  [[nodiscard]] bool isRunning() const;
  bool selectRow(int row);
  [[nodiscard]] int selectedRow() const;
  bool setPlotXBlock(int xblock);
  [[nodiscard]] int plotXBlock() const;

  // Widgets, for tests.
  [[nodiscard]] SweepInputs* inputs() const { return inputs_; }
  [[nodiscard]] QPushButton* runButton() const { return run_button_; }
  [[nodiscard]] QPushButton* cancelButton() const { return cancel_button_; }
  [[nodiscard]] QPushButton* openCsvButton() const { return open_button_; }
  [[nodiscard]] QComboBox* bundledCombo() const { return bundled_; }
  [[nodiscard]] QCheckBox* cuptiCheck() const { return cupti_; }
  [[nodiscard]] QProgressBar* progressBar() const { return progress_; }
  [[nodiscard]] QLabel* statusLabel() const { return status_; }
  [[nodiscard]] QLabel* availabilityLabel() const { return availability_label_; }
  [[nodiscard]] QLabel* datasetLabel() const { return dataset_label_; }
  [[nodiscard]] QComboBox* xblockCombo() const { return xblock_filter_; }
  [[nodiscard]] SweepSeriesPlot* bandwidthPlot() const { return bw_plot_; }
  [[nodiscard]] SweepSeriesPlot* timePlot() const { return time_plot_; }
  [[nodiscard]] SweepSeriesPlot* occupancyPlot() const { return occ_plot_; }
  [[nodiscard]] QTableWidget* regretTable() const { return regret_; }
  [[nodiscard]] LiveSweepModel* model() const { return model_; }
  [[nodiscard]] QTableView* tableView() const { return table_; }
  [[nodiscard]] LiveSweepJob* job() const { return job_; }

  // AppView
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  [[nodiscard]] std::vector<PlotController*> plotExports() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  [[nodiscard]] QString statusSummary() const override;

 signals:
  void statusMessage(const QString& text);
  /// A dataset is shown (opened, or a run finished).
  void datasetChanged();

 private:
  QWidget* buildControls();
  QWidget* buildResults();
  void onPhase(quint64 id, const QString& phase, qulonglong done, qulonglong total);
  void onRowMeasured(quint64 id, qulonglong done, qulonglong total, const LiveRow& row);
  void onFinished(quint64 id, const std::shared_ptr<const LiveRunOutcome>& outcome);
  void onFailed(quint64 id, const QString& message);
  void onRunningChanged(bool running);
  void openCsvInteractive();
  void refreshXBlockFilter();
  void schedulePlots();
  void rebuildPlots();
  void rebuildRegretTable();
  void setStatus(const QString& text, bool error = false);
  [[nodiscard]] QString describeRow(int row) const;
  [[nodiscard]] int spillThreshold() const;

  LiveAvailability availability_;
  SweepInputs* inputs_ = nullptr;
  QCheckBox* cupti_ = nullptr;
  QPushButton* run_button_ = nullptr;
  QPushButton* cancel_button_ = nullptr;
  QPushButton* open_button_ = nullptr;
  QComboBox* bundled_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* status_ = nullptr;
  QLabel* availability_label_ = nullptr;
  QLabel* dataset_label_ = nullptr;
  QLabel* dataset_detail_ = nullptr;
  QComboBox* xblock_filter_ = nullptr;
  SweepSeriesPlot* bw_plot_ = nullptr;
  SweepSeriesPlot* time_plot_ = nullptr;
  SweepSeriesPlot* occ_plot_ = nullptr;
  QTableWidget* regret_ = nullptr;
  LiveSweepModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  QTableView* table_ = nullptr;
  QTimer* plot_timer_ = nullptr;
  LiveSweepJob* job_ = nullptr;

  LiveDataset data_;  ///< metadata of the shown dataset (rows live in the model while running)
  double copy_GBps_ = 0.0;
  quint64 running_id_ = 0;
  bool updating_ = false;
};

}  // namespace occx::ui
