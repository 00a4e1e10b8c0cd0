// The built-in kernel family as GPU modules (core/gpu/gpu_module.h): a generated kernel, its compiled
// cubin and the problem it runs on give the entry point, the grid (ceil(xnumel / XBLOCK) blocks of
// num_warps × 32 threads, no dynamic shared memory) and the arguments in the launch contract's order
// (inputs, outputs, xnumel, rnumel).
#pragma once

#include <cstdint>
#include <vector>

#include "core/base/expected.h"
#include "core/gpu/gpu_module.h"
#include "core/kernels/kernel_family.h"
#include "core/kernels/live_problem.h"

namespace occx {

/// The module of `kernel` compiled to `cubin` for `arch`, launched on `problem`. Errors: the config
/// does not compute the problem (another workload, dtype, K or output dtype), the shape does not fit
/// the config (checkShape's message), or the kernel's parameter list does not match the problem's
/// inputs and outputs (+ xnumel, rnumel).
Expected<GpuModule> familyModule(const GeneratedKernel& kernel, std::vector<std::uint8_t> cubin, ComputeCapability arch,
                                 const ProblemSpec& problem);

}  // namespace occx
