#include "ui/widgets/checked_spin_box.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpression>

namespace occx::ui {

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

QString CheckedSpinBox::rangeText() const {
  const QString unit = suffix();
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
  if (!specialValueText().isEmpty() && typed == specialValueText()) return {};
  QString copy = typed;
  int pos = 0;
  if (QSpinBox::validate(copy, pos) == QValidator::Acceptable) return {};  // QSpinBox's own reading decides
  const QString text = body(typed);
  const QString kept = value() == minimum() && !specialValueText().isEmpty() ? specialValueText()
                                                                              : prefix() + textFromValue(value()) + suffix();
  const QString tail = tr("; allowed %1. Kept %2.").arg(rangeText(), kept);
  if (text.isEmpty()) return tr("%1: no value%2").arg(quantity(), tail);
  bool ok = false;
  const qlonglong n = locale().toLongLong(text, &ok);
  if (!ok) {
    static const QRegularExpression digits(QStringLiteral("^[+-]?[0-9]+$"));
    if (digits.match(text).hasMatch()) return tr("%1: %2 is out of range%3").arg(quantity(), text, tail);  // beyond 64 bits
    return tr("%1: '%2' is not a whole number%3").arg(quantity(), text, tail);
  }
  if (n < minimum() || n > maximum()) return tr("%1: %2 is out of range%3").arg(quantity(), text, tail);
  // In range as a number, yet not how this box writes one (e.g. "-0" where no sign is allowed).
  return tr("%1: '%2' is not written as this box takes numbers%3").arg(quantity(), text, tail);
}

bool CheckedSpinBox::damagesTheUnit(const QString& text) const {
  // QSpinBox's line-edit validator appends the suffix whenever the text no longer ends with it, so
  // erasing into " SMs" gives "132 SM SMs" and typing after it "132 SMs4 SMs". Plain QSpinBox
  // refuses those edits; so do we (the unit and the special value text are not the user's input).
  const QString b = body(text);
  const QString unit = suffix().trimmed();
  if (!unit.isEmpty()) {
    if (b.contains(unit)) return true;
    for (int n = 1; n < unit.size(); ++n) {
      if (b.endsWith(unit.left(n))) return true;
    }
  }
  const QString special = specialValueText();
  return !special.isEmpty() && !b.isEmpty() && special.startsWith(b) && b != special;
}

QValidator::State CheckedSpinBox::validate(QString& text, int& pos) const {
  // Nothing typed is dropped: text QSpinBox would refuse (out of range, not a number) stays in the
  // line edit as "not a value yet", so the user sees what was typed next to the message that names
  // it; when editing ends the box puts back its last value (CorrectToPreviousValue). Edits that
  // break the unit or the special value text are refused as QSpinBox refuses them.
  const QValidator::State state = QSpinBox::validate(text, pos);
  if (state != QValidator::Invalid || damagesTheUnit(text)) return state;
  return QValidator::Intermediate;
}

void CheckedSpinBox::onTextEdited(const QString& text) {
  // The value this edit started from: setValue with signals blocked (a device change) does not
  // pass through valueChanged, and Return re-announces it.
  last_value_ = value();
  const QString why = refusal(text);
  if (why.isEmpty()) emit inputAccepted();
  else emit inputRefused(why);
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
    setVisible(true);
  });
  connect(box, &CheckedSpinBox::inputAccepted, this, [this, box] {
    if (source_ != box) return;  // another box's message stays until that box is edited
    source_ = nullptr;
    clear();
    setVisible(false);
  });
}

}  // namespace occx::ui
