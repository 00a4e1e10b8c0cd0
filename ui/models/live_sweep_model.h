// The live view's config table: one row per measured configuration (time, bandwidth, occupancy
// theoretical and achieved, registers and spills, the policy sets it belongs to, which policy picked
// it), over a LiveDataset's rows and the replay's picks.
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "core/sweep/live_results.h"

namespace occx::ui {

class LiveRowsModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kXBlock,
    kRBlock,
    kNumWarps,
    kStatus,
    kTime,
    kMin,
    kMax,
    kSpread,
    kBandwidth,
    kPctCopy,
    kTheoretical,
    kAchieved,
    kRegisters,
    kSpillStores,
    kNSpills,
    kSets,
    kPicks,
    kDramRead,
    kDramWrite,
    kLocalLoad,
    kLocalStore,
    kMaxError,
    kReason,
    kColumnCount
  };
  static constexpr int kSortRole = Qt::UserRole + 1;

  explicit LiveRowsModel(QObject* parent = nullptr);

  /// Replaces the rows and picks.
  void setRows(std::vector<LiveRow> rows, const ReplaySummary& replay);
  /// Appends a measured row (a running sweep) and updates the picks.
  void appendRow(const LiveRow& row, const ReplaySummary& replay);
  void clear();
  [[nodiscard]] const std::vector<LiveRow>& rows() const { return rows_; }
  [[nodiscard]] const LiveRow* row(int r) const;
  [[nodiscard]] const ReplaySummary& replay() const { return replay_; }
  /// "best, new, exact" for the picks at row `r` (empty when none).
  [[nodiscard]] QString picksAt(int r) const;

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<LiveRow> rows_;
  ReplaySummary replay_;
};

/// "old new exact" membership of a row's policy sets, "grid" when only in the grid.
QString policySetsText(const LiveRow& row);

}  // namespace occx::ui
