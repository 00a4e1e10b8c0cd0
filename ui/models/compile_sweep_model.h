// The compile-sweep view's config table: one row per compiled configuration (registers, spills, occupancy,
// each policy's RBLOCK-scaling decision, whether it is in each policy's autotuner candidate set).
#pragma once

#include <vector>

#include "core/sweep/compile_sweep_dataset.h"
#include "ui/models/table_model.h"

namespace occx::ui {

class CompileSweepModel : public TableModel<CompileSweepRecord> {
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

  explicit CompileSweepModel(QObject* parent = nullptr);

  /// Replaces every row.
  void setEntries(std::vector<CompileSweepRecord> entries) { setRows(std::move(entries)); }
  /// Adds a row, or replaces the row with the same index (a running sweep's progress).
  void upsertEntry(const CompileSweepRecord& entry);
  /// The model row of the entry with this sweep index, -1 when none.
  [[nodiscard]] int rowOfIndex(int index) const;

 protected:
  [[nodiscard]] int numColumns() const override { return kColumnCount; }
  [[nodiscard]] QVariant headerCell(int column, int role) const override;
  [[nodiscard]] QVariant cell(const CompileSweepRecord& e, int r, int column, int role) const override;

 private:
  [[nodiscard]] QVariant displayCell(const CompileSweepRecord& e, int column, bool sort) const;
  [[nodiscard]] QVariant toolTipCell(const CompileSweepRecord& e, int column) const;
};

/// "scale (3/SM)", "no scaling (4/SM)", "n/a", "duplicate (3/SM)", or "…" while pending.
QString decisionText(const DecisionRecord& cell);
/// "yes" (benchmarked), "spills" (excluded), "not compiled", or "" (not a candidate).
QString candidateText(CandidateState state);

}  // namespace occx::ui
