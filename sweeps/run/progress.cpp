// Rate and ETA from this process's own trials (held ones took no time here).
#include "progress.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

namespace pmoe {
namespace {

std::string Clock(double seconds) {
  char buf[32];
  const long s = static_cast<long>(seconds + 0.5);
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ldh%02ldm", s / 3600, s / 60 % 60);
  else
    std::snprintf(buf, sizeof buf, "%ldm%02lds", s / 60, s % 60);
  return buf;
}

}  // namespace

Progress::Progress(std::ostream& out, bool terminal, size_t total, size_t held, double total_cost)
    : out_(out),
      terminal_(terminal),
      total_(total),
      held_(held),
      total_cost_(total_cost),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

void Progress::Update(size_t done, double done_cost) {
  done_cost_ = done_cost;
  const auto now = std::chrono::steady_clock::now();
  const double since = std::chrono::duration<double>(now - last_).count();
  if (since < (terminal_ ? 0.2 : 10.0)) return;
  last_ = now;
  Print(done, false);
}

void Progress::Finish(size_t done) { Print(done, true); }

void Progress::Print(size_t done, bool final) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double rate = elapsed > 0 ? done / elapsed : 0;
  const size_t all = total_ + held_, finished = held_ + done;
  // By the cost model once it has seen finished work, else by count.
  const double eta = total_cost_ > 0 && done_cost_ > 0
                         ? elapsed / done_cost_ * std::max(0.0, total_cost_ - done_cost_)
                     : rate > 0 ? (total_ - done) / rate
                                : 0;
  char line[256];
  if (terminal_) {
    const int width = 30;
    const int filled = all ? static_cast<int>(width * finished / all) : width;
    std::snprintf(line, sizeof line, "\r[%s%s] %zu/%zu trials  %.1f/s  ETA %s ",
                  std::string(filled, '#').c_str(), std::string(width - filled, ' ').c_str(),
                  finished, all, rate, Clock(eta).c_str());
    out_ << line << (final ? "\n" : "") << std::flush;
  } else {
    std::snprintf(line, sizeof line, "pmoe-sweep: %zu/%zu trials (%.1f%%), %.1f trials/s, %s %s\n",
                  finished, all, all ? 100.0 * finished / all : 100.0, rate,
                  final ? "elapsed" : "ETA", Clock(final ? elapsed : eta).c_str());
    out_ << line << std::flush;
  }
}

}  // namespace pmoe
