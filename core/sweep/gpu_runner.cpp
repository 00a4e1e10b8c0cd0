#include "core/sweep/gpu_runner.h"

namespace occx {

std::string_view phaseName(Phase phase) {
  switch (phase) {
    case Phase::kProblem: return "problem";
    case Phase::kCompile: return "compile";
    case Phase::kRun: return "run";
  }
  return "run";
}

}  // namespace occx
