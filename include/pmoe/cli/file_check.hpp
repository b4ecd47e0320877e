// Which kind of pmoe file a path holds, from its first bytes, so that a result file given where
// a config is expected (or the other way round) is named as such instead of failing inside the
// parser ("control character 0x1a", "not an HDF5 file").
#pragma once

#include <string>

namespace pmoe::cli {

enum class FileKind { kMissing, kResult, kJournal, kText, kOther };

// kResult: the HDF5 signature; kJournal: a pmoe-sweep journal's record magic; kText: no NUL
// byte or control character other than tab, CR, LF in its first 4 KB; kOther otherwise.
FileKind SniffFile(const std::string& path);

// Throws ConfigError when `path` is a result file or journal given as a config ("this is a
// pmoe-sweep result file, not a config: ..."); other problems are left to the config reader.
void RequireConfigFile(const std::string& path);

// Throws SchemaError when `path` is a config (text) or a journal given as a result file.
void RequireResultFile(const std::string& path);

}  // namespace pmoe::cli
