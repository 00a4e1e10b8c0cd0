// The words of Help → About, Help → Manual and the status bar's backend line, and the window's
// keyboard shortcuts that the menus set and those texts list. Text only: no widgets.
#pragma once

#include <QKeySequence>
#include <QList>
#include <QString>

namespace occx {
class Backend;
}

namespace occx::ui {

/// File → Export CSV: Ctrl+S and Ctrl+E.
QList<QKeySequence> exportCsvKeys();
/// File → Export PNG: Ctrl+Shift+S.
QKeySequence exportPngKey();
/// File → Export report: Ctrl+P.
QKeySequence exportReportKey();
/// Help → Manual: F1.
QKeySequence helpKey();
/// Help → Lessons: F2.
QKeySequence lessonsKey();

/// The keyboard shortcuts of the menus, as the rows of an HTML table (keys this platform has no
/// binding for left out).
QString shortcutTableHtml();
/// Help → About: what needs a GPU and what does not, whether this program can compile kernels
/// (`can_compile`), and the keyboard shortcuts.
QString aboutHtml(bool can_compile);
/// The manual (resources/help/manual.html) with the shortcut table and `machine_html` filled in.
QString manualHtml(const QString& machine_html);
/// "GPU: NVIDIA H200 · NVRTC: available (NVRTC 13.0)", "GPU: none found (driver not installed) ·
/// NVRTC: available", "… · NVRTC: not in this build": what is here, in the status bar's words.
QString backendStatusLine(const Backend& backend);
/// What was found here, as an HTML list: each GPU of `backend` (nullptr: not asked) with its
/// driver, NVRTC, CUPTI, and `python_status` (empty: "checking…").
QString machineFactsHtml(const Backend* backend, const QString& python_status);

}  // namespace occx::ui
