#include "ui/shell/manual_dialog.h"

#include <QDialogButtonBox>
#include <QProcess>
#include <QTextBrowser>
#include <QTimer>
#include <QVBoxLayout>

#include "core/triton/triton_compile.h"
#include "ui/shell/help_text.h"

namespace occx::ui {

ManualDialog::ManualDialog(QWidget* parent) : QDialog(parent) {
  setWindowTitle(tr("Occupancy Explorer — Manual"));
  auto* layout = new QVBoxLayout(this);
  browser_ = new QTextBrowser(this);
  browser_->setObjectName(QStringLiteral("manualBrowser"));
  browser_->setOpenExternalLinks(true);
  layout->addWidget(browser_);
  auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
  connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::close);
  layout->addWidget(buttons);
  resize(760, 640);
}

ManualDialog::~ManualDialog() {
  // A python3 probe still running: stop it without its handlers, which use this dialog.
  if (python_probe_ != nullptr) {
    python_probe_->disconnect(this);
    python_probe_->kill();
    python_probe_->waitForFinished(2000);
  }
}

QString ManualDialog::machineFacts() const {
  return machineFactsHtml(backend_, python_status_);
}

void ManualDialog::showManual() {
  if (python_status_.isEmpty() && python_probe_ == nullptr) probePython();
  browser_->setHtml(manualHtml(machineFacts()));
  show();
  raise();
}

void ManualDialog::probePython() {
  // The user's own Python, as the Triton features will use it ($OCCX_PYTHON, else python3): both
  // packages must import.
  const QString python = QString::fromStdString(triton::pythonProgram({}));
  auto* probe = new QProcess(this);
  python_probe_ = probe;
  probe->setProcessChannelMode(QProcess::MergedChannels);
  const auto done = [this, probe](const QString& status) {
    python_status_ = status;
    python_probe_ = nullptr;
    probe->deleteLater();
    if (isVisible()) browser_->setHtml(manualHtml(machineFacts()));
  };
  connect(probe, &QProcess::finished, this, [probe, done, python](int code, QProcess::ExitStatus status) {
    const QString out = QString::fromUtf8(probe->readAll()).trimmed();
    if (status == QProcess::NormalExit && code == 0) {
      const QStringList parts = out.split(QLatin1Char(' '));
      done(parts.size() >= 3 ? tr("%1 (PyTorch %2, Triton %3)").arg(parts[0], parts[1], parts[2]) : out);
    } else {
      const QString last = out.section(QLatin1Char('\n'), -1).trimmed();
      done(tr("%1 cannot import both torch and triton (%2)")
               .arg(python, last.isEmpty() ? tr("exit code %1").arg(code) : last));
    }
  });
  connect(probe, &QProcess::errorOccurred, this, [done, python](QProcess::ProcessError e) {
    if (e == QProcess::FailedToStart) done(tr("%1 cannot be started (not found on the PATH?)").arg(python));
  });
  probe->start(
      python,
      {QStringLiteral("-c"),
       QStringLiteral("import sys, torch, triton; print(sys.executable, torch.__version__, triton.__version__)")});
  QTimer::singleShot(30000, probe, [probe] { probe->kill(); });
}

}  // namespace occx::ui
