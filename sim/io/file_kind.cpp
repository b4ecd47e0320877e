// File-kind checks with stat(2), which never blocks, unlike opening a FIFO.
#include "pmoe/io/file_kind.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

std::string KindName(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  return "a special file";
}

}  // namespace

std::string InputFileProblem(const std::string& path) {
  if (path.empty()) return "an empty path";
  if (path.find('\0') != std::string::npos) return "a path with a NUL byte";
  struct stat st;
  if (::stat(path.c_str(), &st) != 0)
    return errno == ENOENT ? "cannot read: no such file"
                           : std::string("cannot read: ") + std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return KindName(st.st_mode) + ", not a regular file";
  // O_NONBLOCK: the file could have been replaced by a FIFO since the stat.
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return std::string("cannot read: ") + std::strerror(errno);
  ::close(fd);
  return "";
}

std::string ReadInputText(const std::string& path, const std::string& what) {
  if (const std::string problem = InputFileProblem(path); !problem.empty())
    throw ConfigError(what + " " + path + ": " + problem);
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  if (in.bad()) throw ConfigError(what + " " + path + ": cannot read: " + std::strerror(errno));
  return text.str();
}

std::string ReadOptionalText(const std::string& path, const std::string& what) {
  struct stat st;
  if (::lstat(path.c_str(), &st) != 0 && errno == ENOENT) return "";
  return ReadInputText(path, what);
}

std::string OutputFileProblem(const std::string& path) {
  if (path.empty()) return "an empty path (expected a file name)";
  if (path.find('\0') != std::string::npos) return "a path with a NUL byte";
  if (path.back() == '/') return "names a directory (expected a file name)";
  struct stat st;
  // A link is never written through (issue 28): planted in a shared folder, it would redirect
  // the write to any file its owner may not have meant to give.
  if (::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
    return "a symbolic link, which is not written through (remove it, or write elsewhere)";
  if (::stat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode)) return KindName(st.st_mode) + ", not a file that can be replaced";
    return "";
  }
  if (errno == ENOTDIR) {
    // Some ancestor is not a directory: name the first one.
    for (size_t slash = path.find('/', 1); slash != std::string::npos;
         slash = path.find('/', slash + 1)) {
      const std::string prefix = path.substr(0, slash);
      if (::stat(prefix.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
        return "cannot be created: " + prefix + " is " + KindName(st.st_mode) + ", not a directory";
    }
    return std::string("cannot be created: ") + std::strerror(ENOTDIR);
  }
  if (errno != ENOENT) return std::string("cannot be used: ") + std::strerror(errno);
  return "";
}

int64_t FileSize(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return -1;
  return static_cast<int64_t>(st.st_size);
}

}  // namespace pmoe
