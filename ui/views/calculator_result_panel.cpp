#include "ui/views/calculator_result_panel.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include "ui/models/table_model.h"

namespace occx::ui {

namespace {

// Row highlights: a limiter of active blocks (orange), or the resource that stops the launch (red).
const QColor kLimiterColor(255, 224, 178);
const QColor kBlockerColor(248, 200, 200);

// Sizes a table to show every row without a scroll bar: each row as tall as its wrapped text.
void fitTableHeight(QTableWidget* table) {
  // The header's size hint is valid before the table is first shown.
  table->resizeRowsToContents();
  const int header = table->horizontalHeader()->isHidden() ? 0 : table->horizontalHeader()->sizeHint().height();
  int rows = 0;
  for (int r = 0; r < table->rowCount(); ++r) rows += table->rowHeight(r);
  table->setFixedHeight(header + rows + 2 * table->frameWidth());
}

QTableWidget* makeResultTable(const QStringList& headers, QWidget* parent) {
  auto* t = new QTableWidget(0, static_cast<int>(headers.size()), parent);
  t->setHorizontalHeaderLabels(headers);
  t->verticalHeader()->setVisible(false);
  t->setEditTriggers(QAbstractItemView::NoEditTriggers);
  t->setSelectionMode(QAbstractItemView::NoSelection);
  t->setFocusPolicy(Qt::NoFocus);
  t->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  t->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  // The first column takes the room that is left, so every column stays in view; its text wraps
  // ("Best block size (cudaOccupancyMaxPotentialBlockSize)" on two lines, not "Best block siz…")
  // and the table grows to fit whenever the column's width changes.
  t->setWordWrap(true);
  t->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  t->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
  t->horizontalHeader()->setStretchLastSection(false);
  t->verticalHeader()->setSectionResizeMode(QHeaderView::Fixed);
  t->verticalHeader()->setDefaultSectionSize(t->fontMetrics().height() + 6);
  // Queued: the header resizes its sections while the panel is laid out; the rows are measured
  // once the widths stand.
  QObject::connect(
      t->horizontalHeader(), &QHeaderView::sectionResized, t,
      [t](int section) {
        if (section == 0) fitTableHeight(t);
      },
      Qt::QueuedConnection);
  return t;
}

void setResultRow(QTableWidget* t, int row, const CalculatorRow& r) {
  if (t->rowCount() <= row) t->setRowCount(row + 1);
  const bool highlight = r.mark != CalculatorRow::Mark::kNone;
  const QColor& color = r.mark == CalculatorRow::Mark::kBlocker ? kBlockerColor : kLimiterColor;
  for (int c = 0; c < r.cells.size(); ++c) {
    auto* item = t->item(row, c);
    if (item == nullptr) {
      item = new QTableWidgetItem;
      t->setItem(row, c, item);
    }
    item->setText(r.cells[c]);
    QFont f = item->font();
    f.setBold(highlight);
    item->setFont(f);
    item->setBackground(highlight ? QBrush(color) : QBrush());
    item->setTextAlignment(c == 0 ? Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter)
                                  : Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
  }
}

void showResultRows(QTableWidget* t, const std::vector<CalculatorRow>& rows) {
  for (std::size_t i = 0; i < rows.size(); ++i) setResultRow(t, static_cast<int>(i), rows[i]);
  t->setRowCount(static_cast<int>(rows.size()));
  fitTableHeight(t);
}

}  // namespace

CalculatorResultPanel::CalculatorResultPanel(QWidget* parent) : QGroupBox(tr("Theoretical occupancy"), parent) {
  auto* v = new QVBoxLayout(this);
  occupancy_label_ = new QLabel(this);
  occupancy_label_->setObjectName(QStringLiteral("occupancyValue"));
  QFont big = occupancy_label_->font();
  big.setPointSize(24);
  big.setBold(true);
  occupancy_label_->setFont(big);
  occupancy_detail_ = new QLabel(this);
  occupancy_detail_->setWordWrap(true);
  auto* top = new QHBoxLayout;
  top->addWidget(occupancy_label_, 0);
  top->addWidget(occupancy_detail_, 1);
  v->addLayout(top);

  limits_table_ = makeResultTable({tr("Block limit per SM from"), tr("Blocks"), tr("Per block")}, this);
  setHeaderToolTips(limits_table_->model(),
                    {tr("A resource of the SM that caps resident blocks: warps, the block slots, registers, "
                        "shared memory (and barriers from CC 9.0)"),
                     tr("Blocks per SM this resource alone allows; the smallest is the answer (the limiter)"),
                     tr("What one block takes of the resource, after the allocation granularity (shared memory "
                        "includes the 1 KB per block the runtime reserves on CC 8.0 and later)")});
  limits_table_->setObjectName(QStringLiteral("limitsTable"));
  v->addWidget(limits_table_);
  details_table_ = makeResultTable({tr("Quantity"), tr("Value")}, this);
  setHeaderToolTips(details_table_->model(),
                    {tr("A figure of the result (the derivation below shows how each is computed)"),
                     tr("Its value, in the unit its name gives")});
  details_table_->setObjectName(QStringLiteral("detailsTable"));
  details_table_->horizontalHeader()->setVisible(false);
  v->addWidget(details_table_);

  clusters_table_ = makeResultTable({tr("Clusters and best block size"), tr("Model"), tr("Driver")}, this);
  setHeaderToolTips(clusters_table_->model(),
                    {tr("Thread-block clusters (CC 9.0 and later) and the best block size "
                        "(cudaOccupancyMaxPotentialBlockSize's search)"),
                     tr("This app's figure: the occupancy calculator and the GPU's GPC layout model (the naive "
                        "upper bound where no layout is recorded)"),
                     tr("The driver's own answer, with a detected GPU after Ask the driver")});
  clusters_table_->setObjectName(QStringLiteral("clustersTable"));
  v->addWidget(clusters_table_);
  auto* driver_row = new QHBoxLayout;
  ask_driver_ = new QPushButton(tr("Ask the driver"), this);
  ask_driver_->setObjectName(QStringLiteral("askDriver"));
  ask_driver_->setToolTip(
      tr("Ask the GPU's driver (cuOccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxActiveClusters, "
         "cuOccupancyMaxPotentialClusterSize, cuOccupancyMaxPotentialBlockSize) with a probe kernel of these "
         "registers; needs a detected GPU"));
  driver_status_ = new QLabel(this);
  driver_status_->setObjectName(QStringLiteral("driverStatus"));
  driver_status_->setWordWrap(true);
  driver_status_->setStyleSheet(QStringLiteral("color: #555;"));
  driver_row->addWidget(ask_driver_, 0, Qt::AlignTop);
  driver_row->addWidget(driver_status_, 1);
  v->addLayout(driver_row);
}

void CalculatorResultPanel::showHeadline(const CalculatorHeadline& headline, bool can_launch) {
  occupancy_label_->setText(headline.value);
  occupancy_label_->setStyleSheet(can_launch ? QString() : QStringLiteral("color: #b00020; font-size: 17pt;"));
  occupancy_detail_->setText(headline.detail);
}

void CalculatorResultPanel::showLimits(const std::vector<CalculatorRow>& rows) {
  showResultRows(limits_table_, rows);
}

void CalculatorResultPanel::showDetails(const std::vector<CalculatorRow>& rows) {
  showResultRows(details_table_, rows);
}

void CalculatorResultPanel::showClusters(const std::vector<CalculatorRow>& rows) {
  showResultRows(clusters_table_, rows);
}

void CalculatorResultPanel::setDriverStatus(const QString& text) {
  driver_status_->setText(text);
}

}  // namespace occx::ui
