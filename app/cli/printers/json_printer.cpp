#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli/printers/printer.h"

#include "core/base/columns.h"

namespace occx::cli {

nlohmann::json textCell(const std::string& cell, std::size_t /*column*/) {
  return cell;
}

nlohmann::json numberCell(const std::string& cell, std::size_t /*column*/) {
  if (cell.empty()) return nullptr;
  double v = 0.0;
  if (readNumber(cell, v, 0.0).empty()) return v;
  return cell;
}

nlohmann::json rowsToJson(const CsvTable& table, JsonCell cell) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : table.rows) {
    nlohmann::json r = nlohmann::json::object();
    for (std::size_t i = 0; i < table.header.size() && i < row.size(); ++i) r[table.header[i]] = cell(row[i], i);
    rows.push_back(std::move(r));
  }
  return rows;
}

nlohmann::json tableToJson(const CsvTable& table, JsonCell cell) {
  nlohmann::json j;
  j["meta"] = nlohmann::json::object();
  for (const auto& [k, v] : table.meta) j["meta"][k] = v;
  j["rows"] = rowsToJson(table, cell);
  return j;
}

void printJson(std::ostream& out, const nlohmann::json& doc) {
  out << doc.dump(2) << "\n";
}

JsonTablePrinter::JsonTablePrinter(std::ostream& out, JsonCell cell) : TablePrinter(out), cell_(cell) {}

void JsonTablePrinter::print(const CsvTable& table) {
  printJson(out_, tableToJson(table, cell_));
}

}  // namespace occx::cli
