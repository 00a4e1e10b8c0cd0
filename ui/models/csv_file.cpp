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

QString csvFormatOf(const QString& path) {
  // Only regular files (or the Qt resources): opening a FIFO would block the UI until a writer came.
  if (!path.startsWith(QLatin1Char(':')) && !QFileInfo(path).isFile()) return {};
  QFile f(path);
  if (!f.open(QIODevice::ReadOnly)) return {};
  const QByteArray head = f.read(qint64{64} * 1024);
  for (const QByteArray& raw : head.split('\n')) {
    const QByteArray line = raw.trimmed();
    if (!line.startsWith('#')) break;  // metadata lines come first
    const QByteArray body = line.mid(1).trimmed();
    if (body.startsWith("format:")) return QString::fromUtf8(body.mid(7).trimmed());
  }
  return {};
}

OpenTarget openTargetFor(const QString& path) {
  const QFileInfo info(path);
  // torch.profiler's traces: *.json, *.pt.trace.json, plain or gzipped.
  const QString name = info.fileName().toLower();
  if (!info.isDir() && (name.endsWith(QStringLiteral(".json")) || name.endsWith(QStringLiteral(".json.gz")))) {
    return OpenTarget::kProfilerTrace;
  }
  if (info.isDir() || info.suffix().compare(QStringLiteral("csv"), Qt::CaseInsensitive) != 0) {
    return OpenTarget::kInductorRun;
  }
  const QString format = csvFormatOf(path);
  if (format.startsWith(QStringLiteral("occupancy-explorer-live-sweep"))) return OpenTarget::kLiveSweep;
  if (format.startsWith(QStringLiteral("occx-compile-sweep"))) return OpenTarget::kCompileSweep;
  if (format.startsWith(QStringLiteral("inductor-kernel-runs"))) return OpenTarget::kMeasurements;
  return OpenTarget::kInductorRun;
}

}  // namespace occx::ui
