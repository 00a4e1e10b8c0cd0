#include "core/sweep/gpu_runner.h"

#include "core/base/format.h"

namespace occx {

std::vector<std::pair<std::string, std::string>> timingMetadata(const RunOptions& o, double copy_GBps) {
  std::vector<std::pair<std::string, std::string>> m;
  m.emplace_back("time_figure", std::string(kTimeFigure));
  std::string t = "warm-up, then timed launches L2 cold (";
  t += o.flush_l2 ? "memset of 2 x L2 before each" : "not flushed: --no-flush";
  t += ")";
  if (o.warm) t += " and as many L2 warm (the inputs and in-out buffers written by a device copy before each)";
  t += "; CUDA events around each launch";
  if (o.cupti_activity) t += " and CUPTI kernel records (device time)";
  t += "; median of the timed runs";
  m.emplace_back("timing", t);
  m.emplace_back("bandwidth", std::string(o.cupti_metrics ? "DRAM bytes read + written (CUPTI range profiler, one "
                                                            "cold launch) / device time; without them"
                                                          : "no CUPTI profiled pass (--no-metrics):") +
                                  " the buffers' bytes / device time only when not above the copy bandwidth, as an "
                                  "estimate");
  if (copy_GBps > 0.0) m.emplace_back("copy_bandwidth_GBps", fixed(copy_GBps, 1));
  return m;
}

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
