// The Inductor run view's Source tab: the chosen kernel's module with numbered lines, the lines
// that set the tile (XBLOCK, R0_BLOCK) highlighted, or why the source is not available.
#pragma once

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace occx::ui {

struct NumberedSource;

class InductorSourcePane : public QWidget {
  Q_OBJECT

 public:
  explicit InductorSourcePane(QWidget* parent = nullptr);

  /// Shows `source` (its text, the tile lines marked, its label); an empty one shows nothing.
  void showSource(const NumberedSource& source);

 private:
  QLabel* label_;
  QPlainTextEdit* text_;
};

}  // namespace occx::ui
