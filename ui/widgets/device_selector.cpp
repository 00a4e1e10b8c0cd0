#include "ui/widgets/device_selector.h"

#include <QComboBox>
#include <QLabel>
#include <QSignalBlocker>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace occx::ui {

namespace {

QString ccLabel(const ArchLimits& a) {
  return QStringLiteral("CC %1 (%2)").arg(QString::fromStdString(a.cc.str()), QString::fromStdString(a.family));
}

QString stripVendor(QString name) {
  for (const char* prefix : {"NVIDIA ", "Tesla "}) {
    if (name.startsWith(QLatin1String(prefix), Qt::CaseInsensitive)) name = name.mid(static_cast<int>(qstrlen(prefix)));
  }
  return name.trimmed();
}

}  // namespace

DeviceSelector::DeviceSelector(QWidget* parent, const GpuDatabase& db)
    : QWidget(parent), db_(&db), combo_(new QComboBox(this)), note_(new QLabel(this)) {
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(2);
  layout->addWidget(combo_);
  note_->setObjectName(QStringLiteral("deviceOverrideNote"));
  note_->setWordWrap(true);
  note_->setTextFormat(Qt::PlainText);
  note_->setStyleSheet(QStringLiteral("QLabel { color: #8a4b00; }"));
  note_->setVisible(false);
  layout->addWidget(note_);
  combo_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
  combo_->setMinimumContentsLength(28);
  combo_->setMaxVisibleItems(30);
  combo_->setToolTip(tr("GPU or compute capability whose limits the calculation uses"));
  connect(combo_, &QComboBox::currentIndexChanged, this, [this](int) {
    if (!rebuilding_) emit targetChanged();
  });
  rebuild(QString());
}

void DeviceSelector::rebuild(const QString& keep_key) {
  const QString previous = targets_.empty() ? QString() : currentKey();
  targets_.clear();
  for (const auto& d : detected_) {
    const ArchLimits* arch = db_->findArch(d.cc);
    if (arch == nullptr) continue;
    DeviceTarget t;
    t.key = QStringLiteral("detected:") + d.name;
    t.arch = arch;
    t.gpu = db_->findGpu(stripVendor(d.name).toStdString());
    t.sm_count = d.sm_count > 0 ? d.sm_count : (t.gpu != nullptr ? t.gpu->sm_count : 0);
    t.detected = true;
    t.label = tr("%1 (detected) — CC %2, %3 SMs").arg(d.name, QString::fromStdString(d.cc.str())).arg(t.sm_count);
    targets_.push_back(t);
  }
  for (const auto& g : db_->gpus()) {
    const ArchLimits* arch = db_->findArch(g.cc);
    if (arch == nullptr) continue;
    DeviceTarget t;
    t.key = QStringLiteral("gpu:") + QString::fromStdString(g.name);
    t.arch = arch;
    t.gpu = &g;
    t.sm_count = g.sm_count;
    t.label = tr("%1 — %2, %3 SMs").arg(QString::fromStdString(g.name), ccLabel(*arch)).arg(g.sm_count);
    targets_.push_back(t);
  }
  for (const auto& a : db_->architectures()) {
    DeviceTarget t;
    t.key = QStringLiteral("cc:") + QString::fromStdString(a.cc.str());
    t.arch = &a;
    t.label = ccLabel(a);
    targets_.push_back(t);
  }

  rebuilding_ = true;
  {
    const QSignalBlocker block(combo_);
    combo_->clear();
    bool in_detected = !targets_.empty() && targets_.front().detected;
    bool in_gpus = true;
    for (std::size_t i = 0; i < targets_.size(); ++i) {
      const auto& t = targets_[i];
      // Separators between the three groups (detected, named GPUs, compute capabilities).
      if (in_detected && !t.detected) {
        combo_->insertSeparator(combo_->count());
        in_detected = false;
      }
      if (in_gpus && t.gpu == nullptr && !t.detected) {
        combo_->insertSeparator(combo_->count());
        in_gpus = false;
      }
      combo_->addItem(t.label, t.key);
    }
  }
  rebuilding_ = false;

  QString want = keep_key.isEmpty() ? previous : keep_key;
  int idx = want.isEmpty() ? -1 : combo_->findData(want);
  if (idx < 0) idx = combo_->findData(defaultKey());
  if (idx < 0) idx = 0;
  {
    const QSignalBlocker block(combo_);
    combo_->setCurrentIndex(idx);
  }
  if (previous != currentKey()) emit targetChanged();
}

const DeviceTarget& DeviceSelector::currentTarget() const {
  const QString key = combo_->currentData().toString();
  for (const auto& t : targets_) {
    if (t.key == key) return t;
  }
  return targets_.front();
}

QString DeviceSelector::keyFor(ComputeCapability cc, int sm_count) const {
  QString bare;
  QString named;
  for (const auto& t : targets_) {
    if (t.arch == nullptr || t.arch->cc != cc) continue;
    if (t.gpu == nullptr && !t.detected) {
      if (bare.isEmpty()) bare = t.key;
      continue;
    }
    if (t.sm_count != sm_count) continue;
    if (t.detected) return t.key;
    if (named.isEmpty()) named = t.key;
  }
  // Named GPUs share compute capabilities and SM counts (H100 SXM5 and H200: CC 9.0, 132 SMs), so
  // a named one would name a GPU the config may not have run on: the bare CC says only what is known.
  return bare.isEmpty() ? named : bare;
}

bool DeviceSelector::setCurrentKey(const QString& key) {
  const int idx = combo_->findData(key);
  if (idx < 0) return false;
  combo_->setCurrentIndex(idx);
  return true;
}

bool DeviceSelector::isSelectable(const QString& key) const {
  const int idx = combo_->findData(key);
  if (idx < 0) return false;
  const auto* model = qobject_cast<const QStandardItemModel*>(combo_->model());
  const QStandardItem* item = model != nullptr ? model->item(idx) : nullptr;
  return item == nullptr || item->isEnabled();
}

QString DeviceSelector::shortName(const QString& key) const {
  for (const auto& t : targets_) {
    if (t.key != key) continue;
    if (t.gpu != nullptr && !t.detected) return QString::fromStdString(t.gpu->name);
    if (t.arch != nullptr && !t.detected) return QStringLiteral("CC ") + QString::fromStdString(t.arch->cc.str());
  }
  const QString kind = key.section(QLatin1Char(':'), 0, 0);
  const QString rest = key.section(QLatin1Char(':'), 1);
  return kind == QLatin1String("cc") ? QStringLiteral("CC ") + rest : rest;
}

QString DeviceSelector::whyNotSelectable(const QString& key) const {
  const int idx = combo_->findData(key);
  if (idx < 0) return tr("not in this list");
  if (isSelectable(key)) return {};
  const QString why = combo_->itemData(idx, Qt::ToolTipRole).toString();
  return why.isEmpty() ? tr("not offered here") : why;
}

void DeviceSelector::setOverrideNote(const QString& text) {
  note_->setText(text);
  note_->setVisible(!text.isEmpty());
}

QString DeviceSelector::defaultKey() const {
  for (const auto& t : targets_) {
    if (t.detected) return t.key;
  }
  if (const GpuSpec* h100 = db_->findGpu("H100-SXM"))
    return QStringLiteral("gpu:") + QString::fromStdString(h100->name);
  return targets_.empty() ? QString() : targets_.front().key;
}

void DeviceSelector::setDetectedGpus(const std::vector<DetectedGpu>& gpus, bool select_first) {
  detected_ = gpus;
  QString keep;
  if (select_first) {
    for (const auto& d : detected_) {
      if (db_->findArch(d.cc) != nullptr) {
        keep = QStringLiteral("detected:") + d.name;
        break;
      }
    }
  }
  rebuild(keep);
}

void DeviceSelector::setDetectedGpus(const QStringList& names, bool select_first) {
  std::vector<DetectedGpu> gpus;
  for (const QString& name : names) {
    const GpuSpec* g = db_->findGpu(stripVendor(name).toStdString());
    if (g == nullptr) continue;
    gpus.push_back({name, g->cc, g->sm_count});
  }
  setDetectedGpus(gpus, select_first);
}

}  // namespace occx::ui
