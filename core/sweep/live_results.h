// Results of live sweeps of the kernel family as data: one row per configuration (compile facts
// and its Measurement), the autotuner replay's picks and regrets, and the dataset CSV that the CLI
// writes and the GUI opens (also on machines without a GPU: the bundled H200 data under
// resources/datasets/).
//
// Plain C++ (no CUDA, no Qt). core/cuda fills the rows; everything here is testable without a GPU.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/columns.h"
#include "core/base/csv.h"
#include "core/base/expected.h"
#include "core/inductor/rblock_scaling.h"
#include "core/kernels/kernel_family.h"
#include "core/sweep/measurement.h"
#include "core/sweep/policy_picks.h"

namespace occx {

/// One configuration of the built-in kernel family: its compile facts (NVRTC) and its measurement.
struct LiveRow {
  KernelConfig config;
  bool in_grid = false;             ///< part of the exhaustive grid
  bool inductor_candidate = false;  ///< one of Inductor's own candidate configs (before scaling)
  /// The policies whose scaling pass added this config (halved from a candidate); the datasets
  /// record the policies of sweepCandidatePolicies() (core/sweep/compile_sweep.h): old, new, exact.
  inductor::PolicySet added_by;
  // Compile facts (NVRTC report), -1 when unknown.
  int registers = -1;  ///< registers per thread
  int spill_stores_bytes = -1;
  int spill_loads_bytes = -1;
  int n_spills = -1;  ///< spilled 32-bit registers as Triton counts them (local bytes / 4)
  int static_smem_bytes = -1;
  double theoretical_occupancy_pct = -1.0;  ///< occupancy calculator: active warps / max warps × 100
  Measurement measured;                     ///< what the GPU run gave (core/sweep/measurement.h)

  [[nodiscard]] bool ok() const { return measured.ok(); }
  /// The policies whose autotuner candidate set holds the row: all of sweepCandidatePolicies() for
  /// Inductor's candidates, plus those whose scaling added it.
  [[nodiscard]] inductor::PolicySet inPolicySets() const;
};

/// The autotuner replay of a family sweep: the best row and the pick of each policy of sweepCandidatePolicies()
/// (summarizePicks, core/sweep/policy_picks.h), a config over `spill_threshold` spilled registers
/// filtered as Inductor filters it (unknown n_spills passes, as Inductor times configs it cannot count).
PickSummary summarizeReplay(const std::vector<LiveRow>& rows, int spill_threshold = 16);

/// A dataset: metadata ("device", "driver", "toolkit", "date", "workload", …) and rows.
struct LiveDataset {
  std::vector<std::pair<std::string, std::string>> meta;
  std::vector<LiveRow> rows;

  /// Metadata value for a key; empty when absent.
  [[nodiscard]] std::string metaValue(std::string_view key) const;
};

/// Metadata key and value that mark a file as live-sweep data; the GUI labels rows "recorded".
inline constexpr std::string_view kLiveFormatKey = "format";
inline constexpr std::string_view kLiveFormatValue = "occupancy-explorer-live-sweep 1";

/// The dataset's columns (key with the unit in the name, table title and unit, writer, reader), in
/// order: the one description the CSV writer, the CSV reader, JSON and the tables use.
const std::vector<Column<LiveRow>>& liveRowColumns();
/// The keys of liveRowColumns(), in order (time_us, bandwidth_GBps, …).
const std::vector<std::string>& liveColumns();

/// Serialises a dataset as a CSV table: the format line first, then `meta`, then liveColumns().
CsvTable liveDatasetToCsv(const LiveDataset& data);

/// The same as JSON, from the same columns: {"meta": {…}, "rows": [{column: value, …}, …]} with
/// number columns as numbers (integers without a decimal point), empty cells as null, text as text.
nlohmann::json liveDatasetToJson(const LiveDataset& data);

/// Reads a dataset written by liveDatasetToCsv (on any machine). Columns are found by name, so
/// extra columns are ignored and their order may differ; a missing required column, a malformed
/// number or an unknown status names the line and the column. Errors: not a live-sweep file. With
/// metadata "shape: static" (and xnumel, rnumel) every row's config gets the shape baked in, its
/// recorded vector_loads kept; without it the configs take the shape at run time.
Expected<LiveDataset> liveDatasetFromCsv(const CsvTable& table);

}  // namespace occx
