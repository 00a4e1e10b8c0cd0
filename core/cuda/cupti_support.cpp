#include "core/cuda/cupti_support.h"

#include <dlfcn.h>
#include <nvrtc.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#if __has_include(<cupti.h>) && __has_include(<cupti_range_profiler.h>) && __has_include(<cupti_profiler_host.h>)
#define OCCX_CUPTI_HEADERS 1
#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>
#else
#define OCCX_CUPTI_HEADERS 0
#endif

namespace occx::cuda::cupti {

#if OCCX_CUPTI_HEADERS

namespace {

struct Table {
  bool loaded = false;
  std::string error;
  std::string path;
#define OCCX_CUPTI_FN(name) decltype(&::name) name = nullptr
  OCCX_CUPTI_FN(cuptiGetResultString);
  OCCX_CUPTI_FN(cuptiActivityRegisterCallbacks);
  OCCX_CUPTI_FN(cuptiActivityEnable);
  OCCX_CUPTI_FN(cuptiActivityDisable);
  OCCX_CUPTI_FN(cuptiActivityFlushAll);
  OCCX_CUPTI_FN(cuptiActivityGetNextRecord);
  OCCX_CUPTI_FN(cuptiGetTimestamp);
  OCCX_CUPTI_FN(cuptiProfilerInitialize);
  OCCX_CUPTI_FN(cuptiProfilerDeInitialize);
  OCCX_CUPTI_FN(cuptiDeviceGetChipName);
  OCCX_CUPTI_FN(cuptiProfilerGetCounterAvailability);
  OCCX_CUPTI_FN(cuptiProfilerHostInitialize);
  OCCX_CUPTI_FN(cuptiProfilerHostDeinitialize);
  OCCX_CUPTI_FN(cuptiProfilerHostConfigAddMetrics);
  OCCX_CUPTI_FN(cuptiProfilerHostGetConfigImageSize);
  OCCX_CUPTI_FN(cuptiProfilerHostGetConfigImage);
  OCCX_CUPTI_FN(cuptiProfilerHostEvaluateToGpuValues);
  OCCX_CUPTI_FN(cuptiRangeProfilerEnable);
  OCCX_CUPTI_FN(cuptiRangeProfilerDisable);
  OCCX_CUPTI_FN(cuptiRangeProfilerGetCounterDataSize);
  OCCX_CUPTI_FN(cuptiRangeProfilerCounterDataImageInitialize);
  OCCX_CUPTI_FN(cuptiRangeProfilerSetConfig);
  OCCX_CUPTI_FN(cuptiRangeProfilerStart);
  OCCX_CUPTI_FN(cuptiRangeProfilerStop);
  OCCX_CUPTI_FN(cuptiRangeProfilerDecodeData);
  OCCX_CUPTI_FN(cuptiRangeProfilerGetCounterDataInfo);
#undef OCCX_CUPTI_FN
};

// Kernel records delivered by CUPTI's buffer callbacks.
std::mutex g_records_mutex;
std::vector<KernelSpan> g_records;
std::uint64_t g_begin_ns = 0;  ///< CUPTI's clock at beginKernelActivity: earlier launches' records are not ours
constexpr std::size_t kBufferBytes = std::size_t{8} << 20;

void CUPTIAPI bufferRequested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = *buffer != nullptr ? kBufferBytes : 0;
  *max_records = 0;
}

void bufferCompletedImpl(const Table& t, uint8_t* buffer, size_t valid) {
  CUpti_Activity* record = nullptr;
  std::vector<KernelSpan> found;
  while (t.cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      KernelSpan span;
      span.name = k->name != nullptr ? k->name : "";
      span.start_ns = k->start;
      span.end_ns = k->end;
      span.grid_x = k->gridX;
      span.grid_y = k->gridY;
      span.grid_z = k->gridZ;
      span.block_x = k->blockX;
      found.push_back(std::move(span));
    }
  }
  std::lock_guard<std::mutex> lock(g_records_mutex);
  g_records.insert(g_records.end(), found.begin(), found.end());
}

const Table& table();

void CUPTIAPI bufferCompleted(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  if (buffer == nullptr) return;
  if (valid > 0) bufferCompletedImpl(table(), buffer, valid);
  std::free(buffer);
}

std::vector<std::string> candidatePaths() {
  std::vector<std::string> paths;
  // The toolkit folder of the NVRTC this program uses: libcupti sits beside it (lib64 or lib) or
  // under extras/CUPTI/lib64.
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&nvrtcVersion), &info) != 0 && info.dli_fname != nullptr) {
    std::string dir = info.dli_fname;
    if (auto slash = dir.rfind('/'); slash != std::string::npos) {
      dir.resize(slash);
      paths.push_back(dir + "/libcupti.so.13");
      paths.push_back(dir + "/libcupti.so");
      if (auto up = dir.rfind('/'); up != std::string::npos) {
        paths.push_back(dir.substr(0, up) + "/extras/CUPTI/lib64/libcupti.so");
      }
    }
  }
  for (const char* var : {"CUDA_HOME", "CUDA_PATH"}) {
    if (const char* v = std::getenv(var); v != nullptr && v[0] == '/') {
      paths.push_back(std::string(v) + "/lib64/libcupti.so");
      paths.push_back(std::string(v) + "/extras/CUPTI/lib64/libcupti.so");
    }
  }
  paths.push_back("/usr/local/cuda/lib64/libcupti.so");
  paths.push_back("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so");
  paths.push_back("libcupti.so.13");
  paths.push_back("libcupti.so");
  return paths;
}

Table load() {
  Table t;
  if (const char* off = std::getenv("OCCX_NO_CUPTI"); off != nullptr && off[0] != '\0' && off[0] != '0') {
    t.error = "disabled by OCCX_NO_CUPTI";
    return t;
  }
  void* handle = nullptr;
  std::string tried;
  for (const auto& p : candidatePaths()) {
    handle = dlopen(p.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (handle != nullptr) {
      t.path = p;
      break;
    }
    if (tried.empty()) {
      const char* why = dlerror();
      tried = why ? why : p;
    }
  }
  if (handle == nullptr) {
    t.error = "libcupti could not be loaded (" + tried + ")";
    return t;
  }
  std::string missing;
  auto get = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(handle, name));
    if (fn == nullptr) missing += (missing.empty() ? "" : ", ") + std::string(name);
  };
#define OCCX_GET(name) get(t.name, #name)
  OCCX_GET(cuptiGetResultString);
  OCCX_GET(cuptiActivityRegisterCallbacks);
  OCCX_GET(cuptiActivityEnable);
  OCCX_GET(cuptiActivityDisable);
  OCCX_GET(cuptiActivityFlushAll);
  OCCX_GET(cuptiActivityGetNextRecord);
  OCCX_GET(cuptiGetTimestamp);
  OCCX_GET(cuptiProfilerInitialize);
  OCCX_GET(cuptiProfilerDeInitialize);
  OCCX_GET(cuptiDeviceGetChipName);
  OCCX_GET(cuptiProfilerGetCounterAvailability);
  OCCX_GET(cuptiProfilerHostInitialize);
  OCCX_GET(cuptiProfilerHostDeinitialize);
  OCCX_GET(cuptiProfilerHostConfigAddMetrics);
  OCCX_GET(cuptiProfilerHostGetConfigImageSize);
  OCCX_GET(cuptiProfilerHostGetConfigImage);
  OCCX_GET(cuptiProfilerHostEvaluateToGpuValues);
  OCCX_GET(cuptiRangeProfilerEnable);
  OCCX_GET(cuptiRangeProfilerDisable);
  OCCX_GET(cuptiRangeProfilerGetCounterDataSize);
  OCCX_GET(cuptiRangeProfilerCounterDataImageInitialize);
  OCCX_GET(cuptiRangeProfilerSetConfig);
  OCCX_GET(cuptiRangeProfilerStart);
  OCCX_GET(cuptiRangeProfilerStop);
  OCCX_GET(cuptiRangeProfilerDecodeData);
  OCCX_GET(cuptiRangeProfilerGetCounterDataInfo);
#undef OCCX_GET
  if (!missing.empty()) {
    t.error = t.path + " lacks " + missing + " (CUPTI older than CUDA 13?)";
    return t;
  }
  t.loaded = true;
  return t;
}

const Table& table() {
  static const Table t = load();
  return t;
}

std::string resultText(const Table& t, CUptiResult r) {
  const char* s = nullptr;
  if (t.cuptiGetResultString != nullptr) t.cuptiGetResultString(r, &s);
  std::string text = s != nullptr ? s : "CUPTI error " + std::to_string(static_cast<int>(r));
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES) {
    text =
        "profiling not permitted: reading GPU performance counters needs administrator rights or "
        "NVreg_RestrictProfilingToAdminUsers=0 (" +
        text + ")";
  }
  return text;
}

/// A CUPTI parameter struct with every field zero and its structSize set.
template <class P>
P zeroed(std::size_t struct_size) {
  P p;
  std::memset(&p, 0, sizeof p);
  p.structSize = struct_size;
  return p;
}

/// Runs `undo` when it goes out of scope: the profiler's setup steps are undone, in reverse order, on
/// every return path.
template <class F>
struct AtScopeExit {
  F undo;
  explicit AtScopeExit(F f) : undo(std::move(f)) {}
  AtScopeExit(const AtScopeExit&) = delete;
  AtScopeExit& operator=(const AtScopeExit&) = delete;
  ~AtScopeExit() { undo(); }
};

/// Registers the activity buffers once.
Expected<bool> activityReady() {
  static std::once_flag once;
  static std::string error;
  const Table& t = table();
  if (!t.loaded) return Error{t.error};
  std::call_once(once, [&] {
    if (CUptiResult r = t.cuptiActivityRegisterCallbacks(bufferRequested, bufferCompleted); r != CUPTI_SUCCESS) {
      error = "cuptiActivityRegisterCallbacks: " + resultText(t, r);
    }
  });
  if (!error.empty()) return Error{error};
  return true;
}

}  // namespace

Expected<bool> available() {
  return activityReady();
}

Expected<bool> startKernelActivity() {
  auto ready = activityReady();
  if (!ready) return ready;
  const Table& t = table();
  // Enabled once and left on: switching the kind off and on between runs lost records.
  static std::once_flag enabled;
  static CUptiResult enable_result = CUPTI_SUCCESS;
  std::call_once(enabled, [&] { enable_result = t.cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL); });
  if (enable_result != CUPTI_SUCCESS) {
    return Error{"cuptiActivityEnable(CONCURRENT_KERNEL): " + resultText(t, enable_result)};
  }
  return true;
}

Expected<bool> beginKernelActivity() {
  auto started = startKernelActivity();
  if (!started) return started;
  const Table& t = table();
  t.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);  // records of earlier launches: drop them
  std::uint64_t now = 0;
  t.cuptiGetTimestamp(&now);
  std::lock_guard<std::mutex> lock(g_records_mutex);
  g_records.clear();
  g_begin_ns = now;
  return true;
}

Expected<std::vector<KernelSpan>> endKernelActivity(const LaunchShape& shape, std::size_t expected) {
  auto ready = activityReady();
  if (!ready) return Error{ready.error()};
  const Table& t = table();
  auto arrived = [&] {
    std::lock_guard<std::mutex> lock(g_records_mutex);
    std::size_t n = 0;
    for (const auto& r : g_records) {
      n += r.start_ns >= g_begin_ns && r.launched(shape.grid_x, shape.grid_y, shape.grid_z, shape.block_x) ? 1 : 0;
    }
    return n;
  };
  CUptiResult flushed = t.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  for (int i = 0; i < 100 && flushed == CUPTI_SUCCESS && expected > 0 && arrived() < expected; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    flushed = t.cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  }
  if (flushed != CUPTI_SUCCESS) return Error{"cuptiActivityFlushAll: " + resultText(t, flushed)};
  std::lock_guard<std::mutex> lock(g_records_mutex);
  std::vector<KernelSpan> out;
  for (auto& r : g_records) {
    if (r.start_ns >= g_begin_ns) out.push_back(std::move(r));  // a late record of an earlier launch is dropped
  }
  g_records.clear();
  return out;
}

LaunchMetrics profileLaunch(CUcontext ctx, int device_ordinal, const std::function<CUresult()>& launch) {
  LaunchMetrics m;
  auto allMissing = [&m](const std::string& why) {
    m.achieved_occupancy_pct = m.dram_read_bytes = m.dram_write_bytes = m.local_load_bytes = m.local_store_bytes =
        Metric::missing(why);
    return m;
  };
  const Table& t = table();
  if (!t.loaded) return allMissing(t.error);

  // Metric names as Nsight Compute and the profiler's host API know them.
  const char* names[] = {"sm__warps_active.avg.pct_of_peak_sustained_active", "dram__bytes_read.sum",
                         "dram__bytes_write.sum", "l1tex__t_bytes_pipe_lsu_mem_local_op_ld.sum",
                         "l1tex__t_bytes_pipe_lsu_mem_local_op_st.sum"};
  constexpr std::size_t kMetrics = sizeof names / sizeof names[0];

  auto init = zeroed<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
  if (CUptiResult r = t.cuptiProfilerInitialize(&init); r != CUPTI_SUCCESS) {
    return allMissing("cuptiProfilerInitialize: " + resultText(t, r));
  }
  const AtScopeExit deinit{[&t] {
    auto p = zeroed<CUpti_Profiler_DeInitialize_Params>(CUpti_Profiler_DeInitialize_Params_STRUCT_SIZE);
    t.cuptiProfilerDeInitialize(&p);
  }};

  auto chip = zeroed<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<size_t>(device_ordinal);
  if (CUptiResult r = t.cuptiDeviceGetChipName(&chip); r != CUPTI_SUCCESS) {
    return allMissing("cuptiDeviceGetChipName: " + resultText(t, r));
  }
  auto avail =
      zeroed<CUpti_Profiler_GetCounterAvailability_Params>(CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = ctx;
  if (CUptiResult r = t.cuptiProfilerGetCounterAvailability(&avail); r != CUPTI_SUCCESS) {
    return allMissing("cuptiProfilerGetCounterAvailability: " + resultText(t, r));
  }
  std::vector<uint8_t> avail_image(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = avail_image.data();
  if (CUptiResult r = t.cuptiProfilerGetCounterAvailability(&avail); r != CUPTI_SUCCESS) {
    return allMissing("cuptiProfilerGetCounterAvailability: " + resultText(t, r));
  }

  auto host = zeroed<CUpti_Profiler_Host_Initialize_Params>(CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip.pChipName;
  host.pCounterAvailabilityImage = avail_image.data();
  if (CUptiResult r = t.cuptiProfilerHostInitialize(&host); r != CUPTI_SUCCESS) {
    return allMissing("cuptiProfilerHostInitialize (" + std::string(chip.pChipName ? chip.pChipName : "?") +
                      "): " + resultText(t, r));
  }
  const AtScopeExit host_deinit{[&t, obj = host.pHostObject] {
    auto p = zeroed<CUpti_Profiler_Host_Deinitialize_Params>(CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
    p.pHostObject = obj;
    t.cuptiProfilerHostDeinitialize(&p);
  }};

  auto add =
      zeroed<CUpti_Profiler_Host_ConfigAddMetrics_Params>(CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  add.pHostObject = host.pHostObject;
  add.ppMetricNames = names;
  add.numMetrics = kMetrics;
  if (CUptiResult r = t.cuptiProfilerHostConfigAddMetrics(&add); r != CUPTI_SUCCESS) {
    return allMissing("cuptiProfilerHostConfigAddMetrics: " + resultText(t, r));
  }
  auto csize =
      zeroed<CUpti_Profiler_Host_GetConfigImageSize_Params>(CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  csize.pHostObject = host.pHostObject;
  if (CUptiResult r = t.cuptiProfilerHostGetConfigImageSize(&csize); r != CUPTI_SUCCESS) {
    return allMissing("cuptiProfilerHostGetConfigImageSize: " + resultText(t, r));
  }
  std::vector<uint8_t> config(csize.configImageSize);
  auto cimg = zeroed<CUpti_Profiler_Host_GetConfigImage_Params>(CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  cimg.pHostObject = host.pHostObject;
  cimg.configImageSize = config.size();
  cimg.pConfigImage = config.data();
  if (CUptiResult r = t.cuptiProfilerHostGetConfigImage(&cimg); r != CUPTI_SUCCESS) {
    return allMissing("cuptiProfilerHostGetConfigImage: " + resultText(t, r));
  }

  auto en = zeroed<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  en.ctx = ctx;
  if (CUptiResult r = t.cuptiRangeProfilerEnable(&en); r != CUPTI_SUCCESS) {
    return allMissing("cuptiRangeProfilerEnable: " + resultText(t, r));
  }
  const AtScopeExit disable{[&t, obj = en.pRangeProfilerObject] {
    auto p = zeroed<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
    p.pRangeProfilerObject = obj;
    t.cuptiRangeProfilerDisable(&p);
  }};

  auto dsize =
      zeroed<CUpti_RangeProfiler_GetCounterDataSize_Params>(CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  dsize.pRangeProfilerObject = en.pRangeProfilerObject;
  dsize.pMetricNames = names;
  dsize.numMetrics = kMetrics;
  dsize.maxNumOfRanges = 1;
  dsize.maxNumRangeTreeNodes = 1;
  if (CUptiResult r = t.cuptiRangeProfilerGetCounterDataSize(&dsize); r != CUPTI_SUCCESS) {
    return allMissing("cuptiRangeProfilerGetCounterDataSize: " + resultText(t, r));
  }
  std::vector<uint8_t> data(dsize.counterDataSize);
  auto dinit = zeroed<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  dinit.pRangeProfilerObject = en.pRangeProfilerObject;
  dinit.counterDataSize = data.size();
  dinit.pCounterData = data.data();
  if (CUptiResult r = t.cuptiRangeProfilerCounterDataImageInitialize(&dinit); r != CUPTI_SUCCESS) {
    return allMissing("cuptiRangeProfilerCounterDataImageInitialize: " + resultText(t, r));
  }
  auto set = zeroed<CUpti_RangeProfiler_SetConfig_Params>(CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  set.pRangeProfilerObject = en.pRangeProfilerObject;
  set.configSize = config.size();
  set.pConfig = config.data();
  set.counterDataImageSize = data.size();
  set.pCounterDataImage = data.data();
  set.range = CUPTI_AutoRange;          // one range per kernel launch
  set.replayMode = CUPTI_KernelReplay;  // CUPTI replays the launch once per pass, restoring memory
  set.maxRangesPerPass = 1;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  if (CUptiResult r = t.cuptiRangeProfilerSetConfig(&set); r != CUPTI_SUCCESS) {
    return allMissing("cuptiRangeProfilerSetConfig: " + resultText(t, r));
  }
  auto start = zeroed<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = en.pRangeProfilerObject;
  if (CUptiResult r = t.cuptiRangeProfilerStart(&start); r != CUPTI_SUCCESS) {
    return allMissing("cuptiRangeProfilerStart: " + resultText(t, r));
  }
  const CUresult launched = launch();
  auto stop = zeroed<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = en.pRangeProfilerObject;
  const CUptiResult stopped = t.cuptiRangeProfilerStop(&stop);
  if (launched != CUDA_SUCCESS)
    return allMissing("the profiled launch failed (CUDA error " + std::to_string(launched) + ")");
  if (stopped != CUPTI_SUCCESS) return allMissing("cuptiRangeProfilerStop: " + resultText(t, stopped));
  auto decode = zeroed<CUpti_RangeProfiler_DecodeData_Params>(CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = en.pRangeProfilerObject;
  if (CUptiResult r = t.cuptiRangeProfilerDecodeData(&decode); r != CUPTI_SUCCESS) {
    return allMissing("cuptiRangeProfilerDecodeData: " + resultText(t, r));
  }
  auto info =
      zeroed<CUpti_RangeProfiler_GetCounterDataInfo_Params>(CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  if (CUptiResult r = t.cuptiRangeProfilerGetCounterDataInfo(&info); r != CUPTI_SUCCESS) {
    return allMissing("cuptiRangeProfilerGetCounterDataInfo: " + resultText(t, r));
  }
  if (info.numTotalRanges < 1) return allMissing("the profiler recorded no range for the launch");
  double values[kMetrics] = {};
  auto eval = zeroed<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
      CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
  eval.pHostObject = host.pHostObject;
  eval.pCounterDataImage = data.data();
  eval.counterDataImageSize = data.size();
  eval.rangeIndex = 0;
  eval.ppMetricNames = names;
  eval.numMetrics = kMetrics;
  eval.pMetricValues = values;
  if (CUptiResult r = t.cuptiProfilerHostEvaluateToGpuValues(&eval); r != CUPTI_SUCCESS) {
    return allMissing("cuptiProfilerHostEvaluateToGpuValues: " + resultText(t, r));
  }
  m.achieved_occupancy_pct = Metric::of(values[0]);
  m.dram_read_bytes = Metric::of(values[1]);
  m.dram_write_bytes = Metric::of(values[2]);
  m.local_load_bytes = Metric::of(values[3]);
  m.local_store_bytes = Metric::of(values[4]);
  return m;
}

#else  // no CUPTI headers at build time

Expected<bool> available() {
  return Error{"built without CUPTI headers"};
}
Expected<bool> startKernelActivity() {
  return Error{"built without CUPTI headers"};
}
Expected<bool> beginKernelActivity() {
  return Error{"built without CUPTI headers"};
}
Expected<std::vector<KernelSpan>> endKernelActivity(const LaunchShape&, std::size_t) {
  return Error{"built without CUPTI headers"};
}
LaunchMetrics profileLaunch(CUcontext, int, const std::function<CUresult()>&) {
  LaunchMetrics m;
  m.achieved_occupancy_pct = m.dram_read_bytes = m.dram_write_bytes = m.local_load_bytes = m.local_store_bytes =
      Metric::missing("built without CUPTI headers");
  return m;
}

#endif

}  // namespace occx::cuda::cupti
