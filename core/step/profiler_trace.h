// A torch.profiler trace as the user recorded it: Kineto's Chrome-trace JSON (what
// `prof.export_chrome_trace(path)` and `tensorboard_trace_handler(dir)` write, `*.pt.trace.json`,
// plain or gzipped), read streaming so a trace of hundreds of MB needs a small part of its size in
// memory. Kept: the GPU's kernel, memcpy and memset events (name, device time, grid, block,
// stream), the CPU launch that each came from (its correlation id), and the steps
// (`ProfilerStep#N` annotations).
//
// Source: the trace format PyTorch 2.11's profiler (Kineto) writes, recorded on an H200 with the
// runs of tests/data/inductor (scripts/record-inductor-fixtures.py): events in "traceEvents", each
// {"ph", "cat", "name", "ts", "dur", "args": {"correlation", "stream", "grid", "block", …}}; times
// in µs; GPU activities in cat "kernel", "gpu_memcpy", "gpu_memset"; launches in "cuda_runtime" and
// "cuda_driver"; steps as cat "user_annotation" (CPU) and "gpu_user_annotation" (GPU).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/base/expected.h"

namespace occx::step {

/// What a GPU activity of the trace is.
enum class GpuActivityKind { kKernel, kMemcpy, kMemset };

/// One GPU activity: a kernel, a memcpy or a memset, as the profiler saw it run.
struct GpuActivity {
  GpuActivityKind kind = GpuActivityKind::kKernel;
  std::string name;                     ///< the kernel's (demangled) name, or "Memcpy HtoD (…)"
  double start_us = 0.0;                ///< trace clock, µs
  double duration_us = 0.0;             ///< device time, µs (the event's "dur")
  std::array<std::int64_t, 3> grid{};   ///< blocks; {0,0,0} when the event has none
  std::array<std::int64_t, 3> block{};  ///< threads per block; {0,0,0} when the event has none
  std::int64_t stream = -1;
  int device = -1;
  std::int64_t correlation = -1;   ///< the CPU launch's correlation id; -1 when absent
  int registers_per_thread = -1;   ///< args "registers per thread" (CUPTI); -1 when absent
  std::int64_t shared_bytes = -1;  ///< args "shared memory": static + dynamic per block, bytes; -1 when absent
  int step = -1;                   ///< index into ProfilerTrace::steps; -1 outside every step
};

/// One step of the trace: a `ProfilerStep#N` annotation (CPU time range), or the whole trace when
/// it has none.
struct TraceStep {
  std::string name;  ///< "ProfilerStep#2"; "whole trace" when the trace has no step annotations
  int number = -1;   ///< N of ProfilerStep#N; -1 for the whole trace
  double begin_us = 0.0;
  double end_us = 0.0;
};

/// A read trace.
struct ProfilerTrace {
  std::string path;
  std::vector<GpuActivity> activities;  ///< in file order
  std::vector<TraceStep> steps;         ///< sorted by begin time
  /// True when `steps` come from ProfilerStep annotations; false when the trace had none and the
  /// user's step count divides the whole trace.
  bool annotated_steps = false;
  /// True when the steps are the GPU-side annotations (the trace had no CPU ProfilerStep ranges):
  /// their spans are GPU time, not CPU time.
  bool steps_on_gpu = false;
  int step_count = 1;       ///< steps the per-step figures divide by (≥ 1)
  int outside_steps = 0;    ///< activities launched outside every annotated step (not counted)
  std::string device_name;  ///< deviceProperties[0].name; empty when absent
  int compute_major = 0;    ///< deviceProperties[0].computeMajor; 0 when absent
  int compute_minor = 0;
  std::int64_t events = 0;       ///< trace events read (all kinds)
  std::uint64_t bytes_read = 0;  ///< bytes of the file read (compressed bytes for a gzipped file)
  std::uint64_t json_bytes = 0;  ///< bytes of JSON text parsed
  bool gzipped = false;
  /// What could not be read, each naming the file and the byte offset; what precedes is kept.
  std::vector<std::string> problems;
};

/// Progress of a read: bytes of the file read of its size.
struct TraceReadProgress {
  std::uint64_t bytes_read = 0;
  std::uint64_t file_bytes = 0;
};

/// How to read a trace.
struct TraceReadOptions {
  /// Steps in the trace when it has no ProfilerStep annotations (1 … 1,000,000): the per-step
  /// figures divide the whole trace by it.
  int steps_when_unannotated = 1;
  /// Called every few MB of the file; may be empty.
  std::function<void(const TraceReadProgress&)> progress;
  const std::atomic<bool>* cancel = nullptr;
};

/// Reads a trace file: Chrome-trace JSON, plain or gzipped (zlib's gzread; detected from the
/// content, not the name), streamed through nlohmann's SAX parser. Errors: the file cannot be
/// opened (the path and the system's reason), steps_when_unannotated out of 1 … 1,000,000, the file
/// holds no trace events at all ("… is not a Chrome trace: …"), Error::cancellation() when `cancel`
/// became true. A trace that becomes invalid JSON or ends early keeps the events before that point
/// and gets a problem naming the file and the byte offset of the JSON text. Never throws.
Expected<ProfilerTrace> readProfilerTrace(const std::string& path, const TraceReadOptions& options = {});

/// The same, from JSON text in memory (tests, fuzzing); `path` names it in messages.
Expected<ProfilerTrace> parseProfilerTrace(std::string_view json_text, const std::string& path,
                                           const TraceReadOptions& options = {});

/// "kernel", "memcpy", "memset". Never fails.
std::string_view gpuActivityKindName(GpuActivityKind kind);

}  // namespace occx::step
