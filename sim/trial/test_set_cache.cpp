#include "pmoe/trial/test_set_cache.hpp"

namespace pmoe {

size_t DatasetBytes(const Dataset& set) {
  return sizeof(float) * (static_cast<size_t>(set.x.size()) + set.y.size() +
                          static_cast<size_t>(set.pattern_scores.size())) +
         sizeof(int) * set.disc_pos.size();
}

std::shared_ptr<const Dataset> TestSetCache::Find(const std::string& data_key,
                                                  uint64_t data_seed, int count) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto it = sets_.find({data_key, data_seed, count});
  if (it == sets_.end()) return nullptr;
  ++hits_;
  return it->second;
}

void TestSetCache::Offer(const std::string& data_key, uint64_t data_seed, const Dataset& set) {
  const size_t size = DatasetBytes(set);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (bytes_ + size > budget_bytes_ || sets_.count({data_key, data_seed, set.size()})) return;
  }
  auto copy = std::make_shared<const Dataset>(set);  // outside the lock: megabytes
  std::lock_guard<std::mutex> lock(mutex_);
  if (bytes_ + size > budget_bytes_) return;  // another thread filled it meanwhile
  if (sets_.emplace(Key{data_key, data_seed, set.size()}, std::move(copy)).second) bytes_ += size;
}

size_t TestSetCache::hits() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return hits_;
}

size_t TestSetCache::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

size_t TestSetCache::sets() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return sets_.size();
}

}  // namespace pmoe
