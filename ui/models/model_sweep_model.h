// The Step tab's sweep of the step's reductions (core/step/model_sweep.h) as a table, one row per
// kernel swept, as `occx inductor sweep --all` prints it: its in-step time and share, the config
// that ran in the step and the sweep's best with their times, the gain per step, the new and old
// policies' picks, coordinate descent's pick, whether the best would hold as a pin and the config
// `occx inductor pin` would write (core/step/pin.h), and what the sweep did (configs, screened out, from
// the cache, wall time). A kernel that failed says why.
#pragma once

#include <QString>
#include <vector>

#include "core/step/model_sweep.h"
#include "core/step/pin.h"
#include "ui/models/table_model.h"

namespace occx::ui {

/// One kernel of a model sweep: what was swept and its gain.
struct ModelSweepRow {
  int rank = 0;  ///< 1 = the longest in-step time of those swept
  step::ModelSweepKernel swept;
  step::KernelGain gain;
  step::KernelPin pin;  ///< the best as a pin, and the fastest config that would hold
};

/// The rows of `result`, in its order (longest in-step time first).
std::vector<ModelSweepRow> modelSweepRows(const step::ModelSweepResult& result);
/// "1 kernel", "3 kernels".
QString kernelCountText(int n);
/// The result below the table in words: the gain, what the figures are, coordinate descent, the
/// kernels left out and not swept, the wall time; one paragraph a line.
QString modelSweepText(const step::ModelSweepResult& result);

class ModelSweepModel : public TableModel<ModelSweepRow> {
  Q_OBJECT

 public:
  enum Column {
    kRank,
    kKernel,
    kPerStep,
    kShare,
    kRanConfig,
    kRanUs,
    kBestConfig,
    kBestUs,
    kGain,
    kNewPick,
    kOldPick,
    kCoordesc,
    kBestAsPin,
    kPin,
    kConfigs,
    kScreenedOut,
    kFromCache,
    kSeconds,
    kColumnCount
  };
  explicit ModelSweepModel(QObject* parent = nullptr);

 protected:
  [[nodiscard]] int numColumns() const override { return kColumnCount; }
  [[nodiscard]] QVariant headerCell(int column, int role) const override;
  [[nodiscard]] QVariant cell(const ModelSweepRow& row, int r, int column, int role) const override;
};

}  // namespace occx::ui
