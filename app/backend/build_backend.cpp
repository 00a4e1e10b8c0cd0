#include "app/backend/build_backend.h"

#include <cstdlib>
#include <string>

#include "occx_config.h"

#if OCCX_HAVE_CUDA
#include "core/cuda/cuda_backend.h"
#endif

namespace occx::app {

std::shared_ptr<Backend> buildBackend() {
  static const std::shared_ptr<Backend> backend = [] {
#if OCCX_HAVE_CUDA
    std::shared_ptr<Backend> base = cuda::makeCudaBackend();
#else
    std::shared_ptr<Backend> base = offlineBackend();
#endif
    const char* worker = std::getenv("OCCX_GPU_WORKER");
    if (worker != nullptr && *worker != '\0') return workerBackend(base, worker);
    return base;
  }();
  return backend;
}

}  // namespace occx::app
