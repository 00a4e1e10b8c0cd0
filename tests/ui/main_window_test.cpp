// The main window: tabs, menus acting on the current view, exports, status bar, settings.
#include <gtest/gtest.h>

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextBrowser>

#include <QCheckBox>
#include "core/base/atomic_file.h"
#include "core/base/csv.h"

#include "tests/ui/ui_test_support.h"
#include "ui/jobs/live_sweep_job.h"
#include "ui/plots/occupancy_curve_plot.h"
#include "ui/shell/main_window.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/widgets/checked_spin_box.h"

namespace occx::ui {
namespace {

class MainWindowTest : public testing::Test {
 protected:
  void SetUp() override { QSettings().clear(); }
  void TearDown() override { QSettings().clear(); }
};

QStringList menuTitles(QMainWindow& w) {
  QStringList out;
  for (QAction* a : w.menuBar()->actions()) out << a->text();
  return out;
}

TEST_F(MainWindowTest, CalculatorIsTheFirstTabAndViewsCanBeAdded) {
  MainWindow w(testContext(offlineBackend(), false));
  EXPECT_EQ(w.windowTitle(), QStringLiteral("Occupancy Explorer"));
  EXPECT_EQ(menuTitles(w), (QStringList{QStringLiteral("&File"), QStringLiteral("&Help")}));
  ASSERT_EQ(w.tabs()->count(), 1);
  EXPECT_EQ(w.tabs()->widget(0), w.calculatorView());
  EXPECT_TRUE(w.exportCsvAction()->isEnabled());
  EXPECT_TRUE(w.exportPngAction()->isEnabled());
  EXPECT_TRUE(w.exportPdfAction()->isEnabled());

  auto* plain = new QWidget;
  w.addView(plain, QStringLiteral("Another view"));
  ASSERT_EQ(w.tabs()->count(), 2);
  w.tabs()->setCurrentIndex(1);
  // A view without AppView has nothing to export: actions off, and the export calls say so.
  EXPECT_FALSE(w.exportCsvAction()->isEnabled());
  EXPECT_FALSE(w.exportPdfAction()->isEnabled());
  QTemporaryDir dir;
  EXPECT_FALSE(w.exportCurrentCsv(0, dir.filePath(QStringLiteral("x.csv"))).isEmpty());
  EXPECT_FALSE(QFile::exists(dir.filePath(QStringLiteral("x.csv"))));
  w.tabs()->setCurrentIndex(0);
  EXPECT_TRUE(w.exportCsvAction()->isEnabled());
}

TEST_F(MainWindowTest, ExportsOfTheCurrentViewAndErrorsAsMessages) {
  MainWindow w(testContext(offlineBackend(), false));
  w.calculatorView()->registersSpin()->setValue(64);
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const QString csv = dir.filePath(QStringLiteral("result.csv"));
  EXPECT_EQ(w.exportCurrentCsv(0, csv), QString());
  auto text = readFile(QFile::encodeName(csv).toStdString());
  ASSERT_TRUE(text);
  auto table = parseCsv(*text);
  ASSERT_TRUE(table) << table.error();
  bool found = false;
  for (const auto& row : table->rows) {
    if (row[0] == "active_warps_per_sm") {
      EXPECT_EQ(row[1], "32");
      found = true;
    }
  }
  EXPECT_TRUE(found);

  const QString png = dir.filePath(QStringLiteral("registers.png"));
  EXPECT_EQ(w.exportCurrentPlot(1, png), QString());
  EXPECT_FALSE(QImage(png).isNull());
  EXPECT_TRUE(w.exportCurrentPlot(2, dir.filePath(QStringLiteral("smem.pdf"))).isEmpty());
  EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("smem.pdf"))));

  // Errors come back as text for the message box: bad index, unwritable path.
  EXPECT_TRUE(w.exportCurrentPlot(9, png).contains(QStringLiteral("allowed 0 … 5")));  // six plots
  const QString err = w.exportCurrentCsv(1, dir.filePath(QStringLiteral("nope/curves.csv")));
  EXPECT_TRUE(err.contains(QStringLiteral("nope/curves.csv"))) << err.toStdString();
}

TEST_F(MainWindowTest, StatusBarFollowsTheCalculator) {
  MainWindow w(testContext(offlineBackend(), false));
  auto* status = w.findChild<QLabel*>(QStringLiteral("viewStatus"));
  ASSERT_NE(status, nullptr);
  EXPECT_TRUE(status->text().contains(QStringLiteral("occupancy 100.0 % (64 of 64 warps)")))
      << status->text().toStdString();
  w.calculatorView()->registersSpin()->setValue(64);
  EXPECT_TRUE(status->text().contains(QStringLiteral("occupancy 50.0 % (32 of 64 warps), limited by registers")))
      << status->text().toStdString();
}

TEST_F(MainWindowTest, SettingsAreRememberedBetweenRuns) {
  {
    MainWindow w(testContext(offlineBackend(), true));
    ASSERT_TRUE(w.calculatorView()->deviceSelector()->setCurrentKey(QStringLiteral("cc:8.6")));
    w.calculatorView()->registersSpin()->setValue(64);
    w.addView(new QWidget, QStringLiteral("Second"));
    w.tabs()->setCurrentIndex(1);
    w.resize(1200, 800);
    w.saveSettings();
  }
  QSettings s;
  EXPECT_EQ(s.value(QStringLiteral("views/calculator/registersPerThread")).toInt(), 64);
  EXPECT_EQ(s.value(QStringLiteral("window/currentTab")).toString(), QStringLiteral("Second"));

  MainWindow again(testContext(offlineBackend(), true));
  EXPECT_EQ(again.calculatorView()->deviceSelector()->currentKey(), QStringLiteral("cc:8.6"));
  EXPECT_EQ(again.calculatorView()->registersSpin()->value(), 64);
  // CC 8.6, 64 registers: 32 warps fit the register file of 48 max → 4 blocks of 8 warps.
  EXPECT_EQ(again.calculatorView()->result().active_warps_per_sm, 32);
  EXPECT_EQ(again.size(), QSize(1200, 800));
  EXPECT_EQ(again.tabs()->currentIndex(), 0);
  again.addView(new QWidget, QStringLiteral("Second"));  // the remembered tab, once it exists
  EXPECT_EQ(again.tabs()->currentIndex(), 1);

  // Without settings: built-in defaults, nothing written.
  QSettings().clear();
  MainWindow fresh(testContext(offlineBackend(), false));
  EXPECT_EQ(fresh.calculatorView()->deviceSelector()->currentKey(), QStringLiteral("gpu:H100 SXM5"));
  fresh.saveSettings();
  EXPECT_TRUE(QSettings().allKeys().isEmpty());
}

TEST_F(MainWindowTest, SettingsUnderTheOldViewNamesArriveInTheRenamedViews) {
  {
    // As an earlier version left them: groups named after the views' old object names, the current
    // tab by its old title.
    QSettings s;
    s.setValue(QStringLiteral("views/kernel/sms"), 77);
    s.setValue(QStringLiteral("views/kernel/maxrregcount"), 128);
    s.setValue(QStringLiteral("views/kernel/threads"), 9);
    s.setValue(QStringLiteral("views/kernel/lastCsvFolder"), QStringLiteral("/data/sweeps"));
    s.setValue(QStringLiteral("views/live/cupti"), true);
    s.setValue(QStringLiteral("views/rblock/xnumel"), 12345);
    s.setValue(QStringLiteral("window/currentTab"), QStringLiteral("Live runs"));
    // Already written under the new name (by this version): it stays.
    s.setValue(QStringLiteral("views/compileSweep/threads"), 3);
  }
  MainWindow w(testContext(offlineBackend(), true));
  auto* rblock = new RblockScalingView(testContext());
  auto* compile = new CompileSweepView(testContext(compileBackend({})));
  auto* live = new LiveSweepView(testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("test"), {}})));
  w.addView(rblock, QStringLiteral("RBLOCK scaling"));
  w.addView(compile, QStringLiteral("Compile sweep (NVRTC)"));
  w.addView(live, QStringLiteral("Live sweep"));
  EXPECT_EQ(compile->smCountSpin()->value(), 77);
  EXPECT_EQ(compile->maxrregcountSpin()->value(), 128);
  EXPECT_EQ(compile->threadsSpin()->value(), 3);
  EXPECT_TRUE(live->cuptiCheck()->isChecked());
  EXPECT_EQ(rblock->inputs().xnumel, 12345);
  EXPECT_EQ(w.tabs()->currentWidget(), live);

  QSettings s;
  EXPECT_EQ(s.value(QStringLiteral("views/compileSweep/lastCsvFolder")).toString(), QStringLiteral("/data/sweeps"));
  EXPECT_EQ(s.value(QStringLiteral("window/currentTab")).toString(), QStringLiteral("Live sweep"));
  for (const char* old : {"views/kernel", "views/live", "views/rblock"}) {
    s.beginGroup(QLatin1String(old));
    EXPECT_TRUE(s.allKeys().isEmpty()) << old;
    s.endGroup();
  }
  // Once: a second start finds nothing to move.
  EXPECT_EQ(MainWindow::migrateSettings(s), 0);
  // And what the renamed views save goes under their new names.
  w.saveSettings();
  QSettings after;
  EXPECT_EQ(after.value(QStringLiteral("views/compileSweep/sms")).toInt(), 77);
  EXPECT_TRUE(after.value(QStringLiteral("views/liveSweep/cupti")).toBool());
  EXPECT_EQ(after.value(QStringLiteral("views/rblockScaling/xnumel")).toLongLong(), 12345);
  EXPECT_FALSE(after.contains(QStringLiteral("views/kernel/sms")));
}

TEST_F(MainWindowTest, AboutSaysWhatNeedsAGpu) {
  const QString about = MainWindow::aboutText();
  EXPECT_TRUE(about.contains(QStringLiteral("Works without a GPU:")));
  EXPECT_TRUE(about.contains(QStringLiteral("Needs an NVIDIA GPU and driver:")));
  EXPECT_TRUE(about.contains(QStringLiteral("Needs the CUDA Toolkit (no GPU):")));
}

// ---- shortcuts from any widget of the window ------------------------------------------------------

/// What the menu actions asked, answered without dialogs: the first table or plot, the suggested
/// file name in `folder`.
struct Answers {
  QStringList asked;    ///< captions of choose and save_path, in order
  QStringList written;  ///< the paths save_path answered
  QString informed;     ///< the last text shown by inform
  QString warned;
};

MainWindow::Prompts answering(const QString& folder, Answers* answers) {
  MainWindow::Prompts p;
  p.choose = [answers](const QString& caption, const QString&, const QStringList& items) {
    answers->asked << caption;
    return items.isEmpty() ? -1 : 0;
  };
  p.save_path = [folder, answers](const QString& caption, const QString& suggested, const QString&) {
    answers->asked << caption;
    const QString path = QDir(folder).filePath(QFileInfo(suggested).fileName());
    answers->written << path;
    return path;
  };
  p.inform = [answers](const QString&, const QString& text) { answers->informed = text; };
  p.warn = [answers](const QString&, const QString& text) { answers->warned = text; };
  return p;
}

/// Shows `w` as the active window with the focus in `box`, as when the user has clicked into it.
bool focusNumberBox(MainWindow& w, QSpinBox* box) {
  w.show();
  QApplication::setActiveWindow(&w);
  if (!QTest::qWaitForWindowActive(&w)) return false;
  box->setFocus(Qt::MouseFocusReason);
  return QTest::qWaitFor([box] { return box->hasFocus(); }, 2000) && QApplication::focusWidget() == box;
}

// Claims Ctrl+E through ShortcutOverride the way a QLineEdit does where the key bindings make
// Ctrl+E "end of line" (the X11, KDE and GNOME schemes; the off-screen test platform has Windows'
// bindings, where it is no line-edit key).
class ClaimsCtrlE : public QObject {
 public:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::ShortcutOverride) {
      const auto* key = static_cast<QKeyEvent*>(event);
      if (key->key() == Qt::Key_E && key->modifiers() == Qt::ControlModifier) {
        event->accept();
        ++claimed;
        return true;
      }
    }
    return QObject::eventFilter(watched, event);
  }
  int claimed = 0;
};

TEST_F(MainWindowTest, MenuShortcutsFireFromAFocusedNumberBox) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow w(testContext(offlineBackend(), false));
  Answers answers;
  w.setPrompts(answering(dir.path(), &answers));
  // As main() adds it: File → Open Inductor run… on the standard Open key.
  auto* open = new QAction(QStringLiteral("Open Inductor run…"), &w);
  open->setShortcut(QKeySequence::Open);
  w.addOpenAction(open);
  QSpinBox* box = w.calculatorView()->threadsSpin();
  ASSERT_TRUE(focusNumberBox(w, box));
  const QString text = box->text();

  struct Case {
    const char* name;
    QAction* action;
    Qt::Key key;
    Qt::KeyboardModifiers modifiers;
  };
  const Case cases[] = {
      {"Ctrl+S", w.exportCsvAction(), Qt::Key_S, Qt::ControlModifier},
      {"Ctrl+E", w.exportCsvAction(), Qt::Key_E, Qt::ControlModifier},
      {"Ctrl+Shift+S", w.exportPngAction(), Qt::Key_S, Qt::ControlModifier | Qt::ShiftModifier},
      {"Ctrl+O", open, Qt::Key_O, Qt::ControlModifier},
      {"F1", w.manualAction(), Qt::Key_F1, Qt::NoModifier},
  };
  for (const Case& c : cases) {
    QSignalSpy triggered(c.action, &QAction::triggered);
    QTest::keyClick(box, c.key, c.modifiers);
    EXPECT_EQ(triggered.count(), 1) << c.name << " did not trigger " << c.action->text().toStdString();
  }
  // The actions did their work: both CSV keys asked for a table and wrote it, Ctrl+Shift+S wrote a
  // PNG, F1 showed the help with the shortcuts; the keys did not go into the box.
  EXPECT_EQ(answers.asked,
            (QStringList{QStringLiteral("Export CSV"), QStringLiteral("Export CSV"), QStringLiteral("Export CSV"),
                         QStringLiteral("Export CSV"), QStringLiteral("Export PNG"), QStringLiteral("Export PNG")}));
  ASSERT_EQ(answers.written.size(), 3);
  EXPECT_TRUE(QFileInfo(answers.written[0]).fileName() == QStringLiteral("occupancy-result.csv"));
  EXPECT_TRUE(QFile::exists(answers.written[0]));
  const QImage png(answers.written[2]);
  ASSERT_FALSE(png.isNull()) << answers.written[2].toStdString();
  EXPECT_EQ(png.width(), 1800);  // the export's own size (900 × 560 at 2×), taller by its subtitle
  EXPECT_GT(png.height(), 1120);
  auto* manual = w.findChild<QTextBrowser*>(QStringLiteral("manualBrowser"));
  ASSERT_NE(manual, nullptr);
  EXPECT_TRUE(manual->toPlainText().contains(QStringLiteral("Keyboard shortcuts")))
      << manual->toPlainText().toStdString();
  manual->window()->close();
  EXPECT_TRUE(answers.warned.isEmpty()) << answers.warned.toStdString();
  EXPECT_EQ(box->text(), text);
  EXPECT_TRUE(box->hasFocus());
  // Keys that are no shortcut of the window still reach the box.
  box->selectAll();
  QTest::keyClicks(box, QStringLiteral("128"));
  QTest::keyClick(box, Qt::Key_Return);  // a typed number takes effect when editing ends
  EXPECT_EQ(box->value(), 128);
}

TEST_F(MainWindowTest, AShortcutTheNumberBoxWouldClaimStillFires) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow w(testContext(offlineBackend(), false));
  Answers answers;
  w.setPrompts(answering(dir.path(), &answers));
  QSpinBox* box = w.calculatorView()->registersSpin();
  ASSERT_TRUE(focusNumberBox(w, box));

  // Ctrl+E where it means "end of line" to a line edit.
  ClaimsCtrlE claims;
  box->installEventFilter(&claims);
  QSignalSpy csv(w.exportCsvAction(), &QAction::triggered);
  QTest::keyClick(box, Qt::Key_E, Qt::ControlModifier);
  EXPECT_EQ(csv.count(), 1);
  EXPECT_EQ(claims.claimed, 0);  // the box was not asked
  EXPECT_EQ(answers.written.size(), 1);
  box->removeEventFilter(&claims);

  // Ctrl+A is "select all" to a line edit in every key scheme: a window action on it fires too.
  auto* action = new QAction(QStringLiteral("Window action on Ctrl+A"), &w);
  action->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_A));
  w.addAction(action);
  QSignalSpy fired(action, &QAction::triggered);
  QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
  EXPECT_EQ(fired.count(), 1);
  // Not once it is disabled: then the key is the box's again.
  action->setEnabled(false);
  auto* edit = box->findChild<QLineEdit*>();
  ASSERT_NE(edit, nullptr);
  edit->deselect();
  QTest::keyClick(box, Qt::Key_A, Qt::ControlModifier);
  EXPECT_EQ(fired.count(), 1);
  EXPECT_EQ(edit->selectedText(), box->text());
}

TEST_F(MainWindowTest, TheShortcutsAreInTheAboutText) {
  const QString about = MainWindow::aboutText();
  for (const QKeySequence& key :
       {QKeySequence(Qt::CTRL | Qt::Key_S), QKeySequence(Qt::CTRL | Qt::Key_E),
        QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S), QKeySequence(QKeySequence::Open), QKeySequence(Qt::Key_F1)}) {
    EXPECT_TRUE(about.contains(QStringLiteral("<b>%1</b>").arg(key.toString(QKeySequence::NativeText))))
        << key.toString().toStdString();
  }
  MainWindow w(testContext(offlineBackend(), false));
  EXPECT_EQ(w.exportCsvAction()->shortcuts(),
            (QList<QKeySequence>{QKeySequence(Qt::CTRL | Qt::Key_S), QKeySequence(Qt::CTRL | Qt::Key_E)}));
  EXPECT_EQ(w.exportPngAction()->shortcut(), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
  EXPECT_EQ(w.manualAction()->shortcut(), QKeySequence(Qt::Key_F1));
}

TEST_F(MainWindowTest, TheManualSaysWhatEachViewAnswersAndWhatIsHere) {
  MainWindow w(testContext(offlineBackend(), false));
  const auto backend =
      liveBackend({}, LiveAvailability{false, QStringLiteral("No NVIDIA driver: libcuda.so.1 not found"), {}});
  w.showBackend(*backend);
  const QString facts = w.machineFacts();
  EXPECT_TRUE(facts.contains(QStringLiteral("<b>GPU:</b> none found: "))) << facts.toStdString();
  EXPECT_TRUE(facts.contains(QStringLiteral("<b>CUPTI:</b> not available: this build cannot tell")))
      << facts.toStdString();
  EXPECT_TRUE(facts.contains(QStringLiteral("<b>Python with PyTorch and Triton:</b> checking…")));
  const QString manual = MainWindow::manualText(facts);
  for (const char* part : {"Occupancy calculator", "RBLOCK scaling", "Inductor run", "Compile sweep (NVRTC)",
                           "Live sweep", "occx gpus", "cuda_occupancy.h", "Keyboard shortcuts", "Found on this machine",
                           // The glossary: the words tables and plots use.
                           "Words used here", "R0_BLOCK (RBLOCK)", "X1 R512 w8", "review_min", "Regret", "Spread",
                           "Device time (cold, warm)", "DRAM bandwidth", "in-step time", "Size hints"}) {
    EXPECT_TRUE(manual.contains(QLatin1String(part))) << part;
  }
  EXPECT_FALSE(manual.contains(QStringLiteral("{{")));  // every placeholder filled
  EXPECT_TRUE(
      manual.contains(QStringLiteral("<b>%1</b>").arg(QKeySequence(Qt::Key_F1).toString(QKeySequence::NativeText))));
  // The probe answers in the background: python3 with both packages, without them, or none at all.
  w.manualAction()->trigger();
  auto* browser = w.findChild<QTextBrowser*>(QStringLiteral("manualBrowser"));
  ASSERT_NE(browser, nullptr);
  ASSERT_TRUE(waitFor([&] { return !w.machineFacts().contains(QStringLiteral("checking…")); }, 35000));
  const QString answered = w.machineFacts();
  EXPECT_TRUE(answered.contains(QStringLiteral("(PyTorch ")) ||
              answered.contains(QStringLiteral("cannot import both")) ||
              answered.contains(QStringLiteral("cannot be started")))
      << answered.toStdString();
  EXPECT_TRUE(browser->toPlainText().contains(QStringLiteral("Python with PyTorch and Triton")));
  browser->window()->close();
}

// ---- the inline input message and exports -----------------------------------------------------------

TEST_F(MainWindowTest, ASuccessfulExportEndsAnInputMessageWhoseBoxHoldsAValue) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow w(testContext(offlineBackend(), false));
  auto* threads = qobject_cast<CheckedSpinBox*>(w.calculatorView()->threadsSpin());
  ASSERT_NE(threads, nullptr);
  auto* message = w.calculatorView()->findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_NE(message, nullptr);
  threads->selectAll();
  QTest::keyClicks(threads, QStringLiteral("2000"));
  // While the box still shows what it refused, an export leaves the message.
  ASSERT_FALSE(message->isHidden());
  EXPECT_EQ(w.exportCurrentCsv(0, dir.filePath(QStringLiteral("a.csv"))), QString());
  EXPECT_FALSE(message->isHidden());
  // Editing ended (the box went back to 256, its value before the edit); the export is of that,
  // and the message goes.
  QTest::keyClick(threads, Qt::Key_Return);
  ASSERT_FALSE(message->isHidden());
  EXPECT_EQ(threads->value(), 256);
  EXPECT_EQ(w.exportCurrentPlot(0, dir.filePath(QStringLiteral("b.png"))), QString());
  EXPECT_TRUE(message->isHidden());
  // A failed export leaves a message in place.
  threads->selectAll();
  QTest::keyClicks(threads, QStringLiteral("0"));
  QTest::keyClick(threads, Qt::Key_Return);
  ASSERT_FALSE(message->isHidden());
  EXPECT_FALSE(w.exportCurrentCsv(0, dir.filePath(QStringLiteral("no/such/folder.csv"))).isEmpty());
  EXPECT_FALSE(message->isHidden());
  EXPECT_EQ(w.exportCurrentCsv(0, dir.filePath(QStringLiteral("c.csv"))), QString());
  EXPECT_TRUE(message->isHidden());
}

}  // namespace
}  // namespace occx::ui

namespace occx::ui {
namespace {

// The status bar says what is there (a GPU, NVRTC), not a build flag: "CUDA support: on" read as
// "GPU present" on a machine without one.
TEST(MainWindowBackend, StatusBarSaysWhatIsHere) {
  FakeBackend none;
  none.compile = [](const CompileRequest&) -> Expected<CompileResult> { return Error{"unused"}; };
  none.compiler_version = "NVRTC 13.0";
  none.live = {false, "No NVIDIA driver: libcuda.so.1 cannot be loaded: cannot open shared object file"};
  EXPECT_EQ(MainWindow::backendStatusText(none),
            QStringLiteral("GPU: none found (driver not installed) · NVRTC: available (NVRTC 13.0)"));

  FakeBackend h200 = {};
  h200.live = {true, {}};
  DeviceInfo d;
  d.name = "NVIDIA H200";
  h200.gpus.push_back(d);
  EXPECT_EQ(MainWindow::backendStatusText(h200), QStringLiteral("GPU: NVIDIA H200 · NVRTC: not in this build"));

  FakeBackend empty;
  empty.live = {false, "The NVIDIA driver is loaded but sees no GPU."};
  EXPECT_EQ(MainWindow::backendStatusText(empty),
            QStringLiteral("GPU: none found (the driver sees no GPU) · NVRTC: not in this build"));

  MainWindow window(testContext(offlineBackend(), false));
  window.showBackend(none);
  auto* label = window.findChild<QLabel*>(QStringLiteral("backendStatus"));
  ASSERT_NE(label, nullptr);
  EXPECT_FALSE(label->text().contains(QStringLiteral("CUDA support")));
  EXPECT_TRUE(label->text().startsWith(QStringLiteral("GPU: none found")));
}

}  // namespace
}  // namespace occx::ui
