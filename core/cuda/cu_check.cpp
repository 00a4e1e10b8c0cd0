#include "core/cuda/cu_check.h"

#include <cstring>

namespace occx::cuda {

std::string cuResultText(CUresult result) {
  const auto& t = detail::driverTable();
  const char* name = nullptr;
  const char* text = nullptr;
  if (t.cuGetErrorName != nullptr) t.cuGetErrorName(result, &name);
  if (t.cuGetErrorString != nullptr) t.cuGetErrorString(result, &text);
  if (name == nullptr) return "CUDA driver error " + std::to_string(static_cast<int>(result));
  return std::string(name) + " (" + (text ? text : "no description") + ")";
}

bool isStickyError(CUresult result) {
  switch (result) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_LAUNCH_TIMEOUT:
    case CUDA_ERROR_CONTEXT_IS_DESTROYED:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
    case CUDA_ERROR_UNKNOWN:
      return true;
    default:
      return false;
  }
}

Error cuCallError(CUresult result, const char* call, const char* file, int line) {
  const char* base = std::strrchr(file, '/');
  return Error{std::string(call) + " failed: " + cuResultText(result) + " [" + (base ? base + 1 : file) + ":" +
               std::to_string(line) + "]"};
}

Expected<const detail::DriverTable*> loadedDriver() {
  const auto& t = detail::driverTable();
  if (!t.loaded) return Error{t.error};
  return &t;
}

}  // namespace occx::cuda
