// The GPU data as a searchable table: every compute capability's limits and every named GPU's
// figures with their sources (core/gpu/gpu_data_table.h), filtered as the user types, exported as
// CSV (the rows shown).
#pragma once

#include <QWidget>

#include "core/gpu/gpu_data.h"
#include "ui/views/app_view.h"

class QLabel;
class QLineEdit;
class QSortFilterProxyModel;
class QStandardItemModel;
class QTableView;

namespace occx::ui {

class GpuDataView : public QWidget, public AppView {
  Q_OBJECT

 public:
  /// Shows `db` (the built-in data by default).
  explicit GpuDataView(QWidget* parent = nullptr, const GpuDatabase* db = nullptr);

  /// Replaces the data shown (e.g. after File → Load GPU data).
  void setDatabase(const GpuDatabase& db);

  [[nodiscard]] QLineEdit* searchEdit() const { return search_; }
  [[nodiscard]] QTableView* tableView() const { return table_; }
  /// Rows shown after the search filter.
  [[nodiscard]] int shownRows() const;

  // AppView
  /// The rows shown, as CSV (entry, kind, compute_capability, field, value, source).
  [[nodiscard]] std::vector<CsvExport> csvExports() const override;
  void saveSettings(QSettings& settings) const override;
  void restoreSettings(QSettings& settings) override;
  [[nodiscard]] QString statusSummary() const override;

 signals:
  void statusMessage(const QString& text);

 private:
  QLineEdit* search_ = nullptr;
  QTableView* table_ = nullptr;
  QLabel* count_ = nullptr;
  QStandardItemModel* model_ = nullptr;
  QSortFilterProxyModel* proxy_ = nullptr;
  CsvTable data_;
};

}  // namespace occx::ui
