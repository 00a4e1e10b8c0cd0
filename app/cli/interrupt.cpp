#include "app/cli/interrupt.h"

namespace occx::cli {

namespace {
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);
extern "C" void onSigint(int /*signal*/) {
  g_interrupted.store(true);
}
}  // namespace

std::atomic<bool>& interrupted() {
  return g_interrupted;
}

SigintScope::SigintScope() {
  g_interrupted.store(false);
  struct sigaction sa {};
  sa.sa_handler = &onSigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  installed_ = sigaction(SIGINT, &sa, &old_) == 0;
}

SigintScope::~SigintScope() {
  if (installed_) sigaction(SIGINT, &old_, nullptr);
}

}  // namespace occx::cli
