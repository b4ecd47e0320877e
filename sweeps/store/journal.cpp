// Journal records: magic, kind, payload length, CRC-32 of the payload, payload. Kind 1 holds the
// identity, kind 2 a batch of encoded rows.
#include "pmoe/sweep/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "pmoe/core/errors.hpp"

namespace pmoe {
namespace {

constexpr uint32_t kMagic = 0x524a4d50;  // "PMJR"
constexpr uint32_t kIdentity = 1;
constexpr uint32_t kRows = 2;
constexpr size_t kHeaderBytes = 4 + 4 + 8 + 4;

[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw SchemaError(path + ": " + what + ": " + std::strerror(errno));
}

std::string ReadAll(int fd, const std::string& path) {
  std::string data;
  char buffer[1 << 16];
  if (::lseek(fd, 0, SEEK_SET) < 0) Fail(path, "cannot seek");
  while (true) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got < 0) Fail(path, "cannot read the journal");
    if (got == 0) return data;
    data.append(buffer, static_cast<size_t>(got));
  }
}

}  // namespace

uint32_t Crc32(const char* data, size_t size) {
  static const auto table = [] {
    std::array<uint32_t, 256> t{};
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
    return t;
  }();
  uint32_t crc = 0xffffffffu;
  for (size_t i = 0; i < size; ++i)
    crc = table[(crc ^ static_cast<unsigned char>(data[i])) & 0xff] ^ (crc >> 8);
  return crc ^ 0xffffffffu;
}

Journal::Journal(const std::string& path, const std::string& identity, const RowSchema& schema)
    : path_(path), identity_(identity), schema_(schema) {
  fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd_ < 0) Fail(path, "cannot open the journal");
  if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd_);
    fd_ = -1;
    if (error == EWOULDBLOCK)
      throw ConfigError(path + ": another pmoe-sweep process is writing this sweep");
    // NFS without a lock manager, Lustre without -o flock, ...: say so, do not blame a process.
    throw ConfigError(path + ": cannot lock the journal (" + std::strerror(error) +
                      "): its filesystem does not support flock; write the results (--out) to "
                      "one that does");
  }
  Recover();
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);  // also releases the lock
}

JournalContents ParseJournal(const std::string& data, const std::string& identity,
                             const RowSchema& schema) {
  JournalContents out;
  size_t offset = 0;
  while (data.size() - offset >= kHeaderBytes) {
    uint32_t magic, kind, crc;
    uint64_t length;
    std::memcpy(&magic, data.data() + offset, 4);
    std::memcpy(&kind, data.data() + offset + 4, 4);
    std::memcpy(&length, data.data() + offset + 8, 8);
    std::memcpy(&crc, data.data() + offset + 16, 4);
    const size_t start = offset + kHeaderBytes;
    if (magic != kMagic || length > data.size() - start) break;
    const char* payload = data.data() + start;
    if (Crc32(payload, length) != crc) break;
    if (!out.has_identity) {
      if (kind != kIdentity) break;
      out.identity = std::string(payload, length);
      out.has_identity = true;
    } else if (kind == kRows && out.identity == identity) {
      size_t at = 0;
      std::vector<TrialRow> batch;
      bool intact = true;
      while (at < length && intact) {
        TrialRow row;
        intact = schema.Decode(payload, length, &at, row);
        if (intact) batch.push_back(std::move(row));
      }
      if (!intact) break;  // passed its CRC but does not decode: another version wrote it
      out.rows.insert(out.rows.end(), batch.begin(), batch.end());
    }
    offset = out.intact_bytes = start + length;
  }
  return out;
}

JournalContents PeekJournal(const std::string& path, const std::string& identity,
                            const RowSchema& schema) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string data;
  try {
    data = ReadAll(fd, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return ParseJournal(data, identity, schema);
}

void Journal::Recover() {
  const std::string data = ReadAll(fd_, path_);
  JournalContents contents = ParseJournal(data, identity_, schema_);
  dropped_bytes_ = data.size() - contents.intact_bytes;
  if (!contents.has_identity) {  // empty or unreadable from the start: begin a fresh journal
    Reset();
    return;
  }
  matches_ = contents.identity == identity_;
  stored_identity_ = contents.identity;
  recovered_ = std::move(contents.rows);
  if (dropped_bytes_ > 0 && matches_) {
    if (::ftruncate(fd_, static_cast<off_t>(contents.intact_bytes)) != 0)
      Fail(path_, "cannot truncate");
    if (::fdatasync(fd_) != 0) Fail(path_, "fdatasync failed");
  }
  if (::lseek(fd_, 0, SEEK_END) < 0) Fail(path_, "cannot seek");
}

void Journal::Reset() {
  if (::ftruncate(fd_, 0) != 0) Fail(path_, "cannot truncate");
  if (::lseek(fd_, 0, SEEK_SET) < 0) Fail(path_, "cannot seek");
  recovered_.clear();
  matches_ = true;
  stored_identity_ = identity_;
  WriteRecord(kIdentity, identity_);
  // The journal's directory entry must be durable too before any row counts.
  const auto dir = std::filesystem::absolute(path_).parent_path().string();
  const int dfd = ::open(dir.c_str(), O_RDONLY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

void Journal::Append(const std::vector<TrialRow>& rows) {
  if (rows.empty()) return;
  PMOE_CHECK(matches_) << "appending to a journal of another sweep";
  std::string payload;
  for (const TrialRow& r : rows) schema_.Encode(r, payload);
  WriteRecord(kRows, payload);
}

void Journal::WriteRecord(uint32_t kind, const std::string& payload) {
  std::string record(kHeaderBytes, '\0');
  const uint64_t length = payload.size();
  const uint32_t crc = Crc32(payload.data(), payload.size());
  std::memcpy(&record[0], &kMagic, 4);
  std::memcpy(&record[4], &kind, 4);
  std::memcpy(&record[8], &length, 8);
  std::memcpy(&record[16], &crc, 4);
  record += payload;
  size_t written = 0;
  while (written < record.size()) {
    const ssize_t n = ::write(fd_, record.data() + written, record.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail(path_, "cannot append to the journal");
    written += static_cast<size_t>(n);
  }
  if (::fdatasync(fd_) != 0) Fail(path_, "fdatasync failed");
}

void Journal::Remove(const std::string& path) { std::filesystem::remove(path); }

}  // namespace pmoe
