// Hit rates of the routers on the test set, overall and per class.
#include "pmoe/family/router_metrics.hpp"

#include <cmath>
#include <functional>

namespace pmoe {
namespace {

RouterHits CountHits(const Dataset& data, const std::function<bool(int)>& hit) {
  int pos = 0, neg = 0, pos_hits = 0, neg_hits = 0;
  std::vector<int> samples(data.classes, 0), hits_of(data.classes, 0);
  for (int i = 0; i < data.size(); ++i) {
    const bool h = hit(i);
    ++samples.at(data.label[i]);
    hits_of[data.label[i]] += h;
    if (data.label[i] == 0) {
      ++pos;
      pos_hits += h;
    } else {
      ++neg;
      neg_hits += h;
    }
  }
  RouterHits hits;
  hits.all = static_cast<double>(pos_hits + neg_hits) / data.size();
  hits.pos = pos > 0 ? static_cast<double>(pos_hits) / pos : NAN;
  hits.neg = neg > 0 ? static_cast<double>(neg_hits) / neg : NAN;
  for (int c = 0; c < data.classes; ++c)
    hits.per_class.push_back(samples[c] > 0 ? static_cast<double>(hits_of[c]) / samples[c] : NAN);
  return hits;
}

}  // namespace

RouterHits SeparateRouterHits(const std::vector<int>& routes, int k, int l, const Dataset& data) {
  return CountHits(data, [&](int i) {
    const int expert = data.label[i];
    const int* route = routes.data() + (static_cast<size_t>(i) * k + expert) * l;
    for (int t = 0; t < l; ++t)
      if (route[t] == data.disc_pos[i]) return true;
    return false;
  });
}

RouterHits JointGatingHits(const std::vector<int>& routes, int k, int l, const Dataset& data) {
  return CountHits(data, [&](int i) {
    for (int s = 0; s < k; ++s)
      if (routes[(static_cast<size_t>(i) * k + s) * l] == data.disc_pos[i]) return true;
    return false;
  });
}

}  // namespace pmoe
