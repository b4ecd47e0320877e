// Nearest names by edit distance, for the "did you mean" of unknown options and config keys.
#include "pmoe/core/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace pmoe {
namespace {

// Lower case, '-' as '_': --n-test and N_test are the same name to a reader.
std::string Fold(const std::string& s) {
  std::string out = s;
  for (char& c : out) {
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (c == '-') c = '_';
  }
  return out;
}

}  // namespace

size_t EditDistance(const std::string& a_in, const std::string& b_in) {
  const std::string a = Fold(a_in), b = Fold(b_in);
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<size_t>> d(n + 1, std::vector<size_t>(m + 1));
  for (size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      const size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::string NearestName(const std::string& word, const std::vector<std::string>& candidates) {
  if (word.empty()) return "";
  const std::string folded = Fold(word);
  // A bare parameter name for a dotted one: "delta_d" for "data.delta_d".
  std::vector<std::string> suffixed;
  for (const std::string& c : candidates) {
    const std::string fc = Fold(c);
    if (fc.size() > folded.size() &&
        fc.compare(fc.size() - folded.size(), folded.size(), folded) == 0 &&
        fc[fc.size() - folded.size() - 1] == '.')
      suffixed.push_back(c);
  }
  if (suffixed.size() == 1) return suffixed[0];
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::string best;
  size_t best_distance = limit + 1;
  for (const std::string& c : candidates) {
    const size_t distance = EditDistance(word, c);
    if (distance < best_distance) {
      best_distance = distance;
      best = c;
    }
  }
  return best;
}
}  // namespace pmoe
