#include "core/inductor/device.h"

namespace occx::inductor {

namespace {

std::string num(std::int64_t v) { return std::to_string(v); }

}  // namespace

Expected<Device> makeDevice(const ArchLimits& arch, int sm_count, std::string label) {
  if (sm_count < 1 || sm_count > 1024) {
    return Error{"SM count " + num(sm_count) + " is out of range: allowed 1 … 1024"};
  }
  if (arch.registers_per_sm <= 0 || arch.max_warps_per_sm <= 0 || arch.warp_size <= 0) {
    return Error{"architecture " + arch.cc.str() + " has no registers per SM / warps per SM / warp size in the GPU data"};
  }
  Device d;
  d.arch = arch;
  d.sm_count = sm_count;
  d.label = label.empty() ? "CC " + arch.cc.str() + ", " + num(sm_count) + " SMs" : std::move(label);
  return d;
}

Expected<Device> deviceForGpu(const GpuDatabase& db, std::string_view gpu_name, int sm_override) {
  const GpuSpec* g = db.findGpu(gpu_name);
  if (!g) {
    std::string msg = "GPU '" + std::string(gpu_name) + "' is not known";
    auto close = db.closestGpuNames(gpu_name);
    for (std::size_t i = 0; i < close.size(); ++i) msg += (i == 0 ? ": closest names are " : ", ") + close[i];
    return Error{msg};
  }
  const ArchLimits* a = db.findArch(g->cc);
  if (!a) return Error{"GPU '" + g->name + "' has compute capability " + g->cc.str() + ", which the GPU data does not describe"};
  const int sms = sm_override > 0 ? sm_override : g->sm_count;
  return makeDevice(*a, sms, g->name + " (CC " + g->cc.str() + ", " + num(sms) + " SMs)");
}

}  // namespace occx::inductor
