// The first or last point of a list column per trial, as a metric of the results.
#include "pmoe/analysis/list_endpoints.hpp"

#include <cmath>

#include "pmoe/core/errors.hpp"
#include "pmoe/io/h5_file.hpp"

namespace pmoe {

bool AddListEndpoint(Results& results, const std::string& metric) {
  const size_t dot = metric.rfind('.');
  if (dot == std::string::npos || results.MetricIndex(metric) >= 0) return false;
  const std::string name = metric.substr(0, dot), end = metric.substr(dot + 1);
  if (end != "first" && end != "last") return false;
  if (results.files.size() != 1)
    throw ConfigError("command line: --metric " + metric + " reads one file's lists (" +
                      std::to_string(results.files.size()) + " files given)");
  const H5File file = H5File::OpenReadOnly(results.files[0]);
  const std::string lengths_path = "/trials/" + name, values_path = "/trial_lists/" + name;
  if (!file.Exists(values_path) || file.IntAttribute(lengths_path, "list").value_or(0) == 0)
    throw ConfigError("command line: --metric " + metric + ": " + name + " is no list column of " +
                      results.files[0]);
  // /trials/NAME holds each row's length, /trial_lists/NAME the rows' points one after another.
  const std::vector<double> lengths = file.ReadColumn<double>(lengths_path);
  const std::vector<double> values = file.ReadColumn<double>(values_path);
  if (lengths.size() != results.trials.size())
    throw SchemaError(results.files[0] + ": " + lengths_path + " has " +
                      std::to_string(lengths.size()) + " rows, /trials " +
                      std::to_string(results.trials.size()));
  results.metrics.push_back(
      {metric, (end == "first" ? "first point of " : "last point of ") + name + " (a list column)",
       false});
  size_t start = 0;
  for (size_t r = 0; r < lengths.size(); ++r) {
    const size_t length = static_cast<size_t>(lengths[r]);
    if (!(lengths[r] >= 0) || start + length > values.size())
      throw SchemaError(results.files[0] + ": " + values_path + " is shorter than " + lengths_path +
                        " says");
    double point = NAN;
    if (length > 0) point = values[end == "first" ? start : start + length - 1];
    TrialRecord& t = results.trials[r];
    t.metrics.resize(results.metrics.size() - 1, NAN);
    t.metrics.push_back(point);
    start += length;
  }
  return true;
}

}  // namespace pmoe
