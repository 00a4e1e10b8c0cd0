// The Inductor run view's "RBLOCK bounds vs registers" tab: for the selected config, resident
// blocks per SM against registers per thread under each bound with the config's point (the data of
// configBounds, ui/models/inductor_plot_data.h), and a note on the config's decision.
#pragma once

#include <QWidget>

class QLabel;

namespace occx::ui {

struct ConfigBounds;
class RblockBoundsPlot;

class InductorBoundsPane : public QWidget {
  Q_OBJECT

 public:
  explicit InductorBoundsPane(QWidget* parent = nullptr);

  /// Draws `bounds` (no curves: an empty plot, its title kept) and shows its note.
  void showBounds(const ConfigBounds& bounds);
  /// The plot, for exports.
  [[nodiscard]] RblockBoundsPlot* plot() const { return plot_; }

 private:
  QLabel* note_;
  RblockBoundsPlot* plot_;
};

}  // namespace occx::ui
