// The occupancy calculator's result: "Theoretical occupancy" in large type with what limits it, the
// block limit per resource (limiters highlighted), the quantities behind it, the clusters and the
// best block size beside the driver's answers, and the "Ask the driver" row. Shows rows that
// calculator_content computes.
#pragma once

#include <QGroupBox>
#include <vector>

#include "ui/models/calculator_content.h"

class QLabel;
class QPushButton;
class QTableWidget;

namespace occx::ui {

class CalculatorResultPanel : public QGroupBox {
  Q_OBJECT

 public:
  explicit CalculatorResultPanel(QWidget* parent = nullptr);

  /// The big figure and the words beside it (red when the configuration cannot launch).
  void showHeadline(const CalculatorHeadline& headline, bool can_launch);
  void showLimits(const std::vector<CalculatorRow>& rows);
  void showDetails(const std::vector<CalculatorRow>& rows);
  void showClusters(const std::vector<CalculatorRow>& rows);
  /// The line beside "Ask the driver".
  void setDriverStatus(const QString& text);

  [[nodiscard]] QLabel* occupancyLabel() const { return occupancy_label_; }
  [[nodiscard]] QTableWidget* limitsTable() const { return limits_table_; }
  [[nodiscard]] QTableWidget* detailsTable() const { return details_table_; }
  [[nodiscard]] QTableWidget* clustersTable() const { return clusters_table_; }
  [[nodiscard]] QPushButton* askDriverButton() const { return ask_driver_; }
  [[nodiscard]] QLabel* driverStatusLabel() const { return driver_status_; }

 private:
  QLabel* occupancy_label_ = nullptr;
  QLabel* occupancy_detail_ = nullptr;
  QTableWidget* limits_table_ = nullptr;
  QTableWidget* details_table_ = nullptr;
  QTableWidget* clusters_table_ = nullptr;
  QPushButton* ask_driver_ = nullptr;
  QLabel* driver_status_ = nullptr;
};

}  // namespace occx::ui
