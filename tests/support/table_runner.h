// A stand-in GpuRunner for tests of Inductor kernel runs without a GPU: times each module from a
// table by a part of its label ("R0_BLOCK=2048"); a negative time is a launch that fails, a label
// the table does not know is skipped. Records the buffer problems and modules it was given.
#pragma once

#include <atomic>
#include <map>
#include <string>
#include <vector>

#include "core/sweep/gpu_runner.h"

namespace occx::testing_support {

class TableRunner final : public GpuRunner {
 public:
  explicit TableRunner(std::map<std::string, double> times) : times_(std::move(times)) {
    info_.name = "Stand-in H200";
    info_.cc = {9, 0};
    info_.sm_count = 132;
  }
  [[nodiscard]] const DeviceInfo& device() const override { return info_; }
  Expected<CopyBandwidth> copyBandwidth(bool) override { return Error{"not measured"}; }
  std::optional<Error> setProblem(const ProblemSpec&) override { return Error{"family problems are not used here"}; }
  std::optional<Error> setBufferProblem(const BufferProblemSpec& spec) override {
    problems.push_back(spec);
    return std::nullopt;
  }
  std::optional<Error> clearProblem() override { return std::nullopt; }
  RunOutcome run(const GpuModule& m, const RunOptions&, const std::atomic<bool>*) override {
    modules.push_back(m);
    RunOutcome o;
    for (const auto& [tile, us] : times_) {
      if (m.label.find(tile) == std::string::npos) continue;
      if (us < 0) {
        o.status = RunStatus::kLaunchFailed;
        o.reason = "CUDA_ERROR_ILLEGAL_ADDRESS (stand-in)";
        return o;
      }
      o.status = RunStatus::kOk;
      o.time = summarizeTimes({us, us, us});
      o.grid_blocks = m.gridBlocks();
      o.checked = true;
      o.check.compared_with = "the outputs of the first config (stand-in)";
      o.attributes.registers = registers;
      return o;
    }
    o.status = RunStatus::kSkipped;
    o.reason = "no time for " + m.label;
    return o;
  }
  [[nodiscard]] std::string contextLost() const override { return {}; }
  [[nodiscard]] std::string driverVersionText() const override { return "580.159.04"; }

  std::vector<BufferProblemSpec> problems;
  std::vector<GpuModule> modules;
  int registers = -1;

 private:
  std::map<std::string, double> times_;
  DeviceInfo info_;
};

}  // namespace occx::testing_support
