// occx-gpu-worker: the process that owns the CUDA context for the CLI and the GUI. Started by a
// WorkerRunner (core/sweep/worker_runner.h) with a socket on stdin and stdout; answers the protocol
// of core/sweep/worker_protocol.h with a GpuSession on one device. Not meant to be run by hand:
//   occx-gpu-worker [--device N]
// A kernel that faults ends this process's use of the GPU, never the program that started it.
#include <fcntl.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <string>

#include "core/cuda/gpu_session.h"
#include "core/sweep/worker_protocol.h"

int main(int argc, char** argv) {
  const auto t0 = std::chrono::steady_clock::now();
  // The protocol's socket is stdin/stdout: keep it on its own descriptor and point stdout at stderr,
  // so that nothing a library prints can corrupt a frame.
  const int fd = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 3);
  if (fd < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) return 1;
  const int null = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  if (null >= 0) {
    ::dup2(null, STDIN_FILENO);
    ::close(null);
  }
  int ordinal = 0;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--device" && i + 1 < argc) {
      char* end = nullptr;
      const long v = std::strtol(argv[++i], &end, 10);
      if (end == argv[i] || *end != '\0' || v < 0 || v > 1024) {
        return occx::refuseGpuWorker(fd, "--device " + std::string(argv[i]) + " is out of range: allowed 0 … 1024");
      }
      ordinal = static_cast<int>(v);
    } else {
      return occx::refuseGpuWorker(fd, "unknown argument '" + a + "': occx-gpu-worker takes --device N");
    }
  }
  auto session = occx::cuda::GpuSession::open(ordinal);
  if (!session) return occx::refuseGpuWorker(fd, session.error());
  const double startup = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  // Ends when the program that started it quits or goes away (serveGpuWorker watches the socket).
  return occx::serveGpuWorker(**session, fd, startup);
}
