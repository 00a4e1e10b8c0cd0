// The Backend (core/sweep/backend.h) of a build with the CUDA Toolkit: NVRTC with the user's compile
// cache, the driver's GPUs, and live sweeps on a GpuSession opened on first use and kept.
#pragma once

#include <memory>

#include "core/sweep/backend.h"

namespace occx::cuda {

/// The process's CUDA backend (one compile cache, one session at a time). Never fails: without a
/// driver or GPU, liveAvailability() says why and runLiveSweep() returns that reason.
std::shared_ptr<Backend> cudaBackend();

}  // namespace occx::cuda
