#include "sweep_json.hpp"

#include "pmoe/sweep/adaptive/psi_search.hpp"

namespace pmoe {

void WriteSeriesJson(JsonWriter& w, const std::vector<SeriesOutcome>& series) {
  w.Key("series").BeginArray();
  for (const SeriesOutcome& s : series)
    w.BeginObject()
        .Field("label", s.label)
        .Field("state", SearchStateName(s.state))
        .Field("rounds", s.rounds)
        .Field("trials", s.trials)
        .Field("N_star", s.estimate.median)
        .Field("lo", s.estimate.lo)
        .Field("hi", s.estimate.hi)
        .EndObject();
  w.EndArray();
}

}  // namespace pmoe
