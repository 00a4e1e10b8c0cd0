// A lesson: steps that set the app's views to a stated state, say what is happening, and may ask the
// student to predict a number before moving a control to see it. Lessons are data — one text file
// each (resources/lessons/*.lesson, or a teacher's own file) in the format docs/lessons.md describes —
// so a teacher writes one without C++. This reader knows the format only; which names a step may
// set or check (`calculator.registers_per_thread`, `inductor.config`, …) is the app's (ui/lessons).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"

namespace occx::lessons {

/// One `name = value` of a step: an input it sets, or a read-out it promises.
struct Binding {
  std::string name;   ///< a stable name, e.g. "calculator.registers_per_thread"
  std::string value;  ///< as written, trimmed, e.g. "72" or "no scaling"
  int line = 0;       ///< 1-based line in the lesson file, for errors
};

/// A prediction the student types before seeing it: `ask`, `answer`, `tolerance`, `unit`, then the
/// control move (`try`) that shows it and the read-out (`check`) that must equal the answer.
struct Question {
  std::string prompt;
  double answer = 0.0;
  double tolerance = 0.0;             ///< accepted: |prediction − answer| <= tolerance (same unit)
  std::string unit;                   ///< e.g. "warps"; may be empty
  std::vector<Binding> try_settings;  ///< what the student sets to see the answer (at least one)
  std::string check;                  ///< the read-out that shows the answer, e.g. "calculator.active_warps"
  std::string explanation;            ///< said once the answer is shown
  int line = 0;                       ///< line of `ask`
};

/// One step of a lesson.
struct Step {
  std::string title;
  int line = 0;                         ///< line of `step`
  std::string tab;                      ///< the view it shows (a stable tab name); empty: keep
  int tab_line = 0;                     ///< line of `tab`
  std::vector<Binding> settings;        ///< inputs set, in file order
  std::vector<std::string> highlights;  ///< what to look at (stable names of controls or plots)
  std::vector<int> highlight_lines;     ///< line of each highlight
  std::string text;                     ///< two or three sentences
  std::optional<Question> question;
  std::vector<Binding> expects;            ///< read-outs after `settings` (before any `try`)
  std::vector<Binding> expects_after_try;  ///< read-outs after the question's `try` settings
};

struct Lesson {
  std::string title;
  int number = 0;       ///< its place in the list of lessons (1, 2, …)
  std::string summary;  ///< one sentence, shown in the lesson list
  std::vector<Step> steps;
};

/// Reads a lesson file. `source` names it in errors ("occupancy.lesson"). Errors name the line and
/// what is wrong, e.g. "occupancy.lesson line 12: unknown key 'hilight' (allowed: step, tab, …)";
/// a missing title, a lesson without steps, a step without text, `answer` that is not a number,
/// a negative tolerance, an `ask` without `answer`, `try` or `check`, a `set` without "=" and a
/// file over 1 MiB are refused. Never throws.
Expected<Lesson> parseLesson(std::string_view text, std::string_view source);

/// The keys a lesson file may use, in the order docs/lessons.md lists them.
const std::vector<std::string>& lessonKeys();

}  // namespace occx::lessons
