// Sniffing a file's first bytes. Only regular files are opened (a FIFO would block), and a file
// that cannot be read is left to the reader, which names the system's reason.
#include "pmoe/cli/file_check.hpp"

#include <sys/stat.h>

#include <cstring>
#include <fstream>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/shell_quote.hpp"

namespace pmoe::cli {

FileKind SniffFile(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) return FileKind::kMissing;
  if (!S_ISREG(st.st_mode)) return FileKind::kOther;
  std::ifstream in(path, std::ios::binary);
  char head[4096];
  in.read(head, sizeof head);
  const size_t size = static_cast<size_t>(in.gcount());
  if (size >= 8 && std::memcmp(head, "\x89HDF\r\n\x1a\n", 8) == 0) return FileKind::kResult;
  if (size >= 4 && std::memcmp(head, "PMJR", 4) == 0) return FileKind::kJournal;
  for (size_t i = 0; i < size; ++i) {
    const unsigned char c = static_cast<unsigned char>(head[i]);
    if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return FileKind::kOther;
  }
  return FileKind::kText;
}

void RequireConfigFile(const std::string& path) {
  switch (SniffFile(path)) {
    case FileKind::kResult:
      throw ConfigError(path +
                        ": this is an HDF5 result file, not a config (expected a sweep config "
                        ".ini; a result file is read by " +
                        HintCommand({"pmoe-sweep", "status", path}) + " or " +
                        HintCommand({"pmoe-analyze", "summary", path}) + ")");
    case FileKind::kJournal:
      throw ConfigError(path +
                        ": this is a pmoe-sweep journal, not a config (expected a sweep config "
                        ".ini; pmoe-sweep status on the .h5 beside it reads the journal)");
    default:
      return;
  }
}

void RequireResultFile(const std::string& path) {
  switch (SniffFile(path)) {
    case FileKind::kText:
      throw SchemaError(path +
                        ": this is a text file (a sweep config?), not an HDF5 result file; "
                        "run it first: " +
                        HintCommand({"pmoe-sweep", "run", path}) + " writes results/NAME.h5");
    case FileKind::kJournal: {
      std::string h5 = path;
      const std::string suffix = ".journal";
      if (h5.size() > suffix.size() &&
          h5.compare(h5.size() - suffix.size(), suffix.size(), suffix) == 0)
        h5.resize(h5.size() - suffix.size());
      throw SchemaError(path + ": this is a pmoe-sweep journal, not a result file (give " + h5 +
                        "; " + HintCommand({"pmoe-sweep", "status", h5}) +
                        " reads the journal too)");
    }
    default:
      return;
  }
}

}  // namespace pmoe::cli
