// Child processes (core/base/child_process.h) with /bin/sh: lines as they come, exit codes, a
// timeout and a cancel that stop a child which no longer writes, a grandchild that keeps the pipes
// open, a program that does not exist, a reader that throws.
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include <gtest/gtest.h>

#include "core/base/child_process.h"

namespace occx {
namespace {

using Clock = std::chrono::steady_clock;

SpawnSpec sh(const std::string& script) {
  SpawnSpec s;
  s.program = "/bin/sh";
  s.arguments = {"-c", script};
  return s;
}

double secondsSince(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

TEST(ChildProcess, LinesArriveInOrderAndTheExitCodeIsKept) {
  std::vector<std::string> lines;
  auto spec = sh("echo one; echo two >&2; printf 'three\\nfour'; exit 3");
  auto r = runProcess(spec, [&](std::string_view l) { lines.emplace_back(l); });
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_EQ(lines, (std::vector<std::string>{"one", "three", "four"}));
  EXPECT_EQ(r->exit_code, 3);
  EXPECT_EQ(r->ended, "exited with code 3");
  EXPECT_EQ(r->stderr_text, "two\n");
  EXPECT_FALSE(r->timed_out);
  spec = sh("echo \"[$OCCX_CHILD_TEST]\"");
  spec.environment = {{"OCCX_CHILD_TEST", "x"}};
  lines.clear();
  ASSERT_TRUE(runProcess(spec, [&](std::string_view l) { lines.emplace_back(l); }).hasValue());
  EXPECT_EQ(lines, std::vector<std::string>{"[x]"});
}

TEST(ChildProcess, ATimeoutStopsAChildThatClosedItsOutputAndKeptRunning) {
  const auto t0 = Clock::now();
  auto r = runProcess(sh("exec >/dev/null 2>&1; sleep 30"), {}, 0.5);
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_TRUE(r->timed_out);
  EXPECT_EQ(r->exit_code, -1);
  EXPECT_EQ(r->ended.rfind("was killed by signal 9", 0), 0u) << r->ended;
  EXPECT_LT(secondsSince(t0), 5.0);
}

TEST(ChildProcess, CancelStopsItWithinAFractionOfASecond) {
  std::atomic<bool> cancel{false};
  std::thread stopper([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    cancel = true;
  });
  const auto t0 = Clock::now();
  auto r = runProcess(sh("while true; do echo tick; sleep 0.05; done"), {}, 0.0, &cancel);
  stopper.join();
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_TRUE(r->cancelled);
  EXPECT_LT(secondsSince(t0), 3.0);
}

TEST(ChildProcess, AGrandchildHoldingThePipesDoesNotKeepTheCallWaiting) {
  const auto t0 = Clock::now();
  std::vector<std::string> lines;
  // setsid: the grandchild leaves the child's process group, so nothing of ours kills it.
  auto r = runProcess(
      sh("setsid sleep 5 & echo started"), [&](std::string_view l) { lines.emplace_back(l); }, 0.0);
  ASSERT_TRUE(r.hasValue()) << r.error();
  EXPECT_EQ(r->exit_code, 0);
  EXPECT_EQ(lines, std::vector<std::string>{"started"});
  EXPECT_LT(secondsSince(t0), 3.0);
}

TEST(ChildProcess, AProgramThatDoesNotExistIsAnErrorNamingIt) {
  SpawnSpec s;
  s.program = "/nonexistent/python3";
  EXPECT_EQ(runProcess(s, {}).error(), "cannot start /nonexistent/python3: No such file or directory");
  s.program = "occx-no-such-program";
  s.search_path = true;
  s.what = "the helper";
  EXPECT_EQ(runProcess(s, {}).error(), "cannot start the helper: not found in PATH");
  EXPECT_FALSE(findExecutable("occx-no-such-program").has_value());
  EXPECT_EQ(findExecutable("sh").value_or("").substr(findExecutable("sh").value_or("").size() - 3), "/sh");
}

TEST(ChildProcess, AReaderThatThrowsStopsTheChildAndSaysSo) {
  const auto t0 = Clock::now();
  auto r = runProcess(sh("echo first; sleep 30"), [](std::string_view) { throw std::runtime_error("bad line"); });
  EXPECT_EQ(r.error(), "reading the output of /bin/sh failed: bad line");
  EXPECT_LT(secondsSince(t0), 5.0);
}

}  // namespace
}  // namespace occx
