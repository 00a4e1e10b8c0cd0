// The live-sweep view's config table: one row per measured configuration (time, bandwidth, occupancy
// theoretical and achieved, registers and spills, the policy sets it belongs to, which policy picked
// it), over a LiveDataset's rows and the replay's picks.
#pragma once

#include <vector>

#include "core/sweep/live_results.h"
#include "ui/models/table_model.h"

namespace occx::ui {

class LiveSweepModel : public TableModel<LiveRow> {
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

  explicit LiveSweepModel(QObject* parent = nullptr);

  /// Replaces the rows and picks.
  void setRows(std::vector<LiveRow> rows, const ReplaySummary& replay);
  /// Appends a measured row (a running sweep) and updates the picks.
  void appendRow(const LiveRow& row, const ReplaySummary& replay);
  void clear() { setRows({}, {}); }
  [[nodiscard]] const ReplaySummary& replay() const { return replay_; }
  /// "best, new, exact" for the picks at row `r` (empty when none).
  [[nodiscard]] QString picksAt(int r) const;

 protected:
  [[nodiscard]] int numColumns() const override { return kColumnCount; }
  [[nodiscard]] QVariant headerCell(int column, int role) const override;
  [[nodiscard]] QVariant cell(const LiveRow& row, int r, int column, int role) const override;

 private:
  [[nodiscard]] QVariant displayCell(const LiveRow& row, int r, int column, bool sort) const;
  [[nodiscard]] QVariant backgroundCell(const LiveRow& row, int r, int column) const;
  [[nodiscard]] QVariant toolTipCell(const LiveRow& row, int column) const;

  ReplaySummary replay_;
};

/// "old new exact" membership of a row's policy sets, "grid" when only in the grid.
QString policySetsText(const LiveRow& row);

}  // namespace occx::ui
