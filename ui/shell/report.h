// File → Export report…: pages to hand out or attach to a review, from what the current view
// shows — a title with the GPU, the configuration and the date; the inputs under display names
// with units; the derivation or decisions in words; its plots; and each table the view exports as
// a person reads it (report_tables.h: chosen columns under display names with units, the first
// rows; the CSV export has them all). Written as a PDF (A4, a QTextDocument laid out at the page's
// width, fonts at their point size, each table's header row repeated on every page it continues
// onto, numbered pages) and an HTML twin with the plots embedded, each atomically (the previous
// file stays whole when a write fails).
#pragma once

#include <QImage>
#include <QString>
#include <QStringList>
#include <memory>
#include <utility>
#include <vector>

#include "core/base/expected.h"
#include "ui/shell/report_tables.h"
#include "ui/views/app_view.h"

class QPainter;
class QTextDocument;

namespace occx::ui {

/// What a report shows.
struct ReportContent {
  QString title;                                    ///< "Occupancy calculator — H100 SXM5 · 256 threads · …"
  QString date_utc;                                 ///< "2026-12-01 14:55 UTC"
  std::vector<std::pair<QString, QString>> inputs;  ///< display name (unit), value: none empty
  std::vector<ReportTable> tables;                  ///< as the report shows them (report_tables.h)
  QStringList csv_only;                             ///< tables left to the CSV export: "Impact curves (2085 rows)"
  QString text_html;                                ///< AppView::reportText
  std::vector<std::pair<QString, QImage>> plots;    ///< title, image (the plot's export: 900 × 560 at 2×)
  /// The text places the plots itself, each as <img src="plot<i>.png"> (a lesson's handout): the
  /// HTML twin embeds them there, and there is no "In words" heading and no plots after the text.
  bool plots_in_text = false;
};

/// Gathers the report of `view` (the tab titled `view_title`) as it is now; `now_utc` is the date
/// shown. Tables show at most `max_rows` rows each.
ReportContent reportOf(const AppView& view, const QString& view_title, const QString& now_utc, int max_rows = 25);

/// How reportHtml writes the page.
struct ReportHtmlOptions {
  bool embed_images = true;   ///< plots as PNG data URIs; else "plot<i>.png" (reportDocument's resource names)
  int max_image_width = 640;  ///< plots at most this wide (CSS pixels; the document's pixels in the PDF)
  int table_width = 680;      ///< the width the tables' column widths are computed for (same units)
  bool browser_fonts = true;  ///< a sans-serif font for browsers; off for the PDF (its default font)
  std::vector<std::size_t> page_break_before_tables;  ///< tables (indices) whose title starts a page
};

/// The report as one HTML page. Every table has a <thead> (its header row, repeated on each page
/// a printed table continues onto) and column widths from its content: a column is at least as
/// wide as its longest word, so no word is broken; spare width goes to the columns with the
/// longest texts. A table whose columns cannot fit `table_width` unbroken shows the ones that
/// fit, saying how many are left out.
QString reportHtml(const ReportContent& report, const ReportHtmlOptions& options);

/// The report laid out as the PDF prints it: pages of the A4 printable area (15 mm margins, less a
/// footer line) in the document's pixels, at the resolution the document's fonts are laid out at,
/// so 8 pt prints as 8 pt; the plots registered as resources; a table's title moved to the next
/// page with its table when the table's first rows would not be on the title's page.
std::unique_ptr<QTextDocument> reportDocument(const ReportContent& report);

/// Paints page `index` (0-based, < doc.pageCount()) of `doc` onto `painter`, whose device is
/// `page_width` device pixels wide, with the footer line ("title · page 2 of 5"): the PDF's pages
/// and, in tests and docs, PNG pages.
void paintReportPage(const QTextDocument& doc, int index, const QString& footer, QPainter& painter, double page_width);

/// Writes the HTML twin to `path` atomically. Returns the bytes written or an Error naming the file.
Expected<std::size_t> writeReportHtml(const ReportContent& report, const QString& path);
/// Writes the PDF (A4, portrait) to `path` atomically. Returns the bytes written or an Error naming
/// the file and the reason (a full disk shows as a PDF that stops before its end).
Expected<std::size_t> writeReportPdf(const ReportContent& report, const QString& path);

}  // namespace occx::ui
