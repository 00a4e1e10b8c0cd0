#include "ui/shell/report.h"

#include <QAbstractTextDocumentLayout>
#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QGuiApplication>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPainter>
#include <QPrinter>
#include <QRegularExpression>
#include <QScreen>
#include <QTemporaryDir>
#include <QTextBlock>
#include <QTextCursor>
#include <QTextDocument>
#include <QTextFrame>
#include <QTextTable>
#include <QUrl>
#include <algorithm>
#include <cmath>
#include <optional>

#include "core/base/atomic_file.h"
#include "occx_config.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

namespace {

constexpr double kTablePointSize = 7.5;
constexpr double kBodyPointSize = 10.0;
constexpr int kCellPadding = 2;
/// Room a column needs besides its text: the padding on both sides, its border, a little slack for
/// the layout's rounding.
constexpr double kColumnChrome = 2 * kCellPadding + 1 + 3;
constexpr double kFooterHeight = 20;  ///< document pixels under each page's text for its footer line
constexpr double kMarginMm = 15;

QString esc(const QString& s) {
  return s.toHtmlEscaped();
}

QByteArray pngBytes(const QImage& image) {
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  image.save(&buffer, "PNG");
  return bytes;
}

/// The resolution the document's fonts are laid out at when it has no paint device (Qt's default:
/// the screen's logical DPI, 96 without a screen).
double documentDpi() {
  if (const QScreen* screen = QGuiApplication::primaryScreen()) return screen->logicalDotsPerInchY();
  return 96.0;
}

QFont reportFont(double point_size, bool bold = false) {
  QFont font = QGuiApplication::font();
  font.setPointSizeF(point_size);
  font.setBold(bold);
  return font;
}

/// The widest word of `text` and its whole width, in `metrics`.
std::pair<double, double> wordAndLineWidth(const QFontMetricsF& metrics, const QString& text) {
  double word = 0;
  for (const QString& w : text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
    // A hyphen is a place to break too, and so is the break after a name's underscores.
    static const QRegularExpression kBreaks(QStringLiteral("[-\\x{200B}]"));
    for (const QString& part : w.split(kBreaks)) {
      word = std::max(word, metrics.horizontalAdvance(part + QLatin1Char('-')));
    }
  }
  QString line = text;
  line.remove(kNameBreak);
  return {word, metrics.horizontalAdvance(line)};
}

/// Column widths in percent of `width` (document pixels) for `t`: each at least its longest word,
/// the spare width shared by how much longer the columns' longest texts are. Fewer entries than
/// columns when not all fit unbroken (the rest are left out).
std::vector<double> columnPercents(const ReportTable& t, double width) {
  const QFontMetricsF cell_metrics(reportFont(kTablePointSize));
  const QFontMetricsF head_metrics(reportFont(kTablePointSize, true));
  const auto columns = static_cast<std::size_t>(t.header.size());
  std::vector<double> least(columns, 0);
  std::vector<double> most(columns, 0);
  for (std::size_t c = 0; c < columns; ++c) {
    const auto [word, line] = wordAndLineWidth(head_metrics, t.header[static_cast<qsizetype>(c)]);
    least[c] = word;
    most[c] = std::max(word, line * 0.6);  // a header may take two lines
    for (const auto& r : t.rows) {
      const auto [w, l] = wordAndLineWidth(cell_metrics, r.cells.value(static_cast<qsizetype>(c)));
      least[c] = std::max(least[c], w);
      most[c] = std::max(most[c], l);
    }
    least[c] += kColumnChrome;
    most[c] += kColumnChrome;
  }
  std::size_t fit = columns;
  auto sum = [](const std::vector<double>& v, std::size_t n) {
    double s = 0;
    for (std::size_t i = 0; i < n; ++i) s += v[i];
    return s;
  };
  while (fit > 1 && sum(least, fit) > width) --fit;
  const double spare = width - sum(least, fit);
  const double wanted = sum(most, fit) - sum(least, fit);
  std::vector<double> out;
  for (std::size_t c = 0; c < fit; ++c) {
    double w = least[c];
    if (wanted > spare) {
      w += spare * (most[c] - least[c]) / std::max(wanted, 1.0);
    } else {
      w = most[c] + (spare - wanted) * most[c] / std::max(sum(most, fit), 1.0);
    }
    out.push_back(100.0 * w / width);
  }
  return out;
}

QString tableHtml(const ReportTable& t, const ReportHtmlOptions& options) {
  const std::vector<double> percents = columnPercents(t, options.table_width);
  // A browser breaks a long name where <wbr> says; the PDF's layout at its zero-width spaces.
  auto esc = [&options](const QString& text) {
    QString html = text.toHtmlEscaped();
    if (options.browser_fonts) html.replace(kNameBreak, QStringLiteral("<wbr>"));
    return html;
  };
  const auto columns = static_cast<qsizetype>(percents.size());
  QString html = QStringLiteral(
                     "<table width=\"100%\" border=\"1\" cellspacing=\"0\" cellpadding=\"%1\" "
                     "style=\"border-collapse:collapse; border-color:#999\"><thead><tr>")
                     .arg(kCellPadding);
  for (qsizetype c = 0; c < columns; ++c) {
    html += QStringLiteral("<th width=\"%1%\" align=\"left\">%2</th>")
                .arg(percents[static_cast<std::size_t>(c)], 0, 'f', 1)
                .arg(esc(t.header[c]));
  }
  html += QStringLiteral("</tr></thead><tbody>");
  QString group;
  for (const auto& r : t.rows) {
    if (!r.group.isEmpty() && r.group != group) {
      html += QStringLiteral("<tr><td colspan=\"%1\" bgcolor=\"#f2f2f2\"><b>%2</b></td></tr>")
                  .arg(columns)
                  .arg(esc(r.group));
    }
    group = r.group;
    html += QStringLiteral("<tr>");
    for (qsizetype c = 0; c < columns; ++c) html += QStringLiteral("<td>%1</td>").arg(esc(r.cells.value(c)));
    html += QStringLiteral("</tr>");
  }
  html += QStringLiteral("</tbody></table>");
  QStringList more;
  if (t.rows_left_out > 0) more << moreCountText(t.rows_left_out, QObject::tr("row"), QObject::tr("rows"));
  // Columns the table has beyond the chosen ones are the CSV export's business; columns chosen but
  // too many for the page are said.
  const auto columns_left_out = static_cast<int>(t.header.size() - columns);
  if (columns_left_out > 0) more << moreCountText(columns_left_out, QObject::tr("column"), QObject::tr("columns"));
  QString note = t.note;
  if (!more.isEmpty()) {
    if (!note.isEmpty()) note += QLatin1Char(' ');
    note += QObject::tr("%1 in the CSV export (File → Export CSV…).").arg(more.join(QObject::tr(" and ")));
  }
  if (!note.isEmpty()) html += QStringLiteral("<p style=\"font-size:8pt\"><i>%1</i></p>").arg(esc(note));
  return html;
}

/// The printable area of an A4 page with the report's margins, in the document's pixels.
QSizeF printableSize() {
  const QPageLayout layout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                           QMarginsF(kMarginMm, kMarginMm, kMarginMm, kMarginMm), QPageLayout::Millimeter);
  const QRectF inches = layout.paintRect(QPageLayout::Inch);
  return inches.size() * documentDpi();
}

/// The page (0-based) where the block `b` of `doc` starts.
int pageOf(const QTextDocument& doc, const QTextBlock& b) {
  return static_cast<int>(std::floor(doc.documentLayout()->blockBoundingRect(b).top() / doc.pageSize().height()));
}

/// The tables of `doc` that are the report's (their first row is one of `tables`' headers), in order,
/// each with its table.
std::vector<std::pair<QTextTable*, const ReportTable*>> reportTablesIn(const QTextDocument& doc,
                                                                       const std::vector<ReportTable>& tables) {
  std::vector<std::pair<QTextTable*, const ReportTable*>> out;
  std::size_t next = 0;
  for (QTextFrame* frame : doc.rootFrame()->childFrames()) {
    auto* table = qobject_cast<QTextTable*>(frame);
    if (table == nullptr || next >= tables.size()) continue;
    const ReportTable& t = tables[next];
    bool same = table->columns() >= 1 && !t.header.isEmpty();
    for (int c = 0; same && c < table->columns() && c < t.header.size(); ++c) {
      QTextCursor cursor = table->cellAt(0, c).firstCursorPosition();
      same = cursor.block().text() == t.header[c];
    }
    if (same) out.emplace_back(table, &tables[next++]);
  }
  return out;
}

}  // namespace

ReportContent reportOf(const AppView& view, const QString& view_title, const QString& now_utc, int max_rows) {
  ReportContent r;
  const QString summary = view.statusSummary();
  r.title = summary.isEmpty() ? view_title : view_title + QStringLiteral(" — ") + summary;
  r.date_utc = now_utc;
  const std::vector<CsvExport> exports = view.csvExports();
  if (!exports.empty()) r.inputs = reportInputs(exports.front().table);
  for (const auto& e : exports) {
    if (reportShowsTable(e)) {
      ReportTable t = reportTableOf(e, max_rows);
      // A table that shows what one before it shows (a run of one kernel: its configs twice) once.
      const bool again = std::any_of(r.tables.begin(), r.tables.end(), [&t](const ReportTable& before) {
        return before.header == t.header && before.rows.size() == t.rows.size() &&
               std::equal(before.rows.begin(), before.rows.end(), t.rows.begin(),
                          [](const auto& a, const auto& b) { return a.cells == b.cells; });
      });
      if (!t.rows.empty() && !again) r.tables.push_back(std::move(t));
    } else {
      r.csv_only << QObject::tr("%1 (%2 rows)").arg(e.title).arg(e.table.rows.size());
    }
  }
  r.text_html = view.reportText();
  for (PlotController* p : view.plotExports()) {
    if (p != nullptr) r.plots.emplace_back(p->title(), p->renderImage());
  }
  return r;
}

QString reportHtml(const ReportContent& report, const ReportHtmlOptions& options) {
  // The page's width is the browser's (HTML) or the printer's (PDF): no max-width, which the PDF's
  // layout would apply to every table.
  const QString family = options.browser_fonts ? QStringLiteral("font-family:sans-serif;") : QString();
  QString html = QStringLiteral(
                     "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>"
                     "<style>body{%2font-size:%3pt}h2{font-size:14pt}h3{font-size:12pt}table{font-size:%4pt}"
                     "th{background:#eee}</style>"
                     "</head><body>\n")
                     .arg(esc(report.title), family)
                     .arg(kBodyPointSize)
                     .arg(kTablePointSize);
  html += QStringLiteral("<h2>%1</h2>\n<p>Occupancy Explorer %2 · %3</p>\n")
              .arg(esc(report.title), esc(QStringLiteral(OCCX_VERSION)), esc(report.date_utc));
  if (!report.inputs.empty()) {
    html += QStringLiteral("<h3>%1</h3>\n<p>").arg(QObject::tr("Inputs"));
    QStringList lines;
    for (const auto& [k, v] : report.inputs) lines << QStringLiteral("<b>%1:</b> %2").arg(esc(k), esc(v));
    html += lines.join(QStringLiteral("<br>\n")) + QStringLiteral("</p>\n");
  }
  if (report.plots_in_text) {
    QString text = report.text_html;
    for (std::size_t i = 0; options.embed_images && i < report.plots.size(); ++i) {
      text.replace(QStringLiteral("src=\"plot%1.png\"").arg(i),
                   QStringLiteral("src=\"data:image/png;base64,%1\"")
                       .arg(QString::fromLatin1(pngBytes(report.plots[i].second).toBase64())));
    }
    html += text + QLatin1Char('\n');
  } else if (!report.text_html.isEmpty()) {
    html += QStringLiteral("<h3>%1</h3>\n%2\n").arg(QObject::tr("In words"), report.text_html);
  }
  for (std::size_t i = 0; !report.plots_in_text && i < report.plots.size(); ++i) {
    const auto& [title, image] = report.plots[i];
    const QString src = options.embed_images
                            ? QStringLiteral("data:image/png;base64,") + QString::fromLatin1(pngBytes(image).toBase64())
                            : QStringLiteral("plot%1.png").arg(i);
    // The image carries the plot's own title and subtitle. Half the rendered width: drawn at 2× for print.
    // Both sizes given: the PDF's layout does not keep the aspect ratio from a width alone.
    const int width = std::min(image.width() / 2, options.max_image_width);
    const int height = image.width() > 0 ? image.height() * width / image.width() : 0;
    html += QStringLiteral("<p><img src=\"%1\" width=\"%2\" height=\"%3\" alt=\"%4\"></p>\n")
                .arg(src)
                .arg(width)
                .arg(height)
                .arg(esc(title));
  }
  if (!report.tables.empty()) {
    html += QStringLiteral("<p><i>%1</i></p>\n")
                .arg(esc(QObject::tr("The tables show the columns a reader needs, and their first rows; the CSV export "
                                     "(File → Export CSV…) has every column and row.")));
  }
  for (std::size_t i = 0; i < report.tables.size(); ++i) {
    const auto& breaks = options.page_break_before_tables;
    const bool new_page = std::find(breaks.begin(), breaks.end(), i) != breaks.end();
    html += QStringLiteral("<h3%1>%2</h3>\n%3\n")
                .arg(new_page ? QStringLiteral(" style=\"page-break-before:always\"") : QString(),
                     esc(report.tables[i].title), tableHtml(report.tables[i], options));
  }
  if (!report.csv_only.isEmpty()) {
    html += QStringLiteral("<p><i>%1</i></p>\n")
                .arg(esc(QObject::tr("In the CSV export only (File → Export CSV…): %1; the plots above draw them.")
                             .arg(report.csv_only.join(QStringLiteral("; ")))));
  }
  return html + QStringLiteral("</body></html>\n");
}

namespace {

/// The report's document, its tables' header rows repeated on each page, the titles of the tables
/// in `breaks` (indices into report.tables) starting a page.
std::unique_ptr<QTextDocument> reportDocumentWith(const ReportContent& report, const std::vector<std::size_t>& breaks) {
  auto doc = std::make_unique<QTextDocument>();
  for (std::size_t i = 0; i < report.plots.size(); ++i) {
    doc->addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("plot%1.png").arg(i)), report.plots[i].second);
  }
  const QSizeF printable = printableSize();
  doc->setDefaultFont(reportFont(kBodyPointSize));
  doc->setDocumentMargin(0);
  doc->setPageSize(QSizeF(printable.width(), printable.height() - kFooterHeight));
  ReportHtmlOptions options;
  options.embed_images = false;
  options.max_image_width = static_cast<int>(printable.width());
  options.table_width = static_cast<int>(printable.width());
  options.browser_fonts = false;
  options.page_break_before_tables = breaks;
  doc->setHtml(reportHtml(report, options));
  for (const auto& [table, shown] : reportTablesIn(*doc, report.tables)) {
    QTextTableFormat format = table->format();
    format.setHeaderRowCount(1);
    table->setFormat(format);
  }
  return doc;
}

/// The index of the first report table of `doc` whose title is on another page than its first
/// rows; none when every title is with its table.
std::optional<std::size_t> titleAwayFromItsTable(const QTextDocument& doc, const ReportContent& report) {
  const auto tables = reportTablesIn(doc, report.tables);
  for (const auto& [table, shown] : tables) {
    const QTextBlock title = table->firstCursorPosition().block().previous();
    // The first row with data: under the header, and under a group's line when one leads.
    const bool group_first = table->rows() > 2 && table->cellAt(1, 0).columnSpan() == table->columns();
    const int first_row = std::min(group_first ? 2 : 1, table->rows() - 1);
    const QTextBlock row = table->cellAt(first_row, 0).firstCursorPosition().block();
    if (title.isValid() && pageOf(doc, title) != pageOf(doc, row))
      return static_cast<std::size_t>(shown - report.tables.data());
  }
  return std::nullopt;
}

}  // namespace

std::unique_ptr<QTextDocument> reportDocument(const ReportContent& report) {
  // A table whose first rows would start a page after its title takes the title with it: the
  // document is made again with a page break before that title (laid out afresh, not patched).
  std::vector<std::size_t> breaks;
  std::unique_ptr<QTextDocument> doc = reportDocumentWith(report, breaks);
  for (std::size_t round = 0; round < report.tables.size(); ++round) {
    const std::optional<std::size_t> away = titleAwayFromItsTable(*doc, report);
    if (!away || std::find(breaks.begin(), breaks.end(), *away) != breaks.end()) break;
    breaks.push_back(*away);
    doc = reportDocumentWith(report, breaks);
  }
  return doc;
}

void paintReportPage(const QTextDocument& doc, int index, const QString& footer, QPainter& painter, double page_width) {
  const QSizeF page = doc.pageSize();
  const double scale = page_width / page.width();
  painter.save();
  painter.scale(scale, scale);
  // As QTextDocument::print: the document moved up by the pages before, clipped to this one.
  painter.save();
  const QRectF view(0, index * page.height(), page.width(), page.height());
  painter.translate(0, -view.top());
  painter.setClipRect(view);
  QAbstractTextDocumentLayout::PaintContext context;
  context.clip = view;
  context.palette.setColor(QPalette::Text, Qt::black);
  doc.documentLayout()->draw(&painter, context);
  painter.restore();
  // In the document's pixels (a point size would be taken at the device's resolution, then scaled).
  QFont footer_font = reportFont(7.5);
  footer_font.setPixelSize(static_cast<int>(std::lround(7.5 * documentDpi() / 72.0)));
  painter.setFont(footer_font);
  painter.setPen(QColor(90, 90, 90));
  const QRectF band(0, page.height() + 4, page.width(), kFooterHeight - 4);
  painter.drawText(band, Qt::AlignLeft | Qt::AlignVCenter,
                   QFontMetricsF(painter.font()).elidedText(footer, Qt::ElideRight, page.width() * 0.8));
  painter.drawText(band, Qt::AlignRight | Qt::AlignVCenter,
                   QObject::tr("page %1 of %2").arg(index + 1).arg(doc.pageCount()));
  painter.restore();
}

Expected<std::size_t> writeReportHtml(const ReportContent& report, const QString& path) {
  const QByteArray bytes = reportHtml(report, ReportHtmlOptions{}).toUtf8();
  return writeFileAtomically(QFile::encodeName(path).toStdString(),
                             std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

Expected<std::size_t> writeReportPdf(const ReportContent& report, const QString& path) {
  // QPrinter writes to a named file: print into a scratch folder, check, then put it in place.
  QTemporaryDir scratch;
  if (!scratch.isValid()) return Error{"cannot create a temporary folder for " + path.toStdString()};
  const QString tmp = scratch.filePath(QStringLiteral("report.pdf"));
  const std::unique_ptr<QTextDocument> doc = reportDocument(report);
  QPrinter printer(QPrinter::HighResolution);
  printer.setOutputFormat(QPrinter::PdfFormat);
  printer.setOutputFileName(tmp);
  printer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                    QMarginsF(kMarginMm, kMarginMm, kMarginMm, kMarginMm), QPageLayout::Millimeter));
  printer.setDocName(report.title);
  printer.setCreator(QStringLiteral("Occupancy Explorer"));
  {
    QPainter painter(&printer);
    if (!painter.isActive()) return Error{"cannot write the report " + path.toStdString() + ": cannot start the PDF"};
    const double width = printer.pageLayout().paintRectPixels(printer.resolution()).width();
    const QString footer = report.title + QStringLiteral(" · ") + report.date_utc;
    for (int page = 0; page < doc->pageCount(); ++page) {
      if (page > 0) printer.newPage();
      paintReportPage(*doc, page, footer, painter, width);
    }
  }
  QFile rendered(tmp);
  if (!rendered.open(QIODevice::ReadOnly)) {
    return Error{"cannot write the report " + path.toStdString() + ": " + rendered.errorString().toStdString()};
  }
  const QByteArray bytes = rendered.readAll();
  if (!bytes.startsWith("%PDF") || !bytes.trimmed().endsWith("%%EOF")) {
    return Error{"cannot write the report " + path.toStdString() + ": the PDF stopped after " +
                 std::to_string(bytes.size()) + " bytes (is the disk full?) (previous file left unchanged)"};
  }
  return writeFileAtomically(QFile::encodeName(path).toStdString(),
                             std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

}  // namespace occx::ui
