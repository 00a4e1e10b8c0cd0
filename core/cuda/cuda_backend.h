// The Backend (core/sweep/backend.h) of a build with the CUDA Toolkit: NVRTC with the user's compile
// cache, the driver's GPUs, and live sweeps on a GpuSession opened on first use and kept.
#pragma once

#include <memory>

#include "core/sweep/backend.h"

namespace occx::cuda {

/// A CUDA backend (the user's compile cache, one GPU session at a time, opened on first use). The
/// caller owns it: main() keeps it for the program's life, so the session ends (and the context is
/// released) before the driver library is unloaded at exit. Never fails: without a driver or GPU,
/// liveAvailability() says why and runLiveSweep() returns that reason.
std::shared_ptr<Backend> makeCudaBackend();

}  // namespace occx::cuda
