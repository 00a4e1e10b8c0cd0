#include "core/base/child_process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <set>
#include <thread>

extern char** environ;

namespace occx {

std::string exitStatusText(int status) {
  if (WIFEXITED(status)) return "exited with code " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const char* name = strsignal(sig);
    return "was killed by signal " + std::to_string(sig) + (name != nullptr ? " (" + std::string(name) + ")" : "");
  }
  return "ended (status " + std::to_string(status) + ")";
}

std::optional<std::string> findExecutable(const std::string& name) {
  auto executable = [](const std::string& p) {
    struct stat st {};
    return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
  };
  if (name.empty()) return std::nullopt;
  if (name.find('/') != std::string::npos) {
    if (!executable(name)) return std::nullopt;
    return name;
  }
  const char* path = std::getenv("PATH");
  const std::string dirs = path != nullptr ? path : "/usr/local/bin:/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= dirs.size()) {
    const std::size_t end = dirs.find(':', start);
    std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (dir.empty()) dir = ".";
    const std::string candidate = dir + "/" + name;
    if (executable(candidate)) return candidate;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return std::nullopt;
}

Expected<pid_t> spawnProcess(const SpawnSpec& spec) {
  std::string program = spec.program;
  const std::string what = spec.what.empty() ? spec.program : spec.what;
  if (spec.search_path) {
    auto found = findExecutable(spec.program);
    if (!found) return Error{"cannot start " + what + ": not found in PATH"};
    program = *found;
  }
  // The environment: ours, with the spec's variables set and removed.
  std::set<std::string> replaced(spec.unset_environment.begin(), spec.unset_environment.end());
  for (const auto& [k, v] : spec.environment) replaced.insert(k);
  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    const std::string entry = *e;
    if (replaced.count(entry.substr(0, entry.find('='))) == 0) env.push_back(entry);
  }
  for (const auto& [k, v] : spec.environment) env.push_back(k + "=" + v);
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  for (const auto& [from, to] : spec.descriptors) posix_spawn_file_actions_adddup2(&actions, from, to);
  int highest = 2;
  for (const auto& d : spec.descriptors) highest = std::max(highest, d.second);
  posix_spawn_file_actions_addclosefrom_np(&actions, highest + 1);  // nothing else of ours leaks into it
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own process group: Ctrl+C in a terminal reaches us (we cancel), not the child. No blocked
  // or ignored signals inherited from the spawning thread.
  sigset_t none;
  sigemptyset(&none);
  sigset_t defaults;
  sigemptyset(&defaults);
  for (int sig : {SIGUSR1, SIGPIPE, SIGINT, SIGTERM, SIGCHLD}) sigaddset(&defaults, sig);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  posix_spawnattr_setpgroup(&attr, 0);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  std::vector<std::string> args = {program};
  args.insert(args.end(), spec.arguments.begin(), spec.arguments.end());
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t child = 0;
  const int rc = ::posix_spawn(&child, program.c_str(), &actions, &attr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  if (rc != 0) return Error{"cannot start " + what + ": " + std::strerror(rc)};
  return child;
}

namespace {

using ProcessClock = std::chrono::steady_clock;

// The pipes a child writes its standard output and error into: [0] is our end, [1] the child's.
struct OutputPipes {
  std::array<int, 2> out{-1, -1};
  std::array<int, 2> err{-1, -1};
};

// Starts `spec` with stdin on /dev/null and stdout and stderr into new pipes, whose child ends are
// closed here. On an error no descriptor is left open.
Expected<pid_t> spawnIntoPipes(const SpawnSpec& spec, OutputPipes& pipes) {
  auto& out = pipes.out;
  auto& err = pipes.err;
  if (::pipe2(out.data(), O_CLOEXEC) != 0) return Error{std::string("pipe failed: ") + std::strerror(errno)};
  if (::pipe2(err.data(), O_CLOEXEC) != 0) {
    ::close(out[0]);
    ::close(out[1]);
    return Error{std::string("pipe failed: ") + std::strerror(errno)};
  }
  const int devnull = ::open("/dev/null", O_RDONLY | O_CLOEXEC);
  SpawnSpec s = spec;
  s.descriptors = {{devnull, 0}, {out[1], 1}, {err[1], 2}};
  auto pid = spawnProcess(s);
  if (devnull >= 0) ::close(devnull);
  ::close(out[1]);
  ::close(err[1]);
  if (!pid) {
    ::close(out[0]);
    ::close(err[0]);
    return Error{pid.error()};
  }
  return *pid;
}

// A started child watched to its end: the lines of its stdout go to on_line, the tail of its
// stderr is kept, and it is killed when cancelled, late or when on_line throws.
class ChildWatch {
 public:
  ChildWatch(const SpawnSpec& spec, const std::function<void(std::string_view)>& on_line, pid_t pid,
             const OutputPipes& pipes)
      : spec_(spec), on_line_(on_line), pid_(pid), pipes_(pipes) {}

  // Until the child is reaped and its pipes are drained (at most 0.5 s after it ended: a
  // grandchild that keeps them open does not hold us).
  bool watching() const {
    return !reaped_ || ((out_open_ || err_open_) && ProcessClock::now() - ended_at_ < std::chrono::milliseconds(500));
  }

  // Kills the child when `cancel` became true or the deadline (with a timeout) has passed.
  void killWhenCancelledOrLate(double timeout_s, ProcessClock::time_point deadline, const std::atomic<bool>* cancel) {
    if (!killed_ && !reaped_ && cancel != nullptr && cancel->load()) {
      outcome_.cancelled = true;
      kill();
    }
    if (!killed_ && !reaped_ && timeout_s > 0.0 && ProcessClock::now() > deadline) {
      outcome_.timed_out = true;
      kill();
    }
  }

  // Reaps the child if it has ended (or can no longer be waited for).
  void reapIfEnded() {
    if (reaped_) return;
    const pid_t r = ::waitpid(pid_, &status_, WNOHANG);
    if (r == pid_ || (r < 0 && errno != EINTR)) {
      reaped_ = true;
      ended_at_ = ProcessClock::now();
    }
  }

  // Waits a little for output on the open pipes and reads what came; sleeps when both are closed.
  void readOutput() {
    if (!out_open_ && !err_open_) {
      if (!reaped_) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      return;
    }
    std::array<pollfd, 2> fds{pollfd{out_open_ ? pipes_.out[0] : -1, POLLIN, 0},
                              pollfd{err_open_ ? pipes_.err[0] : -1, POLLIN, 0}};
    const int n = ::poll(fds.data(), fds.size(), reaped_ ? 20 : 100);
    if (n < 0 && errno != EINTR) {
      kill();
      out_open_ = err_open_ = false;
      return;
    }
    if (n <= 0) return;
    if (fds[0].revents != 0) {
      readInto(pipes_.out[0], out_open_, [&](const char* data, std::size_t size) { takeStdout(data, size); });
    }
    if (fds[1].revents != 0) {
      readInto(pipes_.err[0], err_open_, [&](const char* data, std::size_t size) { takeStderr(data, size); });
    }
  }

  // Delivers a last line without a newline, closes our pipe ends and gives the outcome, or the
  // error of a throwing on_line.
  Expected<ProcessOutcome> finish() {
    if (!line_.empty()) deliver(line_);
    ::close(pipes_.out[0]);
    ::close(pipes_.err[0]);
    outcome_.exit_code = WIFEXITED(status_) ? WEXITSTATUS(status_) : -1;
    outcome_.ended = exitStatusText(status_);
    if (!callback_error_.empty()) return Error{callback_error_};
    return outcome_;
  }

 private:
  void kill() {
    if (killed_ || reaped_) return;
    ::kill(-pid_, SIGKILL);  // its process group (ptxas and the like), before it is reaped
    ::kill(pid_, SIGKILL);
    killed_ = true;
  }

  void deliver(std::string_view text) {
    if (!on_line_ || !callback_error_.empty()) return;
    try {
      on_line_(text);
    } catch (const std::exception& e) {
      callback_error_ = std::string("reading the output of ") + (spec_.what.empty() ? spec_.program : spec_.what) +
                        " failed: " + e.what();
      kill();
    } catch (...) {
      callback_error_ = "reading the output of " + (spec_.what.empty() ? spec_.program : spec_.what) + " failed";
      kill();
    }
  }

  void readInto(int fd, bool& open, const std::function<void(const char*, std::size_t)>& take) {
    const ssize_t got = ::read(fd, buf_.data(), buf_.size());
    if (got > 0) {
      take(buf_.data(), static_cast<std::size_t>(got));
    } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
      open = false;
    }
  }

  // Standard output: every complete line to on_line, the rest kept for the next read.
  void takeStdout(const char* data, std::size_t size) {
    line_.append(data, size);
    std::size_t nl = 0;
    while ((nl = line_.find('\n')) != std::string::npos) {
      deliver(std::string_view(line_).substr(0, nl));
      line_.erase(0, nl + 1);
    }
  }

  // Standard error: only its last 64 KiB are kept.
  void takeStderr(const char* data, std::size_t size) {
    outcome_.stderr_text.append(data, size);
    constexpr std::size_t kKeep = std::size_t{64} * 1024;
    if (outcome_.stderr_text.size() > kKeep) outcome_.stderr_text.erase(0, outcome_.stderr_text.size() - kKeep);
  }

  const SpawnSpec& spec_;
  const std::function<void(std::string_view)>& on_line_;
  pid_t pid_;
  OutputPipes pipes_;
  ProcessOutcome outcome_;
  std::string line_;
  std::string callback_error_;  // what on_line threw: the child is stopped, the call returns it
  std::array<char, 8192> buf_{};
  bool out_open_ = true;
  bool err_open_ = true;
  bool killed_ = false;
  bool reaped_ = false;
  int status_ = 0;
  ProcessClock::time_point ended_at_{};
};

}  // namespace

Expected<ProcessOutcome> runProcess(const SpawnSpec& spec, const std::function<void(std::string_view)>& on_line,
                                    double timeout_s, const std::atomic<bool>* cancel) {
  OutputPipes pipes;
  auto pid = spawnIntoPipes(spec, pipes);
  if (!pid) return Error{pid.error()};
  const auto deadline = ProcessClock::now() +
                        std::chrono::duration_cast<ProcessClock::duration>(std::chrono::duration<double>(timeout_s));
  ChildWatch child(spec, on_line, *pid, pipes);
  while (child.watching()) {
    child.killWhenCancelledOrLate(timeout_s, deadline, cancel);
    child.reapIfEnded();
    child.readOutput();
  }
  return child.finish();
}

}  // namespace occx
