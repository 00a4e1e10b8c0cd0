// The GPU data as one long table: every compute capability's limits and every named GPU's figures,
// each with its source tag, for the GUI's "GPU data" table and its CSV export.
#pragma once

#include "core/base/csv.h"
#include "core/gpu/gpu_data.h"

namespace occx {

/// Columns: entry ("CC 9.0 (Hopper)" or the GPU's name), kind ("architecture" / "gpu"),
/// compute_capability, field (the data file's key, e.g. "shared_memory_per_sm"), value (bytes,
/// registers, counts, MHz, GB/s as in the file; lists space-separated), source (the file's tag(s),
/// e.g. "PG; HDR cudaOccMaxBlocksPerMultiprocessor", or "—" where the file gives none). Architectures
/// first (by CC), then GPUs in file order. The tags are explained in the file's "sources" (PG, HDR,
/// NCU, DEV, DS, DRV).
CsvTable gpuDataTable(const GpuDatabase& db);

}  // namespace occx
