// The kernel view's config table: one row per compiled configuration (registers, spills, occupancy,
// each policy's RBLOCK-scaling decision, whether it is in each policy's autotuner candidate set).
#pragma once

#include <QAbstractTableModel>
#include <vector>

#include "ui/models/compile_sweep_data.h"

namespace occx::ui {

class KernelSweepModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    kIndex,
    kXBlock,
    kRBlock,
    kNumWarps,
    kRegisters,
    kSpillStores,
    kBlocksPerSm,
    kOccupancy,
    kDecisionOld,
    kDecisionNew,
    kDecisionExact,
    kCandidateOld,
    kCandidateNew,
    kCandidateExact,
    kInductor,
    kSpillLoads,
    kNSpills,
    kSmem,
    kLimiter,
    kDecisionReviewMin,
    kOrigin,
    kStatus,
    kColumnCount
  };
  /// Role with a value to sort by (numbers as numbers).
  static constexpr int kSortRole = Qt::UserRole + 1;

  explicit KernelSweepModel(QObject* parent = nullptr);

  /// Replaces every row.
  void setEntries(std::vector<KernelSweepEntry> entries);
  /// Adds a row, or replaces the row with the same index (a running sweep's progress).
  void upsertEntry(const KernelSweepEntry& entry);
  void clear();
  [[nodiscard]] const std::vector<KernelSweepEntry>& entries() const { return entries_; }
  /// The entry of a model row; nullptr when out of range.
  [[nodiscard]] const KernelSweepEntry* entry(int row) const;
  /// The model row of the entry with this sweep index, -1 when none.
  [[nodiscard]] int rowOfIndex(int index) const;

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role) const override;

 private:
  std::vector<KernelSweepEntry> entries_;
};

/// "scale (3/SM)", "no scaling (4/SM)", "n/a", "duplicate (3/SM)", or "…" while pending.
QString decisionText(const KernelDecisionCell& cell);
/// "yes", "spills", "not compiled" or "" for candidateStateName texts.
QString candidateText(const std::string& state);

}  // namespace occx::ui
