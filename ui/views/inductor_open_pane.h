// The top of the Inductor run view: what is opened and how — Open folder…, Open file…, the bundled
// runs, and the scan of a folder or a kernel module off the UI thread (ui/jobs/inductor_scan_job.h)
// with its progress and Cancel — and the run shown: its title, its summary in words, the status line.
#pragma once

#include <QString>
#include <QWidget>
#include <memory>

#include "core/triton/inductor_run.h"
#include "ui/models/inductor_run_data.h"

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace occx::ui {

class InductorScanJob;

class InductorOpenPane : public QWidget {
  Q_OBJECT

 public:
  explicit InductorOpenPane(QWidget* parent = nullptr);

  /// Scans `path` (a folder or a kernel module) off the UI thread: scanned() with the run, then
  /// scanEnded() (also after an error, said on the status line, or a cancel).
  void startScan(const QString& path);
  /// Asks the running scan to stop; the run shown before stays.
  void cancelScan();
  /// Cancels a running scan and drops what it still reports (another run is being shown).
  void dropScan();
  [[nodiscard]] bool isScanning() const;

  /// Shows the run's title (with where its measurements come from) and its summary.
  void showRun(const InductorRunData& run);
  /// Shows the run's title only (its measurements changed).
  void showTitle(const InductorRunData& run);
  /// Selects bundled run `key` in the bundled runs' menu (empty: the menu's prompt).
  void setBundledKey(const QString& key);
  /// The status line: `text`, in red when `error`, with `details` as its hover text. An error
  /// without details keeps the hover text it had.
  void setStatus(const QString& text, bool error = false, const QString& details = {});

 signals:
  void openFolderRequested();
  void openFileRequested();
  /// A bundled run was chosen in the menu.
  void bundledRunRequested(const QString& key);
  /// A scan ended with `run`: the receiver shows it; then the status line says what was read.
  void scanned(std::shared_ptr<const occx::triton::InductorRun> run);
  /// A scan ended (with a run, an error or cancelled) and the status line says so.
  void scanEnded();
  /// A scan failed: `message` says why (the status line says it too).
  void scanFailed(const QString& message);

 private:
  void connectJob();
  void showScanning(bool scanning);

  InductorScanJob* job_;
  QComboBox* bundled_;
  QProgressBar* progress_;
  QPushButton* cancel_;
  QLabel* title_;
  QLabel* summary_;
  QLabel* status_;
};

}  // namespace occx::ui
