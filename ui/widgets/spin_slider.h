// A spin box with a slider beside it, kept in step. The spin box holds the exact value; the slider
// moves in `slider_step` units (e.g. one warp = 32 threads, one KB = 1024 bytes).
#pragma once

#include <QWidget>

class QSlider;
class QSpinBox;

namespace occx::ui {

class CheckedSpinBox;

class SpinSlider : public QWidget {
  Q_OBJECT

 public:
  explicit SpinSlider(int slider_step = 1, QWidget* parent = nullptr);

  [[nodiscard]] QSpinBox* spinBox() const;
  [[nodiscard]] CheckedSpinBox* checkedSpinBox() const { return spin_; }
  [[nodiscard]] QSlider* slider() const { return slider_; }

  /// Sets both ranges; a value outside is clamped (and valueChanged emitted if it changes).
  void setRange(int minimum, int maximum);
  [[nodiscard]] int value() const;
  void setValue(int value);

 signals:
  /// The spin box's value changed (by typing, arrows, the slider, or setValue).
  void valueChanged(int value);

 private:
  void syncSlider(int value);

  int step_;
  CheckedSpinBox* spin_;
  QSlider* slider_;
};

}  // namespace occx::ui
