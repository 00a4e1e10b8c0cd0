#include "ui/shell/report.h"

#include <QBuffer>
#include <QFile>
#include <QFileInfo>
#include <QMarginsF>
#include <QPageLayout>
#include <QPageSize>
#include <QPrinter>
#include <QTemporaryDir>
#include <QTextDocument>
#include <QUrl>

#include "core/base/atomic_file.h"
#include "occx_config.h"
#include "ui/models/text.h"
#include "ui/plots/plot_controller.h"

namespace occx::ui {

namespace {

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

QString tableHtml(const CsvTable& t, int max_rows, int max_columns) {
  const int columns = std::min(static_cast<int>(t.header.size()), max_columns);
  QString html = QStringLiteral("<table width=\"100%\" border=\"1\" cellspacing=\"0\" cellpadding=\"2\"><tr>");
  for (int c = 0; c < columns; ++c)
    html += QStringLiteral("<th>%1</th>").arg(esc(q(t.header[static_cast<std::size_t>(c)])));
  html += QStringLiteral("</tr>");
  const int rows = std::min(static_cast<int>(t.rows.size()), max_rows);
  for (int r = 0; r < rows; ++r) {
    html += QStringLiteral("<tr>");
    const auto& row = t.rows[static_cast<std::size_t>(r)];
    for (int c = 0; c < columns; ++c) {
      const QString cell = c < static_cast<int>(row.size()) ? q(row[static_cast<std::size_t>(c)]) : QString();
      html += QStringLiteral("<td>%1</td>").arg(esc(cell));
    }
    html += QStringLiteral("</tr>");
  }
  html += QStringLiteral("</table>");
  QStringList more;
  if (static_cast<int>(t.rows.size()) > rows)
    more << QObject::tr("%1 more rows").arg(static_cast<int>(t.rows.size()) - rows);
  if (static_cast<int>(t.header.size()) > columns) {
    more << QObject::tr("%1 more columns").arg(static_cast<int>(t.header.size()) - columns);
  }
  if (!more.isEmpty()) {
    html += QStringLiteral("<p><i>%1 in the CSV export (File → Export CSV…).</i></p>")
                .arg(esc(more.join(QStringLiteral(", "))));
  }
  return html;
}

}  // namespace

ReportContent reportOf(const AppView& view, const QString& view_title, const QString& now_utc) {
  ReportContent r;
  const QString summary = view.statusSummary();
  r.title = summary.isEmpty() ? view_title : view_title + QStringLiteral(" — ") + summary;
  r.date_utc = now_utc;
  r.tables = view.csvExports();
  if (!r.tables.empty()) {
    for (const auto& [k, v] : r.tables.front().table.meta) r.inputs.emplace_back(q(k), q(v));
  }
  r.text_html = view.reportText();
  for (PlotController* p : view.plotExports()) {
    if (p != nullptr) r.plots.emplace_back(p->title(), p->renderImage());
  }
  return r;
}

QString reportHtml(const ReportContent& report, bool embed_images, int max_rows, int max_columns, int max_image_width) {
  // The page's width is the browser's (HTML) or the printer's (PDF): no max-width, which the PDF's
  // layout would apply to every table.
  QString html = QStringLiteral(
                     "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>%1</title>"
                     "<style>body{font-family:sans-serif}table{font-size:8pt}th{background:#eee}</style>"
                     "</head><body>\n")
                     .arg(esc(report.title));
  html += QStringLiteral("<h2>%1</h2>\n<p>Occupancy Explorer %2 · %3</p>\n")
              .arg(esc(report.title), esc(QStringLiteral(OCCX_VERSION)), esc(report.date_utc));
  if (!report.inputs.empty()) {
    html += QStringLiteral("<h3>%1</h3>\n<table cellpadding=\"2\">").arg(QObject::tr("Inputs"));
    for (const auto& [k, v] : report.inputs)
      html += QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>").arg(esc(k), esc(v));
    html += QStringLiteral("</table>\n");
  }
  if (!report.text_html.isEmpty())
    html += QStringLiteral("<h3>%1</h3>\n%2\n").arg(QObject::tr("In words"), report.text_html);
  for (std::size_t i = 0; i < report.plots.size(); ++i) {
    const auto& [title, image] = report.plots[i];
    const QString src = embed_images
                            ? QStringLiteral("data:image/png;base64,") + QString::fromLatin1(pngBytes(image).toBase64())
                            : QStringLiteral("plot%1.png").arg(i);
    // The image carries the plot's own title and subtitle. Half the rendered width: drawn at 2× for print.
    // Both sizes given: the PDF's layout does not keep the aspect ratio from a width alone.
    const int width = std::min(image.width() / 2, max_image_width);
    const int height = image.width() > 0 ? image.height() * width / image.width() : 0;
    html += QStringLiteral("<p><img src=\"%1\" width=\"%2\" height=\"%3\" alt=\"%4\"></p>\n")
                .arg(src)
                .arg(width)
                .arg(height)
                .arg(esc(title));
  }
  for (const auto& t : report.tables) {
    html += QStringLiteral("<h3>%1</h3>\n%2\n").arg(esc(t.title), tableHtml(t.table, max_rows, max_columns));
  }
  return html + QStringLiteral("</body></html>\n");
}

Expected<std::size_t> writeReportHtml(const ReportContent& report, const QString& path) {
  const QByteArray bytes = reportHtml(report, /*embed_images=*/true).toUtf8();
  return writeFileAtomically(QFile::encodeName(path).toStdString(),
                             std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

Expected<std::size_t> writeReportPdf(const ReportContent& report, const QString& path) {
  // QPrinter writes to a named file: print into a scratch folder, check, then put it in place.
  QTemporaryDir scratch;
  if (!scratch.isValid()) return Error{"cannot create a temporary folder for " + path.toStdString()};
  const QString tmp = scratch.filePath(QStringLiteral("report.pdf"));
  QTextDocument doc;
  for (std::size_t i = 0; i < report.plots.size(); ++i) {
    doc.addResource(QTextDocument::ImageResource, QUrl(QStringLiteral("plot%1.png").arg(i)), report.plots[i].second);
  }
  QPrinter printer(QPrinter::HighResolution);
  printer.setOutputFormat(QPrinter::PdfFormat);
  printer.setOutputFileName(tmp);
  printer.setPageLayout(
      QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait, QMarginsF(15, 15, 15, 15), QPageLayout::Millimeter));
  // The document laid out in points on the printable area, so the plots fit its width.
  const QSizeF page = printer.pageLayout().paintRect(QPageLayout::Point).size();
  doc.setPageSize(page);
  doc.setHtml(reportHtml(report, /*embed_images=*/false, 25, 12, static_cast<int>(page.width()) - 20));
  printer.setDocName(report.title);
  printer.setCreator(QStringLiteral("Occupancy Explorer"));
  doc.print(&printer);
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
