#include "ui/models/csv_file.h"

#include <QFile>
#include <QFileInfo>
#include <string>

namespace occx::ui {

Expected<CsvTable> readCsvTable(const QString& path) {
  const std::string name = QFileInfo(path).fileName().toStdString();
  // Only regular files (or the Qt resources): opening a FIFO would block the UI until a writer came.
  if (!path.startsWith(QLatin1Char(':')) && QFileInfo::exists(path) && !QFileInfo(path).isFile())
    return Error{"cannot read " + path.toStdString() + ": not a regular file"};
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    return Error{"cannot read " + path.toStdString() + ": " + file.errorString().toStdString()};
  // At most kMaxCsvBytes + 1 bytes: a 100 MB file is refused by its size, not read whole.
  const auto limit = static_cast<qint64>(kMaxCsvBytes);
  if (file.size() > limit) {
    return Error{name + " is " + std::to_string(file.size()) + " bytes: larger than the " + std::to_string(limit) +
                 "-byte limit for CSV files"};
  }
  const QByteArray bytes = file.read(limit + 1);
  if (bytes.size() > limit) {
    return Error{name + " is more than " + std::to_string(limit) + " bytes: larger than the " + std::to_string(limit) +
                 "-byte limit for CSV files"};
  }
  auto table = parseCsv(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  if (!table) return Error{name + ": " + table.error()};
  return table;
}

}  // namespace occx::ui
