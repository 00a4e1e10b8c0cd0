// The live-sweep view's config table: one row per measured configuration (time, bandwidth, occupancy
// theoretical and achieved, registers and spills, the policy sets it belongs to, which policy picked
// it), over a LiveDataset's rows and the replay's picks; beside them, when a sweep of Inductor's own
// Triton kernel for the same problem is paired with the dataset (core/triton/family_fidelity.h), that
// kernel's time and registers at the same config and the time ratio.
#pragma once

#include <vector>

#include "core/sweep/live_results.h"
#include "core/triton/family_fidelity.h"
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
    kTritonTime,       ///< Inductor's Triton kernel at the same config: median time, µs
    kTritonRatio,      ///< … Triton time / our time
    kTritonRegisters,  ///< … its n_regs
    kWarmTime,
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
  void setRows(std::vector<LiveRow> rows, const PickSummary& replay);
  /// Appends a measured row (a running sweep) and updates the picks.
  void appendRow(const LiveRow& row, const PickSummary& replay);
  void clear() { setRows({}, {}); }
  /// Pairs rows with Inductor's Triton kernel at the same configs (FidelityPair::live_row indexes
  /// the model's rows); the Triton columns of unpaired rows are blank. setRows clears the pairs.
  void setTritonPairs(std::vector<FidelityPair> pairs);
  /// The pair of row `r`, nullptr when the row has none.
  [[nodiscard]] const FidelityPair* tritonPairAt(int r) const;
  [[nodiscard]] const PickSummary& replay() const { return replay_; }
  /// "best, new, exact" for the picks at row `r` (empty when none).
  [[nodiscard]] QString picksAt(int r) const;

 protected:
  [[nodiscard]] int numColumns() const override { return kColumnCount; }
  [[nodiscard]] QVariant headerCell(int column, int role) const override;
  [[nodiscard]] QVariant cell(const LiveRow& row, int r, int column, int role) const override;

 private:
  [[nodiscard]] QVariant displayCell(const LiveRow& row, int r, int column, bool sort) const;
  [[nodiscard]] QVariant backgroundCell(const LiveRow& row, int r, int column) const;
  [[nodiscard]] QVariant toolTipCell(const LiveRow& row, int r, int column) const;

  PickSummary replay_;
  std::vector<FidelityPair> pairs_;
  std::vector<int> pair_of_row_;  ///< model row → index into pairs_, -1 when none
};

/// "old new exact" membership of a row's policy sets, "grid" when only in the grid.
QString policySetsText(const LiveRow& row);

/// The Spread, Min and Max cells' tooltip: the quartiles and the median the spread is computed from
/// ((p75 − p25) / median × 100), and how far the slowest run lies above the median; empty for no runs.
QString spreadToolTip(const TimingStats& t);

}  // namespace occx::ui
