// The one place that picks the GPU backend for the program's faces (the CLI's and the GUI's main(),
// and the tests that run them): the CUDA backend in a build with the CUDA Toolkit, the offline one
// otherwise.
#pragma once

#include <memory>

#include "core/sweep/backend.h"

namespace occx::app {

/// The backend of this build: NVRTC, the driver and live runs (core/cuda/cuda_backend.h) when it was
/// built with the CUDA Toolkit, else offlineBackend(), which says what is unavailable. With
/// $OCCX_GPU_WORKER set, the GPUs and every run come from that worker program alone
/// (workerBackend): how the tests run the faces against a fake GPU. Never fails; one backend per
/// process (the first call's, kept).
std::shared_ptr<Backend> buildBackend();

}  // namespace occx::app
