// A GPU / compute-capability selector shared by the views: detected GPUs first, then the named GPUs of
// the GPU data, then every compute capability.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "core/gpu/gpu_data.h"

class QComboBox;
class QLabel;

namespace occx::ui {

/// What a device entry stands for. `arch` points into the GpuDatabase given to the selector (which
/// must outlive it); `gpu` is null for a bare compute capability; `sm_count` is 0 when unknown.
struct DeviceTarget {
  QString key;    ///< stable id for settings: "gpu:H100 SXM5", "cc:9.0", "detected:NVIDIA H200"
  QString label;  ///< as shown: "H100 SXM5 — CC 9.0 (Hopper), 132 SMs"
  const ArchLimits* arch = nullptr;
  const GpuSpec* gpu = nullptr;
  int sm_count = 0;
  bool detected = false;
};

/// A GPU found on this machine (by the CUDA layer): its name, compute capability and SM count.
struct DetectedGpu {
  QString name;  ///< as the driver reports it, e.g. "NVIDIA H200"
  ComputeCapability cc;
  int sm_count = 0;
};

/// Combo box of device targets. Order: detected GPUs (marked "detected"), the named GPUs of the
/// data in file order, then "CC 9.0 (Hopper)" for every compute capability. Opens on the first
/// detected GPU, else on H100 SXM. Emits targetChanged() whenever the selection changes.
class DeviceSelector : public QWidget {
  Q_OBJECT

 public:
  explicit DeviceSelector(QWidget* parent = nullptr, const GpuDatabase& db = GpuDatabase::builtin());

  /// The selected entry (always valid: the list is never empty).
  [[nodiscard]] const DeviceTarget& currentTarget() const;
  [[nodiscard]] QString currentKey() const { return currentTarget().key; }
  /// Selects the entry with this key; returns false (selection unchanged) when there is none.
  bool setCurrentKey(const QString& key);
  /// Whether the list has an entry with this key that is enabled (a view may disable entries it
  /// cannot serve, e.g. architectures its compiler cannot build).
  [[nodiscard]] bool isSelectable(const QString& key) const;
  /// Every entry, in display order.
  [[nodiscard]] const std::vector<DeviceTarget>& targets() const { return targets_; }

  /// Puts GPUs found on this machine first. Entries whose compute capability is not in the data are
  /// left out. With `select_first` the first detected GPU becomes the selection; otherwise the
  /// current selection is kept when it still exists.
  void setDetectedGpus(const std::vector<DetectedGpu>& gpus, bool select_first = true);
  /// Same, from names only ("NVIDIA H200", "H100 PCIe"): each is looked up in the GPU data (a
  /// leading "NVIDIA " or "Tesla " is ignored); names not in the data are left out.
  void setDetectedGpus(const QStringList& names, bool select_first = true);

  /// The entry that best stands for a GPU of compute capability `cc` with `sm_count` SMs: a
  /// detected GPU that matches both, else the bare compute capability ("cc:9.0"; the caller
  /// overrides the SM count) — not a named GPU, since several share a CC and an SM count. Empty
  /// when `cc` is not in the list.
  [[nodiscard]] QString keyFor(ComputeCapability cc, int sm_count) const;

  /// Key of the built-in default: the first detected GPU, else H100 SXM.
  [[nodiscard]] QString defaultKey() const;

  /// The combo box (for layouts and tests).
  [[nodiscard]] QComboBox* comboBox() const { return combo_; }

  /// A short name for the entry with `key`, as notes write it: "H200", "NVIDIA H200", "CC 8.6"
  /// (from the key itself when the list has no such entry).
  [[nodiscard]] QString shortName(const QString& key) const;
  /// Why the entry with `key` cannot be chosen here: the tooltip a view gave the disabled entry
  /// ("NVRTC 12.4 cannot compile for sm_80"), "not in this list", or empty when it can be chosen.
  [[nodiscard]] QString whyNotSelectable(const QString& key) const;

  /// Shows `text` under the list (word-wrapped, in the colour of a note); empty hides it. The view
  /// context says here when this list keeps a device other than the window's.
  void setOverrideNote(const QString& text);
  /// The note under the list (hidden while there is none).
  [[nodiscard]] QLabel* overrideNote() const { return note_; }

 signals:
  void targetChanged();

 private:
  void rebuild(const QString& keep_key);

  const GpuDatabase* db_;
  std::vector<DetectedGpu> detected_;
  std::vector<DeviceTarget> targets_;
  QComboBox* combo_;
  QLabel* note_;
  bool rebuilding_ = false;
};

}  // namespace occx::ui
