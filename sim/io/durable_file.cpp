#include "pmoe/io/durable_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
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

bool IsSymlink(const std::string& path) {
  struct stat st;
  return ::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

// Creates `temp` afresh without following a link there. A regular file left there (by a run
// killed before its rename) is ours to remove; a link or anything else is refused.
int CreateTemp(const std::string& temp) {
  for (int attempt = 0; attempt < 2; ++attempt) {
    const int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd >= 0) return fd;
    if (errno != EEXIST) Fail(temp, "cannot create", errno);
    struct stat st;
    if (::lstat(temp.c_str(), &st) != 0) continue;
    if (!S_ISREG(st.st_mode))
      throw ConfigError(temp + ": " +
                        (S_ISLNK(st.st_mode) ? std::string("a symbolic link")
                                             : std::string("not a regular file")) +
                        " is where the temp file goes: refusing to write through it (remove it)");
    if (::unlink(temp.c_str()) != 0 && errno != ENOENT)
      Fail(temp, "cannot remove the stale temp file", errno);
  }
  Fail(temp, "cannot create", EEXIST);
}

}  // namespace

void RefuseSymlink(const std::string& path, const std::string& what) {
  if (IsSymlink(path))
    throw ConfigError(path + ": a symbolic link is where " + what +
                      " goes: refusing to write through it (it could point at any file; remove "
                      "it, or write elsewhere)");
}

std::string MoveAside(const std::string& path, const std::string& suffix) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0) return "";
  std::string target = path + suffix;
  for (int i = 2; ::lstat(target.c_str(), &st) == 0; ++i) {
    if (i > 1000) Fail(path, "cannot move aside: too many " + path + suffix + ".N", EEXIST);
    target = path + suffix + "." + std::to_string(i);
  }
  // link + unlink rather than rename: never replaces a file that appeared at `target` meanwhile.
  if (::link(path.c_str(), target.c_str()) == 0) {
    if (::unlink(path.c_str()) != 0) Fail(path, "cannot remove after moving aside", errno);
  } else if (::rename(path.c_str(), target.c_str()) != 0) {  // no hard links here (some FS)
    Fail(path, "cannot move aside to " + target, errno);
  }
  return target;
}

void ReplaceFileDurably(const std::string& path, const std::vector<char>& bytes) {
  RefuseSymlink(path, "the file");
  const std::string temp = path + ".tmp";
  const int fd = CreateTemp(temp);
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
