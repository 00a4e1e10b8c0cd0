// Columns as data: one description per kind of row — the key (CSV header and JSON key, with the
// unit in the name: "time_us", "smem_bytes"), a title and unit for tables, whether the cells are
// numbers or text, how to write a row's cell and how to read it back. The CSV writer, the CSV
// reader, JSON and the tables all work from the same list, so a column is added in one place.
//
// Cells are text as the CSV holds them; JSON turns number columns into numbers (integers where the
// text has no decimal point, null where the cell is empty) and keeps text columns as strings.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/csv.h"
#include "core/base/expected.h"

namespace occx {

/// What a column's cells hold.
enum class CellKind {
  kNumber,  ///< a decimal integer or number; empty = not known / not applicable
  kText,    ///< any text
};

/// One column of a kind of row. `read` may be empty (the column is written, never read back);
/// `required` columns must be present in a file being read.
template <class Row>
struct Column {
  std::string key;    ///< CSV header and JSON key, unit in the name: "bandwidth_GBps"
  std::string title;  ///< short table header: "GB/s", "regs"; empty = the key
  std::string unit;   ///< "µs", "GB/s", "B", "%" or empty
  CellKind kind = CellKind::kText;
  std::function<std::string(const Row&)> write;
  /// Sets the row's field from the cell text; returns empty on success, else what the text is not
  /// ("an integer", "one of ok, error", …) for the error message.
  std::function<std::string(Row&, const std::string&)> read;
  bool required = false;
};

/// The cells of one row, in column order.
template <class Row>
std::vector<std::string> rowCells(const std::vector<Column<Row>>& columns, const Row& row) {
  std::vector<std::string> cells;
  cells.reserve(columns.size());
  for (const auto& c : columns) cells.push_back(c.write(row));
  return cells;
}

/// A table of `rows` with the columns' keys as header and `meta` as its metadata lines.
template <class Row>
CsvTable columnsToCsv(const std::vector<Column<Row>>& columns, const std::vector<Row>& rows,
                      std::vector<std::pair<std::string, std::string>> meta) {
  CsvTable t;
  t.meta = std::move(meta);
  for (const auto& c : columns) t.header.push_back(c.key);
  for (const auto& r : rows) t.rows.push_back(rowCells(columns, r));
  return t;
}

/// A cell as JSON: number columns as numbers (integer without a '.', null when empty, the text when
/// it is not a number), text columns as strings.
nlohmann::json cellJson(CellKind kind, const std::string& text);

/// {"meta": {key: value, …}, "rows": [{key: cell, …}, …]} for `rows`.
template <class Row>
nlohmann::json columnsToJson(const std::vector<Column<Row>>& columns, const std::vector<Row>& rows,
                             const std::vector<std::pair<std::string, std::string>>& meta) {
  nlohmann::json m = nlohmann::json::object();
  for (const auto& [k, v] : meta) m[k] = v;
  nlohmann::json out = nlohmann::json::array();
  for (const auto& r : rows) {
    nlohmann::json row = nlohmann::json::object();
    for (const auto& c : columns) row[c.key] = cellJson(c.kind, c.write(r));
    out.push_back(std::move(row));
  }
  return {{"meta", m}, {"rows", out}};
}

/// The keys a column was written under before one key per concept was chosen (files users saved
/// keep opening): registers_per_thread ← registers, n_regs, nregs; theoretical_occupancy_pct ←
/// occupancy_percent, occupancy_pct; smem_bytes ← static_smem_bytes, shared_bytes;
/// active_blocks_per_sm ← blocks_per_sm; driver_active_blocks_per_sm ← driver_blocks_per_sm. Empty
/// for other keys.
const std::vector<std::string>& columnAliases(const std::string& key);

/// Index of the column `key` in `table`'s header, else of its first alias there; -1 when neither is.
int findColumn(const CsvTable& table, const std::string& key);

/// When `key` stands in `table`'s header twice, under its own name or an alias (columnAliases), the
/// message "column 'K' appears twice in the header (columns A and B)" (with the two names when they
/// differ): a reader would use one and ignore the other, and which the file means is unknown.
std::optional<std::string> duplicateColumn(const CsvTable& table, const std::string& key);

/// Reads every row of `table` into Rows: columns are found by key (or an alias, columnAliases) (order free, extra
/// columns ignored, absent optional columns leave the field as `blank` has it). Errors: "<what>: required column 'K' is
/// missing", "<what>: row N, column K: 'TEXT' is not <what the reader expects>". `finish` (may be empty) checks a whole
/// row after its cells were read and returns an error message (without the prefix) or empty.
template <class Row>
Expected<std::vector<Row>> columnsFromCsv(const std::vector<Column<Row>>& columns, const CsvTable& table,
                                          const std::string& what, const Row& blank,
                                          const std::function<std::string(Row&)>& finish = {}) {
  std::vector<int> at;
  for (const auto& c : columns) {
    at.push_back(findColumn(table, c.key));
    if (c.required && at.back() < 0) return Error{what + ": required column '" + c.key + "' is missing"};
    if (auto twice = duplicateColumn(table, c.key)) return Error{what + ": " + *twice};
  }
  std::vector<Row> rows;
  rows.reserve(table.rows.size());
  std::size_t line = 0;
  for (const auto& cells : table.rows) {
    ++line;
    Row row = blank;
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (!columns[i].read || at[i] < 0) continue;
      const auto col = static_cast<std::size_t>(at[i]);
      const std::string& text = col < cells.size() ? cells[col] : std::string();
      if (std::string not_a = columns[i].read(row, text); !not_a.empty()) {
        return Error{what + ": row " + std::to_string(line) + ", column " + columns[i].key + ": '" + text +
                     "' is not " + not_a};
      }
    }
    if (finish) {
      if (std::string e = finish(row); !e.empty()) return Error{what + ": row " + std::to_string(line) + ": " + e};
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

// ---- cell readers, for Column::read ------------------------------------------------------------

/// Reads a decimal integer into `out`; empty text keeps `out` when `optional`. Returns empty or
/// "an integer".
std::string readInteger(const std::string& text, std::int64_t& out, bool optional);
/// As readInteger, into an int (32-bit range, else "a 32-bit integer").
std::string readInteger(const std::string& text, int& out, bool optional);
/// Reads a number (the whole text, decimal point '.', whatever the locale) into `out`; empty text
/// sets `out` to `empty_value`. Returns empty, "a number", or "a finite number" (inf, nan).
std::string readNumber(const std::string& text, double& out, double empty_value);
/// Reads a number into an optional: empty text resets it. Returns empty or "a number".
std::string readOptionalNumber(const std::string& text, std::optional<double>& out);
/// "1"/"0" (or empty = `empty_value`) into a flag. Returns empty or "0 or 1".
std::string readFlag(const std::string& text, bool& out, bool empty_value);

}  // namespace occx
