// Starting other programs: the GPU worker (core/sweep/worker_runner) and the user's python3 that
// compiles Triton kernels (core/triton/triton_compile). POSIX posix_spawn, no shell: arguments are
// passed as they are. A child runs in its own process group with default signal handling, so
// Ctrl+C in a terminal reaches this program (which cancels) and not the child.
#pragma once

#include <sys/types.h>

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/base/expected.h"

namespace occx {

/// "exited with code 3", "was killed by signal 11 (Segmentation fault)" for a waitpid() status.
std::string exitStatusText(int status);

/// What to start.
struct SpawnSpec {
  std::string program;                 ///< a path, or (search_path) a name looked up in $PATH
  std::vector<std::string> arguments;  ///< after argv[0] (= program)
  bool search_path = false;            ///< look `program` up in $PATH when it has no '/'
  /// Variables set in the child's environment (an empty value sets it empty); the rest is inherited.
  std::vector<std::pair<std::string, std::string>> environment;
  /// Variables removed from the child's environment.
  std::vector<std::string> unset_environment;
  /// (parent fd, child fd) pairs dup2'd in the child; every other descriptor of ours is closed there.
  std::vector<std::pair<int, int>> descriptors;
  std::string what;  ///< how messages name it ("the GPU worker /usr/lib/…"); empty = the program
};

/// Starts `spec` and returns its pid. Error: the program cannot be started ("cannot start
/// python3: No such file or directory", with `what` in place of the program when given). The caller reaps it (waitpid).
Expected<pid_t> spawnProcess(const SpawnSpec& spec);

/// How a program run by runProcess ended.
struct ProcessOutcome {
  int exit_code = -1;       ///< the exit status when it exited; -1 when killed
  std::string ended;        ///< exitStatusText's words
  std::string stderr_text;  ///< its standard error (the last 64 KiB)
  bool timed_out = false;   ///< killed after `timeout_s`
  bool cancelled = false;   ///< killed because `cancel` became true
};

/// Runs `spec` to its end (stdin is /dev/null), giving each line of its standard output, without
/// the newline, to `on_line` as it arrives (on the calling thread). `timeout_s` > 0 kills it
/// (SIGKILL to its process group) after that many seconds; `cancel` becoming true kills it within
/// 0.1 s. Returns once the child is reaped and its pipes are drained (at most 0.5 s more: a
/// grandchild holding them does not keep the call waiting). Errors: it could not be started
/// (spawnProcess's message); `on_line` threw (the child is killed; the message says so). Never throws.
Expected<ProcessOutcome> runProcess(const SpawnSpec& spec, const std::function<void(std::string_view)>& on_line,
                                    double timeout_s = 0.0, const std::atomic<bool>* cancel = nullptr);

/// The absolute path of `name` found in $PATH (an executable file), or of `name` itself when it
/// contains a '/' and is executable; nullopt when not found.
std::optional<std::string> findExecutable(const std::string& name);

}  // namespace occx
