#include "ui/views/inductor_measured_pane.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/models/inductor_plot_data.h"
#include "ui/models/inductor_run_models.h"
#include "ui/models/table_model.h"
#include "ui/models/text.h"
#include "ui/plots/measured_times_plot.h"

namespace occx::ui {

InductorMeasuredPane::InductorMeasuredPane(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("inductorMeasured"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  note_ = new QLabel;
  note_->setObjectName(QStringLiteral("measuredNote"));
  note_->setWordWrap(true);
  auto* split = new QSplitter(Qt::Horizontal);
  split->setObjectName(QStringLiteral("measuredSplit"));
  split->setChildrenCollapsible(false);
  plot_ = new MeasuredTimesPlot(this);
  plot_->setLegendPlace(PlotController::LegendPlace::kBeside);  // the page is wide and short
  plot_->widget()->setMinimumHeight(180);
  plot_->widget()->setMinimumWidth(300);
  picks_ = new QTableWidget(0, 5);
  picks_->setObjectName(QStringLiteral("picksTable"));
  // Two-line headers where a word or a unit would widen a column past its cells: at 1280 × 720 the
  // five columns fit the table, "Not compiled" whole.
  picks_->setHorizontalHeaderLabels({tr("Policy"), tr("Pick"), tr("Cold\n(µs)"), tr("Regret"), tr("Not\ncompiled")});
  setHeaderToolTips(picks_->model(),
                    {tr("The RBLOCK policy (old, new, review_min, exact bound; spills rule), and best: the fastest "
                        "measured config"),
                     tr("The fastest measured config of the policy's candidate set (configs with n_spills over 16 "
                        "left out); X1 R512 w8 = XBLOCK 1, R0_BLOCK 512, 8 warps"),
                     tr("The pick's device time per launch, L2 cold, µs"),
                     tr("The pick's time / the fastest config's time (1.00 = the best)"),
                     tr("Halved configs the policy would add that are not in the cache: never measured")});
  picks_->verticalHeader()->setVisible(false);
  picks_->verticalHeader()->setDefaultSectionSize(picks_->fontMetrics().height() + 6);
  picks_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  picks_->setSelectionMode(QAbstractItemView::NoSelection);
  picks_->setWordWrap(false);
  // The configs not compiled fill what the other columns leave, elided (the whole list in the
  // cell's tooltip): sized to their cells, they pushed the column out of view.
  picks_->horizontalHeader()->setSectionResizeMode(4, QHeaderView::Stretch);
  picks_->setMinimumWidth(220);
  split->addWidget(plot_->widget());
  split->addWidget(picks_);
  split->setStretchFactor(0, 2);
  split->setStretchFactor(1, 1);
  split->setSizes({620, 300});  // the picks' table grows to its minimum (showKernel): its columns in view
  v->addWidget(note_);
  v->addWidget(split, 1);
}

void InductorMeasuredPane::showKernel(const InductorRunData& run, const RunKernelEntry* kernel,
                                      const std::vector<triton::ScanRow>& configs, const QString& unavailable) {
  picks_->setRowCount(0);
  if (kernel == nullptr) {
    plot_->setConfigs({}, {}, QString());
    note_->setText(QString());
    return;
  }
  plot_->setConfigs(configs, measuredOfRows(run, configs), q(kernel->kernel));
  note_->setText(measuredNoteText(run, *kernel, unavailable));
  const std::vector<PickTableRow> rows = picksTableRows(run, *kernel);
  if (rows.empty()) return;
  auto item = [](const QString& text, bool right = false) {
    auto* it = new QTableWidgetItem(text);
    if (right) it->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return it;
  };
  picks_->setRowCount(static_cast<int>(rows.size()));
  for (int r = 0; r < static_cast<int>(rows.size()); ++r) {
    const PickTableRow& p = rows[static_cast<std::size_t>(r)];
    picks_->setItem(r, 0, item(p.policy));
    QTableWidgetItem* pick = item(p.pick);
    pick->setToolTip(p.pick_tooltip);
    picks_->setItem(r, 1, pick);
    picks_->setItem(r, 2, item(p.cold_us, true));
    picks_->setItem(r, 3, item(p.regret, true));
    QTableWidgetItem* not_compiled = item(p.not_compiled);
    not_compiled->setToolTip(p.not_compiled);
    picks_->setItem(r, 4, not_compiled);
  }
  picks_->resizeColumnsToContents();
  // Room for every column, the last one's header whole; the plot keeps the rest (at 1280 × 720 a
  // wider share for the table left the plot's data area under 300 px).
  const QHeaderView* header = picks_->horizontalHeader();
  int need = 2 * picks_->frameWidth() + header->sectionSizeHint(4);
  for (int c = 0; c < 4; ++c) need += header->sectionSize(c);
  picks_->setMinimumWidth(std::max(220, need));
}

}  // namespace occx::ui
