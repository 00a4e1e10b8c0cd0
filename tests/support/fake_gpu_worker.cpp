// A stand-in for occx-gpu-worker that needs no GPU: the real protocol loop (serveGpuWorker) over a
// fake GPU, misbehaving on command so that the WorkerRunner's restart, timeout and error rows can be
// tested in CI. A module whose entry point starts with
//   "crash"   aborts the process,           "hang"    sleeps until killed,
//   "garbage" writes bytes that are no frame, "fault" loses the context (as an illegal address does),
//   "slow"    runs for up to 5 s but stops at a cancel;
// any other module "runs" in 100 µs + its grid_x µs, with CUPTI figures, and its reason says which
// problem the worker holds ("problem sum fp32 256 × 4096, uploaded 1 time in this worker").
// A problem of 999 rows does not fit (out of memory); one of 777 rows crashes the worker.
// Buffer problems (setBufferProblem): the fake builds the real initial contents (makeHostBuffers) and
// "computes" every output or in-out buffer as 2 × (its own initial contents for an in-out, else the
// first input's element i mod its size, else 1), plus grid_x × 1e-7 relative (another tiling's
// rounding, well within the tolerance); entry "nowrite…" writes nothing (outputs stay poisoned),
// "wrong…" adds 0.5 to element 3 of each output. The check is the real one (BufferReference): the
// first config that checks ok is the reference. A buffer of 999 elements does not fit (out of memory).
// Options: --refuse TEXT (answer ready with an error), --exit-at-start, --garbage-at-start,
// --crash-on ENTRY / --fault-on ENTRY (misbehave on that entry point too), --device N (ignored).
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "core/kernels/kernel_family.h"
#include "core/kernels/reference.h"
#include "core/sweep/buffer_problem.h"
#include "core/sweep/worker_protocol.h"

namespace {

/// Element i of a floating buffer as a double (fp16, bf16, fp32, fp64 storage).
double floatingAt(occx::ElementType t, const std::vector<std::uint8_t>& b, std::size_t i) {
  switch (t) {
    case occx::ElementType::kF16:
      return occx::decodeElements(occx::DType::kF16, b.data() + 2 * i, 1)[0];
    case occx::ElementType::kBF16:
      return occx::decodeElements(occx::DType::kBF16, b.data() + 2 * i, 1)[0];
    case occx::ElementType::kF32:
      return occx::decodeElements(occx::DType::kF32, b.data() + 4 * i, 1)[0];
    default: {
      double d = 0.0;
      std::memcpy(&d, b.data() + 8 * i, 8);
      return d;
    }
  }
}

/// Stores `v` as element i of a buffer of type t (integers truncated, as a kernel's cast would).
void store(occx::ElementType t, std::vector<std::uint8_t>& b, std::size_t i, double v) {
  const int size = occx::elementBytes(t);
  std::vector<std::uint8_t> bytes;
  switch (t) {
    case occx::ElementType::kF16:
      bytes = occx::encodeElements(occx::DType::kF16, {v});
      break;
    case occx::ElementType::kBF16:
      bytes = occx::encodeElements(occx::DType::kBF16, {v});
      break;
    case occx::ElementType::kF32:
      bytes = occx::encodeElements(occx::DType::kF32, {v});
      break;
    case occx::ElementType::kF64:
      bytes.resize(8);
      std::memcpy(bytes.data(), &v, 8);
      break;
    default: {
      const auto n = static_cast<std::int64_t>(v);
      bytes.resize(8);
      std::memcpy(bytes.data(), &n, 8);  // little-endian: the low bytes first
      break;
    }
  }
  std::memcpy(b.data() + static_cast<std::size_t>(size) * i, bytes.data(), static_cast<std::size_t>(size));
}

class FakeGpu final : public occx::GpuRunner {
 public:
  FakeGpu(int fd, std::vector<std::string> crash_on, std::vector<std::string> fault_on)
      : fd_(fd), crash_on_(std::move(crash_on)), fault_on_(std::move(fault_on)) {
    info_.name = "Fake H200";
    info_.uuid = "GPU-00000000-fake";
    info_.cc = {9, 0};
    info_.sm_count = 132;
    info_.registers_per_sm = 65536;
    info_.registers_per_block = 65536;
    info_.max_threads_per_sm = 2048;
    info_.max_threads_per_block = 1024;
    info_.max_blocks_per_sm = 32;
    info_.warp_size = 32;
    info_.shared_memory_per_sm = 233472;
    info_.shared_memory_per_block_optin = 232448;
    info_.l2_bytes = 62914560;
    info_.driver_version = 13000;
    info_.data_mismatches = {"memory bus bits: device 6016, data 6144"};
  }
  [[nodiscard]] const occx::DeviceInfo& device() const override { return info_; }
  occx::Expected<occx::CopyBandwidth> copyBandwidth(bool refresh) override {
    occx::CopyBandwidth bw;
    bw.GBps = refresh ? 4300.5 : 4271.0;
    bw.bytes_per_copy = std::int64_t{2} << 30;
    bw.runs = 20;
    bw.device_name = info_.name;
    bw.measured_at = "2026-12-01T00:00:00Z";
    return bw;
  }
  std::optional<occx::Error> setProblem(const occx::ProblemSpec& spec) override {
    if (auto e = occx::checkProblemSpec(spec)) return e;
    if (spec.xnumel == 999) return occx::Error{"out of memory: 999 rows do not fit (fake)"};
    if (spec.xnumel == 777) std::abort();  // a worker that dies while it builds the problem
    problem_ = spec;
    buffers_.reset();
    ++uploads_;
    return std::nullopt;
  }
  std::optional<occx::Error> setBufferProblem(const occx::BufferProblemSpec& spec) override {
    for (const auto& b : spec.buffers) {
      if (b.elements == 999) return occx::Error{"out of memory: " + b.name + " needs 999 elements (fake)"};
    }
    auto h = occx::makeHostBuffers(spec);
    if (!h) return occx::Error{h.error()};
    problem_.reset();
    buffers_ = std::move(h).value();
    reference_.clear();
    ++uploads_;
    return std::nullopt;
  }
  std::optional<occx::Error> clearProblem() override {
    problem_.reset();
    buffers_.reset();
    reference_.clear();
    return std::nullopt;
  }
  occx::RunOutcome run(const occx::GpuModule& module, const occx::RunOptions& options,
                       const std::atomic<bool>* cancel) override {
    occx::RunOutcome o;
    const std::string& e = module.entry;
    auto listed = [&](const std::vector<std::string>& v) { return std::find(v.begin(), v.end(), e) != v.end(); };
    if (e.rfind("crash", 0) == 0 || listed(crash_on_)) std::abort();
    if (e.rfind("hang", 0) == 0) {
      for (;;) std::this_thread::sleep_for(std::chrono::seconds(1));
    }
    if (e.rfind("garbage", 0) == 0) {
      const char junk[] = "\x10\x00\x00\x00this is not CBOR";
      (void)::write(fd_, junk, sizeof junk - 1);
      return o;
    }
    if (e.rfind("fault", 0) == 0 || listed(fault_on_)) {
      lost_ = "CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered";
      o.status = occx::RunStatus::kLaunchFailed;
      o.reason = "kernel execution (cuStreamSynchronize): " + lost_;
      return o;
    }
    if (!lost_.empty()) {
      o.status = occx::RunStatus::kLaunchFailed;
      o.reason = lost_;
      return o;
    }
    if (e.rfind("slow", 0) == 0) {
      for (int i = 0; i < 500; ++i) {
        if (cancel != nullptr && cancel->load()) {
          o.status = occx::RunStatus::kCancelled;
          o.reason = "cancelled";
          return o;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
    }
    if (!problem_ && !buffers_) {
      o.reason = "no problem set";
      return o;
    }
    if (buffers_ && options.check) {
      o.checked = true;
      o.check = reference_.check(buffers_->spec, outputsOf(module), module.label.empty() ? module.entry : module.label);
      if (!o.check.ok) {
        o.status = occx::RunStatus::kWrongResult;
        o.reason = o.check.message;
        return o;
      }
    }
    o.status = occx::RunStatus::kOk;
    o.grid_blocks = module.gridBlocks();
    o.attributes.registers = 40;
    o.attributes.max_threads_per_block = 1024;
    o.driver_active_blocks_per_sm = 4;
    if (problem_) {
      o.checked = options.check;
      o.check.max_abs_error = 1.5e-6;
      if (options.check) o.check.compared_with = "the CPU reference";
    }
    const double us = 100.0 + static_cast<double>(module.grid_x);
    o.time.runs = options.min_timed_runs;
    o.time.median_us = o.time.min_us = o.time.max_us = us;
    o.kernel_time = o.time;
    o.kernel_time->median_us = us - 2.0;
    o.warmup_runs = options.min_warmup_runs;
    if (options.warm) {  // warm: 10 µs less by events, 12 by CUPTI
      o.warm_time = o.time;
      o.warm_time->median_us = us - 10.0;
      o.warm_kernel_time = o.time;
      o.warm_kernel_time->median_us = us - 12.0;
    }
    if (buffers_) {
      o.bytes_moved = buffers_->spec.bytesMoved();
    } else {
      auto bytes = occx::bytesMoved(problem_->workload, problem_->dtype, problem_->k, problem_->xnumel,
                                    problem_->rnumel, problem_->fp32_outputs);
      o.bytes_moved = bytes ? bytes->total() : 0;
    }
    if (options.cupti_metrics) {
      o.achieved_occupancy_pct = occx::Metric::of(61.25);
      o.dram_read_bytes = occx::Metric::of(4194304.0);
      o.dram_write_bytes = occx::Metric::of(1048576.0);
    } else {
      o.achieved_occupancy_pct = occx::Metric::missing("not collected");
      o.dram_read_bytes = o.dram_write_bytes = occx::Metric::missing("not collected");
    }
    o.local_load_bytes = occx::Metric::missing("profiling not permitted (fake)");
    o.reason = (buffers_ ? "buffer problem " + buffers_->spec.label : "problem " + problem_->label()) + ", uploaded " +
               std::to_string(uploads_) + (uploads_ == 1 ? " time" : " times") + " in this worker";
    occx::applyBandwidth(o, 0.0);  // the session's rule: DRAM bytes over the cold device time
    return o;
  }
  /// The output and in-out buffers after the fake kernel `module` ran on poisoned outputs and
  /// restored in-outs (outputIndices() order).
  std::vector<std::vector<std::uint8_t>> outputsOf(const occx::GpuModule& module) const {
    const occx::BufferProblemSpec& spec = buffers_->spec;
    const std::vector<int> ins = spec.inputIndices();
    std::vector<std::vector<std::uint8_t>> outs;
    for (int index : spec.outputIndices()) {
      const auto& b = spec.buffers[static_cast<std::size_t>(index)];
      const auto& initial = buffers_->initial[static_cast<std::size_t>(index)];
      std::vector<std::uint8_t> bytes = b.role == occx::BufferSpec::Role::kInOut
                                            ? initial
                                            : std::vector<std::uint8_t>(static_cast<std::size_t>(b.bytes()), 0xFF);
      if (module.entry.rfind("nowrite", 0) != 0) {
        for (std::size_t i = 0; i < static_cast<std::size_t>(b.elements); ++i) {
          double src = 1.0;
          if (b.role == occx::BufferSpec::Role::kInOut) {
            src = occx::isFloating(b.type) ? floatingAt(b.type, initial, i) : 0.0;
          } else if (!ins.empty()) {
            const auto& in = spec.buffers[static_cast<std::size_t>(ins[0])];
            const auto& in_bytes = buffers_->initial[static_cast<std::size_t>(ins[0])];
            src = occx::isFloating(in.type) ? floatingAt(in.type, in_bytes, i % static_cast<std::size_t>(in.elements))
                                            : 0.0;
          }
          double v = 2.0 * src * (1.0 + static_cast<double>(module.grid_x) * 1e-7);
          if (module.entry.rfind("wrong", 0) == 0 && i == 3) v += 0.5;
          store(b.type, bytes, i, v);
        }
      }
      outs.push_back(std::move(bytes));
    }
    return outs;
  }
  [[nodiscard]] std::string contextLost() const override { return lost_; }
  [[nodiscard]] std::string driverVersionText() const override { return "fake 580.0"; }

 private:
  int fd_;
  std::vector<std::string> crash_on_;
  std::vector<std::string> fault_on_;
  occx::DeviceInfo info_;
  std::optional<occx::ProblemSpec> problem_;
  std::optional<occx::HostBuffers> buffers_;
  occx::BufferReference reference_;
  int uploads_ = 0;
  std::string lost_;
};

}  // namespace

int main(int argc, char** argv) {
  const int fd = ::dup(STDIN_FILENO);
  ::dup2(STDERR_FILENO, STDOUT_FILENO);
  std::vector<std::string> crash_on;
  std::vector<std::string> fault_on;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const std::string next = i + 1 < argc ? argv[i + 1] : "";
    if (a == "--refuse") return occx::refuseGpuWorker(fd, next);
    if (a == "--exit-at-start") return 3;
    if (a == "--garbage-at-start") {
      (void)::write(fd, "\xff\xff\xff\xff", 4);
      return 0;
    }
    if (a == "--crash-on") crash_on.push_back(next);
    if (a == "--fault-on") fault_on.push_back(next);
    if (a == "--crash-on" || a == "--fault-on" || a == "--device") ++i;
  }
  FakeGpu gpu(fd, crash_on, fault_on);
  return occx::serveGpuWorker(gpu, fd, 0.01);
}
