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

Expected<ProcessOutcome> runProcess(const SpawnSpec& spec, const std::function<void(std::string_view)>& on_line,
                                    double timeout_s, const std::atomic<bool>* cancel) {
  using Clock = std::chrono::steady_clock;
  std::array<int, 2> out{-1, -1};
  std::array<int, 2> err{-1, -1};
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
  ProcessOutcome outcome;
  const auto deadline =
      Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(timeout_s));
  std::string line;
  std::string callback_error;  // what on_line threw: the child is stopped, the call returns it
  std::array<char, 8192> buf{};
  bool out_open = true;
  bool err_open = true;
  bool killed = false;
  bool reaped = false;
  int status = 0;
  Clock::time_point ended_at{};
  auto kill = [&] {
    if (killed || reaped) return;
    ::kill(-*pid, SIGKILL);  // its process group (ptxas and the like), before it is reaped
    ::kill(*pid, SIGKILL);
    killed = true;
  };
  auto deliver = [&](std::string_view text) {
    if (!on_line || !callback_error.empty()) return;
    try {
      on_line(text);
    } catch (const std::exception& e) {
      callback_error = std::string("reading the output of ") + (spec.what.empty() ? spec.program : spec.what) +
                       " failed: " + e.what();
      kill();
    } catch (...) {
      callback_error = "reading the output of " + (spec.what.empty() ? spec.program : spec.what) + " failed";
      kill();
    }
  };
  // Until the child is reaped and its pipes are drained (at most 0.5 s after it ended: a
  // grandchild that keeps them open does not hold us).
  while (!reaped || ((out_open || err_open) && Clock::now() - ended_at < std::chrono::milliseconds(500))) {
    if (!killed && !reaped && cancel != nullptr && cancel->load()) {
      outcome.cancelled = true;
      kill();
    }
    if (!killed && !reaped && timeout_s > 0.0 && Clock::now() > deadline) {
      outcome.timed_out = true;
      kill();
    }
    if (!reaped) {
      const pid_t r = ::waitpid(*pid, &status, WNOHANG);
      if (r == *pid || (r < 0 && errno != EINTR)) {
        reaped = true;
        ended_at = Clock::now();
      }
    }
    if (!out_open && !err_open) {
      if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(20));
      continue;
    }
    std::array<pollfd, 2> fds{pollfd{out_open ? out[0] : -1, POLLIN, 0}, pollfd{err_open ? err[0] : -1, POLLIN, 0}};
    const int n = ::poll(fds.data(), fds.size(), reaped ? 20 : 100);
    if (n < 0 && errno != EINTR) {
      kill();
      out_open = err_open = false;
      continue;
    }
    if (n <= 0) continue;
    auto readInto = [&](int fd, bool& open, const std::function<void(const char*, std::size_t)>& take) {
      const ssize_t got = ::read(fd, buf.data(), buf.size());
      if (got > 0) {
        take(buf.data(), static_cast<std::size_t>(got));
      } else if (got == 0 || (errno != EINTR && errno != EAGAIN)) {
        open = false;
      }
    };
    if (fds[0].revents != 0) {
      readInto(out[0], out_open, [&](const char* data, std::size_t size) {
        line.append(data, size);
        std::size_t nl = 0;
        while ((nl = line.find('\n')) != std::string::npos) {
          deliver(std::string_view(line).substr(0, nl));
          line.erase(0, nl + 1);
        }
      });
    }
    if (fds[1].revents != 0) {
      readInto(err[0], err_open, [&](const char* data, std::size_t size) {
        outcome.stderr_text.append(data, size);
        constexpr std::size_t kKeep = std::size_t{64} * 1024;
        if (outcome.stderr_text.size() > kKeep) outcome.stderr_text.erase(0, outcome.stderr_text.size() - kKeep);
      });
    }
  }
  if (!line.empty()) deliver(line);
  ::close(out[0]);
  ::close(err[0]);
  outcome.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  outcome.ended = exitStatusText(status);
  if (!callback_error.empty()) return Error{callback_error};
  return outcome;
}

}  // namespace occx
