// Journal records: magic, kind, payload length, CRC-32 of the payload, payload. Kind 1 holds the
// identity, kind 2 a batch of encoded rows.
#include "pmoe/sweep/store/journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "pmoe/core/errors.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/family/family.hpp"
#include "pmoe/io/durable_file.hpp"

namespace pmoe {
namespace {

constexpr uint32_t kMagic = 0x524a4d50;  // "PMJR"
constexpr uint32_t kIdentity = kJournalIdentityRecord;
constexpr uint32_t kRows = kJournalRowsRecord;
constexpr size_t kHeaderBytes = 4 + 4 + 8 + 4;

// A system call on the journal failed (no space, read-only, I/O error): the store's trouble, exit
// status 3, with the path and the system's reason.
[[noreturn]] void Fail(const std::string& path, const std::string& what) {
  throw IoError(path + ": " + what + ": " + std::strerror(errno));
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

namespace {

// An intact record at `offset`: the magic number, a known kind, a length within the data and a
// matching CRC.
struct Record {
  uint32_t kind = 0;
  size_t start = 0, length = 0;
};

bool ReadRecord(const std::string& data, size_t offset, Record* record) {
  if (offset > data.size() || data.size() - offset < kHeaderBytes) return false;
  uint32_t magic, kind, crc;
  uint64_t length;
  std::memcpy(&magic, data.data() + offset, 4);
  std::memcpy(&kind, data.data() + offset + 4, 4);
  std::memcpy(&length, data.data() + offset + 8, 8);
  std::memcpy(&crc, data.data() + offset + 16, 4);
  const size_t start = offset + kHeaderBytes;
  if (magic != kMagic || (kind != kIdentity && kind != kRows) || length > data.size() - start)
    return false;
  if (Crc32(data.data() + start, length) != crc) return false;
  *record = {kind, start, static_cast<size_t>(length)};
  return true;
}

// Whether the bytes from `offset` to the end are one record cut short: fewer bytes than a header,
// or a header whose record reaches the end of the data (what a kill during an append leaves).
bool TornTail(const std::string& data, size_t offset) {
  const size_t left = data.size() - offset;
  if (left < kHeaderBytes) return true;
  uint32_t magic;
  uint64_t length;
  std::memcpy(&magic, data.data() + offset, 4);
  std::memcpy(&length, data.data() + offset + 8, 8);
  return magic == kMagic && length >= left - kHeaderBytes;
}

const std::string& MagicBytes() {
  static const std::string bytes(reinterpret_cast<const char*>(&kMagic), 4);
  return bytes;
}

// Whether `data` is nothing or the start of an identity record cut short by a kill: the magic
// number's first bytes, then (when that far) the identity's kind.
bool TornFirstRecord(const std::string& data) {
  const size_t magic = std::min<size_t>(data.size(), 4);
  if (data.compare(0, magic, MagicBytes(), 0, magic) != 0) return false;
  if (data.size() < 8) return true;
  uint32_t kind;
  std::memcpy(&kind, data.data() + 4, 4);
  return kind == kIdentity;
}

// How many records began in data[from, to): the magic numbers found there, at least one.
size_t RecordsIn(const std::string& data, size_t from, size_t to) {
  size_t count = 0;
  for (size_t at = data.find(MagicBytes(), from); at != std::string::npos && at < to;
       at = data.find(MagicBytes(), at + 1))
    ++count;
  return std::max<size_t>(count, 1);
}

// The offset of the next intact record after `offset`, or data.size() when there is none.
size_t NextIntact(const std::string& data, size_t offset) {
  Record record;
  for (size_t at = data.find(MagicBytes(), offset + 1); at != std::string::npos;
       at = data.find(MagicBytes(), at + 1))
    if (ReadRecord(data, at, &record)) return at;
  return data.size();
}

void AddDamage(JournalDamage& damage, const std::string& data, size_t from, size_t to) {
  if (damage.damaged_regions == 0) damage.first_damage_offset = from;
  ++damage.damaged_regions;
  damage.damaged_bytes += to - from;
  damage.records_lost += RecordsIn(data, from, to);
}

void WriteAll(int fd, const std::string& path, const std::string& bytes) {
  size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) Fail(path, "cannot append to the journal");
    written += static_cast<size_t>(n);
  }
}

}  // namespace

std::string EncodeJournalRecord(uint32_t kind, const std::string& payload) {
  std::string record(kHeaderBytes, '\0');
  const uint64_t length = payload.size();
  const uint32_t crc = Crc32(payload.data(), payload.size());
  std::memcpy(&record[0], &kMagic, 4);
  std::memcpy(&record[4], &kind, 4);
  std::memcpy(&record[8], &length, 8);
  std::memcpy(&record[16], &crc, 4);
  return record + payload;
}

namespace {

void SyncDirectoryOf(const std::string& path) {
  const auto dir = std::filesystem::absolute(path).parent_path().string();
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

// Opens `path` for appending and takes its lock; ConfigError when another process holds it.
int OpenLocked(const std::string& path, int flags) {
  // O_NOFOLLOW: a link planted at the journal's path would have us append to its target.
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags, 0644);
  if (fd < 0 && errno == ELOOP) RefuseSymlink(path, "the journal");
  if (fd < 0) Fail(path, "cannot open the journal");
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    ::close(fd);
    if (error == EWOULDBLOCK)
      throw ConfigError(path + ": another pmoe-sweep process is writing this sweep");
    // NFS without a lock manager, Lustre without -o flock, ...: say so, do not blame a process.
    throw ConfigError(path + ": cannot lock the journal (" + std::strerror(error) +
                      "): its filesystem does not support flock; write the results (--out) to "
                      "one that does");
  }
  return fd;
}

}  // namespace

RowLimits LimitsOf(const std::vector<std::string>& cell_keys, int trials) {
  RowLimits limits;
  for (const std::string& key : cell_keys) limits.cell_ids.push_back(HashString(key));
  std::sort(limits.cell_ids.begin(), limits.cell_ids.end());
  limits.trials = trials;
  return limits;
}

std::string RowProblem(const TrialRow& row, const RowLimits& limits) {
  const int status = static_cast<int>(row.result.status);
  if (status < 0 || status > static_cast<int>(TrialStatus::kError))
    return "status " + std::to_string(status) + " (expected 0..3: ok, diverged, infeasible, error)";
  const int stop = static_cast<int>(row.result.stop);
  if (stop < 0 || stop > static_cast<int>(StopReason::kRule))
    return "stop_reason " + std::to_string(stop) + " (expected 0.." +
           std::to_string(static_cast<int>(StopReason::kRule)) + ")";
  if (limits.trials == 0) return "";
  if (!std::binary_search(limits.cell_ids.begin(), limits.cell_ids.end(), row.cell_id))
    return "cell_id " + std::to_string(row.cell_id) + " is no cell of the sweep";
  if (row.result.trial < 0 || row.result.trial >= limits.trials)
    return "trial " + std::to_string(row.result.trial) + " (expected 0.." +
           std::to_string(limits.trials - 1) + ")";
  return "";
}

std::string DescribeDamage(const std::string& path, const JournalDamage& d) {
  std::string out;
  auto add = [&](const std::string& s) { out += (out.empty() ? "" : "; ") + s; };
  if (!d.moved_to.empty() && d.records_lost == 0)
    add("it is not a journal pmoe-sweep wrote (no record of ours in it): moved to " + d.moved_to +
        "; a fresh journal was started");
  else if (!d.moved_to.empty())
    add("its first record (the sweep's identity) is damaged, so none of its " +
        std::to_string(d.records_lost) + " records can be attributed to this sweep: moved to " +
        d.moved_to + "; trials the result file does not hold will be computed again");
  if (d.moved_to.empty() && d.damaged_regions > 0)
    add(std::to_string(d.damaged_regions) + " damaged stretch" +
        (d.damaged_regions > 1 ? "es" : "") + " (" + std::to_string(d.damaged_bytes) +
        " bytes from byte " + std::to_string(d.first_damage_offset) + "): at least " +
        std::to_string(d.records_lost) + " record" + (d.records_lost > 1 ? "s" : "") +
        " of finished trials lost, " + std::to_string(d.rows_after_damage) +
        " rows after the damage recovered; trials the result file does not hold will be "
        "computed again");
  if (d.rows_refused > 0)
    add(std::to_string(d.rows_refused) +
        " rows refused (they name no cell or trial of this "
        "sweep)");
  return out.empty() ? "" : path + ": " + out;
}

JournalContents ParseJournal(const std::string& data, const std::string& identity,
                             const RowSchema& schema, const RowLimits& limits) {
  JournalContents out;
  size_t offset = 0;
  Record record;
  while (offset < data.size()) {
    if (!ReadRecord(data, offset, &record)) {
      const size_t next = NextIntact(data, offset);
      if (next == data.size() && TornTail(data, offset)) {
        out.damage.torn_tail_bytes = data.size() - offset;
        break;
      }
      AddDamage(out.damage, data, offset, next);
      offset = next;
      continue;
    }
    const char* payload = data.data() + record.start;
    const size_t end = record.start + record.length;
    if (!out.has_identity) {
      if (offset != 0 || record.kind != kIdentity) {  // the identity is lost: so is everything
        out.damage.records_lost = RecordsIn(data, 0, data.size());
        out.damage.damaged_regions = 1;
        out.damage.damaged_bytes = data.size();
        return out;
      }
      out.identity = std::string(payload, record.length);
      out.has_identity = true;
    } else if (record.kind == kRows && out.identity == identity) {
      size_t at = 0;
      std::vector<TrialRow> batch;
      bool intact = true;
      while (at < record.length && intact) {
        TrialRow row;
        intact = schema.Decode(payload, record.length, &at, row);
        if (intact) batch.push_back(std::move(row));
      }
      if (!intact) {  // passed its CRC but does not decode: damage the CRC did not catch
        AddDamage(out.damage, data, offset, end);
      } else {
        for (TrialRow& row : batch) {
          if (!RowProblem(row, limits).empty()) {
            ++out.damage.rows_refused;
            continue;
          }
          out.damage.rows_after_damage += out.damage.damaged_regions > 0;
          out.rows.push_back(std::move(row));
        }
      }
    } else if (record.kind == kIdentity) {  // a second identity: not a journal we wrote
      AddDamage(out.damage, data, offset, end);
    }
    offset = out.intact_bytes = end;
  }
  if (!out.has_identity && out.damage.torn_tail_bytes == 0 && !data.empty()) {
    out.damage.records_lost = RecordsIn(data, 0, data.size());
    out.damage.damaged_regions = 1;
    out.damage.damaged_bytes = data.size();
  }
  return out;
}

JournalContents PeekJournal(const std::string& path, const std::string& identity,
                            const RowSchema& schema, const RowLimits& limits) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return {};
  std::string data;
  try {
    struct stat st;
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode))
      throw SchemaError(path + ": not a regular file (expected the sweep's journal)");
    data = ReadAll(fd, path);
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return ParseJournal(data, identity, schema, limits);
}

Journal::Journal(const std::string& path, const std::string& identity, const RowSchema& schema,
                 RowLimits limits)
    : path_(path), identity_(identity), schema_(schema), limits_(std::move(limits)) {
  fd_ = OpenLocked(path, 0);
  struct stat st;
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw ConfigError(path + ": not a regular file (expected the sweep's journal)");
  }
  Recover();
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);  // also releases the lock
}

void Journal::Recover() {
  const std::string data = ReadAll(fd_, path_);
  JournalContents contents = ParseJournal(data, identity_, schema_, limits_);
  damage_ = contents.damage;
  dropped_bytes_ = damage_.torn_tail_bytes + damage_.damaged_bytes;
  if (!contents.has_identity) {
    // Empty, or a torn first write: nothing was ever acknowledged. Otherwise rows may have been,
    // and the file is kept for the user rather than reset; so is any short file that is not the
    // beginning of a record of ours (issue 28: one was dropped without a word).
    if (damage_.damaged_regions > 0 || !TornFirstRecord(data)) MoveAside();
    Reset();
    return;
  }
  matches_ = contents.identity == identity_;
  stored_identity_ = contents.identity;
  recovered_ = std::move(contents.rows);
  if (matches_ && (damage_.damaged_regions > 0 || damage_.rows_refused > 0)) {
    Rewrite();  // the good records only, so that appends follow them and damage is told once
  } else if (matches_ && damage_.torn_tail_bytes > 0) {
    if (::ftruncate(fd_, static_cast<off_t>(contents.intact_bytes)) != 0)
      Fail(path_, "cannot truncate");
    if (::fdatasync(fd_) != 0) Fail(path_, "fdatasync failed");
  }
  if (::lseek(fd_, 0, SEEK_END) < 0) Fail(path_, "cannot seek");
}

void Journal::MoveAside() {
  damage_.moved_to = pmoe::MoveAside(path_, ".damaged");  // never over an earlier one
  const int fresh = OpenLocked(path_, O_TRUNC);
  ::close(fd_);
  fd_ = fresh;
}

void Journal::Rewrite() {
  // Written beside, made durable, then renamed over: a kill at any point leaves either journal.
  const std::string temp = path_ + ".rewrite";
  const int fd = OpenLocked(temp, O_TRUNC);
  try {
    WriteAll(fd, temp, EncodeJournalRecord(kIdentity, identity_));
    std::string payload;
    for (const TrialRow& r : recovered_) schema_.Encode(r, payload);
    if (!payload.empty()) WriteAll(fd, temp, EncodeJournalRecord(kRows, payload));
    if (::fdatasync(fd) != 0) Fail(temp, "fdatasync failed");
    if (::rename(temp.c_str(), path_.c_str()) != 0) Fail(temp, "cannot rename over " + path_);
  } catch (...) {
    ::close(fd);
    throw;
  }
  SyncDirectoryOf(path_);
  ::close(fd_);
  fd_ = fd;
}

void Journal::Reset() {
  if (::ftruncate(fd_, 0) != 0) Fail(path_, "cannot truncate");
  if (::lseek(fd_, 0, SEEK_SET) < 0) Fail(path_, "cannot seek");
  recovered_.clear();
  matches_ = true;
  stored_identity_ = identity_;
  WriteRecord(kIdentity, identity_);
  SyncDirectoryOf(path_);  // the journal's directory entry must be durable before any row counts
}

void Journal::Append(const std::vector<TrialRow>& rows) {
  if (rows.empty()) return;
  PMOE_CHECK(matches_) << "appending to a journal of another sweep";
  std::string payload;
  for (const TrialRow& r : rows) schema_.Encode(r, payload);
  WriteRecord(kRows, payload);
}

void Journal::WriteRecord(uint32_t kind, const std::string& payload) {
  WriteAll(fd_, path_, EncodeJournalRecord(kind, payload));
  if (::fdatasync(fd_) != 0) Fail(path_, "fdatasync failed");
}

void Journal::Remove(const std::string& path) { std::filesystem::remove(path); }

}  // namespace pmoe
