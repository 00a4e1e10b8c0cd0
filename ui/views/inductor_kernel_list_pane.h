// The Inductor run view's kernel list: every kernel of the run, filterable (any column) and sortable
// by any column, with the step's in-step time per kernel once a profiler trace is open. While the
// filter hides the kernel the user chose, no kernel is chosen (the details show none); the filter
// letting it through chooses it again.
#pragma once

#include <QString>
#include <QStyledItemDelegate>
#include <QWidget>
#include <vector>

#include "core/step/step_profile.h"
#include "ui/models/inductor_run_data.h"

class QLineEdit;
class QSortFilterProxyModel;
class QTableView;

namespace occx::ui {

class KernelListModel;

/// Draws the kernel list's names elided so that they stay distinct from each other
/// (elideKernelName over `model`'s names): a name's start, "…" and as many of its last words as tell
/// it apart. Qt's own middle elision cuts at the middle, where long fused names can read alike.
class KernelNameDelegate : public QStyledItemDelegate {
  Q_OBJECT

 public:
  KernelNameDelegate(const KernelListModel* model, QObject* parent) : QStyledItemDelegate(parent), model_(model) {}

  /// The text the cell `index` shows in a column `width` pixels wide, in `view`'s font and style.
  [[nodiscard]] QString shownText(const QModelIndex& index, int width, const QWidget* view) const;

 protected:
  void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override;

 private:
  [[nodiscard]] QString elided(const QString& text, const QFontMetrics& metrics, int rect_width,
                               const QWidget* view) const;

  const KernelListModel* model_;
};

class InductorKernelListPane : public QWidget {
  Q_OBJECT

 public:
  explicit InductorKernelListPane(QWidget* parent = nullptr);

  /// Lists `kernels` (the run's, in its order). For a new run (`new_run`) no kernel is chosen, the
  /// in-step times are cleared and the columns fitted; otherwise the chosen kernel stays.
  void setKernels(const std::vector<RunKernelEntry>& kernels, bool new_run);
  /// Chooses kernel `index` of the run (not the sorted row) and selects its row; for one the filter
  /// hides, the filter is cleared first. kernelChosen() when the choice changes. False when out of
  /// range.
  bool selectKernel(int index);
  /// Index of the chosen kernel in the run, -1 when none or while the filter hides it.
  [[nodiscard]] int chosenKernel() const { return hidden_ ? -1 : chosen_; }
  /// The chosen kernel, nullptr when none or while the filter hides it.
  [[nodiscard]] const RunKernelEntry* chosenEntry() const;
  /// The kernel the user chose that the filter hides now (chosen again once the filter lets it
  /// through), nullptr when none.
  [[nodiscard]] const RunKernelEntry* hiddenEntry() const;

  /// Shows the in-step time of the kernels of `profile` matched to the run (null: no trace; the
  /// In-step column hides). The first times of a trace move the column to the front and sort by it.
  void setInStepTimes(const step::StepProfile* profile);
  /// A new trace is opened: its times sort the list once more.
  void resortByInStepTime() { in_step_sorted_ = false; }

  [[nodiscard]] QString filterText() const;
  void setFilterText(const QString& text);

 signals:
  /// The user (or selectKernel) chose kernel `index` of the run.
  void kernelChosen(int index);
  /// The filter hid the chosen kernel (`hidden`: chosenEntry() is nullptr now) or let it through
  /// again (chosenEntry() is the kernel once more).
  void chosenHiddenChanged(bool hidden);

 private:
  void choose(int index);
  /// Selects the chosen kernel's row when the filter lets it through, no row otherwise; says when
  /// that hides the choice or shows it again.
  void followFilter();

  KernelListModel* model_;
  QSortFilterProxyModel* proxy_;
  QLineEdit* filter_;
  QTableView* table_;
  int chosen_ = -1;
  bool hidden_ = false;          ///< the filter hides the chosen kernel
  bool filtering_ = false;       ///< the filter is changing the table: its current row is not the user's choice
  bool in_step_sorted_ = false;  ///< the list was sorted by in-step time once for this trace
};

}  // namespace occx::ui
