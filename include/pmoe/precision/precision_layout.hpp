// Which cells of a sweep make up which precision target: the cells are grouped by every swept
// parameter but N, the model kind and the axis (one target per group, as the adaptive search has
// one series per group), and each cell gets its place on the curves (side, axis value, N).
// A CNN reads no l, so its key has no model.l: it joins, on the side of the numerator, every
// curve of the other model whose parameters include all of its own (paired data), taking that
// curve's axis value; such a cell then stands in several places of one target, with its rows read
// once.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "pmoe/precision/precision_config.hpp"

namespace pmoe {

using CellParams = std::map<std::string, std::string>;  // name -> value, from the canonical key

// "data.n=16;model.kind=cnn;N=500" -> its map.
CellParams ParseCanonicalKey(const std::string& key);

struct PrecisionGroup {
  std::string label;             // the parameters that set it apart ("all" when none do)
  std::vector<size_t> cells;     // per place on the curves: the sweep's cell index
  std::vector<CurveCell> curve;  // per place: side, axis value, N
};

// Throws ConfigError (naming `path`) when a cell lacks N or an axis parameter it must have, a
// ratio target's sweep has no CNN or no other model, or a group cannot form an exponent (fewer
// than two axis values, a curve with fewer than two N).
// The config's target statistic over a group's places (its curve): the exponents, the share, an
// accuracy or rate of one cell, an accuracy's slope at one N, a paired accuracy difference.
// Throws std::invalid_argument saying what the places lack (one N, one cell per side, ...).
TargetStatistic StatisticOf(const std::vector<CurveCell>& curve, const PrecisionConfig& config);

std::vector<PrecisionGroup> LayoutTargets(const std::vector<CellParams>& cells,
                                          const PrecisionConfig& config, const std::string& path);

}  // namespace pmoe
