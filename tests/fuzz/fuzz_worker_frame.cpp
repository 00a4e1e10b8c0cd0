// Fuzz target: what a WorkerRunner reads from the GPU worker process (core/sweep/worker_protocol.h):
// length-prefixed CBOR frames and the values in them. A worker that crashed half-way through a
// write, or a library that printed into the stream, sends anything. The input is the byte stream:
// it is written into one end of a socket pair and read back frame by frame, and each frame's object
// is decoded as every value a reply can carry.
// Properties beyond "no crash, no undefined behaviour, no out-of-bounds read":
//   * a frame read is a JSON object; a failure has a message and ends the stream's reading;
//   * decoding a value either succeeds or throws nlohmann::json::exception, nothing else;
//   * a decoded value encodes and decodes again to the same JSON (its fields survive a round trip).
// Seeds: frames of the ready message, a copy-bandwidth, a problem, a buffer problem, a run request and run answers
// (written with the protocol's own encoder), one cut short, and an over-long length.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "core/sweep/worker_protocol.h"

namespace {

void require(bool ok, const char* what) {
  if (!ok) {
    std::fprintf(stderr, "fuzz_worker_frame: property violated: %s\n", what);
    std::abort();
  }
}

template <class T>
void decode(const nlohmann::json& j) {
  T value{};
  try {
    j.get_to(value);
  } catch (const nlohmann::json::exception&) {
    return;
  }
  const nlohmann::json once = value;
  T again{};
  once.get_to(again);  // a value the protocol wrote must read back
  // Compared as CBOR bytes: NaN equals itself there.
  require(nlohmann::json::to_cbor(nlohmann::json(again)) == nlohmann::json::to_cbor(once),
          "a decoded value does not survive a round trip");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM, 0, sv) != 0) return 0;
  const std::vector<std::uint8_t> bytes(data, data + size);
  if (!bytes.empty() && occx::writeBytes(sv[0], bytes)) {
    ::close(sv[0]);
    ::close(sv[1]);
    return 0;
  }
  ::shutdown(sv[0], SHUT_WR);
  for (int frames = 0; frames < 64; ++frames) {
    const occx::FrameRead in = occx::readFrame(sv[1], std::chrono::steady_clock::now() + std::chrono::seconds(2));
    if (in.failure != occx::FrameFailure::kNone) {
      require(!in.error.empty(), "a failed read without a message");
      require(in.failure != occx::FrameFailure::kTimedOut, "a closed stream timed out");
      break;
    }
    require(in.message.is_object(), "a frame that is not an object");
    const nlohmann::json& m = in.message;
    decode<occx::DeviceInfo>(m.contains("device") ? m["device"] : m);
    decode<occx::CopyBandwidth>(m.contains("copy") ? m["copy"] : m);
    decode<occx::RunOutcome>(m.contains("outcome") ? m["outcome"] : m);
    decode<occx::GpuModule>(m.contains("module") ? m["module"] : m);
    decode<occx::RunOptions>(m.contains("options") ? m["options"] : m);
    decode<occx::ProblemSpec>(m.contains("spec") ? m["spec"] : m);
    decode<occx::BufferProblemSpec>(m.contains("spec") ? m["spec"] : m);
  }
  ::close(sv[0]);
  ::close(sv[1]);
  return 0;
}
