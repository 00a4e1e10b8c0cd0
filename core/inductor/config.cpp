#include "core/inductor/config.h"

#include <algorithm>

#include "core/base/format.h"
#include "core/base/pow2.h"

namespace occx::inductor {

Expected<SizeHints> sizeHintsFromNumels(std::int64_t xnumel, std::int64_t r0numel, std::int64_t r1numel) {
  constexpr std::int64_t kMax = 2147483647;
  if (xnumel < 1 || xnumel > kMax) return Error{"xnumel " + num(xnumel) + " is out of range: allowed 1 … 2147483647"};
  if (r0numel < 1 || r0numel > kMax)
    return Error{"rnumel " + num(r0numel) + " is out of range: allowed 1 … 2147483647"};
  if (r1numel < 0 || r1numel > kMax) {
    return Error{"r1numel " + num(r1numel) + " is out of range: allowed 0 (one reduction dimension) or 1 … 2147483647"};
  }
  SizeHints h;
  h.x = nextPowerOfTwo(xnumel);
  h.r0 = nextPowerOfTwo(r0numel);
  h.r1 = r1numel > 0 ? nextPowerOfTwo(r1numel) : 0;
  return h;
}

std::int64_t ReductionConfig::rBlockProduct() const {
  return r1_block > 0 ? std::int64_t{r0_block} * r1_block : std::int64_t{r0_block};
}

bool ReductionConfig::sameLaunchConfig(const ReductionConfig& o) const {
  return xblock == o.xblock && r0_block == o.r0_block && r1_block == o.r1_block && num_warps == o.num_warps &&
         num_stages == o.num_stages;
}

std::string ReductionConfig::str(Profile profile) const {
  std::string s = "XBLOCK=" + num(xblock) + ", ";
  if (profile == Profile::kInductor2023) {
    s += "RBLOCK=" + num(r0_block);
  } else {
    if (r1_block > 0) s += "R1_BLOCK=" + num(r1_block) + ", ";
    s += "R0_BLOCK=" + num(r0_block);
  }
  s += ", num_warps=" + num(num_warps);
  if (num_stages != 1) s += ", num_stages=" + num(num_stages);
  return s;
}

std::optional<Error> validateConfig(const ReductionConfig& c, const Device& device, Profile profile) {
  const char* rname = profile == Profile::kInductor2023 ? "RBLOCK" : "R0_BLOCK";
  if (!isPowerOfTwo(c.xblock) || c.xblock > 4096) {
    return Error{"XBLOCK " + num(c.xblock) + " is out of range: allowed a power of two 1 … 4096"};
  }
  if (!isPowerOfTwo(c.r0_block) || c.r0_block > 65536) {
    return Error{std::string(rname) + " " + num(c.r0_block) + " is out of range: allowed a power of two 1 … 65536"};
  }
  if (c.r1_block != 0) {
    if (profile == Profile::kInductor2023) {
      return Error{"R1_BLOCK " + num(c.r1_block) +
                   " is not available in the inductor-2023 profile (one RBLOCK kwarg): allowed 0"};
    }
    if (!isPowerOfTwo(c.r1_block) || c.r1_block > 32768) {
      return Error{"R1_BLOCK " + num(c.r1_block) + " is out of range: allowed 0 (none) or a power of two 1 … 32768"};
    }
  }
  const int max_warps = std::max(1, device.arch.max_threads_per_block / device.warpSize());
  if (!isPowerOfTwo(c.num_warps) || c.num_warps > max_warps) {
    return Error{"num_warps " + num(c.num_warps) + " is out of range: allowed a power of two 1 … " + num(max_warps) +
                 " (" + num(device.arch.max_threads_per_block) + " threads per block)"};
  }
  if (c.num_stages < 1 || c.num_stages > 8) {
    return Error{"num_stages " + num(c.num_stages) + " is out of range: allowed 1 … 8"};
  }
  if (c.n_regs && (*c.n_regs < 1 || *c.n_regs > device.arch.max_registers_per_thread)) {
    return Error{"n_regs " + num(*c.n_regs) + " is out of range: allowed 1 … " +
                 num(device.arch.max_registers_per_thread) + " registers per thread"};
  }
  if (c.n_spills && (*c.n_spills < 0 || *c.n_spills > (1 << 20))) {
    return Error{"n_spills " + num(*c.n_spills) + " is out of range: allowed 0 … 1048576"};
  }
  const std::int64_t smem_max = device.arch.shared_memory_per_block_optin > 0
                                    ? device.arch.shared_memory_per_block_optin
                                    : device.arch.shared_memory_per_block;
  if (c.shared_bytes < 0 || c.shared_bytes > smem_max) {
    return Error{"shared memory " + num(c.shared_bytes) + " bytes is out of range: allowed 0 … " + num(smem_max) +
                 " bytes per block"};
  }
  return std::nullopt;
}

}  // namespace occx::inductor
