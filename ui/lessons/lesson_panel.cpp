#include "ui/lessons/lesson_panel.h"

#include <QAction>
#include <QComboBox>
#include <QDirIterator>
#include <QDockWidget>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMainWindow>
#include <QProgressBar>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QTabWidget>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "core/base/atomic_file.h"
#include "ui/lessons/highlight_frame.h"
#include "ui/lessons/lesson_stage.h"
#include "ui/models/text.h"
#include "ui/shell/help_text.h"

namespace occx::ui {
namespace {

constexpr qint64 kMaxLessonFileBytes = qint64{1} << 20;

QLabel* wrappedLabel(const QString& object_name) {
  auto* label = new QLabel;
  label->setObjectName(object_name);
  label->setWordWrap(true);
  label->setTextInteractionFlags(Qt::TextSelectableByMouse);
  return label;
}

/// A number as a student types it: "56", "56.5", "56,5" (this locale), with a unit after it.
bool parsePrediction(const QString& text, double& out) {
  QString t = text.trimmed();
  const qsizetype space = t.indexOf(QLatin1Char(' '));
  if (space > 0) t = t.left(space);
  t.remove(QLatin1Char('%'));
  bool ok = false;
  out = QLocale().toDouble(t, &ok);
  if (!ok) out = QLocale::c().toDouble(t, &ok);
  return ok && std::isfinite(out);
}

/// `text` with places to break inside long names (a zero-width space before each capital that follows
/// a small letter, and after each underscore, in words over 24 characters): a label wraps only between
/// words, and "cudaFuncAttributeNonPortableClusterSizeAllowed" would widen the narrow panel past its dock.
QString breakableText(const QString& text) {
  QStringList words = text.split(QLatin1Char(' '));
  for (QString& w : words) {
    if (w.size() <= 24) continue;
    QString out;
    for (qsizetype i = 0; i < w.size(); ++i) {
      if (i > 0 && w[i].isUpper() && w[i - 1].isLower()) out += QChar(0x200B);
      out += w[i];
      if (w[i] == QLatin1Char('_') && i + 1 < w.size()) out += QChar(0x200B);
    }
    w = out;
  }
  return words.join(QLatin1Char(' '));
}

QString numberText(double v) {
  return QLocale().toString(v, 'g', 10);
}

}  // namespace

Expected<LoadedLesson> loadLessonFile(const QString& path, const LessonStage& stage) {
  const bool resource = path.startsWith(QLatin1String(":/"));
  const QString name = resource ? QFileInfo(path).fileName() : path;
  std::string text;
  if (resource) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
      return Error(QStringLiteral("%1: cannot be read (%2)").arg(name, file.errorString()).toStdString());
    }
    text = file.read(kMaxLessonFileBytes + 1).toStdString();
  } else {
    // A teacher's file: bounded, and a FIFO or a device is refused without waiting (core readFile).
    auto read = readFile(QFile::encodeName(path).toStdString(), kMaxLessonFileBytes);
    if (!read) return Error(read.error());
    text = std::move(read).value();
  }
  auto lesson = lessons::parseLesson(text, name.toStdString());
  if (!lesson) return Error(lesson.error());
  if (QString problem = stage.validate(*lesson, name); !problem.isEmpty()) return Error(problem.toStdString());
  return LoadedLesson{path, std::move(lesson).value()};
}

std::vector<LoadedLesson> bundledLessons(const LessonStage& stage, QStringList* errors) {
  QStringList paths;
  QDirIterator it(QStringLiteral(":/lessons"), {QStringLiteral("*.lesson")}, QDir::Files);
  while (it.hasNext()) paths << it.next();
  std::vector<LoadedLesson> out;
  for (const QString& path : paths) {
    auto loaded = loadLessonFile(path, stage);
    if (loaded) {
      out.push_back(std::move(loaded).value());
    } else if (errors != nullptr) {
      *errors << q(loaded.error());
    }
  }
  std::sort(out.begin(), out.end(),
            [](const LoadedLesson& a, const LoadedLesson& b) { return a.lesson.number < b.lesson.number; });
  return out;
}

LessonPanel::LessonPanel(const LessonViews& views, QWidget* parent)
    : QWidget(parent),
      stage_(std::make_unique<LessonStage>(views)),
      bundled_(bundledLessons(*stage_)),
      watch_(new QTimer(this)) {
  setObjectName(QStringLiteral("lessonPanel"));
  auto* content = new QWidget;
  auto* layout = new QVBoxLayout(content);
  auto* choose = new QHBoxLayout;
  lessons_combo_ = new QComboBox;
  lessons_combo_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  lessons_combo_->setObjectName(QStringLiteral("lessonChooser"));
  lessons_combo_->setToolTip(tr("The lessons that come with the program"));
  auto* open = new QPushButton(tr("Open…"));
  open->setObjectName(QStringLiteral("openLessonButton"));
  open->setToolTip(tr("Open a lesson file of your own (the format: docs/lessons.md)"));
  layout->addWidget(lessons_combo_);
  choose->addWidget(new QLabel(tr("or your own:")));
  choose->addWidget(open);
  choose->addStretch(1);
  layout->addLayout(choose);
  lesson_title_ = wrappedLabel(QStringLiteral("lessonTitle"));
  lesson_title_->setStyleSheet(QStringLiteral("font-weight: bold; font-size: 11pt;"));
  progress_ = new QProgressBar;
  progress_->setObjectName(QStringLiteral("lessonProgress"));
  progress_->setTextVisible(false);
  progress_->setMaximumHeight(6);
  step_count_ = wrappedLabel(QStringLiteral("stepCount"));
  title_ = wrappedLabel(QStringLiteral("stepTitle"));
  title_->setStyleSheet(QStringLiteral("font-weight: bold;"));
  text_ = wrappedLabel(QStringLiteral("stepText"));
  mismatch_ = wrappedLabel(QStringLiteral("lessonMismatch"));
  mismatch_->setStyleSheet(QStringLiteral("background: #fff4d6; border: 1px solid #e0b040; padding: 4px;"));
  problem_ = wrappedLabel(QStringLiteral("lessonProblem"));
  problem_->setStyleSheet(QStringLiteral("color: #b00020;"));
  end_ = wrappedLabel(QStringLiteral("lessonEnd"));
  end_->setText(tr("This is the end of the lesson. Choose another one above, or go back over a step."));
  end_->setStyleSheet(QStringLiteral("font-style: italic;"));
  // The buttons follow the text (not the panel's bottom edge, far from it on a tall screen).
  for (QWidget* w : std::initializer_list<QWidget*>{lesson_title_, step_count_, progress_, title_, text_,
                                                    buildQuestionBox(), mismatch_, problem_, end_, buildButtons()}) {
    layout->addWidget(w);
  }
  mismatch_->hide();
  problem_->hide();
  end_->hide();
  step_count_->hide();
  layout->addStretch(1);
  scroll_ = new QScrollArea;
  scroll_->setWidget(content);
  scroll_->setWidgetResizable(true);
  scroll_->setFrameShape(QFrame::NoFrame);
  scroll_->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  auto* outer = new QVBoxLayout(this);
  outer->setContentsMargins(0, 0, 0, 0);
  outer->addWidget(scroll_, 1);
  fillLessonList();
  connect(open, &QPushButton::clicked, this, [this] {
    const QString path =
        QFileDialog::getOpenFileName(this, tr("Open a lesson"), QString(), tr("Lessons (*.lesson);;All files (*)"));
    if (!path.isEmpty()) openLessonFile(path);
  });
  connect(lessons_combo_, &QComboBox::activated, this, [this](int index) {
    if (index >= 0 && index < static_cast<int>(bundled_.size())) startLesson(bundled_[static_cast<std::size_t>(index)]);
  });
  connect(watch_, &QTimer::timeout, this, &LessonPanel::checkViews);
  setMinimumWidth(260);
  updateButtons();
}

LessonPanel::~LessonPanel() {
  clearHighlights();
}

QWidget* LessonPanel::buildQuestionBox() {
  question_box_ = new QWidget;
  question_box_->setObjectName(QStringLiteral("lessonQuestion"));
  auto* v = new QVBoxLayout(question_box_);
  v->setContentsMargins(0, 6, 0, 6);
  question_ = wrappedLabel(QStringLiteral("questionText"));
  question_->setStyleSheet(QStringLiteral("font-style: italic;"));
  auto* row = new QHBoxLayout;
  prediction_ = new QLineEdit;
  prediction_->setObjectName(QStringLiteral("predictionEdit"));
  prediction_->setPlaceholderText(tr("your prediction"));
  unit_ = new QLabel;
  check_ = new QPushButton(tr("Check"));
  check_->setObjectName(QStringLiteral("checkPredictionButton"));
  row->addWidget(prediction_, 1);
  row->addWidget(unit_);
  row->addWidget(check_);
  feedback_ = wrappedLabel(QStringLiteral("predictionFeedback"));
  show_me_ = new QPushButton(tr("Do it for me"));
  show_me_->setObjectName(QStringLiteral("showAnswerButton"));
  show_me_->setToolTip(tr("Moves the control for you and shows the answer"));
  answer_ = wrappedLabel(QStringLiteral("answerText"));
  answer_->setStyleSheet(QStringLiteral("background: #e8f4ea; border: 1px solid #6aa874; padding: 4px;"));
  v->addWidget(question_);
  v->addLayout(row);
  v->addWidget(feedback_);
  v->addWidget(show_me_, 0, Qt::AlignLeft);
  v->addWidget(answer_);
  connect(check_, &QPushButton::clicked, this, [this] { checkPrediction(prediction_->text()); });
  connect(prediction_, &QLineEdit::returnPressed, this, [this] { checkPrediction(prediction_->text()); });
  connect(show_me_, &QPushButton::clicked, this, &LessonPanel::showAnswer);
  return question_box_;
}

QWidget* LessonPanel::buildButtons() {
  auto* bar = new QWidget;
  auto* h = new QHBoxLayout(bar);
  h->setContentsMargins(0, 8, 0, 0);
  back_ = new QPushButton(tr("◀ Back"));
  back_->setObjectName(QStringLiteral("lessonBack"));
  reset_ = new QPushButton(tr("Reset this step"));
  reset_->setObjectName(QStringLiteral("lessonReset"));
  reset_->setToolTip(tr("Puts the views back the way this step set them"));
  next_ = new QPushButton(tr("Next ▶"));
  next_->setObjectName(QStringLiteral("lessonNext"));
  h->addWidget(back_);
  h->addWidget(reset_, 1);
  h->addWidget(next_);
  connect(back_, &QPushButton::clicked, this, [this] { showStep(step_ - 1); });
  connect(next_, &QPushButton::clicked, this, [this] { showStep(step_ + 1); });
  connect(reset_, &QPushButton::clicked, this, &LessonPanel::resetStep);
  return bar;
}

void LessonPanel::fillLessonList() {
  lessons_combo_->clear();
  for (const LoadedLesson& l : bundled_) {
    lessons_combo_->addItem(QStringLiteral("%1. %2").arg(l.lesson.number).arg(q(l.lesson.title)));
    lessons_combo_->setItemData(lessons_combo_->count() - 1, q(l.lesson.summary), Qt::ToolTipRole);
  }
  lessons_combo_->setCurrentIndex(-1);
  lessons_combo_->setPlaceholderText(tr("Choose a lesson"));
  lesson_title_->setText(
      tr("Choose a lesson above. Each walks you through the app step by step; you may touch "
         "anything along the way."));
}

void LessonPanel::startLesson(const LoadedLesson& lesson) {
  lesson_ = lesson;
  lesson_title_->setText(QStringLiteral("%1. %2").arg(lesson.lesson.number).arg(q(lesson.lesson.title)));
  lesson_title_->setToolTip(q(lesson.lesson.summary));
  progress_->setRange(0, static_cast<int>(lesson.lesson.steps.size()));
  problem_->clear();
  showStep(0);
}

bool LessonPanel::startBundled(int number) {
  for (std::size_t i = 0; i < bundled_.size(); ++i) {
    if (bundled_[i].lesson.number == number) {
      lessons_combo_->setCurrentIndex(static_cast<int>(i));
      startLesson(bundled_[i]);
      return true;
    }
  }
  return false;
}

QString LessonPanel::openLessonFile(const QString& path) {
  auto loaded = loadLessonFile(path, *stage_);
  if (!loaded) {
    problem_->setText(q(loaded.error()));
    problem_->show();
    return problem_->text();
  }
  lessons_combo_->setCurrentIndex(-1);
  startLesson(*loaded);
  return {};
}

int LessonPanel::stepCount() const {
  return lesson_ ? static_cast<int>(lesson_->lesson.steps.size()) : 0;
}

const lessons::Step* LessonPanel::step() const {
  if (!lesson_ || step_ < 0 || step_ >= stepCount()) return nullptr;
  return &lesson_->lesson.steps[static_cast<std::size_t>(step_)];
}

void LessonPanel::applySettings(const std::vector<lessons::Binding>& settings, QStringList& problems) {
  for (const lessons::Binding& b : settings) {
    if (QString e = stage_->set(q(b.name), q(b.value)); !e.isEmpty()) {
      problems << tr("Line %1: %2").arg(b.line).arg(e);
    }
  }
}

bool LessonPanel::showStep(int index) {
  if (!lesson_ || index < 0 || index >= stepCount()) return false;
  step_ = index;
  const lessons::Step& s = *step();
  QStringList problems;
  if (!s.tab.empty()) {
    if (QString e = stage_->showTab(q(s.tab)); !e.isEmpty()) problems << e;
  }
  applySettings(s.settings, problems);
  answer_shown_ = false;
  predicted_ = false;
  progress_->setValue(index + 1);
  step_count_->setText(tr("Step %1 of %2").arg(index + 1).arg(stepCount()));
  step_count_->show();
  end_->setVisible(index + 1 == stepCount());
  title_->setText(q(s.title));
  text_->setText(breakableText(q(s.text)));
  question_box_->setVisible(s.question.has_value());
  if (s.question) {
    question_->setText(breakableText(q(s.question->prompt)));
    unit_->setText(q(s.question->unit));
    prediction_->clear();
    feedback_->clear();
    feedback_->hide();
    answer_->clear();
    answer_->hide();
  }
  clearHighlights();
  for (const std::string& h : s.highlights) highlight(q(h));
  problems << brokenPromises();
  problem_->setText(problems.join(QLatin1Char('\n')));
  problem_->setVisible(!problems.isEmpty());
  mismatch_->hide();
  updateButtons();
  emit stepShown(index);
  return true;
}

void LessonPanel::updateButtons() {
  back_->setEnabled(lesson_ && step_ > 0);
  next_->setEnabled(lesson_ && step_ + 1 < stepCount());
  reset_->setEnabled(lesson_.has_value());
  progress_->setVisible(lesson_.has_value());
  step_count_->setVisible(lesson_.has_value());
  if (!lesson_) question_box_->hide();
  show_me_->setEnabled(step() != nullptr && step()->question && !answer_shown_);
}

QString LessonPanel::checkPrediction(const QString& text) {
  const lessons::Step* s = step();
  if (s == nullptr || !s->question) return {};
  const lessons::Question& question = *s->question;
  double guess = 0.0;
  QString words;
  if (!parsePrediction(text, guess)) {
    words = tr("\"%1\" is not a number: type your prediction as a number, e.g. 48.").arg(text.trimmed());
  } else {
    predicted_ = true;
    const bool right = std::abs(guess - question.answer) <= question.tolerance + 1e-9;
    QStringList moves;
    for (const lessons::Binding& b : question.try_settings) moves << moveWords(q(b.name), q(b.value));
    const QString now = tr("Now %1 (framed in orange) and see.").arg(moves.join(tr(" and ")));
    const QString unit = unitAfter(guess);
    if (!right) {
      words = tr("Not quite: you said %1. %2").arg(numberText(guess), now);
    } else if (question.tolerance > 0) {
      words = tr("Close enough: %1%2 is within %3%4 of the answer. %5")
                  .arg(numberText(guess), unit, numberText(question.tolerance), unitAfter(question.tolerance), now);
    } else {
      words = tr("Right: %1%2. %3").arg(numberText(guess), unit, now);
    }
    clearHighlights();
    for (const lessons::Binding& b : question.try_settings) highlight(q(b.name));
  }
  feedback_->setText(words);
  feedback_->show();
  return words;
}

void LessonPanel::showAnswer() {
  const lessons::Step* s = step();
  if (s == nullptr || !s->question) return;
  QStringList problems;
  applySettings(s->question->try_settings, problems);
  if (!problems.isEmpty()) {
    problem_->setText(problems.join(QLatin1Char('\n')));
    problem_->show();
  }
  revealAnswer();
}

void LessonPanel::revealAnswer() {
  const lessons::Step* s = step();
  if (s == nullptr || !s->question || answer_shown_) return;
  const lessons::Question& question = *s->question;
  answer_shown_ = true;
  const QString check = q(question.check);
  auto shown = stage_->read(check);
  QString text = tr("Answer: %1%2.").arg(numberText(question.answer), unitAfter(question.answer));
  if (shown) text += tr(" The app shows: %1 = %2.").arg(describe(check), *shown);
  if (!question.explanation.empty()) text += QStringLiteral(" ") + q(question.explanation);
  answer_->setText(breakableText(text));
  answer_->show();
  if (!predicted_) feedback_->hide();  // a "not a number" note is stale once the answer shows
  QTimer::singleShot(0, this, [this] {
    scroll_->ensureWidgetVisible(answer_);
    scroll_->horizontalScrollBar()->setValue(0);  // the panel never scrolls sideways (its bar is off)
  });
  clearHighlights();
  highlight(check);
  for (const std::string& h : s->highlights) highlight(q(h));
  const QStringList broken = brokenPromises();
  problem_->setText(broken.join(QLatin1Char('\n')));
  problem_->setVisible(!broken.isEmpty());
  updateButtons();
}

void LessonPanel::resetStep() {
  showStep(step_);
}

QString LessonPanel::describe(const QString& name) const {
  const LessonStage::Name* n = stage_->find(name);
  if (n == nullptr) return name;
  QString what = n->what;
  const qsizetype paren = what.indexOf(QStringLiteral(" ("));
  if (paren > 0) what = what.left(paren);
  return what;
}

QString LessonPanel::unitAfter(double value) const {
  const lessons::Step* s = step();
  if (s == nullptr || !s->question || s->question->unit.empty()) return {};
  QString unit = q(s->question->unit);
  const qsizetype space = unit.indexOf(QLatin1Char(' '));
  const qsizetype first_end = space < 0 ? unit.size() : space;
  if (value == 1.0 && first_end > 1 && unit.at(first_end - 1) == QLatin1Char('s')) {
    unit.remove(first_end - 1, 1);  // "1 block per SM", not "1 blocks per SM"
  }
  return QStringLiteral(" ") + unit;
}

QString LessonPanel::moveWords(const QString& name, const QString& value) const {
  if (name == QLatin1String("inductor.config")) return tr("click the row %1 in the table of configs").arg(value);
  if (name == QLatin1String("inductor.kernel")) return tr("click the kernel %1 in the list").arg(value);
  QString what = describe(name);
  if (what.size() > 1 && what.at(1).isLower()) what[0] = what.at(0).toLower();
  return tr("set %1 to %2").arg(what, value);
}

QStringList LessonPanel::mismatches() const {
  const lessons::Step* s = step();
  QStringList out;
  if (s == nullptr) return out;
  std::vector<lessons::Binding> wanted = s->settings;
  if (s->question && answer_shown_) {
    for (const lessons::Binding& t : s->question->try_settings) {
      wanted.erase(
          std::remove_if(wanted.begin(), wanted.end(), [&t](const lessons::Binding& b) { return b.name == t.name; }),
          wanted.end());
      wanted.push_back(t);
    }
  }
  if (!s->tab.empty() && stage_->currentTab() != q(s->tab)) {
    const QTabWidget* tabs = stage_->views().tabs;
    out << tr("This step is on the %1 tab.").arg(tabs->tabText(tabs->indexOf(stage_->viewOf(q(s->tab)))));
  }
  for (const lessons::Binding& b : wanted) {
    // A page is where to look, not what the views compute: a framed control's page comes to the front
    // on its own, and a student who turns pages has changed nothing the step stands on.
    if (q(b.name).endsWith(QLatin1String("page"))) continue;
    auto now = stage_->read(q(b.name));
    if (now && !lessonValueMatches(*now, q(b.value))) {
      out << tr("%1 is %2 here; this step uses %3.").arg(describe(q(b.name)), *now, q(b.value));
    }
  }
  return out;
}

QStringList LessonPanel::brokenPromises() const {
  const lessons::Step* s = step();
  QStringList out;
  if (s == nullptr) return out;
  // Before the question's control moves, `expect`; after, `expect-after` (the move changes the rest).
  const std::vector<lessons::Binding>& promised = answer_shown_ ? s->expects_after_try : s->expects;
  for (const lessons::Binding& b : promised) {
    auto now = stage_->read(q(b.name));
    if (!now || !lessonValueMatches(*now, q(b.value))) {
      out << tr("This lesson expects %1 = %2 (line %3), but the app shows %4: the lesson no longer fits this version.")
                 .arg(q(b.name), q(b.value))
                 .arg(b.line)
                 .arg(now ? *now : q(now.error()));
    }
  }
  return out;
}

void LessonPanel::checkViews() {
  const lessons::Step* s = step();
  if (s == nullptr) return;
  if (s->question && !answer_shown_) {
    const auto& tries = s->question->try_settings;
    const bool moved = std::all_of(tries.begin(), tries.end(),
                                   [this](const lessons::Binding& b) { return stage_->shows(q(b.name), q(b.value)); });
    if (moved) revealAnswer();
  }
  QStringList differ = mismatches();
  if (s->question && !answer_shown_) {
    // Moving the question's control is what the step asks for: not a mismatch.
    differ.erase(std::remove_if(differ.begin(), differ.end(),
                                [this, s](const QString& line) {
                                  return std::any_of(s->question->try_settings.begin(), s->question->try_settings.end(),
                                                     [this, &line](const lessons::Binding& b) {
                                                       return line.startsWith(describe(q(b.name)) + QLatin1Char(' '));
                                                     });
                                }),
                 differ.end());
  }
  mismatch_->setText(tr("The views no longer match this step: %1 Look around as you like; “Reset this step” puts "
                        "them back.")
                         .arg(differ.join(QLatin1Char(' '))));
  mismatch_->setVisible(!differ.isEmpty());
}

std::vector<QWidget*> LessonPanel::highlighted() const {
  std::vector<QWidget*> out;
  for (const auto& f : frames_) {
    if (f != nullptr && f->target() != nullptr) out.push_back(f->target());
  }
  return out;
}

void LessonPanel::clearHighlights() {
  // Hidden now, deleted later: this runs inside the window's own hiding of its children.
  for (auto& f : frames_) {
    if (f != nullptr) {
      f->hide();
      f->deleteLater();
    }
  }
  frames_.clear();
}

void LessonPanel::highlight(const QString& name) {
  QWidget* w = stage_->widget(name);
  if (w == nullptr) return;
  for (const auto& f : frames_) {
    if (f != nullptr && f->target() == w) return;
  }
  frames_.emplace_back(new HighlightFrame(w));
}

void LessonPanel::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  watch_->start(300);
  if (const lessons::Step* s = step(); s != nullptr && frames_.empty()) {
    for (const std::string& h : s->highlights) highlight(q(h));
  }
}

void LessonPanel::hideEvent(QHideEvent* event) {
  QWidget::hideEvent(event);
  watch_->stop();
  clearHighlights();  // a closed panel leaves no frames over the views
}

}  // namespace occx::ui

namespace occx::ui {

QDockWidget* addLessonDock(QMainWindow* window, const LessonViews& views) {
  auto* dock = new QDockWidget(QObject::tr("Lessons"), window);
  dock->setObjectName(QStringLiteral("lessonDock"));
  dock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
  dock->setWidget(new LessonPanel(views, dock));
  window->addDockWidget(Qt::RightDockWidgetArea, dock);
  dock->hide();
  // A quarter of the window's width (300 … 460 px) when it opens, so the text is not a thin column on
  // a large screen nor a wide one on a small screen.
  QObject::connect(dock, &QDockWidget::visibilityChanged, window, [window, dock](bool visible) {
    if (!visible || dock->isFloating()) return;
    const int width = std::clamp(window->width() / 4, 300, 460);
    window->resizeDocks({dock}, {width}, Qt::Horizontal);
  });
  QAction* toggle = dock->toggleViewAction();
  toggle->setText(QObject::tr("&Lessons"));
  toggle->setShortcut(lessonsKey());
  toggle->setStatusTip(
      QObject::tr("Lessons that walk you through occupancy and Inductor's RBLOCK decision, step by step"));
  return dock;
}

}  // namespace occx::ui
