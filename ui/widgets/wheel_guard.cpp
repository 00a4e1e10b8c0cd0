#include "ui/widgets/wheel_guard.h"

#include <QAbstractSlider>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QEvent>
#include <QScrollBar>
#include <QWidget>

namespace occx::ui {

namespace {

/// Ignores the wheel for an input without focus; returning true with the event ignored lets
/// QApplication hand it on to the parent, as for a widget that does not handle the wheel.
class WheelNeedsFocus : public QObject {
 public:
  using QObject::QObject;

  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() != QEvent::Wheel) return false;
    const auto* w = qobject_cast<const QWidget*>(watched);
    if (w == nullptr || w->hasFocus()) return false;
    event->ignore();
    return true;
  }
};

WheelNeedsFocus* wheelFilter() {
  static auto* filter = new WheelNeedsFocus;  // one for the program; lives as long as it
  return filter;
}

constexpr const char* kGuarded = "occxWheelGuarded";

}  // namespace

void guardWheel(QWidget* input) {
  if (input == nullptr || input->property(kGuarded).toBool()) return;
  input->setProperty(kGuarded, true);
  input->setFocusPolicy(Qt::StrongFocus);
  input->installEventFilter(wheelFilter());
}

void guardWheelUnder(const QWidget* root) {
  if (root == nullptr) return;
  for (QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>()) guardWheel(box);
  for (QComboBox* combo : root->findChildren<QComboBox*>()) guardWheel(combo);
  for (QAbstractSlider* slider : root->findChildren<QAbstractSlider*>()) {
    if (qobject_cast<QScrollBar*>(slider) != nullptr) continue;
    guardWheel(slider);
    slider->setFocusPolicy(Qt::ClickFocus);  // Tab out of a number box must not land on its slider
  }
}

}  // namespace occx::ui
