#include "core/base/csv.h"

#include <algorithm>
#include <optional>

namespace occx {

int CsvTable::column(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i) {
    if (header[i] == name) return static_cast<int>(i);
  }
  return -1;
}

std::string CsvTable::metaValue(std::string_view key) const {
  for (const auto& [k, v] : meta) {
    if (k == key) return v;
  }
  return {};
}

namespace {
std::string quotedCell(std::string_view cell) {
  std::string out = "\"";
  for (char c : cell) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}
}  // namespace

std::string csvQuote(std::string_view cell) {
  if (cell.find_first_of(",\"\r\n") == std::string_view::npos) return std::string(cell);
  return quotedCell(cell);
}

std::string toCsv(const CsvTable& t) {
  std::string out;
  // A metadata value is written as parseCsv reads it back: line breaks become spaces and its leading
  // spaces (which the reader skips) are left out, so what is written, read and written again is the
  // same text. Keys are written as they are: the program's are fixed words, and a key read by
  // parseCsv has no colon, no line feed and no leading space (a carriage return inside stays one).
  auto metaText = [](std::string s) {
    for (char& c : s) {
      if (c == '\n' || c == '\r') c = ' ';
    }
    s.erase(0, std::min(s.find_first_not_of(' '), s.size()));
    return s;
  };
  for (const auto& [k, v] : t.meta) out += "# " + k + ": " + metaText(v) + "\n";
  // Quoted where parseCsv would otherwise read the line differently: a line of one empty cell (an
  // empty line is skipped), and a header starting with '#' (a metadata line) or a byte-order mark.
  auto line = [&](const std::vector<std::string>& cells, bool header) {
    if (cells.size() == 1 && cells[0].empty()) {
      out += "\"\"\n";
      return;
    }
    for (std::size_t i = 0; i < cells.size(); ++i) {
      if (i) out += ',';
      const bool ambiguous =
          header && i == 0 && (cells[0].rfind('#', 0) == 0 || cells[0].rfind("\xEF\xBB\xBF", 0) == 0);
      out += ambiguous ? quotedCell(cells[i]) : csvQuote(cells[i]);
    }
    out += '\n';
  };
  line(t.header, true);
  for (const auto& r : t.rows) line(r, false);
  return out;
}

namespace {
// Well-formed UTF-8 (RFC 3629, Unicode table 3-7): no overlong forms, no surrogates, nothing
// above U+10FFFF. `bad` receives the offset of the first byte of the first bad sequence.
bool validUtf8(std::string_view s, std::size_t& bad) {
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t n = 0;                   // continuation bytes
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the first continuation byte
    if (c >= 0xC2 && c <= 0xDF)
      n = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      bad = i;
      return false;
    }
    for (std::size_t k = 1; k <= n; ++k) {
      if (i + k >= s.size()) {
        bad = i;
        return false;
      }
      const auto b = static_cast<unsigned char>(s[i + k]);
      if (k == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80) {
        bad = i;
        return false;
      }
    }
    i += n + 1;
  }
  return true;
}
int lineOf(std::string_view s, std::size_t pos) {
  int line = 1;
  for (std::size_t i = 0; i < pos && i < s.size(); ++i) line += s[i] == '\n';
  return line;
}

// The text to parse, without a byte-order mark, once it is within max_bytes, has no NUL byte and
// is UTF-8.
Expected<std::string_view> checkedCsvText(std::string_view text, std::size_t max_bytes) {
  if (text.size() > max_bytes) {
    return Error{"CSV is " + std::to_string(text.size()) + " bytes: larger than the " + std::to_string(max_bytes) +
                 "-byte limit for a dataset"};
  }
  if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  if (text.find('\0') != std::string_view::npos) {
    return Error{"CSV line " + std::to_string(lineOf(text, text.find('\0'))) +
                 ": contains a NUL byte (not a text file)"};
  }
  std::size_t bad = 0;
  if (!validUtf8(text, bad)) {
    return Error{"CSV line " + std::to_string(lineOf(text, bad)) + ": text is not UTF-8 (byte " + std::to_string(bad) +
                 ")"};
  }
  return text;
}

// Reads the metadata lines at the top ("# key: value"; a line without a colon is a comment) into
// meta, leaving pos and line after them.
void readCsvMeta(std::string_view text, std::size_t& pos, int& line,
                 std::vector<std::pair<std::string, std::string>>& meta) {
  while (pos < text.size() && text[pos] == '#') {
    std::size_t end = text.find('\n', pos);
    std::string_view l = text.substr(pos, end == std::string_view::npos ? std::string_view::npos : end - pos);
    if (!l.empty() && l.back() == '\r') l.remove_suffix(1);
    l.remove_prefix(1);
    while (!l.empty() && l.front() == ' ') l.remove_prefix(1);
    auto colon = l.find(':');
    if (colon != std::string_view::npos) {
      std::string_view v = l.substr(colon + 1);
      while (!v.empty() && v.front() == ' ') v.remove_prefix(1);
      meta.emplace_back(std::string(l.substr(0, colon)), std::string(v));
    }
    pos = end == std::string_view::npos ? text.size() : end + 1;
    ++line;
  }
}

// The records of a CSV, header first, and the line each starts on.
struct CsvRecords {
  std::vector<std::vector<std::string>> records;
  std::vector<int> lines;
};

// Splits text from pos (on line `line`) into records: cells in double quotes may hold commas, line
// breaks and doubled quotes; lines end in LF, CRLF or CR; empty lines are skipped. More than
// max_cells cells in all is an error.
Expected<CsvRecords> splitCsvRecords(std::string_view text, std::size_t pos, int line, std::size_t max_cells) {
  CsvRecords out;
  std::vector<std::string> cur;
  std::string cell;
  std::size_t cells = 0;
  bool inQuotes = false, any = false;
  int recordLine = line;
  int quoteLine = line;
  auto tooManyCells = [max_cells](int at) {
    return Error{"CSV line " + std::to_string(at) + ": more than " + std::to_string(max_cells) +
                 " cells, the limit for a dataset"};
  };
  // The cell read so far ends (false: one cell too many).
  auto endCell = [&] {
    if (++cells > max_cells) return false;
    cur.push_back(std::move(cell));
    cell.clear();
    return true;
  };
  // The record read so far ends with its last cell (false: one cell too many).
  auto endRecord = [&] {
    if (!endCell()) return false;
    out.records.push_back(std::move(cur));
    out.lines.push_back(recordLine);
    return true;
  };
  for (; pos < text.size(); ++pos) {
    char c = text[pos];
    if (inQuotes) {
      if (c == '"') {
        if (pos + 1 < text.size() && text[pos + 1] == '"') {
          cell += '"';
          ++pos;
        } else
          inQuotes = false;
      } else {
        if (c == '\n') ++line;
        cell += c;
      }
      continue;
    }
    if (c == '"') {
      if (!cell.empty()) return Error{"CSV line " + std::to_string(line) + ": a quote inside an unquoted cell"};
      inQuotes = true;
      quoteLine = line;
      any = true;
    } else if (c == ',') {
      if (!endCell()) return tooManyCells(line);
      any = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n') ++pos;
      if ((any || !cell.empty()) && !endRecord()) return tooManyCells(line);
      cur.clear();
      cell.clear();
      any = false;
      ++line;
      recordLine = line;
    } else {
      cell += c;
      any = true;
    }
  }
  if (inQuotes) return Error{"CSV line " + std::to_string(quoteLine) + ": a quoted cell is never closed"};
  if ((any || !cell.empty()) && !endRecord()) return tooManyCells(line);
  return out;
}

// Fills t's header (the first record) and rows (the others, each with as many cells).
std::optional<Error> takeCsvHeaderAndRows(CsvRecords& split, CsvTable& t) {
  auto& records = split.records;
  if (records.empty()) return Error{"CSV is empty: expected a header line with column names"};
  t.header = std::move(records.front());
  for (std::size_t i = 1; i < records.size(); ++i) {
    if (records[i].size() != t.header.size()) {
      return Error{"CSV line " + std::to_string(split.lines[i]) + ": " + std::to_string(records[i].size()) +
                   " cells, but the header has " + std::to_string(t.header.size()) + " columns"};
    }
    t.rows.push_back(std::move(records[i]));
  }
  return std::nullopt;
}
}  // namespace

Expected<CsvTable> parseCsv(std::string_view text, std::size_t max_bytes, std::size_t max_cells) {
  auto checked = checkedCsvText(text, max_bytes);
  if (!checked) return Error{checked.error()};
  text = *checked;
  CsvTable t;
  std::size_t pos = 0;
  int line = 1;
  readCsvMeta(text, pos, line, t.meta);
  auto records = splitCsvRecords(text, pos, line, max_cells);
  if (!records) return Error{records.error()};
  if (auto error = takeCsvHeaderAndRows(*records, t)) return *error;
  return t;
}

}  // namespace occx
