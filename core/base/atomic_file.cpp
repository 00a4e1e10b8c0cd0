#include "core/base/atomic_file.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <random>
#include <vector>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace occx {

namespace {
std::string why(int err) {
  return std::strerror(err);
}
}  // namespace

Expected<std::size_t> writeFileAtomically(const std::string& path, std::string_view content) {
  namespace fs = std::filesystem;
  if (path.empty()) return Error{"cannot write a file with an empty name"};
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Error{"cannot write '" + path + "': it is a folder"};
  fs::path target(path);
  fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::random_device rd;
  std::string tmpName(".");
  tmpName.append(target.filename().string()).append(".tmp-").append(std::to_string(rd()));
  std::string tmp = (dir / tmpName).string();
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return Error{"cannot write '" + path + "': " + why(errno)};
  const char* p = content.data();
  std::size_t left = content.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return Error{"cannot write '" + path + "': " + why(e) + " (previous file left unchanged)"};
    }
    p += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    int e = errno;
    ::close(fd);
    ::unlink(tmp.c_str());
    return Error{"cannot write '" + path + "': " + why(e) + " (previous file left unchanged)"};
  }
  if (::close(fd) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return Error{"cannot write '" + path + "': " + why(e) + " (previous file left unchanged)"};
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return Error{"cannot replace '" + path + "': " + why(e) + " (previous file left unchanged)"};
  }
  return content.size();
}

Expected<std::string> readFile(const std::string& path, std::size_t max_bytes) {
  // open(2) with O_NONBLOCK, then fstat on what was opened: a FIFO opened for reading without it
  // blocks until a writer comes (forever, in a folder anyone could have written), and checking the
  // type by name first leaves a window in which the file can be swapped.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    const int e = errno;
    if (e == EISDIR) return Error{"cannot read '" + path + "': it is a folder"};
    return Error{"cannot read '" + path + "': " + why(e)};
  }
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) return Error{"cannot read '" + path + "': " + why(errno)};
  if (S_ISDIR(st.st_mode)) return Error{"cannot read '" + path + "': it is a folder"};
  if (S_ISFIFO(st.st_mode)) return Error{"cannot read '" + path + "': not a regular file (a FIFO)"};
  if (S_ISSOCK(st.st_mode)) return Error{"cannot read '" + path + "': not a regular file (a socket)"};
  const bool regular = S_ISREG(st.st_mode);
  if (!regular && !S_ISCHR(st.st_mode) && !S_ISBLK(st.st_mode))
    return Error{"cannot read '" + path + "': not a regular file"};
  const auto size = static_cast<std::uint64_t>(st.st_size < 0 ? 0 : st.st_size);
  if (regular && size > max_bytes) {
    return Error{"'" + path + "' is " + std::to_string(size) + " bytes: larger than the " + std::to_string(max_bytes) +
                 "-byte limit"};
  }
  // Reads block from here on (a terminal or a device may wait for data, as reading it would).
  if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
  // Reads at most max_bytes + 1: a device has no size to check first (/dev/zero never ends), and a
  // regular file may grow while it is read.
  std::string out;
  if (regular) out.reserve(static_cast<std::size_t>(size));
  std::vector<char> buf(std::size_t{1} << 16);
  while (true) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return Error{"cannot read '" + path + "': " + why(errno)};
    }
    if (n == 0) break;
    out.append(buf.data(), static_cast<std::size_t>(n));
    if (out.size() > max_bytes) {
      return Error{"'" + path + "' is more than " + std::to_string(max_bytes) + " bytes: larger than the " +
                   std::to_string(max_bytes) + "-byte limit"};
    }
  }
  return out;
}

}  // namespace occx

namespace occx {

std::vector<std::string> listFolder(const std::string& folder, std::string* error) {
  std::vector<std::string> out;
  std::error_code ec;
  std::filesystem::directory_iterator it(folder, ec);
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) out.push_back(it->path().string());
  if (ec && error != nullptr) *error = folder + ": " + ec.message();
  return out;
}

}  // namespace occx
