// Spin boxes that say why they refused what was typed, and the inline message that shows it.
//
// A plain QSpinBox drops a keystroke that would leave its range without a word (type 256 into a
// 0 … 255 box and it shows 25) and, when editing ends, silently puts back the old value for text
// below the minimum or empty text. CheckedSpinBox keeps what was typed on screen until editing
// ends, then puts back the last value, and reports the text with the allowed range and the value
// kept; InputMessage shows the latest report under the inputs until the box gets a new value.
#pragma once

#include <QLabel>
#include <QPointer>
#include <QSpinBox>

namespace occx::ui {

class CheckedSpinBox : public QSpinBox {
  Q_OBJECT

 public:
  explicit CheckedSpinBox(QWidget* parent = nullptr);

  /// The quantity named in messages, e.g. "Registers per thread". Unset, it is the label of the
  /// form row the box (or its SpinSlider) sits in, else the object name.
  void setQuantity(const QString& quantity) { quantity_ = quantity; }
  [[nodiscard]] QString quantity() const;

  /// Why `text` (as typed, with the box's prefix/suffix or without) is not a value of this box, or
  /// an empty string when it is one. E.g. "Registers per thread: 256 is out of range; allowed
  /// 0 … 255. Kept 25." ("Kept": the value the box goes back to when editing ends).
  [[nodiscard]] QString refusal(const QString& text) const;

  QValidator::State validate(QString& text, int& pos) const override;

 signals:
  /// The user typed or pasted text that is not a value of this box; `message` is refusal(text).
  void inputRefused(const QString& message);
  /// The user's edit is a value again, or the value changed in any other way.
  void inputAccepted();

 private:
  [[nodiscard]] QString rangeText() const;
  /// `text` without the prefix and suffix, trimmed.
  [[nodiscard]] QString body(const QString& text) const;
  /// Whether `text` is the result of an edit into the suffix or the special value text.
  [[nodiscard]] bool damagesTheUnit(const QString& text) const;
  void onTextEdited(const QString& text);

  QString quantity_;
  int last_value_ = 0;  ///< the value last announced by valueChanged
};

/// The inline message under a view's inputs: shows the latest refusal of any watched box, hides on
/// the next accepted edit in that box. Styled like the views' other inline messages.
class InputMessage : public QLabel {
  Q_OBJECT

 public:
  explicit InputMessage(QWidget* parent = nullptr);

  /// Watches every CheckedSpinBox under `root` (found once, now).
  void watchAll(const QWidget* root);
  void watch(CheckedSpinBox* box);

 private:
  QPointer<CheckedSpinBox> source_;  ///< the box whose refusal is shown
};

}  // namespace occx::ui
