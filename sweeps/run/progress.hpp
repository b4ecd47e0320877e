// Progress of a sweep on stderr: a redrawn bar with rate and ETA on a terminal, a plain line
// every few seconds otherwise (batch logs).
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>

namespace pmoe {

class Progress {
 public:
  // `total` trials to run in this process; `held` were already done before it started.
  Progress(std::ostream& out, bool terminal, size_t total, size_t held);
  void Update(size_t done);  // trials finished by this process so far
  void Finish(size_t done);

 private:
  void Print(size_t done, bool final);

  std::ostream& out_;
  bool terminal_;
  size_t total_, held_;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace pmoe
