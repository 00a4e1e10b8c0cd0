#include <algorithm>
#include <ostream>

#include "app/cli/printers/printer.h"

namespace occx::cli {

namespace {

std::size_t utf8Length(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

std::vector<std::size_t> columnWidths(const TextRows& rows) {
  std::vector<std::size_t> width;
  for (const auto& r : rows) {
    if (width.size() < r.size()) width.resize(r.size(), 0);
    for (std::size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], utf8Length(r[i]));
  }
  return width;
}

}  // namespace

void printTable(std::ostream& out, const TextRows& rows) {
  const auto width = columnWidths(rows);
  for (std::size_t k = 0; k < rows.size(); ++k) {
    const auto& r = rows[k];
    std::string line;
    for (std::size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line += std::string(width[i] - utf8Length(r[i]) + 2, ' ');
    }
    out << line << "\n";
    if (k == 0 && rows.size() > 1) {
      std::string rule;
      for (std::size_t i = 0; i < width.size(); ++i)
        rule += std::string(width[i], '-') + (i + 1 < width.size() ? "  " : "");
      out << rule << "\n";
    }
  }
}

void TextTablePrinter::print(const CsvTable& table) {
  TextRows rows = {table.header};
  rows.insert(rows.end(), table.rows.begin(), table.rows.end());
  printTable(out_, rows);
}

}  // namespace occx::cli
