// File → Export report…: the PDF and its HTML twin of every tab — the title with the GPU and
// configuration, the inputs under display names, the tables as a person reads them (chosen
// columns with display names and units, no empty rows, widths from content, so no cell breaks a
// word; the header row repeated on every page a table continues onto), the arithmetic in words,
// every plot embedded — checked on the document the PDF prints, page by page; and a report that
// cannot be written leaves nothing behind. With OCCX_REPORT_PAGES set to a folder, the tests also
// write each report's pages there as PNG (for looking at them; docs/report-*.png).
#include <gtest/gtest.h>

#include <QAbstractTextDocumentLayout>
#include <QAction>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QPaintEngine>
#include <QPainter>
#include <QPainterPath>
#include <QRegularExpression>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextLayout>
#include <QTextTable>
#include <memory>
#include <set>

#include "tests/ui/inductor_view_support.h"
#include "tests/ui/ui_test_support.h"
#include "ui/models/live_datasets.h"
#include "ui/shell/main_window.h"
#include "ui/shell/report.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/gpu_data_view.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/views/step_pane.h"

namespace occx::ui {
namespace {

QByteArray readAll(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// ---- the printed pages' text ---------------------------------------------------------------------

/// A paint engine that keeps the text it is asked to draw, in order.
class TextRecordingEngine : public QPaintEngine {
 public:
  explicit TextRecordingEngine(QString* out) : QPaintEngine(QPaintEngine::AllFeatures), out_(out) {}
  bool begin(QPaintDevice* /*device*/) override { return true; }
  bool end() override { return true; }
  void updateState(const QPaintEngineState& /*state*/) override {}
  void drawPixmap(const QRectF& /*r*/, const QPixmap& /*pm*/, const QRectF& /*sr*/) override {}
  void drawPolygon(const QPointF* /*points*/, int /*count*/, PolygonDrawMode /*mode*/) override {}
  void drawPath(const QPainterPath& /*path*/) override {}
  void drawTextItem(const QPointF& /*p*/, const QTextItem& item) override { out_->append(item.text()); }
  [[nodiscard]] Type type() const override { return QPaintEngine::User; }

 private:
  QString* out_;
};

/// An A4 page at 150 dpi whose painter records the text drawn on it.
class TextRecordingPage : public QPaintDevice {
 public:
  TextRecordingPage() : engine_(&text) {}
  ~TextRecordingPage() override = default;
  TextRecordingPage(const TextRecordingPage&) = delete;
  TextRecordingPage& operator=(const TextRecordingPage&) = delete;
  [[nodiscard]] QPaintEngine* paintEngine() const override { return &engine_; }
  QString text;

 protected:
  [[nodiscard]] int metric(PaintDeviceMetric m) const override {
    switch (m) {
      case PdmWidth:
        return 1240;
      case PdmHeight:
        return 1754;
      case PdmWidthMM:
        return 210;
      case PdmHeightMM:
        return 297;
      case PdmDpiX:
      case PdmDpiY:
      case PdmPhysicalDpiX:
      case PdmPhysicalDpiY:
        return 150;
      case PdmDepth:
        return 32;
      case PdmNumColors:
        return 0x7fffffff;
      case PdmDevicePixelRatio:
        return 1;
      case PdmDevicePixelRatioScaled:
        return static_cast<int>(devicePixelRatioFScale());
      default:
        return 0;
    }
  }

 private:
  mutable TextRecordingEngine engine_;
};

QString withoutSpaces(QString s) {
  s.remove(QRegularExpression(QStringLiteral("\\s")));
  return s;
}

/// The text drawn on each page of `doc` as paintReportPage draws it (what the PDF holds), spaces
/// taken out.
std::vector<QString> pageTexts(const QTextDocument& doc) {
  std::vector<QString> out;
  for (int page = 0; page < doc.pageCount(); ++page) {
    TextRecordingPage device;
    {
      QPainter painter(&device);
      paintReportPage(doc, page, QStringLiteral("footer"), painter, 1000);
    }
    out.push_back(withoutSpaces(device.text));
  }
  return out;
}

/// With OCCX_REPORT_PAGES set: the pages of `doc` as PNG, A4 at 100 dpi with the margins,
/// <folder>/report-<name>-page<N>.png.
void savePages(const QTextDocument& doc, const QString& name, const QString& footer) {
  const QString folder = qEnvironmentVariable("OCCX_REPORT_PAGES");
  if (folder.isEmpty()) return;
  const int width = 827;
  const int margin = 59;  // 15 mm
  for (int page = 0; page < doc.pageCount(); ++page) {
    QImage image(width, 1169, QImage::Format_RGB32);
    image.fill(Qt::white);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    painter.translate(margin, margin);
    paintReportPage(doc, page, footer, painter, width - 2 * margin);
    painter.end();
    image.save(QStringLiteral("%1/report-%2-page%3.png").arg(folder, name).arg(page + 1));
  }
}

// ---- the checks ------------------------------------------------------------------------------------

/// The tables of `doc` (those of the report and any in the text in words).
std::vector<QTextTable*> tablesOf(const QTextDocument& doc) {
  std::vector<QTextTable*> out;
  for (QTextFrame* frame : doc.rootFrame()->childFrames()) {
    if (auto* t = qobject_cast<QTextTable*>(frame)) out.push_back(t);
  }
  return out;
}

/// Every place where a table cell's text goes on to a new line inside a word (not after a space
/// or a hyphen): "cell text @ break index".
QStringList wordsBrokenInCells(const QTextDocument& doc) {
  QStringList out;
  for (QTextTable* table : tablesOf(doc)) {
    for (int r = 0; r < table->rows(); ++r) {
      for (int c = 0; c < table->columns(); ++c) {
        const QTextTableCell cell = table->cellAt(r, c);
        if (cell.row() != r || cell.column() != c) continue;  // a spanned cell, seen at its start
        for (QTextBlock b = cell.firstCursorPosition().block(); b.isValid(); b = b.next()) {
          const QTextLayout* layout = b.layout();
          for (int i = 1; i < layout->lineCount(); ++i) {
            const int at = layout->lineAt(i).textStart();
            const QChar before = b.text().at(at - 1);
            if (!before.isSpace() && before != QLatin1Char('-') && before != QChar(0x200B))
              out << QStringLiteral("%1 @ %2").arg(b.text()).arg(at);
          }
          if (b == cell.lastCursorPosition().block()) break;
        }
      }
    }
  }
  return out;
}

int pageOfBlock(const QTextDocument& doc, const QTextBlock& b) {
  return static_cast<int>(doc.documentLayout()->blockBoundingRect(b).top() / doc.pageSize().height());
}

/// The cell text of row `r`, column `c` of `table`.
QString cellText(QTextTable* table, int r, int c) {
  QTextCursor from = table->cellAt(r, c).firstCursorPosition();
  from.setPosition(table->cellAt(r, c).lastCursorPosition().position(), QTextCursor::KeepAnchor);
  return from.selectedText();
}

/// What the report of one tab must hold, checked on the document the PDF prints: returns how many
/// pages its longest table continues onto.
int checkReport(const ReportContent& r, const QString& name) {
  SCOPED_TRACE(name.toStdString());
  const std::unique_ptr<QTextDocument> doc = reportDocument(r);
  savePages(*doc, name, r.title + QStringLiteral(" · ") + r.date_utc);
  // Inputs: display names, never empty values or raw keys.
  for (const auto& [k, v] : r.inputs) {
    EXPECT_FALSE(v.trimmed().isEmpty()) << k.toStdString();
    EXPECT_FALSE(k.contains(QLatin1Char('_'))) << k.toStdString();
  }
  const QRegularExpression raw_key(QStringLiteral("^[a-z0-9]+(_[a-z0-9]+)+$"));
  for (const ReportTable& t : r.tables) {
    SCOPED_TRACE(t.title.toStdString());
    EXPECT_FALSE(t.header.isEmpty());
    for (const QString& h : t.header) {
      // num_warps and num_stages are the field's own words; other keys in snake case are raw CSV keys.
      if (h == QLatin1String("num_warps") || h == QLatin1String("num_stages")) continue;
      EXPECT_FALSE(raw_key.match(h).hasMatch()) << "raw CSV key as a header: " << h.toStdString();
    }
    for (const auto& row : t.rows) {
      EXPECT_EQ(row.cells.size(), t.header.size());
      EXPECT_TRUE(std::any_of(row.cells.begin(), row.cells.end(), [](const QString& c) { return !c.isEmpty(); }))
          << "an empty row";
    }
  }
  const QString html = reportHtml(r, ReportHtmlOptions{});
  EXPECT_FALSE(html.contains(QRegularExpression(QStringLiteral("\\b1 more (rows|columns)\\b"))));
  EXPECT_EQ(html.count(QStringLiteral("<thead>")), static_cast<int>(r.tables.size()));

  // No table cell breaks a word, at the PDF's page width.
  const QStringList broken = wordsBrokenInCells(*doc);
  EXPECT_TRUE(broken.isEmpty()) << broken.join(QStringLiteral("\n")).toStdString();

  // Every report table repeats its header row on each page; its title and first rows share a page.
  const std::vector<QString> pages = pageTexts(*doc);
  int longest = 1;
  std::size_t next = 0;
  for (QTextTable* table : tablesOf(*doc)) {
    if (next >= r.tables.size()) break;
    const ReportTable& t = r.tables[next];
    if (cellText(table, 0, 0) != t.header.front()) continue;  // a table of the text in words
    ++next;
    SCOPED_TRACE(t.title.toStdString());
    EXPECT_EQ(table->format().headerRowCount(), 1);
    QString header;
    for (int c = 0; c < table->columns(); ++c) header += cellText(table, 0, c);
    header = withoutSpaces(header);
    const QTextBlock title = table->firstCursorPosition().block().previous();
    EXPECT_EQ(title.text(), t.title);
    const bool group_first = table->rows() > 2 && table->cellAt(1, 0).columnSpan() == table->columns();
    const int first_row = std::min(group_first ? 2 : 1, table->rows() - 1);
    const int first = pageOfBlock(*doc, table->cellAt(first_row, 0).firstCursorPosition().block());
    EXPECT_EQ(pageOfBlock(*doc, title), first) << "the title is on another page than the table's first rows";
    const int last = pageOfBlock(*doc, table->cellAt(table->rows() - 1, 0).firstCursorPosition().block());
    longest = std::max(longest, last - first + 1);
    // Every page the table spans holds some of its rows (not a repeated header alone).
    std::set<int> row_pages;
    for (int row = 1; row < table->rows(); ++row)
      row_pages.insert(pageOfBlock(*doc, table->cellAt(row, 0).firstCursorPosition().block()));
    EXPECT_EQ(static_cast<int>(row_pages.size()), last - first + 1);
    for (int page = first; page <= last; ++page) {
      EXPECT_TRUE(pages[static_cast<std::size_t>(page)].contains(header))
          << "page " << page + 1 << " of " << pages.size() << " lacks the header " << header.toStdString();
    }
  }
  EXPECT_EQ(next, r.tables.size()) << "report tables not found in the document";
  return longest;
}

QString dateForTests() {
  return QStringLiteral("2026-12-01 12:00 UTC");
}

// ---- every tab -------------------------------------------------------------------------------------

TEST(Report, TheCalculatorsReportIsAPdfAndAnHtmlTwinWithEverythingItShows) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow w(testContext(offlineBackend(), false));
  w.tabs()->setCurrentWidget(w.calculatorView());
  ASSERT_EQ(w.exportCurrentReport(dir.filePath(QStringLiteral("calc"))), QString());  // ".pdf" is added
  const QByteArray pdf = readAll(dir.filePath(QStringLiteral("calc.pdf")));
  ASSERT_TRUE(pdf.startsWith("%PDF-"));
  EXPECT_TRUE(pdf.trimmed().endsWith("%%EOF"));
  EXPECT_GT(pdf.size(), 20000);  // six plots at 2×
  const QString html = QString::fromUtf8(readAll(dir.filePath(QStringLiteral("calc.html"))));
  const QString summary = w.calculatorView()->statusSummary();
  ASSERT_FALSE(summary.isEmpty());
  EXPECT_TRUE(
      html.contains(QStringLiteral("<h2>Occupancy calculator — ") + summary.toHtmlEscaped() + QStringLiteral("</h2>")));
  EXPECT_TRUE(html.contains(QStringLiteral("UTC</p>")));
  EXPECT_TRUE(html.contains(QStringLiteral("<h3>Inputs</h3>")));
  EXPECT_TRUE(html.contains(QStringLiteral("<b>GPU:</b> H100 SXM5")));
  EXPECT_TRUE(html.contains(QStringLiteral("<h3>In words</h3>")));
  EXPECT_TRUE(html.contains(QStringLiteral("<b>Warps.</b>")));  // the derivation's first step
  EXPECT_EQ(html.count(QStringLiteral("data:image/png;base64,")),
            static_cast<int>(w.calculatorView()->plotExports().size()));
  EXPECT_TRUE(html.contains(QStringLiteral("alt=\"Impact of varying block size\"")));
  EXPECT_EQ(w.exportReportAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_P));

  const ReportContent r = reportOf(*w.calculatorView(), QStringLiteral("Occupancy calculator"), dateForTests());
  // The result in words: display names, no quantity without a value ("Why it cannot launch" of a
  // config that launches), the carveout in words.
  ASSERT_FALSE(r.tables.empty());
  const ReportTable& result = r.tables.front();
  EXPECT_EQ(result.header, (QStringList{QStringLiteral("Quantity"), QStringLiteral("Value")}));
  QStringList quantities;
  for (const auto& row : result.rows) quantities << row.cells[0];
  EXPECT_TRUE(quantities.contains(QStringLiteral("Threads per block")));
  EXPECT_TRUE(quantities.contains(QStringLiteral("Occupancy (%)")));
  EXPECT_FALSE(quantities.contains(QStringLiteral("Why it cannot launch")));
  const auto carveout = std::find(quantities.begin(), quantities.end(), QStringLiteral("Shared-memory carveout (%)"));
  ASSERT_NE(carveout, quantities.end());
  EXPECT_EQ(result.rows[static_cast<std::size_t>(carveout - quantities.begin())].cells[1],
            QStringLiteral("the driver's choice"));
  // The impact curves (2000+ points the plots draw) stay in the CSV export.
  ASSERT_EQ(r.csv_only.size(), 1);
  EXPECT_TRUE(r.csv_only.front().startsWith(QStringLiteral("Impact curves"))) << r.csv_only.front().toStdString();
  // Plots at the export's own size (900 × 560 at 2×, taller by the subtitle), not the window's.
  for (const auto& [title, image] : r.plots) {
    EXPECT_EQ(image.width(), 1800) << title.toStdString();
    EXPECT_GT(image.height(), 1120) << title.toStdString();
  }
  checkReport(r, QStringLiteral("calculator"));
}

TEST(Report, TheRblockViewsReportHasTheDecisionsInWords) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow w(testContext(offlineBackend(), false));
  auto* rblock = new RblockScalingView(testContext());
  w.addView(rblock, QStringLiteral("RBLOCK scaling"));
  w.tabs()->setCurrentWidget(rblock);
  const ReportContent r = reportOf(*rblock, QStringLiteral("RBLOCK scaling"), dateForTests());
  EXPECT_EQ(r.date_utc, dateForTests());
  EXPECT_TRUE(r.text_html.contains(QStringLiteral("Total blocks")));
  EXPECT_EQ(r.plots.size(), rblock->plotExports().size());
  for (const auto& [title, image] : r.plots) {
    EXPECT_FALSE(image.isNull()) << title.toStdString();
    EXPECT_EQ(image.width(), 1800);
  }
  ReportHtmlOptions options;
  options.embed_images = false;
  EXPECT_TRUE(reportHtml(r, options).contains(QStringLiteral("<img src=\"plot0.png\"")));
  EXPECT_FALSE(r.tables.empty());
  checkReport(r, QStringLiteral("rblock-scaling"));
  ASSERT_EQ(w.exportCurrentReport(dir.filePath(QStringLiteral("rblock.pdf"))), QString());
  EXPECT_TRUE(QFileInfo::exists(dir.filePath(QStringLiteral("rblock.html"))));
}

// The Inductor run: per config the numbers a reader needs (registers, spills, occupancy, every
// policy's decision) under display names, the configs grouped under their kernel, the Step page's
// kernels, the measured times; the table continues over pages with its header on each.
TEST(Report, TheInductorRunsReportShowsConfigsDecisionsAndTimes) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(view.openBundled(QStringLiteral("spill_log_softmax_w16")).isEmpty());
  ReportContent r = reportOf(view, QStringLiteral("Inductor run"), dateForTests());
  ASSERT_GE(r.tables.size(), 2u);
  const ReportTable& run = r.tables.front();
  for (const char* header : {"Config", "Registers per thread", "Spills", "Occupancy (%)", "Limited by", "Old", "New",
                             "Review-min", "Exact", "Spills rule"}) {
    EXPECT_TRUE(run.header.contains(QLatin1String(header)))
        << header << " in " << run.header.join(QLatin1Char('|')).toStdString();
  }
  for (const char* raw : {"device", "cc", "sm_count", "module", "triton_cache_hash"}) {
    EXPECT_FALSE(run.header.contains(QLatin1String(raw))) << raw;
  }
  ASSERT_FALSE(run.rows.empty());
  EXPECT_TRUE(QString(run.rows.front().group).remove(kNameBreak).startsWith(QStringLiteral("triton_red_fused")));
  EXPECT_TRUE(run.rows.front().cells.front().contains(QStringLiteral("w16")))
      << run.rows.front().cells.front().toStdString();
  // Every chosen column fits the page: none left out for room.
  EXPECT_FALSE(reportHtml(r, ReportHtmlOptions{}).contains(QStringLiteral("more column")));
  bool times = false;
  for (const ReportTable& t : r.tables) {
    for (const QString& h : t.header) times = times || h.contains(QStringLiteral("(µs)"));
  }
  EXPECT_TRUE(times) << "no table with measured times";
  checkReport(r, QStringLiteral("inductor-run-spill"));

  // A run of many kernels: its table goes on over pages, the header on each.
  ASSERT_TRUE(view.openBundled(QStringLiteral("gpt2")).isEmpty());
  r = reportOf(view, QStringLiteral("Inductor run"), dateForTests(), 80);
  EXPECT_GE(checkReport(r, QStringLiteral("inductor-run")), 2);
}

TEST(Report, TheInductorRunsStepPageIsInItsReport) {
  InductorRunView view{testContext()};
  ASSERT_TRUE(view.openBundled(QStringLiteral("gpt2")).isEmpty());
  bool done = false;
  QObject::connect(
      view.stepPane(), &StepPane::profileChanged, &view, [&done] { done = true; }, Qt::SingleShotConnection);
  ASSERT_TRUE(view.openTrace(QStringLiteral(":/inductor-runs/gpt2.pt.trace.json.gz")).isEmpty());
  ASSERT_TRUE(waitFor([&] { return done; }, 20000));
  const ReportContent r = reportOf(view, QStringLiteral("Inductor run"), dateForTests());
  const auto step = std::find_if(r.tables.begin(), r.tables.end(),
                                 [](const ReportTable& t) { return t.title.startsWith(QStringLiteral("Step")); });
  ASSERT_NE(step, r.tables.end());
  EXPECT_TRUE(step->header.contains(QStringLiteral("Share of the step (%)")))
      << step->header.join(QLatin1Char('|')).toStdString();
  checkReport(r, QStringLiteral("inductor-step"));
}

TEST(Report, TheCompileSweepsReport) {
  CompileSweepView view(testContext(compileBackend({})));
  ASSERT_EQ(view.openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  const ReportContent r = reportOf(view, QStringLiteral("Compile sweep (NVRTC)"), dateForTests());
  ASSERT_EQ(r.tables.size(), 1u);
  for (const char* header : {"XBLOCK", "RBLOCK", "num_warps", "Registers per thread", "Occupancy (%)", "Old", "New"}) {
    EXPECT_TRUE(r.tables.front().header.contains(QLatin1String(header))) << header;
  }
  EXPECT_FALSE(reportHtml(r, ReportHtmlOptions{}).contains(QStringLiteral("more column")));
  checkReport(r, QStringLiteral("compile-sweep"));
}

TEST(Report, TheLiveSweepsReport) {
  const auto bundled = bundledDatasets();
  if (bundled.empty()) GTEST_SKIP() << "this build bundles no datasets";
  LiveSweepView view(testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("no GPU (test)"), {}})));
  for (const auto& b : bundled) {
    ASSERT_EQ(view.openCsvFile(b.path), QString()) << b.path.toStdString();
    const ReportContent r = reportOf(view, QStringLiteral("Live sweep"), dateForTests());
    ASSERT_GE(r.tables.size(), 2u);
    EXPECT_TRUE(r.tables.front().header.contains(QStringLiteral("Median time (µs)")))
        << r.tables.front().header.join(QLatin1Char('|')).toStdString();
    EXPECT_FALSE(reportHtml(r, ReportHtmlOptions{}).contains(QStringLiteral("more column")));
    checkReport(r, QStringLiteral("live-sweep-") + QFileInfo(b.path).baseName());
  }
}

TEST(Report, TheGpuDataReport) {
  GpuDataView view;
  const ReportContent r = reportOf(view, QStringLiteral("GPU data"), dateForTests());
  ASSERT_EQ(r.tables.size(), 1u);
  checkReport(r, QStringLiteral("gpu-data"));
}

// ---- the parts ---------------------------------------------------------------------------------------

TEST(Report, LongTablesAreCutWithANoteAndAFailedWriteLeavesNothing) {
  CsvExport e;
  e.title = QStringLiteral("Rows");
  e.suggested_name = QStringLiteral("unknown-kind.csv");
  e.table.header = {"registers_per_thread", "n_spills", "no_label_for_this", "num_warps"};
  for (int i = 0; i < 35; ++i) e.table.rows.push_back({std::to_string(i), "0", "x", i == 3 ? "" : "4"});
  e.table.rows.push_back({"", "", "only this", ""});  // empty in every shown column: left out
  ReportContent r;
  r.title = QStringLiteral("t");
  r.tables.push_back(reportTableOf(e, 34));
  const ReportTable& t = r.tables.front();
  EXPECT_EQ(t.header, (QStringList{QStringLiteral("Registers per thread"),
                                   QStringLiteral("Spilled registers (n_spills)"), QStringLiteral("num_warps")}));
  EXPECT_EQ(t.rows.size(), 34u);
  EXPECT_EQ(t.rows_left_out, 1);
  EXPECT_EQ(t.columns_left_out, 1);
  const QString html = reportHtml(r, ReportHtmlOptions{});
  EXPECT_TRUE(html.contains(QStringLiteral("1 more row in the CSV export"))) << html.toStdString();
  EXPECT_FALSE(html.contains(QStringLiteral("more column")));  // left out by choice, not for room
  EXPECT_TRUE(html.contains(QStringLiteral("<thead><tr><th")));
  EXPECT_EQ(moreCountText(2, QStringLiteral("row"), QStringLiteral("rows")), QStringLiteral("2 more rows"));

  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString missing = dir.filePath(QStringLiteral("no/such/folder/r.pdf"));
  auto written = writeReportPdf(r, missing);
  ASSERT_FALSE(written);
  EXPECT_NE(written.error().find("no/such/folder/r.pdf"), std::string::npos) << written.error();
  EXPECT_FALSE(QFileInfo::exists(missing));
}

// Columns are as wide as their content needs: a column of long words is wider than one of short
// numbers, and a table too wide for the page keeps the columns that fit unbroken, saying how many
// it left out.
TEST(Report, ColumnWidthsComeFromTheContent) {
  ReportTable t;
  t.title = QStringLiteral("Widths");
  t.header = {QStringLiteral("n"), QStringLiteral("Why")};
  t.rows.push_back({QString(), {QStringLiteral("1"), QStringLiteral("registers limit occupancy here")}});
  ReportContent r;
  r.title = QStringLiteral("w");
  r.tables.push_back(t);
  const QString html = reportHtml(r, ReportHtmlOptions{});
  const QRegularExpression width(QStringLiteral("<th width=\"([0-9.]+)%\""));
  auto it = width.globalMatch(html);
  std::vector<double> percents;
  while (it.hasNext()) percents.push_back(it.next().captured(1).toDouble());
  ASSERT_EQ(percents.size(), 2u);
  EXPECT_LT(percents[0], percents[1]);
  EXPECT_NEAR(percents[0] + percents[1], 100.0, 0.5);

  ReportTable wide;
  wide.title = QStringLiteral("Wide");
  for (int c = 0; c < 30; ++c) wide.header << QStringLiteral("Unbreakablecolumnname%1").arg(c);
  QStringList cells;
  for (int c = 0; c < 30; ++c) cells << QStringLiteral("1");
  wide.rows.push_back({QString(), cells});
  r.tables = {wide};
  const QString wide_html = reportHtml(r, ReportHtmlOptions{});
  EXPECT_LT(wide_html.count(QStringLiteral("<th ")), 30);
  EXPECT_TRUE(wide_html.contains(QStringLiteral("more columns in the CSV export")));
  const QStringList broken = wordsBrokenInCells(*reportDocument(r));
  EXPECT_TRUE(broken.isEmpty()) << broken.join(QLatin1Char('\n')).toStdString();
}

}  // namespace
}  // namespace occx::ui
