#include "core/kernels/family_module.h"

#include <string>

namespace occx {

Expected<GpuModule> familyModule(const GeneratedKernel& kernel, std::vector<std::uint8_t> cubin, ComputeCapability arch,
                                 const ProblemSpec& problem) {
  const KernelConfig& c = kernel.config;
  if (c.workload != problem.workload || c.dtype != problem.dtype || c.k != problem.k ||
      c.fp32_outputs != problem.fp32_outputs) {
    return Error{"the config (" + c.label() + ") does not compute the problem (" + problem.label() + ")"};
  }
  auto grid = checkShape(c, problem.xnumel, problem.rnumel);
  if (!grid) return Error{grid.error()};
  const auto inputs = static_cast<std::size_t>(numInputs(c.workload, c.k));
  const auto outputs = static_cast<std::size_t>(numOutputs(c.workload, c.k));
  if (kernel.params.size() != inputs + outputs + 2) {
    return Error{"launch contract mismatch: the kernel takes " + std::to_string(kernel.params.size()) +
                 " parameters, the problem has " + std::to_string(inputs) + " inputs and " + std::to_string(outputs) +
                 " outputs (+ xnumel, rnumel)"};
  }
  GpuModule m;
  m.entry = kernel.name;
  m.label = c.label();
  m.arch = arch;
  m.cubin = std::move(cubin);
  m.grid_x = *grid;
  m.block_threads = kernel.layout.threads_per_block;
  int in = 0;
  int out = 0;
  for (const KernelParam& p : kernel.params) {
    LaunchArgument a;
    a.name = p.name;
    switch (p.kind) {
      case KernelParam::Kind::kInputPointer:
        a.kind = LaunchArgument::Kind::kInput;
        a.buffer = in++;
        break;
      case KernelParam::Kind::kOutputPointer:
        a.kind = LaunchArgument::Kind::kOutput;
        a.buffer = out++;
        break;
      case KernelParam::Kind::kInt32:
        a.kind = LaunchArgument::Kind::kInt32;
        a.value = p.name == "xnumel" ? problem.xnumel : problem.rnumel;
        break;
    }
    m.arguments.push_back(std::move(a));
  }
  return m;
}

}  // namespace occx
