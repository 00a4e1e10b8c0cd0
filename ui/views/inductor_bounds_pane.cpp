#include "ui/views/inductor_bounds_pane.h"

#include <QLabel>
#include <QVBoxLayout>

#include "ui/models/inductor_plot_data.h"
#include "ui/plots/rblock_bounds_plot.h"

namespace occx::ui {

InductorBoundsPane::InductorBoundsPane(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("inductorBounds"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  plot_ = new RblockBoundsPlot(this);
  plot_->setLegendPlace(PlotController::LegendPlace::kBeside);  // the page is wide and short
  plot_->widget()->setMinimumHeight(180);
  note_ = new QLabel;
  note_->setObjectName(QStringLiteral("boundsNote"));
  note_->setWordWrap(true);
  v->addWidget(note_);
  v->addWidget(plot_->widget(), 1);
}

void InductorBoundsPane::showBounds(const ConfigBounds& bounds) {
  note_->setText(bounds.note);
  if (!bounds.curves) {
    plot_->setData({}, 0, 0, 0);
    return;
  }
  plot_->setData(*bounds.curves, bounds.sm_count, bounds.n_regs, bounds.current_bound);
  plot_->setTitle(bounds.title);
}

}  // namespace occx::ui
