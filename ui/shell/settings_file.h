// The application's settings file (QSettings, organisation "OccupancyExplorer"): where the window
// keeps its own keys, moving what earlier versions wrote under old names, and writing the file so
// that a failed write (a full disk) keeps the previous file whole.
#pragma once

#include <QString>
#include <functional>

class QSettings;

namespace occx::ui {

/// The window's own keys.
inline constexpr const char* kGeometrySettingsKey = "window/geometry";
inline constexpr const char* kCurrentTabSettingsKey = "window/currentTab";
inline constexpr const char* kExportFolderSettingsKey = "export/lastFolder";

/// Moves settings that earlier versions wrote under the views' old names ("views/kernel",
/// "views/live", "views/rblock", the old tab titles as the current tab) to the current names, and
/// removes the old groups, so each is moved once. A key already present under the new name is
/// kept. Returns how many values moved.
int migrateRenamedSettings(QSettings& settings);

/// Writes the settings file: every key it holds now, then what `fill` writes (the window's geometry,
/// every view's group), into a scratch INI copy that is read back and counted, then put in place
/// atomically (writeFileAtomically). Returns an empty string on success, else the message naming the
/// file and the reason ("the previous settings are kept").
QString writeSettingsChecked(const std::function<void(QSettings& next)>& fill);

}  // namespace occx::ui
