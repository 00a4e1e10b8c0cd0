#include "ui/views/inductor_sweep_pane.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QVBoxLayout>

#include "ui/plots/sweep_series_plot.h"

namespace occx::ui {

namespace {

/// The marker shape and colour of a mark on the sweep plot: the best a gold star, Inductor's pick a
/// black square, the policies' picks five shapes and colours in turn.
void sweepMarkStyle(const SweepMarkPoints& m, MarkerShape& shape, QColor& color, double& size) {
  static const MarkerShape kShapes[] = {MarkerShape::kTriangle, MarkerShape::kDiamond, MarkerShape::kCircle,
                                        MarkerShape::kCross, MarkerShape::kSquare};
  static const QColor kColors[] = {QColor(200, 0, 120), QColor(100, 100, 100), QColor(0, 120, 80), QColor(214, 39, 40),
                                   QColor(255, 127, 14)};
  switch (m.kind) {
    case SweepMark::Kind::kBest:
      shape = MarkerShape::kStar;
      color = QColor(0xd4, 0xa0, 0x00);
      size = 20;
      return;
    case SweepMark::Kind::kInductorPick:
      shape = MarkerShape::kSquare;
      color = Qt::black;
      size = 14;
      return;
    case SweepMark::Kind::kPolicyPick:
      shape = kShapes[m.group % 5];
      color = kColors[m.group % 5];
      size = 13;
      return;
  }
}

}  // namespace

InductorSweepPane::InductorSweepPane(QWidget* parent) : QWidget(parent) {
  setObjectName(QStringLiteral("inductorSweep"));
  auto* v = new QVBoxLayout(this);
  v->setContentsMargins(0, 0, 0, 0);
  auto* controls = new QHBoxLayout;
  xblock_ = new QComboBox;
  xblock_->setObjectName(QStringLiteral("sweepXblock"));
  metric_ = new QComboBox;
  metric_->setObjectName(QStringLiteral("sweepMetric"));
  for (SweepMetric m : kSweepMetrics) metric_->addItem(sweepMetricLabel(m), static_cast<int>(m));
  auto* xl = new QLabel(tr("XBLOCK:"));
  xl->setBuddy(xblock_);
  auto* ml = new QLabel(tr("Plot:"));
  ml->setBuddy(metric_);
  controls->addWidget(xl);
  controls->addWidget(xblock_);
  controls->addWidget(ml);
  controls->addWidget(metric_);
  controls->addSpacing(12);
  grid_ = new QLineEdit;
  grid_->setObjectName(QStringLiteral("sweepGridEdit"));
  grid_->setPlaceholderText(tr("default grid"));
  grid_->setToolTip(
      tr("The configs Sweep this kernel compiles, as occx inductor sweep --grid: \"XBLOCK=1,2 R0_BLOCK=512..4096 "
         "num_warps=4,8,16\" (axes left out take the default's). Empty: XBLOCK 1…8 × R0_BLOCK 256…the row × "
         "num_warps 4…32 with 1…64 elements per thread. Either way also what each policy would add."));
  python_ = new QLineEdit;
  python_->setObjectName(QStringLiteral("pythonEdit"));
  python_->setPlaceholderText(tr("python3"));
  python_->setToolTip(
      tr("The Python with PyTorch and Triton that compiles the sweep's configs (empty: $OCCX_PYTHON, else python3 in "
         "PATH)"));
  python_->setMaximumWidth(130);
  auto* gl = new QLabel(tr("Grid:"));
  gl->setBuddy(grid_);
  auto* pl = new QLabel(tr("Python:"));
  pl->setBuddy(python_);
  controls->addWidget(gl);
  controls->addWidget(grid_, 1);
  controls->addWidget(pl);
  controls->addWidget(python_);
  note_ = new QLabel;
  note_->setObjectName(QStringLiteral("sweepNote"));
  note_->setWordWrap(true);
  note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  note_->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  plot_ = new SweepSeriesPlot(tr("Sweep"), QStringLiteral("kernelSweepPlot"), this);
  plot_->setLegendPlace(PlotController::LegendPlace::kBeside);
  plot_->widget()->setMinimumHeight(180);
  v->addLayout(controls);
  v->addWidget(note_);
  v->addWidget(plot_->widget(), 1);
  connect(xblock_, &QComboBox::activated, this, &InductorSweepPane::replot);
  connect(metric_, &QComboBox::activated, this, &InductorSweepPane::replot);
}

void InductorSweepPane::showKernel(std::optional<SweepPlotSource> source) {
  source_ = std::move(source);
  replot();
}

void InductorSweepPane::replot() {
  plot_->clear();
  if (!source_) {
    note_->clear();
    plot_->setNote(tr("Select a kernel."));
    plot_->finish(0, 1);
    return;
  }
  const auto metric = static_cast<SweepMetric>(metric_->currentData().toInt());
  const KernelSweepPlotData d = sweepPlotData(*source_, metric, xblock_->currentData().toInt());
  xblock_->blockSignals(true);
  xblock_->clear();
  for (int x : d.xblocks) xblock_->addItem(QString::number(x), x);
  xblock_->setCurrentIndex(std::max(0, xblock_->findData(d.xblock)));
  xblock_->blockSignals(false);
  xblock_->setEnabled(!d.along_x);
  note_->setText(source_->note);
  plot_->setTitle(d.title);
  plot_->setAxisLabels(d.x_label, d.y_label);
  for (const SweepSeries& s : d.series) {
    plot_->addSeries(warpCountText(s.num_warps), s.x, s.y, s.rows, numWarpsColor(s.num_warps));
  }
  for (const SweepMarkPoints& m : d.marks) {
    MarkerShape shape = MarkerShape::kCircle;
    QColor color;
    double size = 13;
    sweepMarkStyle(m, shape, color, size);
    plot_->addMarkers(m.name, m.x, m.y, m.rows, shape, color, size, false);
  }
  plot_->setNote(d.note);
  plot_->finish(0, d.y_hi);
}

QString InductorSweepPane::gridText() const {
  return grid_->text();
}

void InductorSweepPane::setGridText(const QString& text) {
  grid_->setText(text);
}

QString InductorSweepPane::pythonText() const {
  return python_->text();
}

void InductorSweepPane::setPythonText(const QString& text) {
  python_->setText(text);
}

}  // namespace occx::ui
