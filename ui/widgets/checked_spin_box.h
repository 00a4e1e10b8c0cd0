// Spin boxes that say why they refused what was typed, and the inline message that shows it.
//
// A number typed takes effect when editing ends (Return, Tab, focus elsewhere), and the wheel turns
// only a box that has focus. A plain QSpinBox drops a keystroke that would leave its range without a word (type 256
// into a 0 … 255 box and it shows 25) and, when editing ends, silently puts back the old value for text below the
// minimum or empty text. CheckedSpinBox keeps what was typed on screen until editing ends, then puts back the last
// value, and reports the text with the allowed range and the value kept; InputMessage shows the latest report under the
// inputs until the box holds a value again. A box of bytes (setByteUnits) also takes sizes with a unit: "48 KB",
// "48KiB", "1.5 kb", "2 MiB".
#pragma once

#include <QLabel>
#include <QLayout>
#include <QLocale>
#include <QPointer>
#include <QSpinBox>

namespace occx::ui {

/// How text typed into a box of bytes reads: B, KB / KiB (1024 B, as CUDA counts shared memory)
/// and MB / MiB (1024 KB), any case, with or without a space, K and M alone too; no unit = bytes.
/// A fraction is taken when it makes whole bytes ("1.5 KB" = 1536 B, not "1.3 KB").
struct ByteAmount {
  enum class Kind {
    kBytes,          ///< `bytes` (may lie outside any box's range: "-1", "64 KB" in a 48 KB box)
    kEmpty,          ///< nothing typed
    kNotASize,       ///< not a number with one of the units ("abc", "48 Ki", "1e3")
    kNotWholeBytes,  ///< a size, but not whole bytes: `exact` says what it is ("1331.2")
  };
  Kind kind = Kind::kEmpty;
  qint64 bytes = 0;
  bool scaled = false;  ///< typed with KB / KiB / MB / MiB (messages add the bytes)
  QString exact;
};
/// Reads `text` (trimmed) as ByteAmount; `locale` gives the decimal point and the group separator
/// (a '.' is always a decimal point). Numbers beyond 64 bits saturate.
[[nodiscard]] ByteAmount readByteAmount(const QString& text, const QLocale& locale = QLocale());

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

  /// Makes this a box of bytes: it shows "49152 B" and takes what readByteAmount reads ("48 KB",
  /// "48KiB", "49152"); its value stays the number of bytes. Clears the suffix (the unit is part
  /// of the text, so the user may type another one).
  void setByteUnits(bool on);
  [[nodiscard]] bool byteUnits() const { return byte_units_; }

  QValidator::State validate(QString& text, int& pos) const override;

 protected:
  [[nodiscard]] int valueFromText(const QString& text) const override;
  [[nodiscard]] QString textFromValue(int value) const override;
  /// Only a box with focus takes the wheel; otherwise the event goes on to the widget around it.
  void wheelEvent(QWheelEvent* event) override;

 signals:
  /// The user typed or pasted text that is not a value of this box; `message` is refusal(text).
  void inputRefused(const QString& message);
  /// The user's edit is a value again, or the value changed in any other way.
  void inputAccepted();

 private:
  [[nodiscard]] QString rangeText() const;
  /// `text` without the prefix and suffix, trimmed.
  [[nodiscard]] QString body(const QString& text) const;
  /// Whether `text` is the result of an edit into the suffix (the unit is not the user's input).
  [[nodiscard]] bool damagesTheUnit(const QString& text) const;
  /// Whether `text` (prefix and suffix removed, trimmed) is the special value text, in any case.
  [[nodiscard]] bool isSpecialText(const QString& text) const;
  [[nodiscard]] QString byteRefusal(const QString& text, const QString& tail) const;
  void onTextEdited(const QString& text);

  QString quantity_;
  bool byte_units_ = false;
  int last_value_ = 0;  ///< the value last announced by valueChanged
};

/// The inline message of a view's inputs: shows the latest refusal of any watched box, right under
/// that box (the next row of its form or column, where the user is looking; the panel scrolls to
/// it), and goes back to its own place, hidden, once the box holds a value again and the user
/// moves on: the box's next accepted edit or new value, any other watched box's accepted edit or
/// new value once the named box shows a value (its editing ended and it went back to the value
/// kept), or clearIfSettled (a successful export). A box in no form or column (a grid) gets the
/// message where it was put. Styled like the views' other inline messages.
class InputMessage : public QLabel {
  Q_OBJECT

 public:
  explicit InputMessage(QWidget* parent = nullptr);

  /// Watches every CheckedSpinBox under `root` (found once, now).
  void watchAll(const QWidget* root);
  void watch(CheckedSpinBox* box);

  /// Hides the message when the box it names shows a value (not text it refused). Returns whether
  /// no message is shown now.
  bool clearIfSettled();
  /// The box whose refusal is shown, or null.
  [[nodiscard]] CheckedSpinBox* source() const { return source_; }

 private:
  void dismiss();
  /// Moves the message into the row under `box` (see the class comment), or leaves it in place.
  void placeUnder(CheckedSpinBox* box);
  /// Takes the message out of the layout under a box that holds it, if any.
  void leavePlace();
  /// Puts the message back in its own place (hidden), if it was moved.
  void goHome();

  QPointer<CheckedSpinBox> source_;  ///< the box whose refusal is shown
  QPointer<QLayout> home_;           ///< the layout the message was put in (found on the first move)
  int home_index_ = -1;
  QPointer<QLayout> placed_;  ///< the layout under a box that holds the message now, or null
};

}  // namespace occx::ui
