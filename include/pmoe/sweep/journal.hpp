// The live record of a running sweep (notes/hdf5-crash-safety.md): an append-only file of
// CRC-checked records, one per batch of finished trials, each made durable with fdatasync before
// it counts. A kill at any moment leaves at most a torn last record, which fails its CRC and is
// dropped on reopening: it had not been acknowledged. The HDF5 file is rebuilt from this.
#pragma once

#include <string>
#include <vector>

#include "pmoe/sweep/trial_row.hpp"

namespace pmoe {

class Journal {
 public:
  // Opens (or creates) the journal at `path` and holds an exclusive lock on it, so that two
  // processes never write one sweep. `identity` names what the journal belongs to (config text,
  // seed, shard, the rows' columns); rows of a journal with another identity are not returned:
  // `matches` is false. Rows are encoded and decoded with `schema`, which the identity lists.
  Journal(const std::string& path, const std::string& identity, const RowSchema& schema);
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  bool matches() const { return matches_; }
  const std::string& stored_identity() const { return stored_identity_; }
  const std::vector<TrialRow>& recovered() const { return recovered_; }
  size_t dropped_bytes() const { return dropped_bytes_; }  // a torn tail, cut off on opening

  // Appends one record holding `rows` and returns once it is on disk.
  void Append(const std::vector<TrialRow>& rows);

  // Starts over: truncates to a fresh journal of this identity.
  void Reset();

  static void Remove(const std::string& path);

 private:
  void WriteRecord(uint32_t kind, const std::string& payload);
  void Recover();

  std::string path_, identity_, stored_identity_;
  RowSchema schema_;
  int fd_ = -1;
  bool matches_ = true;
  std::vector<TrialRow> recovered_;
  size_t dropped_bytes_ = 0;
};

uint32_t Crc32(const char* data, size_t size);

// What a journal's bytes hold: its identity and, when that is `identity`, the rows of every
// intact record up to the first torn or corrupt one.
struct JournalContents {
  bool has_identity = false;
  std::string identity;
  std::vector<TrialRow> rows;
  size_t intact_bytes = 0;
};
// Rows are decoded with `schema` only when the stored identity is `identity` (which lists it).
JournalContents ParseJournal(const std::string& data, const std::string& identity,
                             const RowSchema& schema);

// Reads a journal without locking or changing it (empty contents when there is none).
JournalContents PeekJournal(const std::string& path, const std::string& identity,
                            const RowSchema& schema);

}  // namespace pmoe
