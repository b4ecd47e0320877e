// Precision targets registered with the sweep engine (config_section.hpp): the [precision]
// section of a sweep config and its work source (precision_source.hpp). The engine names neither;
// a tool that reads sweep configs calls RegisterPrecisionTargets before it reads one.
#pragma once

#include "pmoe/precision/precision_config.hpp"
#include "pmoe/sweep/grid/sweep_config.hpp"

namespace pmoe {

// Registers the [precision] section; calling it again changes nothing.
void RegisterPrecisionTargets();

// The config's [precision] section; nullptr when it has none.
const PrecisionConfig* PrecisionOf(const SweepConfig& config);

}  // namespace pmoe
