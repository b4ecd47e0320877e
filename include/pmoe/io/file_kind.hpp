// What kind of file a path names, checked before anything opens it: a FIFO blocks a reader
// forever, a directory reads as an empty file, and a path under a regular file fails deep inside
// a write. Each function returns "" when the path is fit for its use, else the reason, in words
// that complete "PATH: ..." (the callers choose the error type and add the path).
#pragma once

#include <cstdint>
#include <string>

namespace pmoe {

// A regular file that exists and can be opened for reading (not a directory, FIFO, socket or
// device), without blocking: "cannot read: no such file", "a directory, not a regular file", "a
// FIFO (named pipe), not a regular file", "cannot read: Permission denied".
std::string InputFileProblem(const std::string& path);

// The whole text of an input file; ConfigError "WHAT PATH: PROBLEM" unless InputFileProblem is
// "" (issue 44: a FIFO given as --sbatch-file blocked forever, a directory read as empty).
std::string ReadInputText(const std::string& path, const std::string& what);

// The same for a file that may be absent ("" then), such as a task's state file.
std::string ReadOptionalText(const std::string& path, const std::string& what);

// Where a new file may be written: not empty, not a symbolic link (never written through), not
// an existing directory or special file, and
// every existing ancestor a directory (a missing parent is fine: it is created).
std::string OutputFileProblem(const std::string& path);

// The size in bytes of a regular file (-1 when it cannot be stat'ed).
int64_t FileSize(const std::string& path);

}  // namespace pmoe
