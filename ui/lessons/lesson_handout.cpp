#include "ui/lessons/lesson_handout.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QLabel>
#include <QPainter>
#include <QRegularExpression>
#include <QTabWidget>
#include <algorithm>

#include "ui/lessons/lesson_panel.h"
#include "ui/lessons/lesson_stage.h"
#include "ui/plots/plot_controller.h"
#include "ui/views/app_view.h"

namespace occx::ui {
namespace {

constexpr int kPictureWidth = 640;  ///< CSS pixels (the PDF's document pixels): within A4's printable width
constexpr double kGrabScale = 2.0;  ///< views grabbed at twice their size, for print

QString escText(const QString& s) {
  return s.toHtmlEscaped();
}

/// The plot among `view`'s exports whose widget is `w`, nullptr when none.
PlotController* plotOf(QWidget* view, const QWidget* w) {
  const auto* app_view = dynamic_cast<const AppView*>(view);
  if (app_view == nullptr || w == nullptr) return nullptr;
  for (PlotController* p : app_view->plotExports()) {
    if (p != nullptr && p->widget() == w) return p;
  }
  return nullptr;
}

/// `view` drawn at kGrabScale, each of `framed` (its descendants) outlined in orange as the panel
/// frames it on screen; cut to the framed widgets (with a margin) when there are any, so that their
/// text stays readable on a printed page.
QImage viewPicture(QWidget* view, const std::vector<QWidget*>& framed) {
  if (view == nullptr || view->width() <= 0 || view->height() <= 0) return {};
  QImage image(view->size() * kGrabScale, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(kGrabScale);
  image.fill(Qt::white);
  QRect framed_area;
  {
    QPainter painter(&image);
    view->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.setPen(QPen(QColor(255, 140, 0), 3));
    painter.setBrush(Qt::NoBrush);
    for (QWidget* w : framed) {
      if (w == nullptr || !w->isVisible() || !view->isAncestorOf(w)) continue;
      const QRect r(w->mapTo(view, QPoint(0, 0)), w->size());
      painter.drawRect(r.adjusted(1, 1, -2, -2));
      framed_area |= r;
    }
  }
  if (framed_area.isEmpty()) return image;
  const QRect cut = framed_area.adjusted(-24, -24, 24, 24).intersected(view->rect());
  QImage part = image.copy(QRect(cut.topLeft() * kGrabScale, cut.size() * kGrabScale));
  part.setDevicePixelRatio(kGrabScale);
  return part;
}

/// The picture of the step shown now: the first framed plot, else the step's view.
void takePicture(LessonPanel& panel, HandoutStep& out) {
  LessonStage* stage = panel.stage();
  QWidget* view = stage->views().tabs->currentWidget();
  const std::vector<QWidget*> framed = panel.highlighted();
  for (QWidget* w : framed) {
    if (PlotController* plot = plotOf(view, w)) {
      out.picture = plot->renderImage();
      out.picture_is_plot = true;
      out.picture_title = plot->title();
      return;
    }
  }
  out.picture = viewPicture(view, framed);
  const QTabWidget* tabs = stage->views().tabs;
  out.picture_title = QObject::tr("The %1 tab").arg(tabs->tabText(tabs->currentIndex()));
}

QString pictureHtml(const HandoutStep& step, std::size_t index) {
  if (step.picture.isNull()) return {};
  // A plot is rendered at 2× its export size, a view grabbed at 2×: half its pixels, at most the page.
  const int natural = static_cast<int>(step.picture.width() / kGrabScale);
  const int width = std::min(natural, kPictureWidth);
  const int height = step.picture.width() > 0 ? step.picture.height() * width / step.picture.width() : 0;
  return QStringLiteral(
             "<p><img src=\"plot%1.png\" width=\"%2\" height=\"%3\" alt=\"%4\"><br>"
             "<span style=\"font-size:8pt\"><i>%4</i></span></p>\n")
      .arg(index)
      .arg(width)
      .arg(height)
      .arg(escText(step.picture_title));
}

}  // namespace

LessonHandout lessonHandoutOf(LessonPanel& panel) {
  LessonHandout out;
  const LoadedLesson* loaded = panel.lesson();
  if (loaded == nullptr) return out;
  out.number = loaded->lesson.number;
  out.title = QString::fromStdString(loaded->lesson.title);
  out.summary = QString::fromStdString(loaded->lesson.summary);
  const int shown_before = panel.currentStep();
  for (int i = 0; i < panel.stepCount(); ++i) {
    panel.showStep(i);
    QCoreApplication::sendPostedEvents();  // layouts and lazy replots settle before the picture
    const lessons::Step& s = loaded->lesson.steps[static_cast<std::size_t>(i)];
    HandoutStep step;
    step.title = QString::fromStdString(s.title);
    step.text = QString::fromStdString(s.text);
    takePicture(panel, step);
    if (s.question) {
      step.question = QString::fromStdString(s.question->prompt);
      step.unit = QString::fromStdString(s.question->unit);
      panel.showAnswer();
      step.answer = panel.answerLabel()->text().remove(QChar(0x200B));  // the label's places to break
    }
    out.steps.push_back(std::move(step));
  }
  panel.showStep(std::max(shown_before, 0));
  return out;
}

ReportContent handoutReport(const LessonHandout& handout, const QString& now_utc) {
  ReportContent r;
  r.title = QObject::tr("Lesson %1: %2").arg(handout.number).arg(handout.title);
  r.date_utc = now_utc;
  r.plots_in_text = true;
  const auto questions = std::count_if(handout.steps.begin(), handout.steps.end(),
                                       [](const HandoutStep& s) { return !s.question.isEmpty(); });
  r.inputs = {
      {QObject::tr("Steps"), QString::number(handout.steps.size())},
      {QObject::tr("Questions"), QString::number(questions)},
      {QObject::tr("Where"), QObject::tr("Occupancy Explorer, Help → Lessons (F2), lesson %1").arg(handout.number)}};
  QString html = QStringLiteral("<p><i>%1</i></p>\n").arg(escText(handout.summary));
  html += QStringLiteral("<p>%1</p>\n")
              .arg(escText(QObject::tr("Take each step in the app, or on paper: write your prediction on the line "
                                       "before you look; the answers are at the end.")));
  QString answers;
  int question = 0;
  for (std::size_t i = 0; i < handout.steps.size(); ++i) {
    const HandoutStep& s = handout.steps[i];
    html += QStringLiteral("<h3>%1. %2</h3>\n<p>%3</p>\n").arg(i + 1).arg(escText(s.title), escText(s.text));
    if (!s.picture.isNull()) {
      html += pictureHtml(s, r.plots.size());
      r.plots.emplace_back(s.picture_title, s.picture);
    }
    if (s.question.isEmpty()) continue;
    ++question;
    html += QStringLiteral("<p><b>%1</b> %2<br>%3 ____________ %4</p>\n")
                .arg(escText(QObject::tr("Question %1.").arg(question)), escText(s.question),
                     escText(QObject::tr("Your prediction:")), escText(s.unit));
    answers += QStringLiteral("<p><b>%1</b> (%2) %3</p>\n")
                   .arg(escText(QObject::tr("Question %1.").arg(question)),
                        escText(QObject::tr("step %1, %2").arg(i + 1).arg(s.title)), escText(s.answer));
  }
  if (!answers.isEmpty()) {
    html += QStringLiteral("<h2 style=\"page-break-before:always\">%1</h2>\n%2")
                .arg(escText(QObject::tr("Answers")), answers);
  }
  r.text_html = html;
  return r;
}

QString writeLessonHandout(LessonPanel& panel, const QString& pdf_path, const QString& now_utc) {
  if (panel.lesson() == nullptr) return QObject::tr("No lesson is open: choose one in Help → Lessons first.");
  QString path = pdf_path;
  if (QFileInfo(path).suffix().compare(QStringLiteral("pdf"), Qt::CaseInsensitive) != 0) path += QStringLiteral(".pdf");
  const ReportContent report = handoutReport(lessonHandoutOf(panel), now_utc);
  if (auto pdf = writeReportPdf(report, path); !pdf) return QString::fromStdString(pdf.error());
  const QString html_path = path.left(path.size() - 4) + QStringLiteral(".html");
  if (auto html = writeReportHtml(report, html_path); !html) return QString::fromStdString(html.error());
  return {};
}

QString handoutFileName(const LessonPanel& panel) {
  const LoadedLesson* loaded = panel.lesson();
  if (loaded == nullptr) return {};
  QString slug = QString::fromStdString(loaded->lesson.title).toLower();
  slug.replace(QRegularExpression(QStringLiteral("[^a-z0-9]+")), QStringLiteral("-"));
  while (slug.endsWith(QLatin1Char('-'))) slug.chop(1);
  while (slug.startsWith(QLatin1Char('-'))) slug.remove(0, 1);
  return QStringLiteral("lesson-%1-%2-handout.pdf").arg(loaded->lesson.number).arg(slug);
}

}  // namespace occx::ui
