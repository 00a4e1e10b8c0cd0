// What the occupancy calculator shows, computed without widgets: the result, the impact curves, the
// cluster figures and the best block size for one set of inputs (CalculatorFigures), and from them
// the rows of its tables, the headline, the derivation, the status summary, the export subtitle, the
// CSV tables, the driver's line and the question put to the driver.
#pragma once

#include <QString>
#include <QStringList>
#include <optional>
#include <vector>

#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"
#include "core/occupancy/clusters.h"
#include "core/occupancy/driver_answer.h"
#include "core/occupancy/occupancy.h"
#include "core/sweep/backend.h"

namespace occx::ui {

/// Everything the calculator shows for one set of inputs.
struct CalculatorFigures {
  OccupancyResult result;
  QString input_error;  ///< a computeOccupancy Error (malformed input), shown like "cannot launch"
  std::vector<CurvePoint> block_size;
  std::vector<CurvePoint> registers;
  std::vector<CurvePoint> shared_memory;
  std::vector<CurvePoint> barriers;
  std::vector<ClusterCurvePoint> clusters_curve;
  ClusterLayout layout;                   ///< the named GPU's GPC layout; unknown otherwise
  std::optional<ClusterResult> clusters;  ///< for the cluster size; empty when none is set or they do not apply
  QString clusters_note;                  ///< why there are no cluster figures ("" when there are)
  BestBlockSize best;
  int reserved_smem_bytes = 0;  ///< shared memory the CUDA runtime reserves per block on this arch (1 KB from CC 8.0)
};

/// The figures of `input` on `arch` (`input.sm_count` as the GPU's; `gpu` the named GPU selected, or
/// nullptr: its GPC layout is used when its SM count is the input's) for a cluster of `cluster`
/// (cluster_size 0: none). Fills `out`, reusing its curves' storage (one call per input change).
void computeCalculatorFigures(const ArchLimits& arch, const OccupancyInput& input, const GpuSpec* gpu,
                              const ClusterInput& cluster, CalculatorFigures& out);

/// A row of one of the calculator's tables: its cells, and what it is to the launch.
struct CalculatorRow {
  enum class Mark { kNone, kLimiter, kBlocker };  ///< a limiter of active blocks; the resource that stops the launch
  QStringList cells;
  Mark mark = Mark::kNone;
};
/// "Block limit per SM from": warps, block slots, registers, shared memory, barriers (CC 9.0 on);
/// the limiters marked (blockers when the configuration cannot launch).
std::vector<CalculatorRow> calculatorLimitRows(const ArchLimits& arch, const OccupancyInput& input,
                                               const OccupancyResult& result);
/// The quantities: active blocks, warps and threads per SM, registers and shared memory allocated
/// and used, the GPU's active blocks and the waves (each saying what it needs when it cannot be had).
std::vector<CalculatorRow> calculatorDetailRows(const ArchLimits& arch, const OccupancyInput& input,
                                                const OccupancyResult& result);
/// The clusters (or why none) and the best block size, the model's beside `driver`'s (nullopt: "—").
std::vector<CalculatorRow> calculatorClusterRows(const CalculatorFigures& figures,
                                                 const std::optional<DriverOccupancy>& driver, bool non_portable);

/// The big figure and the words beside it; `validation` is the red message ("" when it launches).
struct CalculatorHeadline {
  QString value;  ///< "75.0 %", or "Cannot launch"
  QString detail;
  QString validation;
};
/// The headline of `result` (`input_error`: a malformed input, said as the reason it cannot launch).
CalculatorHeadline calculatorHeadline(const OccupancyResult& result, const QString& input_error);

/// The derivation, step by step, as HTML: the target and inputs, each step of the result and of the
/// clusters, the input error.
QString calculatorDerivationHtml(const QString& target, const OccupancyInput& input, const CalculatorFigures& figures);
/// One line for the status bar: target, launch, occupancy and its limiters (or "cannot launch"); the
/// shared memory asked for, then "+ 1 KB reserved" when the runtime reserves `reserved_smem_bytes`.
QString calculatorSummary(const QString& target, const OccupancyInput& input, const OccupancyResult& result,
                          int reserved_smem_bytes = 0);
/// The line under the plots' titles in exports: "H100 SXM5 (CC 9.0, 132 SMs) · 256 threads, 32
/// registers, 0 B shared".
QString calculatorExportSubtitle(const QString& target, const OccupancyInput& input);
/// The architecture's limits in one line (and the SM count, `sm_count` 0: none known).
QString calculatorArchText(const ArchLimits& arch, int sm_count);

/// The calculator's four CSV tables, each with the target in its metadata.
struct CalculatorCsv {
  CsvTable result;    ///< the result, the clusters, the best block size, the driver's answer
  CsvTable curves;    ///< block size, registers and shared-memory curves, with the inputs
  CsvTable barriers;  ///< the block-barriers curve
  CsvTable clusters;  ///< the cluster-size curve with the driver's figures
};
/// The tables of `figures` for `input` on `arch` (`target` names the device; the cluster's figures
/// and `driver`'s answer added to the result table when there are some).
CalculatorCsv calculatorCsv(const ArchLimits& arch, const QString& target, const OccupancyInput& input,
                            const CalculatorFigures& figures, const ClusterInput& cluster,
                            const std::optional<DriverOccupancy>& driver);

/// The question for the driver: the inputs' registers, threads, shared memory (static + dynamic) and
/// cluster size; every cluster size from CC 9.0 on.
DriverOccupancyQuery driverQueryFor(const ArchLimits& arch, const OccupancyInput& input, int cluster_size);
/// The driver's answer in one line ("Driver of NVIDIA H200 (CC 9.0, 132 SMs): …"), with a warning
/// when it is not the selected target (`sm_count`, `cc`).
QString driverAnswerText(const DriverOccupancy& answer, int sm_count, const ComputeCapability& cc);
/// What the driver line says while there is no answer: no backend (`live` nullptr), no driver here
/// (why), not the detected GPU, or to ask (again, `had_answer`: the inputs changed).
QString driverWaitingText(const Availability* live, bool detected, bool had_answer);

}  // namespace occx::ui
