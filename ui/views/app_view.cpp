#include "ui/views/app_view.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFile>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

#include "core/base/atomic_file.h"
#include "ui/widgets/checked_spin_box.h"
#include "ui/widgets/wheel_guard.h"

namespace occx::ui {

Expected<std::size_t> writeCsvFile(const CsvTable& table, const QString& path) {
  if (path.isEmpty()) return Error{"no file name given for the CSV export"};
  return writeFileAtomically(QFile::encodeName(path).toStdString(), toCsv(table));
}

namespace {

/// Lays a scroll area's content out again each time the area is shown. A content of wrapped labels
/// laid out while its tab was hidden kept the height it had for another width: a label many lines
/// long got the room of fewer, its text centred and cut above and below.
class RelayoutOnShow : public QObject {
 public:
  using QObject::QObject;

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Show) QCoreApplication::postEvent(watched, new QEvent(QEvent::LayoutRequest));
    return QObject::eventFilter(watched, event);
  }
};

}  // namespace

QWidget* inputScrollArea(QWidget* content, int min_width, int max_width, QWidget* footer) {
  auto* column = new QWidget;
  auto* layout = new QVBoxLayout(column);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->setSpacing(4);
  auto* scroll = new QScrollArea(column);
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->installEventFilter(new RelayoutOnShow(scroll));
  layout->addWidget(scroll, 1);
  if (footer != nullptr) layout->addWidget(footer, 0);
  guardWheelUnder(content);  // scrolling the panel past a box or a list leaves it alone
  auto* message = new InputMessage(column);
  message->watchAll(content);
  layout->addWidget(message, 0);
  column->setMinimumWidth(min_width);
  if (max_width > 0) column->setMaximumWidth(max_width);
  return column;
}

void appendCacheRepairs(QLabel* status, const std::vector<std::string>& repairs) {
  QStringList files;
  for (const auto& r : repairs) files << QString::fromStdString(r);
  if (!files.isEmpty()) {
    status->setText(
        status->text() + QLatin1Char(' ') +
        QObject::tr("Damaged compile-cache entries found and recompiled: %1 (hover for the files).").arg(files.size()));
  }
  status->setToolTip(files.join(QLatin1Char('\n')));
}

}  // namespace occx::ui
