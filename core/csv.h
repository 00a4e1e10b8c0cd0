// CSV tables (RFC 4180) with metadata lines, the dataset format the CLI writes and the GUI reads.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/expected.h"

namespace occx {

/// A table: column names (with units in the names, e.g. "time_us"), rows of cells as text, and
/// metadata (device, toolkit, date, …) written as leading "# key: value" lines.
struct CsvTable {
  std::vector<std::pair<std::string, std::string>> meta;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;

  /// Index of a column by exact name, -1 when absent.
  [[nodiscard]] int column(std::string_view name) const;
  /// Metadata value for a key; empty when absent.
  [[nodiscard]] std::string metaValue(std::string_view key) const;
};

/// Quotes a cell per RFC 4180 when it holds a comma, quote, CR or LF (quotes doubled).
std::string csvQuote(std::string_view cell);

/// Serialises a table: metadata lines, the header, then one line per row, CRLF-free ("\n").
std::string toCsv(const CsvTable& table);

/// Parses CSV text written by toCsv or by a spreadsheet: quoted cells with embedded commas, quotes
/// and newlines; CRLF or LF line ends; a UTF-8 byte-order mark is skipped; leading "# key: value"
/// lines become metadata. Errors name the line: unterminated quote, a row with a different number of
/// cells than the header, an empty file, text that is not UTF-8, NUL bytes.
Expected<CsvTable> parseCsv(std::string_view text);

}  // namespace occx
