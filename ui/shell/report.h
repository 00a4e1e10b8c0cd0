// File → Export report…: one page to hand out or attach to a review, from what the current view
// shows — a title with the GPU, the configuration and the date; the inputs (the metadata of the
// view's first table); the derivation or decisions in words; its plots; and each table the view
// exports (the first rows and columns: the CSV export has them all). Written as a PDF (QTextDocument through QPrinter,
// A4) and an HTML twin with the plots embedded, each atomically (the previous file stays whole when a write fails).
#pragma once

#include <QImage>
#include <QString>
#include <utility>
#include <vector>

#include "core/base/expected.h"
#include "ui/views/app_view.h"

namespace occx::ui {

/// What a report shows.
struct ReportContent {
  QString title;                                    ///< "Occupancy calculator — H100 SXM5 · 256 threads · …"
  QString date_utc;                                 ///< "2026-12-01 14:55 UTC"
  std::vector<std::pair<QString, QString>> inputs;  ///< key, value
  std::vector<CsvExport> tables;
  QString text_html;                              ///< AppView::reportText
  std::vector<std::pair<QString, QImage>> plots;  ///< title, image (2× the widget)
};

/// Gathers the report of `view` (the tab titled `view_title`) as it is now; `now_utc` is the date
/// shown.
ReportContent reportOf(const AppView& view, const QString& view_title, const QString& now_utc);

/// The report as one HTML page. Tables show their first `max_rows` rows and `max_columns`
/// columns (the CSV export has all); plots are embedded as PNG data URIs when `embed_images`, else
/// referenced as "plot<i>.png" (the names writeReportPdf registers), at most `max_image_width`
/// pixels (points, in the PDF) wide.
QString reportHtml(const ReportContent& report, bool embed_images, int max_rows = 25, int max_columns = 12,
                   int max_image_width = 640);

/// Writes the HTML twin to `path` atomically. Returns the bytes written or an Error naming the file.
Expected<std::size_t> writeReportHtml(const ReportContent& report, const QString& path);
/// Writes the PDF (A4, portrait) to `path` atomically. Returns the bytes written or an Error naming
/// the file and the reason (a full disk shows as a PDF that stops before its end).
Expected<std::size_t> writeReportPdf(const ReportContent& report, const QString& path);

}  // namespace occx::ui
