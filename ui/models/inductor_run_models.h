// The Inductor run view's two tables: the kernel list (one row per kernel of the run) and the
// selected kernel's compiled configs (one row per config: tile, registers, spills, occupancy,
// origin, the winner, each policy's decision with its reason as the tooltip).
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>

#include <QFontMetrics>
#include <QStringList>
#include <optional>

#include "core/triton/run_table.h"
#include "ui/models/inductor_run_data.h"
#include "ui/models/table_model.h"

namespace occx::ui {

class KernelListModel : public TableModel<RunKernelEntry> {
  Q_OBJECT

 public:
  enum Column {
    kKernel,
    kKind,
    kSizeHints,
    kConfigs,
    kWinnerRegisters,
    kMaxSpills,
    kWinnerOccupancy,
    kAdded,
    kBoundsDisagree,
    kInStep,
    kColumnCount
  };
  explicit KernelListModel(QObject* parent = nullptr);

  /// In-step time per step (µs) by (kernel, module), from a profiler trace of the step (the Step
  /// tab); the In-step column shows it, blank for kernels not in the trace. Empty: no trace.
  void setInStepTimes(std::map<std::pair<std::string, std::string>, double> times);
  /// The in-step time per step of `k`, µs; nullopt when the trace has none for it.
  [[nodiscard]] std::optional<double> inStepTime(const RunKernelEntry& k) const;
  /// The Kernel column's text of every row, in row order (kernelListNames of the rows).
  [[nodiscard]] const QStringList& shownNames() const;

 protected:
  [[nodiscard]] int numColumns() const override { return kColumnCount; }
  [[nodiscard]] QVariant headerCell(int column, int role) const override;
  [[nodiscard]] QVariant cell(const RunKernelEntry& k, int r, int column, int role) const override;

 private:
  std::map<std::pair<std::string, std::string>, double> in_step_;
  mutable QStringList shown_names_;  ///< computed again after the rows change
  mutable bool names_valid_ = false;
};

/// The kernel list's name of each of `kernels`: its name, and when another kernel of the run has
/// the same name (Inductor numbers kernels per graph, so a forward and a backward graph each have
/// a triton_poi_fused__to_copy_1) the first 7 characters of its module hash in brackets:
/// "triton_poi_fused__to_copy_1 [cll56ay]".
QStringList kernelListNames(const std::vector<RunKernelEntry>& kernels);

/// `name` elided to at most `width` pixels of `metrics` so that it reads differently from every
/// other of `names` (however they are elided): the name when it fits; else as much of its start as
/// fits, "…", and the fewest of its last '_'-separated words ("_1", "_view_12", …) such that no
/// other name starts with that start and ends with that end; when such an end is too long, its
/// start, "…", one or two words from its middle that no other name has there, "…" and its last
/// word ("triton_poi…_unsafe…_10"). Qt's middle elision when nothing fits or tells it apart.
QString elideKernelName(const QString& name, const QStringList& names, const QFontMetrics& metrics, int width);

class RunConfigModel : public TableModel<triton::ScanRow> {
  Q_OBJECT

 public:
  enum Column {
    kXBlock,
    kR0Block,
    kNumWarps,
    kRegisters,
    kSpills,
    kOccupancy,
    kOrigin,
    kWinner,
    kStatus,
    kTime,
    kWarmTime,
    kBandwidth,
    kAchieved,
    kPickedBy,
    kRegret,
    kNew,
    kOld,
    kReviewMin,
    kExact,
    kSpillsRule,
    kBlocksPerSm,
    kLimiter,
    kLocalBytes,
    kSharedBytes,
    kNumStages,
    kTritonFolder,
    kColumnCount
  };
  explicit RunConfigModel(QObject* parent = nullptr);

  /// A config's measurement, when it was run: the row, the policies whose pick it is ("best" for the
  /// fastest), its time over the best.
  struct Measured {
    triton::MeasuredConfig row;
    QStringList picked_by;
    double regret = 0.0;  ///< time / best time; 0 when not ok
    double best_us = 0.0;
  };
  /// The measurements of the rows, in row order (an empty entry: not measured); call after setRows.
  void setMeasured(std::vector<std::optional<Measured>> measured);
  /// The measurement of row `r`, nullptr when none.
  [[nodiscard]] const Measured* measured(int r) const;

 protected:
  [[nodiscard]] int numColumns() const override { return kColumnCount; }
  [[nodiscard]] QVariant headerCell(int column, int role) const override;
  [[nodiscard]] QVariant cell(const triton::ScanRow& row, int r, int column, int role) const override;

 private:
  [[nodiscard]] QVariant measuredCell(const Measured& m, int column, int role) const;
  [[nodiscard]] QVariant displayCell(const triton::ScanRow& row, int column, int role) const;
  [[nodiscard]] QVariant toolTipCell(const triton::ScanRow& row, int column) const;
  [[nodiscard]] static QVariant backgroundCell(const triton::ScanRow& row, int column);
  std::vector<std::optional<Measured>> measured_;
};

/// The measurements of `rows` (the configs of one kernel) from `data.measured`: each row's match,
/// the policies whose pick it is, its regret.
std::vector<std::optional<RunConfigModel::Measured>> measuredOfRows(const InductorRunData& data,
                                                                    const std::vector<triton::ScanRow>& rows);

/// The kernel list's Configs cell: "3" (the configs Inductor compiled), "3 + 88" when a sweep added 88.
QString configsText(const RunKernelEntry& k);

/// "X1 R2048 w16" (YBLOCK and R1_BLOCK when present): a config in a few characters.
QString shortConfigText(const triton::ScanRow& row);

}  // namespace occx::ui
