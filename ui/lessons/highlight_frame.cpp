#include "ui/lessons/highlight_frame.h"

#include <QPainter>
#include <QScrollArea>
#include <QTimer>

namespace occx::ui {
namespace {
constexpr int kMargin = 4;  ///< px the frame stands out of the target on each side
}  // namespace

HighlightFrame::HighlightFrame(QWidget* target) : QWidget(target->window()), target_(target), timer_(new QTimer(this)) {
  setObjectName(QStringLiteral("lessonHighlight"));
  setAttribute(Qt::WA_TransparentForMouseEvents);
  setAttribute(Qt::WA_NoSystemBackground);
  setFocusPolicy(Qt::NoFocus);
  for (QWidget* w = target->parentWidget(); w != nullptr; w = w->parentWidget()) {
    if (auto* area = qobject_cast<QScrollArea*>(w);
        area != nullptr && area->widget() != nullptr && area->widget()->isAncestorOf(target)) {
      area->ensureWidgetVisible(target);
      break;
    }
  }
  connect(timer_, &QTimer::timeout, this, &HighlightFrame::follow);
  timer_->start(200);
  follow();
}

void HighlightFrame::follow() {
  QWidget* window = parentWidget();
  if (target_ == nullptr || window == nullptr || !target_->isVisible() || target_->visibleRegion().isEmpty()) {
    hide();
    return;
  }
  const QRect visible = target_->visibleRegion().boundingRect();
  const QPoint top_left = target_->mapTo(window, visible.topLeft());
  setGeometry(QRect(top_left, visible.size()).adjusted(-kMargin, -kMargin, kMargin, kMargin));
  show();
  raise();
}

void HighlightFrame::paintEvent(QPaintEvent* /*event*/) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  QPen pen(QColor(235, 120, 0));
  pen.setWidth(3);
  p.setPen(pen);
  p.drawRoundedRect(QRectF(rect()).adjusted(1.5, 1.5, -1.5, -1.5), 6, 6);
}

}  // namespace occx::ui
