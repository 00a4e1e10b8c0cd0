// The invalid-input matrix typed into the GUI: every number box of the four views refuses zero,
// negative, one-over, huge, non-numeric and empty text with an inline message that names the text as
// typed, the allowed range and the value kept; the box goes back to that value when editing ends.
// Inputs that can only be powers of two are lists, not boxes (nothing else can be typed), and bad
// CSV files opened in the sweep views give an inline message and keep the data already shown.
// Ranges come from resources/gpu_data.json (H100 SXM5 and H200: CC 9.0, 1024 threads per block,
// 255 registers per thread, 48 KB static and 232448 B opt-in shared memory per block).
#include <gtest/gtest.h>

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QLabel>
#include <QSlider>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>
#include <ostream>
#include <vector>

#include "tests/ui/ui_test_support.h"
#include "ui/models/compile_sweep_model.h"
#include "ui/models/live_sweep_model.h"
#include "ui/shell/main_window.h"
#include "ui/views/calculator_view.h"
#include "ui/views/compile_sweep_view.h"
#include "ui/views/live_sweep_view.h"
#include "ui/views/rblock_scaling_view.h"
#include "ui/views/sweep_inputs.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/device_selector.h"
#include "ui/widgets/spin_slider.h"

namespace occx::ui {
namespace {

enum class View { kCalculator, kRblock, kKernel, kLive };

std::unique_ptr<QWidget> makeView(View v) {
  switch (v) {
    case View::kCalculator:
      return std::make_unique<CalculatorView>(testContext());
    case View::kRblock:
      return std::make_unique<RblockScalingView>(testContext());
    case View::kKernel:
      return std::make_unique<CompileSweepView>(testContext(compileBackend({})));
    case View::kLive:
      return std::make_unique<LiveSweepView>(
          testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("no GPU (test)"), {}})));
  }
  return nullptr;
}

// Types `text` key by key, letting the event loop run between keys as a user's typing does (queued
// work from one key — a recompute, a plot update — runs before the next).
void typeKeys(QWidget* w, const QString& text) {
  for (const QChar ch : text) {
    QTest::keyClick(w, ch.toLatin1());
    QCoreApplication::processEvents();
  }
}

struct GuiCase {
  const char* name;
  View view;
  const char* box;      // object name of the CheckedSpinBox
  const char* typed;    // keys typed after selecting the whole text ("" = Backspace: no value)
  const char* message;  // the inline message, exactly
  int kept;             // the box's value after Return; -1: its value before the edit
};

// Hand-derived. A typed number takes effect when editing ends, so the value kept is the one the box
// had before the edit (the view's default, written out; kept -1), not a prefix of what was typed.
// "Kept @." (the kernel view's rnumel, which has no fixed default) stands for the box's text.
const std::vector<GuiCase>& guiCases() {
  static const std::vector<GuiCase> cases = {
      // Calculator, H100 SXM5 defaults: 256 threads, 32 registers, no shared memory, default carveout,
      // 1 barrier, grid not set.
      {"ThreadsZero", View::kCalculator, "threadsPerBlock", "0",
       "Threads per block: 0 is out of range; allowed 1 … 1024. Kept 256.", -1},
      {"ThreadsNegative", View::kCalculator, "threadsPerBlock", "-32",
       "Threads per block: -32 is out of range; allowed 1 … 1024. Kept 256.", -1},
      {"ThreadsHuge", View::kCalculator, "threadsPerBlock", "99999999999",
       "Threads per block: 99999999999 is out of range; allowed 1 … 1024. Kept 256.", -1},
      {"ThreadsNotANumber", View::kCalculator, "threadsPerBlock", "abc",
       "Threads per block: 'abc' is not a whole number; allowed 1 … 1024. Kept 256.", -1},
      {"ThreadsFraction", View::kCalculator, "threadsPerBlock", "12.5",
       "Threads per block: '12.5' is not a whole number; allowed 1 … 1024. Kept 256.", -1},
      {"ThreadsEmpty", View::kCalculator, "threadsPerBlock", "",
       "Threads per block: no value; allowed 1 … 1024. Kept 256.", -1},
      {"Registers256", View::kCalculator, "registersPerThread", "256",
       "Registers per thread: 256 is out of range; allowed 0 … 255. Kept 32.", -1},
      {"RegistersNegative", View::kCalculator, "registersPerThread", "-1",
       "Registers per thread: -1 is out of range; allowed 0 … 255. Kept 32.", -1},
      {"StaticSmemOneByteOver", View::kCalculator, "staticSharedMemory", "49153",
       "Static shared memory: 49153 is out of range; allowed 0 … 49152 B. Kept 0 B.", -1},
      {"DynamicSmemOneByteOver", View::kCalculator, "dynamicSharedMemory", "232449",
       "Dynamic shared memory: 232449 is out of range; allowed 0 … 232448 B. Kept 0 B.", -1},
      {"Carveout101", View::kCalculator, "carveout", "101",
       "Carveout preference: 101 is out of range; allowed 'default' or 0 … 100 %. Kept default.", -1},
      {"Barriers17", View::kCalculator, "blockBarriers", "17",
       "Block barriers: 17 is out of range; allowed 0 … 16. Kept 1.", -1},
      {"GridNegative", View::kCalculator, "gridBlocks", "-1",
       "Grid blocks: -1 is out of range; allowed 'not set' or 1 … 2147483647. Kept not set.", -1},
      {"ClusterSize9Portable", View::kCalculator, "clusterSize", "9",
       "Cluster size: 9 is out of range; allowed 'no clusters' or 1 … 8. Kept no clusters.", -1},
      {"GridBeyondInt", View::kCalculator, "gridBlocks", "99999999999",
       "Grid blocks: 99999999999 is out of range; allowed 'not set' or 1 … 2147483647. Kept not set.", -1},
      // RBLOCK-scaling view, its defaults: H200-class 132 SMs, xnumel 512, rnumel 8192, 38 registers, 0 spills.
      {"RblockSmsZero", View::kRblock, "smCount", "0",
       "SM count: 0 is out of range; allowed 1 … 1024 SMs. Kept 132 SMs.", -1},
      {"RblockXnumelZero", View::kRblock, "xnumel", "0", "xnumel: 0 is out of range; allowed 1 … 2147483647. Kept 512.",
       -1},
      {"RblockRnumelNotANumber", View::kRblock, "rnumel", "8k",
       "rnumel: '8k' is not a whole number; allowed 1 … 2147483647. Kept 8192.", -1},
      {"RblockRegisters256", View::kRblock, "nRegs", "256",
       "n_regs: 256 is out of range; allowed 1 … 255 regs. Kept 38 regs.", -1},
      {"RblockRegistersZero", View::kRblock, "nRegs", "0",
       "n_regs: 0 is out of range; allowed 1 … 255 regs. Kept 38 regs.", -1},
      {"RblockSpillsNegative", View::kRblock, "nSpills", "-1",
       "n_spills: -1 is out of range; allowed 0 … 1048576. Kept 0.", -1},
      {"RblockSharedOneByteOver", View::kRblock, "sharedBytes", "232449",
       "Shared memory: 232449 is out of range; allowed 0 … 232448 B. Kept 0 B.", -1},
      // Compile-sweep view: the shape boxes (default 32768 × 8192 is not assumed: xnumel 0 keeps the
      // typed-over value), the register cap and the parallel compiles.
      {"KernelXnumelZero", View::kKernel, "xnumel", "0", nullptr, -1},
      {"KernelRnumelHuge", View::kKernel, "rnumel", "99999999999",
       "rnumel: 99999999999 is out of range; allowed "
       "1 … 2147483647. Kept @.",
       -1},
      {"KernelMaxrregcount256", View::kKernel, "maxrregcount", "256",
       "maxrregcount: 256 is out of range; allowed 'none' or 1 … 255. Kept none.", -1},
      {"KernelCompileThreadsZero", View::kKernel, "compileThreads", "0", nullptr, -1},
      {"KernelSmsHuge", View::kKernel, "smCount", "5000", nullptr, -1},
      // The SM count was set with signals blocked (from the GPU data): Return must not end the message.
      {"KernelSmsZero", View::kKernel, "smCount", "0", nullptr, -1},
      // Live-sweep view: the same shape boxes in its own panel.
      {"LiveXnumelZero", View::kLive, "xnumel", "0", nullptr, -1},
      {"LiveRnumelNegative", View::kLive, "rnumel", "-8", nullptr, -1},
  };
  return cases;
}

void PrintTo(const GuiCase& c, std::ostream* os) {
  *os << c.name << " ('" << c.typed << "' into " << c.box << ")";
}

class GuiInvalidInput : public ::testing::TestWithParam<GuiCase> {};

TEST_P(GuiInvalidInput, ShowsAnInlineMessageAndKeepsAValue) {
  const GuiCase& c = GetParam();
  auto view = makeView(c.view);
  view->resize(1400, 900);
  view->show();  // a hidden spin box skips the text updates a shown one makes
  ASSERT_TRUE(QTest::qWaitForWindowExposed(view.get()));
  auto* box = view->findChild<CheckedSpinBox*>(QLatin1String(c.box));
  ASSERT_NE(box, nullptr) << "no number box named " << c.box;
  auto* message = view->findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_NE(message, nullptr);
  ASSERT_TRUE(box->isEnabled());
  EXPECT_TRUE(message->isHidden());
  const int before = box->value();
  const QString before_text = box->text();

  box->selectAll();
  if (*c.typed == '\0')
    QTest::keyClick(box, Qt::Key_Backspace);
  else
    typeKeys(box, QString::fromUtf8(c.typed));
  // What was typed stays on screen while editing, next to the message that names it.
  if (*c.typed != '\0') {
    EXPECT_EQ(box->text(), box->prefix() + QString::fromUtf8(c.typed) + box->suffix());  // select-all spares the unit
  }
  QTest::keyClick(box, Qt::Key_Return);

  ASSERT_FALSE(message->isHidden()) << c.name << ": no inline message";
  const int kept = c.kept >= 0 ? c.kept : before;
  const QString expected = c.message != nullptr ? QString::fromUtf8(c.message).replace(QLatin1Char('@'), before_text)
                                                : QStringLiteral("%1: %2 is out of range; allowed %3 … %4%5. Kept %6.")
                                                      .arg(box->quantity(), QString::fromUtf8(c.typed))
                                                      .arg(box->minimum() + (box->specialValueText().isEmpty() ? 0 : 1))
                                                      .arg(box->maximum())
                                                      .arg(box->suffix(), c.kept >= 0 ? box->text() : before_text);
  if (c.message == nullptr && !box->specialValueText().isEmpty()) {
    FAIL() << "derive the message of " << c.name << " by hand: the box has a special value";
  }
  EXPECT_EQ(message->text(), expected);
  // The message names the value as typed and the allowed range.
  if (*c.typed != '\0') {
    EXPECT_TRUE(message->text().contains(QString::fromUtf8(c.typed)));
  }
  EXPECT_TRUE(message->text().contains(QStringLiteral("allowed ")));
  // Editing ended: the box holds a value of its range again, the one the message says it kept.
  EXPECT_EQ(box->value(), kept);
  EXPECT_GE(box->value(), box->minimum());
  EXPECT_LE(box->value(), box->maximum());
  EXPECT_FALSE(box->text().isEmpty());
}

INSTANTIATE_TEST_SUITE_P(Matrix, GuiInvalidInput, ::testing::ValuesIn(guiCases()),
                         [](const ::testing::TestParamInfo<GuiCase>& i) { return std::string(i.param.name); });

TEST(GuiInvalidInputMatrix, CoversEveryNumberBoxOfEveryView) {
  // Each view's boxes, all of them named in the matrix at least once.
  for (View v : {View::kCalculator, View::kRblock, View::kKernel, View::kLive}) {
    auto view = makeView(v);
    for (const CheckedSpinBox* box : view->findChildren<CheckedSpinBox*>()) {
      bool covered = box->objectName() == QLatin1String("k");  // K: only for fused_k, tested below
      for (const GuiCase& c : guiCases())
        covered = covered || (c.view == v && box->objectName() == QLatin1String(c.box));
      EXPECT_TRUE(covered) << "view " << static_cast<int>(v) << ": box " << box->objectName().toStdString()
                           << " is not in the matrix";
    }
    // And every number box of the view is a checked one.
    for (const QSpinBox* box : view->findChildren<QSpinBox*>()) {
      EXPECT_NE(qobject_cast<const CheckedSpinBox*>(box), nullptr) << box->objectName().toStdString();
    }
  }
}

TEST(GuiInvalidInputMatrix, FusedInputsOverEightIsRefused) {
  CompileSweepView view(testContext(compileBackend({})));
  auto* workload = view.findChild<QComboBox*>(QStringLiteral("workload"));
  ASSERT_NE(workload, nullptr);
  workload->setCurrentIndex(workload->findData(static_cast<int>(Workload::kFusedK)));
  auto* k = view.findChild<CheckedSpinBox*>(QStringLiteral("k"));
  ASSERT_NE(k, nullptr);
  ASSERT_TRUE(k->isEnabled());
  const QString kept = k->text();
  k->selectAll();
  QTest::keyClicks(k, QStringLiteral("9"));
  QTest::keyClick(k, Qt::Key_Return);
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_FALSE(message->isHidden());
  EXPECT_EQ(message->text(), QStringLiteral("K (fused inputs): 9 is out of range; allowed 1 … 8. Kept %1.").arg(kept));
}

TEST(GuiInvalidInputMatrix, TheMessageStaysUntilTheBoxHasANewValue) {
  CalculatorView view{testContext()};
  auto* threads = view.findChild<CheckedSpinBox*>(QStringLiteral("threadsPerBlock"));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  threads->selectAll();
  // Typed digits are not applied one by one (2, 20, 200 on the way to 2000): the box keeps 256.
  QTest::keyClicks(threads, QStringLiteral("2000"));
  EXPECT_EQ(threads->value(), 256);
  ASSERT_FALSE(message->isHidden());
  EXPECT_EQ(message->text(), QStringLiteral("Threads per block: 2000 is out of range; allowed 1 … 1024. Kept 256."));
  QTest::keyClick(threads, Qt::Key_Return);
  ASSERT_FALSE(message->isHidden());
  EXPECT_EQ(threads->value(), 256);
  EXPECT_EQ(threads->text(), QStringLiteral("256"));
  EXPECT_EQ(view.result().warps_per_block, 8);  // the calculator shows the kept value
  // Return again leaves it (it re-announces the value kept).
  QTest::keyClick(threads, Qt::Key_Return);
  EXPECT_FALSE(message->isHidden());
  // A new value in the box itself (typed, or by the arrow key) ends it.
  QTest::keyClick(threads, Qt::Key_Up);
  EXPECT_EQ(threads->value(), 288);  // single step 32
  EXPECT_TRUE(message->isHidden());
  threads->selectAll();
  QTest::keyClicks(threads, QStringLiteral("0"));
  EXPECT_FALSE(message->isHidden());
  QTest::keyClick(threads, Qt::Key_Backspace);
  QTest::keyClicks(threads, QStringLiteral("64"));
  EXPECT_TRUE(message->isHidden());
  EXPECT_EQ(threads->value(), 288);  // applied when editing ends
  QTest::keyClick(threads, Qt::Key_Return);
  EXPECT_EQ(threads->value(), 64);
  EXPECT_EQ(view.result().warps_per_block, 2);
}

// Every typed value of the newcomer's report goes back to the value before the edit, not to a
// prefix of what was typed: 99999 registers, 1000000 B of dynamic shared memory.
TEST(GuiInvalidInputMatrix, ARefusedEntryGoesBackToTheValueBeforeTheEdit) {
  CalculatorView view{testContext()};
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  const struct {
    const char* box;
    const char* typed;
  } cases[] = {{"registersPerThread", "99999"}, {"dynamicSharedMemory", "1000000"}, {"threadsPerBlock", "2000"}};
  for (const auto& c : cases) {
    auto* box = view.findChild<CheckedSpinBox*>(QLatin1String(c.box));
    ASSERT_NE(box, nullptr) << c.box;
    const int before = box->value();
    box->selectAll();
    QTest::keyClicks(box, QLatin1String(c.typed));
    QTest::keyClick(box, Qt::Key_Return);
    EXPECT_EQ(box->value(), before) << c.box;
    ASSERT_FALSE(message->isHidden()) << c.box;
    EXPECT_TRUE(message->text().contains(QLatin1String(c.typed))) << message->text().toStdString();
  }
}

// The carveout's "default" (its special value) can be typed back, in any case; "def" alone is not
// a value yet and, when editing ends, the box goes back to what it had.
TEST(GuiInvalidInputMatrix, CarveoutDefaultCanBeTypedBack) {
  CalculatorView view{testContext()};
  auto* carveout = view.findChild<CheckedSpinBox*>(QStringLiteral("carveout"));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_NE(carveout, nullptr);
  carveout->setValue(50);
  carveout->selectAll();
  QTest::keyClicks(carveout, QStringLiteral("default"));
  EXPECT_EQ(carveout->text(), QStringLiteral("default"));
  QTest::keyClick(carveout, Qt::Key_Return);
  EXPECT_EQ(carveout->value(), carveout->minimum());
  EXPECT_EQ(carveout->text(), QStringLiteral("default"));
  EXPECT_TRUE(message->isHidden()) << message->text().toStdString();
  carveout->setValue(25);
  carveout->selectAll();
  QTest::keyClicks(carveout, QStringLiteral("Default"));
  QTest::keyClick(carveout, Qt::Key_Return);
  EXPECT_EQ(carveout->value(), carveout->minimum());
  carveout->setValue(25);
  carveout->selectAll();
  QTest::keyClicks(carveout, QStringLiteral("def"));
  QTest::keyClick(carveout, Qt::Key_Return);
  EXPECT_EQ(carveout->value(), 25);
}

// The wheel over a number box or its slider changes it only when the box has focus; otherwise the
// panel around it scrolls (the newcomer's carveout went from default to 9 % while scrolling).
TEST(GuiInvalidInputMatrix, TheWheelTurnsOnlyAFocusedBox) {
  CalculatorView view{testContext()};
  view.resize(900, 700);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  auto* carveout = view.findChild<CheckedSpinBox*>(QStringLiteral("carveout"));
  ASSERT_NE(carveout, nullptr);
  auto* slider = qobject_cast<SpinSlider*>(carveout->parentWidget())->slider();
  const int before = carveout->value();
  auto wheel = [](QWidget* w) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, 120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                  false);
    QApplication::sendEvent(w, &e);
    return e.isAccepted();
  };
  ASSERT_FALSE(carveout->hasFocus());
  EXPECT_FALSE(wheel(carveout));  // passed on to the panel
  EXPECT_FALSE(wheel(slider));
  EXPECT_EQ(carveout->value(), before);
  view.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&view));
  carveout->setFocus(Qt::MouseFocusReason);
  ASSERT_TRUE(QTest::qWaitFor([carveout] { return carveout->hasFocus(); }, 2000));
  wheel(carveout);
  EXPECT_EQ(carveout->value(), before + 1);
}

// The newcomer's case: an invalid value, then valid edits — in the same box, or in another once the
// box went back to its value — and the red message must go.
TEST(GuiInvalidInputMatrix, TheMessageGoesOnceItsBoxHoldsAValidValueAgain) {
  CalculatorView view{testContext()};
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  auto* threads = view.findChild<CheckedSpinBox*>(QStringLiteral("threadsPerBlock"));
  auto* regs = view.findChild<CheckedSpinBox*>(QStringLiteral("registersPerThread"));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  // Invalid, then a valid value typed into the same box.
  threads->selectAll();
  typeKeys(threads, QStringLiteral("0"));
  ASSERT_FALSE(message->isHidden());
  threads->selectAll();
  typeKeys(threads, QStringLiteral("128"));
  EXPECT_TRUE(message->isHidden());
  QTest::keyClick(threads, Qt::Key_Return);  // a typed value takes effect when editing ends
  EXPECT_EQ(threads->value(), 128);

  // Invalid, Return (the box goes back to its value), then a valid edit in another box.
  threads->selectAll();
  typeKeys(threads, QStringLiteral("2000"));
  QTest::keyClick(threads, Qt::Key_Return);
  ASSERT_FALSE(message->isHidden());
  regs->selectAll();
  typeKeys(regs, QStringLiteral("40"));
  EXPECT_TRUE(message->isHidden()) << message->text().toStdString();
  QTest::keyClick(regs, Qt::Key_Return);
  EXPECT_EQ(regs->value(), 40);

  // While the box still shows the text it refused, another box's edit leaves the message: it
  // stands next to that text.
  threads->selectAll();
  typeKeys(threads, QStringLiteral("5000"));
  ASSERT_FALSE(message->isHidden());
  const QString refused = message->text();
  regs->selectAll();
  typeKeys(regs, QStringLiteral("48"));
  EXPECT_FALSE(message->isHidden());
  EXPECT_EQ(message->text(), refused);
  // A refusal in another box replaces the message, and that box's valid value ends it.
  regs->selectAll();
  typeKeys(regs, QStringLiteral("300"));
  EXPECT_TRUE(message->text().startsWith(QStringLiteral("Registers per thread: 300"))) << message->text().toStdString();
  QTest::keyClick(regs, Qt::Key_Backspace);
  EXPECT_TRUE(message->isHidden());
  // A value set another way (the slider, a hand-over) counts as a valid edit too.
  threads->selectAll();
  typeKeys(threads, QStringLiteral("0"));
  QTest::keyClick(threads, Qt::Key_Return);
  ASSERT_FALSE(message->isHidden());
  regs->setValue(64);
  EXPECT_TRUE(message->isHidden());
}

// A typed number takes effect once, when editing ends: typing 2000 into the grid box (0 … INT_MAX)
// and Return gives 2000, with one new value announced (not 2, 20 and 200 on the way).
TEST(GuiTypedNumbers, TakeEffectOnceWhenEditingEnds) {
  CalculatorView view{testContext()};
  auto* grid = view.findChild<CheckedSpinBox*>(QStringLiteral("gridBlocks"));
  ASSERT_NE(grid, nullptr);
  grid->setValue(264);
  std::vector<int> announced;
  QObject::connect(grid, &QSpinBox::valueChanged, grid, [&announced](int v) { announced.push_back(v); });
  grid->selectAll();
  typeKeys(grid, QStringLiteral("2000"));
  EXPECT_TRUE(announced.empty());  // nothing applied while typing
  EXPECT_EQ(view.input().grid_blocks, 264);
  QTest::keyClick(grid, Qt::Key_Return);
  EXPECT_EQ(grid->value(), 2000);
  EXPECT_EQ(view.input().grid_blocks, 2000);
  EXPECT_EQ(announced, std::vector<int>{2000});
}

// The newcomer's cluster size: 16 without "non-portable" is out of range (1 … 8 portable); the box
// goes back to the size it had before the edit and says so, not to "1" typed on the way.
TEST(GuiTypedNumbers, ClusterSixteenWithoutNonPortableKeepsTheSizeBefore) {
  CalculatorView view{testContext()};
  auto* cluster = view.findChild<CheckedSpinBox*>(QStringLiteral("clusterSize"));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_NE(cluster, nullptr);
  cluster->setValue(4);
  cluster->selectAll();
  typeKeys(cluster, QStringLiteral("16"));
  QTest::keyClick(cluster, Qt::Key_Return);
  EXPECT_EQ(cluster->value(), 4);
  ASSERT_FALSE(message->isHidden());
  EXPECT_TRUE(message->text().contains(QStringLiteral("16 is out of range"))) << message->text().toStdString();
  EXPECT_TRUE(message->text().contains(QStringLiteral("Kept 4."))) << message->text().toStdString();
}

// Unticking "non-portable" under a cluster size of 16 clamps it to 8: said under the box, as a
// refusal is (a newcomer saw 16 turn into 8 silently).
TEST(GuiTypedNumbers, UntickingNonPortableSaysTheClusterSizeKept) {
  CalculatorView view{testContext()};
  view.deviceSelector()->setCurrentKey(QStringLiteral("gpu:H200"));
  auto* cluster = view.findChild<CheckedSpinBox*>(QStringLiteral("clusterSize"));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_NE(cluster, nullptr);
  view.nonPortableCheck()->setChecked(true);
  cluster->setValue(16);
  ASSERT_EQ(cluster->value(), 16);
  view.nonPortableCheck()->setChecked(false);
  EXPECT_EQ(cluster->value(), 8);
  ASSERT_FALSE(message->isHidden());
  EXPECT_EQ(message->text(),
            QStringLiteral("Cluster size 16 needs non-portable clusters: allowed 'no clusters' or 1 … 8. Kept 8."));
}

// Typing "default" into the carveout says nothing on the way ("d", "def"): no message moves the boxes
// below it while the word is typed.
TEST(GuiTypedNumbers, TypingDefaultShowsNoMessageOnTheWay) {
  CalculatorView view{testContext()};
  auto* carveout = view.findChild<CheckedSpinBox*>(QStringLiteral("carveout"));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_NE(carveout, nullptr);
  carveout->setValue(50);
  carveout->selectAll();
  for (const QString& part : {QStringLiteral("d"), QStringLiteral("ef"), QStringLiteral("ault")}) {
    typeKeys(carveout, part);
    EXPECT_TRUE(message->isHidden()) << part.toStdString() << ": " << message->text().toStdString();
  }
  QTest::keyClick(carveout, Qt::Key_Return);
  EXPECT_EQ(view.input().carveout_percent, -1);
  // A word that is not on the way to it is still refused.
  carveout->selectAll();
  typeKeys(carveout, QStringLiteral("x"));
  EXPECT_FALSE(message->isHidden());
}

// The carveout takes "-1" for its default too (as cudaFuncSetAttribute does), and shows "default".
TEST(GuiTypedNumbers, CarveoutTakesMinusOneAsDefault) {
  CalculatorView view{testContext()};
  auto* carveout = view.findChild<CheckedSpinBox*>(QStringLiteral("carveout"));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_NE(carveout, nullptr);
  carveout->setValue(50);
  carveout->selectAll();
  typeKeys(carveout, QStringLiteral("-1"));
  QTest::keyClick(carveout, Qt::Key_Return);
  EXPECT_EQ(carveout->value(), -1);
  EXPECT_EQ(carveout->text(), QStringLiteral("default"));
  EXPECT_EQ(view.input().carveout_percent, -1);
  EXPECT_TRUE(message->isHidden()) << message->text().toStdString();
}

// The message about a refused entry stands right under the box that refused it (the next row of
// its form), not at the foot of the panel; once the box holds a value it goes, and a refusal in
// another box moves it under that one.
TEST(GuiTypedNumbers, TheMessageStandsUnderTheBoxThatRefused) {
  CalculatorView view{testContext()};
  view.resize(1280, 720);
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_NE(message, nullptr);
  const struct {
    const char* box;
    const char* typed;
  } cases[] = {{"threadsPerBlock", "2000"}, {"carveout", "150"}, {"gridBlocks", "-5"}, {"clusterSize", "16"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.box);
    auto* box = view.findChild<CheckedSpinBox*>(QLatin1String(c.box));
    ASSERT_NE(box, nullptr);
    const int before = box->value();
    box->selectAll();
    typeKeys(box, QLatin1String(c.typed));
    QTest::keyClick(box, Qt::Key_Return);
    QApplication::processEvents();
    EXPECT_EQ(box->value(), before);
    ASSERT_TRUE(message->isVisible());
    const QRect b(box->mapTo(&view, QPoint(0, 0)), box->size());
    const QRect m(message->mapTo(&view, QPoint(0, 0)), message->size());
    EXPECT_GE(m.top(), b.bottom()) << "message at y " << m.top() << ", box ends at " << b.bottom();
    EXPECT_LE(m.top() - b.bottom(), 40) << "message at y " << m.top() << ", box ends at " << b.bottom();
    EXPECT_TRUE(m.intersects(QRect(b.left(), m.top(), b.width(), m.height())));  // under it, not beside
    EXPECT_FALSE(m.intersects(b));
    box->setValue(box->minimum() == before ? box->maximum() : box->minimum());  // a value: the message goes
    EXPECT_TRUE(message->isHidden());
  }
}

// The wheel over a list (a combo box) or a plain number box leaves it alone unless it has focus,
// in every view of the window; the event goes on to the panel.
TEST(GuiTypedNumbers, TheWheelLeavesUnfocusedListsAlone) {
  MainWindow window(testContext(offlineBackend(), false));
  window.addView(new RblockScalingView(testContext()), QStringLiteral("RBLOCK scaling"));
  window.resize(1280, 720);
  window.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&window));
  auto wheel = [](QWidget* w) {
    const QPointF at(w->width() / 2.0, w->height() / 2.0);
    QWheelEvent e(at, w->mapToGlobal(at), QPoint(), QPoint(0, -120), Qt::NoButton, Qt::NoModifier, Qt::NoScrollPhase,
                  false);
    QApplication::sendEvent(w, &e);
    return e.isAccepted();
  };
  CalculatorView* calc = window.calculatorView();
  QComboBox* device = calc->deviceSelector()->comboBox();
  QComboBox* measure = calc->yMeasureCombo();
  const int device_before = device->currentIndex();
  const int measure_before = measure->currentIndex();
  EXPECT_FALSE(device->hasFocus());
  EXPECT_FALSE(wheel(device));
  EXPECT_FALSE(wheel(measure));
  EXPECT_EQ(device->currentIndex(), device_before);
  EXPECT_EQ(measure->currentIndex(), measure_before);
  EXPECT_EQ(device->focusPolicy(), Qt::StrongFocus);  // the wheel does not give it focus either
  int lists = 0;
  for (QComboBox* combo : window.findChildren<QComboBox*>()) {
    SCOPED_TRACE(combo->objectName().toStdString());
    if (!combo->isVisibleTo(&window)) continue;
    const int was = combo->currentIndex();
    EXPECT_FALSE(wheel(combo));
    EXPECT_EQ(combo->currentIndex(), was);
    ++lists;
  }
  EXPECT_GE(lists, 2);  // the calculator's (the shown tab)
  // A slider takes focus by a click only: Tab out of the number box beside it does not land on it,
  // so scrolling on after typing a carveout leaves the carveout alone.
  for (QSlider* slider : window.findChildren<QSlider*>()) {
    SCOPED_TRACE(slider->objectName().toStdString());
    EXPECT_EQ(slider->focusPolicy(), Qt::ClickFocus);
  }
  // With focus, the wheel turns the list as always.
  window.activateWindow();
  ASSERT_TRUE(QTest::qWaitForWindowActive(&window));
  measure->setFocus(Qt::TabFocusReason);
  ASSERT_TRUE(QTest::qWaitFor([measure] { return measure->hasFocus(); }, 2000));
  wheel(measure);
  EXPECT_NE(measure->currentIndex(), measure_before);
}

// ---- shared-memory boxes take sizes with units ------------------------------------------------

TEST(ByteAmount, ReadsBytesKilobytesAndMegabytes) {
  const QLocale c(QLocale::C);
  struct Case {
    const char* text;
    ByteAmount::Kind kind;
    qint64 bytes;
    const char* exact;
  };
  using K = ByteAmount::Kind;
  const Case cases[] = {
      {"49152", K::kBytes, 49152, ""},
      {"49152 B", K::kBytes, 49152, ""},
      {"49152b", K::kBytes, 49152, ""},
      {"48 KB", K::kBytes, 49152, ""},
      {"48KB", K::kBytes, 49152, ""},
      {"48 kb", K::kBytes, 49152, ""},
      {"48KiB", K::kBytes, 49152, ""},
      {"48 kib", K::kBytes, 49152, ""},
      {"48K", K::kBytes, 49152, ""},
      {" 48 KB ", K::kBytes, 49152, ""},
      {"1.5 KB", K::kBytes, 1536, ""},
      {"0.25KiB", K::kBytes, 256, ""},
      {"2 MB", K::kBytes, 2097152, ""},
      {"2MiB", K::kBytes, 2097152, ""},
      {"0.5 mb", K::kBytes, 524288, ""},
      {"1.50 KB", K::kBytes, 1536, ""},
      {"0.0009765625 KB", K::kBytes, 1, ""},
      {"-1", K::kBytes, -1, ""},
      {"-2 KB", K::kBytes, -2048, ""},
      {"+8", K::kBytes, 8, ""},
      {"49,152", K::kBytes, 49152, ""},
      {"1.3 KB", K::kNotWholeBytes, 0, "1331.2"},
      {"0.5", K::kNotWholeBytes, 0, "0.5"},
      {"1.5 B", K::kNotWholeBytes, 0, "1.5"},
      {"", K::kEmpty, 0, ""},
      {"   ", K::kEmpty, 0, ""},
      {"abc", K::kNotASize, 0, ""},
      {"48 Ki", K::kNotASize, 0, ""},
      {"48 KBs", K::kNotASize, 0, ""},
      {"48 GB", K::kNotASize, 0, ""},
      {"KB", K::kNotASize, 0, ""},
      {"1e3", K::kNotASize, 0, ""},
      {"4 8", K::kNotASize, 0, ""},
  };
  for (const Case& t : cases) {
    const ByteAmount a = readByteAmount(QString::fromUtf8(t.text), c);
    EXPECT_EQ(a.kind, t.kind) << "'" << t.text << "'";
    if (t.kind == K::kBytes) {
      EXPECT_EQ(a.bytes, t.bytes) << "'" << t.text << "'";
    }
    if (t.kind == K::kNotWholeBytes) {
      EXPECT_EQ(a.exact, QString::fromUtf8(t.exact)) << "'" << t.text << "'";
    }
  }
  EXPECT_TRUE(readByteAmount(QStringLiteral("48 KB"), c).scaled);
  EXPECT_FALSE(readByteAmount(QStringLiteral("48 B"), c).scaled);
  // Beyond 64 bits: saturated, so out of every range.
  EXPECT_EQ(readByteAmount(QStringLiteral("99999999999999999999 MB"), c).bytes, std::numeric_limits<qint64>::max());
  // A comma is the decimal point where the locale says so.
  EXPECT_EQ(readByteAmount(QStringLiteral("1,5 KB"), QLocale(QLocale::German)).bytes, 1536);
}

struct UnitCase {
  const char* name;
  View view;
  const char* box;
  const char* typed;
  int value;            // after Return
  const char* message;  // the inline message after the last key, nullptr for none
};

void PrintTo(const UnitCase& c, std::ostream* os) {
  *os << c.name << " ('" << c.typed << "' into " << c.box << ")";
}

class GuiByteUnits : public ::testing::TestWithParam<UnitCase> {};

TEST_P(GuiByteUnits, TypedSizesAreBytesAndMessagesQuoteTheText) {
  const UnitCase& c = GetParam();
  auto view = makeView(c.view);
  view->resize(1400, 900);
  view->show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(view.get()));
  auto* box = view->findChild<CheckedSpinBox*>(QLatin1String(c.box));
  ASSERT_NE(box, nullptr);
  ASSERT_TRUE(box->byteUnits());
  auto* message = view->findChild<InputMessage*>(QStringLiteral("inputMessage"));
  box->selectAll();
  typeKeys(box, QString::fromUtf8(c.typed));
  EXPECT_EQ(box->text(), QString::fromUtf8(c.typed));  // as typed, while editing
  if (c.message == nullptr) {
    EXPECT_TRUE(message->isHidden()) << message->text().toStdString();
  } else {
    ASSERT_FALSE(message->isHidden());
    EXPECT_EQ(message->text(), QString::fromUtf8(c.message));
    EXPECT_TRUE(message->text().contains(QString::fromUtf8(c.typed).trimmed()));
  }
  QTest::keyClick(box, Qt::Key_Return);
  EXPECT_EQ(box->value(), c.value);
  EXPECT_EQ(box->text(), QStringLiteral("%1 B").arg(c.value));  // the value is bytes, and says so
}

const std::vector<UnitCase>& unitCases() {
  static const std::vector<UnitCase> cases = {
      {"StaticKb", View::kCalculator, "staticSharedMemory", "48 KB", 49152, nullptr},
      // What the newcomer typed: no space, and no message on the way ("48K" is 48 KB already).
      {"StaticKbNoSpace", View::kCalculator, "staticSharedMemory", "48KB", 49152, nullptr},
      {"StaticBytesWithUnit", View::kCalculator, "staticSharedMemory", "4096 B", 4096, nullptr},
      {"DynamicKib", View::kCalculator, "dynamicSharedMemory", "48KiB", 49152, nullptr},
      {"DynamicFraction", View::kCalculator, "dynamicSharedMemory", "1.5 KB", 1536, nullptr},
      {"DynamicLowerCase", View::kCalculator, "dynamicSharedMemory", "100 kb", 102400, nullptr},
      {"RblockKb", View::kRblock, "sharedBytes", "64 KB", 65536, nullptr},
      {"RblockMib", View::kRblock, "sharedBytes", "0.125 MiB", 131072, nullptr},
      // Refused: the message quotes the text as typed (and the bytes it makes); the box keeps the
      // value it had before the edit (0 B).
      {"StaticOverRange", View::kCalculator, "staticSharedMemory", "64 KB", 0,
       "Static shared memory: 64 KB (65536 B) is out of range; allowed 0 … 49152 B. Kept 0 B."},
      {"DynamicOverRange", View::kCalculator, "dynamicSharedMemory", "2 MiB", 0,
       "Dynamic shared memory: 2 MiB (2097152 B) is out of range; allowed 0 … 232448 B. Kept 0 B."},
      {"StaticNotWholeBytes", View::kCalculator, "staticSharedMemory", "1.3 KB", 0,
       "Static shared memory: '1.3 KB' is 1331.2 B, not a whole number of bytes; allowed 0 … 49152 B. Kept 0 B."},
      {"StaticUnknownUnit", View::kCalculator, "staticSharedMemory", "48 KBytes", 0,
       "Static shared memory: '48 KBytes' is not a size: write bytes (49152) or a number with B, KB, KiB, MB or MiB "
       "(48 KB; 1 KB = 1024 B); allowed 0 … 49152 B. Kept 0 B."},
      {"RblockNegative", View::kRblock, "sharedBytes", "-1 KB", 0,
       "Shared memory: -1 KB (-1024 B) is out of range; allowed 0 … 232448 B. Kept 0 B."},
  };
  return cases;
}

INSTANTIATE_TEST_SUITE_P(SharedMemory, GuiByteUnits, ::testing::ValuesIn(unitCases()),
                         [](const ::testing::TestParamInfo<UnitCase>& i) { return std::string(i.param.name); });

// The unit and the special value text are not input: erasing into them or typing after them is
// refused as a plain QSpinBox refuses it, with no message.
TEST(GuiInvalidInputMatrix, TheUnitCannotBeEdited) {
  RblockScalingView view{testContext()};
  view.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&view));
  auto* sms = view.findChild<CheckedSpinBox*>(QStringLiteral("smCount"));
  auto* message = view.findChild<InputMessage*>(QStringLiteral("inputMessage"));
  ASSERT_EQ(sms->text(), QStringLiteral("132 SMs"));
  QTest::keyClick(sms, Qt::Key_End);
  QTest::keyClick(sms, Qt::Key_Backspace);  // into " SMs"
  EXPECT_EQ(sms->text(), QStringLiteral("132 SMs"));
  QTest::keyClick(sms, Qt::Key_End);
  QTest::keyClick(sms, Qt::Key_4);  // after " SMs"
  EXPECT_EQ(sms->text(), QStringLiteral("132 SMs"));
  EXPECT_TRUE(message->isHidden());
  EXPECT_EQ(sms->value(), 132);

  CalculatorView calc{testContext()};
  calc.show();
  ASSERT_TRUE(QTest::qWaitForWindowExposed(&calc));
  auto* carveout = calc.findChild<CheckedSpinBox*>(QStringLiteral("carveout"));
  ASSERT_EQ(carveout->text(), QStringLiteral("default"));
  QTest::keyClick(carveout, Qt::Key_End);
  // "defaul" is on the way to the special text (which can be typed back), not a value yet; the
  // unit is not glued to it, and when editing ends the box shows "default" again.
  QTest::keyClick(carveout, Qt::Key_Backspace);
  EXPECT_EQ(carveout->text(), QStringLiteral("defaul"));
  EXPECT_EQ(carveout->value(), -1);
  QTest::keyClick(carveout, Qt::Key_Return);
  EXPECT_EQ(carveout->text(), QStringLiteral("default"));
  EXPECT_EQ(carveout->value(), -1);
}

// "-0" reads as 0, but QSpinBox takes no sign in a box whose minimum is 0: the box goes back, and
// the message says why instead of nothing.
TEST(GuiInvalidInputMatrix, ANumberQSpinBoxWillNotTakeIsNamedToo) {
  CalculatorView view{testContext()};
  auto* barriers = view.findChild<CheckedSpinBox*>(QStringLiteral("blockBarriers"));
  EXPECT_EQ(barriers->refusal(QStringLiteral("-0")),
            QStringLiteral("Block barriers: '-0' is not written as this box takes numbers; allowed 0 … 16. Kept 1."));
  EXPECT_EQ(barriers->refusal(QStringLiteral("7")), QString());
}

// XBLOCK, RBLOCK and num_warps can only be powers of two: the views offer lists, not text.
TEST(GuiInvalidInputMatrix, PowerOfTwoInputsAreListsOfPowersOfTwo) {
  RblockScalingView view{testContext()};
  for (const char* name : {"xblock", "rblock", "numWarps"}) {
    auto* combo = view.findChild<QComboBox*>(QLatin1String(name));
    ASSERT_NE(combo, nullptr) << name;
    EXPECT_FALSE(combo->isEditable()) << name;
    ASSERT_GT(combo->count(), 0);
    for (int i = 0; i < combo->count(); ++i) {
      const int v = combo->itemData(i).toInt();
      EXPECT_TRUE(v > 0 && (v & (v - 1)) == 0) << name << " offers " << v;
    }
    QTest::keyClicks(combo, QStringLiteral("3"));  // typing searches the list; it adds nothing
    const int v = combo->currentData().toInt();
    EXPECT_TRUE(v > 0 && (v & (v - 1)) == 0) << name;
  }
}

// ---- bad CSV files opened in the sweep views ---------------------------------------------------

struct BadCsv {
  const char* name;
  std::string content;
  const char* needle;  // part of the inline message
};

std::vector<BadCsv> badCsvs() {
  std::string big;
  {
    std::string row = "0,1,2048,16,38,0,40.4,1568.3,ok\n";
    big = "index,xblock,rblock,num_warps,registers,spill_stores_bytes,time_us,bandwidth_gbs,status\n";
    while (big.size() <= (std::size_t{100} << 20)) big += row;
  }
  return {
      {"empty.csv", "", "CSV is empty"},
      {"latin1.csv", "index,xblock,rblock\n0,1,2048\xe9\n", "not UTF-8"},
      {"truncated.csv", "index,xblock,rblock,num_warps\n0,1,2048\n", "3 cells"},
      {"extra.csv", "index,xblock,rblock\n0,1,2048,16\n", "4 cells"},
      {"quote.csv", "index,xblock\n0,\"1\n", "quote"},
      {"columns.csv", "a,b,c\n1,2,3\n", "column"},
      {"big.csv", big, "larger than the 16777216-byte limit"},
  };
}

void writeBytes(const QString& path, const std::string& bytes) {
  std::ofstream f(path.toStdString(), std::ios::binary);
  f << bytes;
}

TEST(GuiBadCsv, TheLiveSweepViewSaysWhyAndKeepsTheDatasetShown) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  LiveSweepView view(testContext(liveBackend({}, LiveAvailability{false, QStringLiteral("no GPU (test)"), {}})));
  ASSERT_EQ(view.openCsvFile(testData("live_sweep_fixture.csv")), QString());
  const int rows = view.model()->rowCount();
  ASSERT_EQ(rows, 11);
  const QString shown = view.datasetLabel()->text();
  for (const BadCsv& b : badCsvs()) {
    const QString path = dir.filePath(QLatin1String(b.name));
    writeBytes(path, b.content);
    const QString error = view.openCsvFile(path);
    EXPECT_TRUE(error.contains(QLatin1String(b.name))) << b.name << ": " << error.toStdString();
    EXPECT_TRUE(error.contains(QLatin1String(b.needle))) << b.name << ": " << error.toStdString();
    EXPECT_EQ(view.statusLabel()->text(), error) << b.name;  // inline, where the view reports
    EXPECT_FALSE(view.statusLabel()->isHidden());
    EXPECT_EQ(view.model()->rowCount(), rows) << b.name << ": the dataset shown was replaced";
    EXPECT_EQ(view.datasetLabel()->text(), shown);
  }
  const QString missing = view.openCsvFile(dir.filePath(QStringLiteral("absent.csv")));
  EXPECT_TRUE(missing.contains(QStringLiteral("absent.csv"))) << missing.toStdString();
  EXPECT_EQ(view.model()->rowCount(), rows);
}

TEST(GuiBadCsv, TheCompileSweepViewSaysWhyAndKeepsTheSweepShown) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  CompileSweepView view(testContext(compileBackend({})));
  ASSERT_EQ(view.openCsvFile(testData("compile_sweep_mean_var_sm90.csv")), QString());
  const int rows = view.model()->rowCount();
  ASSERT_GT(rows, 0);
  const QString shown = view.datasetLabel()->text();
  for (const BadCsv& b : badCsvs()) {
    const QString path = dir.filePath(QLatin1String(b.name));
    writeBytes(path, b.content);
    const QString error = view.openCsvFile(path);
    EXPECT_TRUE(error.contains(QLatin1String(b.name))) << b.name << ": " << error.toStdString();
    EXPECT_TRUE(error.contains(QLatin1String(b.needle))) << b.name << ": " << error.toStdString();
    EXPECT_EQ(view.statusLabel()->text(), error) << b.name;
    EXPECT_EQ(view.model()->rowCount(), rows) << b.name << ": the sweep shown was replaced";
    EXPECT_EQ(view.datasetLabel()->text(), shown);
  }
}

}  // namespace
}  // namespace occx::ui
