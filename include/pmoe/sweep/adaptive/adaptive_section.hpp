// The adaptive N* search registered with the sweep engine (config_section.hpp) as precision
// targets are: the [adaptive] section of a sweep config and its work source (adaptive_source.hpp),
// so that the runner names no work source. A tool that reads sweep configs calls
// RegisterAdaptiveSearch before it reads one (before RegisterPrecisionTargets, so that the
// sections are listed in that order).
#pragma once

namespace pmoe {

// Registers the [adaptive] section; calling it again changes nothing.
void RegisterAdaptiveSearch();

}  // namespace pmoe
