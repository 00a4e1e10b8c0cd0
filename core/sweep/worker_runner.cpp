#include "core/sweep/worker_runner.h"

#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "core/base/child_process.h"
#include "core/base/format.h"
#include "core/base/json_value.h"
#include "core/sweep/worker_protocol.h"

namespace occx {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

Clock::time_point after(double seconds) {
  return Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
}

std::string seconds(double s) {
  return fixed(s, s < 10 ? 1 : 0) + " s";
}

}  // namespace

Expected<std::string> gpuWorkerProgram() {
  namespace fs = std::filesystem;
  if (const char* env = std::getenv("OCCX_GPU_WORKER"); env != nullptr && env[0] != '\0') {
    std::error_code ec;
    if (!fs::is_regular_file(env, ec))
      return Error{std::string("OCCX_GPU_WORKER names ") + env + ", which is not a file"};
    return std::string(env);
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return Error{"cannot find the running program (/proc/self/exe: " + ec.message() + ")"};
  const fs::path dir = self.parent_path();
  const fs::path beside = dir / "occx-gpu-worker";
  const fs::path installed = dir.parent_path() / "libexec" / "occupancy-explorer" / "occx-gpu-worker";
  for (const auto& p : {beside, installed}) {
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return Error{"the GPU worker (occx-gpu-worker) was not found: looked for " + beside.string() + " and " +
               installed.string() + "; set OCCX_GPU_WORKER to its path"};
}

struct WorkerRunner::Impl {
  WorkerOptions options;
  pid_t pid = 0;
  int fd = -1;
  DeviceInfo device;
  std::string driver_text;
  double startup_s = 0.0;
  int starts = 0;
  long long seq = 0;  ///< the last run's sequence number (the cancel signal's value)
  std::string lost;   ///< why no worker can run any more
  /// The request that uploaded the current problem (set_problem or set_buffer_problem), sent again
  /// after a restart; null when none.
  /// (Kept as CBOR bytes: a vector's destructor cannot throw, which the analysis can see.)
  std::vector<std::uint8_t> problem_request;
  bool buffer_problem = false;  ///< problem_request is a buffer problem
  /// Buffer problems: the config whose outputs are the worker's reference (empty: none yet), and the
  /// one whose outputs were the reference of a worker that has since been restarted (the new worker
  /// starts without a reference; the run that becomes its reference says so).
  std::string reference_label;
  std::string lost_reference;

  /// Reaps the worker, waiting up to `wait_s` for it to exit before SIGKILL. Returns how it ended.
  std::string reap(double wait_s) {
    if (fd >= 0) ::close(fd);
    fd = -1;
    if (pid <= 0) return "had ended";
    int status = 0;
    const auto deadline = after(wait_s);
    pid_t r = 0;
    while ((r = ::waitpid(pid, &status, WNOHANG)) == 0 && Clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (r == 0) {
      ::kill(pid, SIGKILL);
      while ((r = ::waitpid(pid, &status, 0)) < 0 && errno == EINTR) {
      }
    }
    pid = 0;
    if (r < 0) return "ended (its exit status was collected elsewhere)";
    return exitStatusText(status);
  }

  void stop() {
    if (pid > 0) ::kill(pid, SIGKILL);
    reap(5.0);
  }

  /// True when the worker process has ended (it is then reaped).
  bool ended() {
    if (pid <= 0) return true;
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == 0) return false;
    pid = 0;
    if (fd >= 0) ::close(fd);
    fd = -1;
    return true;
  }

  /// Starts a worker and reads its ready message.
  std::optional<Error> spawn() {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) {
      return Error{std::string("socketpair failed: ") + std::strerror(errno)};
    }
    SpawnSpec spec;
    spec.program = options.program;
    spec.arguments = options.arguments;
    spec.descriptors = {{sv[1], 0}, {sv[1], 1}};  // the worker reads requests on stdin and writes answers on stdout
    spec.what = "the GPU worker " + options.program;
    const auto t0 = Clock::now();
    auto started = spawnProcess(spec);
    ::close(sv[1]);
    if (!started) {
      ::close(sv[0]);
      return Error{started.error()};
    }
    const pid_t child = *started;
    pid = child;
    fd = sv[0];
    ++starts;
    FrameRead ready = readFrame(fd, after(options.start_timeout_s));
    if (ready.failure != FrameFailure::kNone) {
      const bool timed_out = ready.failure == FrameFailure::kTimedOut;
      if (timed_out) ::kill(pid, SIGKILL);
      const std::string how = reap(1.0);
      if (timed_out) return Error{"the GPU worker did not start within " + seconds(options.start_timeout_s)};
      if (ready.failure == FrameFailure::kGarbage) return Error{"the GPU worker sent garbage at start: " + ready.error};
      return Error{"the GPU worker " + how + " before it was ready"};
    }
    const json& m = ready.message;
    try {
      if (m.value("op", std::string()) != "ready") throw json::other_error::create(501, "not a ready message", &m);
      if (auto it = m.find("error"); it != m.end()) {
        const std::string why = it->get<std::string>();
        stop();
        return Error{why};
      }
      const int protocol = integerValue(m, "protocol", 0).value_or(0);
      if (protocol != kWorkerProtocolVersion) {
        stop();
        return Error{"the GPU worker " + options.program + " speaks protocol " + std::to_string(protocol) +
                     ", this program " + std::to_string(kWorkerProtocolVersion) + ": install matching versions"};
      }
      DeviceInfo d = m.at("device").get<DeviceInfo>();
      if (starts == 1) {
        device = std::move(d);
        driver_text = m.value("driver", std::string());
        startup_s = std::chrono::duration<double>(Clock::now() - t0).count();
      }
    } catch (const json::exception& e) {
      stop();
      return Error{std::string("the GPU worker's ready message could not be read: ") + e.what()};
    }
    return std::nullopt;
  }

  /// Ends the worker (it failed) and starts another with the problem uploaded again; on failure the
  /// runner is lost. Returns the words a reason ends with: "; the GPU worker was restarted" or the
  /// failure.
  std::string restart() {
    stop();
    if (auto e = spawn()) {
      lost = "the GPU worker could not be restarted: " + e->message;
      return "; " + lost;
    }
    if (!problem_request.empty()) {
      if (buffer_problem && !reference_label.empty()) {
        lost_reference = reference_label;
        reference_label.clear();
      }
      const auto reply = send(json::from_cbor(problem_request), options.request_timeout_s, nullptr);
      if (!reply || !reply->value("ok", false)) {
        const std::string why = reply ? reply->value("error", std::string("no reason")) : reply.error();
        lost = "the GPU worker was restarted but could not take the problem again: " + why;
        stop();
        return "; " + lost;
      }
    }
    return "; the GPU worker was restarted";
  }

  /// Sends one request and reads its answer, without retrying. A transport failure (the worker
  /// died, hung or sent garbage) is an error saying so; the worker is then stopped.
  Expected<json> send(const json& request, double timeout_s, const std::atomic<bool>* cancel,
                      bool* cancel_sent = nullptr, bool* delivered = nullptr) {
    auto frame = encodeFrame(request);
    if (!frame) return Error{frame.error()};  // our own value: the worker is fine
    if (fd < 0) return Error{lost.empty() ? "no GPU worker is running" : lost};
    if (auto e = writeBytes(fd, *frame)) {
      return Error{"the GPU worker had ended (it " + reap(1.0) + ") before the request was sent (" + e->message + ")"};
    }
    if (delivered != nullptr) *delivered = true;
    bool sent = false;
    const long long my_seq = request.value("seq", -1LL);
    auto on_wait = [&](Clock::time_point& deadline) {
      if (cancel == nullptr || sent || !cancel->load()) return;
      union sigval value {};
      value.sival_int = static_cast<int>(my_seq);
      ::sigqueue(pid, SIGUSR1, value);
      sent = true;
      deadline = std::min(deadline, after(options.cancel_grace_s));
    };
    FrameRead in = readFrame(fd, after(timeout_s), on_wait);
    if (cancel_sent != nullptr) *cancel_sent = sent;
    switch (in.failure) {
      case FrameFailure::kNone:
        return in.message;
      case FrameFailure::kTimedOut:
        stop();
        return Error{sent ? "the GPU worker did not stop within " + seconds(options.cancel_grace_s) + " of the cancel"
                          : "no answer from the GPU worker within " + seconds(timeout_s)};
      case FrameFailure::kGarbage:
        stop();
        return Error{"the GPU worker's answer could not be read (" + in.error + ")"};
      case FrameFailure::kClosed:
      case FrameFailure::kIoError:
        return Error{"the GPU worker " + reap(2.0)};
    }
    return Error{"unreachable"};
  }

  /// One request: a worker that had already ended (between requests, nothing to do with this one)
  /// is restarted quietly and the request sent to the new one. Errors as send(); after a failure of
  /// a delivered request the worker has been restarted (or the runner is lost) and `suffix` says so.
  Expected<json> exchange(const json& request, double timeout_s, const std::atomic<bool>* cancel, std::string& suffix,
                          bool* cancel_sent = nullptr) {
    suffix.clear();
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!lost.empty()) return Error{lost};
      if (ended()) {
        if (const std::string r = restart(); !lost.empty()) return Error{"the GPU worker had ended" + r};
      }
      bool delivered = false;
      auto reply = send(request, timeout_s, cancel, cancel_sent, &delivered);
      if (reply) {
        // The driver made an error fatal to the worker's context: a fresh worker for what follows.
        if (!reply->value("context_lost", std::string()).empty()) suffix = restart();
        return reply;
      }
      if (!delivered && fd < 0 && lost.empty() && attempt == 0) continue;  // it had died before: once more
      if (fd < 0 || pid <= 0) suffix = restart();
      return reply;
    }
    return Error{"the GPU worker could not be reached"};
  }

  /// Sends a set_problem or set_buffer_problem request and, when the worker took it, remembers it.
  std::optional<Error> upload(const json& request, bool buffers) {
    problem_request.clear();
    buffer_problem = false;
    reference_label.clear();
    lost_reference.clear();
    std::string suffix;
    auto reply = exchange(request, options.request_timeout_s, nullptr, suffix);
    if (!reply) return Error{reply.error() + suffix};
    if (!reply->value("ok", false))
      return Error{reply->value("error", std::string("the GPU worker gave no reason")) + suffix};
    problem_request = json::to_cbor(request);
    buffer_problem = buffers;
    if (!suffix.empty()) {
      // The context was lost while uploading: the restart above had no problem to send again.
      suffix = restart();
      if (!lost.empty()) return Error{lost};
    }
    return std::nullopt;
  }
};

WorkerRunner::WorkerRunner(WorkerOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
}

Expected<std::unique_ptr<WorkerRunner>> WorkerRunner::start(const WorkerOptions& options) {
  std::unique_ptr<WorkerRunner> r(new WorkerRunner(options));
  if (auto e = r->impl_->spawn()) return *e;
  return r;
}

WorkerRunner::~WorkerRunner() {
  Impl& im = *impl_;
  if (im.fd >= 0) (void)writeFrame(im.fd, {{"op", "quit"}});
  im.reap(2.0);
}

const DeviceInfo& WorkerRunner::device() const {
  return impl_->device;
}
std::string WorkerRunner::driverVersionText() const {
  return impl_->driver_text;
}
std::string WorkerRunner::contextLost() const {
  return impl_->lost;
}
int WorkerRunner::restarts() const {
  return std::max(impl_->starts - 1, 0);
}
double WorkerRunner::startupSeconds() const {
  return impl_->startup_s;
}
pid_t WorkerRunner::workerPid() const {
  return impl_->pid;
}

Expected<CopyBandwidth> WorkerRunner::copyBandwidth(bool refresh) {
  Impl& im = *impl_;
  std::string suffix;
  auto reply =
      im.exchange({{"op", "copy_bandwidth"}, {"refresh", refresh}}, im.options.request_timeout_s, nullptr, suffix);
  if (!reply) return Error{reply.error() + suffix};
  if (!reply->value("ok", false))
    return Error{reply->value("error", std::string("the GPU worker gave no reason")) + suffix};
  try {
    return reply->at("copy").get<CopyBandwidth>();
  } catch (const json::exception& e) {
    return Error{std::string("the GPU worker's copy bandwidth could not be read: ") + e.what()};
  }
}

std::optional<Error> WorkerRunner::setProblem(const ProblemSpec& spec) {
  return impl_->upload({{"op", "set_problem"}, {"spec", spec}}, false);
}

std::optional<Error> WorkerRunner::setBufferProblem(const BufferProblemSpec& spec) {
  return impl_->upload({{"op", "set_buffer_problem"}, {"spec", spec}}, true);
}

std::optional<Error> WorkerRunner::clearProblem() {
  Impl& im = *impl_;
  im.problem_request.clear();
  im.buffer_problem = false;
  im.reference_label.clear();
  im.lost_reference.clear();
  if (!im.lost.empty() || im.ended()) return std::nullopt;  // nothing is held on the GPU
  std::string suffix;
  auto reply = im.exchange({{"op", "set_problem"}, {"spec", nullptr}}, im.options.request_timeout_s, nullptr, suffix);
  if (!reply) return std::nullopt;  // the worker ended: it holds nothing
  if (!reply->value("ok", false)) return Error{reply->value("error", std::string("the GPU worker gave no reason"))};
  return std::nullopt;
}

RunOutcome WorkerRunner::run(const GpuModule& module, const RunOptions& options, const std::atomic<bool>* cancel) {
  Impl& im = *impl_;
  RunOutcome out;
  out.grid_blocks = module.gridBlocks();
  if (!im.lost.empty()) {
    out.status = RunStatus::kLaunchFailed;
    out.reason = im.lost;
    return out;
  }
  if (cancel != nullptr && cancel->load()) {
    out.status = RunStatus::kCancelled;
    out.reason = "cancelled before it ran";
    return out;
  }
  bool cancel_sent = false;
  std::string suffix;
  const long long seq = ++im.seq;
  auto reply = im.exchange({{"op", "run"}, {"seq", seq}, {"module", module}, {"options", options}},
                           im.options.run_timeout_s, cancel, suffix, &cancel_sent);
  if (!reply) {
    out.status = cancel_sent ? RunStatus::kCancelled : RunStatus::kLaunchFailed;
    out.reason = reply.error() + " while running " + (module.label.empty() ? module.entry : module.label) + suffix;
    out.context_reset = true;
    return out;
  }
  if (!reply->value("ok", false)) {
    out.status = RunStatus::kLaunchFailed;
    out.reason = reply->value("error", std::string("the GPU worker gave no reason")) + suffix;
    return out;
  }
  try {
    reply->at("outcome").get_to(out);
  } catch (const json::exception& e) {
    out.status = RunStatus::kLaunchFailed;
    out.reason = std::string("the GPU worker's outcome could not be read: ") + e.what();
    return out;
  }
  if (im.buffer_problem && out.checked && out.check.ok && out.check.compared_with == kComparedWithNothing) {
    const std::string label = module.label.empty() ? module.entry : module.label;
    if (!im.lost_reference.empty()) {
      if (!out.reason.empty()) out.reason += "; ";
      out.reason += "these outputs are the reference of a restarted GPU worker (the outputs of " + im.lost_reference +
                    " were the reference before the restart)";
      im.lost_reference.clear();
    }
    if (suffix.empty()) {
      im.reference_label = label;
    } else {
      im.lost_reference = label;  // the worker restarted after this run: its reference went with it
    }
  }
  if (!suffix.empty()) {
    out.context_reset = true;
    out.reason +=
        suffix == "; the GPU worker was restarted" ? "; the GPU worker was restarted with a fresh context" : suffix;
  }
  return out;
}

}  // namespace occx
