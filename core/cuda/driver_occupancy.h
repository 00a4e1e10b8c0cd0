// The driver's own occupancy answers for one launch configuration (core/occupancy/driver_answer.h):
// a probe kernel is compiled with NVRTC to the requested register count, loaded on the device, and
// the driver is asked cuOccupancyMaxActiveBlocksPerMultiprocessor, cuOccupancyMaxActiveClusters,
// cuOccupancyMaxPotentialClusterSize (portable and non-portable) and cuOccupancyMaxPotentialBlockSize
// — the calls tests/cuda/record/cluster_record.cpp recorded on an H200. CUDA-free header.
#pragma once

#include "core/base/expected.h"
#include "core/occupancy/driver_answer.h"

namespace occx::cuda {

/// The probe kernel's source: an entry "occx_probe" whose register demand exceeds 255, so that
/// --maxrregcount=N gives N registers (for N ≥ 24, the fewest it compiles to); one block barrier
/// (__syncthreads), no static shared memory. Its dynamic shared memory is the launch's.
const char* probeKernelSource();

/// Asks the driver (see the file comment). Uses the device's primary context and restores the
/// calling thread's current context. Probes are compiled once per (architecture, registers) and
/// kept for the process. Errors: no driver (its reason), no device `query.device`, inputs out of
/// range (registers 0 … 255, threads 1 … 1024, cluster size 0 … 16, shared memory over the device's
/// opt-in maximum), an NVRTC failure, a driver call's failure (named, with the driver's error text).
Expected<DriverOccupancy> queryDriverOccupancy(const DriverOccupancyQuery& query);

}  // namespace occx::cuda
