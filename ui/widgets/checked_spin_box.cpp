#include "ui/widgets/checked_spin_box.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>
#include <QScrollArea>
#include <QWheelEvent>
#include <algorithm>
#include <limits>

namespace occx::ui {

namespace {

constexpr qint64 kKiB = 1024;
constexpr qint64 kMiB = qint64{1024} * 1024;

/// base^n, for the small powers of 2 and 5 that readByteAmount needs (n <= 18: below 2^63).
qint64 power(qint64 base, int n) {
  qint64 p = 1;
  for (int i = 0; i < n; ++i) p *= base;
  return p;
}

}  // namespace

ByteAmount readByteAmount(const QString& typed, const QLocale& locale) {
  ByteAmount out;
  QString text = typed.trimmed();
  if (text.isEmpty()) return out;
  out.kind = ByteAmount::Kind::kNotASize;
  // The locale's decimal point reads as '.'; its group separator (between digits) is dropped.
  const QString point = locale.decimalPoint();
  const QString group = locale.groupSeparator();
  if (point != QLatin1String(".")) text.replace(point, QStringLiteral("."));
  if (!group.isEmpty() && group != point && group != QLatin1String(".")) {
    text.replace(QRegularExpression(QStringLiteral("(?<=[0-9])") + QRegularExpression::escape(group) +
                                    QStringLiteral("(?=[0-9]{3})")),
                 QString());
  }
  static const QRegularExpression shape(QStringLiteral("^([+-]?)([0-9]*)(?:\\.([0-9]*))?\\s*([A-Za-z]*)$"));
  const QRegularExpressionMatch m = shape.match(text);
  if (!m.hasMatch()) return out;
  const QString whole = m.captured(2);
  QString fraction = m.captured(3);
  if (whole.isEmpty() && fraction.isEmpty()) return out;
  const QString unit = m.captured(4).toLower();
  qint64 scale = 0;
  if (unit.isEmpty() || unit == QLatin1String("b"))
    scale = 1;
  else if (unit == QLatin1String("k") || unit == QLatin1String("kb") || unit == QLatin1String("kib"))
    scale = kKiB;
  else if (unit == QLatin1String("m") || unit == QLatin1String("mb") || unit == QLatin1String("mib"))
    scale = kMiB;
  else
    return out;
  const bool negative = m.captured(1) == QLatin1String("-");
  out.scaled = scale != 1;

  while (fraction.endsWith(QLatin1Char('0'))) fraction.chop(1);
  // The whole part in bytes, saturated (more than 12 digits is out of every box's range anyway).
  constexpr qint64 kMax = std::numeric_limits<qint64>::max();
  QString digits = whole;
  while (digits.size() > 1 && digits.startsWith(QLatin1Char('0'))) digits.remove(0, 1);
  qint64 bytes = kMax;
  if (digits.size() <= 12) bytes = (digits.isEmpty() ? 0 : digits.toLongLong()) * scale;
  // The fraction: f / 10^d of `scale` bytes is whole when 10^d divides f × scale; scale = 2^k, so
  // 5^d must divide f and 2^(d - k) too.
  if (!fraction.isEmpty()) {
    const int d = static_cast<int>(fraction.size());
    int k = 0;
    while ((qint64{1} << k) < scale) ++k;
    const bool whole_bytes = [&] {
      if (d > 18) return false;
      const qint64 f = fraction.toLongLong();
      const qint64 fives = power(5, d);
      const qint64 twos = d > k ? power(2, d - k) : 1;
      if (f % fives != 0 || (f / fives) % twos != 0) return false;
      const qint64 extra = (f / fives / twos) * (d < k ? power(2, k - d) : 1);
      if (bytes != kMax) bytes = bytes > kMax - extra ? kMax : bytes + extra;
      return true;
    }();
    if (!whole_bytes) {
      const double value =
          (QStringLiteral("0") + whole + QLatin1Char('.') + fraction).toDouble() * static_cast<double>(scale);
      out.kind = ByteAmount::Kind::kNotWholeBytes;
      out.exact = QString::number(negative ? -value : value, 'f', std::min(d, 18))
                      .remove(QRegularExpression(QStringLiteral("\\.?0+$")));
      return out;
    }
  }
  out.kind = ByteAmount::Kind::kBytes;
  out.bytes = negative ? -bytes : bytes;
  return out;
}

CheckedSpinBox::CheckedSpinBox(QWidget* parent) : QSpinBox(parent) {
  // textEdited: only the user's edits that the validator let through (not setValue, not the revert
  // when editing ends), so a refusal stays on screen until the user changes the text again.
  connect(lineEdit(), &QLineEdit::textEdited, this, &CheckedSpinBox::onTextEdited);
  // A new value by any way (arrows, the slider, another view) ends a refusal too. Only a new one:
  // Return re-emits the value the box went back to, and that must leave the message in place.
  connect(this, &QSpinBox::valueChanged, this, [this](int v) {
    if (v == last_value_) return;
    last_value_ = v;
    emit inputAccepted();
  });
  setCorrectionMode(QAbstractSpinBox::CorrectToPreviousValue);
  // A typed number takes effect when editing ends (Return, Tab, a click elsewhere), not keystroke by
  // keystroke: typing 2000 into a box of 1 … 1024 does not apply 2, 20 and 200 on its way to a
  // refusal, and the value kept is the one the box had before the edit.
  setKeyboardTracking(false);
  // The wheel turns a box only once the user gave it focus (a click, Tab): scrolling a panel with
  // the pointer passing over a box scrolls the panel (wheelEvent).
  setFocusPolicy(Qt::StrongFocus);
}

void CheckedSpinBox::wheelEvent(QWheelEvent* event) {
  if (!hasFocus()) {
    event->ignore();  // to the scroll area around the box
    return;
  }
  QSpinBox::wheelEvent(event);
}

bool CheckedSpinBox::isSpecialText(const QString& text) const {
  const QString special = specialValueText();
  return !special.isEmpty() && body(text).compare(special.trimmed(), Qt::CaseInsensitive) == 0;
}

QString CheckedSpinBox::quantity() const {
  if (!quantity_.isEmpty()) return quantity_;
  // The label of the form row holding this box, or the SpinSlider around it.
  const QWidget* field = this;
  for (int level = 0; level < 3 && field != nullptr; ++level, field = field->parentWidget()) {
    const QWidget* parent = field->parentWidget();
    if (parent == nullptr) break;
    for (const QFormLayout* form : parent->findChildren<QFormLayout*>()) {
      if (const auto* label = qobject_cast<const QLabel*>(form->labelForField(const_cast<QWidget*>(field)))) {
        QString text = label->text();
        text.remove(QLatin1Char('&'));
        if (text.endsWith(QLatin1Char(':'))) text.chop(1);
        return text.trimmed();
      }
    }
  }
  return objectName();
}

void CheckedSpinBox::setByteUnits(bool on) {
  if (byte_units_ == on) return;
  byte_units_ = on;
  if (on) setSuffix(QString());
  // setSuffix writes the shown text again (from textFromValue, now in the new form).
  setSuffix(on ? QString() : suffix());
}

int CheckedSpinBox::valueFromText(const QString& text) const {
  if (isSpecialText(text)) return minimum();  // "default" typed back, in any case
  if (!byte_units_) return QSpinBox::valueFromText(text);
  const ByteAmount a = readByteAmount(body(text), locale());
  if (a.kind != ByteAmount::Kind::kBytes) return value();
  return static_cast<int>(std::clamp<qint64>(a.bytes, minimum(), maximum()));
}

QString CheckedSpinBox::textFromValue(int v) const {
  if (!byte_units_) return QSpinBox::textFromValue(v);
  return QSpinBox::textFromValue(v) + tr(" B");
}

QString CheckedSpinBox::rangeText() const {
  const QString unit = byte_units_ ? tr(" B") : suffix();
  if (!specialValueText().isEmpty()) {
    return tr("'%1' or %2 … %3%4").arg(specialValueText()).arg(minimum() + 1).arg(maximum()).arg(unit);
  }
  return tr("%1 … %2%3").arg(minimum()).arg(maximum()).arg(unit);
}

QString CheckedSpinBox::body(const QString& text) const {
  QString b = text;
  if (!prefix().isEmpty() && b.startsWith(prefix())) b.remove(0, prefix().size());
  if (!suffix().isEmpty() && b.endsWith(suffix())) b.chop(suffix().size());
  return b.trimmed();
}

QString CheckedSpinBox::refusal(const QString& typed) const {
  if (isSpecialText(typed)) return {};
  const QString text = body(typed);
  const QString kept = value() == minimum() && !specialValueText().isEmpty()
                           ? specialValueText()
                           : prefix() + textFromValue(value()) + suffix();
  const QString tail = tr("; allowed %1. Kept %2.").arg(rangeText(), kept);
  if (byte_units_) return byteRefusal(text, tail);
  QString copy = typed;
  int pos = 0;
  if (QSpinBox::validate(copy, pos) == QValidator::Acceptable) return {};  // QSpinBox's own reading decides
  if (text.isEmpty()) return tr("%1: no value%2").arg(quantity(), tail);
  bool ok = false;
  const qlonglong n = locale().toLongLong(text, &ok);
  if (!ok) {
    static const QRegularExpression digits(QStringLiteral("^[+-]?[0-9]+$"));
    if (digits.match(text).hasMatch())
      return tr("%1: %2 is out of range%3").arg(quantity(), text, tail);  // beyond 64 bits
    return tr("%1: '%2' is not a whole number%3").arg(quantity(), text, tail);
  }
  if (n < minimum() || n > maximum()) return tr("%1: %2 is out of range%3").arg(quantity(), text, tail);
  // In range as a number, yet not how this box writes one (e.g. "-0" where no sign is allowed).
  return tr("%1: '%2' is not written as this box takes numbers%3").arg(quantity(), text, tail);
}

QString CheckedSpinBox::byteRefusal(const QString& text, const QString& tail) const {
  // `text` is quoted as typed; a size with a unit is followed by its bytes.
  const ByteAmount a = readByteAmount(text, locale());
  switch (a.kind) {
    case ByteAmount::Kind::kEmpty:
      return tr("%1: no value%2").arg(quantity(), tail);
    case ByteAmount::Kind::kNotASize:
      return tr("%1: '%2' is not a size: write bytes (49152) or a number with B, KB, KiB, MB or MiB (48 KB; 1 KB = "
                "1024 B)%3")
          .arg(quantity(), text, tail);
    case ByteAmount::Kind::kNotWholeBytes:
      return tr("%1: '%2' is %3 B, not a whole number of bytes%4").arg(quantity(), text, a.exact, tail);
    case ByteAmount::Kind::kBytes:
      break;
  }
  if (a.bytes >= minimum() && a.bytes <= maximum()) return {};
  if (a.scaled && a.bytes != std::numeric_limits<qint64>::max() && a.bytes != -std::numeric_limits<qint64>::max()) {
    return tr("%1: %2 (%3 B) is out of range%4").arg(quantity(), text).arg(a.bytes).arg(tail);
  }
  return tr("%1: %2 is out of range%3").arg(quantity(), text, tail);
}

bool CheckedSpinBox::damagesTheUnit(const QString& text) const {
  // QSpinBox's line-edit validator appends the suffix whenever the text no longer ends with it, so
  // erasing into " SMs" gives "132 SM SMs" and typing after it "132 SMs4 SMs". Plain QSpinBox
  // refuses those edits; so do we (the unit is not the user's input; the special value text is, below).
  const QString b = body(text);
  const QString unit = suffix().trimmed();
  if (!unit.isEmpty()) {
    if (b.contains(unit)) return true;
    for (int n = 1; n < unit.size(); ++n) {
      if (b.endsWith(unit.left(n))) return true;
    }
  }
  return false;
}

QValidator::State CheckedSpinBox::validate(QString& text, int& pos) const {
  // Nothing typed is dropped: text QSpinBox would refuse (out of range, not a number) stays in the
  // line edit as "not a value yet", so the user sees what was typed next to the message that names
  // it; when editing ends the box puts back its last value (CorrectToPreviousValue). Edits that
  // break the unit are refused as QSpinBox refuses them.
  if (byte_units_) {
    // Any text may be on the way to a size ("48 K" before "48 KB"); in range it is a value.
    const ByteAmount a = readByteAmount(body(text), locale());
    const bool value = a.kind == ByteAmount::Kind::kBytes && a.bytes >= minimum() && a.bytes <= maximum();
    return value ? QValidator::Acceptable : QValidator::Intermediate;
  }
  // The special value text ("default") is typed back like a number: whole, in any case, it is the
  // box's minimum; on the way there ("def") it is not a value yet.
  // QSpinBox glues the suffix to any text but the special text itself ("default %"): the text is
  // written back without it.
  if (isSpecialText(text)) {
    text = specialValueText();
    pos = std::min(pos, static_cast<int>(text.size()));
    return QValidator::Acceptable;
  }
  const QString special = specialValueText().trimmed();
  if (const QString b = body(text); !special.isEmpty() && !b.isEmpty() && special.startsWith(b, Qt::CaseInsensitive)) {
    text = prefix() + b;
    pos = std::min(pos, static_cast<int>(text.size()));
    return QValidator::Intermediate;
  }
  const QValidator::State state = QSpinBox::validate(text, pos);
  if (state != QValidator::Invalid || damagesTheUnit(text)) return state;
  return QValidator::Intermediate;
}

void CheckedSpinBox::onTextEdited(const QString& text) {
  // The value this edit started from: setValue with signals blocked (a device change) does not
  // pass through valueChanged, and Return re-announces it.
  last_value_ = value();
  // On the way to the special text ("d", "def" before "default"): not a refusal yet, no message that
  // moves the boxes below while the word is typed.
  const QString special = specialValueText().trimmed();
  if (const QString b = body(text); !special.isEmpty() && !b.isEmpty() && special.startsWith(b, Qt::CaseInsensitive)) {
    emit inputAccepted();
    return;
  }
  const QString why = refusal(text);
  if (why.isEmpty())
    emit inputAccepted();
  else
    emit inputRefused(why);
}

InputMessage::InputMessage(QWidget* parent) : QLabel(parent) {
  setObjectName(QStringLiteral("inputMessage"));
  setWordWrap(true);
  setTextFormat(Qt::PlainText);
  setStyleSheet(QStringLiteral(
      "QLabel { color: #8b0000; background: #fdecea; border: 1px solid #e0a0a0; border-radius: 3px; padding: 4px; }"));
  setVisible(false);
}

void InputMessage::watchAll(const QWidget* root) {
  for (CheckedSpinBox* box : root->findChildren<CheckedSpinBox*>()) watch(box);
}

void InputMessage::watch(CheckedSpinBox* box) {
  connect(box, &CheckedSpinBox::inputRefused, this, [this, box](const QString& message) {
    source_ = box;
    setText(message);
    placeUnder(box);
    setVisible(true);
    for (QWidget* w = parentWidget(); w != nullptr; w = w->parentWidget()) {
      if (auto* scroll = qobject_cast<QScrollArea*>(w)) {
        scroll->ensureWidgetVisible(this);
        break;
      }
    }
  });
  connect(box, &CheckedSpinBox::inputAccepted, this, [this, box] {
    if (source_ == nullptr) return;
    // The named box's own accepted edit or new value ends its message. Another box's does once the
    // named box shows a value again (its editing ended): the user has moved on, and the message
    // would name a refusal that no longer stands next to anything.
    if (source_ == box)
      dismiss();
    else
      clearIfSettled();
  });
}

bool InputMessage::clearIfSettled() {
  if (source_ == nullptr) {
    if (!isHidden()) dismiss();  // the box it named is gone
    return true;
  }
  if (!source_->refusal(source_->text()).isEmpty()) return false;  // still shows what it refused
  dismiss();
  return true;
}

void InputMessage::dismiss() {
  source_ = nullptr;
  clear();
  setVisible(false);
  goHome();
}

namespace {

/// The layout of `parent` (its own or one nested in it) that holds `item`: a widget or a layout.
QLayout* layoutHolding(const QWidget* parent, const QObject* item) {
  if (parent == nullptr) return nullptr;
  QList<QLayout*> layouts = parent->findChildren<QLayout*>();
  if (parent->layout() != nullptr) layouts.prepend(parent->layout());
  for (QLayout* l : layouts) {
    if (l->parentWidget() != parent) continue;  // a layout of a widget further down
    for (int i = 0; i < l->count(); ++i) {
      QLayoutItem* it = l->itemAt(i);
      if (it != nullptr && (it->widget() == item || it->layout() == item)) return l;
    }
  }
  return nullptr;
}

/// Whether `l` stacks its items top to bottom: a form or a column (not a row or a grid).
bool stacksRows(const QLayout* l) {
  if (qobject_cast<const QFormLayout*>(l) != nullptr) return true;
  const auto* box = qobject_cast<const QBoxLayout*>(l);
  return box != nullptr && box->direction() == QBoxLayout::TopToBottom;
}

/// The index of the row under `item` in `l` (stacksRows), or -1.
int rowUnder(QLayout* l, QObject* item) {
  if (auto* form = qobject_cast<QFormLayout*>(l)) {
    int row = -1;
    QFormLayout::ItemRole role{};
    if (auto* w = qobject_cast<QWidget*>(item))
      form->getWidgetPosition(w, &row, &role);
    else if (auto* inner = qobject_cast<QLayout*>(item))
      form->getLayoutPosition(inner, &row, &role);
    return row < 0 ? -1 : row + 1;
  }
  for (int i = 0; i < l->count(); ++i) {
    QLayoutItem* it = l->itemAt(i);
    if (it->widget() == item || it->layout() == item) return i + 1;
  }
  return -1;
}

}  // namespace

void InputMessage::leavePlace() {
  if (placed_ == nullptr) return;
  if (auto* form = qobject_cast<QFormLayout*>(placed_.data())) {
    int row = -1;
    QFormLayout::ItemRole role{};
    form->getWidgetPosition(this, &row, &role);
    if (row >= 0) {
      const QFormLayout::TakeRowResult taken = form->takeRow(row);
      delete taken.labelItem;  // the layout items, not the widgets
      delete taken.fieldItem;
    }
  } else {
    placed_->removeWidget(this);
  }
  placed_ = nullptr;
}

void InputMessage::goHome() {
  if (placed_ == nullptr) return;  // at home already (or never moved)
  leavePlace();
  if (auto* column = qobject_cast<QBoxLayout*>(home_.data()))
    column->insertWidget(std::min(home_index_, static_cast<int>(column->count())), this);
  setVisible(false);
}

void InputMessage::placeUnder(CheckedSpinBox* box) {
  if (home_ == nullptr && placed_ == nullptr) {  // the first move: remember the message's own place
    home_ = layoutHolding(parentWidget(), this);
    if (home_ != nullptr) home_index_ = home_->indexOf(this);
  }
  // The box, or the widget or row layout around it (a SpinSlider, a box with a button beside it),
  // up to the row of a form or the place in a column that holds it.
  QObject* item = box;
  QLayout* holder = nullptr;
  for (int level = 0; level < 5 && item != nullptr && holder == nullptr; ++level) {
    QWidget* parent = item->isWidgetType() ? static_cast<QWidget*>(item)->parentWidget()
                                           : static_cast<QLayout*>(item)->parentWidget();
    QLayout* l = layoutHolding(parent, item);
    if (l == nullptr) {
      item = parent;
    } else if (stacksRows(l) && l != home_) {
      holder = l;
    } else {
      // A row layout or a grid: up to the layout around it, else the widget around it.
      item = qobject_cast<QLayout*>(l->parent()) != nullptr ? static_cast<QObject*>(l) : parent;
    }
  }
  if (holder == nullptr) {  // nowhere under the box: the message's own place
    goHome();
    return;
  }
  leavePlace();
  if (home_ != nullptr) home_->removeWidget(this);
  const int row = rowUnder(holder, item);
  if (auto* form = qobject_cast<QFormLayout*>(holder))
    form->insertRow(row, this);
  else
    static_cast<QBoxLayout*>(holder)->insertWidget(row, this);
  placed_ = holder;
}

}  // namespace occx::ui
