// What a view in the main window can offer: CSV tables and plots to export, settings to remember,
// and a one-line summary for the status bar. A view is a QWidget that also derives from AppView;
// MainWindow finds it with dynamic_cast. Views without it simply have nothing to export.
#pragma once

#include <QString>
#include <string>
#include <vector>

#include "core/base/csv.h"
#include "core/base/expected.h"

class QLabel;
class QScrollArea;
class QSettings;
class QWidget;

namespace occx::ui {

class PlotController;

/// One table the view can export: shown as `title` in a chooser, saved as CSV.
struct CsvExport {
  QString title;           ///< "Result table"
  QString suggested_name;  ///< "occupancy-result.csv"
  CsvTable table;
};

class AppView {
 public:
  AppView() = default;
  AppView(const AppView&) = delete;
  AppView& operator=(const AppView&) = delete;
  virtual ~AppView() = default;

  /// Tables for File → Export CSV, built from the view's current state.
  [[nodiscard]] virtual std::vector<CsvExport> csvExports() const { return {}; }
  /// Plots for File → Export PNG / PDF (the controllers' titles name them).
  [[nodiscard]] virtual std::vector<PlotController*> plotExports() const { return {}; }
  /// Remembers the view's inputs; `settings` is already inside the view's own group.
  virtual void saveSettings(QSettings& /*settings*/) const {}
  /// Restores what saveSettings wrote; missing or out-of-range values keep the defaults.
  virtual void restoreSettings(QSettings& /*settings*/) {}
  /// The derivation or the decisions in words, as an HTML fragment, for File → Export report…;
  /// empty when the view's tables say it all.
  [[nodiscard]] virtual QString reportText() const { return {}; }
  /// One line for the status bar ("H100 SXM5 · 256 threads · occupancy 100 %"); empty for none.
  /// A view that is also a QObject may emit a `statusMessage(QString)` signal when it changes.
  [[nodiscard]] virtual QString statusSummary() const { return {}; }
};

/// Serialises `table` (core toCsv) and writes it to `path` atomically (core writeFileAtomically).
/// Returns the bytes written, or an Error naming the path and the reason.
Expected<std::size_t> writeCsvFile(const CsvTable& table, const QString& path);

/// The left-hand input panel every view shares: `content` in a frameless, vertically scrolling
/// area `min_width` … `max_width` pixels wide (max_width 0 = no maximum); under it, always in sight,
/// `footer` when given (the buttons that start the work, its progress and status: never below the
/// fold), and the place of the inline InputMessage (object name "inputMessage") for every
/// CheckedSpinBox in `content`: what was typed, the allowed range and the value kept (shown under
/// the box that refused it). Spin boxes, sliders and lists in `content` take the wheel only with
/// focus (guardWheelUnder).
QWidget* inputScrollArea(QWidget* content, int min_width, int max_width = 0, QWidget* footer = nullptr);

/// After a sweep's status line is set: appends "Damaged compile-cache entries found and recompiled:
/// N (hover for the files)." when `repairs` (CompileSweepResult::cache_repairs) is not empty, and
/// lists them in the label's tooltip (cleared when there are none).
void appendCacheRepairs(QLabel* status, const std::vector<std::string>& repairs);

}  // namespace occx::ui
