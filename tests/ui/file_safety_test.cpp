// Every file the GUI writes — result CSV, plot PNG and PDF, the settings — under failure: a full disk
// (a tiny RLIMIT_FSIZE, in a forked child so the limit stays there) and a file name that is a
// folder. Each must keep the previous file byte for byte, leave no temporary file beside it and
// report the path and the reason.
#include <gtest/gtest.h>

#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <ostream>

#include "tests/support/in_child.h"
#include "tests/ui/ui_test_support.h"
#include "ui/models/inductor_run_data.h"
#include "ui/models/live_datasets.h"
#include "ui/shell/main_window.h"
#include "ui/views/calculator_view.h"

namespace occx::ui {
namespace {

using occx::testing_support::inChild;

QByteArray bytesOf(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// In the child: a disk that takes at most `limit` bytes per file, then `write`; its message.
std::string underFullDisk(rlim_t limit, const std::function<QString()>& write) {
  return inChild([&] {
    ::alarm(60);  // a child that hangs is killed and reported, never waited on forever
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit lim{limit, limit};
    if (::setrlimit(RLIMIT_FSIZE, &lim) != 0) return std::string("SKIP: setrlimit failed");
    const QString error = write();
    return error.isEmpty() ? std::string("WROTE") : error.toStdString();
  });
}

struct Export {
  const char* name;
  const char* file;
  std::function<QString(MainWindow&, const QString&)> write;
};

void PrintTo(const Export& e, std::ostream* os) {
  *os << e.name;
}

class GuiFileSafety : public ::testing::TestWithParam<Export> {};

TEST_P(GuiFileSafety, AFullDiskKeepsThePreviousFileAndSaysWhy) {
  const Export& e = GetParam();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QLatin1String(e.file));
  MainWindow w(testContext(offlineBackend(), false));
  ASSERT_EQ(e.write(w, path), QString());
  const QByteArray previous = bytesOf(path);
  ASSERT_GT(previous.size(), 256);
  w.calculatorView()->registersSpin()->setValue(128);  // the new file differs from the old one

  const std::string report = underFullDisk(256, [&] { return e.write(w, path); });
  if (report.rfind("SKIP", 0) == 0) GTEST_SKIP() << report;
  EXPECT_NE(report.find(path.toStdString()), std::string::npos) << report;
  // The reason: the write failed with EFBIG, or (PDF) the renderer's file stopped short.
  EXPECT_TRUE(report.find("File too large (previous file left unchanged)") != std::string::npos ||
              report.find("is the disk full?) (previous file left unchanged)") != std::string::npos)
      << report;
  EXPECT_EQ(bytesOf(path), previous);
  EXPECT_EQ(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden | QDir::System),
            QStringList{QLatin1String(e.file)});  // no temporary file left
}

TEST_P(GuiFileSafety, ANameThatIsAFolderIsRefusedAndTheFolderKept) {
  const Export& e = GetParam();
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString path = dir.filePath(QLatin1String(e.file));
  ASSERT_TRUE(QDir().mkdir(path));
  {
    QFile inside(path + QStringLiteral("/inside.json"));
    ASSERT_TRUE(inside.open(QIODevice::WriteOnly));
  }
  MainWindow w(testContext(offlineBackend(), false));
  const QString error = e.write(w, path);
  EXPECT_TRUE(error.contains(path)) << error.toStdString();
  EXPECT_TRUE(error.contains(QStringLiteral("folder"))) << error.toStdString();
  EXPECT_TRUE(QFileInfo(path).isDir());
  EXPECT_TRUE(QFile::exists(path + QStringLiteral("/inside.json")));
}

INSTANTIATE_TEST_SUITE_P(
    Exports, GuiFileSafety,
    ::testing::Values(
        Export{"ResultCsv", "result.csv", [](MainWindow& w, const QString& p) { return w.exportCurrentCsv(0, p); }},
        Export{"CurvesCsv", "curves.csv", [](MainWindow& w, const QString& p) { return w.exportCurrentCsv(1, p); }},
        Export{"PlotPng", "registers.png", [](MainWindow& w, const QString& p) { return w.exportCurrentPlot(1, p); }},
        Export{"PlotPdf", "smem.pdf", [](MainWindow& w, const QString& p) { return w.exportCurrentPlot(2, p); }}),
    [](const ::testing::TestParamInfo<Export>& i) { return std::string(i.param.name); });

TEST(GuiSettingsSafety, AFullDiskKeepsThePreviousSettingsAndSaysWhy) {
  QSettings probe;
  const QString file = probe.fileName();
  MainWindow w(testContext(offlineBackend(), true));
  w.calculatorView()->threadsSpin()->setValue(128);
  ASSERT_EQ(w.saveSettings(), QString());
  const QByteArray previous = bytesOf(file);
  ASSERT_TRUE(previous.contains("128")) << previous.constData();
  ASSERT_GT(previous.size(), 320);  // larger than the limit below

  w.calculatorView()->threadsSpin()->setValue(640);
  // 160 bytes: room for QSettings' lock file (pid, program and host names), none for the settings
  // (482 bytes), so the failure is in writing the settings themselves. Plain QSettings::sync()
  // cuts the file to 160 bytes here and reports no error; the window's save must not.
  const std::string report = underFullDisk(160, [&] { return w.saveSettings(); });
  if (report.rfind("SKIP", 0) == 0) GTEST_SKIP() << report;
  EXPECT_NE(report.find("cannot save the settings to " + file.toStdString()), std::string::npos) << report;
  EXPECT_NE(report.find("the previous settings are kept"), std::string::npos) << report;
  EXPECT_NE(report.find("is the disk full?"), std::string::npos) << report;
  EXPECT_EQ(bytesOf(file), previous);
  const QStringList beside = QFileInfo(file).dir().entryList(QDir::Files | QDir::Hidden);
  for (const QString& name : beside) {
    EXPECT_FALSE(name.startsWith(QFileInfo(file).fileName() + QLatin1Char('.')) && name != QFileInfo(file).fileName())
        << "temporary file left: " << name.toStdString();
  }
}

}  // namespace
// A FIFO named like a CSV: every GUI reader of CSV files refuses it at once (opening it would block
// the window until a writer came). In a child with a 10 s alarm, so a regression fails, not hangs.
TEST(GuiFileSafety, AFifoNamedLikeACsvIsRefusedWithoutBlocking) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString fifo = dir.filePath(QStringLiteral("dataset.csv"));
  ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
  const std::string out = inChild([&] {
    ::alarm(10);
    std::string lines;
    auto live = readLiveDataset(fifo);
    lines += (live ? std::string("opened") : live.error()) + "\n";
    auto scan = runDataFromCsv(fifo);
    lines += (scan ? std::string("opened") : scan.error()) + "\n";
    auto measured = measurementsFromFile(fifo);
    lines += (measured ? std::string("opened") : measured.error()) + "\n";
    return lines;
  });
  const std::string want = "cannot read " + fifo.toStdString() + ": not a regular file\n";
  EXPECT_EQ(out, want + want + want);
}

}  // namespace occx::ui
