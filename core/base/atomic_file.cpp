#include "core/base/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
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
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Error{"cannot read '" + path + "': it is a folder"};
  std::ifstream in(path, std::ios::binary);
  if (!in) return Error{"cannot read '" + path + "': " + why(errno)};
  auto size = fs::file_size(path, ec);
  if (!ec && size > max_bytes) {
    return Error{"'" + path + "' is " + std::to_string(size) + " bytes: larger than the " + std::to_string(max_bytes) +
                 "-byte limit"};
  }
  // Reads at most max_bytes + 1: a device or a pipe has no size to check first (/dev/zero never ends).
  std::string out;
  std::vector<char> buf(std::size_t{1} << 16);
  while (in) {
    in.read(buf.data(), static_cast<std::streamsize>(buf.size()));
    out.append(buf.data(), static_cast<std::size_t>(in.gcount()));
    if (out.size() > max_bytes) {
      return Error{"'" + path + "' is more than " + std::to_string(max_bytes) + " bytes: larger than the " +
                   std::to_string(max_bytes) + "-byte limit"};
    }
  }
  if (in.bad()) return Error{"cannot read '" + path + "': " + why(errno)};
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
