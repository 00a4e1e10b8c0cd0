// Fuzz target: the lesson reader (parseLesson). The input is a lesson file. A lesson it accepts
// must be one the panel can show: a title, at least one step, every step with a title and text,
// every question with a non-negative tolerance, a control move (`try`) and a read-out (`check`),
// and every line number inside the file.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/lessons/lesson.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_lesson: property violated: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto lesson = occx::lessons::parseLesson(text, "fuzz.lesson");
  if (!lesson) {
    require(lesson.error().rfind("fuzz.lesson", 0) == 0, "an error names the file");
    return 0;
  }
  const auto lines = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
  require(!lesson->title.empty() && !lesson->steps.empty(), "a lesson has a title and steps");
  for (const auto& step : lesson->steps) {
    require(!step.title.empty() && !step.text.empty(), "a step has a title and text");
    require(step.line >= 1 && step.line <= lines, "a step's line is in the file");
    for (const auto& b : step.settings) require(!b.name.empty() && !b.value.empty(), "a setting has name and value");
    if (step.question) {
      const auto& q = *step.question;
      require(q.tolerance >= 0.0 && std::isfinite(q.answer), "a question has a finite answer and tolerance >= 0");
      require(!q.try_settings.empty() && !q.check.empty(), "a question has a try and a check");
    }
  }
  return 0;
}
