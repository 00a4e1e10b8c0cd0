// The CLI's printers: one interface, TablePrinter, for writing a table (a header, rows of text
// cells, metadata: core's CsvTable) to a stream as aligned text, CSV or JSON; every command formats
// its tables through them. ProgressPrinter (progress_printer.h) writes the progress of long work.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/base/csv.h"

namespace occx::cli {

struct Context;

/// Rows of text cells; where a function takes TextRows, the first row is the header.
using TextRows = std::vector<std::vector<std::string>>;

/// Turns one cell (its text and its column's index) into a JSON value.
using JsonCell = nlohmann::json (*)(const std::string& cell, std::size_t column);
/// The cell's text, as it is.
nlohmann::json textCell(const std::string& cell, std::size_t column);
/// null when empty; a number when the whole cell reads as one (as a double); otherwise the text.
nlohmann::json numberCell(const std::string& cell, std::size_t column);

/// Writes tables to one stream in one format.
class TablePrinter {
 public:
  explicit TablePrinter(std::ostream& out) : out_(out) {}
  virtual ~TablePrinter() = default;
  TablePrinter(const TablePrinter&) = delete;
  TablePrinter& operator=(const TablePrinter&) = delete;

  /// Writes the table: its header, its rows and, where the format has a place for it, its metadata.
  virtual void print(const CsvTable& table) = 0;

 protected:
  std::ostream& out_;  // NOLINT(cppcoreguidelines-non-private-member-variables-in-classes)
};

/// Aligned columns (widths counted in UTF-8 characters) two spaces apart, a rule of '-' under the
/// header (when rows follow it), no trailing spaces; the metadata is not printed.
class TextTablePrinter final : public TablePrinter {
 public:
  using TablePrinter::TablePrinter;
  void print(const CsvTable& table) override;
};

/// RFC 4180 with the metadata as leading "# key: value" lines (core's toCsv).
class CsvTablePrinter final : public TablePrinter {
 public:
  using TablePrinter::TablePrinter;
  void print(const CsvTable& table) override;
};

/// {"meta": {key: value}, "rows": [{column: cell}]} (tableToJson), indented by 2, then a newline.
class JsonTablePrinter final : public TablePrinter {
 public:
  explicit JsonTablePrinter(std::ostream& out, JsonCell cell = numberCell);
  void print(const CsvTable& table) override;

 private:
  JsonCell cell_;
};

/// The text printer for rows whose first row is the header.
void printTable(std::ostream& out, const TextRows& rows);

/// The rows of a table as JSON objects, {column: cell(text, column)}: the CLI's one table-to-JSON
/// conversion.
nlohmann::json rowsToJson(const CsvTable& table, JsonCell cell = textCell);
/// {"meta": {key: value}, "rows": rowsToJson(table, cell)}.
nlohmann::json tableToJson(const CsvTable& table, JsonCell cell = numberCell);

/// Writes a JSON document indented by 2, then a newline: the form of every --json output.
void printJson(std::ostream& out, const nlohmann::json& doc);

/// Writes the table as CSV (CsvTablePrinter) to the file `path`, atomically (never half-written);
/// prints "wrote FILE (N rows)" to ctx.err. `path` "-" (--csv -) writes the CSV to ctx.out and
/// prints nothing else. Returns kExitOk, or kExitRuntime with the message printed.
int writeCsv(Context& ctx, const std::string& path, const CsvTable& table);

}  // namespace occx::cli
