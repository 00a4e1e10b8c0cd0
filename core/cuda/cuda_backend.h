// The Backend (core/sweep/backend.h) of a build with the CUDA Toolkit: NVRTC with the user's compile
// cache, the driver's GPUs, and live sweeps in a GPU worker process (core/sweep/worker_runner.h)
// started on first use and kept.
#pragma once

#include <memory>

#include "core/base/expected.h"
#include "core/sweep/backend.h"
#include "core/sweep/worker_runner.h"

namespace occx::cuda {

/// A CUDA backend (the user's compile cache, one GPU session at a time, opened on first use). The
/// caller owns it: main() keeps it for the program's life, so the session ends (and the context is
/// released) before the driver library is unloaded at exit. Never fails: without a driver or GPU,
/// liveAvailability() says why and runLiveSweep() returns that reason.
std::shared_ptr<Backend> makeCudaBackend();

/// Starts the GPU worker process (gpuWorkerProgram()) on device `ordinal` and waits until it has
/// opened the GPU. Errors: the worker is not found or cannot start, and the worker's own reason (no
/// driver, device out of range).
Expected<std::unique_ptr<WorkerRunner>> startGpuWorker(int ordinal);

}  // namespace occx::cuda
