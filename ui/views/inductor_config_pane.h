// The Inductor run view's configs pane: the chosen kernel's heading and its compiled configs (tile,
// registers, spills, occupancy, origin, the winner, the measurements, every policy's decision with
// its reason), one selected; the selected config goes to the calculator or the RBLOCK-scaling view
// with its device. Its button row also holds what the view adds to it (the run and sweep controls).
#pragma once

#include <QWidget>
#include <optional>
#include <vector>

#include "ui/models/inductor_run_data.h"
#include "ui/views/config_hand_over.h"

class QHBoxLayout;
class QLabel;
class QPushButton;
class QTableView;

namespace occx::ui {

class RunConfigModel;

class InductorConfigPane : public QWidget {
  Q_OBJECT

 public:
  explicit InductorConfigPane(QWidget* parent = nullptr);

  /// Shows the compiled configs of `kernel` (null: none, and the title says `none_text`, by default
  /// "Select a kernel.") with their measurements in `run`; no config is selected until selectConfig.
  void showKernel(const InductorRunData& run, const RunKernelEntry* kernel, const QString& none_text = {});
  /// Selects config row `row` (configChanged() when the selection changes). False when out of range.
  bool selectConfig(int row);
  /// The selected config's row, -1 when none.
  [[nodiscard]] int selectedRow() const { return row_; }
  /// The selected config, nullptr when none.
  [[nodiscard]] const triton::ScanRow* selectedConfig() const;
  /// The selected config as a hand-over; nullopt when no compiled config is selected.
  [[nodiscard]] std::optional<ConfigHandOver> selectedHandOver() const;
  /// The configs shown, in the table's order.
  [[nodiscard]] const std::vector<triton::ScanRow>& configs() const;
  /// The configs table's model (rows, measurements, cells).
  [[nodiscard]] const RunConfigModel* model() const { return model_; }

  /// Adds `widget` at the right end of the button row.
  void addToButtonRow(QWidget* widget);
  /// The kernel's title and the row of buttons (calculator, RBLOCK scaling, and what
  /// addToButtonRow added): under and over the table, unless a view places them elsewhere (the
  /// Inductor run view keeps them over its pages, in sight whichever page is shown).
  [[nodiscard]] QLabel* titleLabel() const { return title_; }
  [[nodiscard]] QWidget* buttonRow() const { return button_row_; }

 signals:
  /// The selected config changed (the user clicked a row, or selectConfig).
  void configChanged();
  /// The selected config, for the calculator (block of num_warps · 32 threads, its registers and shared memory).
  void openInCalculator(const occx::ui::ConfigHandOver& config);
  /// The selected config, for the RBLOCK-scaling view.
  void openInRblock(const occx::ui::ConfigHandOver& config);

 private:
  void setRow(int row);
  void updateButtons();

  RunConfigModel* model_;
  QLabel* title_;
  QTableView* table_;
  QPushButton* to_calculator_;
  QPushButton* to_rblock_;
  QHBoxLayout* buttons_;
  QWidget* button_row_;
  int row_ = -1;
};

}  // namespace occx::ui
