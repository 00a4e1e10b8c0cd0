// occupancy-explorer: the desktop application. Wiring only.
#include <QApplication>
#include <QLabel>

int main(int argc, char** argv) {
  QApplication app(argc, argv);
  QLabel label("Occupancy Explorer");
  label.show();
  return QApplication::exec();
}
