#include "ui/plots/plot_controller.h"

#include <QFontMetrics>
#include <algorithm>
#include <cstdlib>

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QImage>
#include <QTemporaryDir>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/base/atomic_file.h"
#include "qcustomplot.h"
#include "ui/plots/tick_labels.h"

namespace occx::ui {

namespace {

constexpr int kLegendRowMargin = 6;             ///< left and right margin of the row that holds the legend
const QMargins kLegendItemMargins(6, 1, 6, 1);  ///< around each legend entry

Expected<std::size_t> writeBytes(const QString& path, const QByteArray& bytes) {
  return writeFileAtomically(QFile::encodeName(path).toStdString(),
                             std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
}

/// QCustomPlot's readable steps (1, 2, 2.5, 5 × 10^n), kept to whole numbers: a step under 1
/// becomes 1 and 2.5 becomes 2, so a count axis never shows 2.5 or 7.5. No sub-ticks between ticks
/// one apart.
class IntegerTicker : public QCPAxisTicker {
 protected:
  double getTickStep(const QCPRange& range) override {
    return std::max(1.0, std::floor(QCPAxisTicker::getTickStep(range)));
  }
  int getSubTickCount(double tick_step) override {
    return tick_step <= 1.0 ? 0 : QCPAxisTicker::getSubTickCount(tick_step);
  }
};

}  // namespace

QString warpCountText(long long warps) {
  return warps == 1 ? QCoreApplication::translate("occx::ui", "%1 warp").arg(warps)
                    : QCoreApplication::translate("occx::ui", "%1 warps").arg(warps);
}

void PlotController::setIntegerTicks(Axis axis) {
  QCPAxis* a = axis == Axis::kX ? plot_->xAxis : plot_->yAxis;
  auto ticker = QSharedPointer<IntegerTicker>::create();
  ticker->setTickCount(a->ticker()->tickCount());
  a->setTicker(ticker);
  requestReplot();
}

PlotController::PlotController(const QString& title, QWidget* parent)
    : QObject(parent), plot_(new QCustomPlot(parent)), title_(nullptr), legend_cell_(nullptr) {
  plot_->setMinimumSize(260, 200);
  plot_->setNoAntialiasingOnDrag(true);
  plot_->setBackground(QBrush(Qt::white));

  // Row 0: title. Row 1: axis rect. Row 2: legend (outside the axes, so it never covers data).
  plot_->plotLayout()->insertRow(0);
  title_ = new QCPTextElement(plot_, title, QFont(plot_->font().family(), 11, QFont::Bold));
  plot_->plotLayout()->addElement(0, 0, title_);

  plot_->legend->setVisible(true);
  plot_->axisRect()->insetLayout()->take(plot_->legend);
  legend_cell_ = new QCPLayoutGrid;
  plot_->plotLayout()->addElement(2, 0, legend_cell_);
  legend_cell_->setMargins(QMargins(kLegendRowMargin, 0, kLegendRowMargin, 4));
  legend_cell_->addElement(0, 0, plot_->legend);
  plot_->legend->setFillOrder(QCPLegend::foColumnsFirst);
  plot_->legend->setWrap(3);
  // An empty legend's maximum width is its margins, and a layout column is no wider than its
  // narrowest maximum: without this, a plot with no entries yet is squeezed to the left.
  plot_->legend->setMaximumSize(1 << 20, QWIDGETSIZE_MAX);
  plot_->legend->setRowSpacing(0);
  plot_->legend->setBorderPen(Qt::NoPen);
  plot_->legend->setBrush(Qt::NoBrush);
  QFont legend_font = plot_->font();
  legend_font.setPointSize(9);
  plot_->legend->setFont(legend_font);
  plot_->plotLayout()->setRowStretchFactor(0, 0.001);
  plot_->plotLayout()->setRowStretchFactor(2, 0.001);

  QFont label_font = plot_->font();
  label_font.setPointSize(9);
  for (QCPAxis* axis : {plot_->xAxis, plot_->yAxis, plot_->xAxis2, plot_->yAxis2}) {
    axis->setLabelFont(label_font);
    axis->setTickLabelFont(label_font);
  }
  plot_->xAxis->grid()->setPen(QPen(QColor(220, 220, 220), 0, Qt::DotLine));
  plot_->yAxis->grid()->setPen(QPen(QColor(220, 220, 220), 0, Qt::DotLine));

  full_title_ = title;
  connect(plot_, &QCustomPlot::beforeReplot, this, [this] {
    fitLegendColumns(plot_->viewport().width());
    // QCustomPlot computes the ticks from the axis rect's last layout, which on a first draw (or
    // the first after a resize) is another size's: lay out at this size now, so that the x label
    // fits the axis rect as drawn and the ticks and their labels fit the axes' real length.
    layOutPlotNow(plot_);
    fitTitleAndLabel(plot_->viewport().width());
    fitNumericTickLabels(plot_);  // fewer ticks where a narrow axis would crowd their labels
  });
  plot_->setMouseTracking(true);
  connect(plot_, &QCustomPlot::mouseMove, this,
          [this](QMouseEvent* event) { onMouseMove(event->position(), event->globalPosition().toPoint()); });
}

PlotController::~PlotController() = default;

QWidget* PlotController::widget() const {
  return plot_;
}

QString PlotController::title() const {
  return full_title_;
}

void PlotController::setTitle(const QString& title) {
  full_title_ = title;
  title_->setText(title);
}

namespace {

/// Whether every line of `text` in `font` is at most `width` pixels wide.
bool fitsWidth(const QString& text, const QFont& font, int width) {
  const QFontMetrics metrics(font);
  for (const QString& line : text.split(QLatin1Char('\n'))) {
    if (metrics.horizontalAdvance(line) > width) return false;
  }
  return true;
}

/// `text` broken at the space nearest its middle (unchanged when it has no space).
QString twoLines(const QString& text) {
  const int mid = static_cast<int>(text.size()) / 2;
  int best = -1;
  for (int i = 0; i < text.size(); ++i) {
    if (text[i] == QLatin1Char(' ') && (best < 0 || std::abs(i - mid) < std::abs(best - mid))) best = i;
  }
  if (best < 0) return text;
  QString out = text;
  out[best] = QLatin1Char('\n');
  return out;
}

}  // namespace

void PlotController::fitTitleAndLabel(int width) const {
  const int room = std::max(width - 16, 40);
  QFont title_font(plot_->font().family(), 11, QFont::Bold);
  QString text = full_title_;
  if (!fitsWidth(text, title_font, room)) text = twoLines(full_title_);
  while (!fitsWidth(text, title_font, room) && title_font.pointSize() > 8)
    title_font.setPointSize(title_font.pointSize() - 1);
  if (title_->text() != text) title_->setText(text);
  if (title_->font() != title_font) title_->setFont(title_font);
  // The x label is centred under the axis rect, not the plot: it has the rect's width (as last laid
  // out, scaled to `width`), not the y axes' labels' or a legend's beside the axes.
  // It may reach as far into the margins beside the rect as the narrower of the two.
  int label_room = room;
  const int shown = plot_->viewport().width();
  const QCPAxisRect* rect = plot_->axisRect();
  if (rect->width() > 0 && shown > 0) {
    const int reach = std::min(rect->margins().left(), rect->margins().right());
    label_room = std::max((rect->width() + 2 * reach) * width / shown - 8, 40);
  }
  QFont label_font = plot_->font();
  label_font.setPointSize(9);
  while (!fitsWidth(plot_->xAxis->label(), label_font, label_room) && label_font.pointSize() > 7) {
    label_font.setPointSize(label_font.pointSize() - 1);
  }
  if (plot_->xAxis->labelFont() != label_font) plot_->xAxis->setLabelFont(label_font);
}

void PlotController::setAxisLabels(const QString& x_label, const QString& y_label) {
  plot_->xAxis->setLabel(x_label);
  plot_->yAxis->setLabel(y_label);
}

void PlotController::setLegendColumns(int columns) {
  max_legend_columns_ = std::max(1, columns);
  if (legend_place_ == LegendPlace::kBeside) return;
  plot_->legend->setWrap(max_legend_columns_);
  plot_->legend->setFillOrder(QCPLegend::foColumnsFirst, /*rearrange=*/true);
}

void PlotController::setLegendPlace(LegendPlace place) {
  if (place == legend_place_) return;
  legend_place_ = place;
  QCPLayoutGrid* layout = plot_->plotLayout();
  QCPAxisRect* rect = plot_->axisRect();
  QCPLegend* legend = plot_->legend;
  // Take the axis rect and the legend's cell out of wherever they are, then lay them out again.
  if (rect->layout() != nullptr) rect->layout()->take(rect);
  if (legend_cell_->layout() != nullptr) legend_cell_->layout()->take(legend_cell_);
  layout->simplify();  // drops the emptied rows (and a beside layout's grid)
  QCPLayoutElement* spacer = legend_cell_->rowCount() > 1 ? legend_cell_->element(1, 0) : nullptr;
  if (place == LegendPlace::kBeside) {
    // Row 1: a grid of the axis rect and, right of it, the legend over a spacer that takes the rest
    // of the height; the legend's column and row are as small as the entries.
    auto* body = new QCPLayoutGrid;
    layout->addElement(1, 0, body);
    body->addElement(0, 0, rect);
    body->addElement(0, 1, legend_cell_);
    body->setColumnSpacing(0);
    body->setColumnStretchFactor(1, 0.001);
    if (spacer == nullptr) legend_cell_->addElement(1, 0, new QCPLayoutElement(plot_));
    legend_cell_->setRowStretchFactor(0, 0.001);
    legend_cell_->setRowStretchFactor(1, 1);
    legend_cell_->setMargins(QMargins(0, 4, kLegendRowMargin, 0));
    legend->setWrap(1);
  } else {
    layout->addElement(1, 0, rect);
    layout->addElement(2, 0, legend_cell_);
    if (spacer != nullptr) legend_cell_->remove(spacer);
    legend_cell_->simplify();
    legend_cell_->setMargins(QMargins(kLegendRowMargin, 0, kLegendRowMargin, 4));
    layout->setRowStretchFactor(2, 0.001);
    legend->setWrap(max_legend_columns_);
  }
  layout->setRowStretchFactor(0, 0.001);
  layout->setRowStretchFactor(1, 1);
  legend->setFillOrder(QCPLegend::foColumnsFirst, /*rearrange=*/true);
  requestReplot();
}

void PlotController::fitLegendColumns(int width) const {
  QCPLegend* legend = plot_->legend;
  // Entries close together (QCustomPlot's defaults leave 7 px between two rows): a legend's rows
  // come off the axis rect's height.
  for (int i = 0; i < legend->itemCount(); ++i) {
    if (QCPAbstractLegendItem* item = legend->item(i); item != nullptr && item->margins() != kLegendItemMargins)
      item->setMargins(kLegendItemMargins);
  }
  if (legend_place_ == LegendPlace::kBeside) return;  // one column
  // itemCount() counts the grid's cells, empty ones (the last row's) included.
  std::vector<int> widths;
  for (int i = 0; i < legend->itemCount(); ++i) {
    if (const QCPAbstractLegendItem* item = legend->item(i)) widths.push_back(item->minimumOuterSizeHint().width());
  }
  const int n = static_cast<int>(widths.size());
  if (n == 0) return;
  // The legend row spans the plot; its margins and the legend's own come off.
  const int available = width - 2 * kLegendRowMargin - legend->margins().left() - legend->margins().right();
  int columns = 1;
  for (int c = std::min(max_legend_columns_, n); c >= 1; --c) {
    // Filled row by row: entry i sits in column i % c, and a column is as wide as its widest entry.
    std::vector<int> column_width(static_cast<std::size_t>(c), 0);
    for (int i = 0; i < n; ++i) {
      auto& w = column_width[static_cast<std::size_t>(i % c)];
      w = std::max(w, widths[static_cast<std::size_t>(i)]);
    }
    int total = (c - 1) * legend->columnSpacing();
    for (int w : column_width) total += w;
    if (total <= available) {
      columns = c;
      break;
    }
  }
  if (legend->wrap() != columns) {
    legend->setWrap(columns);
    legend->setFillOrder(QCPLegend::foColumnsFirst, /*rearrange=*/true);
  }
}

void PlotController::requestReplot() {
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

void PlotController::setExportScale(double scale) {
  export_scale_ = std::max(1.0, scale);
}

void PlotController::setExportSize(QSize size) {
  export_size_ = QSize(std::max(200, size.width()), std::max(200, size.height()));
}

QSize PlotController::exportSizeFor(int width, int height) const {
  if (width > 0 && height > 0) return {width, height};
  return export_size_;  // the export's own size, never the widget's
}

void PlotController::layOutIn(const QRect& viewport) const {
  const QRect shown = plot_->viewport();
  plot_->setViewport(viewport);
  QCPLayoutGrid* layout = plot_->plotLayout();
  layout->update(QCPLayoutElement::upPreparation);
  layout->update(QCPLayoutElement::upMargins);
  layout->update(QCPLayoutElement::upLayout);
  plot_->setViewport(shown);
}

PlotController::ExportFrame PlotController::beginExport(QSize size) const {
  ExportFrame frame;
  frame.size = size;
  // The export's width, not the window's.
  fitLegendColumns(size.width());
  fitTitleAndLabel(size.width());
  if (!export_subtitle_.isEmpty()) {
    // Row 1, between the title and the axis rect; as small as its text, like the title's row.
    QCPLayoutGrid* layout = plot_->plotLayout();
    layout->insertRow(1);
    QFont font(plot_->font().family(), 9);
    const int room = std::max(size.width() - 16, 40);
    QString text = export_subtitle_;
    if (!fitsWidth(text, font, room)) text.replace(QStringLiteral(" · "), QStringLiteral("\n"));
    while (!fitsWidth(text, font, room) && font.pointSize() > 7) font.setPointSize(font.pointSize() - 1);
    frame.subtitle = new QCPTextElement(plot_, text, font);
    frame.subtitle->setTextColor(QColor(70, 70, 70));
    frame.subtitle->setObjectName(QStringLiteral("exportSubtitle"));
    layout->addElement(1, 0, frame.subtitle);
    layout->setRowStretchFactor(1, 0.001);
    // The subtitle's lines make the image taller: the axes keep the height they have without them.
    const QCPLayoutElement* row = frame.subtitle;  // the size hint is public on the base
    frame.size.setHeight(size.height() + row->minimumOuterSizeHint().height() + layout->rowSpacing());
  }
  // Laid out at the export's size, then the replot hooks (the legend's columns, the title's lines,
  // a plot's own: labels that need the axis rect's size) see that size, as a replot of a window
  // that size would; the drawing lays it out once more with what they changed.
  const QRect viewport(QPoint(0, 0), frame.size);
  layOutIn(viewport);
  const QRect shown = plot_->viewport();
  plot_->setViewport(viewport);
  emit plot_->beforeReplot();
  plot_->setViewport(shown);
  return frame;
}

void PlotController::endExport(const ExportFrame& frame) const {
  if (frame.subtitle != nullptr) {
    plot_->plotLayout()->remove(frame.subtitle);  // deletes it
    plot_->plotLayout()->simplify();              // and drops its empty row
  }
  fitLegendColumns(plot_->viewport().width());
  fitTitleAndLabel(plot_->viewport().width());
  // The layout was last computed at the export's size: the shown plot is laid out again (its hooks
  // read the shown axis rect on the next replot) and redrawn.
  layOutIn(plot_->viewport());
  plot_->replot(QCustomPlot::rpQueuedReplot);
}

QImage PlotController::renderImage(int width, int height) const {
  const bool exact = width > 0 && height > 0;
  const double scale = exact ? 1.0 : export_scale_;
  const ExportFrame frame = beginExport(exportSizeFor(width, height));
  const QPixmap pixmap = plot_->toPixmap(frame.size.width(), frame.size.height(), scale);
  QImage image = pixmap.toImage();
  endExport(frame);
  // Say how fine it is (96 dpi × scale), so viewers that honour it show the plot at its size.
  const int dots_per_meter = static_cast<int>(std::lround(96.0 * scale / 0.0254));
  image.setDotsPerMeterX(dots_per_meter);
  image.setDotsPerMeterY(dots_per_meter);
  return image;
}

Expected<std::size_t> PlotController::exportPng(const QString& path, int width, int height) const {
  const QImage image = renderImage(width, height);
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (image.isNull() || !image.save(&buffer, "PNG")) {
    return Error{"cannot render the plot '" + title().toStdString() + "' as PNG for " + path.toStdString()};
  }
  return writeBytes(path, bytes);
}

Expected<std::size_t> PlotController::exportPdf(const QString& path, int width, int height) const {
  // QCustomPlot prints to a named file: render into a scratch folder, then write the bytes to the
  // target atomically, so the target is never a half-written PDF.
  QTemporaryDir scratch;
  if (!scratch.isValid())
    return Error{"cannot create a temporary folder to render " + path.toStdString() + ": " +
                 scratch.errorString().toStdString()};
  const QString tmp = scratch.filePath(QStringLiteral("plot.pdf"));
  const ExportFrame frame = beginExport(exportSizeFor(width, height));
  const QString pdf_title = export_subtitle_.isEmpty() ? title() : title() + QStringLiteral(" — ") + export_subtitle_;
  const bool rendered_ok = plot_->savePdf(tmp, frame.size.width(), frame.size.height(), QCP::epAllowCosmetic,
                                          QStringLiteral("Occupancy Explorer"), pdf_title);
  endExport(frame);
  if (!rendered_ok) {
    return Error{"cannot render the plot '" + title().toStdString() + "' as PDF for " + path.toStdString()};
  }
  QFile rendered(tmp);
  if (!rendered.open(QIODevice::ReadOnly))
    return Error{"cannot read the rendered PDF: " + rendered.errorString().toStdString()};
  const QByteArray bytes = rendered.readAll();
  // The PDF writer does not report failed writes (a full disk): a complete PDF ends with %%EOF.
  if (!bytes.trimmed().endsWith("%%EOF")) {
    return Error{"cannot write '" + path.toStdString() + "': rendering the PDF stopped after " +
                 std::to_string(bytes.size()) + " bytes (is the disk full?) (previous file left unchanged)"};
  }
  return writeBytes(path, bytes);
}

Expected<std::size_t> PlotController::exportImage(const QString& path, int width, int height) const {
  const QString suffix = QFileInfo(path).suffix().toLower();
  if (suffix == QLatin1String("png")) return exportPng(path, width, height);
  if (suffix == QLatin1String("pdf")) return exportPdf(path, width, height);
  return Error{"cannot export a plot to " + path.toStdString() + ": the file name must end in .png or .pdf"};
}

int PlotController::graphCount() const {
  return plot_->graphCount();
}

QString PlotController::graphName(int index) const {
  if (index < 0 || index >= plot_->graphCount()) return {};
  return plot_->graph(index)->name();
}

QVector<QPointF> PlotController::graphPoints(int index) const {
  QVector<QPointF> out;
  if (index < 0 || index >= plot_->graphCount()) return out;
  const auto data = plot_->graph(index)->data();
  out.reserve(data->size());
  for (auto it = data->constBegin(); it != data->constEnd(); ++it) out.append(QPointF(it->key, it->value));
  return out;
}

QString PlotController::toolTipAt(double x, double /*y*/) const {
  if (plot_->graphCount() == 0) return {};
  const auto data = plot_->graph(0)->data();
  if (data->isEmpty()) return {};
  double best = std::numeric_limits<double>::max();
  QPointF nearest;
  for (auto it = data->constBegin(); it != data->constEnd(); ++it) {
    const double d = std::abs(it->key - x);
    if (d < best) {
      best = d;
      nearest = QPointF(it->key, it->value);
    }
  }
  return QStringLiteral("%1: %2").arg(nearest.x()).arg(nearest.y());
}

void PlotController::onMouseMove(const QPointF& pos, const QPoint& global_pos) {
  QCPAxisRect* rect = plot_->axisRect();
  if (!rect->rect().contains(pos.toPoint())) {
    QToolTip::hideText();
    return;
  }
  const double x = plot_->xAxis->pixelToCoord(pos.x());
  const double y = plot_->yAxis->pixelToCoord(pos.y());
  const QString text = toolTipAt(x, y);
  if (text.isEmpty()) {
    QToolTip::hideText();
  } else {
    QToolTip::showText(global_pos, text, plot_);
  }
}

}  // namespace occx::ui
