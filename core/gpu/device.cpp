#include "core/gpu/device.h"

#include "core/base/format.h"

namespace occx {

std::string deviceLabel(std::string_view name, ComputeCapability cc, int sm_count) {
  std::string what = "CC " + cc.str() + ", " + num(sm_count) + " SMs";
  if (name.empty() || name == "CC " + cc.str()) return what;
  return std::string(name) + " (" + what + ")";
}

Expected<Device> makeDevice(const ArchLimits& arch, int sm_count, std::string label) {
  if (sm_count < 1 || sm_count > 1024) {
    return Error{"SM count " + num(sm_count) + " is out of range: allowed 1 … 1024"};
  }
  if (arch.registers_per_sm <= 0 || arch.max_warps_per_sm <= 0 || arch.warp_size <= 0) {
    return Error{"architecture " + arch.cc.str() +
                 " has no registers per SM / warps per SM / warp size in the GPU data"};
  }
  Device d;
  d.arch = arch;
  d.sm_count = sm_count;
  d.label = label.empty() ? "CC " + arch.cc.str() + ", " + num(sm_count) + " SMs" : std::move(label);
  return d;
}

Expected<Device> deviceForGpu(const GpuDatabase& db, const GpuSpec& gpu, int sm_override) {
  const ArchLimits* a = db.findArch(gpu.cc);
  if (!a)
    return Error{"GPU '" + gpu.name + "' has compute capability " + gpu.cc.str() +
                 ", which the GPU data does not describe"};
  const int sms = sm_override > 0 ? sm_override : gpu.sm_count;
  return makeDevice(*a, sms, deviceLabel(gpu.name, gpu.cc, sms));
}

Expected<Device> deviceForGpu(const GpuDatabase& db, std::string_view gpu_name, int sm_override) {
  const GpuSpec* g = db.findGpu(gpu_name);
  if (!g) return Error{"GPU '" + std::string(gpu_name) + "' is not known" + closestGpuNamesClause(db, gpu_name)};
  return deviceForGpu(db, *g, sm_override);
}

std::string closestGpuNamesClause(const GpuDatabase& db, std::string_view name) {
  std::string clause;
  const auto close = db.closestGpuNames(name);
  for (std::size_t i = 0; i < close.size(); ++i) clause += (i == 0 ? ": closest names are " : ", ") + close[i];
  return clause;
}

}  // namespace occx
