#include "ui/widgets/spin_slider.h"

#include <QHBoxLayout>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>
#include <QWheelEvent>
#include <algorithm>

#include "ui/widgets/checked_spin_box.h"

namespace occx::ui {
namespace {

/// A slider that takes the wheel only with focus (as CheckedSpinBox): scrolling the panel past it
/// leaves its value alone.
class FocusWheelSlider : public QSlider {
 public:
  using QSlider::QSlider;

 protected:
  void wheelEvent(QWheelEvent* event) override {
    if (!hasFocus()) {
      event->ignore();
      return;
    }
    QSlider::wheelEvent(event);
  }
};

}  // namespace

SpinSlider::SpinSlider(int slider_step, QWidget* parent)
    : QWidget(parent),
      step_(std::max(1, slider_step)),
      spin_(new CheckedSpinBox(this)),
      slider_(new FocusWheelSlider(Qt::Horizontal, this)) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(spin_, 0);
  layout->addWidget(slider_, 1);
  spin_->setMinimumWidth(110);
  spin_->setAccelerated(true);
  slider_->setMinimumWidth(70);
  // A click gives it focus, Tab does not: leaving the number box with Tab and scrolling on must not
  // turn the slider beside it (the box is the keyboard's way in).
  slider_->setFocusPolicy(Qt::ClickFocus);
  connect(spin_, &QSpinBox::valueChanged, this, [this](int v) {
    syncSlider(v);
    emit valueChanged(v);
  });
  connect(slider_, &QSlider::valueChanged, this, [this](int units) {
    const long long v = static_cast<long long>(units) * step_;
    spin_->setValue(static_cast<int>(std::clamp<long long>(v, spin_->minimum(), spin_->maximum())));
  });
}

void SpinSlider::setRange(int minimum, int maximum) {
  {
    const QSignalBlocker block(slider_);
    // Slider positions are whole steps inside the range (at least one position).
    const int lo = minimum >= 0 ? (minimum + step_ - 1) / step_ : minimum / step_;
    const int hi = std::max(lo, maximum / step_);
    slider_->setRange(lo, hi);
    slider_->setPageStep(std::max(1, (hi - lo) / 8));
  }
  spin_->setRange(minimum, maximum);
  syncSlider(spin_->value());
}

QSpinBox* SpinSlider::spinBox() const {
  return spin_;
}

int SpinSlider::value() const {
  return spin_->value();
}

void SpinSlider::setValue(int value) {
  spin_->setValue(value);
}

void SpinSlider::syncSlider(int value) {
  const QSignalBlocker block(slider_);
  slider_->setValue(value >= 0 ? (value + step_ / 2) / step_ : value / step_);
}

}  // namespace occx::ui
