// The live-sweep view's autotuner replay: a box with one line per policy (its candidates timed, its
// pick, the pick's time and bandwidth, the regret) and the best of all, and a note on what a
// policy's set is. The lines come from live_sweep_content's regretLines.
#pragma once

#include <QGroupBox>
#include <vector>

class QTableWidget;

namespace occx::ui {

struct RegretLine;

class RegretBox : public QGroupBox {
  Q_OBJECT

 public:
  explicit RegretBox(QWidget* parent = nullptr);

  /// Shows `lines` (at most four: old, new, exact, best of all).
  void showLines(const std::vector<RegretLine>& lines);
  /// The table (object name "regretTable").
  [[nodiscard]] QTableWidget* table() const { return table_; }

 private:
  QTableWidget* table_ = nullptr;
};

}  // namespace occx::ui
