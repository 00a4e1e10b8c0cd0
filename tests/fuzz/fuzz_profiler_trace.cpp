// Fuzz target: the torch.profiler trace reader (parseProfilerTrace, what `occx inductor step` and
// the Step tab read) and the step built from what it accepts (profileStep, stepText, stepToCsv).
// Properties checked beyond "no crash":
//   * an error is a non-empty message naming the input;
//   * every kept activity has a step index inside the trace's steps or -1, and the activities
//     outside every step are counted;
//   * the step's category times add up to its GPU time, and every share lies in 0 … 1;
//   * the CSV has one row per kernel.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "core/step/profiler_trace.h"
#include "core/step/step_profile.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_profiler_trace: property violated: %s\n", what);
    std::abort();
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  occx::step::TraceReadOptions options;
  options.steps_when_unannotated = 1 + static_cast<int>(size % 4);
  auto trace = occx::step::parseProfilerTrace(text, "fuzz.json", options);
  if (!trace) {
    require(trace.error().find("fuzz.json") != std::string::npos, "an error names the input");
    return 0;
  }
  int outside = 0;
  for (const auto& a : trace->activities) {
    require(a.step >= -1 && a.step < static_cast<int>(trace->steps.size()), "a step index is a step or -1");
    require(a.duration_us >= 0.0, "a duration is not negative");
    if (a.step < 0) ++outside;
  }
  require(outside == trace->outside_steps, "activities outside the steps are counted");
  require(trace->step_count >= 1, "at least one step");
  const auto profile = occx::step::profileStep(*trace);
  double sum = 0.0;
  for (const auto& c : profile.categories) {
    sum += c.per_step_us;
    require(!(c.share < 0.0) && !(c.share > 1.0 + 1e-9), "a category's share lies in 0 … 1");
  }
  if (std::isfinite(profile.gpu_time_per_step_us) && profile.gpu_time_per_step_us < 1e12) {
    require(std::fabs(sum - profile.gpu_time_per_step_us) <= 1e-6 * (1.0 + profile.gpu_time_per_step_us),
            "the categories add up to the step's GPU time");
  }
  (void)occx::step::stepText(profile);
  require(occx::step::stepToCsv(profile).rows.size() == profile.kernels.size(), "one CSV row per kernel");
  return 0;
}
