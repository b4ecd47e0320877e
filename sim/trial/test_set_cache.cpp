// The test-set cache: two maps under one mutex; the megabyte copies are made outside it.
#include "pmoe/trial/test_set_cache.hpp"

#include <algorithm>

namespace pmoe {

size_t DatasetBytes(const Dataset& set) {
  return sizeof(float) *
             (static_cast<size_t>(set.x.size()) + static_cast<size_t>(set.pattern_scores.size())) +
         sizeof(int) * (set.disc_pos.size() + set.label.size());
}

void TestSetCache::ExpectUses(const std::string& data_key, uint64_t data_seed, int count,
                              int uses) {
  std::lock_guard<std::mutex> lock(mutex_);
  uses_left_[{data_key, data_seed, count}] += uses;
}

std::shared_ptr<const Dataset> TestSetCache::Find(const std::string& data_key, uint64_t data_seed,
                                                  int count) {
  const Key key{data_key, data_seed, count};
  std::lock_guard<std::mutex> lock(mutex_);
  const auto left = uses_left_.find(key);
  const bool last_use = left != uses_left_.end() && --left->second <= 0;
  const auto it = sets_.find(key);
  if (it == sets_.end()) return nullptr;
  ++counts_.hits;
  std::shared_ptr<const Dataset> set = it->second;
  if (last_use) {  // the caller's pointer keeps it alive until its trial ends
    counts_.bytes -= DatasetBytes(*set);
    sets_.erase(it);
  }
  return set;
}

bool TestSetCache::Wanted(const Key& key, size_t size) const {
  const auto left = uses_left_.find(key);
  if (left != uses_left_.end() && left->second <= 0) return false;  // nobody will ask again
  return counts_.bytes + size <= budget_bytes_ && !sets_.count(key);
}

void TestSetCache::Offer(const std::string& data_key, uint64_t data_seed, const Dataset& set) {
  const size_t size = DatasetBytes(set);
  const Key key{data_key, data_seed, set.size()};
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!Wanted(key, size)) return;
  }
  auto copy = std::make_shared<const Dataset>(set);  // outside the lock: megabytes
  std::lock_guard<std::mutex> lock(mutex_);
  if (!Wanted(key, size)) return;  // other threads changed things meanwhile
  sets_.emplace(key, std::move(copy));
  counts_.bytes += size;
  counts_.peak_bytes = std::max(counts_.peak_bytes, counts_.bytes);
  ++counts_.kept;
}

TestSetCache::Counts TestSetCache::counts() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return counts_;
}

}  // namespace pmoe
