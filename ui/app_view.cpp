#include "ui/app_view.h"

#include <QFile>
#include <QScrollArea>

#include "core/atomic_file.h"

namespace occx::ui {

Expected<std::size_t> writeCsvFile(const CsvTable& table, const QString& path) {
  if (path.isEmpty()) return Error{"no file name given for the CSV export"};
  return writeFileAtomically(QFile::encodeName(path).toStdString(), toCsv(table));
}

QScrollArea* inputScrollArea(QWidget* content, int min_width, int max_width) {
  auto* scroll = new QScrollArea;
  scroll->setWidget(content);
  scroll->setWidgetResizable(true);
  scroll->setFrameShape(QFrame::NoFrame);
  scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
  scroll->setMinimumWidth(min_width);
  if (max_width > 0) scroll->setMaximumWidth(max_width);
  return scroll;
}

}  // namespace occx::ui
