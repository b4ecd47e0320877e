#include "pmoe/io/durable_file.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

[[noreturn]] void Fail(const std::string& path, const std::string& what, int error) {
  throw IoError(path + ": " + what + ": " + std::strerror(error));
}

// Writes every byte, retrying short writes and EINTR.
void WriteAll(int fd, const std::string& path, const std::vector<char>& bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail(path, "cannot write", errno);
    }
    done += static_cast<size_t>(n);
  }
}

void SyncDirectoryOf(const std::string& path) {
  const std::string dir = std::filesystem::absolute(path).parent_path().string();
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd < 0) Fail(dir, "cannot open the directory to fsync it", errno);
  const int rc = ::fsync(fd);
  const int error = errno;
  ::close(fd);
  if (rc != 0) Fail(dir, "fsync of the directory failed", error);
}

}  // namespace

void ReplaceFileDurably(const std::string& path, const std::vector<char>& bytes) {
  const std::string temp = path + ".tmp";
  const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) Fail(temp, "cannot create", errno);
  try {
    WriteAll(fd, temp, bytes);
    if (::fsync(fd) != 0) Fail(temp, "fsync failed", errno);
  } catch (...) {
    ::close(fd);
    ::unlink(temp.c_str());
    throw;
  }
  if (::close(fd) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    Fail(temp, "cannot close", error);
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temp.c_str());
    Fail(path, "cannot rename " + temp + " over it", error);
  }
  SyncDirectoryOf(path);
}

}  // namespace pmoe
