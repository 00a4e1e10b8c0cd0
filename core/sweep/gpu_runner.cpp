#include "core/sweep/gpu_runner.h"

namespace occx {

std::string_view phaseName(Phase phase) {
  switch (phase) {
    case Phase::kProblem:
      return "problem";
    case Phase::kCompile:
      return "compile";
    case Phase::kRun:
      return "run";
  }
  return "run";
}

std::optional<Error> GpuRunner::setBufferProblem(const BufferProblemSpec& spec) {
  return Error{"this GPU runner cannot run buffer problems (" + spec.label + ")"};
}

}  // namespace occx
