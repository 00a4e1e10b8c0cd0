// The main window: one tab per view (the calculator first), File → Export CSV / PNG / PDF for the
// current view, Help → About, a status bar, and settings remembered between runs (QSettings,
// organisation "OccupancyExplorer"). The menus' shortcuts work from every widget of the window,
// number boxes included (a line edit would take Ctrl+E as "end of line").
#pragma once

#include <QMainWindow>
#include <QStringList>

#include <QString>
#include <functional>
#include "core/sweep/backend.h"
#include "ui/views/view_context.h"

class QAction;
class QKeyEvent;
class QLabel;
class QMenu;
class QSettings;
class QTabWidget;

namespace occx::ui {

class AppView;
class CalculatorView;
class ElidedLabel;
class ManualDialog;

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  /// What the menu actions ask and tell the user. The defaults are QInputDialog, QFileDialog and
  /// QMessageBox; tests answer without dialogs.
  struct Prompts {
    /// One of `items` (a table or a plot to export); -1 when cancelled.
    std::function<int(const QString& caption, const QString& label, const QStringList& items)> choose;
    /// The file to write, `suggested` in the last export folder; empty when cancelled.
    std::function<QString(const QString& caption, const QString& suggested, const QString& filter)> save_path;
    /// Shows `text` (rich text): Help → About.
    std::function<void(const QString& title, const QString& text)> inform;
    /// Shows an error message.
    std::function<void(const QString& title, const QString& text)> warn;
  };

  /// The window of the views that share `context` (its backend is shown in the status bar and About;
  /// with its useSettings() false nothing is read from or written to QSettings: reproducible
  /// screenshots, tests that want the built-in defaults). Makes the calculator, the first tab.
  explicit MainWindow(const ViewContext& context, QWidget* parent = nullptr);
  ~MainWindow() override;

  /// Adds a view as a new tab. A view that also derives from AppView gets export, settings (group
  /// "views/<objectName, or the title>") and status-bar support; a `statusMessage(QString)` signal,
  /// if it has one, feeds the status bar while its tab is current; a `fileError(QString)` signal
  /// (a file its own buttons opened could not be opened) goes to showFileError. If the tab that was current when
  /// the window last closed has this title, it becomes current again.
  void addView(QWidget* view, const QString& title);

  [[nodiscard]] CalculatorView* calculatorView() const { return calculator_; }
  [[nodiscard]] QTabWidget* tabs() const { return tabs_; }
  [[nodiscard]] QAction* exportCsvAction() const { return export_csv_; }
  [[nodiscard]] QAction* exportPngAction() const { return export_png_; }
  [[nodiscard]] QAction* exportPdfAction() const { return export_pdf_; }
  /// Help → About: what works without a GPU, and the keyboard shortcuts.
  [[nodiscard]] QAction* aboutAction() const { return about_; }
  /// Help → Manual (F1): manualText with this machine's facts, in a window of its own.
  [[nodiscard]] QAction* manualAction() const { return manual_; }

  /// Replaces the prompts; a member left empty keeps the default.
  void setPrompts(Prompts prompts);

  /// Writes CSV export `index` of the current view to `path` (atomically). Returns an empty string
  /// on success, else the message (also what the menu action shows in a message box).
  QString exportCurrentCsv(int index, const QString& path);
  /// Writes plot `index` of the current view to `path`, PNG or PDF by the suffix (atomically).
  QString exportCurrentPlot(int index, const QString& path);
  /// Writes the current view's report (ui/shell/report.h) to `pdf_path` (".pdf" added when missing)
  /// and its HTML twin beside it (same name, ".html"), each atomically. Returns an empty string on
  /// success, else the message naming the file.
  QString exportCurrentReport(const QString& pdf_path);
  [[nodiscard]] QAction* exportReportAction() const { return export_report_; }
  /// Something File → Export report… writes instead of the current view's report while it is
  /// active (Help → Lessons: the open lesson's handout).
  struct ReportSource {
    std::function<bool()> active;        ///< whether it replaces the view's report now
    std::function<QString()> file_name;  ///< the file name to suggest, e.g. "lesson-2-…-handout.pdf"
    std::function<QString(const QString&)>
        write;  ///< writes the PDF (path ending ".pdf") and its HTML twin; "" or the error
  };
  /// Sets the report source (one; a later call replaces it).
  void setReportSource(ReportSource source);

  /// Writes window geometry, the current tab and every AppView's settings: into a scratch copy that
  /// is read back and checked, then put in place atomically, so a failed write (a full disk) keeps
  /// the previous settings file whole. Returns an empty string on success, else the message naming
  /// the file and the reason (closing the window prints it to stderr).
  QString saveSettings() const;

  /// Moves settings that earlier versions wrote under the views' old names ("views/kernel",
  /// "views/live", "views/rblock", the old tab titles as the current tab) to the current names, and
  /// removes the old groups, so each is moved once. A key already present under the new name is kept.
  /// Called on start when settings are used. Returns how many values moved.
  static int migrateSettings(QSettings& settings);

  /// The text of Help → About: what needs a GPU and what does not, whether this program can
  /// compile kernels (`can_compile`, from its Backend), and the keyboard shortcuts.
  [[nodiscard]] static QString aboutText(bool can_compile = false);
  /// The keyboard shortcuts of the menus, as the rows of an HTML table (part of aboutText).
  [[nodiscard]] static QString shortcutTable();
  /// The manual (resources/help/manual.html: what each view answers, the CLI, where the numbers come
  /// from) with the shortcut table and `machine_html` (machineFacts) filled in.
  [[nodiscard]] static QString manualText(const QString& machine_html);
  /// What was found here, as an HTML list: each GPU with its driver, NVRTC, CUPTI (from the Backend
  /// given to showBackend), and whether python3 imports torch and triton ("checking…" until the
  /// probe, started by the first showManual, has answered).
  [[nodiscard]] QString machineFacts() const;
  /// Opens (or raises) the manual window.
  void showManual();

  /// Adds `action` to the Help menu, after Manual (e.g. Help → Lessons).
  void addHelpAction(QAction* action);

  /// Adds `action` to the File menu's open group, at its end (above Export), e.g. "Open Inductor
  /// run…", then a submenu's action for "Open Recent".
  void addOpenAction(QAction* action);

  /// The status bar's words for what is here: "GPU: NVIDIA H200 · NVRTC: available (NVRTC 13.0)",
  /// "GPU: none found (driver not installed) · NVRTC: available", "… · NVRTC: not in this build".
  [[nodiscard]] static QString backendStatusText(const Backend& backend);
  /// Says in the status bar and in About what `backend` can do here (compile with NVRTC, run live).
  void showBackend(const Backend& backend);

 public slots:
  /// A file or folder the user chose (an Open button, a drop, Open Recent) could not be opened:
  /// `text` in a message box over the window (window-modal, not blocking; object name
  /// "fileErrorBox", one at a time) and in the status bar, where the user looks — the view's own
  /// status line may lie below the fold of its panel.
  void showFileError(const QString& text);

 signals:
  /// Files or folders were dropped on the window (local paths, in the order dropped).
  void pathsDropped(const QStringList& paths);

 protected:
  /// Installed on the application: a ShortcutOverride for one of this window's enabled actions,
  /// sent to a widget of this window, is kept from that widget (a QLineEdit claims Ctrl+E and
  /// the like), so the action fires.
  bool eventFilter(QObject* watched, QEvent* event) override;
  void closeEvent(QCloseEvent* event) override;
  void dragEnterEvent(QDragEnterEvent* event) override;
  void dropEvent(QDropEvent* event) override;

 private slots:
  void onViewStatus(const QString& text);

 private:
  void buildMenus();
  void restoreWindowSettings();
  void updateForCurrentView();
  /// Whether `event` (a key press) is the first key of an enabled action's shortcut, an action of
  /// the menu bar or of the window.
  [[nodiscard]] bool isWindowShortcut(const QKeyEvent& event) const;
  /// Shows `text` (an export's result) in the view's status line for 5 s, then the view's line again.
  void showTransientStatus(const QString& text);
  /// After a successful export: ends inline input messages whose boxes hold a value again.
  void clearSettledInputMessages();
  void exportCsvInteractive();
  void exportPlotInteractive(const QString& suffix);
  void exportReportInteractive();
  [[nodiscard]] AppView* currentAppView() const;
  [[nodiscard]] QString settingsGroupFor(QWidget* view, const QString& title) const;
  [[nodiscard]] QString askSavePath(const QString& caption, const QString& suggested, const QString& filter);

  ViewContext context_;  ///< keeps the backend the window shows alive
  bool use_settings_;
  QTabWidget* tabs_;
  CalculatorView* calculator_;
  ElidedLabel* cuda_label_ = nullptr;  ///< backendStatusText
  bool can_compile_ = false;
  ElidedLabel* view_status_;
  quint64 transient_status_ = 0;  ///< counts showTransientStatus calls (the latest restores the line)
  QMenu* file_menu_ = nullptr;
  QMenu* help_menu_ = nullptr;
  bool open_group_started_ = false;  ///< addOpenAction was called: the open group and its separator exist
  QAction* export_csv_ = nullptr;
  QAction* export_png_ = nullptr;
  QAction* export_pdf_ = nullptr;
  QAction* export_report_ = nullptr;
  QAction* about_ = nullptr;
  QAction* manual_ = nullptr;
  const Backend* backend_ = nullptr;       ///< showBackend's; main() keeps it alive longer than the window
  ManualDialog* manual_dialog_ = nullptr;  ///< Help → Manual, made on its first showing
  Prompts prompts_;
  ReportSource report_source_;
  QString pending_tab_;  ///< title of the tab to make current once it is added (from settings)
};

}  // namespace occx::ui
