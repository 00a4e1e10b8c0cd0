#include "ui/views/regret_box.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/models/live_sweep_content.h"
#include "ui/models/table_model.h"

namespace occx::ui {

namespace {

constexpr int kRegretRows = 4;
constexpr int kRegretColumns = 6;

QTableWidgetItem* regretCell(const QString& text, Qt::Alignment align = Qt::AlignRight | Qt::AlignVCenter) {
  auto* item = new QTableWidgetItem(text);
  item->setTextAlignment(align);
  return item;
}

}  // namespace

RegretBox::RegretBox(QWidget* parent) : QGroupBox(tr("Autotuner replay: each policy's pick and regret"), parent) {
  auto* gv = new QVBoxLayout(this);
  table_ = new QTableWidget(kRegretRows, kRegretColumns, this);
  table_->setObjectName(QStringLiteral("regretTable"));
  table_->setHorizontalHeaderLabels(
      {tr("Policy"), tr("Timed"), tr("Pick"), tr("Cold (µs)"), tr("DRAM GB/s"), tr("Regret")});
  setHeaderToolTips(
      table_->model(),
      {tr("The RBLOCK policy (old, new, review_min, exact bound; spills rule) whose candidate set was replayed; "
          "best: the fastest config of the whole sweep"),
       tr("Candidates timed of those in the policy's set (spilling ones are skipped)"),
       tr("The fastest timed config of the set (X1 R512 w8 = XBLOCK 1, RBLOCK 512, 8 warps)"),
       tr("The pick's device time per launch, L2 cold, µs"), tr("The pick's achieved DRAM bandwidth, 10^9 B/s"),
       tr("Pick time / best time: 1.00 means the autotuner found the fastest config")});
  table_->verticalHeader()->setVisible(false);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setSelectionMode(QAbstractItemView::NoSelection);
  table_->setFocusPolicy(Qt::NoFocus);
  table_->setWordWrap(false);
  table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  table_->horizontalHeader()->setSectionResizeMode(2, QHeaderView::Stretch);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  table_->setFixedHeight(table_->horizontalHeader()->sizeHint().height() +
                         kRegretRows * table_->verticalHeader()->defaultSectionSize() + 2 * table_->frameWidth());
  gv->addWidget(table_);
  auto* note = new QLabel(tr("A policy's set: Inductor's own configs plus the RBLOCK-halved configs its bound adds; "
                             "configs with n_spills > 16 are never timed. Regret = pick time / best time."),
                          this);
  note->setWordWrap(true);
  note->setStyleSheet(QStringLiteral("color: #555;"));
  gv->addWidget(note);
}

void RegretBox::showLines(const std::vector<RegretLine>& lines) {
  for (int r = 0; r < kRegretRows; ++r) {
    for (int c = 0; c < kRegretColumns; ++c) table_->setItem(r, c, regretCell(QString()));
  }
  const auto left = Qt::AlignLeft | Qt::AlignVCenter;
  for (int r = 0; r < kRegretRows && r < static_cast<int>(lines.size()); ++r) {
    const RegretLine& line = lines[static_cast<std::size_t>(r)];
    auto* name = regretCell(line.title, left);
    name->setForeground(line.color);
    QFont f = name->font();
    f.setBold(true);
    name->setFont(f);
    table_->setItem(r, 0, name);
    table_->setItem(r, 1, regretCell(line.timed));
    table_->setItem(r, 2, regretCell(line.pick, left));
    if (!line.pick_tooltip.isEmpty()) table_->item(r, 2)->setToolTip(line.pick_tooltip);
    table_->setItem(r, 3, regretCell(line.time_us));
    table_->setItem(r, 4, regretCell(line.bandwidth_GBps));
    auto* regret = regretCell(line.regret);
    if (line.high_regret) regret->setForeground(QColor(139, 0, 0));
    table_->setItem(r, 5, regret);
  }
  table_->horizontalHeaderItem(2)->setText(tr("Pick (XBLOCK × RBLOCK, warps)"));
}

}  // namespace occx::ui
