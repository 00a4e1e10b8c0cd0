// File → Export report…: the PDF and its HTML twin of the calculator and of the RBLOCK view — the
// title with the GPU and configuration, the inputs, the tables, the arithmetic in words, every plot
// embedded — and a report that cannot be written leaves nothing behind.
#include <gtest/gtest.h>

#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QTabWidget>
#include <QTemporaryDir>

#include "tests/ui/ui_test_support.h"
#include "ui/shell/main_window.h"
#include "ui/shell/report.h"
#include "ui/views/calculator_view.h"
#include "ui/views/rblock_scaling_view.h"

namespace occx::ui {
namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

TEST(Report, TheCalculatorsReportIsAPdfAndAnHtmlTwinWithEverythingItShows) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow w(testContext(offlineBackend(), false));
  w.tabs()->setCurrentWidget(w.calculatorView());
  ASSERT_EQ(w.exportCurrentReport(dir.filePath(QStringLiteral("calc"))), QString());  // ".pdf" is added
  const QByteArray pdf = readAll(dir.filePath(QStringLiteral("calc.pdf")));
  ASSERT_TRUE(pdf.startsWith("%PDF-"));
  EXPECT_TRUE(pdf.trimmed().endsWith("%%EOF"));
  EXPECT_GT(pdf.size(), 20000);  // four plots at 2×
  const QString html = QString::fromUtf8(readAll(dir.filePath(QStringLiteral("calc.html"))));
  const QString summary = w.calculatorView()->statusSummary();
  ASSERT_FALSE(summary.isEmpty());
  EXPECT_TRUE(
      html.contains(QStringLiteral("<h2>Occupancy calculator — ") + summary.toHtmlEscaped() + QStringLiteral("</h2>")));
  EXPECT_TRUE(html.contains(QStringLiteral("UTC</p>")));
  EXPECT_TRUE(html.contains(QStringLiteral("<h3>Inputs</h3>")));
  EXPECT_TRUE(html.contains(QStringLiteral("<h3>In words</h3>")));
  EXPECT_TRUE(html.contains(QStringLiteral("<b>Warps.</b>")));  // the derivation's first step
  EXPECT_EQ(html.count(QStringLiteral("data:image/png;base64,")),
            static_cast<int>(w.calculatorView()->plotExports().size()));
  EXPECT_EQ(html.count(QStringLiteral("<h3>")), 2 + static_cast<int>(w.calculatorView()->csvExports().size()));
  EXPECT_TRUE(html.contains(QStringLiteral("alt=\"Impact of varying block size\"")));
  EXPECT_TRUE(html.contains(QStringLiteral("more rows in the CSV export")));  // the impact curves: 2000+ rows
  EXPECT_EQ(w.exportReportAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));
}

TEST(Report, TheRblockViewsReportHasTheDecisionsInWords) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow w(testContext(offlineBackend(), false));
  auto* rblock = new RblockScalingView(testContext());
  w.addView(rblock, QStringLiteral("RBLOCK scaling"));
  w.tabs()->setCurrentWidget(rblock);
  const ReportContent r = reportOf(*rblock, QStringLiteral("RBLOCK scaling"), QStringLiteral("2026-12-01 12:00 UTC"));
  EXPECT_EQ(r.date_utc, QStringLiteral("2026-12-01 12:00 UTC"));
  EXPECT_TRUE(r.text_html.contains(QStringLiteral("Total blocks")));
  EXPECT_EQ(r.plots.size(), rblock->plotExports().size());
  for (const auto& [title, image] : r.plots) {
    EXPECT_FALSE(image.isNull()) << title.toStdString();
    EXPECT_GT(image.width(), 200);
  }
  const QString html = reportHtml(r, /*embed_images=*/false);
  EXPECT_TRUE(html.contains(QStringLiteral("<img src=\"plot0.png\"")));
  ASSERT_EQ(w.exportCurrentReport(dir.filePath(QStringLiteral("rblock.pdf"))), QString());
  EXPECT_TRUE(QFileInfo::exists(dir.filePath(QStringLiteral("rblock.html"))));
}

TEST(Report, LongTablesAreCutWithANoteAndAFailedWriteLeavesNothing) {
  ReportContent r;
  r.title = QStringLiteral("t");
  CsvExport e;
  e.title = QStringLiteral("Rows");
  for (int c = 0; c < 15; ++c) e.table.header.push_back("c" + std::to_string(c));
  for (int i = 0; i < 35; ++i) e.table.rows.push_back(std::vector<std::string>(15, std::to_string(i)));
  r.tables.push_back(e);
  const QString html = reportHtml(r, true);
  EXPECT_TRUE(html.contains(QStringLiteral("10 more rows, 3 more columns in the CSV export")));
  EXPECT_FALSE(html.contains(QStringLiteral("<th>c12</th>")));
  EXPECT_TRUE(html.contains(QStringLiteral("<th>c11</th>")));

  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString missing = dir.filePath(QStringLiteral("no/such/folder/r.pdf"));
  auto written = writeReportPdf(r, missing);
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().find("no/such/folder/r.pdf"), std::string::npos) << written.error();
  EXPECT_FALSE(QFileInfo::exists(missing));
}

}  // namespace
}  // namespace occx::ui
