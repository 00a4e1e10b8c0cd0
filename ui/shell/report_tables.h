// What a report shows of a view's CSV tables: for each table a chosen set of columns under display
// names with units ("Registers per thread (n_regs)", not "n_regs"), cells in words where the CSV
// has codes (a carveout of -1 is "the driver's choice"), rows that would be empty left out, and a
// table of many kernels grouped under a line per kernel. The CSV export keeps every column and row.
#pragma once

#include <QString>
#include <QStringList>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/csv.h"
#include "ui/views/app_view.h"

namespace occx::ui {

/// Where a long name (a kernel's: words joined by underscores) may break in a report's table: a
/// zero-width space after its underscores (reportHtml writes <wbr> for browsers).
inline constexpr QChar kNameBreak{u'\u200B'};

/// A table as a report shows it.
struct ReportTable {
  /// One shown row: its cells (one per header entry) and the group it belongs to (a kernel's name:
  /// a full-width line heads each run of rows of one group; empty: no groups).
  struct Row {
    QString group;
    QStringList cells;
  };
  QString title;
  QStringList header;  ///< display names with units, one per column
  std::vector<Row> rows;
  int rows_left_out = 0;     ///< rows of the CSV export not shown (beyond the first ones)
  int columns_left_out = 0;  ///< columns of the CSV export not shown
  QString note;              ///< a sentence under the table (what the columns mean, where the rest is)
};

/// The table `e` as a report shows it: the columns chosen for its kind of table (by its
/// suggested file name) under display names with units, at most `max_rows` rows (none whose shown
/// cells are all empty). A quantity/value table (the calculator's result) shows each quantity by
/// its display name and leaves out quantities without a value. A table of an unknown kind shows
/// the columns that have a display name (reportLabel).
ReportTable reportTableOf(const CsvExport& e, int max_rows);

/// Whether the report shows the table `e` (the calculator's impact curves, thousands of points
/// the plots draw, are left to the CSV export).
bool reportShowsTable(const CsvExport& e);

/// The display name of a CSV column or metadata key, with its unit: "registers_per_thread" →
/// "Registers per thread", "carveout_percent" → "Shared-memory carveout (%)". Empty for a key
/// without one (a report leaves such metadata out).
QString reportLabel(std::string_view key);

/// `value` of `key` in words for a report: "-1" of "carveout_percent" → "the driver's choice",
/// "yes"/"no" as they are, numbers as they are. Empty when `value` is empty.
QString reportValue(std::string_view key, const std::string& value);

/// The metadata of `table` as a report's inputs: display name, value in words; keys without a
/// display name and empty values left out.
std::vector<std::pair<QString, QString>> reportInputs(const CsvTable& table);

/// "1 more row", "3 more rows" (`singular`, `plural`: "row", "rows").
QString moreCountText(int n, const QString& singular, const QString& plural);

}  // namespace occx::ui
