#include "ui/views/view_context.h"

#include <QSettings>

#include "ui/jobs/live_sweep_job.h"

namespace occx::ui {

void CurrentDevice::setKey(const QString& key) {
  if (key == key_) return;
  key_ = key;
  emit changed(key_);
}

struct ViewContext::State {
  std::shared_ptr<Backend> backend;
  bool use_settings = false;
  bool first_start = false;
  std::vector<DetectedGpu> gpus;
  CurrentDevice current;
};

ViewContext::ViewContext(std::shared_ptr<Backend> backend, bool use_settings) : state_(std::make_shared<State>()) {
  state_->backend = backend != nullptr ? std::move(backend) : offlineBackend();
  state_->use_settings = use_settings;
  state_->first_start = use_settings && QSettings().allKeys().isEmpty();
  state_->gpus = occx::ui::detectedGpus(*state_->backend);
}

const std::shared_ptr<Backend>& ViewContext::backend() const {
  return state_->backend;
}

bool ViewContext::useSettings() const {
  return state_->use_settings;
}

const std::vector<DetectedGpu>& ViewContext::detectedGpus() const {
  return state_->gpus;
}

bool ViewContext::firstStart() const {
  return state_->first_start;
}

CurrentDevice* ViewContext::currentDevice() const {
  return &state_->current;
}

void ViewContext::followCurrentDevice(DeviceSelector* selector) const {
  // A list that already heads with the detected GPUs keeps its entries (setDetectedGpus rebuilds them,
  // and a view may have disabled some, as the compile sweep does).
  const bool has_detected = !selector->targets().empty() && selector->targets().front().detected;
  if (!state_->gpus.empty() && !has_detected) selector->setDetectedGpus(state_->gpus, state_->first_start);
  CurrentDevice* current = currentDevice();
  if (current->key().isEmpty()) {
    current->setKey(selector->currentKey());
  } else if (selector->isSelectable(current->key())) {
    selector->setCurrentKey(current->key());
  }
  // A list that keeps a device of its own says so under it, with the reason.
  auto say_override = [current, selector] {
    const QString key = current->key();
    if (key.isEmpty() || key == selector->currentKey()) {
      selector->setOverrideNote(QString());
      return;
    }
    const QString name = selector->shortName(key);
    const QString why = selector->whyNotSelectable(key);
    selector->setOverrideNote(why.isEmpty() ? QObject::tr("Differs from the window's GPU (%1).").arg(name)
                                            : QObject::tr("Differs from the window's GPU (%1): %2. The other "
                                                          "tabs use %1.")
                                                  .arg(name, why));
  };
  say_override();
  QObject::connect(selector, &DeviceSelector::targetChanged, current, [current, selector, say_override] {
    current->setKey(selector->currentKey());
    say_override();
  });
  QObject::connect(current, &CurrentDevice::changed, selector, [selector, say_override](const QString& key) {
    if (selector->currentKey() != key && selector->isSelectable(key)) selector->setCurrentKey(key);
    say_override();
  });
}

}  // namespace occx::ui
