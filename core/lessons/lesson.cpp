#include "core/lessons/lesson.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstddef>
#include <utility>

#include "core/base/text.h"

namespace occx::lessons {
namespace {

constexpr std::size_t kMaxLessonBytes = std::size_t{1} << 20;

/// One `key: value` of the file, continuation lines joined.
struct Entry {
  std::string key;
  std::string value;
  int line = 0;
};

bool isTextKey(std::string_view key) {
  return key == "summary" || key == "say" || key == "ask" || key == "explain";
}

std::string allowedKeys() {
  std::string out;
  for (const auto& k : lessonKeys()) out += (out.empty() ? "" : ", ") + k;
  return out;
}

class LessonReader {
 public:
  explicit LessonReader(std::string_view source) : source_(source) {}

  [[nodiscard]] Error error(int line, const std::string& what) const {
    return Error(source_ + " line " + std::to_string(line) + ": " + what);
  }

  /// Splits `text` into entries; an error for a line that is neither a key, a continuation, a
  /// comment nor blank.
  Expected<std::vector<Entry>> entries(std::string_view text) const {
    std::vector<Entry> out;
    int line_no = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
      const std::size_t end = std::min(text.find('\n', pos), text.size());
      const std::string_view raw = text.substr(pos, end - pos);
      pos = end + 1;
      ++line_no;
      const std::string line = trimmed(raw);
      if (line.empty() || line.front() == '#') {
        if (end == text.size()) break;
        continue;
      }
      if (raw.front() == ' ' || raw.front() == '\t') {
        if (out.empty() || !isTextKey(out.back().key)) {
          return error(line_no, "an indented line continues only summary, say, ask or explain");
        }
        out.back().value += " " + line;
      } else {
        const std::size_t colon = line.find(':');
        if (colon == std::string::npos) {
          return error(line_no, "expected 'key: value', found \"" + line.substr(0, 40) + "\"");
        }
        Entry e{trimmed(line.substr(0, colon)), trimmed(line.substr(colon + 1)), line_no};
        if (std::find(lessonKeys().begin(), lessonKeys().end(), e.key) == lessonKeys().end()) {
          return error(line_no, "unknown key '" + e.key.substr(0, 40) + "' (allowed: " + allowedKeys() + ")");
        }
        out.push_back(std::move(e));
      }
      if (end == text.size()) break;
    }
    return out;
  }

  [[nodiscard]] Expected<Binding> binding(const Entry& e) const {
    const std::size_t eq = e.value.find('=');
    if (eq == std::string::npos) {
      return error(e.line, e.key + " needs 'name = value', found \"" + e.value.substr(0, 40) + "\"");
    }
    Binding b{trimmed(std::string_view(e.value).substr(0, eq)), trimmed(std::string_view(e.value).substr(eq + 1)),
              e.line};
    if (b.name.empty() || b.value.empty())
      return error(e.line, e.key + " needs a name and a value on both sides of '='");
    return b;
  }

  [[nodiscard]] Expected<double> number(const Entry& e, double min_value) const {
    double v = 0.0;
    const char* first = e.value.data();
    const char* last = first + e.value.size();
    const auto [ptr, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || ptr != last || !std::isfinite(v)) {
      return error(e.line, e.key + " \"" + e.value.substr(0, 40) + "\" is not a number");
    }
    if (v < min_value) return error(e.line, e.key + " " + e.value + " is out of range: allowed 0 or more");
    return v;
  }

 private:
  std::string source_;
};

/// Applies one entry of a step; an error for a misplaced or malformed one.
Expected<bool> applyStepEntry(const LessonReader& reader, const Entry& e, Step& step) {
  auto needQuestion = [&]() -> Expected<bool> {
    if (!step.question) return reader.error(e.line, e.key + " belongs to a question: put 'ask:' first");
    return true;
  };
  if (e.key == "tab") {
    step.tab = e.value;
    step.tab_line = e.line;
  } else if (e.key == "set" || e.key == "expect" || e.key == "expect-after" || e.key == "try") {
    auto b = reader.binding(e);
    if (!b) return Error(b.error());
    if (e.key == "set") step.settings.push_back(*b);
    if (e.key == "expect") step.expects.push_back(*b);
    if (e.key == "expect-after") step.expects_after_try.push_back(*b);
    if (e.key == "try") {
      if (auto q = needQuestion(); !q) return q;
      step.question->try_settings.push_back(*b);
    }
  } else if (e.key == "highlight") {
    step.highlights.push_back(e.value);
    step.highlight_lines.push_back(e.line);
  } else if (e.key == "say") {
    step.text += (step.text.empty() ? "" : " ") + e.value;
  } else if (e.key == "ask") {
    if (step.question) return reader.error(e.line, "a step asks one question; start a new step for another");
    step.question = Question{};
    step.question->prompt = e.value;
    step.question->line = e.line;
  } else {
    if (auto q = needQuestion(); !q) return q;
    Question& q = *step.question;
    if (e.key == "answer" || e.key == "tolerance") {
      auto v = reader.number(e, e.key == "tolerance" ? 0.0 : -1e300);
      if (!v) return Error(v.error());
      (e.key == "answer" ? q.answer : q.tolerance) = *v;
    } else if (e.key == "unit") {
      q.unit = e.value;
    } else if (e.key == "check") {
      q.check = e.value;
    } else if (e.key == "explain") {
      q.explanation += (q.explanation.empty() ? "" : " ") + e.value;
    }
  }
  return true;
}

/// What a finished step must have.
Expected<bool> checkStep(const LessonReader& reader, const Step& step, bool has_answer) {
  if (step.title.empty()) return reader.error(step.line, "the step has no title: 'step: <title>'");
  if (step.text.empty()) return reader.error(step.line, "step \"" + step.title + "\" says nothing: add 'say: …'");
  if (!step.question) {
    if (!step.expects_after_try.empty()) {
      return reader.error(step.expects_after_try.front().line, "expect-after needs a question with 'try'");
    }
    return true;
  }
  const Question& q = *step.question;
  if (!has_answer) return reader.error(q.line, "the question has no 'answer: <number>'");
  if (q.try_settings.empty())
    return reader.error(q.line, "the question has no 'try: name = value' that shows the answer");
  if (q.check.empty()) return reader.error(q.line, "the question has no 'check: <read-out>' that shows the answer");
  return true;
}

}  // namespace

const std::vector<std::string>& lessonKeys() {
  static const std::vector<std::string> kKeys = {"lesson",    "number", "summary", "step",    "tab",         "set",
                                                 "highlight", "say",    "expect",  "ask",     "answer",      "unit",
                                                 "tolerance", "try",    "check",   "explain", "expect-after"};
  return kKeys;
}

Expected<Lesson> parseLesson(std::string_view text, std::string_view source) {
  const LessonReader reader(source);
  if (text.size() > kMaxLessonBytes) {
    return Error(std::string(source) + ": " + std::to_string(text.size()) +
                 " bytes is too large for a lesson: allowed up to 1 MiB");
  }
  auto entries = reader.entries(text);
  if (!entries) return Error(entries.error());
  Lesson lesson;
  bool has_answer = false;
  for (const Entry& e : *entries) {
    if (e.key == "step") {
      if (!lesson.steps.empty()) {
        if (auto ok = checkStep(reader, lesson.steps.back(), has_answer); !ok) return Error(ok.error());
      }
      lesson.steps.push_back(Step{});
      lesson.steps.back().title = e.value;
      lesson.steps.back().line = e.line;
      has_answer = false;
    } else if (e.key == "lesson" || e.key == "number" || e.key == "summary") {
      if (!lesson.steps.empty()) return reader.error(e.line, e.key + " belongs before the first step");
      if (e.key == "lesson") lesson.title = e.value;
      if (e.key == "summary") lesson.summary = e.value;
      if (e.key == "number") {
        auto n = reader.number(e, 1.0);
        if (!n || *n != std::floor(*n) || *n > 999)
          return reader.error(e.line, "number \"" + e.value + "\" is not a whole number 1 … 999");
        lesson.number = static_cast<int>(*n);
      }
    } else {
      if (lesson.steps.empty()) return reader.error(e.line, e.key + " belongs to a step: put 'step: <title>' first");
      if (auto ok = applyStepEntry(reader, e, lesson.steps.back()); !ok) return Error(ok.error());
      if (e.key == "answer") has_answer = true;
    }
  }
  if (lesson.title.empty()) return reader.error(1, "the lesson has no title: 'lesson: <title>' before the first step");
  if (lesson.steps.empty()) return reader.error(1, "the lesson has no steps: 'step: <title>'");
  if (auto ok = checkStep(reader, lesson.steps.back(), has_answer); !ok) return Error(ok.error());
  return lesson;
}

}  // namespace occx::lessons
