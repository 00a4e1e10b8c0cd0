// Help → Lessons: a side panel that walks a student through a lesson, step by step. Each step sets
// the views (LessonStage), frames what to look at (HighlightFrame) and says what is happening; a
// step with a question asks for a prediction first, checks it within the lesson's tolerance, then
// has the student move the control (or does it for them) and shows the answer with its
// explanation. The student may touch anything: the panel says when the views no longer match the
// step, and "Reset this step" puts them back. Lessons ship in resources/lessons (":/lessons/");
// a teacher's own file opens from disk (docs/lessons.md has the format).
#pragma once

#include <QPointer>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

#include "core/lessons/lesson.h"
#include "ui/lessons/lesson_stage.h"

class QDockWidget;
class QMainWindow;

class QComboBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QScrollArea;
class QTimer;

namespace occx::ui {

class HighlightFrame;

/// A lesson read and checked against the stage, with where it came from.
struct LoadedLesson {
  QString source;  ///< ":/lessons/01-occupancy.lesson" or a path
  lessons::Lesson lesson;
};

/// Reads lesson file `path` (a path or ":/…"): parseLesson, then LessonStage::validate. Errors name
/// the file and line.
Expected<LoadedLesson> loadLessonFile(const QString& path, const LessonStage& stage);
/// The bundled lessons, by number. A bundled lesson that does not load is left out and its error
/// added to `errors` (a test keeps it empty).
std::vector<LoadedLesson> bundledLessons(const LessonStage& stage, QStringList* errors = nullptr);

class LessonPanel : public QWidget {
  Q_OBJECT

 public:
  /// A panel on `views` (a LessonStage of its own); lists the bundled lessons and shows none until
  /// one is chosen.
  explicit LessonPanel(const LessonViews& views, QWidget* parent = nullptr);
  ~LessonPanel() override;

  [[nodiscard]] LessonStage* stage() const { return stage_.get(); }

  /// Starts a lesson at its first step.
  void startLesson(const LoadedLesson& lesson);
  /// Starts bundled lesson number `number`. False when there is none.
  bool startBundled(int number);
  /// Reads and starts a lesson file. Returns an empty string, or the error (also shown in the panel).
  QString openLessonFile(const QString& path);

  /// Shows step `index` (0-based): sets the views, frames what to look at, says the text. False when
  /// out of range or no lesson is open.
  bool showStep(int index);
  [[nodiscard]] int currentStep() const { return step_; }
  [[nodiscard]] int stepCount() const;
  [[nodiscard]] const LoadedLesson* lesson() const { return lesson_ ? &*lesson_ : nullptr; }

  /// Checks a typed prediction against the question's answer and tolerance; returns the words shown.
  QString checkPrediction(const QString& text);
  /// Moves the question's control for the student ("Do it for me") and shows the answer.
  void showAnswer();
  /// Sets the views to the step again (the question starts over).
  void resetStep();
  /// Compares the views with the step: says so when they differ, and shows the answer once the
  /// student has moved the question's control to where it asks. Runs every 300 ms while visible.
  void checkViews();
  /// What differs between the views and the step now, in words; empty when they match.
  [[nodiscard]] QStringList mismatches() const;
  /// Read-outs the step promises (`expect`; `expect-after` instead once the answer is shown) that the
  /// views do not show, in words: a lesson that no longer fits the app. Empty when all hold.
  [[nodiscard]] QStringList brokenPromises() const;
  /// Whether the answer of the step's question is shown.
  [[nodiscard]] bool answerShown() const { return answer_shown_; }
  /// The widgets framed now.
  [[nodiscard]] std::vector<QWidget*> highlighted() const;

  // Widgets, for tests.
  [[nodiscard]] QComboBox* lessonCombo() const { return lessons_combo_; }
  [[nodiscard]] QLabel* stepTitleLabel() const { return title_; }
  [[nodiscard]] QLabel* stepTextLabel() const { return text_; }
  [[nodiscard]] QLabel* questionLabel() const { return question_; }
  [[nodiscard]] QLineEdit* predictionEdit() const { return prediction_; }
  [[nodiscard]] QPushButton* checkButton() const { return check_; }
  [[nodiscard]] QLabel* feedbackLabel() const { return feedback_; }
  [[nodiscard]] QPushButton* showMeButton() const { return show_me_; }
  [[nodiscard]] QLabel* answerLabel() const { return answer_; }
  [[nodiscard]] QLabel* mismatchLabel() const { return mismatch_; }
  [[nodiscard]] QLabel* problemLabel() const { return problem_; }
  [[nodiscard]] QPushButton* backButton() const { return back_; }
  [[nodiscard]] QPushButton* nextButton() const { return next_; }
  [[nodiscard]] QPushButton* resetButton() const { return reset_; }

 signals:
  /// A step was shown (its index).
  void stepShown(int index);

 protected:
  void showEvent(QShowEvent* event) override;
  void hideEvent(QHideEvent* event) override;

 private:
  QWidget* buildQuestionBox();
  QWidget* buildButtons();
  void fillLessonList();
  void clearHighlights();
  void highlight(const QString& name);
  void applySettings(const std::vector<lessons::Binding>& settings, QStringList& problems);
  void revealAnswer();
  void updateButtons();
  [[nodiscard]] const lessons::Step* step() const;
  [[nodiscard]] QString describe(const QString& name) const;
  /// What the student does to set `name` to `value`, in words: "set registers per thread to 64",
  /// "click the row X1 R16384 w16 in the table of configs".
  [[nodiscard]] QString moveWords(const QString& name, const QString& value) const;
  /// " blocks per SM" after `value` (the question's unit, its first word singular for 1); empty
  /// without a unit.
  [[nodiscard]] QString unitAfter(double value) const;

  std::unique_ptr<LessonStage> stage_;
  std::vector<LoadedLesson> bundled_;
  std::optional<LoadedLesson> lesson_;
  int step_ = -1;
  bool answer_shown_ = false;
  bool predicted_ = false;
  std::vector<QPointer<HighlightFrame>> frames_;
  QTimer* watch_;

  QComboBox* lessons_combo_ = nullptr;
  QLabel* lesson_title_ = nullptr;
  QProgressBar* progress_ = nullptr;
  QLabel* step_count_ = nullptr;  ///< "Step 2 of 7"
  QLabel* end_ = nullptr;         ///< shown on the last step
  QScrollArea* scroll_ = nullptr;
  QLabel* title_ = nullptr;
  QLabel* text_ = nullptr;
  QWidget* question_box_ = nullptr;
  QLabel* question_ = nullptr;
  QLineEdit* prediction_ = nullptr;
  QLabel* unit_ = nullptr;
  QPushButton* check_ = nullptr;
  QLabel* feedback_ = nullptr;
  QPushButton* show_me_ = nullptr;
  QLabel* answer_ = nullptr;
  QLabel* mismatch_ = nullptr;
  QLabel* problem_ = nullptr;
  QPushButton* back_ = nullptr;
  QPushButton* next_ = nullptr;
  QPushButton* reset_ = nullptr;
};

/// Puts a LessonPanel on `views` in a dock on the right of `window`, hidden until asked for. Its
/// toggleViewAction() is Help → Lessons (F2; the caller adds it to the menu). The dock's widget is
/// the panel.
QDockWidget* addLessonDock(QMainWindow* window, const LessonViews& views);

}  // namespace occx::ui
