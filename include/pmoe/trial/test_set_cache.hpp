// Test sets shared between the trials of a sweep. A trial's test set depends on its data seed
// alone (master seed, data parameters, trial index: not N, not the model), so the cells of a
// sweep over N or model parameters draw the same few test sets again and again: phase_l.ini
// has 20 distinct ones among 1600 trials. The cache keeps them, up to a memory budget. When the
// run announces how many trials will ask for each set, a set is kept only while some are still
// to come, and dropped after its last. Once full the cache keeps what it has rather than
// evicting: a sweep visits its data seeds in cycles, and evicting the oldest would evict each
// set just before its next use.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>

#include "pmoe/data/dataset.hpp"

namespace pmoe {

class TestSetCache {
 public:
  explicit TestSetCache(size_t budget_bytes) : budget_bytes_(budget_bytes) {}

  // That `uses` trials will ask for this key; a key never announced is kept while there is room.
  void ExpectUses(const std::string& data_key, uint64_t data_seed, int count, int uses);

  // The set kept under (data parameters' canonical key, data seed, sample count), or null. Each
  // call counts as one of the key's announced uses, found or not.
  std::shared_ptr<const Dataset> Find(const std::string& data_key, uint64_t data_seed, int count);

  // Keeps a copy of `set` under that key if the budget has room for it.
  void Offer(const std::string& data_key, uint64_t data_seed, const Dataset& set);

  struct Counts {
    size_t hits = 0;        // Find calls that found their set
    size_t kept = 0;        // sets kept so far, dropped ones included
    size_t bytes = 0;       // what the sets kept now occupy
    size_t peak_bytes = 0;  // the most they occupied at once
  };
  Counts counts() const;

 private:
  using Key = std::tuple<std::string, uint64_t, int>;
  bool Wanted(const Key& key, size_t size) const;  // with mutex_ held

  const size_t budget_bytes_;
  mutable std::mutex mutex_;
  std::map<Key, std::shared_ptr<const Dataset>> sets_;
  std::map<Key, int> uses_left_;  // announced uses not yet asked for
  Counts counts_;
};

// What a data set occupies in memory.
size_t DatasetBytes(const Dataset& set);

}  // namespace pmoe
