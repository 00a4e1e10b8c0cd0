// A one-line label that never asks for the width of its whole text: when the text is wider than
// the label, it is cut after the last whole word that fits and ends in "…", and the whole text is
// the tooltip. For the status bar, where a QLabel's minimum width (its whole text) pushes the
// widgets beside it over it and the text is cut mid-word.
#pragma once

#include <QFontMetrics>
#include <QLabel>
#include <QString>

namespace occx::ui {

/// `text` cut to fit `width` pixels in `metrics`: whole, or up to the end of a word (a space, '·' or
/// ',' before the cut; trailing separators dropped) followed by "…". A single word wider than
/// `width` is cut where it must (still ending in "…"). Empty for a width that takes not even "…".
[[nodiscard]] QString elideAtWord(const QString& text, const QFontMetrics& metrics, int width);

class ElidedLabel : public QLabel {
  Q_OBJECT

 public:
  explicit ElidedLabel(QWidget* parent = nullptr);

  /// The whole text (what text() shows may be cut, once the label is shown and laid out); the tooltip
  /// is the whole text while cut.
  void setFullText(const QString& text);
  [[nodiscard]] QString fullText() const { return full_; }
  /// Whether the shown text is cut.
  [[nodiscard]] bool isElided() const { return text() != full_; }

  [[nodiscard]] QSize minimumSizeHint() const override;
  [[nodiscard]] QSize sizeHint() const override;

 protected:
  void resizeEvent(QResizeEvent* event) override;
  void showEvent(QShowEvent* event) override;

 private:
  void refit();

  QString full_;
};

}  // namespace occx::ui
