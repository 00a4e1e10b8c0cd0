#include "ui/app_view.h"

#include <QFile>

#include "core/atomic_file.h"

namespace occx::ui {

Expected<std::size_t> writeCsvFile(const CsvTable& table, const QString& path) {
  if (path.isEmpty()) return Error{"no file name given for the CSV export"};
  return writeFileAtomically(QFile::encodeName(path).toStdString(), toCsv(table));
}

}  // namespace occx::ui
