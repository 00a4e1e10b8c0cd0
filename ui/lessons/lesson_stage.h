// The stage a lesson plays on: the views of the window, reached by stable names that lesson files
// use ("calculator.registers_per_thread", "rblock.new.decision", "inductor.config.time_us") — never
// widget internals, so a lesson keeps working when a view's layout changes. A name is a control a
// step may set, a read-out it may check, or both; every name also has a widget to highlight.
// docs/lessons.md lists the names (names() is the list; a test keeps the two equal).
#pragma once

#include <QString>
#include <QStringList>
#include <functional>
#include <vector>

#include "core/base/expected.h"
#include "core/lessons/lesson.h"

class QTabWidget;
class QWidget;

namespace occx::ui {

class CalculatorView;
class InductorRunView;
class RblockScalingView;

/// The views a lesson drives (all required: the window's tabs and three of its views).
struct LessonViews {
  QTabWidget* tabs = nullptr;
  CalculatorView* calculator = nullptr;
  RblockScalingView* rblock = nullptr;
  InductorRunView* inductor = nullptr;
};

class LessonStage {
 public:
  /// One stable name: what it is, and whether a step may set it (`set`/`try`) and read it
  /// (`expect`/`check`).
  struct Name {
    QString name;  ///< "calculator.registers_per_thread"
    QString what;  ///< "Registers per thread (0 … 255)", as a student reads it
    bool settable = false;
    bool readable = false;
    std::function<QString(const QString&)> set;  ///< empty, or why the value was refused
    std::function<QString()> read;               ///< the value as shown, numbers without units
    std::function<QWidget*()> widget;            ///< what `highlight` frames
  };

  explicit LessonStage(LessonViews views);

  /// The tabs a step may show (`tab:`): "calculator", "rblock", "inductor".
  [[nodiscard]] static QStringList tabNames();
  /// Makes tab `tab` current. Returns an empty string, or the error naming the allowed tabs.
  QString showTab(const QString& tab);
  /// The view of tab `tab` ("calculator", "rblock", "inductor"); nullptr for another name.
  [[nodiscard]] QWidget* viewOf(const QString& tab) const;
  /// The stable name of the tab shown now ("calculator", …); empty for a tab lessons do not use.
  [[nodiscard]] QString currentTab() const;
  /// Every name, grouped by view.
  [[nodiscard]] const std::vector<Name>& names() const { return names_; }
  /// The entry of `name`, nullptr when unknown.
  [[nodiscard]] const Name* find(const QString& name) const;

  /// Sets control `name` to `value` ("72", "H200", "default", "X1 R32768 w16"). Returns an empty
  /// string, or why not: an unknown or read-only name, a value the control refuses (with the range).
  QString set(const QString& name, const QString& value);
  /// The read-out `name` as the views show it now ("56", "registers", "scale"). Error: unknown name
  /// or one that cannot be read.
  [[nodiscard]] Expected<QString> read(const QString& name) const;
  /// Whether read-out `name` shows `written` (lessonValueMatches). False when it cannot be read.
  [[nodiscard]] bool shows(const QString& name, const QString& written) const;
  /// The widget to frame for `highlight: name`; nullptr when unknown.
  [[nodiscard]] QWidget* widget(const QString& name) const;

  /// Checks that every name `lesson` uses is known and used as allowed (a read-only name is not
  /// set; `check` and `expect` name readable ones; `tab` is one of tabNames()). Returns an empty
  /// string, or "SOURCE line N: unknown name 'x' …" for the first that is not.
  [[nodiscard]] QString validate(const lessons::Lesson& lesson, const QString& source) const;

  [[nodiscard]] const LessonViews& views() const { return views_; }

 private:
  void addCalculatorNames();
  void addCalculatorReadOuts();
  void addClusterNames();
  void addCalculatorExtras();
  void addRblockNames();
  void addRblockPolicyNames();
  void addInductorNames();
  void addInductorReadOuts();
  void addMeasuredExtras();
  void add(Name name);

  LessonViews views_;
  std::vector<Name> names_;
};

/// Whether `shown` (a read-out) shows `written` (a lesson's value): numbers match when `shown`
/// rounds to `written` at `written`'s decimals ("44.64" matches 44.6402, "4" matches 4.0); other
/// text matches case-insensitively after trimming.
bool lessonValueMatches(const QString& shown, const QString& written);

}  // namespace occx::ui
