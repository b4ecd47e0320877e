// Moved to pmoe/stats/stats.hpp (the statistics library the sweeps and the analysis share).
// Kept so that includes written before the move still compile.
#pragma once

#include "pmoe/stats/stats.hpp"
