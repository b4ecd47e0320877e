// Moved to the core (pmoe/core/metrics.hpp): data sources record metrics too, and the data layer
// sits below the families. Kept so that existing includes still compile.
#pragma once

#include "pmoe/core/metrics.hpp"
