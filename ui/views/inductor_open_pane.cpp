#include "ui/views/inductor_open_pane.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>
#include <utility>

#include "ui/jobs/inductor_scan_job.h"
#include "ui/models/inductor_run_text.h"
#include "ui/models/text.h"

namespace occx::ui {

InductorOpenPane::InductorOpenPane(QWidget* parent) : QWidget(parent), job_(new InductorScanJob(this)) {
  setObjectName(QStringLiteral("inductorOpen"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  auto* row = new QHBoxLayout;
  auto* open_folder = new QPushButton(tr("Open folder…"));
  open_folder->setObjectName(QStringLiteral("openFolderButton"));
  open_folder->setToolTip(
      tr("An Inductor cache (TORCHINDUCTOR_CACHE_DIR, by default /tmp/torchinductor_<user>) or a torch_compile_debug "
         "folder"));
  connect(open_folder, &QPushButton::clicked, this, &InductorOpenPane::openFolderRequested);
  auto* open_file = new QPushButton(tr("Open file…"));
  open_file->setObjectName(QStringLiteral("openFileButton"));
  open_file->setToolTip(tr("A scan CSV (occx inductor scan --csv) or one kernel module (.py)"));
  connect(open_file, &QPushButton::clicked, this, &InductorOpenPane::openFileRequested);
  bundled_ = new QComboBox;
  bundled_->setObjectName(QStringLiteral("bundledRunCombo"));
  bundled_->setToolTip(tr("Runs recorded on an H200 with PyTorch 2.11 and Triton 3.6, shipped with the program"));
  bundled_->addItem(tr("Bundled runs…"), QString());
  for (const auto& r : bundledInductorRuns()) bundled_->addItem(r.title, r.key);
  bundled_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  bundled_->setMinimumContentsLength(24);
  connect(bundled_, &QComboBox::activated, this, [this](int index) {
    const QString key = bundled_->itemData(index).toString();
    if (!key.isEmpty()) emit bundledRunRequested(key);
  });
  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("scanProgress"));
  progress_->setMaximumWidth(180);
  progress_->setVisible(false);
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setObjectName(QStringLiteral("cancelScanButton"));
  cancel_->setVisible(false);
  connect(cancel_, &QPushButton::clicked, this, &InductorOpenPane::cancelScan);
  row->addWidget(open_folder);
  row->addWidget(open_file);
  row->addWidget(new QLabel(tr("or a bundled run:")));
  row->addWidget(bundled_, 1);
  row->addWidget(progress_);
  row->addWidget(cancel_);
  v->addLayout(row);

  title_ = new QLabel;
  title_->setObjectName(QStringLiteral("runTitle"));
  title_->setWordWrap(true);
  title_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  summary_ = new QLabel;
  summary_->setObjectName(QStringLiteral("runSummary"));
  summary_->setWordWrap(true);
  summary_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  status_ = new QLabel;
  status_->setObjectName(QStringLiteral("runStatus"));
  status_->setWordWrap(true);
  v->addWidget(title_);
  v->addWidget(summary_);
  v->addWidget(status_);
  connectJob();
}

// The job delivers its latest request only, and nothing of a dropped one (Job::discard).
void InductorOpenPane::connectJob() {
  connect(job_, &InductorScanJob::progress, this, [this](quint64, const QString& phase, int done, int total) {
    progress_->setMaximum(total > 0 ? total : 0);
    progress_->setValue(done);
    setStatus(total > 0 ? tr("Scanning: %1 (%2 of %3)…").arg(phase).arg(done).arg(total)
                        : tr("Scanning: %1…").arg(phase));
  });
  connect(job_, &InductorScanJob::finished, this,
          [this](quint64, const std::shared_ptr<const triton::InductorRun>& run) {
            emit scanned(run);
            QStringList problems;
            for (const auto& p : run->problems) problems << q(p);
            setStatus(scanStatusText(*run), false, problems.join(QLatin1Char('\n')));
            emit scanEnded();
          });
  connect(job_, &InductorScanJob::failed, this, [this](quint64, const QString& message) {
    setStatus(message, true);
    emit scanFailed(message);
    emit scanEnded();
  });
  connect(job_, &InductorScanJob::cancelled, this, [this](quint64) {
    setStatus(tr("Scan cancelled; the run shown before is kept."));
    emit scanEnded();
  });
  connect(job_, &Job::runningChanged, this, &InductorOpenPane::showScanning);
}

void InductorOpenPane::startScan(const QString& path) {
  triton::RunScanOptions options;
  options.input = QFile::encodeName(QFileInfo(path).absoluteFilePath()).toStdString();
  job_->start(options);
  setStatus(tr("Scanning %1…").arg(QDir::toNativeSeparators(path)));
}

void InductorOpenPane::cancelScan() {
  job_->cancel();
}

void InductorOpenPane::dropScan() {
  job_->discard();  // cancelled; what it still reports is dropped, and the job is idle at once
}

bool InductorOpenPane::isScanning() const {
  return job_->isRunning();
}

void InductorOpenPane::showRun(const InductorRunData& run) {
  showTitle(run);
  summary_->setText(run.summary);
}

void InductorOpenPane::showTitle(const InductorRunData& run) {
  title_->setText(runTitleHtml(run));
}

void InductorOpenPane::setBundledKey(const QString& key) {
  const int index = bundled_->findData(key);
  bundled_->setCurrentIndex(index >= 0 ? index : 0);
}

void InductorOpenPane::setStatus(const QString& text, bool error, const QString& details) {
  status_->setText(text);
  status_->setStyleSheet(error ? QStringLiteral("color: #a00000;") : QString());
  if (!error || !details.isEmpty()) status_->setToolTip(details);
}

void InductorOpenPane::showScanning(bool scanning) {
  progress_->setVisible(scanning);
  cancel_->setVisible(scanning);
}

}  // namespace occx::ui
