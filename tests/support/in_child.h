// Runs a test body in a forked child, so that resource limits (RLIMIT_FSIZE as a full disk),
// dropped privileges and private mounts stay there. Shared by the core and UI file-safety tests.
#pragma once

#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

namespace occx::testing_support {

/// Runs `body` in a forked child and returns the text it returned. The body must not use gtest
/// macros (the child's results would be lost); a body that cannot set up its conditions returns a
/// report starting with "SKIP". A child that dies gives "CHILD FAILED: status N …".
inline std::string inChild(const std::function<std::string()>& body) {
  int fds[2];
  if (::pipe(fds) != 0) return "SKIP: pipe failed";
  const pid_t pid = ::fork();
  if (pid < 0) return "SKIP: fork failed";
  if (pid == 0) {
    ::close(fds[0]);
    const std::string report = body();
    const char* p = report.data();
    std::size_t left = report.size();
    while (left > 0) {
      const ssize_t n = ::write(fds[1], p, left);
      if (n <= 0) break;
      p += n;
      left -= static_cast<std::size_t>(n);
    }
    ::_exit(0);
  }
  ::close(fds[1]);
  std::string out;
  char buf[512];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) > 0;) out.append(buf, static_cast<std::size_t>(n));
  ::close(fds[0]);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "CHILD FAILED: status " + std::to_string(status) + " " + out;
  return out;
}

}  // namespace occx::testing_support
