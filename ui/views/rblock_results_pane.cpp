#include "ui/views/rblock_results_pane.h"

#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QVBoxLayout>

#include "ui/models/table_model.h"
#include "ui/models/text.h"
#include "ui/plots/rblock_bounds_plot.h"

namespace occx::ui {

namespace {

QTableWidget* makeRblockTable(const QStringList& headers, int stretch_column, QWidget* parent) {
  auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionBehavior(QAbstractItemView::SelectRows);
  t->setWordWrap(false);
  t->setTextElideMode(Qt::ElideRight);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->horizontalHeader()->setSectionResizeMode(stretch_column, QHeaderView::Stretch);
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
  return t;
}

void setRblockRow(QTableWidget* t, int row, const RblockRow& r) {
  if (t->rowCount() <= row) t->setRowCount(row + 1);
  for (int c = 0; c < r.cells.size(); ++c) {
    auto* item = t->item(row, c);
    if (!item) {
      item = new QTableWidgetItem;
      t->setItem(row, c, item);
    }
    item->setText(r.cells[c]);
    item->setToolTip(r.cells[c]);
    item->setBackground(r.background.isValid() ? QBrush(r.background) : QBrush());
  }
}

// Shows `rows` in `t`; with `fixed_rows` the table keeps that many rows (the decision table's four).
void showRblockRows(QTableWidget* t, const std::vector<RblockRow>& rows, bool fixed_rows = false) {
  if (!fixed_rows) t->setRowCount(static_cast<int>(rows.size()));
  for (std::size_t i = 0; i < rows.size(); ++i) setRblockRow(t, static_cast<int>(i), rows[i]);
}

}  // namespace

RblockResultsPane::RblockResultsPane(QWidget* parent) : QSplitter(Qt::Vertical, parent) {
  setObjectName(QStringLiteral("rblockResultsSplit"));
  setChildrenCollapsible(false);  // dragging the handle stops at the plot's and the pages' minimum
  plot_ = new RblockBoundsPlot(this);
  plot_->widget()->setMinimumHeight(320);
  addWidget(plot_->widget());
  addWidget(buildLower());
  setStretchFactor(0, 1);
  setStretchFactor(1, 1);
  setSizes({365, 280});
}

QWidget* RblockResultsPane::buildLower() {
  // Under the plot, one page at a time: the decision per policy (first), the candidate pipeline,
  // the arithmetic and the halving chain. On a 1280 × 720 screen the decision table over the pages
  // left the pipeline's table one row.
  auto* tabs = new QTabWidget(this);
  tabs->setObjectName(QStringLiteral("rblockTabs"));
  tabs->setMinimumHeight(200);
  auto* decision = new QWidget(tabs);
  auto* dv = new QVBoxLayout(decision);
  dv->setContentsMargins(4, 4, 4, 4);
  auto* decision_title =
      new QLabel(tr("<b>Decision per policy</b> (steps as in Inductor: gates, n_regs and R-block checks, the "
                    "register threshold, total blocks, the bound, capacity, halving)"),
                 decision);
  decision_title->setWordWrap(true);
  dv->addWidget(decision_title);
  decision_table_ = makeRblockTable({tr("Policy"), tr("Bound (blocks/SM)"), tr("Capacity (blocks)"), tr("Total blocks"),
                                     tr("Decision"), tr("New RBLOCK"), tr("Reason")},
                                    6, decision);
  decision_table_->setObjectName(QStringLiteral("decisionTable"));
  setHeaderToolTips(
      decision_table_->model(),
      {tr("What the decision goes by: the old bound (threads per SM), the new bound (registers), review_min (the "
          "smaller of both, from the new bound's review), the exact occupancy calculator"),
       tr("Upper bound on the blocks resident on one SM, as the policy computes it"),
       tr("Bound × the GPU's SMs: blocks resident at once on the whole GPU"),
       tr("Blocks the launch needs: ceil(xnumel / XBLOCK)"),
       tr("scale (halve R0_BLOCK: total blocks exceed the capacity), no scaling, or not applicable (a gate "
          "or a check stops the pass first)"),
       tr("R0_BLOCK (RBLOCK in older Inductor) after the decision"),
       tr("The step that decided, in words (one line here: the whole reason is in the cell's tooltip and on "
          "the Arithmetic page)")});
  decision_table_->setRowCount(4);
  // One line per policy, the reason elided at the table's right edge: wrapped, a reason took five
  // lines and a 1280 × 720 screen showed one row and a half. The whole reason is in the cell's
  // tooltip and in the Arithmetic page; the four rows fit.
  decision_table_->setMinimumHeight(decision_table_->horizontalHeader()->sizeHint().height() +
                                    4 * decision_table_->verticalHeader()->defaultSectionSize() +
                                    2 * decision_table_->frameWidth() + 2);
  dv->addWidget(decision_table_, 1);
  tabs->addTab(decision, tr("Decision per policy"));
  tabs->addTab(buildPipelinePage(tabs), tr("Candidate pipeline"));
  arithmetic_ = new QTextBrowser(tabs);
  arithmetic_->setObjectName(QStringLiteral("arithmetic"));
  tabs->addTab(arithmetic_, tr("Arithmetic"));
  tabs->addTab(buildChainPage(tabs), tr("Keep halving (teaching aid)"));
  return tabs;
}

QWidget* RblockResultsPane::buildPipelinePage(QWidget* tabs) {
  auto* pipe = new QWidget(tabs);
  auto* pv = new QVBoxLayout(pipe);
  pv->setContentsMargins(4, 4, 4, 4);
  pipeline_note_ = new QLabel(pipe);
  pipeline_note_->setWordWrap(true);
  loop_note_ = new QLabel(pipe);
  loop_note_->setObjectName(QStringLiteral("loopNote"));
  loop_note_->setWordWrap(true);
  loop_note_->setStyleSheet(QStringLiteral("color: #444;"));
  pipeline_table_ = makeRblockTable({tr("#"), tr("Stage"), tr("Origin"), tr("Config"), tr("n_regs"), tr("n_spills"),
                                     tr("Decision"), tr("Autotuning"), tr("Reason")},
                                    8, pipe);
  pipeline_table_->setObjectName(QStringLiteral("pipelineTable"));
  setHeaderToolTips(
      pipeline_table_->model(),
      {tr("The config's place in the candidate list"),
       tr("Where in Inductor's pipeline the config appears: its heuristics' list, the scaling "
          "pass, the autotuner"),
       tr("candidate (Inductor's list for the size hints) or added by scaling (a halved copy)"),
       tr("XBLOCK, R0_BLOCK, num_warps (X1 R512 w8 = XBLOCK 1, R0_BLOCK 512, 8 warps)"),
       tr("Registers per thread (compiled, or the value given)"),
       tr("Triton's n_spills: spilled registers (local memory per thread / 4)"),
       tr("The policy's RBLOCK-scaling decision for this config"),
       tr("Whether the autotuner times the config: configs with n_spills over 16 are skipped"), tr("Why, in words")});
  // Room for five stages at least; on a short screen the page scrolls rather than cutting the notes.
  pipeline_table_->setMinimumHeight(pipeline_table_->horizontalHeader()->sizeHint().height() +
                                    5 * pipeline_table_->verticalHeader()->defaultSectionSize() +
                                    2 * pipeline_table_->frameWidth());
  pv->addWidget(pipeline_note_);
  pv->addWidget(loop_note_);
  pv->addWidget(pipeline_table_, 1);
  auto* pipe_scroll = new QScrollArea(tabs);
  pipe_scroll->setObjectName(QStringLiteral("pipelinePage"));
  pipe_scroll->setWidget(pipe);
  pipe_scroll->setWidgetResizable(true);
  pipe_scroll->setFrameShape(QFrame::NoFrame);
  pipe_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  return pipe_scroll;
}

QWidget* RblockResultsPane::buildChainPage(QWidget* tabs) {
  auto* chain = new QWidget(tabs);
  auto* chv = new QVBoxLayout(chain);
  auto* chain_label = new QLabel(q(inductor::kKeepHalvingLabel), chain);
  chain_label->setObjectName(QStringLiteral("chainLabel"));
  chain_label->setWordWrap(true);
  chain_label->setStyleSheet(QStringLiteral("color: #8a4b00; font-weight: bold;"));
  chain_table_ =
      makeRblockTable({tr("Link"), tr("Config"), tr("n_regs"), tr("Bound"), tr("Decision"), tr("Reason")}, 5, chain);
  chain_table_->setObjectName(QStringLiteral("chainTable"));
  setHeaderToolTips(chain_table_->model(),
                    {tr("Step of the chain: each link halves R0_BLOCK of the one before"),
                     tr("XBLOCK, R0_BLOCK, num_warps of the link"), tr("Registers per thread assumed for the link"),
                     tr("The policy's bound on resident blocks per SM"), tr("scale, no scaling or not applicable"),
                     tr("Why, in words")});
  chv->addWidget(chain_label);
  chv->addWidget(chain_table_, 1);
  return chain;
}

void RblockResultsPane::showResult(const RblockResult& result) {
  const inductor::Profile profile =
      result.decisions.empty() ? inductor::Profile::kInductorCurrent : result.decisions.front().profile;
  showRblockRows(decision_table_, rblockDecisionRows(result.decisions), /*fixed_rows=*/true);
  arithmetic_html_ = rblockArithmeticHtml(result);
  arithmetic_->setHtml(arithmetic_html_);
  const int sm_count = result.device ? result.device->sm_count : 0;
  plot_->setTitle(rblockPlotTitle(result));
  plot_->setData(result.curves, sm_count, result.config.n_regs ? *result.config.n_regs : 0, rblockCurrentBound(result));
  plot_->setExportSubtitle(rblockExportSubtitle(result));
  pipeline_note_->setText(result.pipeline_note);
  loop_note_->setText(result.loop_note);
  showRblockRows(pipeline_table_, rblockPipelineRows(result.pipeline, profile));
  showRblockRows(chain_table_, rblockChainRows(result.chain, profile));
}

void RblockResultsPane::clear(const QString& message, int sm_count) {
  decision_table_->clearContents();
  pipeline_table_->setRowCount(0);
  chain_table_->setRowCount(0);
  arithmetic_->setPlainText(message);
  plot_->setData({}, sm_count, 0, 0);
}

}  // namespace occx::ui
