#include "ui/shell/settings_file.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QObject>
#include <QSettings>
#include <QStringList>
#include <QTemporaryDir>

#include "core/base/atomic_file.h"

namespace occx::ui {

namespace {

/// A name that settings written by earlier versions use, and the name that replaced it.
struct Renamed {
  const char* old_name;
  const char* new_name;
};
/// Views renamed with the compile-sweep / live-sweep vocabulary: their settings group
/// ("views/<objectName>") and their tab title (the remembered current tab).
constexpr Renamed kRenamedViews[] = {{"kernel", "compileSweep"}, {"live", "liveSweep"}, {"rblock", "rblockScaling"}};
constexpr Renamed kRenamedTabs[] = {{"Kernels (NVRTC)", "Compile sweep (NVRTC)"}, {"Live runs", "Live sweep"}};

}  // namespace

int migrateRenamedSettings(QSettings& settings) {
  int moved = 0;
  for (const Renamed& r : kRenamedViews) {
    const QString from = QStringLiteral("views/") + QLatin1String(r.old_name);
    const QString to = QStringLiteral("views/") + QLatin1String(r.new_name);
    settings.beginGroup(from);
    const QStringList keys = settings.allKeys();
    settings.endGroup();
    if (keys.isEmpty()) continue;
    for (const QString& key : keys) {
      const QString target = to + QLatin1Char('/') + key;
      if (settings.contains(target)) continue;  // written by this version: newer than the old value
      settings.setValue(target, settings.value(from + QLatin1Char('/') + key));
      ++moved;
    }
    settings.remove(from);
  }
  const QString tab = settings.value(QLatin1String(kCurrentTabSettingsKey)).toString();
  for (const Renamed& r : kRenamedTabs) {
    if (tab == QLatin1String(r.old_name)) {
      settings.setValue(QLatin1String(kCurrentTabSettingsKey), QLatin1String(r.new_name));
      ++moved;
    }
  }
  return moved;
}

QString writeSettingsChecked(const std::function<void(QSettings& next)>& fill) {
  QSettings current;
  const QString file = current.fileName();
  const QString kept = QObject::tr("the previous settings are kept");
  // QSettings rewrites its file in place when the disk fills up and still reports success (seen on
  // Qt 6.4: a 482-byte file cut to the size limit). So the settings are written to a scratch INI
  // file first, read back and counted, and only then put in place with writeFileAtomically.
  QTemporaryDir scratch;
  if (!scratch.isValid()) {
    return QObject::tr("cannot save the settings to %1 (no temporary folder: %2): %3")
        .arg(file, scratch.errorString(), kept);
  }
  const QString scratch_file = scratch.filePath(QStringLiteral("settings.ini"));
  qsizetype keys = 0;
  {
    QSettings next(scratch_file, QSettings::IniFormat);
    for (const QString& key : current.allKeys()) next.setValue(key, current.value(key));  // keys saved elsewhere
    fill(next);
    next.sync();
    if (next.status() != QSettings::NoError) {
      return QObject::tr("cannot save the settings to %1 (the scratch copy could not be written): %2").arg(file, kept);
    }
    keys = next.allKeys().size();
  }
  auto bytes = readFile(QFile::encodeName(scratch_file).toStdString());
  if (!bytes)
    return QObject::tr("cannot save the settings to %1 (%2): %3")
        .arg(file, QString::fromStdString(bytes.error()), kept);
  // Read back from a file of another name: QSettings answers for a file it has just written from its
  // memory, not from the disk.
  const QString check_file = scratch.filePath(QStringLiteral("check.ini"));
  if (auto copied = writeFileAtomically(QFile::encodeName(check_file).toStdString(), *bytes); !copied) {
    return QObject::tr("cannot save the settings to %1 (%2): %3")
        .arg(file, QString::fromStdString(copied.error()), kept);
  }
  if (const QSettings check(check_file, QSettings::IniFormat);
      check.status() != QSettings::NoError || check.allKeys().size() != keys) {
    return QObject::
        tr("cannot save the settings to %1 (the scratch copy reads back with %2 of %3 settings: is the disk full?): "
           "%4")
            .arg(file)
            .arg(check.allKeys().size())
            .arg(keys)
            .arg(kept);
  }
  if (!QDir().mkpath(QFileInfo(file).absolutePath())) {
    return QObject::tr("cannot save the settings to %1 (cannot create its folder): %2").arg(file, kept);
  }
  if (auto written = writeFileAtomically(QFile::encodeName(file).toStdString(), *bytes); !written) {
    return QObject::tr("cannot save the settings: %1").arg(QString::fromStdString(written.error()));
  }
  return {};
}

}  // namespace occx::ui
