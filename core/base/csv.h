// CSV tables (RFC 4180) with metadata lines, the dataset format the CLI writes and the GUI reads.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/expected.h"

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

/// Serialises a table: metadata lines ("# key: value"; a line break in a value becomes a space and its
/// leading spaces are dropped, as parseCsv would drop them), the header, then one line per row,
/// CRLF-free ("\n"). Keys are written as they are: a key with a colon or a line break, or starting
/// with a space, does not read back (the program's keys are fixed words). For every table t that
/// parseCsv returns, toCsv(parseCsv(toCsv(t))) == toCsv(t).
std::string toCsv(const CsvTable& table);

/// Limits of parseCsv by default: 16 MiB of text and 4 194 304 cells (header included), far above any
/// dataset the app writes (a sweep of 10 000 configurations × 40 columns is about 2 MB and 400 000
/// cells) and low enough that a hostile file cannot take more than a few hundred MB or seconds.
inline constexpr std::size_t kMaxCsvBytes = std::size_t{16} << 20;
inline constexpr std::size_t kMaxCsvCells = std::size_t{4} << 20;

/// Parses CSV text written by toCsv or by a spreadsheet: quoted cells with embedded commas, quotes
/// and newlines; CRLF or LF line ends; a UTF-8 byte-order mark is skipped; leading "# key: value"
/// lines become metadata. Errors name the line: unterminated quote, a row with a different number of
/// cells than the header, an empty file, text that is not well-formed UTF-8 (RFC 3629), NUL bytes,
/// more than `max_cells` cells; text longer than `max_bytes` is refused with its size and the limit.
Expected<CsvTable> parseCsv(std::string_view text, std::size_t max_bytes = kMaxCsvBytes,
                            std::size_t max_cells = kMaxCsvCells);

}  // namespace occx
