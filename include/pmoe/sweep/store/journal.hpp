// The live record of a running sweep (notes/hdf5-crash-safety.md): an append-only file of
// CRC-checked records, one per batch of finished trials, each made durable with fdatasync before
// it counts. A kill at any moment leaves at most a torn last record, which fails its CRC and is
// dropped on reopening: it had not been acknowledged. The HDF5 file is rebuilt from this.
//
// Damage anywhere else (a flipped byte, a bad sector) is reported, never passed over in silence:
// every record starts with a magic number and carries its length and CRC, so the reader finds the
// next intact record after a damaged stretch and keeps the rows before and after it. What was
// lost is counted (JournalDamage) for the runner and `status` to print; the lost trials are
// recomputed. A journal whose identity record is damaged cannot be attributed to a sweep: it is
// moved aside to PATH.damaged, never silently reset.
#pragma once

#include <string>
#include <vector>

#include "pmoe/sweep/store/trial_row.hpp"

namespace pmoe {

// What a journal's reader found wrong: a torn tail (the expected result of a kill during an
// append: never acknowledged, nothing lost) or damage (records lost that had been acknowledged).
struct JournalDamage {
  size_t torn_tail_bytes = 0;
  size_t damaged_regions = 0;  // stretches of bytes that are no intact record
  size_t damaged_bytes = 0;
  size_t first_damage_offset = 0;  // byte offset of the first one
  size_t records_lost = 0;         // at least this many records were in them
  size_t rows_refused = 0;         // rows of intact records that name no cell or trial of the sweep
  size_t rows_after_damage = 0;    // rows recovered from records after the first damage
  std::string moved_to;            // the identity record was damaged: the journal was moved here

  bool any() const { return damaged_regions > 0 || rows_refused > 0 || !moved_to.empty(); }
};

// "PATH: 2 damaged stretches (130 bytes from byte 4096): at least 2 records lost; 40 rows after
// them recovered; ..." ("" when nothing was lost).
std::string DescribeDamage(const std::string& path, const JournalDamage& damage);

// The cells and trial indices a sweep's rows may name; rows outside them are refused. Empty
// (trials == 0): no check.
struct RowLimits {
  std::vector<uint64_t> cell_ids;  // sorted
  int trials = 0;
};
RowLimits LimitsOf(const std::vector<std::string>& cell_keys, int trials);
// "" when the row is one of the sweep's; else what is wrong ("cell 0x1234 is not in the sweep").
std::string RowProblem(const TrialRow& row, const RowLimits& limits);

class Journal {
 public:
  // Opens (or creates) the journal at `path` and holds an exclusive lock on it, so that two
  // processes never write one sweep. `identity` names what the journal belongs to (config text,
  // seed, shard, the rows' columns); rows of a journal with another identity are not returned:
  // `matches` is false. Rows are encoded and decoded with `schema`, which the identity lists.
  // Rows outside `limits` (unknown cells, trial indices out of range) are refused and counted.
  Journal(const std::string& path, const std::string& identity, const RowSchema& schema,
          RowLimits limits = {});
  ~Journal();
  Journal(const Journal&) = delete;
  Journal& operator=(const Journal&) = delete;

  bool matches() const { return matches_; }
  const std::string& stored_identity() const { return stored_identity_; }
  const std::vector<TrialRow>& recovered() const { return recovered_; }
  size_t dropped_bytes() const { return dropped_bytes_; }  // torn tail and damage, cut out
  const JournalDamage& damage() const { return damage_; }

  // Appends one record holding `rows` and returns once it is on disk.
  void Append(const std::vector<TrialRow>& rows);

  // Starts over: truncates to a fresh journal of this identity.
  void Reset();

  static void Remove(const std::string& path);

 private:
  void WriteRecord(uint32_t kind, const std::string& payload);
  void Recover();
  void MoveAside();
  void Rewrite();

  std::string path_, identity_, stored_identity_;
  RowSchema schema_;
  RowLimits limits_;
  JournalDamage damage_;
  int fd_ = -1;
  bool matches_ = true;
  std::vector<TrialRow> recovered_;
  size_t dropped_bytes_ = 0;
};

uint32_t Crc32(const char* data, size_t size);

// One record's bytes as the journal writes them (kind 1: identity, 2: encoded rows), for tests
// and fuzzers that build journals.
inline constexpr uint32_t kJournalIdentityRecord = 1, kJournalRowsRecord = 2;
std::string EncodeJournalRecord(uint32_t kind, const std::string& payload);

// What a journal's bytes hold: its identity and, when that is `identity`, the rows of every
// intact record, before and after any damage.
struct JournalContents {
  bool has_identity = false;
  std::string identity;
  std::vector<TrialRow> rows;
  size_t intact_bytes = 0;  // end of the last intact record
  JournalDamage damage;
};
// Rows are decoded with `schema` only when the stored identity is `identity` (which lists it),
// and kept only when inside `limits`.
JournalContents ParseJournal(const std::string& data, const std::string& identity,
                             const RowSchema& schema, const RowLimits& limits = {});

// Reads a journal without locking or changing it (empty contents when there is none).
JournalContents PeekJournal(const std::string& path, const std::string& identity,
                            const RowSchema& schema, const RowLimits& limits = {});

}  // namespace pmoe
