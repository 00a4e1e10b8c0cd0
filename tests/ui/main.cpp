// occx_ui_tests: GoogleTest with a QApplication. Runs off-screen (QT_QPA_PLATFORM=offscreen is set
// here when the environment names no platform, so test discovery works headless too). Settings go to
// a scratch folder, never to the user's own.
#include <gtest/gtest.h>

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  QApplication::setOrganizationName(QStringLiteral("OccupancyExplorerTests"));
  QApplication::setApplicationName(QStringLiteral("occx_ui_tests"));
  QTemporaryDir settings_dir;
  if (!settings_dir.isValid()) return 1;
  QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings_dir.path());
  QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings_dir.path());
  testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
