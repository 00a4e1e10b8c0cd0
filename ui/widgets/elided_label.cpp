#include "ui/widgets/elided_label.h"

#include <QResizeEvent>
#include <algorithm>

namespace occx::ui {

namespace {

bool separatesWords(QChar c) {
  return c.isSpace() || c == QChar(0x00B7) || c == QLatin1Char(',') || c == QLatin1Char(';') || c == QLatin1Char(':');
}

}  // namespace

QString elideAtWord(const QString& text, const QFontMetrics& metrics, int width) {
  if (metrics.horizontalAdvance(text) <= width) return text;
  const QString ellipsis(QChar(0x2026));
  const int room = width - metrics.horizontalAdvance(ellipsis);
  if (room < 0) return {};
  // The longest prefix that fits, then back to the end of its last whole word.
  int fits = 0;
  while (fits < text.size() && metrics.horizontalAdvance(text.left(fits + 1)) <= room) ++fits;
  int cut = fits;
  if (cut < text.size() && !separatesWords(text.at(cut))) {
    while (cut > 0 && !separatesWords(text.at(cut - 1))) --cut;
    if (cut == 0) cut = fits;  // one word wider than the label: cut inside it
  }
  while (cut > 0 && separatesWords(text.at(cut - 1))) --cut;
  return text.left(cut) + ellipsis;
}

ElidedLabel::ElidedLabel(QWidget* parent) : QLabel(parent) {
  setTextFormat(Qt::PlainText);
  setWordWrap(false);
  setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
}

void ElidedLabel::setFullText(const QString& text) {
  full_ = text;
  updateGeometry();
  refit();
}

QSize ElidedLabel::minimumSizeHint() const {
  const QFontMetrics m = fontMetrics();
  const QMargins c = contentsMargins();
  return {m.horizontalAdvance(QStringLiteral("Wxyz…")) + c.left() + c.right() + 2 * margin(),
          QLabel::minimumSizeHint().height()};
}

QSize ElidedLabel::sizeHint() const {
  const QMargins c = contentsMargins();
  return {fontMetrics().horizontalAdvance(full_) + c.left() + c.right() + 2 * margin() + 2,
          QLabel::sizeHint().height()};
}

void ElidedLabel::resizeEvent(QResizeEvent* event) {
  QLabel::resizeEvent(event);
  refit();
}

void ElidedLabel::showEvent(QShowEvent* event) {
  QLabel::showEvent(event);
  refit();
}

void ElidedLabel::refit() {
  if (!isVisible()) {  // not laid out yet: nothing to fit
    if (text() != full_) QLabel::setText(full_);
    setToolTip(QString());
    return;
  }
  const int width = contentsRect().width() - 2 * margin();
  const QString shown = elideAtWord(full_, fontMetrics(), std::max(0, width));
  if (shown != text()) QLabel::setText(shown);
  setToolTip(shown != full_ ? full_ : QString());
}

}  // namespace occx::ui
