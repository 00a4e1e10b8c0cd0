#include <ostream>
#include <sstream>

#include "app/cli/cli.h"
#include "app/cli/printers/printer.h"
#include "core/base/atomic_file.h"

namespace occx::cli {

void CsvTablePrinter::print(const CsvTable& table) {
  out_ << toCsv(table);
}

int writeCsv(Context& ctx, const std::string& path, const CsvTable& table) {
  if (path == "-") {  // --csv -: the CSV is the command's standard output, with nothing else in it
    CsvTablePrinter(ctx.out).print(table);
    return kExitOk;
  }
  std::ostringstream text;
  CsvTablePrinter(text).print(table);
  auto w = writeFileAtomically(path, text.str());
  if (!w) {
    ctx.err << "occx: " << w.error() << "\n";
    return kExitRuntime;
  }
  ctx.err << "wrote " << path << " (" << table.rows.size() << " rows)\n";
  return kExitOk;
}

}  // namespace occx::cli
