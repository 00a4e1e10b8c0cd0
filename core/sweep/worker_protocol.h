// The GPU worker's protocol: how a WorkerRunner (core/sweep/worker_runner.h) and the worker process
// that owns the CUDA context (`occx-gpu-worker`, app/gpu_worker) talk. Each message is one frame on
// a stream socket: a 4-byte little-endian length, then that many bytes of CBOR (RFC 8949, through
// nlohmann-json) holding a JSON object. Cubins travel as CBOR byte strings.
//
//   worker → client, once at start:  {"op":"ready", "protocol":1, "device":{…}, "driver":"580.159.04",
//                                     "startup_s":0.41}   or {"op":"ready", "error":"…"}
//   client → worker:                 {"op":"copy_bandwidth", "refresh":false}
//                                    {"op":"set_problem", "spec":{…}}  ("spec":null frees it)
//                                    {"op":"set_buffer_problem", "spec":{"label":…, "buffers":[{"name":…,
//                                     "type":"fp16", "elements":…, "role":"in-out"}, …], "seed":…,
//                                     "bytes_moved":…}}  (replaces a problem of either kind)
//                                    {"op":"run", "seq":7, "module":{…}, "options":{…}}
//                                    {"op":"quit"}
//   worker → client, one per request: {"ok":true, …, "context_lost":""} or {"ok":false, "error":"…",
//                                    "context_lost":""}; a run answers {"ok":true, "outcome":{…}, …}
//
// Cancelling a run: the client sends SIGUSR1 (sigqueue, the run's "seq" as the value) to the worker;
// the worker's run reads the flag between phases (the same points an in-process run reads it).
//
// Plain C++ and nlohmann-json: no CUDA, no Qt.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/base/expected.h"
#include "core/gpu/detected_gpu.h"
#include "core/gpu/gpu_module.h"
#include "core/kernels/live_problem.h"
#include "core/sweep/buffer_problem.h"
#include "core/sweep/gpu_runner.h"

namespace occx {

/// The protocol version both sides must speak.
inline constexpr int kWorkerProtocolVersion = 1;
/// The largest frame either side accepts (bytes of CBOR); a longer length is read as garbage.
inline constexpr std::uint32_t kMaxWorkerFrameBytes = std::uint32_t{64} << 20;

// JSON forms of the values that cross the process boundary, as nlohmann-json's to_json/from_json
// pairs (found by argument-dependent lookup). from_json throws nlohmann::json::exception on a
// missing key or a wrong type; the frame reader turns that into an error value.
void to_json(nlohmann::json& j, const ComputeCapability& v);
void from_json(const nlohmann::json& j, ComputeCapability& v);
void to_json(nlohmann::json& j, const DeviceInfo& v);
void from_json(const nlohmann::json& j, DeviceInfo& v);
void to_json(nlohmann::json& j, const CopyBandwidth& v);
void from_json(const nlohmann::json& j, CopyBandwidth& v);
void to_json(nlohmann::json& j, const ProblemSpec& v);
void from_json(const nlohmann::json& j, ProblemSpec& v);
/// A buffer as {"name", "type" (elementTypeName), "elements", "role" (bufferRoleName)}; reading
/// needs type, elements and role (no default is guessed) and refuses unknown names.
void to_json(nlohmann::json& j, const BufferSpec& v);
void from_json(const nlohmann::json& j, BufferSpec& v);
/// {"label", "buffers", "seed", "bytes_moved"}; reading needs "buffers". Sizes are checked where the
/// problem is built (checkBufferProblemSpec), not here.
void to_json(nlohmann::json& j, const BufferProblemSpec& v);
void from_json(const nlohmann::json& j, BufferProblemSpec& v);
void to_json(nlohmann::json& j, const LaunchArgument& v);
void from_json(const nlohmann::json& j, LaunchArgument& v);
void to_json(nlohmann::json& j, const GpuModule& v);
void from_json(const nlohmann::json& j, GpuModule& v);
void to_json(nlohmann::json& j, const RunOptions& v);
void from_json(const nlohmann::json& j, RunOptions& v);
void to_json(nlohmann::json& j, const TimingStats& v);
void from_json(const nlohmann::json& j, TimingStats& v);
void to_json(nlohmann::json& j, const Metric& v);
void from_json(const nlohmann::json& j, Metric& v);
void to_json(nlohmann::json& j, const RunOutcome& v);
void from_json(const nlohmann::json& j, RunOutcome& v);

/// How reading a frame ended when it did not deliver one.
enum class FrameFailure {
  kNone,
  kClosed,    ///< the other end closed the stream (the worker exited)
  kTimedOut,  ///< no complete frame within the deadline
  kGarbage,   ///< a length over kMaxWorkerFrameBytes, bytes that are not CBOR, or not an object
  kIoError,   ///< read/write failed (errno text in the message)
};

/// A frame read from the stream, or why none was.
// nlohmann::json's constructors are not declared noexcept, so the implicit ones here are not either.
struct FrameRead {         // NOLINT(bugprone-exception-escape)
  nlohmann::json message;  ///< the object, when failure == kNone
  FrameFailure failure = FrameFailure::kNone;
  std::string error;  ///< in words when failure != kNone
};

/// Encodes one frame: the 4-byte little-endian length, then the CBOR of `message`. Error: the
/// message cannot be encoded, or is longer than kMaxWorkerFrameBytes (named with its size).
Expected<std::vector<std::uint8_t>> encodeFrame(const nlohmann::json& message);

/// Writes `bytes` to `fd`, retrying short writes and EINTR; never raises SIGPIPE (send with
/// MSG_NOSIGNAL on sockets, write otherwise). Error: the errno text.
std::optional<Error> writeBytes(int fd, const std::vector<std::uint8_t>& bytes);

/// encodeFrame, then writeBytes.
std::optional<Error> writeFrame(int fd, const nlohmann::json& message);

/// Called between the slices of a wait with the current deadline, which it may move (the client
/// passes a cancel on to the worker and shortens the wait).
using FrameWaitFn = std::function<void(std::chrono::steady_clock::time_point& deadline)>;

/// Reads one frame from `fd`, waiting until `deadline` (poll in slices of at most 50 ms, calling
/// `on_wait` between them when given). Never throws.
FrameRead readFrame(int fd, std::chrono::steady_clock::time_point deadline, const FrameWaitFn& on_wait = {});

/// The worker's side: installs the SIGUSR1 cancel handler, sends the ready message (the runner's
/// device and driver text, and `startup_seconds`, the time the process took to open the GPU), then
/// answers requests read from `fd` until "quit" or the client closes the stream. A run request
/// carries a sequence number; a SIGUSR1 sent with sigqueue and that number as its value cancels that
/// run only (a late signal never cancels the next one, an early one is not lost). A thread watches
/// the socket: when the client goes away the process exits even in the middle of a run. Every
/// answer carries "context_lost" (empty while the GPU is usable). Returns the process exit code: 0
/// after quit or close, 1 when the stream broke or went out of step (a frame it cannot read).
int serveGpuWorker(GpuRunner& runner, int fd, double startup_seconds);

/// The worker's side when the GPU could not be opened: sends {"op":"ready","error":…}. Returns 1.
int refuseGpuWorker(int fd, const std::string& error);

}  // namespace occx
