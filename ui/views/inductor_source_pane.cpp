#include "ui/views/inductor_source_pane.h"

#include <QFontDatabase>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QVBoxLayout>

#include "ui/models/inductor_run_text.h"

namespace occx::ui {

InductorSourcePane::InductorSourcePane(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("inductorSource"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  label_ = new QLabel;
  label_->setObjectName(QStringLiteral("sourceLabel"));
  label_->setWordWrap(true);
  text_ = new QPlainTextEdit;
  text_->setObjectName(QStringLiteral("kernelSource"));
  text_->setReadOnly(true);
  text_->setLineWrapMode(QPlainTextEdit::NoWrap);
  text_->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
  v->addWidget(label_);
  v->addWidget(text_, 1);
}

void InductorSourcePane::showSource(const NumberedSource& source) {
  label_->setText(source.label);
  if (source.text.isEmpty()) {
    text_->clear();
    return;
  }
  text_->setPlainText(source.text);
  QList<QTextEdit::ExtraSelection> marks;
  for (int line : source.tile_lines) {
    const QTextBlock block = text_->document()->findBlockByNumber(line);
    if (!block.isValid()) continue;
    QTextEdit::ExtraSelection sel;
    sel.format.setBackground(QColor(255, 243, 191));
    sel.format.setProperty(QTextFormat::FullWidthSelection, true);
    sel.cursor = QTextCursor(block);
    marks << sel;
  }
  text_->setExtraSelections(marks);
}

}  // namespace occx::ui
