// The RBLOCK-scaling view's results: the bounds plotted against registers per thread over the
// decision table (one row per policy), and tabs of the candidate pipeline (with its notes), the
// arithmetic and the keep-halving chain (a teaching aid, labelled as such). Shows an RblockResult
// through rblock_scaling_content's rows and texts.
#pragma once

#include <QSplitter>

#include "ui/models/rblock_scaling_content.h"

class QLabel;
class QTableWidget;
class QTextBrowser;

namespace occx::ui {

class RblockBoundsPlot;

class RblockResultsPane : public QSplitter {
  Q_OBJECT

 public:
  explicit RblockResultsPane(QWidget* parent = nullptr);

  /// Shows a decided `result` (no error): the plot, the tables, the notes and the arithmetic.
  void showResult(const RblockResult& result);
  /// Empties the tables and the plot (its axes for `sm_count` SMs) and says `message` in place of
  /// the arithmetic. The pipeline's notes keep what they said.
  void clear(const QString& message, int sm_count);
  /// The arithmetic of the last decision shown, HTML (clear() leaves it).
  [[nodiscard]] QString arithmeticHtml() const { return arithmetic_html_; }

  [[nodiscard]] RblockBoundsPlot* boundsPlot() const { return plot_; }
  [[nodiscard]] QTableWidget* decisionTable() const { return decision_table_; }
  [[nodiscard]] QTableWidget* pipelineTable() const { return pipeline_table_; }
  [[nodiscard]] QTableWidget* chainTable() const { return chain_table_; }
  [[nodiscard]] QLabel* loopNoteLabel() const { return loop_note_; }
  [[nodiscard]] QTextBrowser* arithmeticBrowser() const { return arithmetic_; }

 private:
  QWidget* buildLower();
  QWidget* buildPipelinePage(QWidget* tabs);
  QWidget* buildChainPage(QWidget* tabs);

  RblockBoundsPlot* plot_ = nullptr;
  QTableWidget* decision_table_ = nullptr;
  QTableWidget* pipeline_table_ = nullptr;
  QLabel* pipeline_note_ = nullptr;
  QLabel* loop_note_ = nullptr;
  QTableWidget* chain_table_ = nullptr;
  QTextBrowser* arithmetic_ = nullptr;
  QString arithmetic_html_;  ///< what the browser shows, for the report
};

}  // namespace occx::ui
