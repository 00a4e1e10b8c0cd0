// A lesson's handout: File → Export report… while the lesson panel shows a lesson (and `--report`
// with `--lesson`). Each step with its title and text, a picture of what the step shows (the plot
// it frames, else its view with the framed places outlined in orange) taken after the step's
// settings are applied, its question with room for a prediction; then, on a page of their own,
// the answers with their explanations and the values the app showed. Written with the view
// reports' machinery (ui/shell/report.h): a PDF (A4, numbered pages) and an HTML twin with the
// pictures embedded, each atomically.
#pragma once

#include <QImage>
#include <QString>
#include <vector>

#include "core/base/expected.h"
#include "ui/shell/report.h"

namespace occx::ui {

class LessonPanel;

/// One step of a handout.
struct HandoutStep {
  QString title;
  QString text;
  QImage picture;  ///< the plot (rendered at 2×) or the view (grabbed at 2×); may be null
  bool picture_is_plot = false;
  QString picture_title;  ///< "Occupancy against registers per thread", "The Calculator tab"
  QString question;       ///< empty when the step asks none
  QString unit;
  QString answer;  ///< the answer as the panel says it (with the app's value and the explanation)
};

/// What a lesson's handout shows.
struct LessonHandout {
  int number = 0;
  QString title;
  QString summary;
  std::vector<HandoutStep> steps;
};

/// Walks `panel`'s open lesson step by step (showStep; the views change as the student's would),
/// takes each step's picture and, for a question, its answer ("Do it for me"); then shows the step
/// that was shown before. Empty (no steps) when no lesson is open.
LessonHandout lessonHandoutOf(LessonPanel& panel);

/// The handout as a report (report.h): the steps in order, pictures in the text, the questions in
/// their steps, and the answers after every question, on a new page. `now_utc` is the date shown.
ReportContent handoutReport(const LessonHandout& handout, const QString& now_utc);

/// Writes the handout of `panel`'s open lesson: the PDF to `pdf_path` and the HTML twin beside it
/// (same name, ".html"), each atomically. Returns an empty string, or the error naming the file (or
/// that no lesson is open).
QString writeLessonHandout(LessonPanel& panel, const QString& pdf_path, const QString& now_utc);

/// "lesson-2-registers-handout.pdf" for the open lesson of `panel` (empty when none).
QString handoutFileName(const LessonPanel& panel);

}  // namespace occx::ui
