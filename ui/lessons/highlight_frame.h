// A coloured frame drawn over a widget a lesson step asks the student to look at. It lies on top of
// the window (mouse events pass through it, so the widget under it still works), follows the
// widget as the window resizes or scrolls, and hides while the widget is hidden (another tab).
#pragma once

#include <QPointer>
#include <QWidget>

class QTimer;

namespace occx::ui {

class HighlightFrame : public QWidget {
  Q_OBJECT

 public:
  /// Frames `target` (not null) inside its window; scrolls it into view when it sits in a scroll area.
  explicit HighlightFrame(QWidget* target);

  /// The widget framed (null once it is gone).
  [[nodiscard]] QWidget* target() const { return target_; }
  /// Moves the frame onto the target again (called every 200 ms while it lives).
  void follow();

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  QPointer<QWidget> target_;
  QTimer* timer_;
};

}  // namespace occx::ui
