// Fuzz target: the journal reader. The input is a script of chunks that build a journal: raw
// bytes, records with a correct CRC around fuzzed payloads, the expected identity, and rows
// encoded from fuzzed fields (so the fuzzer gets past the CRC to the decoder and the row checks).
// The reader must return, and what it returns must hold: every row inside the sweep's limits,
// damage counted whenever bytes were skipped.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "fuzz_support.hpp"
#include "pmoe/core/errors.hpp"
#include "pmoe/core/rng.hpp"
#include "pmoe/sweep/store/journal.hpp"

namespace {

using namespace pmoe;

const RowSchema& Schema() {
  static const RowSchema schema({{"router_hit", ColumnType::kF64, "a rate", true},
                                 {"router_steps", ColumnType::kI64, "a count"}},
                                /*classes=*/2);
  return schema;
}

const std::vector<std::string>& Keys() {
  static const std::vector<std::string> keys = {"N=1;", "N=2;", "N=3;"};
  return keys;
}

const std::string kIdentity = "fuzz identity";

class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  bool empty() const { return at_ >= size_; }
  uint8_t Byte() { return at_ < size_ ? data_[at_++] : 0; }
  std::string Bytes(size_t n) {
    n = std::min(n, size_ - std::min(at_, size_));
    std::string out(reinterpret_cast<const char*>(data_ + at_), n);
    at_ += n;
    return out;
  }
  template <typename T>
  T Value() {
    T v{};
    const std::string b = Bytes(sizeof(T));
    std::memcpy(&v, b.data(), b.size());
    return v;
  }

 private:
  const uint8_t* data_;
  size_t size_, at_ = 0;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const RowLimits limits = LimitsOf(Keys(), 5);
  // The raw input as a journal, then the journal its script builds.
  for (int pass = 0; pass < 2; ++pass) {
    std::string journal;
    if (pass == 0) {
      journal.assign(reinterpret_cast<const char*>(data), size);
    } else {
      Reader in(data, size);
      while (!in.empty()) {
        const uint8_t op = in.Byte();
        switch (op % 5) {
          case 0:
            journal += in.Bytes(in.Byte());
            break;
          case 1:
            journal += EncodeJournalRecord(kJournalRowsRecord, in.Bytes(in.Byte()));
            break;
          case 2:
            journal += EncodeJournalRecord(kJournalIdentityRecord, kIdentity);
            break;
          case 3:
            journal += EncodeJournalRecord(in.Byte() & 3, in.Bytes(in.Byte()));
            break;
          case 4: {
            std::string payload;
            const int rows = in.Byte() % 4;
            for (int r = 0; r < rows; ++r) {
              TrialRow row;
              const uint8_t cell = in.Byte();
              row.cell_id = cell < 3 ? HashString(Keys()[cell]) : in.Value<uint64_t>();
              row.result.trial = in.Value<int8_t>();
              row.result.status = static_cast<TrialStatus>(in.Byte() % 6);
              row.result.test_acc = in.Value<double>();
              row.result.message = in.Bytes(in.Byte() % 16);
              if (in.Byte() & 1) row.result.metrics.Set("router_hit", in.Value<double>());
              Schema().Encode(row, payload);
            }
            journal += EncodeJournalRecord(kJournalRowsRecord, payload);
            break;
          }
        }
      }
    }
    const JournalContents got = ParseJournal(journal, kIdentity, Schema(), limits);
    for (const TrialRow& row : got.rows) PMOE_FUZZ_REQUIRE(RowProblem(row, limits).empty());
    PMOE_FUZZ_REQUIRE(got.intact_bytes <= journal.size());
    PMOE_FUZZ_REQUIRE(got.damage.damaged_bytes + got.damage.torn_tail_bytes <= journal.size());
    if (!got.has_identity) PMOE_FUZZ_REQUIRE(got.rows.empty());
    if (got.damage.damaged_regions > 0) PMOE_FUZZ_REQUIRE(got.damage.records_lost > 0);
    (void)DescribeDamage("fuzz.journal", got.damage);
  }
  return 0;
}
