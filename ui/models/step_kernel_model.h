// The Step tab's table: one row per kernel of the step (core/step/step_profile.h), ranked by
// in-step time per step, with its share and the cumulative share, and for a Triton kernel of the
// run the config its launcher used (registers, occupancy) and the old and new bounds' decisions.
#pragma once

#include <QString>
#include <vector>

#include "core/step/step_profile.h"
#include "ui/models/table_model.h"

namespace occx::ui {

/// One row of the table: a kernel of the step and what the run says of it.
struct StepKernelRow {
  step::StepKernel kernel;
  int rank = 0;                           ///< 1 = the longest in-step time per step
  double cumulative = 0.0;                ///< share of the step's GPU time of this kernel and every longer one, 0 … 1
  std::optional<triton::ScanRow> config;  ///< the launcher's config (matched kernels of a run)
};

/// The rows of `profile` joined to `run` (ranked as the profile ranks them).
std::vector<StepKernelRow> stepKernelRows(const step::StepProfile& profile, const step::StepRun& run);

class StepKernelModel : public TableModel<StepKernelRow> {
  Q_OBJECT

 public:
  enum Column {
    kRank,
    kKernel,
    kCategory,
    kLaunches,
    kMedian,
    kPerStep,
    kShare,
    kCumulative,
    kConfig,
    kRegisters,
    kOccupancy,
    kOldDecision,
    kNewDecision,
    kMatch,
    kColumnCount
  };
  explicit StepKernelModel(QObject* parent = nullptr);

 protected:
  [[nodiscard]] int numColumns() const override { return kColumnCount; }
  [[nodiscard]] QVariant headerCell(int column, int role) const override;
  [[nodiscard]] QVariant cell(const StepKernelRow& k, int r, int column, int role) const override;
};

/// A kernel's name as the table and chart show it: "void " and template arguments dropped from C++
/// names ("at::native::vectorized_elementwise_kernel<…>"); Triton and library names as they are.
QString displayKernelName(const std::string& name);

/// The colour of a category in the Step tab's chart and table (Triton reductions warm, libraries blue).
QColor categoryColor(step::KernelCategory category);

}  // namespace occx::ui
