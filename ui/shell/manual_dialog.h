// Help → Manual: the manual in a window of its own, with what was found on this machine — the
// Backend's GPUs, NVRTC and CUPTI, and whether the user's python3 imports torch and triton (asked
// once in the background; "checking…" until it answers, then the page is filled in).
#pragma once

#include <QDialog>
#include <QString>

class QProcess;
class QTextBrowser;

namespace occx {
class Backend;
}

namespace occx::ui {

class ManualDialog : public QDialog {
  Q_OBJECT

 public:
  explicit ManualDialog(QWidget* parent = nullptr);
  /// Stops a python3 probe still running, without its handlers.
  ~ManualDialog() override;

  /// The backend whose GPUs, NVRTC and CUPTI the page names (the caller keeps it alive); null: not asked.
  void setBackend(const Backend* backend) { backend_ = backend; }
  /// What was found here, as an HTML list (machineFactsHtml).
  [[nodiscard]] QString machineFacts() const;
  /// Shows (or raises) the window with the page filled in; the first call starts the python3 probe.
  void showManual();

 private:
  /// Starts `python3 -c "import sys, torch, triton"` in the background; fills python_status_.
  void probePython();

  const Backend* backend_ = nullptr;
  QTextBrowser* browser_ = nullptr;
  QProcess* python_probe_ = nullptr;
  QString python_status_;  ///< the probe's answer; empty until it came
};

}  // namespace occx::ui
