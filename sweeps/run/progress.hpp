// Progress of a sweep on stderr: a redrawn bar with rate and ETA on a terminal, a plain line
// every few seconds otherwise (batch logs). The ETA is the cost model's estimate of the work
// that remains (EstimateTrialSeconds per trial), scaled by the rate seen: wall seconds per
// modelled second of the trials finished so far. Counting trials instead misleads, since the
// costliest run first.
#pragma once

#include <chrono>
#include <cstddef>
#include <ostream>

namespace pmoe {

class Progress {
 public:
  // `total` trials to run in this process; `held` were already done before it started.
  // `total_cost`: the modelled seconds of those `total` trials (0: ETA by count).
  Progress(std::ostream& out, bool terminal, size_t total, size_t held, double total_cost = 0);
  // Trials finished by this process so far, and their modelled seconds.
  void Update(size_t done, double done_cost = 0);
  void Finish(size_t done);

 private:
  void Print(size_t done, bool final);

  std::ostream& out_;
  bool terminal_;
  size_t total_, held_;
  double total_cost_, done_cost_ = 0;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace pmoe
