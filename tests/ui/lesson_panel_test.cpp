// Help → Lessons: every bundled lesson loads and every step of it holds on the real views (what it
// sets, what it promises, each question's answer once its control is moved), the panel's question
// flow, the "views no longer match" note, and lesson files refused with their line and reason.
#include <gtest/gtest.h>

#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QFile>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTextBrowser>
#include <memory>

#include <sys/stat.h>

#include "tests/ui/ui_test_support.h"
#include "ui/lessons/lesson_handout.h"
#include "ui/lessons/lesson_panel.h"
#include "ui/lessons/lesson_stage.h"
#include "ui/shell/main_window.h"
#include "ui/views/calculator_view.h"
#include "ui/views/inductor_run_view.h"
#include "ui/views/rblock_scaling_view.h"

namespace occx::ui {
namespace {

/// A window with the three views lessons use, and the lesson dock.
struct LessonWindow {
  std::unique_ptr<MainWindow> window;
  RblockScalingView* rblock = nullptr;
  InductorRunView* inductor = nullptr;
  QDockWidget* dock = nullptr;
  LessonPanel* panel = nullptr;

  LessonWindow() : window(std::make_unique<MainWindow>(testContext(offlineBackend(), false))) {
    rblock = new RblockScalingView(testContext());
    inductor = new InductorRunView(testContext());
    window->addView(rblock, QStringLiteral("RBLOCK scaling"));
    window->addView(inductor, QStringLiteral("Inductor run"));
    dock = addLessonDock(window.get(), LessonViews{window->tabs(), window->calculatorView(), rblock, inductor});
    panel = qobject_cast<LessonPanel*>(dock->widget());
    window->resize(1280, 720);
    window->show();
    dock->show();
  }
  [[nodiscard]] LessonStage& stage() const { return *panel->stage(); }
};

QString readHandoutFile(const QString& path) {
  QFile f(path);
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

QString readSource(const char* relative) {
  QFile f(QStringLiteral(OCCX_SOURCE_DIR "/") + QLatin1String(relative));
  return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

TEST(LessonPanel, BundledLessonsLoadAndAreNumberedOneToSix) {
  LessonWindow w;
  QStringList errors;
  const auto lessons = bundledLessons(w.stage(), &errors);
  EXPECT_TRUE(errors.isEmpty()) << errors.join(QLatin1Char('\n')).toStdString();
  const std::vector<std::string> titles = {"Occupancy",
                                           "Registers",
                                           "Shared memory and the carveout",
                                           "Occupancy is not speed",
                                           "The new RBLOCK bound",
                                           "Thread-block clusters on Hopper"};
  ASSERT_EQ(lessons.size(), titles.size());
  for (std::size_t i = 0; i < titles.size(); ++i) {
    EXPECT_EQ(lessons[i].lesson.number, static_cast<int>(i) + 1);
    EXPECT_EQ(lessons[i].lesson.title, titles[i]);
  }
  EXPECT_EQ(w.panel->lessonCombo()->count(), static_cast<int>(lessons.size()));
}

/// Drives every step of every bundled lesson through the panel: after the step, its promises hold and
/// the views match it; a question checks the right answer as right, and once its control is moved the
/// read-out equals the answer and the after-promises hold.
TEST(LessonPanel, EveryStepOfEveryBundledLessonHolds) {
  LessonWindow w;
  const auto lessons = bundledLessons(w.stage());
  int steps = 0;
  int questions = 0;
  for (const LoadedLesson& l : lessons) {
    ASSERT_TRUE(w.panel->startBundled(l.lesson.number));
    for (int i = 0; i < w.panel->stepCount(); ++i) {
      ASSERT_TRUE(w.panel->showStep(i));
      QApplication::processEvents();
      const auto& step = l.lesson.steps[static_cast<std::size_t>(i)];
      const std::string where = l.source.toStdString() + " step " + std::to_string(i + 1) + " \"" + step.title + "\"";
      EXPECT_TRUE(w.panel->brokenPromises().isEmpty())
          << where << ": " << w.panel->brokenPromises().join(' ').toStdString();
      EXPECT_TRUE(w.panel->mismatches().isEmpty()) << where << ": " << w.panel->mismatches().join(' ').toStdString();
      EXPECT_TRUE(w.panel->problemLabel()->isHidden())
          << where << ": " << w.panel->problemLabel()->text().toStdString();
      EXPECT_EQ(w.panel->highlighted().size(), step.highlights.size()) << where;
      EXPECT_EQ(w.panel->stepTitleLabel()->text().toStdString(), step.title);
      ++steps;
      if (!step.question) continue;
      ++questions;
      const QString feedback = w.panel->checkPrediction(QString::number(step.question->answer));
      EXPECT_TRUE(feedback.startsWith(QStringLiteral("Right")) || feedback.startsWith(QStringLiteral("Close enough")))
          << where << ": " << feedback.toStdString();
      w.panel->showAnswer();
      QApplication::processEvents();
      EXPECT_TRUE(w.panel->answerShown()) << where;
      auto shown = w.stage().read(QString::fromStdString(step.question->check));
      ASSERT_TRUE(shown) << where;
      EXPECT_NEAR(shown->toDouble(), step.question->answer, step.question->tolerance + 1e-9) << where;
      EXPECT_TRUE(w.panel->brokenPromises().isEmpty())
          << where << ": " << w.panel->brokenPromises().join(' ').toStdString();
      EXPECT_TRUE(w.panel->mismatches().isEmpty()) << where << ": " << w.panel->mismatches().join(' ').toStdString();
    }
  }
  EXPECT_GE(steps, 39);
  EXPECT_GE(questions, 22);
}

/// The states the two lessons promise, read from the views themselves (not through the stage).
TEST(LessonPanel, LessonOneShowsTheDerivationsNumbers) {
  LessonWindow w;
  ASSERT_TRUE(w.panel->startBundled(1));
  ASSERT_TRUE(w.panel->showStep(4));  // "A few registers more can cost a whole block"
  w.panel->showAnswer();
  CalculatorView* c = w.window->calculatorView();
  EXPECT_EQ(w.window->tabs()->currentWidget(), c);
  EXPECT_EQ(c->input().registers_per_thread, 72);
  EXPECT_EQ(c->result().active_warps_per_sm, 24);
  EXPECT_EQ(c->result().registers_per_warp_allocated, 2304);
  const QString derivation = c->derivationBrowser()->toPlainText();
  EXPECT_TRUE(derivation.contains(QStringLiteral("72 registers × 32 threads = 2304 per warp")))
      << derivation.toStdString();
  EXPECT_TRUE(w.panel->answerLabel()->text().contains(QStringLiteral("= 24")))
      << w.panel->answerLabel()->text().toStdString();
}

TEST(LessonPanel, LessonFiveSelectsTheSpillingConfigAndItsDecisions) {
  LessonWindow w;
  ASSERT_TRUE(w.panel->startBundled(5));
  const triton::ScanRow* row = w.inductor->selectedConfig();
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(row->r0_block, 32768);
  EXPECT_EQ(row->num_warps, 16);
  EXPECT_EQ(row->n_regs, 128);
  EXPECT_EQ(row->n_spills, 74);
  EXPECT_EQ(row->old_decision, "no scaling");
  EXPECT_EQ(row->new_decision, "duplicate");
  ASSERT_TRUE(w.panel->showStep(4));  // "The new bound counts registers"
  EXPECT_TRUE(w.panel->checkPrediction(QStringLiteral("1")).startsWith(QStringLiteral("Right: 1 block per SM.")));
  w.panel->showAnswer();
  EXPECT_TRUE(w.panel->answerLabel()->text().startsWith(QStringLiteral("Answer: 1 block per SM.")))
      << w.panel->answerLabel()->text().toStdString();
  EXPECT_EQ(w.window->tabs()->currentWidget(), w.rblock);
  ASSERT_EQ(w.rblock->decisions().size(), 4U);
  EXPECT_EQ(w.rblock->decisions()[0].outcome, inductor::Outcome::kNoScale);  // old
  EXPECT_EQ(w.rblock->decisions()[1].outcome, inductor::Outcome::kScale);    // new
  EXPECT_EQ(w.rblock->decisions()[1].new_config->r0_block, 16384);
  EXPECT_TRUE(w.rblock->arithmeticBrowser()->toPlainText().contains(QStringLiteral("65536 // (128 · 32 · 16)")));
}

/// Lesson 5 says the recorded models' bounds agree on every kernel: checked on each of them.
TEST(LessonPanel, TheRecordedModelsBoundsAgreeAsLessonFiveSays) {
  LessonWindow w;
  for (const char* model : {"gpt2", "bert", "t5", "blenderbot"}) {
    ASSERT_TRUE(w.stage().set(QStringLiteral("inductor.run"), QLatin1String(model)).isEmpty()) << model;
    EXPECT_EQ(w.stage().read(QStringLiteral("inductor.run")).value(), QLatin1String(model));
    EXPECT_EQ(w.stage().read(QStringLiteral("inductor.run.bound_disagreements")).value(), QStringLiteral("0")) << model;
  }
  ASSERT_TRUE(w.stage().set(QStringLiteral("inductor.run"), QStringLiteral("spill_log_softmax_w16")).isEmpty());
  EXPECT_EQ(w.stage().read(QStringLiteral("inductor.run.bound_disagreements")).value(), QStringLiteral("3"));
}

TEST(LessonPanel, APredictionIsCheckedAndMovingTheControlShowsTheAnswer) {
  LessonWindow w;
  ASSERT_TRUE(w.panel->startBundled(1));
  ASSERT_TRUE(w.panel->showStep(3));  // "Registers": 32 → 64, answer 32 warps
  EXPECT_TRUE(w.panel->questionLabel()->isVisible());
  EXPECT_TRUE(w.panel->checkPrediction(QStringLiteral("abc")).contains(QStringLiteral("is not a number")));
  w.panel->predictionEdit()->setText(QStringLiteral("48"));
  w.panel->checkButton()->click();
  EXPECT_TRUE(w.panel->feedbackLabel()->text().startsWith(QStringLiteral("Not quite: you said 48")))
      << w.panel->feedbackLabel()->text().toStdString();
  EXPECT_TRUE(w.panel->feedbackLabel()->text().contains(QStringLiteral("set registers per thread to 64")));
  ASSERT_EQ(w.panel->highlighted().size(), 1U);
  EXPECT_EQ(w.panel->highlighted()[0], w.window->calculatorView()->registersSpin());
  EXPECT_FALSE(w.panel->answerShown());
  // The student moves the control: the answer follows, and the moved control is not a mismatch.
  w.window->calculatorView()->registersSpin()->setValue(64);
  w.panel->checkViews();
  EXPECT_TRUE(w.panel->answerShown());
  EXPECT_TRUE(w.panel->answerLabel()->text().startsWith(QStringLiteral("Answer: 32 warps.")));
  EXPECT_TRUE(w.panel->mismatchLabel()->isHidden());
  EXPECT_FALSE(w.panel->showMeButton()->isEnabled());
}

TEST(LessonPanel, TouchingAControlIsSaidAndResetPutsItBack) {
  LessonWindow w;
  ASSERT_TRUE(w.panel->startBundled(1));
  w.panel->checkViews();
  EXPECT_TRUE(w.panel->mismatchLabel()->isHidden());
  w.window->calculatorView()->threadsSpin()->setValue(512);
  w.window->tabs()->setCurrentWidget(w.rblock);
  w.panel->checkViews();
  EXPECT_FALSE(w.panel->mismatchLabel()->isHidden());
  const QString text = w.panel->mismatchLabel()->text();
  EXPECT_TRUE(text.contains(QStringLiteral("Threads per block is 512 here; this step uses 256.")))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral("This step is on the Occupancy calculator tab."))) << text.toStdString();
  w.panel->resetButton()->click();
  w.panel->checkViews();
  EXPECT_TRUE(w.panel->mismatchLabel()->isHidden());
  EXPECT_EQ(w.window->calculatorView()->input().threads_per_block, 256);
  EXPECT_EQ(w.window->tabs()->currentWidget(), w.window->calculatorView());
}

TEST(LessonPanel, NextAndBackWalkTheStepsWithProgress) {
  LessonWindow w;
  EXPECT_FALSE(w.panel->nextButton()->isEnabled());
  ASSERT_TRUE(w.panel->startBundled(5));
  EXPECT_FALSE(w.panel->backButton()->isEnabled());
  for (int i = 0; i < 2; ++i) w.panel->nextButton()->click();
  EXPECT_EQ(w.panel->currentStep(), 2);
  EXPECT_EQ(w.window->tabs()->currentWidget(), w.rblock);
  EXPECT_EQ(w.panel->findChild<QLabel*>(QStringLiteral("stepCount"))->text(), QStringLiteral("Step 3 of 9"));
  w.panel->backButton()->click();
  EXPECT_EQ(w.panel->currentStep(), 1);
  EXPECT_EQ(w.window->tabs()->currentWidget(), w.inductor);
  EXPECT_TRUE(w.panel->findChild<QLabel*>(QStringLiteral("lessonEnd"))->isHidden());
  for (int i = 0; i < 20; ++i) w.panel->nextButton()->click();
  EXPECT_EQ(w.panel->currentStep(), w.panel->stepCount() - 1);
  EXPECT_FALSE(w.panel->nextButton()->isEnabled());
  EXPECT_FALSE(w.panel->findChild<QLabel*>(QStringLiteral("lessonEnd"))->isHidden());
}

TEST(LessonPanel, AClosedPanelLeavesNoFramesOverTheViews) {
  LessonWindow w;
  ASSERT_TRUE(w.panel->startBundled(1));
  EXPECT_EQ(w.panel->highlighted().size(), 2U);
  w.dock->hide();
  EXPECT_TRUE(w.panel->highlighted().empty());
  w.dock->show();
  EXPECT_EQ(w.panel->highlighted().size(), 2U);
}

TEST(LessonPanel, AMalformedLessonFileIsRefusedWithItsLineAndReason) {
  LessonWindow w;
  QTemporaryDir dir;
  auto write = [&dir](const char* name, const char* text) {
    const QString path = dir.filePath(QLatin1String(name));
    QFile f(path);
    EXPECT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(text);
    return path;
  };
  const QString typo = write("typo.lesson", "lesson: T\nstep: One\nsay: Hello.\nhilight: calculator.derivation\n");
  EXPECT_EQ(w.panel->openLessonFile(typo).toStdString(),
            (typo + QStringLiteral(" line 4: unknown key 'hilight' (allowed: lesson, number, summary, step, tab, set, "
                                   "highlight, say, expect, ask, answer, unit, tolerance, try, check, explain, "
                                   "expect-after)"))
                .toStdString());
  EXPECT_FALSE(w.panel->problemLabel()->isHidden());
  const QString unknown = write("name.lesson", "lesson: T\nstep: One\nsay: Hello.\nset: calculator.regs = 40\n");
  EXPECT_TRUE(w.panel->openLessonFile(unknown).endsWith(
      QStringLiteral(" line 4: unknown name 'calculator.regs' (docs/lessons.md lists the names)")));
  const QString readonly =
      write("ro.lesson", "lesson: T\nstep: One\nsay: Hello.\nset: calculator.occupancy_percent = 5\n");
  EXPECT_TRUE(w.panel->openLessonFile(readonly).endsWith(
      QStringLiteral(" line 4: 'calculator.occupancy_percent' is a read-out: a step cannot set it")));
  const QString tab = write("tab.lesson", "lesson: T\nstep: One\ntab: gpu\nsay: Hello.\n");
  EXPECT_TRUE(w.panel->openLessonFile(tab).endsWith(
      QStringLiteral(" line 3: tab 'gpu' is not a view lessons know: allowed calculator, rblock, inductor")));
  EXPECT_EQ(w.panel->lesson(), nullptr);
  // A FIFO (no writer) is refused at once, not waited on; a file over 1 MiB is refused by its size.
  const QString fifo = dir.filePath(QStringLiteral("fifo.lesson"));
  ASSERT_EQ(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
  EXPECT_TRUE(w.panel->openLessonFile(fifo).contains(QStringLiteral("not a regular file")))
      << w.panel->problemLabel()->text().toStdString();
  const QString huge = dir.filePath(QStringLiteral("huge.lesson"));
  {
    QFile f(huge);
    ASSERT_TRUE(f.open(QIODevice::WriteOnly));
    f.write(QByteArray((1 << 20) + 10, '#'));
  }
  EXPECT_FALSE(w.panel->openLessonFile(huge).isEmpty());
  EXPECT_EQ(w.panel->lesson(), nullptr);
  // A good file opens, and a value the control refuses is said with the range when the step runs.
  const QString good =
      write("good.lesson",
            "lesson: Mine\nstep: One\ntab: calculator\nset: calculator.registers_per_thread = 300\nsay: Hi.\n");
  EXPECT_TRUE(w.panel->openLessonFile(good).isEmpty());
  EXPECT_EQ(w.panel->problemLabel()->text(),
            QStringLiteral("Line 4: calculator.registers_per_thread = 300 is not allowed: 0 … 255"));
}

/// The handout of every bundled lesson: the HTML twin holds each step's title and text, a picture per
/// step, each question before the answers and each answer (with its explanation) after them; the PDF
/// has more than one page.
TEST(LessonHandout, EveryBundledLessonsHandoutHoldsItsStepsQuestionsAndAnswers) {
  LessonWindow w;
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const auto lessons = bundledLessons(w.stage());
  ASSERT_EQ(lessons.size(), 6U);
  for (const LoadedLesson& l : lessons) {
    ASSERT_TRUE(w.panel->startBundled(l.lesson.number));
    w.panel->showStep(1);
    const QString pdf = dir.filePath(QStringLiteral("lesson-%1.pdf").arg(l.lesson.number));
    ASSERT_EQ(writeLessonHandout(*w.panel, pdf, QStringLiteral("2026-12-04 10:00 UTC")), QString());
    EXPECT_EQ(w.panel->currentStep(), 1) << "the panel returns to the step it showed";
    const QString html = readHandoutFile(dir.filePath(QStringLiteral("lesson-%1.html").arg(l.lesson.number)));
    const std::string where = l.source.toStdString();
    EXPECT_TRUE(html.contains(QString::fromStdString(l.lesson.title).toHtmlEscaped())) << where;
    const qsizetype answers = html.indexOf(QStringLiteral(">Answers</h2>"));
    int questions = 0;
    for (const auto& step : l.lesson.steps) {
      const qsizetype title = html.indexOf(QString::fromStdString(step.title).toHtmlEscaped());
      EXPECT_GE(title, 0) << where << ": " << step.title;
      EXPECT_TRUE(html.contains(QString::fromStdString(step.text).toHtmlEscaped())) << where << ": " << step.title;
      if (!step.question) continue;
      ++questions;
      const qsizetype asked = html.indexOf(QString::fromStdString(step.question->prompt).toHtmlEscaped());
      const qsizetype explained = html.lastIndexOf(QString::fromStdString(step.question->explanation).toHtmlEscaped());
      EXPECT_GE(asked, 0) << where << ": " << step.question->prompt;
      EXPECT_LT(asked, answers) << where << ": the question comes before the answers";
      EXPECT_GT(explained, answers) << where << ": the answer comes after every question";
    }
    if (questions > 0) {
      EXPECT_GT(answers, 0) << where;
    }
    EXPECT_EQ(html.count(QStringLiteral("<img src=\"data:image/png;base64,")),
              static_cast<qsizetype>(l.lesson.steps.size()))
        << where << ": one picture per step";
    QFile file(pdf);
    ASSERT_TRUE(file.open(QIODevice::ReadOnly)) << where;
    const QByteArray bytes = file.readAll();
    static const QRegularExpression kPage(QStringLiteral("/Type\\s*/Page[^s]"));
    EXPECT_GT(QString::fromLatin1(bytes).count(kPage), 1) << where << ": more than one page";
  }
}

/// File → Export report… with a lesson open writes the lesson's handout (as the app wires it), not
/// the view's report; with the panel closed, the view's report again.
TEST(LessonHandout, ExportReportWritesTheOpenLessonsHandout) {
  LessonWindow w;
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  LessonPanel* panel = w.panel;
  QDockWidget* dock = w.dock;
  w.window->setReportSource(
      {[dock, panel] { return dock->isVisible() && panel->lesson() != nullptr; },
       [panel] { return handoutFileName(*panel); },
       [panel](const QString& path) { return writeLessonHandout(*panel, path, QStringLiteral("today")); }});
  ASSERT_TRUE(w.panel->startBundled(2));
  EXPECT_EQ(handoutFileName(*w.panel), QStringLiteral("lesson-2-registers-handout.pdf"));
  ASSERT_EQ(w.window->exportCurrentReport(dir.filePath(QStringLiteral("h"))), QString());
  EXPECT_TRUE(readHandoutFile(dir.filePath(QStringLiteral("h.html"))).contains(QStringLiteral("Lesson 2: Registers")));
  EXPECT_TRUE(QFile::exists(dir.filePath(QStringLiteral("h.pdf"))));
  w.dock->hide();
  ASSERT_EQ(w.window->exportCurrentReport(dir.filePath(QStringLiteral("v"))), QString());
  EXPECT_FALSE(readHandoutFile(dir.filePath(QStringLiteral("v.html"))).contains(QStringLiteral("Lesson 2: Registers")));
}

TEST(LessonStage, ValuesMatchAtTheWrittenDecimals) {
  EXPECT_TRUE(lessonValueMatches(QStringLiteral("41.568"), QStringLiteral("41.57")));
  EXPECT_FALSE(lessonValueMatches(QStringLiteral("41.568"), QStringLiteral("41.56")));
  EXPECT_TRUE(lessonValueMatches(QStringLiteral("100.0"), QStringLiteral("100")));
  EXPECT_FALSE(lessonValueMatches(QStringLiteral("37.5"), QStringLiteral("37")));
  EXPECT_TRUE(lessonValueMatches(QStringLiteral("No Scaling"), QStringLiteral(" no scaling ")));
  EXPECT_FALSE(lessonValueMatches(QStringLiteral("scale"), QStringLiteral("no scaling")));
}

TEST(LessonStage, SettingsAreRefusedWithTheAllowedValues) {
  LessonWindow w;
  LessonStage& s = w.stage();
  EXPECT_EQ(s.set(QStringLiteral("rblock.xblock"), QStringLiteral("3")).left(36),
            QStringLiteral("rblock.xblock = 3 is not allowed: 1,"));
  EXPECT_TRUE(s.set(QStringLiteral("calculator.gpu"), QStringLiteral("A100")).isEmpty());
  EXPECT_EQ(s.read(QStringLiteral("calculator.gpu")).value(), QStringLiteral("A100 SXM4 40GB"));
  EXPECT_TRUE(s.set(QStringLiteral("calculator.gpu"), QStringLiteral("RTX 9999"))
                  .startsWith(QStringLiteral("calculator.gpu = RTX 9999 is not allowed")));
  EXPECT_TRUE(s.set(QStringLiteral("calculator.carveout_percent"), QStringLiteral("default")).isEmpty());
  EXPECT_EQ(s.read(QStringLiteral("calculator.carveout_percent")).value(), QStringLiteral("default"));
  EXPECT_TRUE(s.set(QStringLiteral("inductor.run"), QStringLiteral("spill_log_softmax_w16")).isEmpty());
  EXPECT_TRUE(
      s.set(QStringLiteral("inductor.config"), QStringLiteral("X9 R1 w1")).contains(QStringLiteral("X1 R32768 w16")));
  EXPECT_FALSE(s.read(QStringLiteral("calculator.derivation")));
}

/// docs/lessons.md lists every name a lesson may use (the teacher's reference).
TEST(LessonStage, TheFormatDocumentListsEveryName) {
  LessonWindow w;
  const QString doc = readSource("docs/lessons.md");
  ASSERT_FALSE(doc.isEmpty());
  for (const auto& n : w.stage().names()) {
    EXPECT_TRUE(doc.contains(QStringLiteral("`") + n.name + QStringLiteral("`"))) << n.name.toStdString();
  }
  for (const auto& key : lessons::lessonKeys()) {
    EXPECT_TRUE(doc.contains(QStringLiteral("`") + QString::fromStdString(key) + QStringLiteral(":"))) << key;
  }
}

}  // namespace
}  // namespace occx::ui
