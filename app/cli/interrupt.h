// Ctrl-C for long commands (sweeps, live runs): the first SIGINT sets a flag the work reads
// between steps, so the finished rows are kept and written; a second one ends the program as usual.
#pragma once

#include <atomic>
#include <csignal>

namespace occx::cli {

/// The flag SIGINT sets while a SigintScope is alive (lock-free, so setting it is async-signal-safe).
std::atomic<bool>& interrupted();

/// Installs the SIGINT handler for its lifetime and clears the flag (SA_RESETHAND: a second Ctrl-C
/// gets the default action).
class SigintScope {
 public:
  SigintScope();
  ~SigintScope();
  SigintScope(const SigintScope&) = delete;
  SigintScope& operator=(const SigintScope&) = delete;

 private:
  struct sigaction old_ {};
  bool installed_ = false;
};

}  // namespace occx::cli
