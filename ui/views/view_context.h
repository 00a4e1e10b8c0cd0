// What every view gets at construction, as each panel of a debugger's UI gets one capture context:
// the GPU backend, whether settings are read and written, the GPUs found here, and the window's
// current device. A cheap handle: copies share one state, which lives as long as any view holding it.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <vector>

#include "core/sweep/backend.h"
#include "ui/widgets/device_selector.h"

namespace occx::ui {

/// The window's current device (a DeviceSelector key: "gpu:H100 SXM5", "cc:9.0", "detected:NVIDIA
/// H200"); every device list attached to the context follows it.
class CurrentDevice : public QObject {
  Q_OBJECT

 public:
  [[nodiscard]] QString key() const { return key_; }
  /// Makes `key` current; emits changed() when it differs from the current one.
  void setKey(const QString& key);

 signals:
  void changed(const QString& key);

 private:
  QString key_;
};

class ViewContext {
 public:
  /// `backend` (not null) is what the views compile, detect GPUs and run with; with `use_settings`
  /// false nothing is read from or written to QSettings (screenshots, reports, tests). Asks the
  /// backend for its GPUs once, here.
  explicit ViewContext(std::shared_ptr<Backend> backend, bool use_settings = false);

  [[nodiscard]] const std::shared_ptr<Backend>& backend() const;
  [[nodiscard]] bool useSettings() const;
  /// The GPUs the backend detected, as the device lists show them; empty without a GPU.
  [[nodiscard]] const std::vector<DetectedGpu>& detectedGpus() const;
  /// True on the first start (settings used and none saved yet): a detected GPU becomes the choice.
  [[nodiscard]] bool firstStart() const;
  /// The window's current device (never null; the context owns it).
  [[nodiscard]] CurrentDevice* currentDevice() const;

  /// Puts the detected GPUs at the head of `selector` and makes it follow the window's current
  /// device both ways: a choice in it becomes the window's, and the window's becomes its choice
  /// when it lists that device as selectable (else it keeps its own, visibly: a compile sweep
  /// cannot target what its compiler cannot build). The first attached list sets the window's
  /// device when there is none yet.
  void followCurrentDevice(DeviceSelector* selector) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace occx::ui
