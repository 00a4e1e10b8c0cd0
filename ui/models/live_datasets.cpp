#include "ui/models/live_datasets.h"

#include "core/sweep/compile_sweep_dataset.h"
#include "ui/models/csv_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <string>

#include "core/base/csv.h"

namespace occx::ui {

Expected<LiveDataset> readLiveDataset(const QString& path) {
  const std::string name = QFileInfo(path).fileName().toStdString();
  auto table = readCsvTable(path);
  if (!table) return Error{table.error()};
  if (table->metaValue("format") == kCompileSweepFormat) {
    return Error{name + " is a compile-only sweep (registers and spills, no times): open it in the Compile sweep tab"};
  }
  auto data = liveDatasetFromCsv(*table);
  if (!data) return Error{name + ": " + data.error()};
  return data;
}

QString datasetShapeText(const LiveDataset& data) {
  QStringList parts;
  const QString workload = QString::fromStdString(data.metaValue("workload"));
  if (!workload.isEmpty()) parts << workload;
  const QString k = QString::fromStdString(data.metaValue("k"));
  if (workload == QLatin1String("fused_k") && !k.isEmpty()) parts << QStringLiteral("K=") + k;
  const QString dtype = QString::fromStdString(data.metaValue("dtype"));
  if (!dtype.isEmpty()) parts << dtype;
  const QString x = QString::fromStdString(data.metaValue("xnumel"));
  const QString r = QString::fromStdString(data.metaValue("rnumel"));
  if (!x.isEmpty() && !r.isEmpty()) parts << QStringLiteral("%1 × %2").arg(x, r);
  return parts.join(QLatin1Char(' '));
}

QString recordedLabel(const LiveDataset& data) {
  QString device = QString::fromStdString(data.metaValue("device"));
  if (device.isEmpty()) device = QObject::tr("unknown device");
  QString date = QString::fromStdString(data.metaValue("date_utc"));
  if (date.isEmpty()) date = QString::fromStdString(data.metaValue("date"));
  if (date.size() >= 10) date = date.left(10);
  if (date.isEmpty()) date = QObject::tr("unknown date");
  return QObject::tr("recorded data: %1, %2").arg(device, date);
}

QString bundledMeasurementsFor(const QString& dataset_path) {
  // The pairs measured on the same H200 for the same reduction, dtype and shape: the family's
  // dataset (resources/datasets/) and Inductor's compiled kernel swept over the same configs
  // (resources/inductor-runs/measured/, `occx inductor sweep --csv`).
  static const struct {
    const char* dataset;
    const char* kernel_runs;
  } kPairs[] = {
      {"h200_sum_fp16_32768x8192.csv", "ref_sum"},
      {"h200_mean_var_fp16_32768x8192.csv", "ref_mean_var"},
      {"h200_log_softmax_fp16_20736x8008.csv", "ref_log_softmax_vocab"},
      {"h200_spill_log_softmax_fp32_264x30000.csv", "spill_log_softmax"},
  };
  const QFileInfo file(dataset_path);
  if (file.absolutePath() != QLatin1String(":/datasets")) return {};
  for (const auto& p : kPairs) {
    if (file.fileName() != QLatin1String(p.dataset)) continue;
    const QString path = QStringLiteral(":/inductor-runs/measured/%1.csv").arg(QLatin1String(p.kernel_runs));
    return QFile::exists(path) ? path : QString();
  }
  return {};
}

std::vector<BundledDataset> bundledDatasets() {
  std::vector<BundledDataset> out;
  const QDir dir(QStringLiteral(":/datasets"));
  for (const QString& file : dir.entryList({QStringLiteral("*.csv")}, QDir::Files, QDir::Name)) {
    const QString path = dir.filePath(file);
    auto data = readLiveDataset(path);
    if (!data) continue;
    QString date = QString::fromStdString(data->metaValue("date_utc")).left(10);
    out.push_back({path, QObject::tr("%1 — %2, %3")
                             .arg(datasetShapeText(*data), QString::fromStdString(data->metaValue("device")), date)});
  }
  return out;
}

}  // namespace occx::ui
