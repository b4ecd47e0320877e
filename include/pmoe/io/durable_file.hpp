// Replacing a file so that a crash, a full disk or a read-only directory never leaves it
// half-written: the bytes go to `path.tmp`, are fsynced, then renamed over `path`, and the
// directory is fsynced. Any failure removes the temporary file and throws IoError naming the
// path and the system's reason; `path` itself is then untouched.
//
// No symbolic link is followed at the final component of `path` or of its temp file (issue 28:
// a link planted in a shared results folder would have redirected the write to another user's
// file): a link there is refused by name (ConfigError), the temp file is created with
// O_EXCL | O_NOFOLLOW, and rename(2) replaces the directory entry, never a link's target.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace pmoe {

void ReplaceFileDurably(const std::string& path, const std::vector<char>& bytes);

// Throws ConfigError naming `path` when a symbolic link is there; `what` says what the tool
// would have written ("the journal", "the Slurm script").
void RefuseSymlink(const std::string& path, const std::string& what);

// Moves the file at `path` to `path.old` (or .old.2, .old.3, ...: never over another file) and
// returns where it went; "" when nothing is at `path`. For a file the tool would replace but
// does not recognise as its own: kept for the user, never dropped. Links are moved, not followed.
std::string MoveAside(const std::string& path, const std::string& suffix = ".old");

}  // namespace pmoe
