// The one table model the UI's tables derive from (as hotspot's HashModel): it owns the rows and
// answers Qt's rowCount, columnCount, headerData and data; a subclass says what its columns are
// (numColumns, headerCell) and what a cell shows (cell), for every role its table uses — display
// text, a sort key, tooltip, alignment, colours, font.
#pragma once

#include <QAbstractTableModel>
#include <QColor>
#include <QCoreApplication>
#include <QString>
#include <QStringList>
#include <QVariant>
#include <cstddef>
#include <utility>
#include <vector>

namespace occx::ui {

/// The background of a cell whose kernel spills registers (every table uses this one colour).
inline const QColor kSpillColor{248, 215, 215};
/// The background of a decision that scales RBLOCK (the decision tables and the RBLOCK view).
inline const QColor kScaleColor{214, 234, 248};

/// A column's header texts, each marked with QT_TRANSLATE_NOOP in its model's translation context.
struct ColumnText {
  const char* title;
  const char* tooltip;  ///< nullptr: none
};

/// What `column`'s header shows for `role`, translated in `context`: the title for Qt::DisplayRole,
/// the tooltip (when there is one) for Qt::ToolTipRole; {} otherwise.
inline QVariant columnHeader(const ColumnText& column, const char* context, int role) {
  if (role == Qt::DisplayRole) return QCoreApplication::translate(context, column.title);
  if (role == Qt::ToolTipRole && column.tooltip != nullptr) return QCoreApplication::translate(context, column.tooltip);
  return {};
}

/// Sets the horizontal header tooltips of `model` (a QTableWidget's, a QStandardItemModel) column by
/// column from `tips`, for tables that are not a TableModel; every table says what its columns mean.
inline void setHeaderToolTips(QAbstractItemModel* model, const QStringList& tips) {
  for (int c = 0; c < tips.size() && c < model->columnCount(); ++c)
    model->setHeaderData(c, Qt::Horizontal, tips[c], Qt::ToolTipRole);
}

/// `v` as a cell, blank when negative (not known).
inline QVariant numberOrBlank(int v) {
  return v < 0 ? QVariant(QString()) : QVariant(v);
}

/// Rows of type `Row`, one table row each, in the order given.
template <typename Row>
class TableModel : public QAbstractTableModel {
 public:
  /// Role with the value a column sorts by (numbers as numbers). A cell that has no sort key sorts
  /// by its display value.
  static constexpr int kSortRole = Qt::UserRole + 1;

  explicit TableModel(QObject* parent = nullptr) : QAbstractTableModel(parent) {}

  /// Replaces every row.
  void setRows(std::vector<Row> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
  }
  /// Adds a row at the end.
  void appendRow(const Row& row) {
    const int at = numRows();
    beginInsertRows({}, at, at);
    rows_.push_back(row);
    endInsertRows();
  }
  /// Replaces row `r` (no-op when out of range).
  void replaceRow(int r, const Row& row) {
    if (r < 0 || r >= numRows()) return;
    rows_[static_cast<std::size_t>(r)] = row;
    emit dataChanged(index(r, 0), index(r, numColumns() - 1));
  }
  void clear() { setRows({}); }

  [[nodiscard]] const std::vector<Row>& rows() const { return rows_; }
  /// The row at `r`; nullptr when out of range.
  [[nodiscard]] const Row* row(int r) const {
    return r >= 0 && r < numRows() ? &rows_[static_cast<std::size_t>(r)] : nullptr;
  }
  [[nodiscard]] int numRows() const { return static_cast<int>(rows_.size()); }

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const final { return parent.isValid() ? 0 : numRows(); }
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const final {
    return parent.isValid() ? 0 : numColumns();
  }
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const final {
    if (orientation != Qt::Horizontal || section < 0 || section >= numColumns()) return {};
    return headerCell(section, role);
  }
  [[nodiscard]] QVariant data(const QModelIndex& index, int role) const final {
    const Row* r = index.isValid() ? row(index.row()) : nullptr;
    if (r == nullptr || index.column() < 0 || index.column() >= numColumns()) return {};
    if (role == kSortRole) {
      QVariant key = cell(*r, index.row(), index.column(), kSortRole);
      return key.isValid() ? key : cell(*r, index.row(), index.column(), Qt::DisplayRole);
    }
    return cell(*r, index.row(), index.column(), role);
  }

 protected:
  /// How many columns every row has.
  [[nodiscard]] virtual int numColumns() const = 0;
  /// What column `column` (0 … numColumns() − 1) shows in its header for `role` (the title for
  /// Qt::DisplayRole, an explanation for Qt::ToolTipRole); {} for roles it does not use.
  [[nodiscard]] virtual QVariant headerCell(int column, int role) const = 0;
  /// What `row` (at model row `r`) shows in `column` for `role`; {} for roles it does not use. For
  /// kSortRole, {} sorts by the display value.
  [[nodiscard]] virtual QVariant cell(const Row& row, int r, int column, int role) const = 0;

 private:
  std::vector<Row> rows_;
};

}  // namespace occx::ui
