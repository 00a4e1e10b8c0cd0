#include "ui/views/gpu_data_view.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "core/gpu/gpu_data_table.h"
#include "ui/models/table_model.h"

namespace occx::ui {

GpuDataView::GpuDataView(QWidget* parent, const GpuDatabase* db) : QWidget(parent) {
  setObjectName(QStringLiteral("gpuData"));
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(6, 6, 6, 6);
  auto* top = new QHBoxLayout;
  search_ = new QLineEdit(this);
  search_->setObjectName(QStringLiteral("gpuDataSearch"));
  search_->setPlaceholderText(
      tr("Search: a GPU, a compute capability, a limit or a source (e.g. H200, 9.0, shared_memory, HDR)"));
  search_->setClearButtonEnabled(true);
  count_ = new QLabel(this);
  top->addWidget(new QLabel(tr("Search"), this));
  top->addWidget(search_, 1);
  top->addWidget(count_);
  layout->addLayout(top);
  auto* legend =
      new QLabel(tr("Sources: PG = CUDA C++ Programming Guide, technical specifications per compute capability; "
                    "HDR = the toolkit's cuda_occupancy.h; NCU = Nsight Compute's calculator data; DEV = a device "
                    "query on an H200; DS = the vendor's datasheet; DRV = fitted to the driver's answers recorded on "
                    "an H200."),
                 this);
  legend->setWordWrap(true);
  legend->setStyleSheet(QStringLiteral("color: #555;"));
  layout->addWidget(legend);

  model_ = new QStandardItemModel(this);
  proxy_ = new QSortFilterProxyModel(this);
  proxy_->setSourceModel(model_);
  proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
  proxy_->setFilterKeyColumn(-1);  // every column
  table_ = new QTableView(this);
  table_->setObjectName(QStringLiteral("gpuDataTable"));
  table_->setModel(proxy_);
  // Sortable by a click on a header; opens in the file's order (architectures by CC, then the GPUs).
  table_->horizontalHeader()->setSortIndicator(-1, Qt::AscendingOrder);
  table_->setSortingEnabled(true);
  proxy_->sort(-1);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->verticalHeader()->setVisible(false);
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  layout->addWidget(table_, 1);

  connect(search_, &QLineEdit::textChanged, this, [this](const QString& text) {
    proxy_->setFilterFixedString(text);
    count_->setText(tr("%1 of %2 rows").arg(shownRows()).arg(model_->rowCount()));
    emit statusMessage(statusSummary());
  });
  setDatabase(db != nullptr ? *db : GpuDatabase::builtin());
}

void GpuDataView::setDatabase(const GpuDatabase& db) {
  data_ = gpuDataTable(db);
  model_->clear();
  QStringList headers = {tr("Entry"), tr("Kind"), tr("Compute capability"), tr("Field"), tr("Value"), tr("Source")};
  model_->setHorizontalHeaderLabels(headers);
  setHeaderToolTips(model_, {tr("A compute capability's limits or a named GPU"),
                             tr("architecture (a compute capability's limits) or a named GPU's figures"),
                             tr("The compute capability (major.minor)"), tr("The limit or figure"), tr("Its value"),
                             tr("Where the value comes from: PG (Programming Guide table), HDR (cuda_occupancy.h), "
                                "DEV (a device query), DS (datasheet), DRV (fitted to the driver's answers)")});
  for (const auto& row : data_.rows) {
    QList<QStandardItem*> items;
    for (const auto& cell : row) items.append(new QStandardItem(QString::fromStdString(cell)));
    model_->appendRow(items);
  }
  table_->resizeColumnsToContents();
  count_->setText(tr("%1 of %2 rows").arg(shownRows()).arg(model_->rowCount()));
}

int GpuDataView::shownRows() const {
  return proxy_->rowCount();
}

std::vector<CsvExport> GpuDataView::csvExports() const {
  CsvExport e{tr("GPU data (rows shown)"), QStringLiteral("gpu-data.csv"), CsvTable{}};
  e.table.header = data_.header;
  if (!search_->text().isEmpty()) e.table.meta.emplace_back("search", search_->text().toStdString());
  for (int r = 0; r < proxy_->rowCount(); ++r) {
    std::vector<std::string> cells;
    for (int c = 0; c < proxy_->columnCount(); ++c)
      cells.push_back(proxy_->index(r, c).data().toString().toStdString());
    e.table.rows.push_back(std::move(cells));
  }
  return {e};
}

void GpuDataView::saveSettings(QSettings& settings) const {
  settings.setValue(QStringLiteral("search"), search_->text());
}

void GpuDataView::restoreSettings(QSettings& settings) {
  search_->setText(settings.value(QStringLiteral("search")).toString());
}

QString GpuDataView::statusSummary() const {
  return search_->text().isEmpty()
             ? tr("GPU data: %1 rows").arg(model_->rowCount())
             : tr("GPU data: %1 of %2 rows match “%3”").arg(shownRows()).arg(model_->rowCount()).arg(search_->text());
}

}  // namespace occx::ui
