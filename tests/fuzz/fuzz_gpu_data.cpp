// Fuzz target: the GPU data file reader (GpuDatabase::parse), and the calculator run on whatever
// architectures it accepts — a user's --gpu-data file feeds computeOccupancy and the impact sweeps
// directly, so limits that parse must never make the arithmetic overflow or a sweep explode.
#include <climits>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "core/gpu/gpu_data.h"
#include "core/occupancy/occupancy.h"

namespace {
void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_gpu_data: property violated: %s\n", what);
    std::abort();
  }
}

void exercise(const occx::ArchLimits& a) {
  const occx::OccupancyInput defaults;
  occx::OccupancyInput extremes[5] = {defaults, defaults, defaults, defaults, defaults};
  extremes[1].threads_per_block = a.max_threads_per_block;
  extremes[1].registers_per_thread = a.max_registers_per_thread;
  extremes[2].threads_per_block = 1;
  extremes[2].registers_per_thread = 0;
  extremes[2].carveout_percent = 0;
  extremes[3].static_smem_bytes = a.shared_memory_per_block;
  extremes[3].dynamic_smem_bytes = a.shared_memory_per_block_optin - a.shared_memory_per_block;
  extremes[3].sm_count = 1024;
  extremes[3].grid_blocks = 1 << 30;
  extremes[4].threads_per_block = a.warp_size + 1;
  extremes[4].carveout_percent = 100;
  extremes[4].block_barriers = 16;
  for (const auto& in : extremes) {
    auto r = occx::computeOccupancy(a, in, true);
    if (!r) continue;
    require(r->active_blocks_per_sm >= 0, "active blocks per SM is not negative");
    require(!r->can_launch || r->active_warps_per_sm <= a.max_warps_per_sm, "active warps fit the SM");
    require(r->can_launch || !r->cannot_launch_reason.empty(), "cannot launch has a reason");
    require(r->occupancy >= 0.0 && r->occupancy <= 1.0, "occupancy is within 0 … 1");
  }
  occx::OccupancyInput huge;
  huge.threads_per_block = INT_MAX;
  huge.registers_per_thread = INT_MAX;
  huge.static_smem_bytes = INT64_MAX;
  for (const auto& in : {defaults, huge}) {
    require(occx::blockSizeCurve(a, in).size() <= 65536, "block-size sweep is bounded");
    require(occx::registersCurve(a, in).size() <= 65536, "register sweep is bounded");
    require(occx::sharedMemoryCurve(a, in).size() <= (1u << 20), "shared-memory sweep is bounded");
  }
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto db = occx::GpuDatabase::parse(text, "fuzz.json");
  if (!db) {
    require(db.error().rfind("fuzz.json", 0) == 0, "errors name the file first");
    return 0;
  }
  int n = 0;
  for (const auto& a : db->architectures()) {
    if (++n > 4) break;
    exercise(a);
  }
  for (const auto& g : db->gpus()) {
    require(db->findGpu(g.name) != nullptr || g.name.find_first_not_of(" -_") == std::string::npos,
            "every named GPU is found by its name");
    require(db->findArch(g.cc) != nullptr, "every GPU's compute capability is defined");
  }
  (void)db->closestGpuNames(text.substr(0, 64));
  (void)db->ccList();
  return 0;
}
