// The lesson reader: every field of the format read back, and a malformed lesson refused with the
// line and what is wrong.
#include "core/lessons/lesson.h"

#include <gtest/gtest.h>

#include <string>

namespace occx::lessons {
namespace {

constexpr const char* kLesson = R"(# a comment
lesson: Occupancy
number: 1
summary: How many warps an SM runs
  at once.

step: Registers
tab: calculator
set: calculator.threads_per_block = 256
set: calculator.registers_per_thread = 64
highlight: calculator.result
say: Each warp gets its registers
  in units of 256.
expect: calculator.active_warps = 32
ask: Active warps per SM at 72 registers?
answer: 24
tolerance: 0.5
unit: warps
try: calculator.registers_per_thread = 72
check: calculator.active_warps
explain: 72 × 32 = 2304 registers per warp.
expect-after: calculator.occupancy_percent = 37.5

step: The end
say: That is all.
)";

TEST(LessonReader, ReadsEveryField) {
  auto lesson = parseLesson(kLesson, "t.lesson");
  ASSERT_TRUE(lesson) << lesson.error();
  EXPECT_EQ(lesson->title, "Occupancy");
  EXPECT_EQ(lesson->number, 1);
  EXPECT_EQ(lesson->summary, "How many warps an SM runs at once.");
  ASSERT_EQ(lesson->steps.size(), 2u);
  const Step& s = lesson->steps[0];
  EXPECT_EQ(s.title, "Registers");
  EXPECT_EQ(s.line, 7);
  EXPECT_EQ(s.tab, "calculator");
  ASSERT_EQ(s.settings.size(), 2u);
  EXPECT_EQ(s.settings[1].name, "calculator.registers_per_thread");
  EXPECT_EQ(s.settings[1].value, "64");
  EXPECT_EQ(s.settings[1].line, 10);
  EXPECT_EQ(s.highlights, std::vector<std::string>{"calculator.result"});
  EXPECT_EQ(s.text, "Each warp gets its registers in units of 256.");
  ASSERT_EQ(s.expects.size(), 1u);
  EXPECT_EQ(s.expects[0].value, "32");
  ASSERT_TRUE(s.question.has_value());
  EXPECT_EQ(s.question->prompt, "Active warps per SM at 72 registers?");
  EXPECT_DOUBLE_EQ(s.question->answer, 24.0);
  EXPECT_DOUBLE_EQ(s.question->tolerance, 0.5);
  EXPECT_EQ(s.question->unit, "warps");
  ASSERT_EQ(s.question->try_settings.size(), 1u);
  EXPECT_EQ(s.question->try_settings[0].value, "72");
  EXPECT_EQ(s.question->check, "calculator.active_warps");
  EXPECT_EQ(s.question->explanation, "72 × 32 = 2304 registers per warp.");
  ASSERT_EQ(s.expects_after_try.size(), 1u);
  EXPECT_EQ(s.expects_after_try[0].name, "calculator.occupancy_percent");
  EXPECT_FALSE(lesson->steps[1].question.has_value());
}

std::string errorOf(const std::string& text) {
  auto lesson = parseLesson(text, "bad.lesson");
  return lesson ? std::string("(accepted)") : lesson.error();
}

TEST(LessonReader, RefusesMalformedLessonsWithLineAndReason) {
  const std::string head = "lesson: L\nstep: S\nsay: x\n";
  EXPECT_EQ(errorOf(head + "hilight: a\n").substr(0, 42), "bad.lesson line 4: unknown key 'hilight' (");
  EXPECT_EQ(errorOf(head + "set: calculator.threads 256\n"),
            "bad.lesson line 4: set needs 'name = value', found \"calculator.threads 256\"");
  EXPECT_EQ(errorOf(head + "answer: 3\n"), "bad.lesson line 4: answer belongs to a question: put 'ask:' first");
  EXPECT_EQ(errorOf(head + "ask: Q?\nanswer: many\n"), "bad.lesson line 5: answer \"many\" is not a number");
  EXPECT_EQ(errorOf(head + "ask: Q?\nanswer: 3\ntolerance: -1\n"),
            "bad.lesson line 6: tolerance -1 is out of range: allowed 0 or more");
  EXPECT_EQ(errorOf(head + "ask: Q?\ntry: a = 1\ncheck: b\n"),
            "bad.lesson line 4: the question has no 'answer: <number>'");
  EXPECT_EQ(errorOf(head + "ask: Q?\nanswer: 1\ncheck: b\n"),
            "bad.lesson line 4: the question has no 'try: name = value' that shows the answer");
  EXPECT_EQ(errorOf(head + "ask: Q?\nanswer: 1\ntry: a = 1\nstep: T\nsay: y\n"),
            "bad.lesson line 4: the question has no 'check: <read-out>' that shows the answer");
  EXPECT_EQ(errorOf("lesson: L\nstep: S\ntab: calculator\n"),
            "bad.lesson line 2: step \"S\" says nothing: add 'say: …'");
  EXPECT_EQ(errorOf("step: S\nsay: x\n"),
            "bad.lesson line 1: the lesson has no title: 'lesson: <title>' before the first step");
  EXPECT_EQ(errorOf("lesson: L\n"), "bad.lesson line 1: the lesson has no steps: 'step: <title>'");
  EXPECT_EQ(errorOf("lesson: L\nset: a = 1\n"), "bad.lesson line 2: set belongs to a step: put 'step: <title>' first");
  EXPECT_EQ(errorOf(head + "summary: late\n"), "bad.lesson line 4: summary belongs before the first step");
  EXPECT_EQ(errorOf("lesson: L\nnumber: 0\nstep: S\nsay: x\n"),
            "bad.lesson line 2: number \"0\" is not a whole number 1 … 999");
  EXPECT_EQ(errorOf(head + "  more text\ntab: x\n  indented\n"),
            "bad.lesson line 6: an indented line continues only summary, say, ask or explain");
  EXPECT_EQ(errorOf(head + "just words\n"), "bad.lesson line 4: expected 'key: value', found \"just words\"");
  EXPECT_EQ(errorOf(head + "expect-after: a = 1\n"), "bad.lesson line 4: expect-after needs a question with 'try'");
  EXPECT_EQ(errorOf(head + "ask: Q?\nanswer: 1\ntry: a = 1\ncheck: b\nask: R?\n"),
            "bad.lesson line 8: a step asks one question; start a new step for another");
  EXPECT_EQ(errorOf(std::string(2u << 20, '#')).substr(0, 26), "bad.lesson: 2097152 bytes ");
}

TEST(LessonReader, KeepsTextVerbatimAndSkipsCommentsAndCarriageReturns) {
  auto lesson = parseLesson("lesson: L\r\n# c\r\nstep: S\r\nsay: 1 KB = 1024 B: a colon\r\n", "crlf.lesson");
  ASSERT_TRUE(lesson) << lesson.error();
  EXPECT_EQ(lesson->steps[0].text, "1 KB = 1024 B: a colon");
}

}  // namespace
}  // namespace occx::lessons
