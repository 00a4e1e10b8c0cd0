#include "core/cuda/gpu_session.h"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <sstream>
#include <thread>

#include "core/base/format.h"
#include "core/cuda/cu_check.h"
#include "core/cuda/cupti_support.h"

namespace occx::cuda {

// Named, not anonymous: GpuSession::Impl (a class with external linkage) holds one.
namespace session_detail {

/// A thread that runs submitted functions in order; the caller of call() waits for the result.
class Worker {
 public:
  Worker() : thread_([this] { loop(); }) {}
  ~Worker() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    cv_.notify_all();
    thread_.join();
  }
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  template <class F>
  auto call(F&& f) -> std::invoke_result_t<F&> {
    using R = std::invoke_result_t<F&>;
    std::packaged_task<R()> task(std::forward<F>(f));
    auto result = task.get_future();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      queue_.emplace_back([&task] { task(); });  // `task` outlives the wait below
    }
    cv_.notify_one();
    return result.get();
  }

 private:
  void loop() {
    for (;;) {
      std::function<void()> job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        cv_.wait(lock, [this] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;
        job = std::move(queue_.front());
        queue_.pop_front();
      }
      job();
    }
  }
  std::mutex mutex_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  bool stop_ = false;
  std::thread thread_;  // last: starts after the members it uses exist
};

}  // namespace session_detail

namespace {

std::string bytesText(std::int64_t b) {
  std::ostringstream s;
  s.precision(3);
  if (b >= (std::int64_t{1} << 30)) {
    s << static_cast<double>(b) / static_cast<double>(std::int64_t{1} << 30) << " GiB";
  } else {
    s << static_cast<double>(b) / static_cast<double>(std::int64_t{1} << 20) << " MiB";
  }
  return s.str();
}

}  // namespace

struct GpuSession::Impl {
  session_detail::Worker worker;
  // Everything below is touched only on the worker thread (except `info`, immutable after open).
  const detail::DriverTable* d = nullptr;
  DeviceInfo info;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;
  std::vector<CUevent> start_events;
  std::vector<CUevent> end_events;
  CUdeviceptr flush = 0;
  std::int64_t flush_bytes = 0;
  // The current problem: a family problem (`problem`) or a buffer problem (`buffers`), never both.
  std::shared_ptr<const HostProblem> problem;
  std::shared_ptr<const HostBuffers> buffers;
  /// Buffer problems: the outputs of the first run that checked ok, on the host (kept across a
  /// context reset; a new problem starts without one).
  BufferReference reference;
  /// Device buffers: the family problem's inputs and outputs, or the buffer problem's input buffers
  /// (inputIndices() order) and output and in-out buffers (outputIndices() order), which launch
  /// arguments kInput i / kOutput i name.
  std::vector<CUdeviceptr> inputs;
  std::vector<CUdeviceptr> outputs;
  /// Warm runs: a pristine device copy of every buffer the kernel reads (inputs, in-outs), copied
  /// over it before each warm launch. Made at the first warm run of a problem, freed with it.
  struct Pristine {
    CUdeviceptr copy = 0;
    CUdeviceptr buffer = 0;
    std::int64_t bytes = 0;
  };
  std::vector<Pristine> pristine;
  std::string pristine_error;  ///< why the copies could not be made (warm is then not measured)
  double copy_GBps = 0.0;      ///< the device's copy bandwidth once known (applyBandwidth's check)
  std::string problem_error;   ///< why the current problem is not on the device
  std::int64_t allocated = 0;
  std::int64_t memory_limit = 0;
  int resets = 0;
  bool broken = false;
  std::string lost;  ///< non-empty once the context could not be recreated: CUDA needs a new process
  std::string driver_text;

  // ---- memory ----------------------------------------------------------------------------------
  Expected<CUdeviceptr> alloc(std::int64_t bytes, const std::string& what) {
    if (memory_limit > 0 && allocated + bytes > memory_limit) {
      return Error{"out of memory: " + what + " needs " + bytesText(bytes) + ", over the session's limit of " +
                   bytesText(memory_limit) + " (" + bytesText(allocated) + " in use)"};
    }
    CUdeviceptr p = 0;
    const CUresult r = d->cuMemAlloc(&p, static_cast<std::size_t>(bytes));
    if (r == CUDA_ERROR_OUT_OF_MEMORY) {
      std::size_t free_b = 0, total_b = 0;
      d->cuMemGetInfo(&free_b, &total_b);
      return Error{"out of memory: " + what + " needs " + bytesText(bytes) + ", " +
                   bytesText(static_cast<std::int64_t>(free_b)) + " free of " +
                   bytesText(static_cast<std::int64_t>(total_b))};
    }
    if (r != CUDA_SUCCESS) return cuCallError(r, ("cuMemAlloc(" + what + ")").c_str(), __FILE__, __LINE__);
    allocated += bytes;
    return p;
  }
  void release(CUdeviceptr& p, std::int64_t bytes) {
    if (p != 0) {
      if (!broken) d->cuMemFree(p);
      allocated -= bytes;
      p = 0;
    }
  }
  /// Bytes of device input buffer i of the current problem.
  [[nodiscard]] std::int64_t inputBytesAt(std::size_t i) const {
    if (buffers) {
      return buffers->spec.buffers[static_cast<std::size_t>(buffers->spec.inputIndices()[i])].bytes();
    }
    return problem ? problem->inputBytes() : 0;
  }
  /// Bytes of device output buffer i of the current problem (an output or in-out buffer).
  [[nodiscard]] std::int64_t outputBytesAt(std::size_t i) const {
    if (buffers) {
      return buffers->spec.buffers[static_cast<std::size_t>(buffers->spec.outputIndices()[i])].bytes();
    }
    return problem ? problem->outputBytes() : 0;
  }
  void freeProblem() {
    // `inputs` and `outputs` may hold only a prefix (an upload that failed half-way).
    for (std::size_t i = 0; i < inputs.size(); ++i) release(inputs[i], inputBytesAt(i));
    for (std::size_t i = 0; i < outputs.size(); ++i) release(outputs[i], outputBytesAt(i));
    inputs.clear();
    outputs.clear();
    for (auto& p : pristine) release(p.copy, p.bytes);
    pristine.clear();
    pristine_error.clear();
  }

  /// Makes the pristine copies of the buffers the kernel reads (once per problem), from the host's
  /// initial contents. Error: out of memory (warm is then not measured) or a driver failure.
  std::optional<Error> ensurePristine() {
    if (!pristine.empty() || !pristine_error.empty()) {
      return pristine_error.empty() ? std::nullopt : std::optional<Error>(Error{pristine_error});
    }
    auto add = [&](CUdeviceptr buffer, const std::vector<std::uint8_t>& init, const std::string& what) -> bool {
      const auto bytes = static_cast<std::int64_t>(init.size());
      auto m = alloc(bytes, "a pristine copy of " + what + " (warm runs)");
      if (!m) {
        pristine_error = m.error();
        return false;
      }
      pristine.push_back({*m, buffer, bytes});
      if (CUresult r = d->cuMemcpyHtoD(*m, init.data(), init.size()); r != CUDA_SUCCESS) {
        pristine_error = cuCallError(r, "cuMemcpyHtoD(pristine copy)", __FILE__, __LINE__).message;
        return false;
      }
      return true;
    };
    bool ok = true;
    if (buffers) {
      const BufferProblemSpec& spec = buffers->spec;
      const std::vector<int> in = spec.inputIndices();
      const std::vector<int> out = spec.outputIndices();
      for (std::size_t i = 0; ok && i < in.size(); ++i) {
        ok = add(inputs[i], buffers->initial[static_cast<std::size_t>(in[i])], "input " + std::to_string(i));
      }
      for (std::size_t i = 0; ok && i < out.size(); ++i) {
        const auto b = static_cast<std::size_t>(out[i]);
        if (spec.buffers[b].role == BufferSpec::Role::kInOut) {
          ok = add(outputs[i], buffers->initial[b], "in-out buffer " + std::to_string(i));
        }
      }
    } else if (problem) {
      for (std::size_t i = 0; ok && i < problem->inputs.size(); ++i) {
        ok = add(inputs[i], problem->inputs[i], "input " + std::to_string(i));
      }
    }
    // cuMemcpyHtoD from pageable memory may return before its DMA lands, and the timing stream does
    // not wait for the legacy stream: without this, a warm launch's copy could read a half-filled
    // pristine copy (seen on an H200: the last rows of an input zero).
    if (ok) {
      if (CUresult r = d->cuCtxSynchronize(); r != CUDA_SUCCESS) {
        pristine_error = cuCallError(r, "cuCtxSynchronize(pristine copies)", __FILE__, __LINE__).message;
        ok = false;
      }
    }
    if (!ok) {
      for (auto& p : pristine) release(p.copy, p.bytes);
      pristine.clear();
      return Error{pristine_error};
    }
    return std::nullopt;
  }

  // ---- context ---------------------------------------------------------------------------------
  std::optional<Error> initContext() {
    auto fail = [](Error e) -> std::optional<Error> { return e; };
    auto guard = [&](CUresult r, const char* call) -> std::optional<Error> {
      if (r != CUDA_SUCCESS) return fail(cuCallError(r, call, __FILE__, __LINE__));
      return std::nullopt;
    };
    if (auto e = guard(d->cuDevicePrimaryCtxRetain(&ctx, dev), "cuDevicePrimaryCtxRetain")) {
      ctx = nullptr;
      return e;
    }
    if (auto e = guard(d->cuCtxSetCurrent(ctx), "cuCtxSetCurrent")) return e;
    if (auto e = guard(d->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), "cuStreamCreate")) return e;
    // L2 flush buffer: twice the L2, at least 64 MiB (a memset over it evicts every line).
    flush_bytes = std::max<std::int64_t>(2 * info.l2_bytes, std::int64_t{64} << 20);
    auto f = alloc(flush_bytes, "the L2 flush buffer");
    if (!f) return Error{f.error()};
    flush = *f;
    return std::nullopt;
  }

  std::optional<Error> ensureEvents(std::size_t n) {
    while (start_events.size() < n) {
      CUevent a = nullptr, b = nullptr;
      if (CUresult r = d->cuEventCreate(&a, CU_EVENT_DEFAULT); r != CUDA_SUCCESS) {
        return cuCallError(r, "cuEventCreate", __FILE__, __LINE__);
      }
      if (CUresult r = d->cuEventCreate(&b, CU_EVENT_DEFAULT); r != CUDA_SUCCESS) {
        d->cuEventDestroy(a);
        return cuCallError(r, "cuEventCreate", __FILE__, __LINE__);
      }
      start_events.push_back(a);
      end_events.push_back(b);
    }
    return std::nullopt;
  }

  void teardown() {
    freeProblem();
    release(flush, flush_bytes);
    if (!broken) {
      for (auto e : start_events) d->cuEventDestroy(e);
      for (auto e : end_events) d->cuEventDestroy(e);
      if (stream != nullptr) d->cuStreamDestroy(stream);
    }
    start_events.clear();
    end_events.clear();
    stream = nullptr;
    if (ctx != nullptr) {
      d->cuDevicePrimaryCtxRelease(dev);
      ctx = nullptr;
    }
    allocated = 0;
  }

  /// After a sticky error: drop everything, reset the primary context, start again, re-upload.
  std::optional<Error> resetContext() {
    broken = true;
    // Reset while the context is still retained and current (as cudaDeviceReset does), then drop
    // our handles and the retain; the thread must not keep the dead context current.
    const CUresult r1 = d->cuDevicePrimaryCtxReset(dev);
    teardown();
    d->cuCtxSetCurrent(nullptr);
    broken = false;
    ++resets;
    auto e = initContext();
    CUresult r2 = CUDA_SUCCESS;
    if (e) {  // once more: reset with nothing retained
      broken = true;
      teardown();
      d->cuCtxSetCurrent(nullptr);
      r2 = d->cuDevicePrimaryCtxReset(dev);
      broken = false;
      e = initContext();
    }
    if (e) {
      // CUDA documents errors such as an illegal address as fatal to the process: every later
      // call returns the same error. The session stays alive and says so on every request.
      broken = true;
      lost = "the GPU context is lost after an error that CUDA makes fatal to the process (" + e->message +
             "; cuDevicePrimaryCtxReset: " + cuResultText(r1) + ", then " + cuResultText(r2) +
             "): runs need a new process";
      return Error{lost};
    }
    if (problem || buffers) {
      if (auto ue = upload()) problem_error = ue->message;
    }
    return std::nullopt;
  }

  // ---- problem ---------------------------------------------------------------------------------
  std::optional<Error> upload() {
    problem_error.clear();
    if (buffers) return uploadBuffers();
    const auto& p = *problem;
    for (std::size_t i = 0; i < p.inputs.size(); ++i) {
      auto m = alloc(p.inputBytes(), "input " + std::to_string(i));
      if (!m) return Error{m.error()};
      inputs.push_back(*m);
      if (CUresult r = d->cuMemcpyHtoD(*m, p.inputs[i].data(), p.inputs[i].size()); r != CUDA_SUCCESS) {
        return cuCallError(r, "cuMemcpyHtoD(input)", __FILE__, __LINE__);
      }
    }
    for (std::size_t i = 0; i < p.reference.size(); ++i) {
      auto m = alloc(p.outputBytes(), "output " + std::to_string(i));
      if (!m) return Error{m.error()};
      outputs.push_back(*m);
    }
    return std::nullopt;
  }

  /// A buffer problem's upload: inputs and in-outs allocated and copied (their initial contents),
  /// outputs allocated; in the spec's buffer order, so `inputs` and `outputs` fill in
  /// inputIndices() / outputIndices() order.
  std::optional<Error> uploadBuffers() {
    const BufferProblemSpec& spec = buffers->spec;
    for (std::size_t i = 0; i < spec.buffers.size(); ++i) {
      const BufferSpec& b = spec.buffers[i];
      const std::string what = std::string(bufferRoleName(b.role)) + " buffer " + std::to_string(i) +
                               (b.name.empty() ? std::string() : " (" + b.name + ")");
      auto m = alloc(b.bytes(), what);
      if (!m) return Error{m.error()};
      (b.role == BufferSpec::Role::kInput ? inputs : outputs).push_back(*m);
      if (b.role == BufferSpec::Role::kOutput) continue;
      const auto& init = buffers->initial[i];
      if (CUresult r = d->cuMemcpyHtoD(*m, init.data(), init.size()); r != CUDA_SUCCESS) {
        return cuCallError(r, ("cuMemcpyHtoD(" + what + ")").c_str(), __FILE__, __LINE__);
      }
    }
    return std::nullopt;
  }

  // ---- runs ------------------------------------------------------------------------------------
  /// Classifies a driver failure during a run, resetting the context when it is sticky.
  void failRun(RunOutcome& out, CUresult r, const char* call, RunStatus status) {
    out.status = r == CUDA_ERROR_OUT_OF_MEMORY ? RunStatus::kOutOfMemory : status;
    out.reason = cuCallError(r, call, __FILE__, __LINE__).message;
    if (isStickyError(r)) {
      out.context_reset = true;
      if (auto e = resetContext()) out.reason += "; " + e->message;
    }
  }

  // ---- launch arguments ------------------------------------------------------------------------
  /// Scratch memory of one run, freed when the run ends — unless the context was reset meanwhile
  /// (the reset freed it with the old context and set the accounting back to zero).
  struct ScratchBuffer {
    Impl* impl;
    CUdeviceptr ptr = 0;
    std::int64_t bytes = 0;
    int generation = 0;
    ScratchBuffer(Impl* i, CUdeviceptr p, std::int64_t b) : impl(i), ptr(p), bytes(b), generation(i->resets) {}
    ScratchBuffer(ScratchBuffer&& o) noexcept : impl(o.impl), ptr(o.ptr), bytes(o.bytes), generation(o.generation) {
      o.ptr = 0;
    }
    ScratchBuffer(const ScratchBuffer&) = delete;
    ScratchBuffer& operator=(const ScratchBuffer&) = delete;
    ScratchBuffer& operator=(ScratchBuffer&&) = delete;
    ~ScratchBuffer() {
      if (impl->resets == generation) impl->release(ptr, bytes);
    }
  };
  /// The values behind each kernel parameter and the pointer array cuLaunchKernel takes, which
  /// points into the vectors: built once in place (never copied, vectors never grown after).
  struct BoundArguments {
    BoundArguments() = default;
    BoundArguments(const BoundArguments&) = delete;
    BoundArguments& operator=(const BoundArguments&) = delete;
    std::vector<CUdeviceptr> device_pointers;
    std::vector<std::int64_t> integers;
    std::vector<void*> pointers;
  };

  static std::optional<Error> checkArguments(const GpuModule& m, std::size_t nin, std::size_t nout,
                                             std::int64_t max_dynamic_smem) {
    if (m.grid_x < 1 || m.grid_x > 2147483647 || m.grid_y < 1 || m.grid_y > 65535 || m.grid_z < 1 || m.grid_z > 65535) {
      return Error{"grid " + std::to_string(m.grid_x) + " × " + std::to_string(m.grid_y) + " × " +
                   std::to_string(m.grid_z) + " is out of range: allowed 1 … 2147483647 × 65535 × 65535"};
    }
    if (m.block_threads < 1 || m.block_threads > 1024) {
      return Error{"block of " + std::to_string(m.block_threads) + " threads is out of range: allowed 1 … 1024"};
    }
    if (m.dynamic_smem_bytes < 0 || m.dynamic_smem_bytes > max_dynamic_smem) {
      return Error{"dynamic shared memory " + std::to_string(m.dynamic_smem_bytes) +
                   " B is out of range: allowed 0 … " + std::to_string(max_dynamic_smem) +
                   " B (the opt-in maximum per block)"};
    }
    for (const LaunchArgument& arg : m.arguments) {
      if (arg.kind == LaunchArgument::Kind::kInt32 && (arg.value < INT32_MIN || arg.value > INT32_MAX)) {
        return Error{"parameter " + arg.name + ": " + std::to_string(arg.value) +
                     " is out of range for an i32: allowed -2147483648 … 2147483647"};
      }
      if (arg.kind == LaunchArgument::Kind::kScratch &&
          (arg.scratch_bytes < 0 ||
           (arg.scratch_bytes > 0 && arg.scratch_bytes > (std::int64_t{1} << 40) / m.gridBlocks()))) {
        return Error{"parameter " + arg.name + ": " + std::to_string(arg.scratch_bytes) +
                     " scratch bytes per block is out of range: allowed 0 … 1 TiB in all"};
      }
      const bool in = arg.kind == LaunchArgument::Kind::kInput;
      if (!in && arg.kind != LaunchArgument::Kind::kOutput) continue;
      const std::size_t have = in ? nin : nout;
      if (arg.buffer < 0 || static_cast<std::size_t>(arg.buffer) >= have) {
        return Error{"launch contract mismatch: parameter " + arg.name + " wants " + (in ? "input " : "output ") +
                     std::to_string(arg.buffer) + ", the problem has " + std::to_string(nin) + " inputs and " +
                     std::to_string(nout) + " outputs"};
      }
    }
    return std::nullopt;
  }

  /// Fills `b` (empty) for `m`; false after setting `out`'s status and reason.
  bool bindArguments(const GpuModule& m, std::vector<ScratchBuffer>& scratch, RunOutcome& out, BoundArguments& b) {
    b.device_pointers.reserve(m.arguments.size());
    b.integers.reserve(m.arguments.size());
    for (const LaunchArgument& arg : m.arguments) {
      switch (arg.kind) {
        case LaunchArgument::Kind::kInput:
          b.device_pointers.push_back(inputs[static_cast<std::size_t>(arg.buffer)]);
          b.pointers.push_back(&b.device_pointers.back());
          break;
        case LaunchArgument::Kind::kOutput:
          b.device_pointers.push_back(outputs[static_cast<std::size_t>(arg.buffer)]);
          b.pointers.push_back(&b.device_pointers.back());
          break;
        case LaunchArgument::Kind::kScratch: {
          CUdeviceptr ptr = 0;
          if (arg.scratch_bytes > 0) {
            const std::int64_t bytes = arg.scratch_bytes * m.gridBlocks();
            auto p = alloc(bytes, "scratch for " + arg.name);
            if (!p) {
              out.status = RunStatus::kOutOfMemory;
              out.reason = p.error();
              return false;
            }
            ptr = *p;
            scratch.emplace_back(this, ptr, bytes);
          }
          b.device_pointers.push_back(ptr);
          b.pointers.push_back(&b.device_pointers.back());
          break;
        }
        case LaunchArgument::Kind::kInt32:
        case LaunchArgument::Kind::kInt64:
          b.integers.push_back(arg.value);
          b.pointers.push_back(&b.integers.back());
          break;
      }
    }
    // The kernel reads 4 bytes for an int32 parameter: on little-endian hosts the first 4 bytes of the
    // int64 slot hold the value (checked at compile time below).
    static_assert(std::endian::native == std::endian::little, "int32 parameters are passed from int64 slots");
    return true;
  }

  RunOutcome run(const GpuModule& module, const RunOptions& opt, const std::atomic<bool>* cancel) {
    RunOutcome out;
    auto cancelled = [&] { return cancel != nullptr && cancel->load(); };
    if (cancelled()) {
      out.status = RunStatus::kCancelled;
      out.reason = "cancelled before it ran";
      return out;
    }
    if (!lost.empty()) {
      out.status = RunStatus::kLaunchFailed;
      out.reason = lost;
      return out;
    }
    if (broken) {
      if (auto e = resetContext()) {
        out.status = RunStatus::kLaunchFailed;
        out.reason = e->message;
        return out;
      }
    }
    if (!problem && !buffers) {
      out.reason = "no problem set";
      return out;
    }
    if (!problem_error.empty()) {
      out.status = problem_error.rfind("out of memory", 0) == 0 ? RunStatus::kOutOfMemory : RunStatus::kLaunchFailed;
      out.reason = problem_error;
      return out;
    }
    out.grid_blocks = module.gridBlocks();
    const std::size_t nin = inputs.size();
    const std::size_t nout = outputs.size();
    const std::int64_t optin = info.shared_memory_per_block_optin > 0 ? info.shared_memory_per_block_optin : INT64_MAX;
    if (auto e = checkArguments(module, nin, nout, optin)) {
      out.reason = e->message;
      return out;
    }
    if (module.cubin.empty()) {
      out.status = RunStatus::kCompileFailed;
      out.reason = "no cubin";
      return out;
    }

    CUmodule mod = nullptr;
    if (CUresult r = d->cuModuleLoadData(&mod, module.cubin.data()); r != CUDA_SUCCESS) {
      failRun(out, r, "cuModuleLoadData", RunStatus::kCompileFailed);
      return out;
    }
    struct ModuleGuard {  // unloads unless the context was reset meanwhile (which unloaded it)
      Impl* impl;
      CUmodule m;
      int generation;
      ~ModuleGuard() {
        if (impl->resets == generation && !impl->broken && m != nullptr) impl->d->cuModuleUnload(m);
      }
    } guard{this, mod, resets};
    CUfunction fn = nullptr;
    if (CUresult r = d->cuModuleGetFunction(&fn, mod, module.entry.c_str()); r != CUDA_SUCCESS) {
      failRun(out, r, "cuModuleGetFunction", RunStatus::kCompileFailed);
      return out;
    }
    auto& a = out.attributes;
    d->cuFuncGetAttribute(&a.registers, CU_FUNC_ATTRIBUTE_NUM_REGS, fn);
    d->cuFuncGetAttribute(&a.local_bytes, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, fn);
    d->cuFuncGetAttribute(&a.static_smem_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, fn);
    d->cuFuncGetAttribute(&a.max_threads_per_block, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, fn);
    const int threads = module.block_threads;
    if (a.max_threads_per_block >= 0 && threads > a.max_threads_per_block) {
      out.status = RunStatus::kLaunchFailed;
      out.reason = "cannot launch: " + std::to_string(threads) + " threads per block, the kernel allows at most " +
                   std::to_string(a.max_threads_per_block) + " (registers per thread " + std::to_string(a.registers) +
                   ")";
      return out;
    }
    const auto smem = static_cast<unsigned>(module.dynamic_smem_bytes);
    if (module.dynamic_smem_bytes > 48 * 1024) {
      // Above 48 KiB the kernel must opt in to its dynamic shared memory before the launch.
      if (CUresult r =
              d->cuFuncSetAttribute(fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(smem));
          r != CUDA_SUCCESS) {
        failRun(out, r, "cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)", RunStatus::kLaunchFailed);
        return out;
      }
    }
    d->cuOccupancyMaxActiveBlocksPerMultiprocessor(&out.driver_active_blocks_per_sm, fn, threads, smem);

    // Parameters in the module's order: problem buffers, integers, scratch pointers.
    std::vector<ScratchBuffer> scratch;
    BoundArguments args;
    if (!bindArguments(module, scratch, out, args)) return out;
    auto launch = [&]() -> CUresult {
      return d->cuLaunchKernel(fn, static_cast<unsigned>(module.grid_x), static_cast<unsigned>(module.grid_y),
                               static_cast<unsigned>(module.grid_z), static_cast<unsigned>(threads), 1, 1, smem, stream,
                               args.pointers.data(), nullptr);
    };

    // 1. Correctness: poisoned outputs (0xFF bytes are NaN in every floating type), in-out buffers
    // back to their initial contents, one launch, check.
    if (opt.check) {
      const std::vector<int> out_indices = buffers ? buffers->spec.outputIndices() : std::vector<int>();
      for (std::size_t i = 0; i < nout; ++i) {
        if (buffers &&
            buffers->spec.buffers[static_cast<std::size_t>(out_indices[i])].role == BufferSpec::Role::kInOut) {
          const auto& init = buffers->initial[static_cast<std::size_t>(out_indices[i])];
          if (CUresult r = d->cuMemcpyHtoD(outputs[i], init.data(), init.size()); r != CUDA_SUCCESS) {
            failRun(out, r, "cuMemcpyHtoD(restore in-out buffers)", RunStatus::kLaunchFailed);
            return out;
          }
          continue;
        }
        if (CUresult r = d->cuMemsetD8(outputs[i], 0xFF, static_cast<std::size_t>(outputBytesAt(i)));
            r != CUDA_SUCCESS) {
          failRun(out, r, "cuMemsetD8(poison outputs)", RunStatus::kLaunchFailed);
          return out;
        }
      }
      if (CUresult r = d->cuCtxSynchronize(); r != CUDA_SUCCESS) {
        failRun(out, r, "cuCtxSynchronize", RunStatus::kLaunchFailed);
        return out;
      }
      if (CUresult r = launch(); r != CUDA_SUCCESS) {
        failRun(out, r, "cuLaunchKernel", RunStatus::kLaunchFailed);
        return out;
      }
      if (CUresult r = d->cuStreamSynchronize(stream); r != CUDA_SUCCESS) {
        failRun(out, r, "kernel execution (cuStreamSynchronize)", RunStatus::kLaunchFailed);
        return out;
      }
      std::vector<std::vector<std::uint8_t>> got(nout);
      for (std::size_t i = 0; i < nout; ++i) {
        got[i].resize(static_cast<std::size_t>(outputBytesAt(i)));
        if (CUresult r = d->cuMemcpyDtoH(got[i].data(), outputs[i], got[i].size()); r != CUDA_SUCCESS) {
          failRun(out, r, "cuMemcpyDtoH(outputs)", RunStatus::kLaunchFailed);
          return out;
        }
      }
      out.checked = true;
      if (buffers) {
        // No CPU reference: the first config whose outputs are written is the reference of the rest.
        out.check = reference.check(buffers->spec, std::move(got), module.label.empty() ? module.entry : module.label);
      } else {
        out.check = checkOutputs(*problem, got, opt.check_threads);  // compared_with: the CPU reference
      }
      if (!out.check.ok) {
        out.status = RunStatus::kWrongResult;
        out.reason = out.check.message;
        return out;
      }
    }
    if (cancelled()) {
      out.status = RunStatus::kCancelled;
      out.reason = "cancelled";
      return out;
    }

    // 2. Estimate one launch, warm up, then time.
    if (auto e = ensureEvents(static_cast<std::size_t>(std::max(opt.max_timed_runs, 1)))) {
      out.status = RunStatus::kLaunchFailed;
      out.reason = e->message;
      return out;
    }
    auto sync = [&](const char* what) -> bool {
      if (CUresult r = d->cuStreamSynchronize(stream); r != CUDA_SUCCESS) {
        failRun(out, r, what, RunStatus::kLaunchFailed);
        return false;
      }
      return true;
    };
    float est_ms = 0.0f;
    {
      d->cuEventRecord(start_events[0], stream);
      if (CUresult r = launch(); r != CUDA_SUCCESS) {
        failRun(out, r, "cuLaunchKernel", RunStatus::kLaunchFailed);
        return out;
      }
      d->cuEventRecord(end_events[0], stream);
      if (!sync("kernel execution (estimate)")) return out;
      d->cuEventElapsedTime(&est_ms, start_events[0], end_events[0]);
      est_ms = std::max(est_ms, 1e-3f);
    }
    const int warmup =
        std::clamp(static_cast<int>(std::ceil(opt.warmup_ms / est_ms)), std::max(opt.min_warmup_runs, 0), 10000);
    for (int i = 0; i < warmup; ++i) {
      if (CUresult r = launch(); r != CUDA_SUCCESS) {
        failRun(out, r, "cuLaunchKernel (warm-up)", RunStatus::kLaunchFailed);
        return out;
      }
    }
    if (!sync("kernel execution (warm-up)")) return out;
    out.warmup_runs = warmup;
    if (cancelled()) {
      out.status = RunStatus::kCancelled;
      out.reason = "cancelled";
      return out;
    }
    const int runs = std::clamp(static_cast<int>(std::ceil(opt.timed_ms / est_ms)), std::max(opt.min_timed_runs, 1),
                                std::max(opt.max_timed_runs, 1));
    // One timed pass: `runs` launches, each after its prelude (warm: the pristine copies over the
    // buffers the kernel reads; cold: the L2 flush), CUDA events around each launch and CUPTI
    // kernel records. False when the run failed (out says why).
    const cupti::LaunchShape shape{module.grid_x, module.grid_y, module.grid_z, threads};
    std::string cupti_note;
    auto timedPass = [&](bool warm, TimingStats& events, std::optional<TimingStats>& kernel) -> bool {
      bool cupti_on = false;
      if (opt.cupti_activity) {
        auto b = cupti::beginKernelActivity();
        if (b) {
          cupti_on = true;
        } else {
          cupti_note = std::string(warm ? "warm: " : "") + "CUPTI kernel records unavailable: " + b.error();
        }
      }
      auto stopCupti = [&] {
        if (cupti_on) (void)cupti::endKernelActivity(cupti::LaunchShape{}, 0);
      };
      for (int i = 0; i < runs; ++i) {
        if (warm) {
          for (const Pristine& p : pristine) {
            d->cuMemcpyDtoDAsync(p.buffer, p.copy, static_cast<std::size_t>(p.bytes), stream);
          }
        } else if (opt.flush_l2) {
          d->cuMemsetD32Async(flush, static_cast<unsigned>(i + 1), static_cast<std::size_t>(flush_bytes / 4), stream);
        }
        d->cuEventRecord(start_events[static_cast<std::size_t>(i)], stream);
        if (CUresult r = launch(); r != CUDA_SUCCESS) {
          stopCupti();
          failRun(out, r, warm ? "cuLaunchKernel (timed, warm)" : "cuLaunchKernel (timed)", RunStatus::kLaunchFailed);
          return false;
        }
        d->cuEventRecord(end_events[static_cast<std::size_t>(i)], stream);
        if (cancelled()) {
          sync("kernel execution (cancelled)");
          stopCupti();
          out.status = RunStatus::kCancelled;
          out.reason = "cancelled";
          return false;
        }
      }
      if (!sync(warm ? "kernel execution (timed, warm)" : "kernel execution (timed)")) {
        stopCupti();
        return false;
      }
      std::vector<double> samples;
      samples.reserve(static_cast<std::size_t>(runs));
      for (int i = 0; i < runs; ++i) {
        float ms = 0.0f;
        if (CUresult r = d->cuEventElapsedTime(&ms, start_events[static_cast<std::size_t>(i)],
                                               end_events[static_cast<std::size_t>(i)]);
            r != CUDA_SUCCESS) {
          stopCupti();
          failRun(out, r, "cuEventElapsedTime", RunStatus::kLaunchFailed);
          return false;
        }
        samples.push_back(static_cast<double>(ms) * 1000.0);
      }
      events = summarizeTimes(samples);
      if (!cupti_on) return true;
      d->cuCtxSynchronize();  // CUPTI completes kernel records at synchronisation points
      auto spans = cupti::endKernelActivity(shape, static_cast<std::size_t>(runs));
      if (!spans) {
        cupti_note = std::string(warm ? "warm: " : "") + "CUPTI kernel records unavailable: " + spans.error();
        return true;
      }
      // Only this module's launches ran on the context since the records began.
      std::vector<double> us;
      for (const auto& sp : *spans) {
        if (sp.launched(shape.grid_x, shape.grid_y, shape.grid_z, shape.block_x)) us.push_back(sp.durationUs());
      }
      if (static_cast<int>(us.size()) >= runs) {
        us.erase(us.begin(), us.end() - runs);  // the timed launches are the last `runs`
        kernel = summarizeTimes(us);
      } else {
        cupti_note = std::string(warm ? "warm: " : "") + "CUPTI recorded " + std::to_string(us.size()) + " of " +
                     std::to_string(runs) + " launches (" + std::to_string(spans->size()) + " kernel records in all" +
                     (spans->empty() ? std::string() : ", the last named " + spans->back().name) + ")";
      }
      return true;
    };
    if (!timedPass(false, out.time, out.kernel_time)) return out;
    out.bytes_moved = buffers ? buffers->spec.bytesMoved() : problem->bytes.total();
    if (opt.warm) {
      if (auto e = ensurePristine()) {
        out.warm_note = "warm not measured: " + e->message;
      } else {
        TimingStats warm_events;
        if (!timedPass(true, warm_events, out.warm_kernel_time)) return out;
        out.warm_time = warm_events;
      }
    }
    if (opt.cupti_metrics) {
      // DRAM bytes of a cold launch, as the cold time: L2 flushed before the profiled launch.
      d->cuMemsetD32Async(flush, 0x3f800000u, static_cast<std::size_t>(flush_bytes / 4), stream);
      if (!sync("L2 flush before profiling")) return out;
      auto m = cupti::profileLaunch(ctx, info.ordinal, [&]() -> CUresult {
        if (CUresult r = launch(); r != CUDA_SUCCESS) return r;
        return d->cuStreamSynchronize(stream);
      });
      out.achieved_occupancy_pct = m.achieved_occupancy_pct;
      out.dram_read_bytes = m.dram_read_bytes;
      out.dram_write_bytes = m.dram_write_bytes;
      out.local_load_bytes = m.local_load_bytes;
      out.local_store_bytes = m.local_store_bytes;
    }
    out.status = RunStatus::kOk;
    out.reason = cupti_note;
    applyBandwidth(out, copy_GBps);
    return out;
  }

  // ---- copy bandwidth --------------------------------------------------------------------------
  Expected<CopyBandwidth> measureCopy(std::int64_t bytes, int runs) {
    if (bytes < (std::int64_t{1} << 20) || bytes > (std::int64_t{16} << 30)) {
      return Error{"copy size " + std::to_string(bytes) + " bytes is out of range: allowed 1 MiB … 16 GiB"};
    }
    if (runs < 1 || runs > 1000) return Error{"runs " + std::to_string(runs) + " is out of range: allowed 1 … 1000"};
    bytes &= ~std::int64_t{3};
    auto src = alloc(bytes, "the copy source");
    if (!src) return Error{src.error()};
    CUdeviceptr s = *src;
    auto dst = alloc(bytes, "the copy destination");
    if (!dst) {
      release(s, bytes);
      return Error{dst.error()};
    }
    CUdeviceptr t = *dst;
    struct Free {
      Impl* impl;
      CUdeviceptr& a;
      CUdeviceptr& b;
      std::int64_t n;
      ~Free() {
        impl->release(a, n);
        impl->release(b, n);
      }
    } free_guard{this, s, t, bytes};
    if (auto e = ensureEvents(static_cast<std::size_t>(runs))) return *e;
    // Non-zero contents (never time on zeros).
    OCCX_CU_TRY(*d, cuMemsetD32Async(s, 0x3f800001u, static_cast<std::size_t>(bytes / 4), stream));
    const auto n = static_cast<std::size_t>(bytes);
    for (int i = 0; i < 3; ++i) OCCX_CU_TRY(*d, cuMemcpyDtoDAsync(t, s, n, stream));
    for (int i = 0; i < runs; ++i) {
      OCCX_CU_TRY(*d, cuEventRecord(start_events[static_cast<std::size_t>(i)], stream));
      OCCX_CU_TRY(*d, cuMemcpyDtoDAsync(t, s, n, stream));
      OCCX_CU_TRY(*d, cuEventRecord(end_events[static_cast<std::size_t>(i)], stream));
    }
    OCCX_CU_TRY(*d, cuStreamSynchronize(stream));
    std::vector<double> us;
    for (int i = 0; i < runs; ++i) {
      float ms = 0.0f;
      OCCX_CU_TRY(*d, cuEventElapsedTime(&ms, start_events[static_cast<std::size_t>(i)],
                                         end_events[static_cast<std::size_t>(i)]));
      us.push_back(static_cast<double>(ms) * 1000.0);
    }
    const TimingStats st = summarizeTimes(us);
    CopyBandwidth bw;
    bw.bytes_per_copy = bytes;
    bw.runs = runs;
    bw.median_us = st.median_us;
    bw.min_us = st.min_us;
    bw.max_us = st.max_us;
    bw.GBps = bandwidthGBps(2 * bytes, st.median_us);
    bw.device_name = info.name;
    bw.uuid = info.uuid;
    bw.driver_version = info.driver_version;
    bw.measured_at = utcTimestamp();
    return bw;
  }
};

GpuSession::GpuSession() : impl_(std::make_unique<Impl>()) {}

GpuSession::~GpuSession() {
  if (impl_) {
    impl_->worker.call([this] { impl_->teardown(); });
  }
}

Expected<std::unique_ptr<GpuSession>> GpuSession::open(int ordinal) {
  // Kernel records first: enabled once a context exists, CUPTI delivered some configs' records a
  // config late and others not at all. A failure here only means no CUPTI times (each run says why).
  (void)cupti::startKernelActivity();
  auto drv = loadedDriver();
  if (!drv) return Error{drv.error()};
  auto devices = queryDevices();
  if (!devices) return Error{devices.error()};
  if (devices->empty()) return Error{"no CUDA GPU found: the driver reports 0 devices"};
  if (ordinal < 0 || ordinal >= static_cast<int>(devices->size())) {
    return Error{"device " + std::to_string(ordinal) + " is out of range: allowed 0 … " +
                 std::to_string(devices->size() - 1)};
  }
  std::unique_ptr<GpuSession> s(new GpuSession());
  Impl& im = *s->impl_;
  im.d = *drv;
  im.info = (*devices)[static_cast<std::size_t>(ordinal)];
  // Driver version text, for dataset metadata.
  {
    std::ifstream f("/proc/driver/nvidia/version");
    std::string line;
    if (std::getline(f, line)) {
      const auto pos = line.find("Module");
      if (pos != std::string::npos) {
        std::istringstream rest(line.substr(pos + 6));
        std::string tok;
        while (rest >> tok) {
          if (!tok.empty() && tok[0] >= '0' && tok[0] <= '9') {
            im.driver_text = tok;
            break;
          }
        }
      }
    }
    if (im.driver_text.empty()) im.driver_text = "CUDA " + im.info.driverCudaVersion();
  }
  auto err = im.worker.call([&im]() -> std::optional<Error> {
    OCCX_CU_TRY(*im.d, cuDeviceGet(&im.dev, im.info.ordinal));
    return im.initContext();
  });
  if (err) return *err;
  return s;
}

const DeviceInfo& GpuSession::device() const {
  return impl_->info;
}

Expected<CopyBandwidth> GpuSession::measureCopyBandwidth(std::int64_t bytes, int runs) {
  return impl_->worker.call([&]() {
    auto bw = impl_->measureCopy(bytes, runs);
    if (bw) impl_->copy_GBps = bw->GBps;  // runs check bandwidths against it
    return bw;
  });
}

Expected<CopyBandwidth> GpuSession::copyBandwidth(bool refresh) {
  auto dir = userCacheDir();
  if (!refresh && dir) {
    if (auto cached = loadCachedCopyBandwidth(*dir, impl_->info)) {
      impl_->worker.call([&] { impl_->copy_GBps = cached->GBps; });  // runs check bandwidths against it
      return *cached;
    }
  }
  auto bw = measureCopyBandwidth();
  if (bw && dir) (void)storeCachedCopyBandwidth(*dir, *bw);
  return bw;
}

namespace {
// Replaces the session's problem with one of either kind (or none), on the GPU thread.
template <class Impl>
std::optional<Error> replaceProblem(Impl& im, std::shared_ptr<const HostProblem> problem,
                                    std::shared_ptr<const HostBuffers> buffers) {
  return im.worker.call([&]() -> std::optional<Error> {
    if (!im.lost.empty()) return Error{im.lost};
    if (im.broken) {
      if (auto e = im.resetContext()) return e;
    }
    im.freeProblem();
    im.reference.clear();
    im.problem = std::move(problem);
    im.buffers = std::move(buffers);
    im.problem_error.clear();
    if (!im.problem && !im.buffers) return std::nullopt;
    if (auto e = im.upload()) {
      im.freeProblem();
      im.problem_error = e->message;
      return e;
    }
    return std::nullopt;
  });
}
}  // namespace

std::optional<Error> GpuSession::setProblem(std::shared_ptr<const HostProblem> problem) {
  return replaceProblem(*impl_, std::move(problem), nullptr);
}

std::optional<Error> GpuSession::setProblem(const ProblemSpec& spec) {
  auto problem = makeHostProblem(spec);
  if (!problem) return Error{problem.error()};
  return setProblem(std::make_shared<const HostProblem>(std::move(problem).value()));
}

std::optional<Error> GpuSession::setBufferProblem(std::shared_ptr<const HostBuffers> buffers) {
  return replaceProblem(*impl_, nullptr, std::move(buffers));
}

std::optional<Error> GpuSession::setBufferProblem(const BufferProblemSpec& spec) {
  auto buffers = makeHostBuffers(spec);  // on the calling thread: the GPU thread stays free
  if (!buffers) return Error{buffers.error()};
  return setBufferProblem(std::make_shared<const HostBuffers>(std::move(buffers).value()));
}

std::optional<Error> GpuSession::clearProblem() {
  return setProblem(std::shared_ptr<const HostProblem>());
}

RunOutcome GpuSession::run(const GpuModule& module, const RunOptions& options, const std::atomic<bool>* cancel) {
  return impl_->worker.call([&]() { return impl_->run(module, options, cancel); });
}

void GpuSession::setDeviceMemoryLimit(std::int64_t bytes) {
  impl_->worker.call([&] { impl_->memory_limit = std::max<std::int64_t>(bytes, 0); });
}

std::string GpuSession::contextLost() const {
  return impl_->worker.call([&] { return impl_->lost; });
}

int GpuSession::contextResets() const {
  return impl_->worker.call([&] { return impl_->resets; });
}

std::string GpuSession::driverVersionText() const {
  return impl_->driver_text;
}

}  // namespace occx::cuda
