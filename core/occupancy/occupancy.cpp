#include "core/occupancy/occupancy.h"

#include <algorithm>
#include <optional>

#include "core/base/format.h"

namespace occx {

namespace {

std::int64_t divUp(std::int64_t x, std::int64_t y) {
  return (x + y - 1) / y;
}
std::int64_t roundUp(std::int64_t x, std::int64_t y) {
  return divUp(x, y) * y;
}

std::string lim(int v) {
  return v == kUnlimited ? std::string("unlimited") : num(v);
}
std::string bytes(std::int64_t v) {
  if (v >= 1024 && v % 1024 == 0) return num(v) + " B (" + num(v / 1024) + " KB)";
  return num(v) + " B";
}

// Register limit per SM, following cuda_occupancy.h's cudaOccMaxBlocksPerSMRegsLimit with
// partitioned global caching off (the default for every function).
struct RegisterLimit {
  int per_warp = 0;
  int per_block = 0;
  int assumed_per_block = 0;  // warps rounded up to the granularity (the hardware check)
  int warps_per_granule = 0;
  int blocks = 0;
  bool over_block_limit = false;
};

// Saturates to int: a block far over every limit (e.g. INT_MAX threads) still compares correctly.
int saturate(std::int64_t v) {
  return static_cast<int>(std::min<std::int64_t>(v, kUnlimited));
}

RegisterLimit registerLimit(const ArchLimits& a, int regs, int warps_per_block, int granularity) {
  RegisterLimit r;
  // In 64 bits: registers × warps of an oversized block overflow int.
  const std::int64_t perWarp = roundUp(std::int64_t{regs} * a.warp_size, a.register_allocation_unit);
  const std::int64_t perBlock = perWarp * warps_per_block;
  const std::int64_t assumedPerBlock = perWarp * roundUp(warps_per_block, granularity);
  r.per_warp = saturate(perWarp);
  r.per_block = saturate(perBlock);
  r.assumed_per_block = saturate(assumedPerBlock);
  if (assumedPerBlock > a.max_registers_per_block || perBlock > a.max_registers_per_block) {
    r.over_block_limit = true;
    r.blocks = 0;
  } else if (r.per_warp > 0) {
    r.warps_per_granule = (a.registers_per_sm / granularity) / r.per_warp;
    r.blocks = r.warps_per_granule * granularity / warps_per_block;
  } else {
    r.blocks = kUnlimited;
  }
  return r;
}

}  // namespace

std::string limiterNames(unsigned limiters) {
  static const std::pair<unsigned, const char*> kNames[] = {{kLimitWarps, "warps"},
                                                            {kLimitRegisters, "registers"},
                                                            {kLimitSharedMemory, "shared memory"},
                                                            {kLimitBlocks, "blocks"},
                                                            {kLimitBarriers, "barriers"}};
  std::string out;
  for (const auto& [bit, name] : kNames) {
    if (limiters & bit) {
      if (!out.empty()) out += ", ";
      out += name;
    }
  }
  return out.empty() ? "none" : out;
}

std::int64_t sharedMemoryConfigForBlock(const ArchLimits& a, int carveout_percent, std::int64_t allocated) {
  const auto& sizes = a.shared_memory_carveout_kb;
  if (sizes.empty()) return a.shared_memory_per_sm;  // fixed (CC < 7.0)
  auto alignUp = [&](std::int64_t want) -> std::int64_t {
    for (int kb : sizes) {
      std::int64_t s = std::int64_t{kb} * 1024;
      if (want <= s) return s;
    }
    return -1;
  };
  std::int64_t preference =
      carveout_percent < 0 ? a.shared_memory_per_sm : std::int64_t{carveout_percent} * a.shared_memory_per_sm / 100;
  std::int64_t preferred = alignUp(preference);
  if (preferred >= allocated) return preferred;
  std::int64_t fit = alignUp(allocated);
  return fit < 0 ? a.shared_memory_per_sm : fit;
}

namespace {

// The derivation's words on warps: threads → warps per block → blocks per SM.
std::string warpsText(const ArchLimits& a, int threads, const OccupancyResult& r) {
  if (threads > a.max_threads_per_block) {
    return num(threads) + " threads per block exceeds the maximum of " + num(a.max_threads_per_block) +
           ": no block fits.";
  }
  return num(threads) + " threads per block = ceil(" + num(threads) + " / " + num(a.warp_size) +
         ") = " + num(r.warps_per_block) + (r.warps_per_block == 1 ? " warp" : " warps") + " per block. The SM holds " +
         num(a.max_warps_per_sm) + " warps: floor(" + num(a.max_warps_per_sm) + " / " + num(r.warps_per_block) +
         ") = " + num(r.block_limit_warps) + " blocks per SM.";
}

// The derivation's words on registers: per warp (rounded to the allocation unit), per block, and
// the warps each register-file sub-partition holds.
std::string registersText(const ArchLimits& a, int regs, const OccupancyResult& r) {
  if (regs > a.max_registers_per_thread) {
    return num(regs) + " registers per thread exceeds the maximum of " + num(a.max_registers_per_thread) +
           ": the kernel cannot launch.";
  }
  if (regs == 0) return "0 registers per thread: registers do not limit resident blocks.";
  RegisterLimit rl = registerLimit(a, regs, r.warps_per_block, a.warp_allocation_granularity);
  std::string t = num(regs) + " registers × " + num(a.warp_size) +
                  " threads = " + num(std::int64_t{regs} * a.warp_size) + " per warp, rounded up to the " +
                  num(a.register_allocation_unit) + "-register allocation unit → " + num(rl.per_warp) +
                  " per warp; × " + num(r.warps_per_block) + " warps = " + num(rl.per_block) + " registers per block.";
  if (rl.over_block_limit) {
    t += " That is over the " + num(a.max_registers_per_block) + " registers a block may use";
    if (rl.assumed_per_block != rl.per_block) {
      t += " (counted with warps rounded up to " + num(a.warp_allocation_granularity) + ": " +
           num(rl.assumed_per_block) + ")";
    }
    t += ": the kernel cannot launch with this block size.";
  } else {
    const int perPartition = a.registers_per_sm / a.warp_allocation_granularity;
    const int warpsPerSm = rl.warps_per_granule * a.warp_allocation_granularity;
    t += " The register file of " + num(a.registers_per_sm) + " is split into " + num(a.warp_allocation_granularity) +
         " sub-partitions of " + num(perPartition) + ": floor(" + num(perPartition) + " / " + num(rl.per_warp) +
         ") = " + num(rl.warps_per_granule) + " warps each, " + num(warpsPerSm) + " warps per SM; floor(" +
         num(warpsPerSm) + " / " + num(r.warps_per_block) + ") = " + num(r.block_limit_registers) + " blocks per SM.";
  }
  return t;
}

// The derivation's words on shared memory: what a block asks for and is allocated, the SM's
// configuration (fixed or by the carveout) and the blocks that fit.
std::string sharedMemoryText(const ArchLimits& a, const OccupancyInput& in, const OccupancyResult& r) {
  const std::int64_t reserved = a.reserved_shared_memory_per_block;
  const std::int64_t requested = in.static_smem_bytes + in.dynamic_smem_bytes;
  std::string t =
      "Shared memory per block: " + num(in.static_smem_bytes) + " static + " + num(in.dynamic_smem_bytes) + " dynamic";
  if (reserved > 0) t += " + " + num(reserved) + " reserved by the runtime";
  t += " = " + num(requested + reserved) + " B, rounded up to the " + num(a.shared_memory_allocation_unit) +
       " B unit → " + bytes(r.shared_memory_per_block_allocated) + ".";
  if (in.static_smem_bytes > a.shared_memory_per_block) {
    return t + " Static shared memory is limited to " + bytes(a.shared_memory_per_block) +
           ": the kernel cannot launch.";
  }
  if (requested > a.shared_memory_per_block_optin) {
    return t + " That is over the opt-in maximum of " + bytes(a.shared_memory_per_block_optin) +
           " per block: the kernel cannot launch.";
  }
  if (a.shared_memory_carveout_kb.empty()) {
    t += " The SM has a fixed " + bytes(a.shared_memory_per_sm) + ".";
  } else {
    t += " Carveout preference " +
         (in.carveout_percent < 0 ? std::string("default (largest)") : num(in.carveout_percent) + "%") +
         ": the runtime configures the SM with " + bytes(r.shared_memory_per_sm_config) + " (allowed sizes:";
    for (int kb : a.shared_memory_carveout_kb) t += " " + num(kb);
    t += " KB).";
  }
  if (r.shared_memory_per_block_allocated > 0) {
    t += " floor(" + num(r.shared_memory_per_sm_config) + " / " + num(r.shared_memory_per_block_allocated) +
         ") = " + num(r.block_limit_shared_memory) + " blocks per SM.";
  } else {
    t += " No shared memory: it does not limit resident blocks.";
  }
  return t;
}

// The derivation's result of a block that launches: the smallest limit, the active warps and the
// occupancy, and on a known GPU the blocks at once and the waves of the grid.
std::string resultText(const ArchLimits& a, const OccupancyInput& in, const OccupancyResult& r) {
  const std::string pct = fixed(100.0 * r.occupancy, 1) + "%";
  std::string res =
      "Active blocks per SM = min(warps " + lim(r.block_limit_warps) + ", blocks " + lim(r.block_limit_blocks) +
      ", registers " + lim(r.block_limit_registers) + ", shared memory " + lim(r.block_limit_shared_memory) +
      (r.block_limit_barriers != kUnlimited ? ", barriers " + lim(r.block_limit_barriers) : std::string()) +
      ") = " + num(r.active_blocks_per_sm) + ", limited by " + limiterNames(r.limiters) + ". " +
      num(r.active_blocks_per_sm) + " × " + num(r.warps_per_block) + " warps = " + num(r.active_warps_per_sm) +
      " active warps of " + num(a.max_warps_per_sm) + ": theoretical occupancy " + pct + ".";
  if (r.max_active_blocks_gpu > 0) {
    res += " On " + num(in.sm_count) + " SMs: " + num(r.max_active_blocks_gpu) + " blocks at once";
    if (in.grid_blocks > 0) {
      res += "; a grid of " + num(in.grid_blocks) + " blocks runs in " + fixed(r.waves, 2) + " waves";
    }
    res += ".";
  }
  return res;
}

// The derivation: the same arithmetic as computeOccupancy, in words, built from its result.
std::vector<DerivationStep> explain(const ArchLimits& a, const OccupancyInput& in, const OccupancyResult& r) {
  std::vector<DerivationStep> steps;
  auto step = [&](const char* topic, std::string text) { steps.push_back({topic, std::move(text)}); };
  const int threads = in.threads_per_block;
  if (threads == 0) {
    step("Result", "Cannot launch: " + r.cannot_launch_reason + ".");
    return steps;
  }
  step("Warps", warpsText(a, threads, r));
  step("Blocks",
       "Compute capability " + a.cc.str() + " keeps at most " + num(a.max_blocks_per_sm) + " resident blocks per SM.");
  step("Registers", registersText(a, in.registers_per_thread, r));
  step("Shared memory", sharedMemoryText(a, in, r));
  if (r.block_limit_barriers != kUnlimited) {
    step("Barriers", num(in.block_barriers) + " barrier(s) per block; the SM has " + num(a.block_barriers_per_sm) +
                         ": floor(" + num(a.block_barriers_per_sm) + " / " + num(in.block_barriers) + ") = " +
                         num(r.block_limit_barriers) + " blocks per SM (counted from compute capability 9.0 on).");
  }
  if (!r.can_launch) {
    step("Result", "Cannot launch: " + r.cannot_launch_reason + ".");
    return steps;
  }
  step("Result", resultText(a, in, r));
  return steps;
}

// The ranges computeOccupancy accepts: nothing negative, shared memory below 1 TiB, a carveout of
// -1 or a percentage.
std::optional<Error> checkOccupancyInput(const ArchLimits& a, const OccupancyInput& in) {
  if (in.threads_per_block < 0) {
    return Error{"threads per block " + num(in.threads_per_block) + " is negative: allowed 1 … " +
                 num(a.max_threads_per_block)};
  }
  if (in.registers_per_thread < 0) {
    return Error{"registers per thread " + num(in.registers_per_thread) + " is negative: allowed 0 … " +
                 num(a.max_registers_per_thread)};
  }
  if (in.static_smem_bytes < 0 || in.dynamic_smem_bytes < 0) {
    return Error{"shared memory per block " +
                 num(in.static_smem_bytes < 0 ? in.static_smem_bytes : in.dynamic_smem_bytes) +
                 " bytes is negative: allowed 0 … " + num(a.shared_memory_per_block_optin)};
  }
  // Beyond 1 TiB no GPU comes near, and sums of such sizes would overflow: refused as malformed.
  constexpr std::int64_t kMaxSmemBytes = std::int64_t{1} << 40;
  if (in.static_smem_bytes > kMaxSmemBytes || in.dynamic_smem_bytes > kMaxSmemBytes) {
    return Error{"shared memory per block " + num(std::max(in.static_smem_bytes, in.dynamic_smem_bytes)) +
                 " bytes is out of range: allowed 0 … " + num(a.shared_memory_per_block_optin)};
  }
  if (in.carveout_percent < -1 || in.carveout_percent > 100) {
    return Error{"carveout preference " + num(in.carveout_percent) +
                 " is out of range: allowed -1 (default) or 0 … 100 percent"};
  }
  if (in.block_barriers < 0) return Error{"block barriers " + num(in.block_barriers) + " is negative: allowed 0 … 16"};
  if (in.grid_blocks < 0 || in.sm_count < 0) {
    return Error{"grid blocks / SM count must not be negative (got " + num(in.grid_blocks) + " / " + num(in.sm_count) +
                 ")"};
  }
  return std::nullopt;
}

// Records why the block cannot launch, unless an earlier step already did: the first reason is
// the one reported. `why` is called only then.
template <class Why>
void noteCannotLaunch(OccupancyResult& r, Why&& why) {
  if (r.cannot_launch_reason.empty()) r.cannot_launch_reason = why();
}

// Step 3, registers: the register file's block limit (cuda_occupancy.h's
// cudaOccMaxBlocksPerSMRegsLimit) and what a warp and a block are allocated.
void limitByRegisters(const ArchLimits& a, int regs, OccupancyResult& r) {
  RegisterLimit rl = registerLimit(a, std::min(regs, 1 << 20), r.warps_per_block, a.warp_allocation_granularity);
  r.registers_per_warp_allocated = rl.per_warp;
  r.registers_per_block_allocated = rl.per_block;
  if (regs > a.max_registers_per_thread) {
    r.block_limit_registers = 0;
    noteCannotLaunch(
        r, [&] { return num(regs) + " registers per thread is over the limit of " + num(a.max_registers_per_thread); });
    return;
  }
  // CC 6.0 (2 sub-partitions): cuda_occupancy.h also checks the register file as if it had 4,
  // and reports no block when that check fails.
  if (a.cc == ComputeCapability{6, 0} && rl.blocks != 0 && rl.blocks != kUnlimited &&
      registerLimit(a, regs, r.warps_per_block, 4).blocks == 0) {
    rl.blocks = 0;
  }
  r.block_limit_registers = rl.blocks;
  if (rl.over_block_limit) {
    noteCannotLaunch(r, [&] {
      return num(std::max(rl.per_block, rl.assumed_per_block)) + " registers per block is over the limit of " +
             num(a.max_registers_per_block);
    });
  }
}

// Step 4, shared memory: static + dynamic + reserved, rounded to the unit, against the SM's
// configuration.
void limitBySharedMemory(const ArchLimits& a, const OccupancyInput& in, OccupancyResult& r) {
  const std::int64_t requested = in.static_smem_bytes + in.dynamic_smem_bytes;
  r.shared_memory_per_block_allocated =
      roundUp(requested + a.reserved_shared_memory_per_block, a.shared_memory_allocation_unit);
  if (in.static_smem_bytes > a.shared_memory_per_block) {
    r.block_limit_shared_memory = 0;
    noteCannotLaunch(r, [&] {
      return "static shared memory " + num(in.static_smem_bytes) + " B is over the " + num(a.shared_memory_per_block) +
             " B static limit (more is possible only as dynamic shared memory)";
    });
  } else if (requested > a.shared_memory_per_block_optin) {
    r.block_limit_shared_memory = 0;
    noteCannotLaunch(r, [&] {
      return "shared memory per block " + num(requested) + " B is over the opt-in maximum of " +
             num(a.shared_memory_per_block_optin) + " B";
    });
  } else {
    r.shared_memory_per_sm_config =
        sharedMemoryConfigForBlock(a, in.carveout_percent, r.shared_memory_per_block_allocated);
    r.block_limit_shared_memory =
        r.shared_memory_per_block_allocated > 0
            ? static_cast<int>(r.shared_memory_per_sm_config / r.shared_memory_per_block_allocated)
            : kUnlimited;
  }
}

// Step 6, combine: active blocks = the smallest limit. Limiters: every resource whose limit equals
// the result. (cuda_occupancy.h sets the other resources' flags before it applies the barrier limit
// and keeps them when barriers lower the result further; we name only the resources that bind —
// tested on its own.) Then what those blocks hold and, on a known GPU, the blocks at once and waves.
void combineLimits(const ArchLimits& a, const OccupancyInput& in, OccupancyResult& r) {
  const int ctaLimit = std::min({r.block_limit_registers, r.block_limit_shared_memory, r.block_limit_warps,
                                 r.block_limit_blocks, r.block_limit_barriers});
  unsigned limiters = 0;
  if (ctaLimit == r.block_limit_warps) limiters |= kLimitWarps;
  if (ctaLimit == r.block_limit_registers) limiters |= kLimitRegisters;
  if (ctaLimit == r.block_limit_shared_memory) limiters |= kLimitSharedMemory;
  if (ctaLimit == r.block_limit_blocks) limiters |= kLimitBlocks;
  if (ctaLimit == r.block_limit_barriers) limiters |= kLimitBarriers;
  r.limiters = limiters;
  r.active_blocks_per_sm = ctaLimit;
  r.can_launch = ctaLimit > 0;
  if (!r.can_launch) noteCannotLaunch(r, [] { return std::string("no block fits on an SM"); });
  r.active_warps_per_sm = ctaLimit * r.warps_per_block;
  r.active_threads_per_sm = ctaLimit * in.threads_per_block;
  r.occupancy = static_cast<double>(r.active_warps_per_sm) / a.max_warps_per_sm;
  r.registers_used_per_sm = r.block_limit_registers == kUnlimited ? 0 : ctaLimit * r.registers_per_block_allocated;
  r.shared_memory_used_per_sm = std::int64_t{ctaLimit} * r.shared_memory_per_block_allocated;
  if (in.sm_count > 0) {
    r.max_active_blocks_gpu = std::int64_t{ctaLimit} * in.sm_count;
    if (in.grid_blocks > 0 && r.max_active_blocks_gpu > 0) {
      r.waves = static_cast<double>(in.grid_blocks) / static_cast<double>(r.max_active_blocks_gpu);
    }
  }
}

}  // namespace

Expected<OccupancyResult> computeOccupancy(const ArchLimits& a, const OccupancyInput& in, bool with_derivation) {
  if (auto error = checkOccupancyInput(a, in)) return *error;

  OccupancyResult r;
  r.max_warps_per_sm = a.max_warps_per_sm;
  const int threads = in.threads_per_block;
  r.warps_per_block = static_cast<int>(divUp(threads, a.warp_size));

  if (threads == 0) {
    r.cannot_launch_reason =
        "a block of 0 threads cannot launch: allowed 1 … " + num(a.max_threads_per_block) + " threads per block";
    r.limiters = kLimitWarps;
    if (with_derivation) r.derivation = explain(a, in, r);
    return r;
  }

  // 1. Warps.
  if (threads > a.max_threads_per_block) {
    r.block_limit_warps = 0;
    noteCannotLaunch(
        r, [&] { return num(threads) + " threads per block is over the limit of " + num(a.max_threads_per_block); });
  } else {
    r.block_limit_warps = a.max_warps_per_sm / r.warps_per_block;
  }

  // 2. Blocks.
  r.block_limit_blocks = a.max_blocks_per_sm;

  // 3. Registers.
  limitByRegisters(a, in.registers_per_thread, r);

  // 4. Shared memory.
  limitBySharedMemory(a, in, r);

  // 5. Barriers: counted from CC 9.0 on (cuda_occupancy.h).
  r.block_limit_barriers =
      (a.cc.major >= 9 && in.block_barriers > 0) ? a.block_barriers_per_sm / in.block_barriers : kUnlimited;

  // 6. Combine.
  combineLimits(a, in, r);
  if (with_derivation) r.derivation = explain(a, in, r);
  return r;
}

Expected<BestBlockSize> bestBlockSize(const ArchLimits& a, const OccupancyInput& input, int block_size_limit) {
  if (block_size_limit < 0) {
    return Error{"block size limit " + num(block_size_limit) + " is negative: allowed 0 (none) … " +
                 num(a.max_threads_per_block)};
  }
  OccupancyInput in = input;
  in.threads_per_block = a.warp_size;
  if (auto check = computeOccupancy(a, in, false); !check) return Error{check.error()};
  const int limit =
      block_size_limit == 0 ? a.max_threads_per_block : std::min(block_size_limit, a.max_threads_per_block);
  const int occupancyLimit = a.maxThreadsPerSm();
  const LeanLimits lean(a);
  const detail::LeanBlockSizePoint at(lean, in);
  BestBlockSize best;
  int maxOccupancy = 0;
  for (int aligned = static_cast<int>(roundUp(limit, a.warp_size)); aligned > 0; aligned -= a.warp_size) {
    const int blockSize = std::min(limit, aligned);
    const int blocks = at(blockSize).active_blocks_per_sm;
    const int threads = blockSize * blocks;
    if (threads > maxOccupancy) {
      best.block_size = blockSize;
      best.active_blocks_per_sm = blocks;
      maxOccupancy = threads;
    }
    if (maxOccupancy == occupancyLimit) break;
  }
  if (best.block_size > 0) {
    best.occupancy =
        static_cast<double>(best.active_blocks_per_sm * divUp(best.block_size, a.warp_size)) / a.max_warps_per_sm;
    best.min_grid_size = std::int64_t{best.active_blocks_per_sm} * input.sm_count;
  }
  return best;
}

void blockSizeCurveInto(const ArchLimits& a, const OccupancyInput& in, std::vector<CurvePoint>& out) {
  blockSizeCurveInto(LeanLimits(a), in, out);
}

void registersCurveInto(const ArchLimits& a, const OccupancyInput& in, std::vector<CurvePoint>& out) {
  registersCurveInto(LeanLimits(a), in, out);
}

void sharedMemoryCurveInto(const ArchLimits& a, const OccupancyInput& in, std::vector<CurvePoint>& out) {
  sharedMemoryCurveInto(LeanLimits(a), in, out);
}

void blockBarriersCurveInto(const ArchLimits& a, const OccupancyInput& in, std::vector<CurvePoint>& out) {
  blockBarriersCurveInto(LeanLimits(a), in, out);
}

std::vector<CurvePoint> blockSizeCurve(const ArchLimits& a, const OccupancyInput& in) {
  std::vector<CurvePoint> out;
  blockSizeCurveInto(a, in, out);
  return out;
}

std::vector<CurvePoint> registersCurve(const ArchLimits& a, const OccupancyInput& in) {
  std::vector<CurvePoint> out;
  registersCurveInto(a, in, out);
  return out;
}

std::vector<CurvePoint> sharedMemoryCurve(const ArchLimits& a, const OccupancyInput& in) {
  std::vector<CurvePoint> out;
  sharedMemoryCurveInto(a, in, out);
  return out;
}

std::vector<CurvePoint> blockBarriersCurve(const ArchLimits& a, const OccupancyInput& in) {
  std::vector<CurvePoint> out;
  blockBarriersCurveInto(a, in, out);
  return out;
}

}  // namespace occx
