// Atomic file writes under failure: an unwritable folder, a file name that is a folder, a missing
// folder, a full disk (simulated with a tiny RLIMIT_FSIZE, and with a tiny tmpfs where the test may
// mount one). Each must leave the previous file byte-for-byte intact, leave no temporary file behind,
// and report the path and the reason.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/cli/cli.h"
#include "core/base/atomic_file.h"
#include "core/sweep/backend.h"
#include "tests/support/in_child.h"

using namespace occx;
namespace fs = std::filesystem;

namespace {

// A fresh, empty folder per test, removed afterwards.
class AtomicFile : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string templ = (fs::temp_directory_path() / "occx-atomic-XXXXXX").string();
    ASSERT_NE(::mkdtemp(templ.data()), nullptr);
    dir_ = templ;
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(dir_, fs::perms::owner_all, ec);
    fs::remove_all(dir_, ec);
  }
  [[nodiscard]] std::string path(const std::string& name) const { return (fs::path(dir_) / name).string(); }
  // Names in the folder, sorted: a failed write must leave exactly what was there before.
  [[nodiscard]] std::vector<std::string> listing(const std::string& folder = {}) const {
    std::vector<std::string> names;
    for (const auto& e : fs::directory_iterator(folder.empty() ? dir_ : folder))
      names.push_back(e.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }
  std::string dir_;
};

std::string slurp(const std::string& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

int openDescriptors() {
  int n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

using occx::testing_support::inChild;

// The child's report: the Error of the write (or "WROTE" when it wrongly succeeded).
std::string writeReport(const std::string& target, const std::string& content) {
  auto w = writeFileAtomically(target, content);
  return w ? std::string("WROTE") : w.error();
}

TEST_F(AtomicFile, WritesAndReplacesLeavingOnlyTheTarget) {
  const std::string p = path("table.csv");
  auto w = writeFileAtomically(p, "a,b\n1,2\n");
  ASSERT_TRUE(w) << w.error();
  EXPECT_EQ(*w, 8u);
  w = writeFileAtomically(p, "a,b\n3,4\n5,6\n");
  ASSERT_TRUE(w) << w.error();
  EXPECT_EQ(slurp(p), "a,b\n3,4\n5,6\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"table.csv"});
}

TEST_F(AtomicFile, UnwritableFolderLeavesThePreviousFileAndNamesTheReason) {
  const std::string p = path("table.csv");
  ASSERT_TRUE(writeFileAtomically(p, "previous\n"));
  fs::permissions(dir_, fs::perms::owner_read | fs::perms::owner_exec | fs::perms::group_read | fs::perms::group_exec |
                            fs::perms::others_read | fs::perms::others_exec);
  // root ignores folder permissions: the child drops to an unprivileged user first.
  const std::string report = inChild([&] {
    if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0))
      return std::string("SKIP: cannot drop root");
    return writeReport(p, "replacement\n");
  });
  if (report.rfind("SKIP", 0) == 0) GTEST_SKIP() << report;
  EXPECT_NE(report.find("cannot write '" + p + "'"), std::string::npos) << report;
  EXPECT_NE(report.find("Permission denied"), std::string::npos) << report;
  EXPECT_EQ(slurp(p), "previous\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"table.csv"});
}

TEST_F(AtomicFile, FileNameThatIsAFolderIsRefusedAndTheFolderKept) {
  const std::string p = path("results");
  fs::create_directory(p);
  ASSERT_TRUE(writeFileAtomically(p + "/inside.csv", "x\n"));
  auto w = writeFileAtomically(p, "a,b\n");
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error(), "cannot write '" + p + "': it is a folder");
  EXPECT_TRUE(fs::is_directory(p));
  EXPECT_EQ(slurp(p + "/inside.csv"), "x\n");
  EXPECT_EQ(listing(), std::vector<std::string>{"results"});
  // A symbolic link to a folder is a folder too.
  fs::create_directory_symlink(p, path("link"));
  w = writeFileAtomically(path("link"), "a,b\n");
  ASSERT_FALSE(w);
  EXPECT_NE(w.error().find("it is a folder"), std::string::npos) << w.error();
}

TEST_F(AtomicFile, MissingFolderAndEmptyNameAreRefused) {
  const std::string p = path("no-such-folder/table.csv");
  auto w = writeFileAtomically(p, "a\n");
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error(), "cannot write '" + p + "': No such file or directory");
  w = writeFileAtomically("", "a\n");
  ASSERT_FALSE(w);
  EXPECT_EQ(w.error(), "cannot write a file with an empty name");
  EXPECT_TRUE(listing().empty());
}

// Disk full, simulated: a 4 KiB file-size limit makes write() fail with EFBIG part-way through a
// 64 KiB file (SIGXFSZ ignored, as a long-running program would).
TEST_F(AtomicFile, DiskFullByFileSizeLimitLeavesThePreviousFile) {
  const std::string p = path("sweep.csv");
  const std::string previous = "config,time_us\nXBLOCK=1,3.5\n";
  ASSERT_TRUE(writeFileAtomically(p, previous));
  const std::string big(64 * 1024, 'x');
  const int fdsBefore = openDescriptors();
  const std::string report = inChild([&] {
    ::signal(SIGXFSZ, SIG_IGN);
    const rlimit lim{4096, 4096};
    if (::setrlimit(RLIMIT_FSIZE, &lim) != 0) return std::string("SKIP: setrlimit failed");
    std::string r = writeReport(p, big);
    // No descriptor may leak on the failure path.
    return r + "\nFDS " + std::to_string(openDescriptors());
  });
  if (report.rfind("SKIP", 0) == 0) GTEST_SKIP() << report;
  EXPECT_NE(report.find("cannot write '" + p + "': File too large (previous file left unchanged)"), std::string::npos)
      << report;
  EXPECT_NE(report.find("FDS " + std::to_string(fdsBefore + 1)), std::string::npos)  // +1: the report pipe
      << report << " (before: " << fdsBefore << ")";
  EXPECT_EQ(slurp(p), previous);
  EXPECT_EQ(listing(), std::vector<std::string>{"sweep.csv"});
}

// Disk full, for real: a 16 KiB tmpfs mounted in a private mount namespace (needs CAP_SYS_ADMIN;
// skipped where the test may not mount).
TEST_F(AtomicFile, DiskFullOnTinyTmpfsLeavesThePreviousFile) {
  const std::string mnt = path("tiny");
  fs::create_directory(mnt);
  const std::string report = inChild([&] {
    if (::unshare(CLONE_NEWNS) != 0) return std::string("SKIP: no private mount namespace (unshare: EPERM)");
    if (::mount("none", "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0)
      return std::string("SKIP: cannot make / private");
    if (::mount("tmpfs", mnt.c_str(), "tmpfs", 0, "size=16k") != 0) return std::string("SKIP: cannot mount a tmpfs");
    const std::string p = mnt + "/cache.json";
    const std::string previous(6000, 'p');
    if (!writeFileAtomically(p, previous)) return std::string("SKIP: tmpfs too small for the previous file");
    std::string r = writeReport(p, std::string(64 * 1024, 'n'));
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    r += s.str() == previous ? "\nPREVIOUS INTACT" : "\nPREVIOUS DAMAGED";
    int entries = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(mnt)) ++entries;
    r += "\nENTRIES " + std::to_string(entries);
    return r;
  });
  if (report.rfind("SKIP", 0) == 0) GTEST_SKIP() << report;
  EXPECT_NE(
      report.find("cannot write '" + mnt + "/cache.json': No space left on device (previous file left unchanged)"),
      std::string::npos)
      << report;
  EXPECT_NE(report.find("PREVIOUS INTACT"), std::string::npos) << report;
  EXPECT_NE(report.find("ENTRIES 1"), std::string::npos) << report;
}

// Readers never see a half-written file: while writers replace the file with complete versions of
// different lengths, every read returns one whole version.
TEST_F(AtomicFile, ConcurrentReadersSeeOnlyWholeVersions) {
  const std::string p = path("live.csv");
  auto version = [](int k) {
    return std::string(static_cast<std::size_t>(1000 + 997 * k), static_cast<char>('a' + k));
  };
  ASSERT_TRUE(writeFileAtomically(p, version(0)));
  std::atomic<bool> stop{false};
  std::atomic<int> torn{0}, reads{0};
  std::thread reader([&] {
    while (!stop) {
      const std::string s = slurp(p);
      bool whole = false;
      for (int k = 0; k < 4; ++k) whole = whole || s == version(k);
      if (!whole) ++torn;
      ++reads;
    }
  });
  std::vector<std::thread> writers;
  std::atomic<int> failures{0};
  for (int w = 0; w < 3; ++w) {
    writers.emplace_back([&, w] {
      for (int i = 0; i < 30; ++i) {
        if (!writeFileAtomically(p, version(1 + (w + i) % 3))) ++failures;
      }
    });
  }
  for (auto& t : writers) t.join();
  stop = true;
  reader.join();
  EXPECT_EQ(failures, 0);
  EXPECT_EQ(torn, 0) << "of " << reads << " reads";
  EXPECT_GT(reads, 0);
  EXPECT_EQ(listing(), std::vector<std::string>{"live.csv"});
}

TEST_F(AtomicFile, ReadFileRefusesMissingFilesFoldersAndOversizedFiles) {
  auto r = readFile(path("absent.csv"));
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "cannot read '" + path("absent.csv") + "': No such file or directory");
  r = readFile(dir_);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "cannot read '" + dir_ + "': it is a folder");
  ASSERT_TRUE(writeFileAtomically(path("big.csv"), std::string(2048, 'z')));
  r = readFile(path("big.csv"), 1024);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "'" + path("big.csv") + "' is 2048 bytes: larger than the 1024-byte limit");
  r = readFile(path("big.csv"), 2048);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(r->size(), 2048u);
  // A device has no size to check first: reading stops one byte past the limit.
  r = readFile("/dev/zero", 100000);
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "'/dev/zero' is more than 100000 bytes: larger than the 100000-byte limit");
}

// A FIFO blocks a plain open until a writer comes: readFile refuses it at once, and a socket too.
TEST_F(AtomicFile, ReadFileRefusesAFifoWithoutWaiting) {
  const std::string fifo = path("kernel.py");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0644), 0) << std::strerror(errno);
  const auto start = std::chrono::steady_clock::now();
  auto r = readFile(fifo, 1 << 20);
  const auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error(), "cannot read '" + fifo + "': not a regular file (a FIFO)");
  EXPECT_LT(took, std::chrono::seconds(1));
  // A regular file is reserved and read whole; an empty one is an empty text.
  ASSERT_TRUE(writeFileAtomically(path("empty.py"), ""));
  r = readFile(path("empty.py"), 10);
  ASSERT_TRUE(r) << r.error();
  EXPECT_EQ(*r, "");
}

// The CLI's --csv FILE is checked before the command's work: a folder, or a file in a folder that
// does not exist, is a usage error (exit 2) naming the file, and nothing is computed or printed.
// (The write itself goes through the atomic writer.)
TEST_F(AtomicFile, CliCsvIntoAFolderOrMissingFolderIsRefusedBeforeTheWork) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {dir_, "--csv: '" + dir_ + "' is a folder: give a file name in it"},
      {path("missing/out.csv"),
       "--csv: cannot write '" + path("missing/out.csv") + "': the folder '" + path("missing") + "' does not exist"}};
  for (const auto& [target, why] : cases) {
    for (const char* command : {"occupancy", "inductor"}) {
      std::vector<const char*> argv =
          command == std::string("occupancy")
              ? std::vector<const char*>{"occx", "occupancy", "--gpu", "H100-SXM", "--threads", "256", "--regs", "32"}
              : std::vector<const char*>{"occx", "inductor", "scan", "/nonexistent/run"};
      argv.push_back("--csv");
      argv.push_back(target.c_str());
      std::ostringstream out, err;
      const int code = cli::runCli(static_cast<int>(argv.size()), argv.data(), out, err, *offlineBackend());
      EXPECT_EQ(code, cli::kExitUsage) << err.str();
      EXPECT_NE(err.str().find(why), std::string::npos) << err.str();
      EXPECT_EQ(out.str(), "");  // nothing was scanned or computed
    }
  }
  EXPECT_TRUE(listing().empty());
}

}  // namespace
