// Catch2's main for the tests that read sweep configs: the work sources are registered first, as
// pmoe-sweep's main does (config_section.hpp), so that [adaptive] and [precision] read as there.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "pmoe/precision/precision_section.hpp"
#include "pmoe/sweep/adaptive/adaptive_section.hpp"

int main(int argc, char* argv[]) {
  pmoe::RegisterAdaptiveSearch();
  pmoe::RegisterPrecisionTargets();
  return Catch::Session().run(argc, argv);
}
